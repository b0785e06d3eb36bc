//! `learned`: the dense ranker's pool ordered by a linear score of each sentence's features —
//! cosine to the query, normalised BM25, qs when every constraint is met, and whether it is —
//! with the weights learned on the judged Qsearch dev queries (`tally train search-ranker`,
//! `tally_lab::search::learned`) and shipped in `engine/data/search-ranker.json`. Its
//! cross-validated figures (each fold ranked with weights learned on the other folds) are what
//! `tally eval search` reports for it.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use tally_types::search::Hit;

use super::dense::{cosines, WITHOUT_WORDS};
use super::{QueryRead, SentenceRanker};
use crate::error::EngineError;
use crate::search::store::FirstStage;
use tally_documents::sentence_store::vectors::SentenceVectors;
use tally_encoder::Encoder;

/// The features, in the order of the weights.
pub const FEATURES: [&str; 4] = ["cosine", "bm25/max", "qs if met", "meets all"];

/// A sentence's features, in [`FEATURES`]' order, from its cosine and its hit.
pub fn features(cosine: f64, hit: &Hit) -> [f64; 4] {
    let met = hit.meets_all();
    [
        cosine,
        hit.text_score_normalised,
        if met { hit.quantity_score } else { 0.0 },
        f64::from(u8::from(met)),
    ]
}

/// The learned weights, per unit of each feature (a sentence's score is their dot product with
/// its features).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LearnedWeights {
    /// What the weights were learned on, for a reader of the file.
    pub trained_on: String,
    /// The features, in the order of the weights.
    pub features: Vec<String>,
    /// One weight per feature.
    pub weights: Vec<f64>,
}

impl LearnedWeights {
    /// The weights shipped with Tally.
    pub fn shipped() -> &'static LearnedWeights {
        static SHIPPED: OnceLock<LearnedWeights> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            serde_json::from_str(include_str!("../../../data/search-ranker.json"))
                .expect("engine/data/search-ranker.json is checked by the tests")
        })
    }

    /// A sentence's score: the weights' dot product with its features.
    pub fn score(&self, features: &[f64; 4]) -> f64 {
        self.weights.iter().zip(features).map(|(w, x)| w * x).sum()
    }
}

/// The learned ranker: the dense ranker's pool ordered by [`LearnedWeights`].
pub struct Learned<'a> {
    /// The sentence encoder that embeds the query.
    pub encoder: &'a Encoder,
    /// The sentences' vectors stored at ingestion, when the store keeps them.
    pub stored: Option<&'a SentenceVectors>,
    /// The weights sentences are scored with.
    pub weights: &'a LearnedWeights,
}

impl SentenceRanker for Learned<'_> {
    fn reranks(&self) -> bool {
        true
    }

    fn first_stage(&self) -> FirstStage {
        FirstStage::Qbm25AndOtherWords {
            extra: WITHOUT_WORDS,
        }
    }

    /// The weights were learned on strict conditions.
    fn soft_conditions(&self) -> bool {
        false
    }

    fn score(&self, asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), EngineError> {
        let similarities = cosines(self.encoder, self.stored, asked, hits)?;
        for (hit, similarity) in hits.iter_mut().zip(similarities) {
            hit.score = self.weights.score(&features(similarity, hit));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_name_their_features_and_favour_a_met_condition() {
        let shipped = LearnedWeights::shipped();
        assert_eq!(shipped.features, FEATURES);
        assert_eq!(shipped.weights.len(), FEATURES.len());
        // Every feature says "more relevant" as it grows.
        assert!(shipped.weights.iter().all(|w| *w > 0.0), "{shipped:?}");
        let met = shipped.score(&[0.5, 0.5, 0.8, 1.0]);
        let missed = shipped.score(&[0.5, 0.5, 0.0, 0.0]);
        assert!(met > missed);
    }
}
