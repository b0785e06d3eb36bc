//! The `tally` binary's library: HTTP server, command line and wiring between the engine, the
//! web app and PostgreSQL.

pub mod answering;
pub mod api;
pub mod backend;
pub mod bench;
pub mod cli;
pub mod count;
pub mod db;
pub mod eval;
pub mod feedback;
pub mod health;
pub mod http;
pub mod listen;
pub mod loading;
pub mod pg_cluster;
pub mod preferences;
pub mod progress;
pub mod rate_limit;
pub mod search;
pub mod serve;
pub mod state;
pub mod store;
pub mod study;
