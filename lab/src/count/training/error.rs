//! Why training stopped.

use std::path::PathBuf;

use super::data::TrainingDataError;
use tally_documents::corpus::datasets::DatasetError;
use tally_engine::count::span_model::SpanModelError;

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error(transparent)]
    SpanModel(#[from] SpanModelError),
    #[error("model error: {0}")]
    Model(#[from] candle_core::Error),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Data(#[from] TrainingDataError),
    #[error("the span probabilities in {path} cannot be used ({message}); run `tally train count-spans` without --ranker-only first")]
    SpanConfidences { path: PathBuf, message: String },
    #[error(transparent)]
    Encoder(#[from] tally_encoder::EncoderError),
    #[error("cannot fine-tune {asked} layers: the encoder has {layers}")]
    TunedLayers { asked: usize, layers: usize },
}
