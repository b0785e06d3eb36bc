//! Quantity-condition search: "stadiums with a capacity of more than 80000", "phones under $300
//! with at least 128 GB".
//!
//! Documents are split into sentences ([`sentences`]), their quantities extracted by the quantity
//! module and stored in a tantivy index with packed comparison keys ([`keys`], [`index`]); a query
//! is parsed by the same module into terms and constraints, and ranked ([`rank`]) by one of the
//! [`rankers`]. The lab (`tally_lab::search`) scores the rankers on judged sentences and learns
//! their weights.

mod present;
pub mod rank;
pub mod rankers;
mod retrieve;
pub mod settings;
pub mod store;
pub mod vector_job;

pub use rank::{search, search_in, MAX_K};
pub use settings::{DenseWeights, SearchSettings};
pub use store::SentenceStore;
/// What a search returns (one type for the CLI, the API and the pages; in `tally-types`).
pub(crate) use tally_types::search::results;
