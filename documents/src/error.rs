//! The documents crate's one error: why documents, a data set or a corpus could not be read,
//! ingested, listed or deleted, each cause kept as its source. The readers' refusals
//! ([`ReadRefused`]), a file's parse ([`ParseError`]), a data set's ([`DatasetError`]) and the
//! two indexes' failures are its variants (tantivy's, a directory's, a stored sentence's, the
//! vectors').

use std::path::PathBuf;

use tally_types::count::ALL_CORPORA;

use crate::corpus::budget::ReadRefused;
use crate::corpus::format::Format;
use crate::index_dir::OpenIndexError;
use crate::sentence_store::vectors::VectorsError;

/// The longest corpus name (the refusal below says it).
pub(crate) const MAX_NAME_CHARS: usize = 40;

/// Why documents, a data set or a corpus could not be read, ingested, listed or deleted, or an
/// index could not be opened, written or read.
#[derive(Debug, thiserror::Error)]
pub enum DocumentsError {
    /// A corpus name that is not one plain name (the visitor's text is not repeated: it may be
    /// of any length, issue 57).
    #[error("a corpus name must be 1 to {MAX_NAME_CHARS} lower-case letters, digits, `-` or `_`")]
    BadCorpusName,
    /// The name that means every corpus, asked for one corpus.
    #[error("`{ALL_CORPORA}` means every corpus; choose another name")]
    AllCorporaName,
    /// A text format's file whose bytes are no text encoding Tally reads.
    #[error(
        "{file} is not UTF-8 text (nor UTF-16 with its byte-order mark, nor Windows-1252), which \
         a .{format} file must be; {}",
        Format::documents_read()
    )]
    NotText {
        /// The file's name.
        file: String,
        /// Its format's name.
        format: &'static str,
    },
    /// Text holding a NUL character: no text file does (a UTF-16 file holds many), and the
    /// database cannot store it.
    #[error(
        "{file}: the text holds a NUL character, which no text file does (is it UTF-16 or a \
         binary file?); save it as UTF-8 text"
    )]
    HoldsNul {
        /// The file's name.
        file: String,
    },
    /// A line of a JSON-lines file that is not a JSON object with "text".
    #[error("{file}, line {line} is not a JSON object with \"text\"")]
    NotAJsonLine {
        /// The file's name.
        file: String,
        /// The line's number, from 1.
        line: usize,
        /// The JSON parser's error.
        #[source]
        cause: serde_json::Error,
    },
    /// A binary format's file given as text.
    #[error("{file}: a {format} file is read from its bytes, not from text")]
    BinaryAsText {
        /// The file's name.
        file: String,
        /// Its format's name.
        format: &'static str,
    },
    /// A data set's format (snippets, judged queries) given as a document.
    #[error(
        "{file}: {format} is a data set's format, not a document's ({})",
        Format::names(Format::DOCUMENTS)
    )]
    NotADocumentFormat {
        /// The file's name.
        file: String,
        /// Its format's name.
        format: &'static str,
    },
    /// No index holds a corpus of this name.
    #[error("there is no corpus `{name}`")]
    NoCorpus {
        /// The name asked for.
        name: String,
    },
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
    /// An index (the snippets' or the sentences') failed.
    #[error("the index failed")]
    Tantivy(#[from] tantivy::TantivyError),
    /// An index directory could not be opened.
    #[error(transparent)]
    Open(#[from] OpenIndexError),
    /// The crops of scanned pages beside the snippet index could not be written, read or
    /// deleted.
    #[error("the crops of scanned pages beside the snippet index failed")]
    Crops(#[source] std::io::Error),
    /// A stored sentence could not be read.
    #[error("stored sentence {doc_id} is unreadable")]
    Stored {
        /// Its document number in the index.
        doc_id: u32,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// An observation could not be written.
    #[error("an observation could not be written")]
    Unwritable(#[source] serde_json::Error),
    /// The stored sentence vectors could not be read or written.
    #[error(transparent)]
    Vectors(#[from] VectorsError),
    /// Indexing stopped before it was done, as its caller asked (a deletion, a shutdown).
    #[error("indexing was stopped before it was done")]
    Stopped,
    /// A file past the reading budget (too slow, too large), damaged, or whose reading was
    /// cancelled. `why` is also its source, so that a chain goes on to the reader's own error
    /// ([`ReadRefused::Damaged`]); `Causes` writes `why` once.
    #[error("{file}: {why}")]
    Refused {
        /// The file's name.
        file: String,
        /// Why it was not read.
        #[source]
        why: ReadRefused,
    },
}

impl DocumentsError {
    /// Whether what was given is at fault (a name, a file), not the indexes: what a person can
    /// mend, answered with a 400 and this error's sentence.
    pub fn is_the_input(&self) -> bool {
        match self {
            DocumentsError::BadCorpusName
            | DocumentsError::AllCorporaName
            | DocumentsError::NotText { .. }
            | DocumentsError::HoldsNul { .. }
            | DocumentsError::NotAJsonLine { .. }
            | DocumentsError::BinaryAsText { .. }
            | DocumentsError::NotADocumentFormat { .. } => true,
            DocumentsError::Refused { why, .. } => !matches!(why, ReadRefused::Cancelled),
            DocumentsError::NoCorpus { .. }
            | DocumentsError::Read { .. }
            | DocumentsError::Parse { .. }
            | DocumentsError::Dataset(_)
            | DocumentsError::Tantivy(_)
            | DocumentsError::Open(_)
            | DocumentsError::Crops(_)
            | DocumentsError::Stored { .. }
            | DocumentsError::Unwritable(_)
            | DocumentsError::Vectors(_)
            | DocumentsError::Stopped => false,
        }
    }
}

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

/// Why a data set file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is not a SQuAD-format snippet file; keeps why.
    #[error("{path} is not a SQuAD-format snippet file")]
    Squad {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: serde_json::Error,
    },
    /// A line of a JSONL snippet file could not be read; says why.
    #[error("{path}, line {line}: {message}")]
    Jsonl {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The file could not be read as CSV.
    #[error("{path} is not a gold CSV file")]
    CsvSyntax {
        /// The file.
        path: PathBuf,
        /// What the CSV reader found.
        #[source]
        source: csv::Error,
    },
    /// The file is not a gold CSV file; says why.
    #[error("{path} is not a gold CSV file: {message}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
}
