//! Tally's sentence encoder: a BERT-family model (all-MiniLM-L6-v2 by default) built only from
//! differentiable candle operations, its model files found and checked, and the device it runs
//! on. The count reader, the search rankers and the CNP classifier all encode through it.

pub mod bert;
pub mod device;
mod encoder;
mod error;
mod model_dir;

pub use encoder::{cosine, passes, Encoder, ROWS_PER_PASS};
pub use error::EncoderError;
pub use model_dir::{sha256_file, ModelDir, DEFAULT_ENCODER, MINILM_SAFETENSORS_SHA256};
