//! Web snippets for a count question: a stored set fetched recently for the same question, or a
//! fresh search stored as a new set. Either way the answer names the set.

use std::time::{Duration, Instant};

use std::sync::Arc;

use tally_answer::{timing_of, FetchCause, FetchError, Fetched, WebSnippets};
use tally_documents::corpus::datasets::Snippet;
use tally_types::count::Stage;
use tally_types::count::{Retrieval, SnippetLink, SnippetOrigin, SnippetSource as Source};

use crate::web_search::{WebSearch, WebSearchError};
use tally_store::db::{Database, DbError};
use tally_store::snippet_sets::{self, SnippetSet};

/// The configured web search with the store its snippet sets are kept in.
pub struct WebSource {
    pub search: WebSearch,
    db: Database,
    /// A set fetched this recently for the same question is reused (zero: always search).
    reuse: Duration,
}

impl WebSource {
    pub fn new(search: WebSearch, db: Database, reuse: Duration) -> Self {
        Self { search, db, reuse }
    }

    /// Snippets for `question`: a recent stored set, or a fresh search (stored); the error
    /// says why the search failed.
    async fn snippets(&self, question: &str) -> Result<Fetched, WebSearchError> {
        let provider = self.search.provider().to_string();
        if let Some(set) = self.recent(question, &provider).await {
            return Ok(to_snippets(&set, Some(set.id), true));
        }
        let results = self.search.search(question).await?;
        match snippet_sets::save(&self.db, question, &provider, &results).await {
            Ok(set) => Ok(to_snippets(&set, Some(set.id), false)),
            Err(e) => {
                // The snippets are still good; the answer says that they were not kept.
                tracing::warn!(
                    "web snippets not stored: {}",
                    tally_types::error::Causes(&e)
                );
                let set = SnippetSet {
                    id: 0,
                    source: provider,
                    fetched_at: chrono::Utc::now(),
                    results,
                };
                Ok(to_snippets(&set, None, false))
            }
        }
    }

    /// The stored set `id` for `question`, to answer exactly as before: `None` when there is
    /// no such set for this question; the error says why the store could not be read.
    pub async fn stored(&self, question: &str, id: i64) -> Result<Option<Fetched>, DbError> {
        let started = Instant::now();
        let set = snippet_sets::by_id(&self.db, id, question).await?;
        Ok(set.map(|set| Fetched {
            timings: vec![timing_of(Stage::StoredSnippetSet, started)],
            ..to_snippets(&set, Some(set.id), true)
        }))
    }

    async fn recent(&self, question: &str, provider: &str) -> Option<SnippetSet> {
        if self.reuse.is_zero() {
            return None;
        }
        let since = chrono::Utc::now() - chrono::Duration::from_std(self.reuse).ok()?;
        match snippet_sets::recent(&self.db, question, provider, since).await {
            Ok(set) => set.filter(|s| !s.results.is_empty()),
            Err(e) => {
                tracing::warn!(
                    "stored web snippets could not be read: {}",
                    tally_types::error::Causes(&e)
                );
                None
            }
        }
    }
}

impl WebSource {
    /// Snippets for `question`: a recent stored set, or a fresh search stored as a new set.
    pub async fn fetch(&self, question: &str) -> Result<Fetched, FetchError> {
        let started = Instant::now();
        let fetched = self.snippets(question).await;
        let timing = timing_of(Stage::WebSearch, started);
        match fetched {
            Ok(fetched) => Ok(Fetched {
                timings: vec![timing],
                ..fetched
            }),
            Err(failure) => Err(FetchError {
                cause: FetchCause::Web(Box::new(failure)),
                timing,
            }),
        }
    }
}

/// The web search as the answer decision asks it: from the blocking thread the decision runs
/// on, each call run to its end on the server's runtime.
pub(crate) struct WebOnRuntime {
    pub web: Arc<WebSource>,
    pub runtime: tokio::runtime::Handle,
}

impl WebSnippets for WebOnRuntime {
    fn provider(&self) -> String {
        self.web.search.provider().to_string()
    }

    fn stored(&self, question: &str, id: i64) -> Result<Option<Fetched>, DbError> {
        self.runtime.block_on(self.web.stored(question, id))
    }

    fn fetch(&self, question: &str) -> Result<Fetched, FetchError> {
        self.runtime.block_on(self.web.fetch(question))
    }
}

fn to_snippets(set: &SnippetSet, id: Option<i64>, reused: bool) -> Fetched {
    let prefix = id
        .map(|id| format!("web{id}"))
        .unwrap_or_else(|| "web".into());
    let mut snippets = Vec::with_capacity(set.results.len());
    let mut links = Vec::with_capacity(set.results.len());
    for (rank, result) in set.results.iter().enumerate() {
        let snippet_id = format!("{prefix}_{}", rank + 1);
        snippets.push(Snippet {
            id: snippet_id.clone(),
            text: result.text.clone(),
            source: result.url.clone(),
            answers: Vec::new(),
            record: None,
        });
        // A set stored before links were checked may hold one that is not a web page: its
        // snippet is kept, without a link.
        if !crate::web_search::is_web_link(&result.url) {
            continue;
        }
        links.push((
            snippet_id,
            SnippetLink {
                url: result.url.trim().to_string(),
                title: result.title.clone(),
                published: result.published.clone(),
            },
        ));
    }
    Fetched {
        snippets,
        retrieval: Retrieval::Web,
        links,
        // Set by the caller, which times the whole fetch.
        timings: Vec::new(),
        origin: Some(SnippetOrigin {
            source: Source::Web,
            provider: Some(set.source.clone()),
            set_id: id,
            fetched_at: Some(
                set.fetched_at
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            ),
            reused,
            failure: None,
        }),
    }
}
