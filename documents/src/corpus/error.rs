//! Why a corpus could not be read or indexed.

use std::path::PathBuf;

use super::datasets::DatasetError;
use crate::sentence_store::index::SearchIndexError;
use crate::snippet_index::IndexError;

/// Why a file's text could not be parsed: where in it, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(String);

impl From<String> for ParseError {
    fn from(why: String) -> Self {
        Self(why)
    }
}

impl From<&str> for ParseError {
    fn from(why: &str) -> Self {
        Self(why.to_string())
    }
}

/// Why a corpus could not be read or ingested.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// A file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A file could not be parsed; says why.
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A data set file could not be read.
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    /// The snippet index failed.
    #[error(transparent)]
    Snippets(#[from] IndexError),
    /// The sentence index failed.
    #[error(transparent)]
    Sentences(#[from] SearchIndexError),
}
