//! The server functions the pages call, and the [`Backend`] the server binary provides to them.
//! The app itself answers nothing: the server wires the engine and the database in.

use leptos::prelude::*;

use crate::model::{
    Answered, ApiOperation, Ask, AskOptions, FeedbackForm, FeedbackSaved, HistoryItem,
};
use crate::status::SystemStatus;
use tally_types::documents::{CorpusRow, IngestJob};
use tally_types::study::{StudyIntro, StudyPage, StudyResponseForm, StudySummary};

#[cfg(feature = "ssr")]
pub use server_side::{Asker, Backend, BackendHandle, BoxFuture, Failure};

#[cfg(feature = "ssr")]
mod server_side {
    use std::future::Future;
    use std::net::IpAddr;
    use std::pin::Pin;
    use std::sync::Arc;

    use crate::model::{
        Answered, ApiOperation, Ask, AskOptions, FeedbackForm, FeedbackSaved, HistoryItem,
    };
    use crate::status::SystemStatus;
    use tally_types::documents::{CorpusRow, IngestJob};
    use tally_types::study::{StudyIntro, StudyPage, StudyResponseForm, StudySummary};

    /// A boxed future the backend's methods return (object-safe across the server's types).
    pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

    /// Why a request failed: an HTTP status for the page and a sentence for people.
    #[derive(Debug, Clone)]
    pub struct Failure {
        /// The HTTP status the page gets.
        pub status: u16,
        /// The sentence shown to people.
        pub message: String,
    }

    /// Who asks: the address (for the rate limit) and the anonymous visitor id of the
    /// [`VISITOR_COOKIE`](crate::model::VISITOR_COOKIE) (for their own history).
    #[derive(Debug, Clone, Default, PartialEq, Eq)]
    pub struct Asker {
        /// The client's address, when known.
        pub address: Option<IpAddr>,
        /// The anonymous visitor id from the visitor cookie, when set.
        pub visitor: Option<String>,
    }

    /// What the server does for the pages.
    pub trait Backend: Send + Sync + 'static {
        /// How the encoder, the database and the corpora stand (the status panel).
        fn status(&self) -> BoxFuture<SystemStatus>;
        /// Answers and stores a question.
        fn answer(&self, ask: Ask, asker: Asker) -> BoxFuture<Result<Answered, Failure>>;
        /// Stores feedback from the form, as the asker's (their visitor cookie).
        fn feedback(
            &self,
            form: FeedbackForm,
            asker: Asker,
        ) -> BoxFuture<Result<FeedbackSaved, Failure>>;
        /// The visitor's recent questions; everyone's with the admin token.
        fn history(
            &self,
            limit: i64,
            visitor: Option<String>,
            token: Option<String>,
        ) -> BoxFuture<Result<Vec<HistoryItem>, Failure>>;
        /// What the question box offers: example questions, the corpora, the web search.
        fn ask_options(&self) -> BoxFuture<AskOptions>;
        /// The study participants are invited to.
        fn study_intro(&self) -> BoxFuture<Result<StudyIntro, Failure>>;
        /// Starts an anonymous session of the study for the participant asking; returns its id.
        fn start_study(&self, asker: Asker) -> BoxFuture<Result<String, Failure>>;
        /// A session's progress and next task.
        fn study_page(&self, session: String) -> BoxFuture<Result<StudyPage, Failure>>;
        /// Stores a response (a second one for the same task is ignored).
        fn answer_study(&self, form: StudyResponseForm) -> BoxFuture<Result<(), Failure>>;
        /// The study's result tables; `token` must be the admin token.
        fn study_summary(&self, token: String) -> BoxFuture<Result<StudySummary, Failure>>;
        /// The corpora of the indexes; `token` must be the admin token.
        fn corpora(&self, token: String) -> BoxFuture<Result<Vec<CorpusRow>, Failure>>;
        /// The documents `corpus` holds, by source; `token` must be the admin token.
        fn corpus_documents(
            &self,
            token: String,
            corpus: String,
        ) -> BoxFuture<Result<Vec<tally_types::documents::DocumentEntry>, Failure>>;
        /// An ingestion job; `token` must be the admin token (issue 97: a job names the corpus,
        /// the files and why they were refused).
        fn ingest_job(&self, token: String, id: String) -> BoxFuture<Result<IngestJob, Failure>>;
        /// Page `page` (from 0) of the review queue, and the verified answers; `token` must be
        /// the admin token.
        fn review(
            &self,
            token: String,
            page: u32,
        ) -> BoxFuture<Result<tally_types::Review, Failure>>;
        /// The form token of the request's login cookie: what the admin pages' forms carry
        /// (`None` without a valid login).
        fn form_token(&self) -> Option<String>;
        /// The JSON API's operations, from its generated description.
        fn api_operations(&self) -> Vec<ApiOperation>;
    }

    /// The backend as Leptos context.
    #[derive(Clone)]
    pub struct BackendHandle(pub Arc<dyn Backend>);
}

