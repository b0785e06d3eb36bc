//! Snippets from a web search engine, for questions the local corpus knows nothing about (as
//! CoQEx fetches fresh snippets per question).
//!
//! Each provider ([`SearchProvider`], one file each) says how to ask its API and how to read its
//! answer; [`WebSearch`] does the sending with a bounded time, turns every failure into a
//! [`WebSearchError`] a person can read, and remembers the source's state for the status panel.
//! `sources::WebSource` stores fetched snippets as a snippet set (`store::snippet_sets`) and
//! reuses them for a repeated question.

mod brave;
mod searxng;
pub(crate) mod text;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::StatusCode;

pub(crate) use brave::{Brave, BRAVE_BASE_URL};
pub(crate) use searxng::Searxng;

pub(crate) use tally_types::web_search::WebResult;

/// Why a web search gave no snippets. Each says what happened in words a person can read; the
/// answer shows it next to "answered from the local corpus instead".
#[derive(Debug, Clone, thiserror::Error)]
pub enum WebSearchError {
    #[error("gave no answer within {0} ms")]
    Timeout(u64),
    #[error("could not be reached")]
    Unreachable(#[source] Arc<reqwest::Error>),
    #[error("refused: too many requests (HTTP 429){}", retry_after_text(*.retry_after_s))]
    RateLimited { retry_after_s: Option<u64> },
    #[error("refused: the plan's quota is used up ({detail})")]
    QuotaExceeded {
        /// The provider's own words.
        detail: String,
    },
    #[error("refused the request (HTTP {status}: {reason})")]
    Refused { status: u16, reason: String },
    #[error("failed on its side (HTTP {0})")]
    ServerError(u16),
    #[error("answered with a body Tally cannot read")]
    Malformed(#[source] UnreadableBody),
    #[error("found no results for this question")]
    NoResults,
}

/// Why a provider's answer could not be read: the cause of [`WebSearchError::Malformed`].
#[derive(Debug, Clone, thiserror::Error)]
pub enum UnreadableBody {
    /// The body broke off or could not be decoded.
    #[error("its transfer failed")]
    Transfer(#[source] Arc<reqwest::Error>),
    /// It is not the JSON the provider's API describes.
    #[error("not the expected JSON")]
    Json(#[source] Arc<serde_json::Error>),
    /// It is JSON of another kind of response than a search's.
    #[error("a response of type `{kind}`, not `search`")]
    OtherKind {
        /// The kind it says it is.
        kind: String,
    },
}

fn retry_after_text(seconds: Option<u64>) -> String {
    seconds
        .map(|s| format!(", retry after {s} s"))
        .unwrap_or_default()
}

/// A web search API: how to ask it and how to read its answers.
pub trait SearchProvider: Send + Sync {
    /// The provider's name as stored with its snippets (`searxng`, `brave`).
    fn name(&self) -> &'static str;

    /// Where it is asked, for the status panel (never with a key).
    fn endpoint(&self) -> String;

    /// The request for up to `count` results for `question`.
    fn request(
        &self,
        client: &reqwest::Client,
        question: &str,
        count: usize,
    ) -> reqwest::RequestBuilder;

    /// Reads a successful response's body.
    fn parse(&self, body: &[u8]) -> Result<Vec<WebResult>, WebSearchError>;

    /// Reads a refusal (4xx): by default from its status alone.
    fn refusal(
        &self,
        status: StatusCode,
        _body: &[u8],
        retry_after_s: Option<u64>,
    ) -> WebSearchError {
        refusal_by_status(status, retry_after_s)
    }
}

/// A 4xx by its status: 429 is a rate limit, the rest a refusal with the status's reason.
pub(crate) fn refusal_by_status(status: StatusCode, retry_after_s: Option<u64>) -> WebSearchError {
    if status == StatusCode::TOO_MANY_REQUESTS {
        return WebSearchError::RateLimited { retry_after_s };
    }
    WebSearchError::Refused {
        status: status.as_u16(),
        reason: status.canonical_reason().unwrap_or("refused").to_string(),
    }
}

/// The source's state as the status panel shows it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SourceState {
    /// When the last search ended, RFC 3339; `None` before the first.
    pub last_at: Option<String>,
    /// The last search's failure; `None` after a success.
    pub last_error: Option<String>,
    pub searches: u64,
    pub failures: u64,
}

/// A configured web search: its provider, an HTTP client with a bounded time, and its state.
pub struct WebSearch {
    provider: Box<dyn SearchProvider>,
    client: reqwest::Client,
    timeout: Duration,
    /// Results asked for per question.
    pub count: usize,
    state: Mutex<SourceState>,
}

impl WebSearch {
    /// A search through `provider` that gives up after `timeout`.
    pub fn new(provider: Box<dyn SearchProvider>, timeout: Duration, count: usize) -> Self {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .user_agent(concat!("Tally/", env!("CARGO_PKG_VERSION")))
            .build()
            // Only fails when the TLS backend cannot start; then requests fail and say so.
            .unwrap_or_default();
        Self {
            provider,
            client,
            timeout,
            count,
            state: Mutex::new(SourceState::default()),
        }
    }

    pub fn provider(&self) -> &str {
        self.provider.name()
    }

    pub fn endpoint(&self) -> String {
        self.provider.endpoint()
    }

    pub fn state(&self) -> SourceState {
        self.state.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Searches the web for `question`; records how it went for the status panel.
    pub async fn search(&self, question: &str) -> Result<Vec<WebResult>, WebSearchError> {
        let result = self.send(question).await;
        if let Ok(mut state) = self.state.lock() {
            state.searches += 1;
            state.last_at = Some(now_rfc3339());
            match &result {
                Ok(_) => state.last_error = None,
                Err(e) => {
                    state.failures += 1;
                    state.last_error = Some(tally_types::error::Causes(e).to_string());
                }
            }
        }
        if let Err(e) = &result {
            tracing::warn!(
                "web search ({}) failed: {}",
                self.provider.name(),
                tally_types::error::Causes(e)
            );
        }
        result
    }

    async fn send(&self, question: &str) -> Result<Vec<WebResult>, WebSearchError> {
        let request = self.provider.request(&self.client, question, self.count);
        let response = request.send().await.map_err(|e| self.transport_error(e))?;
        let status = response.status();
        let retry_after_s = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let body = response
            .bytes()
            .await
            .map_err(|e| self.transport_error(e))?;
        if status.is_server_error() {
            return Err(WebSearchError::ServerError(status.as_u16()));
        }
        if !status.is_success() {
            return Err(self.provider.refusal(status, &body, retry_after_s));
        }
        let mut results = self.provider.parse(&body)?;
        // A result is a page to open: one whose link is not a web page (`javascript:`,
        // `data:`, a relative path) is not a result, whatever its text.
        results.retain(|r| !r.text.trim().is_empty() && is_web_link(&r.url));
        results.truncate(self.count);
        if results.is_empty() {
            return Err(WebSearchError::NoResults);
        }
        Ok(results)
    }

    fn transport_error(&self, e: reqwest::Error) -> WebSearchError {
        if e.is_timeout() {
            WebSearchError::Timeout(self.timeout.as_millis() as u64)
        } else if e.is_decode() || e.is_body() {
            WebSearchError::Malformed(UnreadableBody::Transfer(Arc::new(e.without_url())))
        } else {
            // Without its URL: the question is in it.
            WebSearchError::Unreachable(Arc::new(e.without_url()))
        }
    }
}

/// Whether `url` is an absolute `http` or `https` address: the only links a page writes for a
/// web result.
pub(crate) fn is_web_link(url: &str) -> bool {
    reqwest::Url::parse(url.trim())
        .is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some())
}

fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Reads a JSON body into `T`, or says what was wrong with it.
fn json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, WebSearchError> {
    serde_json::from_slice(body)
        .map_err(|e| WebSearchError::Malformed(UnreadableBody::Json(Arc::new(e))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_and_https_addresses_are_web_links() {
        for good in [
            "https://example.org/a?b=c",
            "http://192.0.2.1:8080/",
            " HTTPS://EXAMPLE.ORG ",
        ] {
            assert!(is_web_link(good), "{good}");
        }
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:msgbox(1)",
            "file:///etc/passwd",
            "/relative/path",
            "//example.org/protocol-relative",
            "",
        ] {
            assert!(!is_web_link(bad), "{bad}");
        }
    }

    #[tokio::test]
    async fn an_unreachable_engine_is_a_failure_with_a_reason_and_the_state_says_so() {
        // Port 1 on the loopback: nothing listens there.
        let search = WebSearch::new(
            Box::new(Searxng::new("http://127.0.0.1:1")),
            Duration::from_millis(2000),
            20,
        );
        assert_eq!(search.state(), SourceState::default());
        let e = search
            .search("how many moons does jupiter have")
            .await
            .unwrap_err();
        assert!(matches!(e, WebSearchError::Unreachable(_)), "{e}");
        assert!(e.to_string().starts_with("could not be reached"), "{e}");
        let state = search.state();
        assert_eq!((state.searches, state.failures), (1, 1));
        // The state says why, cause by cause: the connection's own error follows.
        let said = state.last_error.unwrap_or_default();
        assert_eq!(said, tally_types::error::Causes(&e).to_string());
        assert!(said.starts_with("could not be reached: "), "{said}");
        assert!(state.last_at.is_some());
    }
}
