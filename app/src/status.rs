//! What the running system has really loaded: shared by the status panel, the `get_status` server
//! function and the server's `/api/health` endpoint.

use serde::{Deserialize, Serialize};
use tally_types::WebSearchState;

/// How the system stands, in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
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
    /// The health's one-word name, as the API writes it.
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
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SystemStatus {
    /// How the system stands overall.
    pub status: Health,
    /// The app's version.
    pub version: String,
    /// When the snapshot was taken (RFC 3339).
    pub checked_at: String,
    /// The question encoder.
    pub encoder: EncoderStatus,
    /// The feedback database.
    pub database: DatabaseStatus,
    /// The answering engines and corpora.
    pub answering: AnsweringStatus,
    /// The data folder, when one is set.
    pub data_dir: Option<String>,
    /// The loaded corpora.
    pub corpora: Vec<CorpusStatus>,
    /// The web search for count snippets, when one is configured.
    #[serde(default)]
    pub web_search: Option<WebSearchStatus>,
}

/// A web search source and how its last search went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct WebSearchStatus {
    /// `searxng` or `brave`.
    pub provider: String,
    /// Where it is asked (never with a key).
    pub endpoint: String,
    /// How its searches are going.
    pub state: WebSearchState,
    /// The last failure, while failing.
    pub last_error: Option<String>,
    /// When the last search ended (RFC 3339).
    pub last_at: Option<String>,
    /// Searches made so far.
    pub searches: u64,
    /// Searches that failed so far.
    pub failures: u64,
}

/// The question encoder and whether it loaded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct EncoderStatus {
    /// Whether the encoder is loaded.
    pub loaded: bool,
    /// The model's name.
    pub model: Option<String>,
    /// The length of its vectors.
    pub dimension: Option<usize>,
    /// The device it runs on.
    pub device: Option<String>,
    /// Where it was loaded from.
    pub path: Option<String>,
    /// Why it failed to load, when it did.
    pub error: Option<String>,
}

/// The feedback database and whether it is reachable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct DatabaseStatus {
    /// Whether the database is connected.
    pub connected: bool,
    /// Why feedback cannot be saved, when it cannot.
    pub error: Option<String>,
}

/// Whether the corpora and models for answering are loaded (they load after the server starts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct AnsweringStatus {
    /// Whether answering is ready.
    pub ready: bool,
    /// Why answering is impossible, once loading failed.
    pub error: Option<String>,
}

/// A loaded corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct CorpusStatus {
    /// The corpus's name.
    pub name: String,
    /// What the corpus holds.
    pub description: String,
    /// Its size in bytes.
    pub bytes: u64,
}
