//! Value questions ("how tall is the Eiffel Tower", "capacity of Wembley Stadium", "Apple's
//! revenue in 2019"): one consolidated value with its evidence, in the manner of Cao et al.'s
//! quantity retrieval by description and CoQEx's consolidation.
//!
//! Every quantity of the corpus gets a [`Description`] (its entity, the concept words near it,
//! a time qualifier, its unit and dimension); a question is read into words, an implied
//! dimension, a wanted unit and a year ([`ValueQuestion`]); descriptions are ranked by BM25
//! against the question ([`retrieve`], over the sentence index's observations), filtered by dimension; the top observations are
//! converted to one unit and consolidated by the confidence-weighted median ([`answer`]).

mod answer;
mod cells;
mod majority;
mod question;
mod retrieve;

pub use answer::{answer, answer_in_corpus, significant, ValueRule, ValueSettings};
pub use cells::answer_with_tables;
pub use question::{named_measure, parse_question, subject_of, value_cue, MONEY_DIMENSION};
pub use retrieve::{retrieve, Retrieved};
pub(crate) use tally_text::quantity::description::description_words;

use tally_text::quantity::description::{normalise, raw_words, word_set};
