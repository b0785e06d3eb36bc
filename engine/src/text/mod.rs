//! Text helpers shared by the features: where names are, character offsets, and a stable hash.

pub mod hash;
pub mod names;
pub mod offsets;
