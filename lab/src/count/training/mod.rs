//! Training the count reader and the candidate ranker (`tally train count-spans`): the training
//! queries and their candidates ([`data`]), silver count and name questions made from
//! the training questions' own snippets ([`silver`], [`silver_names`]), the reader's fine-tuning loop ([`reader`]), query-disjoint cross-validation
//! ([`cross_validation`]), the candidate ranker ([`ranker`]), and the out-of-fold span
//! probabilities passed from one to the other ([`span_confidences`]).

pub mod cross_validation;
pub mod data;
pub mod error;
pub mod ranker;
pub mod reader;
pub mod settings;
pub mod silver;
pub mod silver_names;
pub mod span_confidences;
mod windows;
