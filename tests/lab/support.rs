//! What the lab's tests share: the paths every test binary shares, and `tally-lab` run.

use std::process::Output;

#[path = "../shared_paths.rs"]
mod shared_paths;
pub use shared_paths::{data_dir, json_of, run_from_root, scratch_dir, workspace_root};

/// Runs `tally-lab` with `args` from the workspace root, the data directory set.
pub fn lab(args: &[&str]) -> Output {
    run_from_root(
        env!("CARGO_BIN_EXE_tally-lab"),
        args,
        &[("TALLY_DATA", data_dir().into_os_string())],
    )
}