/// Whether the request being rendered carries a login that holds: read on the server as the page
/// renders, without a request or a wait (the browser learns it through [`SharedValue`]; it
/// cannot read the HttpOnly cookie itself).
pub fn logged_in_now() -> bool {
    #[cfg(feature = "ssr")]
    {
        backend().ok().and_then(|b| b.0.form_token()).is_some()
    }
    #[cfg(not(feature = "ssr"))]
    {
        false
    }
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
#[server(prefix = "/_server", endpoint = "get_status")]
pub async fn get_status() -> Result<SystemStatus, ServerFnError> {
    Ok(backend()?.0.status().await)
}

/// Answers a question (and stores the answer). Its argument goes as JSON: a form's encoding
/// sends the settings' numbers as strings, which the server cannot read back (issue 101: the
/// page's fallback for a refused answer stream said "expected f32").
#[server(prefix = "/_server", endpoint = "answer_question", input = leptos::server_fn::codec::Json)]
pub async fn answer_question(
    /// The question and its settings.
    ask: Ask,
) -> Result<Answered, ServerFnError> {
    let asker = current_asker().await;
    backend()?.0.answer(ask, asker).await.map_err(failed)
}

/// Who sends the request being served: its address and visitor cookie.
#[cfg(feature = "ssr")]
async fn current_asker() -> Asker {
    use axum::extract::ConnectInfo;
    use std::net::SocketAddr;
    let address = leptos_axum::extract::<ConnectInfo<SocketAddr>>()
        .await
        .ok()
        .map(|ConnectInfo(addr)| addr.ip());
    Asker {
        address,
        visitor: request_cookie(crate::model::VISITOR_COOKIE),
    }
}

/// A cookie of the request being rendered (server side).
#[cfg(feature = "ssr")]
pub fn request_cookie(name: &str) -> Option<String> {
    cookie_value(&use_context::<http::request::Parts>()?.headers, name)
}

/// The value of cookie `name` among a request's headers.
#[cfg(feature = "ssr")]
pub fn cookie_value(headers: &http::HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_string())
}

/// Stores feedback on an answer or a part of it.
#[server(prefix = "/_server", endpoint = "send_feedback")]
pub async fn send_feedback(
    /// The feedback as sent.
    form: FeedbackForm,
) -> Result<FeedbackSaved, ServerFnError> {
    let asker = current_asker().await;
    backend()?.0.feedback(form, asker).await.map_err(failed)
}

/// The visitor's most recent questions, newest first (everyone's with the admin token).
#[server(prefix = "/_server", endpoint = "recent_questions")]
pub async fn recent_questions(
    /// The most questions to return.
    limit: i64,
    /// The admin token, for everyone's questions.
    token: Option<String>,
) -> Result<Vec<HistoryItem>, ServerFnError> {
    let visitor = request_cookie(crate::model::VISITOR_COOKIE);
    backend()?
        .0
        .history(limit, visitor, token)
        .await
        .map_err(failed)
}

/// What the question box offers: example questions the loaded corpora answer, the corpora, the
/// web search.
#[server(prefix = "/_server", endpoint = "question_box_options")]
pub async fn question_box_options() -> Result<AskOptions, ServerFnError> {
    Ok(backend()?.0.ask_options().await)
}

/// The JSON API's operations, for the API page.
#[server(prefix = "/_server", endpoint = "api_operations")]
pub async fn api_operations() -> Result<Vec<ApiOperation>, ServerFnError> {
    Ok(backend()?.0.api_operations())
}

/// The study participants are invited to.
#[server(prefix = "/_server", endpoint = "get_study_intro")]
pub async fn get_study_intro() -> Result<StudyIntro, ServerFnError> {
    backend()?.0.study_intro().await.map_err(failed)
}

