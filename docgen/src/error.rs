//! The one error of the generator: what went wrong printing or spoiling a page, or converting
//! the collection's documents, with its cause.

use std::path::PathBuf;

/// Why a page could not be printed, rendered to pixels or spoilt, or a document of the
/// collection could not be converted.
#[derive(Debug, thiserror::Error)]
pub enum DocgenError {
    /// A file could not be read or written.
    #[error("a file could not be read or written")]
    Io(#[from] std::io::Error),
    /// A page image could not be decoded or encoded.
    #[error("a page image could not be decoded or encoded")]
    Image(#[from] image::ImageError),
    /// A program the printing needs is not installed.
    #[error("cannot run {program}; scripts/setup.sh test installs it")]
    Missing {
        /// The program.
        program: &'static str,
        /// Why it could not be started.
        #[source]
        source: std::io::Error,
    },
    /// A program ran and failed.
    #[error("{program} failed: {said}")]
    Failed {
        /// The program.
        program: &'static str,
        /// The last line it wrote to its standard error.
        said: String,
    },
    /// Chromium exited without writing the PDF.
    #[error("Chromium printed no PDF")]
    NothingPrinted,
    /// A source of the collection to convert could not be read.
    #[error("cannot read {}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A converted file could not be written.
    #[error("cannot write {}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A CSV source is not CSV.
    #[error("{} is not readable CSV", .path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: csv::Error,
    },
    /// A document of running text the conversion plan names has no HTML or Markdown source.
    #[error("no .html or .md source for {stem}")]
    NoSource {
        /// The document's stem.
        stem: String,
    },
    /// The workbook with a column of formulas has no column that is numeric throughout.
    #[error("{stem}: no column is numeric throughout")]
    NoNumericColumn {
        /// The document's stem.
        stem: String,
    },
    /// A document of running text planned in a format no writer of running text writes.
    #[error("{stem}: no writer of running text for .{extension}")]
    NoFlowWriter {
        /// The document's stem.
        stem: String,
        /// The format's extension.
        extension: &'static str,
    },
    /// An e-mail thread without one of the header lines its message needs.
    #[error("{stem}: the thread has no {field}: line")]
    NoHeaderLine {
        /// The document's stem.
        stem: String,
        /// The header's name.
        field: &'static str,
    },
    /// An e-mail thread whose `Date:` line is no date (or names another weekday).
    #[error("{stem}: {written:?} is no date")]
    NotADate {
        /// The document's stem.
        stem: String,
        /// The line's value as written.
        written: String,
    },
    /// The attachment's sentence is not in the thread word for word.
    #[error("{stem}: the attachment does not restate the thread word for word")]
    AttachmentNotInThread {
        /// The document's stem.
        stem: String,
    },
    /// A path to print names no file.
    #[error("{} names no file", .0.display())]
    NoFileName(PathBuf),
}
