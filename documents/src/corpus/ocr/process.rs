//! The OCR tools as bounded subprocesses: a wall-clock limit and the budget's cancellation
//! watched while they run, their death tied to the thread that started them, the scratch
//! folder their pages are written in, and where they are found.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::corpus::budget::{ReadBudget, ReadRefused};

/// Runs `command` to its end and gives what it wrote to standard output; killed and refused
/// past `limit`, when the budget is cancelled, or when it fails (`doing` says what it was at).
pub(super) fn run_bounded(
    mut command: Command,
    limit: Duration,
    budget: &ReadBudget,
    doing: &str,
) -> Result<Vec<u8>, ReadRefused> {
    let failed = |e: std::io::Error| ReadRefused::failed(format!("OCR failed {doing}"), e);
    // The upload's OCR time bounds each run too (issue 97: an upload's pages read for an hour).
    let allowance = budget.ocr();
    allowance.check_time()?;
    let limit = limit.min(allowance.time_left());
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(failed)?;
    // Standard output is read on its own thread so that a full pipe never stalls the tool.
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stdout) = stdout.as_mut() {
            let _ = stdout.read_to_end(&mut out);
        }
        out
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(failed)? {
            break status;
        }
        let cancelled = budget.is_cancelled();
        if cancelled || started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            if cancelled {
                return Err(ReadRefused::Cancelled);
            }
            allowance.check_time()?;
            return Err(ReadRefused::TooLarge(format!(
                "OCR took more than {} s {doing} of one page, past its limit",
                limit.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = reader.join().unwrap_or_default();
    if !status.success() {
        let mut err = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            let _ = stderr.read_to_string(&mut err);
        }
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        // The tool's own words are its exit status and last line: ours to write.
        return Err(ReadRefused::Unreadable(format!(
            "OCR failed {doing}: {status}{}{}",
            if last.is_empty() { "" } else { ": " },
            last.chars().take(200).collect::<String>()
        )));
    }
    Ok(out)
}

/// Makes the tool die with the thread that started it: a server killed outright (SIGKILL)
/// leaves no Tesseract running on (issue 97: an orphan ran on for up to 30 s).
pub(super) fn dies_with_its_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec only `prctl` runs, which is async-signal-safe and
        // touches no memory of the parent.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// The folder OCR's pages are written in, when the server named its own.
static SCRATCH: OnceLock<PathBuf> = OnceLock::new();

/// Makes `dir` (a folder of the server's own) the one OCR writes its rendered pages in,
/// emptied of what an earlier run that was killed left there (issue 97: a page rendered from a
/// hostile PDF took up to 1 GB of the system's temporary folder, and stayed after SIGKILL).
pub fn use_scratch_dir(dir: &Path) -> std::io::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    let _ = SCRATCH.set(dir.to_path_buf());
    Ok(())
}

/// A fresh folder for one file's OCR, removed when dropped: in the server's scratch folder,
/// or the system's temporary one.
pub fn scratch_folder() -> Result<tempfile::TempDir, ReadRefused> {
    let made = match SCRATCH.get() {
        Some(dir) => tempfile::Builder::new().prefix("ocr-").tempdir_in(dir),
        None => tempfile::Builder::new().prefix("tally-ocr-").tempdir(),
    };
    made.map_err(|e| ReadRefused::failed("no folder to read it in", e))
}

/// The program `name` in a directory of `PATH`.
pub(super) fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}