/// Starts an anonymous study session and goes to its first task.
#[server(prefix = "/_server", endpoint = "start_study")]
pub async fn start_study() -> Result<String, ServerFnError> {
    let session = backend()?
        .0
        .start_study(current_asker().await)
        .await
        .map_err(failed)?;
    leptos_axum::redirect(&format!("/study/s/{session}"));
    Ok(session)
}

/// A study session's progress and next task.
#[server(prefix = "/_server", endpoint = "get_study_page")]
pub async fn get_study_page(
    /// The study session's id.
    session: String,
) -> Result<StudyPage, ServerFnError> {
    backend()?.0.study_page(session).await.map_err(failed)
}

/// Stores a participant's response to one task.
#[server(prefix = "/_server", endpoint = "answer_study_task")]
pub async fn answer_study_task(
    /// The participant's response.
    form: StudyResponseForm,
) -> Result<(), ServerFnError> {
    let session = form.session.clone();
    backend()?.0.answer_study(form).await.map_err(failed)?;
    // Without JavaScript the browser follows this to the next task.
    leptos_axum::redirect(&format!("/study/s/{session}"));
    Ok(())
}

/// A study's result tables, for the researcher holding the admin token (or logged in with it);
/// `None` when the request gives no token at all: the page then only offers the login.
#[server(prefix = "/_server", endpoint = "get_study_summary")]
pub async fn get_study_summary(
    /// The admin token.
    token: String,
) -> Result<Option<StudySummary>, ServerFnError> {
    if !gives_admin_credential(&token) {
        return Ok(None);
    }
    backend()?
        .0
        .study_summary(token)
        .await
        .map(Some)
        .map_err(failed)
}

/// The corpora of the indexes, for the admin holding the token (or logged in with it); `None`
/// when the request gives no token at all: the page then only offers the login.
#[server(prefix = "/_server", endpoint = "admin_corpora")]
pub async fn admin_corpora(
    /// The admin token.
    token: String,
) -> Result<Option<Vec<CorpusRow>>, ServerFnError> {
    if !gives_admin_credential(&token) {
        return Ok(None);
    }
    backend()?.0.corpora(token).await.map(Some).map_err(failed)
}

/// The documents a corpus holds, for the admin holding the token (or logged in with it); `None`
/// when the request gives no token at all.
#[server(prefix = "/_server", endpoint = "admin_corpus_documents")]
pub async fn admin_corpus_documents(
    /// The admin token.
    token: String,
    /// The corpus.
    corpus: String,
) -> Result<Option<Vec<tally_types::documents::DocumentEntry>>, ServerFnError> {
    if !gives_admin_credential(&token) {
        return Ok(None);
    }
    backend()?
        .0
        .corpus_documents(token, corpus)
        .await
        .map(Some)
        .map_err(failed)
}

/// Page `page` (from 0) of the review queue and the verified answers, for the admin holding the
/// token (or logged in with it); `None` when the request gives no token at all.
#[server(prefix = "/_server", endpoint = "admin_review")]
pub async fn admin_review(
    /// The admin token.
    token: String,
    /// The page of the review to show.
    page: u32,
) -> Result<Option<tally_types::Review>, ServerFnError> {
    if !gives_admin_credential(&token) {
        return Ok(None);
    }
    backend()?
        .0
        .review(token, page)
        .await
        .map(Some)
        .map_err(failed)
}

/// The form token the admin pages' forms carry for the request's login cookie (issue 70: a form
/// the cookie alone admits must carry it, which a page of another origin cannot read); `None`
/// without a login.
#[server(prefix = "/_server", endpoint = "admin_form_token")]
pub async fn admin_form_token() -> Result<Option<String>, ServerFnError> {
    Ok(backend()?.0.form_token())
}

/// Whether the request gives an admin token: in the page's URL, or as the login cookie (checked
/// by the backend either way).
#[cfg(feature = "ssr")]
fn gives_admin_credential(token: &str) -> bool {
    !token.trim().is_empty() || request_cookie(crate::model::ADMIN_COOKIE).is_some()
}

/// An ingestion job as it stands, for the admin holding the token (or logged in with it);
/// `None` when the request gives no token at all: the page then only offers the login.
#[server(prefix = "/_server", endpoint = "get_ingest_job")]
pub async fn get_ingest_job(
    /// The admin token.
    token: String,
    /// The job's id.
    id: String,
) -> Result<Option<IngestJob>, ServerFnError> {
    if !gives_admin_credential(&token) {
        return Ok(None);
    }
    backend()?
        .0
        .ingest_job(token, id)
        .await
        .map(Some)
        .map_err(failed)
}
