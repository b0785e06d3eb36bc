//! Quantity search in the lab: rankers scored on judged sentences (`eval`), their weights tuned
//! (`tuning`) and learned (`learned`), quantity queries generated from corpus sentences
//! (`generated`) and the token vectors trained on them (`token_vectors`).

pub mod eval;
pub mod generated;
pub mod learned;
pub mod token_vectors;
pub mod tuning;
