//! Quantity extraction in the lab: the gold scorer (`eval`) and the generated surface-form
//! (`generated`) and compound and currency (`generated_compound`) tests.

pub mod eval;
pub mod generated;
pub mod generated_compound;
