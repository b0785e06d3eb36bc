//! Tally's answering engine.
//!
//! Everything that answers questions lives here, free of web code: the sentence encoder and other
//! neural models, the data sets Tally can read, and (in later modules) retrieval, quantities and the
//! answering pipelines. The `tally` binary and the web app only wire these together.

pub mod candidates;
pub mod choices;
pub mod count;
pub mod kind;
pub mod ocr_doubt;
pub mod records;
pub mod search;
pub mod trust;
pub mod value;

pub use kind::{detect_kind, KindDecision};

/// The provisioned MiniLM, for the engine's unit tests that need a real encoder.
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
