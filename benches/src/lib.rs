//! Benchmarks live in `benches/`; this crate only groups them.
