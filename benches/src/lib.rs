//! Benchmarks live in `benches/`; this crate only groups them.

#![warn(missing_docs, unreachable_pub)]
