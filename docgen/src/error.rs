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
    /// A path to print names no file.
    #[error("{} names no file", .0.display())]
    NoFileName(PathBuf),
}
