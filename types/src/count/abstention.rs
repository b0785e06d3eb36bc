//! Why Tally gives no count although the passages hold counts: a typed reason with its figures,
//! and the sentence people read, written from them here only.

use serde::{Deserialize, Serialize};

/// What an answer's support measures (the rule abstention reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum SupportMeasure {
    /// The most likely count phrase's probability of stating the answer.
    BestConfidence,
    /// The answer-support model's probability that the consolidated count is right.
    Model,
}

/// Why no count is given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Abstention {
    /// The evidence supports its best count less than the setting asks.
    WeakSupport {
        /// How much the evidence supports its best count.
        support: f64,
        /// How that support is measured.
        measure: SupportMeasure,
        /// The setting: Tally answers from this support.
        abstain_below: f64,
        /// The count the evidence points to.
        closest: f64,
    },
    /// None of the passages found is about the question's subject.
    NothingAbout {
        /// How many passages were found.
        passages: usize,
        /// The question's subject.
        subject: String,
    },
    /// The question asks about a table's rows with a condition on something none of its
    /// columns holds.
    NoSuchColumn {
        /// The table's context.
        table: String,
        /// What the question asked about ("more than 2 cafes").
        asked: String,
        /// The columns the table has.
        columns: Vec<String>,
    },
    /// The question asks for a year the passages that date their counts give none for
    /// (issue 86).
    NotForYear {
        /// The year asked for.
        year: i32,
        /// The years the passages give counts for.
        years: Vec<i32>,
    },
}

impl Abstention {
    /// What every abstention says first (the page's headline).
    pub const HEADLINE: &'static str = "No reliable answer in this corpus";

    /// Why, after the headline, as a sentence of its own.
    pub fn reason(&self) -> String {
        match self {
            Abstention::WeakSupport {
                support,
                measure,
                abstain_below,
                closest,
            } => format!(
                "its best count is {}. The closest evidence points to {closest}.",
                crate::Certainty {
                    probability: *support,
                    bound: *abstain_below,
                    measure: (*measure).into(),
                    reading: Some(*closest),
                }
                .sentence()
            ),
            Abstention::NothingAbout { passages, subject } => format!(
                "none of the {passages} passages it found is about {subject} (each names too little of it), so none of their counts is taken."
            ),
            Abstention::NoSuchColumn {
                table,
                asked,
                columns,
            } => format!(
                "the table in “{table}” has no column for “{asked}”; its columns are {}.",
                columns
                    .iter()
                    .map(|c| format!("“{c}”"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Abstention::NotForYear { year, years } => format!(
                "the documents give counts for {}, none for {year}.",
                years
                    .iter()
                    .map(i32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// The headline and the reason: the answer's `abstention` sentence.
    pub fn sentence(&self) -> String {
        format!("{}: {}", Self::HEADLINE, self.reason())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_is_the_headline_and_the_reason() {
        let weak = Abstention::WeakSupport {
            support: 0.12,
            measure: SupportMeasure::Model,
            abstain_below: 0.15,
            closest: 7.0,
        };
        assert_eq!(
            weak.sentence(),
            "No reliable answer in this corpus: its best count is 12% likely right (Tally is sure from 15%; the answer-support model's estimate). The closest evidence points to 7."
        );
        let json = serde_json::to_value(&weak).unwrap();
        assert_eq!(json["reason"], "weak-support");
        assert_eq!(serde_json::from_value::<Abstention>(json).unwrap(), weak);
    }
}
