//! Where a count question's snippets come from, behind one trait: the local snippet index
//! ([`LocalIndex`], the default) and a web search ([`WebSource`]: SearXNG or the Brave Search
//! API). The answering service asks the source the settings choose; when a web search fails,
//! the local index answers instead and the answer says why.

mod local;
mod web;

use futures_util::future::BoxFuture;
use tally_documents::corpus::datasets::Snippet;
use tally_types::count::{Retrieval, SnippetLink, SnippetOrigin, StageTiming};
use tally_types::CountSettings;

pub(crate) use local::LocalIndex;
pub(crate) use web::WebSource;

/// The snippets for a question, and what the answer says about where they came from.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub snippets: Vec<Snippet>,
    /// How they were found (`prefetched`, `bm25`, `web`).
    pub retrieval: Retrieval,
    /// The page of each web snippet, by snippet id.
    pub links: Vec<(String, SnippetLink)>,
    /// `None` for the local index's snippets.
    pub origin: Option<SnippetOrigin>,
    /// The time it took, as stages of the answer (a failed web search's first, when the local
    /// index answered instead).
    pub timings: Vec<StageTiming>,
}

/// Why a source gave no snippets, and the time it spent finding out.
#[derive(Debug, thiserror::Error)]
#[error("{cause}")]
pub struct FetchError {
    /// What failed (the answer's `origin.failure` says it).
    pub cause: FetchCause,
    /// The time spent before it failed, as a stage of the answer.
    pub timing: StageTiming,
}

/// What a snippet source failed at.
#[derive(Debug, thiserror::Error)]
pub enum FetchCause {
    /// The snippet index could not be searched.
    #[error("the snippet index could not be searched: {0}")]
    Index(#[from] tally_documents::snippet_index::IndexError),
    /// The task retrieving them panicked or was dropped.
    #[error("the retrieval task crashed: {0}")]
    Crashed(#[from] tokio::task::JoinError),
    /// The web search failed.
    #[error(transparent)]
    Web(#[from] crate::web_search::WebSearchError),
}

/// A place count snippets come from.
pub(crate) trait FetchSnippets: Send + Sync {
    /// Snippets for `question` under the count `settings` (how many, from which corpus).
    fn fetch<'a>(
        &'a self,
        question: &'a str,
        settings: &'a CountSettings,
    ) -> BoxFuture<'a, Result<Fetched, FetchError>>;
}

/// A stage of the answer that took from `started` until now.
fn stage(stage: tally_types::count::Stage, started: std::time::Instant) -> StageTiming {
    StageTiming {
        stage,
        ms: started.elapsed().as_secs_f64() * 1e3,
    }
}
