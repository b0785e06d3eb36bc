//! Why the sentence index failed.

use crate::index_dir::OpenIndexError;
use crate::sentence_store::vectors::VectorsError;

/// Why the sentence index (or its observations) could not be opened, written or read.
#[derive(Debug, thiserror::Error)]
pub enum SearchIndexError {
    /// The index failed.
    #[error("the sentence index failed")]
    Tantivy(#[from] tantivy::TantivyError),
    /// The index directory could not be opened.
    #[error(transparent)]
    Open(#[from] OpenIndexError),
    /// A stored sentence could not be read.
    #[error("stored sentence {doc_id} is unreadable")]
    Stored {
        /// Its document number in the index.
        doc_id: u32,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// An observation could not be written.
    #[error("an observation could not be written")]
    Unwritable(#[source] serde_json::Error),
    /// The stored sentence vectors could not be read or written.
    #[error(transparent)]
    Vectors(#[from] VectorsError),
}
