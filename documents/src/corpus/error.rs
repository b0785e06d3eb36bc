//! Why a file's text could not be parsed: a cause of [`crate::DocumentsError`].

use super::budget::ReadRefused;
use super::documents::DocumentsError;

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
    /// A SQuAD file given as text: it is read from its path.
    #[error("SQuAD files are read from a path")]
    SquadFromText,
    /// A binary format given as text: it is read from its bytes.
    #[error("{file}: a {format} file is read from its bytes")]
    BinaryAsText {
        /// The file's name.
        file: String,
        /// The format's name.
        format: &'static str,
    },
}

impl From<DocumentsError> for ParseError {
    fn from(error: DocumentsError) -> Self {
        Self::Document(Box::new(error))
    }
}
