//! Where a count question's snippets come from: the local snippet index ([`LocalIndex`], the
//! default: a dataset question's stored snippet set, or BM25's top snippets of the corpus asked)
//! or a web search the caller provides ([`WebSnippets`]). When a web search fails, the local
//! index answers instead and the answer says why.

use std::sync::Arc;
use std::time::Instant;
use tally_documents::DocumentsError;

use tally_documents::corpus::datasets::Snippet;
use tally_documents::snippet_index::SnippetIndex;
use tally_store::db::DbError;
use tally_types::count::{Retrieval, SnippetLink, SnippetOrigin, Stage, StageTiming};
use tally_types::CountSettings;

/// A count question's snippets, with where they came from.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The snippets, best first.
    pub snippets: Vec<Snippet>,
    /// How they were retrieved.
    pub retrieval: Retrieval,
    /// The web page of each web snippet, by snippet id.
    pub links: Vec<(String, SnippetLink)>,
    /// Where they came from, when not the local index.
    pub origin: Option<SnippetOrigin>,
    /// The fetch's stages and their times.
    pub timings: Vec<StageTiming>,
}

/// Why snippets could not be fetched, with the time the attempt took.
#[derive(Debug)]
pub struct FetchError {
    /// Why.
    pub cause: FetchCause,
    /// The failed stage's time: a stage of the answer too.
    pub timing: StageTiming,
}

// The fetch error is its cause, with a time beside it: it says what the cause says, and its
// chain goes on from the cause's (not through it, which would say the cause twice).
impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.cause, f)
    }
}

impl std::error::Error for FetchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.source()
    }
}

/// Why a fetch failed.
#[derive(Debug, thiserror::Error)]
pub enum FetchCause {
    /// The local index could not be searched.
    #[error("the snippet index could not be searched")]
    Index(#[from] DocumentsError),
    /// The web search failed (its error is the server's).
    #[error(transparent)]
    Web(Box<dyn std::error::Error + Send + Sync>),
}

/// A web search for count snippets, provided by the server that has one configured. Called
/// from the blocking thread the decision runs on.
pub trait WebSnippets: Send + Sync {
    /// The search's provider, named in an answer whose web search failed.
    fn provider(&self) -> String;
    /// The stored snippet set `id` of `question`, if there is one.
    fn stored(&self, question: &str, id: i64) -> Result<Option<Fetched>, DbError>;
    /// Snippets for `question`: a recent stored set, or a fresh search stored as a new set.
    fn fetch(&self, question: &str) -> Result<Fetched, FetchError>;
}

/// The local snippet index, with the question's stored snippet set when it was read already.
pub struct LocalIndex {
    snippets: Arc<SnippetIndex>,
    stored: Option<Vec<Snippet>>,
}

impl LocalIndex {
    /// The index, asked for the question's stored set itself.
    pub fn new(snippets: Arc<SnippetIndex>) -> Self {
        Self {
            snippets,
            stored: None,
        }
    }

    /// The question's stored snippet set, read once already (issue 98: the index was asked
    /// for it twice per question).
    pub fn with_stored(mut self, stored: Option<Vec<Snippet>>) -> Self {
        self.stored = stored;
        self
    }

    /// The snippets of `question` the settings ask for.
    pub fn fetch(&self, question: &str, settings: &CountSettings) -> Result<Fetched, FetchError> {
        let started = Instant::now();
        let corpus = settings.corpus.as_deref();
        let found = match &self.stored {
            Some(stored) => {
                self.snippets
                    .snippets_after(question, settings.snippets, corpus, stored.clone())
            }
            None => self
                .snippets
                .snippets_for(question, settings.snippets, corpus),
        };
        let timing = timing_of(Stage::Retrieval, started);
        match found {
            Ok((snippets, retrieval)) => Ok(Fetched {
                snippets,
                retrieval,
                links: Vec::new(),
                origin: None,
                timings: vec![timing],
            }),
            Err(cause) => Err(FetchError {
                cause: cause.into(),
                timing,
            }),
        }
    }
}

/// The time of `stage`, started at `started`.
pub fn timing_of(stage: Stage, started: Instant) -> StageTiming {
    StageTiming {
        stage,
        ms: started.elapsed().as_secs_f64() * 1e3,
    }
}
