//! Quantity search: how results are ranked and ordered, and what a search returns.

pub mod choices;
pub mod results;

pub use choices::{Ranker, SortOrder, DEFAULT_ALPHA, DEFAULT_RESULTS, MAX_ALPHA};
pub use results::{
    ConstraintView, EntityHit, Hit, QuantityMatch, QueryView, SearchResults, SearchTimings,
};
