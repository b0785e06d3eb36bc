//! Why training stopped.

use std::path::PathBuf;

use super::data::TrainingDataError;
use tally_documents::DocumentsError;
use tally_engine::EngineError;

/// Why a training run failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A data set could not be read.
    #[error(transparent)]
    Documents(#[from] DocumentsError),
    /// The span model could not be loaded or read (the engine's error).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The model's tensors failed.
    #[error("model error")]
    Model(#[from] candle_core::Error),
    /// A file could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The training data could not be read.
    #[error(transparent)]
    Data(#[from] TrainingDataError),
    /// The span probabilities of an earlier run cannot be read.
    #[error("the span probabilities in {path} cannot be read; run `tally train count-spans` without --ranker-only first")]
    SpanConfidencesUnread {
        /// The span probabilities file.
        path: PathBuf,
        /// Why.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The span probabilities of an earlier run cannot be used.
    #[error("the span probabilities in {path} cannot be used ({message}); run `tally train count-spans` without --ranker-only first")]
    SpanConfidences {
        /// The span probabilities file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The encoder failed.
    #[error(transparent)]
    Encoder(#[from] tally_encoder::EncoderError),
    /// More layers were asked to be fine-tuned than the encoder has.
    #[error("cannot fine-tune {asked} layers: the encoder has {layers}")]
    TunedLayers {
        /// Layers asked to be fine-tuned.
        asked: usize,
        /// Layers the encoder has.
        layers: usize,
    },
}
