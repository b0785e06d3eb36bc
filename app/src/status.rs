//! What the running system has really loaded: shared by the status panel, the `get_status` server
//! function and the server's `/api/health` endpoint.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// A snapshot of the system's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemStatus {
    /// `ok` when every part works, `degraded` when the app answers but something (the database)
    /// is missing, `failed` when the encoder could not be loaded.
    pub status: String,
    pub version: String,
    pub checked_at: String,
    pub encoder: EncoderStatus,
    pub database: DatabaseStatus,
    pub data_dir: Option<String>,
    pub corpora: Vec<CorpusStatus>,
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusStatus {
    pub name: String,
    pub description: String,
    pub bytes: u64,
}

/// Server side: where the status comes from. The server binary provides one as context.
#[cfg(feature = "ssr")]
pub mod source {
    use super::SystemStatus;
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::Arc;

    type StatusFuture = Pin<Box<dyn Future<Output = SystemStatus> + Send>>;

    /// A cloneable handle that computes a fresh [`SystemStatus`].
    #[derive(Clone)]
    pub struct StatusSource(Arc<dyn Fn() -> StatusFuture + Send + Sync>);

    impl StatusSource {
        pub fn new<F, Fut>(f: F) -> Self
        where
            F: Fn() -> Fut + Send + Sync + 'static,
            Fut: Future<Output = SystemStatus> + Send + 'static,
        {
            Self(Arc::new(move || Box::pin(f())))
        }

        pub async fn status(&self) -> SystemStatus {
            (self.0)().await
        }
    }
}

/// The system's current status, freshly checked.
#[server(prefix = "/_server")]
pub async fn get_status() -> Result<SystemStatus, ServerFnError> {
    let source = use_context::<source::StatusSource>()
        .ok_or_else(|| ServerFnError::new("the server provides no status source"))?;
    Ok(source.status().await)
}
