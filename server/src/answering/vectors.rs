//! The server's sentence-vector job (issue 76): one background thread that fills the sentence
//! index's stored vectors ([`tally_engine::search::vector_job`]) once the corpora are loaded,
//! and again whenever they change (an upload, a deletion, a corpus synchronised from the
//! database). Every server of a cluster runs its own over its own index.
//!
//! A change stops the run after its batch and starts a new scan, so a new corpus is counted and
//! a deleted one no longer encoded. The job gives way to answers: while one is computing, it
//! waits up to [`YIELD_AT_MOST`] before each batch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use tally_encoder::Encoder;
use tally_engine::search::vector_job::{fill_vectors, FillControl, VectorProgress};

use super::Engines;

/// The longest the job waits for answers to finish before its next batch: on a busy server it
/// still advances, a batch (about a third of a second on 2 cores) every couple of seconds.
const YIELD_AT_MOST: Duration = Duration::from_secs(2);

/// What the job asks of the service it runs in.
pub(super) struct ServiceState {
    /// Whether an answer is being computed now.
    pub answering: Box<dyn Fn() -> bool + Send + Sync>,
    /// Whether a corpus is being indexed now (then no vector is dropped: a corpus being
    /// replaced comes back with its unchanged sentences).
    pub indexing: Box<dyn Fn() -> bool + Send + Sync>,
}

/// The job's thread, and what it last reported.
pub(super) struct VectorWorker {
    /// Raised when the corpora changed since the last run began.
    changed: Mutex<bool>,
    wake: Condvar,
    /// Stops the running run (raised with `changed`).
    restart: AtomicBool,
    progress: Mutex<Option<VectorProgress>>,
}

impl VectorWorker {
    /// Starts the job over `engines`' sentence index with `encoder`; it runs at once.
    pub(super) fn start(
        engines: Arc<Engines>,
        encoder: Arc<Encoder>,
        service: ServiceState,
    ) -> Arc<Self> {
        let worker = Arc::new(VectorWorker {
            changed: Mutex::new(true),
            wake: Condvar::new(),
            restart: AtomicBool::new(false),
            progress: Mutex::new(None),
        });
        let running = Arc::clone(&worker);
        let spawned = std::thread::Builder::new()
            .name("sentence-vectors".into())
            .spawn(move || running.run(&engines, &encoder, &service));
        if let Err(e) = spawned {
            tracing::error!("the sentence-vector job could not start: {e}");
        }
        worker
    }

    /// The corpora changed: the running run stops after its batch, and the job scans again.
    pub(super) fn wake(&self) {
        *lock(&self.changed) = true;
        self.restart.store(true, Ordering::Relaxed);
        self.wake.notify_one();
    }

    /// Each corpus's sentences with a vector, as the job last counted them (`None` before its
    /// first scan).
    pub(super) fn progress(&self) -> Option<VectorProgress> {
        lock(&self.progress).clone()
    }

    fn run(&self, engines: &Engines, encoder: &Encoder, service: &ServiceState) {
        loop {
            {
                let mut changed = lock(&self.changed);
                while !*changed {
                    changed = self.wake.wait(changed).unwrap_or_else(|e| e.into_inner());
                }
                *changed = false;
                self.restart.store(false, Ordering::Relaxed);
            }
            let control = FillControl {
                drop_dead: !(service.indexing)(),
                ..FillControl::until(&self.restart)
            };
            let ran = fill_vectors(&engines.sentences, encoder, control, |progress| {
                *lock(&self.progress) = Some(progress.clone());
                let since = Instant::now();
                while (service.answering)() && since.elapsed() < YIELD_AT_MOST {
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
            match ran {
                Ok(report) if report.progress.encoded > 0 || report.dropped > 0 => {
                    let totals = report.progress.totals();
                    tracing::info!(
                        "sentence vectors: {} encoded in {:.0} s ({:.0} per second), {} dropped; \
                         {} of {} sentences have one{}",
                        report.progress.encoded,
                        report.seconds,
                        report.progress.sentences_per_second,
                        report.dropped,
                        totals.with_vectors,
                        totals.sentences,
                        if report.stopped {
                            " (the corpora changed: again)"
                        } else {
                            ""
                        }
                    );
                }
                Ok(_) => {}
                Err(e) => tracing::error!(
                    "the sentence-vector job stopped: {}",
                    tally_types::error::Causes(&e)
                ),
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
