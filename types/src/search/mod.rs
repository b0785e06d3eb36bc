//! Quantity search: how results are ranked and ordered, and what a search returns.

pub mod choices;
pub mod results;

pub use choices::{Ranker, SortOrder};
pub use results::{
    ConstraintView, EntityHit, Hit, QuantityMatch, QueryView, SearchResults, SearchTimings,
};
