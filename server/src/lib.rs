//! The `tally` binary's library: HTTP server, command line and wiring between the engine, the
//! web app and PostgreSQL. Its public modules are what the `tally` and `tally-lab` binaries and
//! the tests call; the rest is the server's own.

pub mod admin_token;
pub mod answering;
mod backend;
pub mod cli;
pub mod commands;
mod error;
mod http;
pub mod ingest;
mod login_throttle;
mod rate_limit;
pub mod serve;
mod sources;
mod state;
pub mod study;
mod web_search;
