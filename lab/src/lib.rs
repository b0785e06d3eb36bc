//! Tally's lab: what measures and teaches the crates that answer, and is never on an answering
//! path. Training (the count reader and candidate ranker, the learned search ranker, token
//! vectors), evaluation against the data sets and the project's own collections (count, value,
//! search, quantity extraction, with the generated tests) and the simulation of visitors whose
//! feedback teaches. The `tally train`, `tally eval` and `tally bench` commands drive it.

pub mod candidates;
pub mod cli;
pub mod commands;
pub mod count;
pub mod quantity;
pub mod reading;
pub mod search;
pub mod statistics;
pub mod trust;
pub mod value;

/// The provisioned MiniLM, for the lab's unit tests that need a real encoder.
#[cfg(test)]
pub(crate) fn test_encoder() -> std::sync::Arc<tally_encoder::Encoder> {
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    let dir = tally_encoder::ModelDir::resolve("all-MiniLM-L6-v2", &models)
        .expect("the MiniLM model must be provisioned (scripts/setup.sh) for this test");
    std::sync::Arc::new(
        tally_encoder::Encoder::load(&dir, tally_encoder::device::best_device())
            .expect("the encoder loads"),
    )
}
