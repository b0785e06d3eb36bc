//! A sentence as the sentence index stores it.

use serde::{Deserialize, Serialize};

use tally_text::quantity::Quantity;

/// A sentence as stored: its text, where it came from, and its quantities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredSentence {
    /// `<document id>#<sentence number>`.
    pub id: String,
    /// The sentence's text.
    pub text: String,
    /// Where its document came from.
    pub source: String,
    /// The entity the corpus files it under, when it says.
    pub entity: Option<String>,
    /// The quantities extracted from it.
    pub quantities: Vec<Quantity>,
}
