//! Why a corpus could not be read or indexed.

use std::path::PathBuf;

use super::budget::ReadRefused;
use super::datasets::DatasetError;
use super::documents::DocumentsError;
use crate::sentence_store::index::SearchIndexError;
use crate::snippet_index::IndexError;

/// Why a file's text could not be parsed: where in it, and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// A line of a JSON-lines file is not the object expected.
    #[error("line {line}: not the JSON expected ({expected})")]
    JsonLine {
        /// The line, from 1.
        line: usize,
        /// The object expected, as a person writes it.
        expected: &'static str,
        /// What serde found.
        source: serde_json::Error,
    },
    /// A JSON file is not what was expected.
    #[error("not the JSON expected ({expected})")]
    Json {
        /// What was expected, as a person writes it.
        expected: &'static str,
        /// What serde found.
        source: serde_json::Error,
    },
    /// A document of the file could not be read.
    #[error("the document could not be read")]
    Document(#[source] Box<DocumentsError>),
    /// A page could not be read within its budget.
    #[error("the page could not be read")]
    Page(#[from] ReadRefused),
    /// A number as written is no number.
    #[error("bad number {written}")]
    Number {
        /// The number as written.
        written: String,
        /// Why it is none.
        source: std::num::ParseFloatError,
    },
    /// The text is not as the format writes it; says where and what was expected.
    #[error("{0}")]
    Syntax(String),
}

impl From<String> for ParseError {
    fn from(why: String) -> Self {
        Self::Syntax(why)
    }
}

impl From<&str> for ParseError {
    fn from(why: &str) -> Self {
        Self::Syntax(why.to_string())
    }
}

impl From<DocumentsError> for ParseError {
    fn from(error: DocumentsError) -> Self {
        Self::Document(Box::new(error))
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
    /// A file could not be parsed.
    #[error("cannot parse {path}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: ParseError,
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
