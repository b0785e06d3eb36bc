//! Why the sentence index failed.

use crate::index_dir::OpenIndexError;
use crate::sentence_store::vectors::VectorsError;

/// Why the sentence index (or its observations) could not be opened, written or read.
#[derive(Debug, thiserror::Error)]
pub enum SearchIndexError {
    /// The index failed.
    #[error("search index error: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    /// The index directory could not be opened.
    #[error(transparent)]
    Open(#[from] OpenIndexError),
    /// A stored sentence could not be read: its document number and why.
    #[error("stored sentence {0} is unreadable: {1}")]
    Stored(u32, String),
    /// An observation could not be written; says why.
    #[error("an observation could not be written: {0}")]
    Unwritable(String),
    /// The stored sentence vectors could not be read or written.
    #[error(transparent)]
    Vectors(#[from] VectorsError),
}
