//! SearXNG, the self-hosted open-source metasearch engine: `GET {base}/search?q=…&format=json`
//! (the instance must list `json` under `search.formats` in its settings.yml, or it answers 403).
//! Results carry `url`, `title`, `content` and, when an engine dates them, `publishedDate`.

use serde::Deserialize;

use super::text::plain_text;
use super::{json, SearchProvider, WebResult, WebSearchError};

pub(crate) struct Searxng {
    /// The instance's base URL, without a trailing slash.
    base_url: String,
}

impl Searxng {
    pub(crate) fn new(base_url: &str) -> Self {
        Self {
            base_url: base_url.trim_end_matches('/').to_string(),
        }
    }
}

#[derive(Deserialize)]
struct Response {
    results: Vec<Result>,
}

#[derive(Deserialize)]
struct Result {
    url: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    content: Option<String>,
    #[serde(default, rename = "publishedDate")]
    published_date: Option<String>,
}

impl SearchProvider for Searxng {
    fn name(&self) -> &'static str {
        "searxng"
    }

    fn endpoint(&self) -> String {
        format!("{}/search", self.base_url)
    }

    fn request(
        &self,
        client: &reqwest::Client,
        question: &str,
        _count: usize,
    ) -> reqwest::RequestBuilder {
        // SearXNG returns one page (about 20 results) and takes no count.
        client
            .get(self.endpoint())
            .query(&[("q", question), ("format", "json"), ("pageno", "1")])
            .header(reqwest::header::ACCEPT, "application/json")
    }

    fn parse(&self, body: &[u8]) -> std::result::Result<Vec<WebResult>, WebSearchError> {
        let response: Response = json(body)?;
        Ok(response
            .results
            .into_iter()
            .map(|r| WebResult {
                text: plain_text(r.content.as_deref().unwrap_or_default()),
                title: plain_text(&r.title),
                url: r.url,
                published: r.published_date.filter(|d| !d.trim().is_empty()),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A response in SearXNG's documented JSON format (fields as the search API documents them;
    /// written for the tests, Tally's machines have no network to record a live one).
    const RECORDED: &str = include_str!("../../../tests/fixtures/web/searxng-jupiter-moons.json");

    #[test]
    fn reads_the_recorded_response() {
        let results = Searxng::new("http://x/")
            .parse(RECORDED.as_bytes())
            .unwrap();
        assert_eq!(results.len(), 8);
        assert_eq!(
            results[0].url,
            "https://science.nasa.gov/jupiter/jupiter-moons/"
        );
        assert!(
            results[0].text.starts_with("Jupiter has 95 moons"),
            "{}",
            results[0].text
        );
        assert_eq!(results[0].published.as_deref(), Some("2024-03-14T00:00:00"));
        assert!(results[1].published.is_none());
        assert!(results.iter().all(|r| !r.text.contains('<')));
    }

    #[test]
    fn a_body_without_results_is_malformed() {
        let e = Searxng::new("http://x")
            .parse(b"<html>Forbidden</html>")
            .unwrap_err();
        assert!(matches!(e, WebSearchError::Malformed(_)), "{e}");
        let e = Searxng::new("http://x")
            .parse(br#"{"query": "x"}"#)
            .unwrap_err();
        assert!(e.to_string().contains("cannot read"), "{e}");
    }
}
