//! Why a quantity search, or the sentence index under it, failed.

use crate::index_dir::OpenIndexError;
use crate::search::vectors::VectorsError;
use tally_encoder::EncoderError;

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

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Index(#[from] SearchIndexError),
    #[error("search failed: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error(transparent)]
    Encoder(#[from] EncoderError),
    #[error("the {0} ranker needs the sentence encoder, which is not loaded")]
    NeedsEncoder(&'static str),
    #[error("the query is empty")]
    EmptyQuery,
    #[error("alpha must be between 0 and {max}, not {0}", max = tally_types::search::MAX_ALPHA)]
    BadAlpha(f64),
}
