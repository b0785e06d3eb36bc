//! Tally's document generator: documents drawn from a seed with their truth known cell by cell
//! ([`content`], [`model`]), written in every format Tally reads as the programs that make
//! such files write them ([`render`]), and printed pages spoilt as scans and phone photos
//! ([`scan`]), till receipts among them ([`receipt`]); and a part of the own-documents
//! collection converted by the same renderers ([`convert`]). It reads nothing back: the lab
//! scores what Tally's readers make of these files.

pub mod content;
pub mod convert;
mod error;
pub mod model;
pub mod pdf_file;
pub mod receipt;
pub mod render;
pub mod scan;

pub use error::DocgenError;
