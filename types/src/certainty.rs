//! How sure Tally is of an answer (issue 87): one probability that it is right, the bound below
//! which it is not given as sure, and the reading it rests on. Counts, values and aggregations
//! carry the same fields, so the page, the API and `tally ask` say the same "Not sure".

use serde::{Deserialize, Serialize};

use crate::count::SupportMeasure;

/// What gave an answer's probability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum CertaintyMeasure {
    /// The documents' trust model: how often answers like it over a person's documents were
    /// right (issue 86, `tally train trust`).
    Documents,
    /// The answer-support model trained on the data sets: the chance that the consolidated
    /// count is right.
    AnswerSupport,
    /// The most likely count phrase's chance of stating the answer.
    BestCountPhrase,
    /// The share of the evidence's weight that agrees with a value.
    Agreement,
    /// The candidate ranker learned from real questions (issue 99): how often its best
    /// candidates like this one were right.
    Ranker,
}

impl From<SupportMeasure> for CertaintyMeasure {
    fn from(measure: SupportMeasure) -> Self {
        match measure {
            SupportMeasure::BestConfidence => Self::BestCountPhrase,
            SupportMeasure::Model => Self::AnswerSupport,
        }
    }
}

impl CertaintyMeasure {
    /// Where the probability comes from, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Documents => "how often answers like it over documents were right",
            Self::AnswerSupport => "the answer-support model's estimate",
            Self::BestCountPhrase => "the chance that its best count phrase states the answer",
            Self::Agreement => "the share of the evidence that agrees with it",
            Self::Ranker => "how often the learned ranker's answers like it were right",
        }
    }
}

/// How sure Tally is of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Certainty {
    /// The probability that the answer is right, in [0, 1].
    pub probability: f64,
    /// Below this probability the answer is not given as sure.
    pub bound: f64,
    /// What gave the probability.
    pub measure: CertaintyMeasure,
    /// The count or value the evidence points to: the answer when it is given, the closest
    /// reading when it is not.
    pub reading: Option<f64>,
}

impl Certainty {
    /// Whether the answer may be given as sure.
    pub fn is_sure(&self) -> bool {
        self.probability >= self.bound
    }

    /// The probability in words, the same on every entry point: "72% likely right (Tally is
    /// sure from 60%: how often answers like it over documents were right)".
    pub fn sentence(&self) -> String {
        format!(
            "{:.0}% {LIKELY_RIGHT} {:.0}%; {})",
            100.0 * self.probability.clamp(0.0, 1.0),
            100.0 * self.bound,
            self.measure.describe()
        )
    }
}

/// The words every probability of being right is said in, after its percentage ("72% likely
/// right (Tally is sure from 60%; …)"): one scale of doubt on every page (issue 101). A reason
/// that holds them says the probability already.
pub const LIKELY_RIGHT: &str = "likely right (Tally is sure from";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_gives_the_probability_and_the_bound() {
        let certainty = Certainty {
            probability: 0.724,
            bound: 0.6,
            measure: CertaintyMeasure::Documents,
            reading: Some(4.0),
        };
        assert!(certainty.is_sure());
        assert_eq!(
            certainty.sentence(),
            "72% likely right (Tally is sure from 60%; how often answers like it over documents were right)"
        );
        let unsure = Certainty {
            probability: 0.3,
            ..certainty
        };
        assert!(!unsure.is_sure());
        let json = serde_json::to_value(unsure).unwrap();
        assert_eq!(json["measure"], "documents");
        assert_eq!(serde_json::from_value::<Certainty>(json).unwrap(), unsure);
    }
}
