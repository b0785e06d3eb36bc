//! The encoder's one error: why a model directory, the model or the tokenizer could not be used.

use std::path::PathBuf;

/// Why the encoder could not be loaded or could not encode.
#[derive(Debug, thiserror::Error)]
pub enum EncoderError {
    /// No such directory.
    #[error(
        "model directory {0} does not exist (run the set-up script, or pass a model directory)"
    )]
    Missing(PathBuf),
    /// The directory lacks a file the encoder needs.
    #[error("model directory {dir} lacks {file}")]
    MissingFile {
        /// The model directory.
        dir: PathBuf,
        /// The file it lacks.
        file: &'static str,
    },
    /// A file could not be read.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The model's configuration could not be read.
    #[error("cannot parse {}", path.display())]
    Config {
        /// The configuration file.
        path: PathBuf,
        /// What was wrong with it.
        #[source]
        source: serde_json::Error,
    },
    /// The tokenizer could not be loaded.
    #[error("cannot load tokenizer {}", path.display())]
    Tokenizer {
        /// The tokenizer file.
        path: PathBuf,
        /// What was wrong with it.
        #[source]
        source: tokenizers::Error,
    },
    /// A text could not be tokenized.
    #[error("tokenization failed")]
    Tokenize(#[source] tokenizers::Error),
    /// candle failed while loading or running the model.
    #[error("the model failed")]
    Model(#[from] candle_core::Error),
}
