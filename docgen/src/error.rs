//! The one error of the generator: what went wrong printing or spoiling a page, with its cause.

use std::path::PathBuf;

/// Why a page could not be printed, rendered to pixels or spoilt.
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
    /// A document the conversion plan names has no source of a kind it reads.
    #[error("no .html, .md, .txt or .csv source for {stem}")]
    NoSource {
        /// The document's stem.
        stem: String,
    },
    /// A source lacks what its conversion needs: an e-mail thread's header field, a table's
    /// column of numbers, a date that can be read.
    #[error("{stem}: {what}")]
    Unconvertible {
        /// The document's stem.
        stem: String,
        /// What is missing or wrong.
        what: String,
    },
    /// A path to print names no file.
    #[error("{} names no file", .0.display())]
    NoFileName(PathBuf),
}
