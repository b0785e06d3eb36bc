//! A sentence as the sentence index stores it.

use serde::{Deserialize, Serialize};

use tally_text::quantity::Quantity;

/// A sentence as stored: its text, where it came from, and its quantities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredSentence {
    /// `<document id>#<sentence number>`.
    pub id: String,
    pub text: String,
    pub source: String,
    pub entity: Option<String>,
    pub quantities: Vec<Quantity>,
}
