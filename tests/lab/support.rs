//! Paths and outputs the lab's tests share.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The workspace root: commands run from there so that `models/` resolves as it does for the
/// README's commands.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("workspace root exists")
}

/// A scratch directory for one test under `target/test-runs/lab`, emptied first.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = workspace_root().join("target/test-runs/lab").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir can be created");
    dir
}

/// The shared data directory: `TALLY_DATA`, or `../shared/data` beside the workspace.
pub fn data_dir() -> PathBuf {
    std::env::var_os("TALLY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/data"))
}

/// The JSON object a successful command printed on stdout.
pub fn json_of(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Runs `tally-lab` with `args` from the current directory.
pub fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tally-lab"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the tally-lab binary runs")
}
