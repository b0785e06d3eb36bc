//! Value questions in the lab: Exist@k and P/C on questions built from judged sentences, and the
//! everyday value questions written for the project (`eval`).

pub mod eval;
