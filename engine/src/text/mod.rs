//! Text helpers shared by the features: where names are, and character offsets.

pub mod names;
pub mod offsets;
