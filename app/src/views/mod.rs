//! The app's views, one concept per module.

pub mod ask;
pub mod count;
pub mod feedback;
pub mod history;
pub mod search;
