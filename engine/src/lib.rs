//! Tally's answering engine.
//!
//! Everything that answers questions lives here, free of web code: the sentence encoder and other
//! neural models, the data sets Tally can read, and (in later modules) retrieval, quantities and the
//! answering pipelines. The `tally` binary and the web app only wire these together.

pub mod bert;
pub mod choices;
pub mod corpus;
pub mod count;
pub mod device;
pub mod encoder;
pub mod index_dir;
pub mod kind;
pub mod model_dir;
pub mod records;
pub mod search;
pub mod value;

pub use corpus::catalogue::{discover_corpora, CorpusInfo};
pub use encoder::{Encoder, EncoderError};
pub use kind::{detect_kind, KindDecision, QuestionKind};
pub use model_dir::{ModelDir, ModelDirError};

/// The engine's version, stored with every answer so that answers can be traced to the code.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
