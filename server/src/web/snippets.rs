//! Web snippets for a count question: a stored set fetched recently for the same question, or a
//! fresh search stored as a new set. Either way the answer names the set; when the search fails
//! the answer says why and is given from the local corpus.

use std::time::Duration;

use tally_engine::dataset::Snippet;
use tally_types::count::{SnippetLink, SnippetOrigin, SnippetSource};

use crate::store::db::Database;
use crate::store::snippet_sets::{self, SnippetSet};
use crate::web::WebSearch;

/// Snippets fetched from the web, ready for the count pipeline.
#[derive(Debug, Clone)]
pub struct WebSnippetSet {
    pub snippets: Vec<Snippet>,
    /// The page of each snippet, by snippet id.
    pub links: Vec<(String, SnippetLink)>,
    pub origin: SnippetOrigin,
}

/// The configured web search with the store its snippet sets are kept in.
pub struct WebSnippets {
    pub search: WebSearch,
    db: Database,
    /// A set fetched this recently for the same question is reused (zero: always search).
    reuse: Duration,
}

impl WebSnippets {
    pub fn new(search: WebSearch, db: Database, reuse: Duration) -> Self {
        Self { search, db, reuse }
    }

    /// Snippets for `question`: a recent stored set, or a fresh search (stored). `Err` is the
    /// origin to show with a corpus answer: why the web search failed.
    pub async fn fetch(&self, question: &str) -> Result<WebSnippetSet, SnippetOrigin> {
        let provider = self.search.provider().to_string();
        if let Some(set) = self.recent(question, &provider).await {
            return Ok(to_snippets(&set, Some(set.id), true));
        }
        let results = self
            .search
            .search(question)
            .await
            .map_err(|e| SnippetOrigin {
                source: SnippetSource::Corpus,
                provider: Some(provider.clone()),
                set_id: None,
                fetched_at: None,
                reused: false,
                failure: Some(e.to_string()),
            })?;
        match snippet_sets::save(&self.db, question, &provider, &results).await {
            Ok(set) => Ok(to_snippets(&set, Some(set.id), false)),
            Err(e) => {
                // The snippets are still good; the answer says that they were not kept.
                tracing::warn!("web snippets not stored: {e}");
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

    async fn recent(&self, question: &str, provider: &str) -> Option<SnippetSet> {
        if self.reuse.is_zero() {
            return None;
        }
        let since = chrono::Utc::now() - chrono::Duration::from_std(self.reuse).ok()?;
        match snippet_sets::recent(&self.db, question, provider, since).await {
            Ok(set) => set.filter(|s| !s.results.is_empty()),
            Err(e) => {
                tracing::warn!("stored web snippets could not be read: {e}");
                None
            }
        }
    }
}

fn to_snippets(set: &SnippetSet, id: Option<i64>, reused: bool) -> WebSnippetSet {
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
        });
        links.push((
            snippet_id,
            SnippetLink {
                url: result.url.clone(),
                title: result.title.clone(),
                published: result.published.clone(),
            },
        ));
    }
    WebSnippetSet {
        snippets,
        links,
        origin: SnippetOrigin {
            source: SnippetSource::Web,
            provider: Some(set.source.clone()),
            set_id: id,
            fetched_at: Some(
                set.fetched_at
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            ),
            reused,
            failure: None,
        },
    }
}
