//! Why a corpus could not be read or indexed.

use std::path::PathBuf;

use super::datasets::DatasetError;
use crate::count::snippet_index::IndexError;
use crate::search::index::SearchIndexError;

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
