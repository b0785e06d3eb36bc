//! The server's sentence-vector job (issue 76): one background thread that fills the sentence
//! index's stored vectors ([`tally_engine::search::vector_job`]) once the corpora are loaded,
//! and again whenever they change (an upload, a deletion, a corpus synchronised from the
//! database). Every server of a cluster runs its own over its own index.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex};

use tally_engine::search::vector_job::{fill_vectors, VectorProgress};
use tally_engine::Encoder;

use super::Engines;

/// The job's thread, and what it last reported.
pub struct VectorWorker {
    /// Raised when the corpora changed since the last run.
    changed: Mutex<bool>,
    wake: Condvar,
    progress: Mutex<Option<VectorProgress>>,
}

impl VectorWorker {
    /// Starts the job over `engines`' sentence index with `encoder`; it runs at once.
    pub fn start(engines: Arc<Engines>, encoder: Arc<Encoder>) -> Arc<Self> {
        let worker = Arc::new(VectorWorker {
            changed: Mutex::new(true),
            wake: Condvar::new(),
            progress: Mutex::new(None),
        });
        let running = Arc::clone(&worker);
        let spawned = std::thread::Builder::new()
            .name("sentence-vectors".into())
            .spawn(move || running.run(&engines, &encoder));
        if let Err(e) = spawned {
            tracing::error!("the sentence-vector job could not start: {e}");
        }
        worker
    }

    /// The corpora changed: the job scans the index again.
    pub fn wake(&self) {
        *lock(&self.changed) = true;
        self.wake.notify_one();
    }

    /// Each corpus's sentences with a vector, as the job last counted them (`None` before its
    /// first scan).
    pub fn progress(&self) -> Option<VectorProgress> {
        lock(&self.progress).clone()
    }

    fn run(&self, engines: &Engines, encoder: &Encoder) {
        // A run ends with the process: nothing stops it early.
        let never = AtomicBool::new(false);
        loop {
            {
                let mut changed = lock(&self.changed);
                while !*changed {
                    changed = self.wake.wait(changed).unwrap_or_else(|e| e.into_inner());
                }
                *changed = false;
            }
            let ran = fill_vectors(&engines.sentences, encoder, &never, |progress| {
                *lock(&self.progress) = Some(progress.clone());
            });
            match ran {
                Ok(report) if report.progress.encoded > 0 || report.dropped > 0 => {
                    let totals = report.progress.totals();
                    tracing::info!(
                        "sentence vectors: {} encoded in {:.0} s ({:.0} per second), {} dropped; \
                         {} of {} sentences have one",
                        report.progress.encoded,
                        report.seconds,
                        report.progress.sentences_per_second,
                        report.dropped,
                        totals.with_vectors,
                        totals.sentences
                    );
                }
                Ok(_) => {}
                Err(e) => tracing::error!("the sentence-vector job stopped: {e}"),
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
