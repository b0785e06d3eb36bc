//! Resident memory of a server holding a corpus, for `tally bench ingest`: a child process
//! (so that nothing the benchmark itself allocated is counted) opens an index pair as `tally
//! serve` does, answers a count and a value question, and prints its resident memory; asked to,
//! it then deletes a corpus as the corpus page does, answers again and prints it once more.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use tally_answer::{EngineConfig, Standalone};
use tally_types::request::{Ask, Settings};
use tally_types::Mode;

use tally_setup::flags::ModelArgs;

/// Resident memory in megabytes, as `/proc/self/status` gives it: all of it, and its anonymous
/// part (the heap: what a corpus costs beyond the index files the kernel may evict).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct Resident {
    pub total_mb: f64,
    pub anonymous_mb: f64,
}

impl Resident {
    /// This process's resident memory now (Linux; 0 elsewhere).
    pub(crate) fn now() -> Resident {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        Resident {
            total_mb: status_mb(&status, "VmRSS:"),
            anonymous_mb: status_mb(&status, "RssAnon:"),
        }
    }
}

/// A field of `/proc/self/status` (in kB there) in megabytes; 0 when it is missing.
fn status_mb(status: &str, name: &str) -> f64 {
    status
        .lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The most memory this process has held resident so far (`VmHWM`), in megabytes (Linux; 0
/// elsewhere).
pub(crate) fn peak_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status_mb(&status, "VmHWM:")
}

/// Samples this process's heap (anonymous resident memory) every 20 ms on a thread of its own,
/// keeping the largest, until stopped.
pub(crate) struct HeapSampler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<f64>,
}

impl HeapSampler {
    pub(crate) fn start() -> HeapSampler {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let stopped = std::sync::Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut peak = Resident::now().anonymous_mb;
            while !stopped.load(Ordering::Acquire) {
                peak = peak.max(Resident::now().anonymous_mb);
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            peak.max(Resident::now().anonymous_mb)
        });
        HeapSampler { stop, thread }
    }

    /// The largest heap seen, in megabytes.
    pub(crate) fn stop(self) -> f64 {
        self.stop.store(true, std::sync::atomic::Ordering::Release);
        self.thread.join().unwrap_or(0.0)
    }
}

/// What the child measured: with the corpus loaded, and after deleting it (when asked).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct Measured {
    pub loaded: Resident,
    pub after_delete: Option<Resident>,
}

/// Runs this binary as the measuring child over the index pair in `dir`, with the models of
/// `models` as a server loads them.
pub(crate) fn measure_in_child(
    dir: &Path,
    models: &ModelArgs,
    delete: Option<&str>,
) -> anyhow::Result<Measured> {
    let exe = std::env::current_exe().context("this program's path is unknown")?;
    let mut command = Command::new(exe);
    command.args(["bench", "ingest", "--resident-of"]).arg(dir);
    command.arg("--models").arg(&models.model_files.models);
    command.args(["--encoder", &models.model_files.encoder]);
    if let Some(head) = &models.span_model {
        command.arg("--span-model").arg(head);
    }
    if let Some(corpus) = delete {
        command.args(["--then-delete", corpus]);
    }
    let output = command
        .output()
        .context("the measuring process did not start")?;
    anyhow::ensure!(
        output.status.success(),
        "the measuring process failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).context("the measuring process printed no figures")
}

/// The child's side: open, answer, measure, (delete, answer, measure); prints JSON.
pub(crate) fn measure_here(
    dir: &Path,
    models: &ModelArgs,
    delete: Option<&str>,
) -> anyhow::Result<()> {
    let config = EngineConfig {
        snippet_index: dir.join("snippets"),
        sentence_index: dir.join("sentences"),
        data_dir: None,
        span_model: models.span_model.clone(),
        reader_context_chars: models.reader_context_chars(),
        reader_weights: models.reader_weights,
        sentence_vectors: false,
    };
    let (encoder, _) = tally_setup::loading::encoder_of(models)?;
    let answerer = Standalone::load(&config, Some(encoder)).map_err(|e| {
        anyhow::Error::new(e).context(format!("the indexes in {} did not load", dir.display()))
    })?;
    let ask = |answerer: &Standalone| -> anyhow::Result<()> {
        for (q, mode, kind) in [
            ("how many moons does jupiter have", Mode::Count, "count"),
            ("how tall is the Eiffel Tower", Mode::Value, "value"),
        ] {
            answerer
                .ask(&Ask {
                    q: q.to_string(),
                    mode,
                    settings: Settings::default(),
                })
                .map_err(|e| {
                    anyhow::Error::new(e).context(format!("the {kind} question failed"))
                })?;
        }
        Ok(())
    };
    ask(&answerer)?;
    let loaded = Resident::now();
    let after_delete = match delete {
        Some(corpus) => {
            // As the corpus page deletes one: from both indexes, its tables forgotten, the
            // freed memory given back.
            tally_documents::corpus::indexing::delete(&answerer.engines().indexes(), corpus)?;
            answerer.corpora_changed(corpus);
            tally_setup::process::give_back_freed();
            ask(&answerer)?;
            Some(Resident::now())
        }
        None => None,
    };
    println!(
        "{}",
        serde_json::to_string(&Measured {
            loaded,
            after_delete
        })?
    );
    Ok(())
}

/// A fresh directory beside `dir` for the empty index pair measured before the upload.
pub(crate) fn empty_beside(dir: &Path) -> PathBuf {
    let mut name = dir.as_os_str().to_owned();
    name.push("-empty");
    PathBuf::from(name)
}
