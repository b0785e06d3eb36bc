//! A person's documents ingested while the server runs: each upload is a job that indexes its
//! files into one corpus of both indexes, one job at a time (tantivy lets one writer at a time
//! use an index), with its progress kept for the job's page and its event stream.

use std::sync::{Arc, Mutex};

use tally_engine::corpus::documents::{self, DocumentsError, IngestProgress};
use tally_engine::corpus::Format;
use tally_engine::search::index::Document;
use tally_types::documents::{CorpusRow, IngestJob, JobState};
use tokio::sync::watch;
use uuid::Uuid;

use crate::answering::{AnswerError, Answerer};

/// Jobs remembered; older finished ones are forgotten first.
const JOBS_KEPT: usize = 100;

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// The upload cannot be used (no files, a bad name, a malformed line); says why.
    #[error("{0}")]
    BadRequest(String),
    /// The corpus named does not exist.
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Answer(#[from] AnswerError),
    #[error("the indexes could not be changed: {0}")]
    Index(String),
}

impl From<DocumentsError> for IngestError {
    fn from(error: DocumentsError) -> Self {
        match error {
            DocumentsError::Invalid(why) => IngestError::BadRequest(why),
            missing @ DocumentsError::NoCorpus(_) => IngestError::NotFound(missing.to_string()),
            other => IngestError::Index(other.to_string()),
        }
    }
}

/// One uploaded file.
pub struct Upload {
    pub file_name: String,
    pub format: Format,
    pub text: String,
}

/// The jobs of this server.
#[derive(Default)]
pub struct IngestService {
    jobs: Mutex<Vec<(Uuid, watch::Sender<IngestJob>)>>,
    /// Held by the running job: the next waits for it.
    writing: tokio::sync::Mutex<()>,
}

/// The documents of the uploads, or why they cannot be used; uploads without any text are
/// refused (they would make a job that adds nothing).
fn read_uploads(uploads: &[Upload]) -> Result<Vec<Document>, IngestError> {
    let mut all: Vec<Document> = Vec::new();
    for upload in uploads {
        all.extend(documents::read(
            &upload.text,
            upload.format,
            &upload.file_name,
        )?);
    }
    if all.iter().all(|d| d.text.trim().is_empty()) {
        let names: Vec<&str> = uploads.iter().map(|u| u.file_name.as_str()).collect();
        return Err(IngestError::BadRequest(format!(
            "there is no text to index in {}",
            names.join(", ")
        )));
    }
    Ok(all)
}

impl IngestService {
    /// Reads the uploads (refusing bad ones before anything is indexed) and starts indexing
    /// them into `corpus` in the background; the job as it starts.
    pub async fn start(
        self: &Arc<Self>,
        answerer: &Answerer,
        corpus: &str,
        uploads: Vec<Upload>,
    ) -> Result<IngestJob, IngestError> {
        documents::check_corpus_name(corpus)?;
        if uploads.is_empty() {
            return Err(IngestError::BadRequest("choose at least one file".into()));
        }
        // Answering must be loaded: the indexes are its.
        answerer.loaded()?;
        let files: Vec<String> = uploads.iter().map(|u| u.file_name.clone()).collect();
        // Parsing (HTML above all) is CPU work: off the runtime threads that serve requests.
        let all = tokio::task::spawn_blocking(move || read_uploads(&uploads))
            .await
            .map_err(|e| IngestError::Index(format!("reading the uploads crashed: {e}")))??;
        let job = IngestJob {
            id: Uuid::new_v4().to_string(),
            corpus: corpus.to_string(),
            files,
            state: JobState::Running,
            progress: IngestProgress {
                documents: all.len(),
                bytes: all.iter().map(|d| d.text.len()).sum(),
                ..IngestProgress::default()
            },
            error: None,
        };
        let (sender, _) = watch::channel(job.clone());
        let id = Uuid::parse_str(&job.id).unwrap_or_default();
        self.remember(id, sender.clone());
        let service = Arc::clone(self);
        let answerer = answerer.clone();
        tokio::spawn(async move {
            let _writing = service.writing.lock().await;
            let update = sender.clone();
            let corpus = sender.borrow().corpus.clone();
            let ran = tokio::task::spawn_blocking(move || {
                let engines = answerer.loaded()?;
                let done = documents::ingest(&engines.indexes(), &corpus, &all, &mut |p| {
                    update.send_modify(|job| job.progress = *p);
                });
                // Cached answers may have come from the corpus as it was.
                answerer.corpora_changed();
                crate::memory::give_back_freed();
                Ok::<_, IngestError>(done?)
            })
            .await;
            sender.send_modify(|job| match ran {
                Ok(Ok(done)) => {
                    job.progress = done;
                    job.state = JobState::Done;
                }
                Ok(Err(e)) => fail(job, e.to_string()),
                Err(e) => fail(job, format!("the ingestion task crashed: {e}")),
            });
        });
        Ok(job)
    }

