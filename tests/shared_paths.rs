//! Paths and outputs every test binary shares (`tests/integration` and `tests/lab` both
//! include this file).

use std::path::PathBuf;

/// The workspace root: tests run commands from there so that `models/` and `target/site`
/// resolve as they do for the README's commands.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("workspace root exists")
}

/// A scratch directory for one test under `target/test-runs`, emptied first.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = workspace_root().join("target/test-runs").join(name);
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
pub fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Runs `binary` with `args` from the workspace root (where `models/` is), without the
/// environment that would point it at other indexes or data, plus `env`.
pub fn run_from_root(
    binary: &str,
    args: &[&str],
    env: &[(&str, std::ffi::OsString)],
) -> std::process::Output {
    let mut command = std::process::Command::new(binary);
    command
        .args(args)
        .current_dir(workspace_root())
        .env_remove("RUST_BACKTRACE")
        .env_remove("TALLY_INDEX")
        .env_remove("TALLY_SEARCH_INDEX")
        .env_remove("TALLY_DATA");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("the binary runs")
}
