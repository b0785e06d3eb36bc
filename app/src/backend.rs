//! The server functions the pages call, and the [`Backend`] the server binary provides to them.
//! The app itself answers nothing: the server wires the engine and the database in.

use leptos::prelude::*;

use crate::model::{Answered, Ask, Examples, FeedbackForm, FeedbackSaved, HistoryItem};
use crate::status::SystemStatus;

#[cfg(feature = "ssr")]
pub use server_side::{Backend, BackendHandle, BoxFuture, Failure};

#[cfg(feature = "ssr")]
mod server_side {
    use std::future::Future;
    use std::net::IpAddr;
    use std::pin::Pin;
    use std::sync::Arc;

    use crate::model::{Answered, Ask, Examples, FeedbackForm, FeedbackSaved, HistoryItem};
    use crate::status::SystemStatus;

    pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

    /// Why a request failed: an HTTP status for the page and a sentence for people.
    #[derive(Debug, Clone)]
    pub struct Failure {
        pub status: u16,
        pub message: String,
    }

    /// What the server does for the pages.
    pub trait Backend: Send + Sync + 'static {
        fn status(&self) -> BoxFuture<SystemStatus>;
        /// Answers and stores a question; `client` is the asker's address (for rate limits).
        fn answer(&self, ask: Ask, client: Option<IpAddr>) -> BoxFuture<Result<Answered, Failure>>;
        fn feedback(&self, form: FeedbackForm) -> BoxFuture<Result<FeedbackSaved, Failure>>;
        fn history(&self, limit: i64) -> BoxFuture<Result<Vec<HistoryItem>, Failure>>;
        fn examples(&self) -> BoxFuture<Examples>;
    }

    /// The backend as Leptos context.
    #[derive(Clone)]
    pub struct BackendHandle(pub Arc<dyn Backend>);
}

#[cfg(feature = "ssr")]
fn backend() -> Result<BackendHandle, ServerFnError> {
    use_context::<BackendHandle>()
        .ok_or_else(|| ServerFnError::new("the server provides no backend"))
}

/// Sets the page's HTTP status (server side) and turns the failure into an error for the page.
#[cfg(feature = "ssr")]
fn failed(failure: Failure) -> ServerFnError {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        if let Ok(code) = http::StatusCode::from_u16(failure.status) {
            response.set_status(code);
        }
    }
    ServerFnError::new(failure.message)
}

/// The system's current status, freshly checked.
#[server(prefix = "/_server")]
pub async fn get_status() -> Result<SystemStatus, ServerFnError> {
    Ok(backend()?.0.status().await)
}

/// Answers a question (and stores the answer).
#[server(prefix = "/_server")]
pub async fn answer_question(ask: Ask) -> Result<Answered, ServerFnError> {
    use axum::extract::ConnectInfo;
    use std::net::SocketAddr;
    let client = leptos_axum::extract::<ConnectInfo<SocketAddr>>()
        .await
        .ok()
        .map(|ConnectInfo(addr)| addr.ip());
    backend()?.0.answer(ask, client).await.map_err(failed)
}

/// Stores feedback on an answer or a part of it.
#[server(prefix = "/_server")]
pub async fn send_feedback(form: FeedbackForm) -> Result<FeedbackSaved, ServerFnError> {
    backend()?.0.feedback(form).await.map_err(failed)
}

/// The most recent questions, newest first.
#[server(prefix = "/_server")]
pub async fn recent_questions(limit: i64) -> Result<Vec<HistoryItem>, ServerFnError> {
    backend()?.0.history(limit).await.map_err(failed)
}

/// Example questions that the loaded corpus answers.
#[server(prefix = "/_server")]
pub async fn example_questions() -> Result<Examples, ServerFnError> {
    Ok(backend()?.0.examples().await)
}
