//! Corpora: the text Tally answers from, in one place. The catalogue of the data sets a data
//! directory holds, the readers of their file formats, the default corpora each index is filled
//! with when it is empty, and a person's own documents (read, split, ingested with progress into
//! both indexes, listed and deleted by corpus).

pub mod archive;
pub mod budget;
pub mod catalogue;
pub mod datasets;
pub mod default_snippets;
pub mod documents;
pub mod examples;
pub mod format;
#[cfg(test)]
mod hostile;
pub mod html_text;
pub mod indexing;
pub mod ocr;
pub mod pdf_bounds;
mod pdf_content;
mod pdf_filters;
mod read_again;
pub mod sentences;
pub mod structure;
pub mod text_encoding;

pub use format::Format;
