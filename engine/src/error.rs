//! The engine's one error: why a count, a search or a setting failed, each cause kept as its
//! source (tantivy's `TantivyError` is the model). The model files' own errors
//! ([`SpanModelError`], here beside it; [`RankerError`], [`SupportError`]) and the indexes' are
//! its causes; a caller outside the engine handles this type alone.

use std::path::PathBuf;

use tally_documents::DocumentsError;
use tally_encoder::EncoderError;

use crate::count::answer_support::SupportError;
use crate::count::ranker::RankerError;

/// Why the engine could not answer or could not take a setting.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The span model failed.
    #[error(transparent)]
    SpanModel(#[from] SpanModelError),
    /// The sentence encoder failed.
    #[error(transparent)]
    Encoder(#[from] EncoderError),
    /// The documents' indexes failed (the snippets' for a count, the sentences' for a search
    /// or a value).
    #[error(transparent)]
    Documents(#[from] DocumentsError),
    /// Tantivy failed.
    #[error("search failed")]
    Tantivy(#[from] tantivy::TantivyError),
    /// The count's candidate ranker failed.
    #[error(transparent)]
    Ranker(#[from] RankerError),
    /// The answer-support model failed.
    #[error(transparent)]
    Support(#[from] SupportError),
    /// The observer said to stop (nobody waits for the answer any more).
    #[error("the answer was no longer wanted")]
    Cancelled,
    /// The named ranker needs the sentence encoder, which is not loaded.
    #[error("the {0} ranker needs the sentence encoder, which is not loaded")]
    NeedsEncoder(&'static str),
    /// The query has nothing to search for.
    #[error("the query is empty")]
    EmptyQuery,
    /// Alpha is outside its range.
    #[error("alpha must be between 0 and {max}, not {0}", max = tally_types::search::MAX_ALPHA)]
    BadAlpha(f64),
    /// A setting's number is outside the range it allows (a name is refused where it is read:
    /// [`tally_types::Choice`]).
    #[error("{what} must be {range}, not {given}")]
    OutOfRange {
        /// The setting's name.
        what: &'static str,
        /// The range it must be in, in words.
        range: String,
        /// The number as given.
        given: String,
    },
}

/// Why the span model could not load or read.
#[derive(Debug, thiserror::Error)]
pub enum SpanModelError {
    /// The sentence encoder failed.
    #[error(transparent)]
    Encoder(#[from] EncoderError),
    /// A tensor operation failed.
    #[error("the span model failed")]
    Model(#[from] candle_core::Error),
    /// A file of the span model could not be read.
    #[error("cannot read the span model's {}", path.display())]
    Read {
        /// The file that could not be read.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// The span model's description could not be parsed.
    #[error("cannot parse the span model's {}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: serde_json::Error,
    },
    /// The span model's weights could not be loaded.
    #[error("cannot load the span model's weights {}", path.display())]
    Weights {
        /// The weights file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: candle_core::Error,
    },
    /// The head was tuned on more layers than the encoder has.
    #[error("the span model tunes {tuned} layers, but the encoder has only {layers}")]
    Layers {
        /// The layers the head tunes.
        tuned: usize,
        /// The encoder's layers.
        layers: usize,
    },
    /// The tokenizer refused the text.
    #[error("tokenization failed")]
    Tokenize(#[source] tokenizers::Error),
    /// A reader-weights name that is none of the span model's (`fast`, `full`).
    #[error("unknown reader weights `{name}` (fast, full)")]
    UnknownWeights {
        /// The name given.
        name: String,
    },
}
