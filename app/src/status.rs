//! What the running system has really loaded: shared by the status panel, the `get_status` server
//! function and the server's `/api/health` endpoint.

use serde::{Deserialize, Serialize};
use tally_types::WebSearchState;

/// How the system stands, in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Health {
    /// Every part works.
    Ok,
    /// The app answers, but a part (the database) is missing.
    Degraded,
    /// The encoder or the answering engines could not be loaded.
    Failed,
}

impl Health {
    pub const fn name(self) -> &'static str {
        match self {
            Health::Ok => "ok",
            Health::Degraded => "degraded",
            Health::Failed => "failed",
        }
    }
}

/// A snapshot of the system's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemStatus {
    pub status: Health,
    pub version: String,
    pub checked_at: String,
    pub encoder: EncoderStatus,
    pub database: DatabaseStatus,
    pub answering: AnsweringStatus,
    pub data_dir: Option<String>,
    pub corpora: Vec<CorpusStatus>,
    /// The web search for count snippets, when one is configured.
    #[serde(default)]
    pub web_search: Option<WebSearchStatus>,
}

/// A web search source and how its last search went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WebSearchStatus {
    /// `searxng` or `brave`.
    pub provider: String,
    /// Where it is asked (never with a key).
    pub endpoint: String,
    pub state: WebSearchState,
    /// The last failure, while failing.
    pub last_error: Option<String>,
    /// When the last search ended (RFC 3339).
    pub last_at: Option<String>,
    pub searches: u64,
    pub failures: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EncoderStatus {
    pub loaded: bool,
    pub model: Option<String>,
    pub dimension: Option<usize>,
    pub device: Option<String>,
    pub path: Option<String>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatabaseStatus {
    pub connected: bool,
    /// Why feedback cannot be saved, when it cannot.
    pub error: Option<String>,
}

/// Whether the corpora and models for answering are loaded (they load after the server starts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnsweringStatus {
    pub ready: bool,
    /// Why answering is impossible, once loading failed.
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusStatus {
    pub name: String,
    pub description: String,
    pub bytes: u64,
}
