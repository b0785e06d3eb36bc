//! The learned instance scorer: a logistic model over each candidate's type evidence
//! ([`super::membership::FEATURES`]), trained on the judged instance set's tuning half by `tally
//! train instances` (cross-validated by question), with the probability above which a name is
//! shown (chosen on the same half's out-of-fold probabilities).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::logistic::Logistic;
use super::membership::FEATURES;

/// The file the scorer is written to and built in from (`engine/data/`).
pub const SCORER_FILE: &str = "instance-scorer.json";

/// A trained scorer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstanceScorer {
    /// The features it was trained on, in order.
    pub features: Vec<String>,
    /// The fitted logistic regression.
    pub model: Logistic,
    /// Names scoring below this probability are not shown.
    pub show_above: f64,
}

impl InstanceScorer {
    /// The scorer built into the binary; `None` when it was trained on other features than the
    /// code computes (then the learned scoring falls back to type compatibility).
    pub fn builtin() -> Option<&'static InstanceScorer> {
        static SCORER: OnceLock<Option<InstanceScorer>> = OnceLock::new();
        SCORER
            .get_or_init(|| {
                let scorer: InstanceScorer =
                    serde_json::from_str(include_str!("../../data/instance-scorer.json")).ok()?;
                scorer.fits_features().then_some(scorer)
            })
            .as_ref()
    }

    /// Whether it reads the features the code computes.
    pub fn fits_features(&self) -> bool {
        self.features
            .iter()
            .map(String::as_str)
            .eq(FEATURES.iter().copied())
            && self.model.has_features(FEATURES.len())
    }

    /// The probability that a candidate with these features is an instance of the counted kind.
    pub fn probability(&self, features: &[f64]) -> f64 {
        self.model.probability(features)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_scorer_reads_the_features_the_code_computes() {
        let scorer = InstanceScorer::builtin().expect("engine/data/instance-scorer.json");
        assert!(scorer.show_above > 0.0 && scorer.show_above < 1.0);
    }
}
