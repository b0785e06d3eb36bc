//! A person's documents, kept in PostgreSQL and indexed by every server: an upload is read
//! (bad ones refused before anything is stored), stored whole in one transaction with the job
//! that follows it, and announced; each server's sync loop ([`sync`]) then brings its indexes to
//! the database's version of the corpus, one corpus at a time (tantivy lets one writer at a
//! time use an index), and the job's server reports its progress in the job's row, which any
//! server shows.

pub(crate) mod held;
pub(crate) mod sync;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use sha2::{Digest, Sha256};
use tally_documents::corpus::budget::{OcrAllowance, ReadBudget, ReadRefused};
use tally_documents::corpus::documents::{self, DocumentsError};
use tally_documents::corpus::indexing;
use tally_documents::corpus::structure::{how_read, HowRead};
use tally_documents::corpus::Format;
use tally_documents::sentence_store::index::Document;
use tally_types::documents::{CorpusRow, FileOutcome, IngestJob, UploadMode};
use tally_types::error::Causes;
use tokio::sync::Notify;

use crate::answering::{AnswerError, Answerer};
use held::HeldCorpora;
use tally_store::corpora;
use tally_store::db::{write_to_end, Database, DbError};

#[derive(Debug, thiserror::Error)]
/// Why an upload, an ingestion job or a deletion did not go through.
pub enum IngestError {
    /// An upload without files.
    #[error("choose at least one file")]
    NoFiles,
    /// No file of the upload could be read: each one's reason, which names its file.
    #[error("{}", nothing_read(reasons))]
    NothingRead {
        /// Why each file was not read.
        reasons: Vec<String>,
    },
    /// A name or a file given cannot be used ([`DocumentsError::is_the_input`]): its sentence,
    /// and the reader's own error beneath it.
    #[error(transparent)]
    Unusable(DocumentsError),
    /// The corpus named does not exist ([`DocumentsError::NoCorpus`]).
    #[error(transparent)]
    NoCorpus(DocumentsError),
    /// No ingestion job with this id.
    #[error("there is no ingestion job `{id}`")]
    NoJob {
        /// The job's id as given.
        id: String,
    },
    /// An addition to a corpus the database does not hold: other servers could not add to it.
    #[error(
        "the corpus `{corpus}` is only in this server's indexes (bundled, or uploaded before \
         corpora were kept in the database), so other servers could not add to it: upload with \
         mode `replace`, or into another corpus"
    )]
    OnlyInIndexes {
        /// The corpus's name.
        corpus: String,
    },
    #[error(transparent)]
    /// The answering service refused or failed.
    Answer(#[from] AnswerError),
    #[error(transparent)]
    /// The database refused or failed.
    Store(#[from] DbError),
    /// The indexes could not read or change the documents.
    #[error("the indexes could not be changed")]
    Documents(#[source] DocumentsError),
    /// What the indexes hold could not be recorded beside them.
    #[error("what the indexes hold could not be recorded")]
    Held(#[from] std::io::Error),
    /// A task reading, indexing, listing or deleting panicked or was dropped.
    #[error("a task of the indexes crashed")]
    Crashed(#[from] tokio::task::JoinError),
    /// The server is shutting down and takes no more uploads.
    #[error("the server is shutting down")]
    ShuttingDown,
    /// The upload's client went away before its documents were stored; nothing was stored.
    #[error("the upload was cancelled: its client went away before it was stored")]
    Cancelled,
    /// Indexing stopped before it was done: the corpus was deleted, or the server is stopping.
    #[error("indexing stopped: the corpus was deleted or the server is stopping")]
    Stopped,
}

impl From<DocumentsError> for IngestError {
    fn from(error: DocumentsError) -> Self {
        match error {
            unusable if unusable.is_the_input() => IngestError::Unusable(unusable),
            missing @ DocumentsError::NoCorpus { .. } => IngestError::NoCorpus(missing),
            DocumentsError::Refused {
                why: ReadRefused::Cancelled,
                ..
            } => IngestError::Cancelled,
            DocumentsError::Stopped => IngestError::Stopped,
            other => IngestError::Documents(other),
        }
    }
}

/// One uploaded file, as its bytes: the format's reader decodes them.
pub struct Upload {
    /// The file's name as sent.
    pub file_name: String,
    /// The format it is read as.
    pub format: Format,
    /// Its bytes, as they came.
    pub bytes: Vec<u8>,
}

/// This server's part in ingestion: its name in the jobs' rows, what its indexes hold, and the
/// lock that lets one change of the indexes run at a time.
pub struct IngestService {
    db: Database,
    server: String,
    held: HeldCorpora,
    writing: tokio::sync::Mutex<()>,
    /// The uploads read and stored at once, by their bytes: parsing and storing hold several
    /// times a file's size, so concurrent uploads added up (issue 57: four 50 MB uploads at once
    /// added 3.28 GB). At most [`MAX_UPLOAD_BYTES`] are read at once, and at most four uploads,
    /// so a full-sized upload is read alone and the others wait with their bytes only; small ones
    /// are read beside each other (issue 97: a 27-byte text waited 145 s behind an 88 KB scan
    /// read by OCR). The
    /// turn goes with the work, not the request: it is released when the reading and storing
    /// have ended, even when the client went away before (issue 70).
    reading: Arc<tokio::sync::Semaphore>,
    /// Wakes the sync loop: an upload or a restarted job on this server.
    wake: Notify,
    /// Raised when the server begins to shut down: indexing and reading stop at their next step
    /// (issue 84: SIGTERM waited over two minutes for a large document).
    stopping: Arc<AtomicBool>,
    /// The flag a deletion of each corpus raises, for the corpus indexed now.
    deletions: Mutex<HashMap<String, Arc<AtomicBool>>>,
    /// The cancellation flags of the uploads being read, raised at shutdown.
    reading_now: Mutex<Vec<Weak<AtomicBool>>>,
}

/// The documents of the uploads, or why they cannot be used; uploads without any text are
/// refused (they would make a job that adds nothing). Each file has its own budget, for its
/// own size (issue 84: a 133 KB workbook spent the budget its 20 MB neighbour earned), and
/// stops when `cancelled` is raised; OCR has one allowance for the whole upload, and a file
/// sent twice is read once (issue 97: every copy of a scan was read by OCR again).
fn read_uploads(
    uploads: &[Upload],
    cancelled: &Arc<AtomicBool>,
) -> Result<(Vec<Document>, Vec<FileOutcome>), IngestError> {
    let mut all: Vec<Document> = Vec::new();
    let mut outcomes = Vec::new();
    let ocr = OcrAllowance::per_upload();
    let mut read_before: HashMap<[u8; 32], &str> = HashMap::new();
    for upload in uploads {
        let digest: [u8; 32] = Sha256::digest(&upload.bytes).into();
        if let Some(first) = read_before.get(&digest) {
            outcomes.push(FileOutcome {
                file: upload.file_name.clone(),
                refused: Some(format!(
                    "{} is the same file as {first}, which is read once",
                    upload.file_name
                )),
                ..FileOutcome::default()
            });
            continue;
        }
        read_before.insert(digest, &upload.file_name);
        let budget = ReadBudget::for_bytes(upload.bytes.len())
            .cancelled_by(Arc::clone(cancelled))
            .with_ocr_allowance(Arc::clone(&ocr));
        let read = documents::read_file(&upload.bytes, upload.format, &upload.file_name, &budget)
            .map_err(IngestError::from);
        // A file that cannot be read is refused alone (issue 87): the others are stored.
        let (documents, refused) = match read {
            Ok(documents) if documents.iter().all(|d| d.text.trim().is_empty()) => {
                let why = format!("there is no text to index in {}", upload.file_name);
                (Vec::new(), Some(why))
            }
            Ok(documents) => (documents, None),
            // The reader's own error says what in the file is wrong: a person reads it.
            Err(IngestError::Unusable(unusable)) => {
                (Vec::new(), Some(Causes(&unusable).to_string()))
            }
            Err(other) => return Err(other),
        };
        let read: Vec<HowRead> = documents.iter().map(|d| how_read(&d.text)).collect();
        let sure: Vec<f64> = read.iter().filter_map(|r| r.ocr_sure).collect();
        outcomes.push(FileOutcome {
            file: upload.file_name.clone(),
            documents: documents.len(),
            refused,
            pages: read.iter().map(|r| r.pages).sum(),
            ocr_sure: (!sure.is_empty()).then(|| sure.iter().sum::<f64>() / sure.len() as f64),
        });
        all.extend(documents);
    }
    if all.is_empty() {
        // The readers' sentences name their file.
        let reasons: Vec<&str> = outcomes
            .iter()
            .filter_map(|o| o.refused.as_deref())
            .collect();
        return Err(IngestError::NothingRead {
            reasons: reasons.into_iter().map(str::to_string).collect(),
        });
    }
    Ok((all, outcomes))
}

/// Largest upload accepted (all files of one request); the HTTP layer refuses a larger body.
pub(crate) const MAX_UPLOAD_BYTES: usize = 64 * 1024 * 1024;

/// The reading turn's permits: one per KiB of [`MAX_UPLOAD_BYTES`].
const READING_PERMITS: u32 = (MAX_UPLOAD_BYTES / 1024) as u32;

/// The permits an upload of `bytes` takes: one per KiB, at least a quarter of them (what a file
/// makes the reader hold does not follow its size: a small PDF may take a page's 400 MB), at
/// most all. So at most four uploads are read at once.
fn reading_permits(bytes: usize) -> u32 {
    u32::try_from(bytes / 1024)
        .unwrap_or(u32::MAX)
        .clamp(READING_PERMITS / 4, READING_PERMITS)
}

impl IngestService {
    /// The service of server `server` (a name unique to this process), whose indexes' database
    /// corpora are recorded in `held`.
    pub fn new(db: Database, server: String, held: HeldCorpora) -> Self {
        Self {
            db,
            server,
            held,
            writing: tokio::sync::Mutex::new(()),
            reading: Arc::new(tokio::sync::Semaphore::new(READING_PERMITS as usize)),
            wake: Notify::new(),
            stopping: Arc::new(AtomicBool::new(false)),
            deletions: Mutex::new(HashMap::new()),
            reading_now: Mutex::new(Vec::new()),
        }
    }

    /// The server is shutting down: the indexing and the reading under way stop at their next
    /// step, and nothing new starts.
    pub fn stop_everything(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        if let Ok(reading) = self.reading_now.lock() {
            for flag in reading.iter().filter_map(Weak::upgrade) {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The flag raised when the server begins to shut down.
    fn stopping(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stopping)
    }

    /// The flag a deletion of `corpus` raises, for its indexing that begins now.
    fn indexing_now(&self, corpus: &str) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        if let Ok(mut deletions) = self.deletions.lock() {
            deletions.insert(corpus.to_string(), Arc::clone(&flag));
        }
        flag
    }

    /// Reads the uploads (refusing bad ones before anything is stored), stores their documents
    /// in `corpus` with the job, and wakes the sync loop that indexes them; the job as stored.
    pub async fn start(
        &self,
        answerer: &Answerer,
        corpus: &str,
        mode: UploadMode,
        uploads: Vec<Upload>,
    ) -> Result<IngestJob, IngestError> {
        documents::check_corpus_name(corpus)?;
        if uploads.is_empty() {
            return Err(IngestError::NoFiles);
        }
        // Answering must be loaded: the indexes are its.
        let engines = answerer.loaded()?;
        let bytes: usize = uploads.iter().map(|u| u.bytes.len()).sum();
        let reading = Arc::clone(&self.reading)
            .acquire_many_owned(reading_permits(bytes))
            .await
            .map_err(|_| IngestError::ShuttingDown)?;
        // A deletion of the corpus from now on wins over this upload.
        let read_since = corpora::database_now(&self.db).await.ok();
        if self.stopping.load(Ordering::Relaxed) {
            return Err(IngestError::Stopped);
        }
        // Dropped with this request's future: the reading stops at its next check; raised too
        // when the server shuts down.
        let client_gone = CancelWhenDropped::default();
        if let Ok(mut reading) = self.reading_now.lock() {
            reading.retain(|flag| flag.strong_count() > 0);
            reading.push(Arc::downgrade(&client_gone.0));
        }
        let cancelled = Arc::clone(&client_gone.0);
        // Parsing (HTML above all) is CPU work: off the runtime threads that serve requests. The
        // turn travels with it and is given back when it ends, not when the client goes.
        let (all, reading) = tokio::task::spawn_blocking(move || {
            let all = read_uploads(&uploads, &cancelled);
            // What a refused hostile file made the reader hold goes back at once (issue 97:
            // 1.1 GB stayed resident).
            tally_setup::process::give_back_freed();
            if let Err(IngestError::Cancelled) = &all {
                let names: Vec<&str> = uploads.iter().map(|u| u.file_name.as_str()).collect();
                tracing::info!(
                    "reading {} stopped: the upload's client went away",
                    names.join(", ")
                );
            }
            (all, reading)
        })
        .await?;
        let (all, outcomes) = match all {
            // Cancelled by the shutdown, not by the client (issue 97: the uploader was told
            // its client went away).
            Err(IngestError::Cancelled) if self.stopping.load(Ordering::Relaxed) => {
                return Err(IngestError::ShuttingDown)
            }
            other => other?,
        };
        if mode == UploadMode::Add && self.held.get(corpus).is_none() {
            // Both indexes: a bundled data set may be in the sentence index only.
            let name = corpus.to_string();
            let local = tokio::task::spawn_blocking(move || {
                indexing::corpora(&engines.indexes())
                    .map(|sizes| sizes.iter().any(|s| s.name == name))
            })
            .await??;
            if local && !corpora::has(&self.db, corpus).await? {
                return Err(IngestError::OnlyInIndexes {
                    corpus: corpus.to_string(),
                });
            }
        }
        let (db, server, corpus) = (self.db.clone(), self.server.clone(), corpus.to_string());
        let job = write_to_end(async move {
            // Storing, once begun, ends whether or not the client waits; the turn with it.
            let _reading = reading;
            let followed_by = corpora::FollowedBy::Server(&server);
            corpora::store_upload(&db, followed_by, &corpus, mode, outcomes, &all, read_since).await
        })
        .await?;
        drop(client_gone);
        self.wake.notify_one();
        Ok(job)
    }

    /// Deletes `corpus`: from the database (every server drops it) and from this server's
    /// indexes, after any change under way; what this server held of it.
    pub async fn delete(
        &self,
        answerer: &Answerer,
        corpus: &str,
    ) -> Result<CorpusRow, IngestError> {
        // A name no corpus can have (a NUL byte, which PostgreSQL refuses, was a 500) is a 400.
        documents::check_corpus_name(corpus)?;
        let (db, name) = (self.db.clone(), corpus.to_string());
        let in_database = write_to_end(async move { corpora::delete(&db, &name).await }).await?;
        // Indexing it now stops within a step, so the lock comes within about a second.
        if let Some(flag) = self
            .deletions
            .lock()
            .ok()
            .and_then(|d| d.get(corpus).cloned())
        {
            flag.store(true, Ordering::Relaxed);
        }
        let _writing = self.writing.lock().await;
        let local = {
            let answerer = answerer.clone();
            let corpus = corpus.to_string();
            tokio::task::spawn_blocking(move || delete_now(&answerer, &corpus)).await?
        };
        self.held.set(corpus, None)?;
        answerer.indexed(corpus);
        match local {
            // Stored, but not indexed here yet.
            Err(IngestError::NoCorpus(_)) if in_database => Ok(CorpusRow {
                name: corpus.to_string(),
                snippets: 0,
                sentences: 0,
                indexing: false,
                vectors: None,
                failed: None,
            }),
            other => other,
        }
    }

    /// The corpora of the loaded indexes (with whether each is being indexed), and those whose
    /// indexing failed (issue 84: shown, with why, so that they can be deleted).
    pub async fn corpora(&self, answerer: &Answerer) -> Result<Vec<CorpusRow>, IngestError> {
        let engines = answerer.loaded()?;
        let indexing = answerer.indexing_now();
        let vectors = answerer.vector_progress();
        // Without the database, the indexes' corpora alone.
        let failed: HashMap<String, String> = corpora::all(&self.db)
            .await
            .unwrap_or_default()
            .into_iter()
            .filter(|c| !c.deleted)
            .filter_map(|c| Some((c.name, c.failed?)))
            .collect();
        let mut rows: Vec<CorpusRow> = tokio::task::spawn_blocking(move || {
            let sizes = indexing::corpora(&engines.indexes())?;
            Ok::<_, IngestError>(
                sizes
                    .into_iter()
                    .map(row)
                    .map(|row| CorpusRow {
                        indexing: indexing.contains(&row.name),
                        vectors: vectors.as_ref().map(|v| {
                            v.corpora
                                .get(&row.name)
                                .map_or(0, |c| c.with_vectors.min(row.sentences))
                        }),
                        ..row
                    })
                    .collect(),
            )
        })
        .await??;
        for row in &mut rows {
            row.failed = failed.get(&row.name).cloned();
        }
        for (name, why) in failed {
            if !rows.iter().any(|r| r.name == name) {
                rows.push(CorpusRow {
                    failed: Some(why),
                    ..row(indexing::CorpusSize {
                        name,
                        snippets: 0,
                        sentences: 0,
                    })
                });
            }
        }
        rows.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(rows)
    }

    /// A job as its row stands now, whichever server runs it.
    pub async fn job(&self, id: &str) -> Result<IngestJob, IngestError> {
        corpora::job(&self.db, id).await?.ok_or_else(|| no_job(id))
    }

    /// Starts failed job `id` again on this server; the job.
    pub async fn restart(&self, id: &str) -> Result<IngestJob, IngestError> {
        let job = corpora::restart(&self.db, id, &self.server)
            .await?
            .ok_or_else(|| no_job(id))?;
        self.wake.notify_one();
        Ok(job)
    }
}

/// Raises its flag when dropped: with an upload's request future, dropped when its client goes
/// away (after the reading it changes nothing).
#[derive(Default)]
struct CancelWhenDropped(Arc<AtomicBool>);

impl Drop for CancelWhenDropped {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn no_job(id: &str) -> IngestError {
    IngestError::NoJob { id: id.to_string() }
}

/// The sentence of [`IngestError::NothingRead`]: one file's reason as it is, several joined.
fn nothing_read(reasons: &[String]) -> String {
    match reasons {
        [one] => one.clone(),
        many => format!("no file could be read: {}", many.join("; ")),
    }
}

/// Deletes `corpus` from the loaded indexes (blocking; callers hold the ingestion lock, or are
/// alone): its snippets, sentences and observations; cached answers go, freed memory is given
/// back.
pub fn delete_now(answerer: &Answerer, corpus: &str) -> Result<CorpusRow, IngestError> {
    let engines = answerer.loaded()?;
    let deleted = indexing::delete(&engines.indexes(), corpus)?;
    answerer.corpora_changed();
    tally_setup::process::give_back_freed();
    Ok(row(deleted))
}

fn row(size: indexing::CorpusSize) -> CorpusRow {
    CorpusRow {
        name: size.name,
        snippets: size.snippets,
        sentences: size.sentences,
        indexing: false,
        vectors: None,
        failed: None,
    }
}
