//! How rare a word is in a corpus: what the snippet index measures for the count pipeline's
//! relevance test (issue 47).

/// How rare words are in the corpus a question is answered from.
pub trait WordRarity {
    /// The weight of each word: higher for rarer words, never negative.
    fn rarity(&self, words: &[String]) -> Vec<f64>;
}

/// Every word weighs the same (no corpus to measure rarity in).
pub struct SameRarity;

impl WordRarity for SameRarity {
    fn rarity(&self, words: &[String]) -> Vec<f64> {
        vec![1.0; words.len()]
    }
}

/// The inverse document frequency of a word among `documents`, given how many hold it.
pub fn inverse_document_frequency(documents: u64, holding: u64) -> f64 {
    (1.0 + documents as f64 / (1.0 + holding as f64)).ln()
}
