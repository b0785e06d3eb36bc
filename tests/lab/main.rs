//! The lab's command-line tests: they start the real `tally-lab` binary on the real data sets
//! and check the papers' metrics it prints, or the sentence it explains a bad file with.

// A test binary exports nothing: its modules share their helpers with `pub`.
#![allow(unreachable_pub)]

mod candidates;
mod counts;
mod extraction_and_values;
mod office_suite;
mod reading_fixtures;
mod search;
mod support;