    /// Deletes `corpus` from the loaded indexes, after any running job; what it held.
    pub async fn delete(
        &self,
        answerer: &Answerer,
        corpus: &str,
    ) -> Result<CorpusRow, IngestError> {
        let _writing = self.writing.lock().await;
        let answerer = answerer.clone();
        let corpus = corpus.to_string();
        tokio::task::spawn_blocking(move || delete_now(&answerer, &corpus))
            .await
            .map_err(|e| IngestError::Index(format!("the deleting task crashed: {e}")))?
    }

    /// The corpora of the loaded indexes.
    pub async fn corpora(&self, answerer: &Answerer) -> Result<Vec<CorpusRow>, IngestError> {
        let engines = answerer.loaded()?;
        tokio::task::spawn_blocking(move || {
            let sizes = documents::corpora(&engines.indexes())?;
            Ok(sizes.into_iter().map(row).collect())
        })
        .await
        .map_err(|e| IngestError::Index(format!("the listing task crashed: {e}")))?
    }

    /// A job's state now.
    pub fn job(&self, id: &str) -> Option<IngestJob> {
        self.sender(id).map(|s| s.borrow().clone())
    }

    /// A job's state as it changes.
    pub fn subscribe(&self, id: &str) -> Option<watch::Receiver<IngestJob>> {
        self.sender(id).map(|s| s.subscribe())
    }

    fn sender(&self, id: &str) -> Option<watch::Sender<IngestJob>> {
        let id = Uuid::parse_str(id).ok()?;
        let jobs = self.jobs.lock().ok()?;
        jobs.iter().find(|(j, _)| *j == id).map(|(_, s)| s.clone())
    }

    fn remember(&self, id: Uuid, sender: watch::Sender<IngestJob>) {
        if let Ok(mut jobs) = self.jobs.lock() {
            if jobs.len() >= JOBS_KEPT {
                let finished = jobs
                    .iter()
                    .position(|(_, s)| s.borrow().state != JobState::Running);
                jobs.remove(finished.unwrap_or(0));
            }
            jobs.push((id, sender));
        }
    }
}

fn fail(job: &mut IngestJob, why: String) {
    job.state = JobState::Failed;
    job.error = Some(why);
}

/// Deletes `corpus` from the loaded indexes (blocking; callers hold the ingestion lock, or are
/// alone): its snippets, sentences and observations; cached answers go, freed memory is given
/// back.
pub fn delete_now(answerer: &Answerer, corpus: &str) -> Result<CorpusRow, IngestError> {
    let engines = answerer.loaded()?;
    let deleted = documents::delete(&engines.indexes(), corpus)?;
    answerer.corpora_changed();
    crate::memory::give_back_freed();
    Ok(row(deleted))
}

fn row(size: documents::CorpusSize) -> CorpusRow {
    CorpusRow {
        name: size.name,
        snippets: size.snippets,
        sentences: size.sentences,
    }
}
