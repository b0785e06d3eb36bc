//! The `tally` sub-commands other than `serve`: each turns its typed flags into a call of the
//! engine and prints what it found.

pub mod bench;
pub mod count;
pub mod documents;
pub mod eval;
pub mod extract;
pub mod search;
pub mod value;
