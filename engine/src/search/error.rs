//! Why a quantity search failed.

use super::index::SearchIndexError;
use crate::EncoderError;

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
    #[error("alpha must be a finite number ≥ 0, not {0}")]
    BadAlpha(f64),
}
