//! The `tally` sub-commands other than `serve`: each turns its typed flags into a call of the
//! engine and prints what it found.

pub mod ask;
pub mod bench;
pub mod corpus;
pub mod count;
pub mod eval;
pub mod extract;
pub mod feedback;
pub mod ingest;
pub mod judged_instances;
pub mod own_document_instances;
pub mod own_document_values;
pub mod own_documents;
pub mod resident;
pub mod search;
pub mod train_instances;
pub mod train_support;
pub mod value;
