//! Why a quantity search failed (the sentence index's own failures are
//! `tally_documents::sentence_store::SearchIndexError`).

use tally_documents::sentence_store::SearchIndexError;
use tally_encoder::EncoderError;

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
