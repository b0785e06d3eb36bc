//! Tally's answering engine.
//!
//! Everything that answers questions lives here, free of web code: the sentence encoder and other
//! neural models, the data sets Tally can read, and (in later modules) retrieval, quantities and the
//! answering pipelines. The `tally` binary and the web app only wire these together.

pub mod candidates;
pub mod choices;
pub mod count;
mod error;
pub mod kind;
pub mod ocr_doubt;
pub mod records;
pub mod search;
pub mod trust;
pub mod value;

pub use error::EngineError;
pub use kind::{detect_kind, KindDecision};
