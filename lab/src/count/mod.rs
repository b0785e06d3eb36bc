//! Count questions in the lab: evaluation on the CoQEx data sets (`eval`), the simulation of
//! visitors whose judgments teach (`feedback`, `instance_feedback`), and training (`training`).

pub mod eval;
pub mod feedback;
pub mod instance_feedback;
pub mod training;
