//! The `tally` sub-commands that drive the lab (`tally eval`, `tally train`, `tally bench`): each
//! turns its typed flags into a run of the lab and prints the papers' metrics.

pub(crate) mod aggregations;
pub(crate) mod asked;
pub(crate) mod bench;
pub(crate) mod candidates;
pub(crate) mod convert;
pub(crate) mod count;
pub(crate) mod eval;
pub(crate) mod feedback;
pub(crate) mod judged_instances;
pub(crate) mod own_document_instances;
pub(crate) mod own_document_values;
pub(crate) mod own_documents;
pub(crate) mod reading;
pub(crate) mod train_instances;
pub(crate) mod train_token_vectors;
pub(crate) mod train_trust;
