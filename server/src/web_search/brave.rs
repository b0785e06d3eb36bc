//! The Brave Search API: `GET https://api.search.brave.com/res/v1/web/search?q=…&count=20` with
//! the key in the `X-Subscription-Token` header. Results are under `web.results[]` with `url`,
//! `title`, `description` (HTML: matched words in `<strong>`), `age` / `page_age` and, on plans
//! that have them, `extra_snippets`. Refusals carry an `ErrorResponse` whose `error.code` and
//! `error.meta` (quota_limit, quota_current) tell a rate limit from a used-up quota.

use reqwest::StatusCode;
use serde::Deserialize;

use super::text::plain_text;
use super::{json, refusal_by_status, SearchProvider, UnreadableBody, WebResult, WebSearchError};

/// The public endpoint's base URL.
pub(crate) const BRAVE_BASE_URL: &str = "https://api.search.brave.com";
/// The most results one request may ask for.
const MAX_COUNT: usize = 20;

pub(crate) struct Brave {
    base_url: String,
    /// The subscription token; sent in a header, never logged or shown.
    key: String,
}

impl Brave {
    pub(crate) fn new(base_url: &str, key: String) -> Self {
        Self {
            base_url: base_url.trim_end_matches('/').to_string(),
            key,
        }
    }
}

#[derive(Deserialize)]
struct Response {
    #[serde(rename = "type")]
    kind: String,
    /// Absent when the web has no results for the query.
    web: Option<Web>,
}

#[derive(Deserialize)]
struct Web {
    results: Vec<Result>,
}

#[derive(Deserialize)]
struct Result {
    url: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: String,
    age: Option<String>,
    page_age: Option<String>,
    #[serde(default)]
    extra_snippets: Vec<String>,
}

#[derive(Deserialize)]
struct ErrorResponse {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(default)]
    code: String,
    #[serde(default)]
    detail: String,
    meta: Option<ErrorMeta>,
}

#[derive(Deserialize)]
struct ErrorMeta {
    quota_limit: Option<u64>,
    quota_current: Option<u64>,
}

impl SearchProvider for Brave {
    fn name(&self) -> &'static str {
        "brave"
    }

    fn endpoint(&self) -> String {
        format!("{}/res/v1/web/search", self.base_url)
    }

    fn request(
        &self,
        client: &reqwest::Client,
        question: &str,
        count: usize,
    ) -> reqwest::RequestBuilder {
        let count = count.clamp(1, MAX_COUNT).to_string();
        client
            .get(self.endpoint())
            .query(&[
                ("q", question),
                ("count", count.as_str()),
                ("extra_snippets", "true"),
            ])
            .header(reqwest::header::ACCEPT, "application/json")
            .header("X-Subscription-Token", &self.key)
    }

    fn parse(&self, body: &[u8]) -> std::result::Result<Vec<WebResult>, WebSearchError> {
        let response: Response = json(body)?;
        if response.kind != "search" {
            return Err(WebSearchError::Malformed(UnreadableBody::OtherKind {
                kind: response.kind,
            }));
        }
        let results = response.web.map(|w| w.results).unwrap_or_default();
        Ok(results
            .into_iter()
            .map(|r| {
                // One page is one snippet (one vote in the count): its description and the
                // extra snippets from the same page.
                let mut text = plain_text(&r.description);
                for extra in &r.extra_snippets {
                    let extra = plain_text(extra);
                    if !extra.is_empty() {
                        text.push_str(" … ");
                        text.push_str(&extra);
                    }
                }
                WebResult {
                    url: r.url,
                    title: plain_text(&r.title),
                    text,
                    published: r.page_age.or(r.age).filter(|d| !d.trim().is_empty()),
                }
            })
            .collect())
    }

    fn refusal(
        &self,
        status: StatusCode,
        body: &[u8],
        retry_after_s: Option<u64>,
    ) -> WebSearchError {
        let Ok(ErrorResponse { error }) = serde_json::from_slice::<ErrorResponse>(body) else {
            return refusal_by_status(status, retry_after_s);
        };
        let used_up = error.meta.as_ref().is_some_and(
            |m| matches!((m.quota_current, m.quota_limit), (Some(c), Some(l)) if l > 0 && c >= l),
        );
        if used_up || error.code.contains("QUOTA") {
            return WebSearchError::QuotaExceeded {
                detail: error.detail,
            };
        }
        if status == StatusCode::TOO_MANY_REQUESTS {
            return WebSearchError::RateLimited { retry_after_s };
        }
        WebSearchError::Refused {
            status: status.as_u16(),
            reason: if error.detail.is_empty() {
                error.code
            } else {
                error.detail
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Responses in the Brave Search API's documented format (WebSearchApiResponse and its
    /// ErrorResponse; written for the tests, Tally's machines have no network to record one).
    const RECORDED: &str = include_str!("../../../tests/fixtures/web/brave-jupiter-moons.json");
    const RATE_LIMITED: &str = include_str!("../../../tests/fixtures/web/brave-rate-limited.json");
    const QUOTA: &str = include_str!("../../../tests/fixtures/web/brave-quota.json");

    fn brave() -> Brave {
        Brave::new(BRAVE_BASE_URL, "secret".into())
    }

    #[test]
    fn reads_the_recorded_response() {
        let results = brave().parse(RECORDED.as_bytes()).unwrap();
        assert_eq!(results.len(), 6);
        let first = &results[0];
        assert_eq!(first.url, "https://science.nasa.gov/jupiter/jupiter-moons/");
        assert!(
            first.text.starts_with("Jupiter has 95 moons"),
            "{}",
            first.text
        );
        assert!(
            first.text.contains(" … "),
            "extra snippets are kept: {}",
            first.text
        );
        assert!(!first.text.contains("<strong>"));
        assert_eq!(first.published.as_deref(), Some("2024-03-14T00:00:00"));
    }

    #[test]
    fn no_web_section_is_no_results_and_another_type_is_malformed() {
        let none = brave()
            .parse(br#"{"type": "search", "query": {"original": "x"}}"#)
            .unwrap();
        assert!(none.is_empty());
        let e = brave().parse(br#"{"type": "ErrorResponse"}"#).unwrap_err();
        assert!(matches!(e, WebSearchError::Malformed(_)), "{e}");
    }

    #[test]
    fn refusals_tell_rate_limit_from_quota() {
        let e = brave().refusal(
            StatusCode::TOO_MANY_REQUESTS,
            RATE_LIMITED.as_bytes(),
            Some(1),
        );
        assert!(
            matches!(
                e,
                WebSearchError::RateLimited {
                    retry_after_s: Some(1)
                }
            ),
            "{e}"
        );
        let e = brave().refusal(StatusCode::TOO_MANY_REQUESTS, QUOTA.as_bytes(), None);
        assert!(matches!(e, WebSearchError::QuotaExceeded { .. }), "{e}");
        assert!(e.to_string().contains("quota"), "{e}");
        let e = brave().refusal(StatusCode::UNAUTHORIZED, b"not json", None);
        assert!(e.to_string().contains("HTTP 401"), "{e}");
    }
}
