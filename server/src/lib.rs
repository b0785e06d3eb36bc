//! The `tally` binary's library: HTTP server, command line and wiring between the engine, the
//! web app and PostgreSQL.

pub mod admin_token;
pub mod answering;
pub mod backend;
pub mod cli;
pub mod commands;
pub mod error;
pub mod http;
pub mod ingest;
pub mod login_throttle;
pub mod memory;
pub mod rate_limit;
pub mod serve;
pub mod sources;
pub mod state;
pub mod study;
pub mod web_search;
