//! The local snippet index: a dataset question's stored snippet set, or BM25's top snippets
//! (from the corpus the settings name).

use std::sync::Arc;
use std::time::Instant;

use futures_util::future::BoxFuture;
use tally_types::count::Stage;
use tally_types::CountSettings;

use tally_documents::corpus::datasets::Snippet;
use tally_documents::snippet_index::SnippetIndex;

use super::{stage, FetchCause, FetchError, FetchSnippets, Fetched};

pub(crate) struct LocalIndex {
    snippets: Arc<SnippetIndex>,
    /// The question's stored snippet set, when it was read already (deciding the question's
    /// kind reads it): not asked for again (issue 98).
    stored: Option<Vec<Snippet>>,
}

impl LocalIndex {
    pub(crate) fn new(snippets: Arc<SnippetIndex>) -> Self {
        Self {
            snippets,
            stored: None,
        }
    }

    /// The question's stored snippet set, read already from the corpus the settings name
    /// (empty: it has none).
    pub(crate) fn with_stored(mut self, stored: Option<Vec<Snippet>>) -> Self {
        self.stored = stored;
        self
    }
}

impl FetchSnippets for LocalIndex {
    fn fetch<'a>(
        &'a self,
        question: &'a str,
        settings: &'a CountSettings,
    ) -> BoxFuture<'a, Result<Fetched, FetchError>> {
        let index = Arc::clone(&self.snippets);
        let question = question.to_string();
        let settings = settings.clone();
        let stored = self.stored.clone();
        Box::pin(async move {
            let started = Instant::now();
            // tantivy reads block: off the async threads.
            let found = tokio::task::spawn_blocking(move || {
                let corpus = settings.corpus.as_deref();
                match stored {
                    Some(stored) => {
                        index.snippets_after(&question, settings.snippets, corpus, stored)
                    }
                    None => index.snippets_for(&question, settings.snippets, corpus),
                }
            })
            .await
            .map_err(FetchCause::from)
            .and_then(|found| found.map_err(FetchCause::from));
            let timing = stage(Stage::Retrieval, started);
            match found {
                Ok((snippets, retrieval)) => Ok(Fetched {
                    snippets,
                    retrieval,
                    links: Vec::new(),
                    origin: None,
                    timings: vec![timing],
                }),
                Err(cause) => Err(FetchError { cause, timing }),
            }
        })
    }
}
