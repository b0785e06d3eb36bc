//! Text, units and the quantities in text: the floor of Tally's crates.
//!
//! Nothing here knows about questions, documents or indexes: the unit table (`units`), quantity
//! extraction and query conditions (`quantity`), where names may be (`names`), character offsets,
//! a stable hash for fixed splits and a seedable generator. The engine's readers, rankers and
//! records all read text through this crate.

pub mod calendar;
pub mod hash;
pub mod names;
pub mod offsets;
pub mod quantity;
pub mod random;
pub mod units;

pub use quantity::{extract, parse_query, Change, Quantity, QuantityUnit, Value};
pub use units::{Unit, UnitError, UnitTable};
