//! The sentence index of quantity search and value questions: documents split into sentences
//! ([`split`]), their quantities stored with packed comparison keys ([`keys`], [`index`]), the
//! test of a condition against them ([`conditions`]), the quantities described for value
//! questions ([`observations`]), each sentence as stored ([`stored`]) and its encoder vector
//! ([`vectors`]).

pub mod conditions;
pub mod index;
pub mod keys;
pub mod observations;
pub mod split;
pub mod stored;
pub mod vectors;

pub use index::{Document, IngestStats, SentenceIndex};
