//! Ingesting a person's documents: how far an ingestion has come, as the engine reports it, the
//! command line draws it and the corpus pages show it.

use serde::{Deserialize, Serialize};

/// How far an ingestion has come.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct IngestProgress {
    pub documents: usize,
    pub documents_done: usize,
    /// The documents' text, and how much of it is indexed (what a progress bar shows).
    pub bytes: usize,
    pub bytes_done: usize,
    pub snippets: usize,
    pub sentences: usize,
    pub quantities: usize,
    pub seconds: f64,
}
