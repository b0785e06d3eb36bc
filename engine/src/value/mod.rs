//! Value questions ("how tall is the Eiffel Tower", "capacity of Wembley Stadium", "Apple's
//! revenue in 2019"): one consolidated value with its evidence, in the manner of Cao et al.'s
//! quantity retrieval by description and CoQEx's consolidation.
//!
//! Every quantity of the corpus gets a [`Description`] (its entity, the concept words near it,
//! a time qualifier, its unit and dimension); a question is read into words, an implied
//! dimension, a wanted unit and a year ([`ValueQuestion`]); descriptions are ranked by BM25
//! against the question ([`DescriptionIndex`]), filtered by dimension; the top observations are
//! converted to one unit and consolidated by the confidence-weighted median ([`answer`]).

mod answer;
mod description;
pub mod eval;
mod question;
mod retrieve;

pub use answer::{
    answer, ObservationGroup, UnitChoice, ValueAnswer, ValueObservation, ValueSettings,
};
pub use description::{describe, description_words, Description};
pub use question::{named_measure, parse_question, subject_of, value_cue, ValueQuestion};
pub use retrieve::{DescriptionIndex, Ranked};

use std::collections::HashSet;

/// The words of a text as written: what lies between characters that are not letters or digits.
fn raw_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// A word in the form descriptions and questions are matched in: lower case, singular.
fn normalise(word: &str) -> String {
    crate::quantity::singular(&word.to_lowercase())
}

/// The matching forms of a text's words.
fn word_set(text: &str) -> HashSet<String> {
    raw_words(text).map(normalise).collect()
}
