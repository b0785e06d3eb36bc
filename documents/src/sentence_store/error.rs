//! Why the sentence index failed.

use crate::index_dir::OpenIndexError;
use crate::sentence_store::vectors::VectorsError;

/// Why the sentence index (or its observations) could not be opened, written or read.
#[derive(Debug, thiserror::Error)]
pub enum SearchIndexError {
    #[error("search index error: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error(transparent)]
    Open(#[from] OpenIndexError),
    #[error("stored sentence {0} is unreadable: {1}")]
    Stored(u32, String),
    #[error("an observation could not be written: {0}")]
    Unwritable(String),
    #[error(transparent)]
    Vectors(#[from] VectorsError),
}
