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

#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error(transparent)]
    Snippets(#[from] IndexError),
    #[error(transparent)]
    Sentences(#[from] SearchIndexError),
}
