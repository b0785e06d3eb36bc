//! What the server holds while running, shared by every request.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::FromRef;
use leptos::config::LeptosOptions;
use tally_documents::CorpusInfo;
use tally_encoder::Encoder;

use crate::admin_token::AdminToken;
use crate::answering::Answerer;
use crate::ingest::IngestService;
use crate::rate_limit::RateLimiter;
use crate::study::StudyService;
use tally_store::db::Database;

#[derive(Clone)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub encoder: EncoderSlot,
    pub db: Database,
    pub data_dir: Option<PathBuf>,
    pub corpora: Arc<Vec<CorpusInfo>>,
    pub answerer: Answerer,
    pub limiter: RateLimiter,
    /// Feedback per address and minute: the same allowance as answers, counted apart.
    pub feedback_limiter: RateLimiter,
    pub study: Arc<StudyService>,
    /// Opens the study's results, every visitor's history and the corpus pages.
    pub admin: AdminToken,
    /// Jobs ingesting uploaded documents.
    pub ingest: Arc<IngestService>,
}

/// Why the sentence encoder could not be loaded (shared: every answer and the health check
/// tell it).
#[derive(Debug, Clone, thiserror::Error)]
pub enum EncoderUnavailable {
    /// Its model files were not found or could not be read.
    #[error("{0:#}")]
    Load(Arc<anyhow::Error>),
    /// The task loading it panicked.
    #[error("encoder loading crashed: {0}")]
    Crashed(Arc<tokio::task::JoinError>),
}

/// The sentence encoder, or why it could not be loaded.
#[derive(Clone)]
pub struct EncoderSlot {
    pub encoder: Result<Arc<Encoder>, EncoderUnavailable>,
    pub path: Option<PathBuf>,
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}
