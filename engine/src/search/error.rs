//! Why a quantity search failed (the sentence index's own failures are
//! `tally_documents::sentence_store::SearchIndexError`).

use tally_documents::sentence_store::SearchIndexError;
use tally_encoder::EncoderError;

/// Why a quantity search failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The sentence index failed.
    #[error(transparent)]
    Index(#[from] SearchIndexError),
    /// Tantivy failed.
    #[error("search failed")]
    Tantivy(#[from] tantivy::TantivyError),
    /// The sentence encoder failed.
    #[error(transparent)]
    Encoder(#[from] EncoderError),
    /// The named ranker needs the sentence encoder, which is not loaded.
    #[error("the {0} ranker needs the sentence encoder, which is not loaded")]
    NeedsEncoder(&'static str),
    /// The query has nothing to search for.
    #[error("the query is empty")]
    EmptyQuery,
    /// Alpha is outside its range.
    #[error("alpha must be between 0 and {max}, not {0}", max = tally_types::search::MAX_ALPHA)]
    BadAlpha(f64),
}
