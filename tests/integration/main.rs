//! Workspace-level integration tests: they start the real `tally` binary against a real
//! PostgreSQL (a private cluster per test, or the server's own) and talk HTTP to it.

// A test binary exports nothing: its modules share their helpers with `pub`.
#![allow(unreachable_pub)]

mod aggregations;
mod api_contract;
mod browser;
mod cli;
mod count_cli;
mod database;
mod demo_round_five;
mod demo_round_seven;
mod demo_round_six;
mod examples;
mod feedback_loop;
mod formats;
mod hardening;
mod health;
mod instances;
mod layout;
mod one_route;
mod other_programs;
mod own_documents;
mod pages;
mod planner;
mod public_demo;
mod reading;
mod records;
mod scans;
mod search_cli;
mod sentence_vectors;
mod servers;
mod site;
mod support;
mod value_scope;
mod web;
mod web_snippets;
