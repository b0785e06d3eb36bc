//! Count questions (CoQEx): "how many songs did Paul McCartney write for the Beatles?" → a count
//! with its evidence.
//!
//! The stages, one module each: [`question`] analysis, count [`candidates`] (ExtractCount),
//! span confidences from Tally's own [`span_model`] (trained in the lab, `tally_lab::count::training`) or the [`lexical`]
//! baseline, [`consolidate`] into one count, [`contextualize`] the count phrases (CNPs), and
//! [`instances`]. [`pipeline`] runs them all; [`snippet_index`] finds the snippets; [`tally_documents::corpus::datasets`]
//! reads the CoQEx files and [`metrics`] scores answers against them.

pub mod answer_support;
pub mod calibration;
pub mod candidates;
pub(crate) mod clause;
pub mod consolidate;
pub mod contextualize;
mod dated;

mod instance_reading;
pub mod instance_scorer;
pub mod instances;
pub mod lexical;
pub mod logistic;
pub mod membership;
pub mod metrics;
pub mod name_cache;
pub mod pipeline;
pub mod prediction;
pub mod question;
pub mod ranker;
pub mod relevance;

pub mod span_model;
mod statement;
pub mod structured;

pub use candidates::{count_candidates, extract_count, CountCandidate};
pub use pipeline::CountPipeline;
