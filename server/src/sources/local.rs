//! The local snippet index: a dataset question's stored snippet set, or BM25's top snippets
//! (from the corpus the settings name).

use std::sync::Arc;
use std::time::Instant;

use futures_util::future::BoxFuture;
use tally_types::count::Stage;
use tally_types::CountSettings;

use tally_documents::snippet_index::SnippetIndex;

use super::{stage, FetchCause, FetchError, FetchSnippets, Fetched};

pub(crate) struct LocalIndex {
    snippets: Arc<SnippetIndex>,
}

impl LocalIndex {
    pub(crate) fn new(snippets: Arc<SnippetIndex>) -> Self {
        Self { snippets }
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
        Box::pin(async move {
            let started = Instant::now();
            // tantivy reads block: off the async threads.
            let found = tokio::task::spawn_blocking(move || {
                index.snippets_for(&question, settings.snippets, settings.corpus.as_deref())
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
