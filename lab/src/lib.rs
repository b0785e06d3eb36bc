//! Tally's lab: what measures and teaches the crates that answer, and is never on an answering
//! path. Training (the count reader and candidate ranker, the learned search ranker, token
//! vectors), evaluation against the data sets and the project's own collections (count, value,
//! search, quantity extraction, with the generated tests) and the simulation of visitors whose
//! feedback teaches. The `tally train`, `tally eval` and `tally bench` commands drive it.

pub mod candidates;
pub mod collection;
pub mod count;
pub mod quantity;
pub mod reading;
pub mod search;
pub mod statistics;
pub mod trust;
pub mod value;
