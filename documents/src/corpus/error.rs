//! Why a corpus could not be read or indexed.

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
    /// A number as written is no number.
    #[error("bad number {written}")]
    Number {
        /// The number as written.
        written: String,
        /// Why it is none.
        source: std::num::ParseFloatError,
    },
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
    /// A closing parenthesis with no tuple open.
    #[error("unbalanced )")]
    UnbalancedParenthesis,
    /// A tuple of other items than the ones expected.
    #[error("unexpected tuple {found}")]
    UnexpectedTuple {
        /// The tuple's items as read.
        found: String,
    },
    /// A question whose half is none of the halves there are.
    #[error("question {question} has no half called `{half}`")]
    NoSuchHalf {
        /// The question, from 1.
        question: usize,
        /// The half as written.
        half: String,
    },
}

impl From<DocumentsError> for ParseError {
    fn from(error: DocumentsError) -> Self {
        Self::Document(Box::new(error))
    }
}
