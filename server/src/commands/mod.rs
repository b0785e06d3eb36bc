//! The `tally` sub-commands other than `serve`: each turns its typed flags into a call of the
//! engine and prints what it found.

pub mod ask;
pub mod corpus;
mod count;
pub mod extract;
pub mod ingest;
pub mod read;
pub mod search;
pub mod service;
pub mod value;
