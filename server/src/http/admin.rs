//! The corpus pages' endpoints (admin token): upload documents into a corpus (multipart, as the
//! page's form or any HTTP client sends it), follow the ingestion job (JSON, or server-sent
//! events), list and delete corpora.
//!
//! - `POST /api/admin/corpora` (fields `corpus`, one or more `file`, optional `format`, `mode`
//!   (`add`, the default, or `replace`) and, for a form, `token`): 202 with the job once the
//!   documents are stored (a browser form gets 303 to the job's page);
//! - `GET /api/admin/jobs/{id}` (admin token): the job, through any server;
//!   `GET /api/admin/jobs/{id}/events` (admin token): `progress` events with the job, then
//!   `done`, `failed` or `cancelled`; `POST /api/admin/jobs/{id}/restart` (admin token): a
//!   failed job started again on this server;
//! - `GET /api/admin/corpora`: the corpora with their snippets and sentences;
//! - `DELETE /api/admin/corpora/{name}` (or `POST /admin/corpora/{name}/delete` from the page).

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, Path, State};
use axum::http::header::{ACCEPT, LOCATION};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use futures_util::stream;
use serde::Deserialize;
use tally_documents::corpus::Format;
use tally_types::choice::Choice;
use tally_types::documents::{CorpusRow, IngestJob, JobState, UploadMode};
use tally_types::request::encode;

use crate::admin_token::{AdminToken, CORPUS_PAGES};
use crate::error::ApiError;
use crate::http::login::{
    bearer, check_json_change, check_page_form, form_not_from_page, given_token,
};
use crate::ingest::Upload;
use crate::state::AppState;
use tally_app::backend::cookie_value;
use tally_app::model::ADMIN_COOKIE;

/// How often a job's event stream reads its row.
const JOB_POLL: Duration = Duration::from_millis(250);

/// `POST /api/admin/corpora`: reads the form, checks the token, starts the job.
#[utoipa::path(
    post,
    path = "/admin/corpora",
    summary = "Upload documents into a corpus",
    description = "The files are stored as the corpus's documents and indexed by a job that every server follows; a file Tally cannot read is listed with its reason in the job's outcomes, and an upload with no readable file is a 400 naming each. A browser form (Accept: text/html) is sent to the job's page (303). Admin token (`Authorization: Bearer …`, the login cookie, or the form's `token` field before the files; 403 without it).",
    request_body(content = crate::http::openapi::UploadForm, content_type = "multipart/form-data"),
    responses(
        crate::http::openapi::CorpusErrors,
        (status = 202, description = "The documents are stored; the job indexes them", body = crate::http::openapi::IngestJobBody),
        (status = 303, description = "From the corpus page's form: to the job's page"),
        crate::http::openapi::BodyErrors,
        (status = 409, description = "The corpus is being indexed by another job", body = crate::http::openapi::ErrorBody),
    )
)]
pub(crate) async fn upload(
    State(state): State<AppState>,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> Response {
    let from_page = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"));
    let mut form = UploadForm::default();
    let started = async {
        // The token is checked before any file is read: from the Authorization header or the
        // login cookie at once, or from the form's `token` field, which must come before the
        // files (the page's does).
        let at_once = given_token(&state, &headers, None)?;
        if let Some(token) = &at_once {
            state.admin.check(Some(token), CORPUS_PAGES)?;
        }
        // Admitted by the login cookie alone: the form must carry that login's form token.
        let login_cookie = match (&at_once, bearer(&headers)?) {
            (Some(_), None) => cookie_value(&headers, ADMIN_COOKIE),
            _ => None,
        };
        let multipart = multipart.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
        form = read_upload(multipart, &state.admin, at_once.is_some(), login_cookie).await?;
        let uploads = std::mem::take(&mut form.uploads);
        Ok::<_, ApiError>(
            state
                .ingest
                .start(&state.answerer, &form.corpus, form.mode, uploads)
                .await?,
        )
    }
    .await;
    match (started, from_page) {
        (Ok(job), true) => Redirect::to(&format!("/admin/jobs/{}", job.id)).into_response(),
        (Ok(job), false) => {
            let location = format!("/api/admin/jobs/{}", job.id);
            let mut response = (StatusCode::ACCEPTED, Json(job)).into_response();
            if let Ok(value) = HeaderValue::from_str(&location) {
                response.headers_mut().insert(LOCATION, value);
            }
            response
        }
        // The page shows why, above its form.
        (Err(e), true) if e.status != StatusCode::FORBIDDEN => Redirect::to(&format!(
            "/admin?{}error={}",
            token_parameter(form.token.as_deref()),
            encode(&e.message)
        ))
        .into_response(),
        (Err(e), _) => e.into_response(),
    }
}

#[derive(Default)]
struct UploadForm {
    token: Option<String>,
    corpus: String,
    mode: UploadMode,
    uploads: Vec<Upload>,
}

/// The largest value of a short form field (`token`, `corpus`, `format`, `mode`), in bytes.
pub(crate) const MAX_FIELD_BYTES: usize = 1024;
/// The longest file name an upload may carry, in bytes (most file systems allow 255).
pub(crate) const MAX_FILE_NAME_BYTES: usize = 255;
/// The upload form's fields, for the sentence that refuses another.
const UPLOAD_FIELDS: &str = "token, form_token, corpus, format, mode, file";

/// Reads the upload form; `admitted` says whether the Authorization header's token (or the
/// login cookie) was accepted already. Otherwise the first field must be the form's `token`, and
/// it must be right: not one byte of any other field is read for a request the token does not
/// open (issue 57: a 60 MB `corpus` field before the token was read whole). Short fields are
/// read up to [`MAX_FIELD_BYTES`], and no refusal repeats what was sent. A form admitted by the
/// login cookie alone (`login_cookie`) must give that login's `form_token` before its files.
async fn read_upload(
    mut multipart: Multipart,
    admin: &AdminToken,
    mut admitted: bool,
    login_cookie: Option<String>,
) -> Result<UploadForm, ApiError> {
    let bad = |message: String| ApiError::new(StatusCode::BAD_REQUEST, message);
    let mut form = UploadForm::default();
    let mut needs_form_token = login_cookie.is_some();
    let mut format = None;
    let mut files = Vec::new();
    while let Some(mut field) = multipart.next_field().await.map_err(ApiError::from)? {
        let name = field.name().unwrap_or_default().to_string();
        if !admitted && name != "token" {
            admin.check(None, CORPUS_PAGES)?;
        }
        match name.as_str() {
            "file" => {
                if needs_form_token {
                    return Err(form_not_from_page());
                }
                let file_name = field.file_name().unwrap_or("upload").to_string();
                if file_name.len() > MAX_FILE_NAME_BYTES {
                    return Err(bad(format!(
                        "a file name is over {MAX_FILE_NAME_BYTES} bytes; rename the file"
                    )));
                }
                let bytes = field.bytes().await.map_err(ApiError::from)?;
                if file_name.is_empty() && bytes.is_empty() {
                    continue; // the form's file input, left empty
                }
                // The buffer is kept as it came: the format's reader decodes it (a file is held
                // once).
                files.push((file_name, Vec::from(bytes)));
            }
            "corpus" | "format" | "mode" | "token" | "form_token" => {
                let value = short_field(&mut field, &name).await?;
                match name.as_str() {
                    "corpus" => form.corpus = value,
                    "form_token" => {
                        if let Some(cookie) = &login_cookie {
                            if !admin.form_token_fits(cookie, &value) {
                                return Err(form_not_from_page());
                            }
                        }
                        needs_form_token = false;
                    }
                    "format" if !value.is_empty() => {
                        format = Some(
                            Format::parse(&value)
                                .filter(|f| f.is_document())
                                .ok_or_else(|| {
                                    bad(format!(
                                        "unknown format (use one of: {})",
                                        Format::names(Format::DOCUMENTS)
                                    ))
                                })?,
                        )
                    }
                    "mode" if !value.is_empty() => {
                        form.mode = UploadMode::choose(&value).map_err(|_| {
                            bad(format!(
                                "unknown mode (use one of: {})",
                                UploadMode::ALL.map(UploadMode::name).join(", ")
                            ))
                        })?;
                    }
                    "token" if !value.is_empty() => {
                        admin.check(Some(&value), CORPUS_PAGES)?;
                        admitted = true;
                        // The token itself admits the form: no page gave it away.
                        needs_form_token = false;
                        form.token = Some(value);
                    }
                    _ => {}
                }
            }
            _ => {
                return Err(bad(format!(
                    "unknown form field (the fields are {UPLOAD_FIELDS})"
                )))
            }
        }
    }
    if !admitted {
        admin.check(None, CORPUS_PAGES)?;
    }
    if needs_form_token {
        return Err(form_not_from_page());
    }
    form.uploads = files
        .into_iter()
        .map(|(file_name, bytes)| {
            let format = match format {
                Some(format) => format,
                None => Format::of_file(&file_name, &bytes).map_err(|why| {
                    bad(format!("{file_name}: {why}. {}", Format::documents_read()))
                })?,
            };
            Ok(Upload {
                format,
                file_name,
                bytes,
            })
        })
        .collect::<Result<_, ApiError>>()?;
    Ok(form)
}

/// A short field's text, trimmed; a field over [`MAX_FIELD_BYTES`] is refused with 413 as soon
/// as it is, without reading the rest.
async fn short_field(
    field: &mut axum::extract::multipart::Field<'_>,
    name: &str,
) -> Result<String, ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(ApiError::from)? {
        if bytes.len() + chunk.len() > MAX_FIELD_BYTES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the `{name}` field is over {MAX_FIELD_BYTES} bytes"),
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the `{name}` field is not UTF-8 text"),
        )
    })?;
    Ok(text.trim().to_string())
}

/// `GET /api/admin/jobs/{id}`.
#[utoipa::path(
    get,
    path = "/admin/jobs/{id}",
    summary = "An ingestion job: its state, progress and each file's outcome",
    description = "Admin token (`Authorization: Bearer …` or the login cookie; 403 without it): a job names its corpus, its files and why any was refused.",
    params(("id" = String, Path, description = "The job's id")),
    responses(
        crate::http::openapi::CorpusErrors,
        (status = 200, description = "The job", body = crate::http::openapi::IngestJobBody),
    )
)]
pub(crate) async fn job(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<IngestJob>, ApiError> {
    let given = given_token(&state, &headers, None)?;
    state.admin.check(given.as_deref(), CORPUS_PAGES)?;
    Ok(Json(state.ingest.job(&id).await?))
}

/// `POST /api/admin/jobs/{id}/restart`: a failed job, started again on this server.
#[utoipa::path(
    post,
    path = "/admin/jobs/{id}/restart",
    summary = "Start a failed ingestion job again on this server",
    description = "Admin token (`Authorization: Bearer …` or the login cookie; 403 without it).",
    params(("id" = String, Path, description = "The job's id")),
    responses(
        crate::http::openapi::CorpusErrors,
        (status = 200, description = "The job, started again", body = crate::http::openapi::IngestJobBody),
        (status = 409, description = "The job has not failed", body = crate::http::openapi::ErrorBody),
    )
)]
pub(crate) async fn restart(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<IngestJob>, ApiError> {
    let given = given_token(&state, &headers, None)?;
    state.admin.check(given.as_deref(), CORPUS_PAGES)?;
    check_json_change(&state, &headers)?;
    Ok(Json(state.ingest.restart(&id).await?))
}

/// `GET /api/admin/jobs/{id}/events`: the job now and at each change of its row, until it ends.
#[utoipa::path(
    get,
    path = "/admin/jobs/{id}/events",
    summary = "An ingestion job as server-sent events",
    description = "`progress` events with the job as it runs, then one `done`, `failed` or `cancelled` event; the stream ends there. Admin token (`Authorization: Bearer …` or the login cookie; 403 without it).",
    params(("id" = String, Path, description = "The job's id")),
    responses(
        crate::http::openapi::CorpusErrors,
        (status = 200, description = "Server-sent events, each with the job as JSON", content_type = "text/event-stream", body = String),
    )
)]
pub(crate) async fn job_events(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let given = given_token(&state, &headers, None)?;
    state.admin.check(given.as_deref(), CORPUS_PAGES)?;
    let first = state.ingest.job(&id).await?;
    let events = stream::unfold(
        (state, id, Some(first), None::<IngestJob>),
        |(state, id, next, last)| async move {
            let ended = last.as_ref().is_some_and(|j| j.state != JobState::Running);
            if ended {
                return None;
            }
            let job = match next {
                Some(job) => job,
                // Read again until the row changes (or cannot be read: the stream ends).
                None => loop {
                    tokio::time::sleep(JOB_POLL).await;
                    let job = state.ingest.job(&id).await.ok()?;
                    if Some(&job) != last.as_ref() {
                        break job;
                    }
                },
            };
            let event = Event::default()
                .event(job.state.event_name())
                .json_data(&job)
                .ok()?;
            Some((Ok::<_, Infallible>(event), (state, id, None, Some(job))))
        },
    );
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// `GET /api/admin/corpora`.
#[utoipa::path(
    get,
    path = "/admin/corpora",
    summary = "The corpora, with their snippets and sentences",
    description = "Admin token (`Authorization: Bearer …` or the login cookie; 403 without it).",
    responses(
        crate::http::openapi::CorpusErrors,
        (status = 200, description = "The corpora", body = Vec<crate::http::openapi::CorpusRowBody>),
    )
)]
pub(crate) async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Vec<CorpusRow>>, ApiError> {
    let given = given_token(&state, &headers, None)?;
    state.admin.check(given.as_deref(), CORPUS_PAGES)?;
    Ok(Json(state.ingest.corpora(&state.answerer).await?))
}

/// `DELETE /api/admin/corpora/{name}`: what the corpus held.
#[utoipa::path(
    delete,
    path = "/admin/corpora/{name}",
    summary = "Delete a corpus",
    description = "Its documents, snippets, sentences and tables, on every server. Admin token (`Authorization: Bearer …` or the login cookie; 403 without it).",
    params(("name" = String, Path, pattern = r"^[a-z0-9_-]{1,40}$", description = "The corpus's name")),
    responses(
        crate::http::openapi::CorpusErrors,
        (status = 200, description = "What was deleted", body = crate::http::openapi::CorpusRowBody),
        (status = 409, description = "The corpus is being indexed", body = crate::http::openapi::ErrorBody),
    )
)]
pub(crate) async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<Json<CorpusRow>, ApiError> {
    let given = given_token(&state, &headers, None)?;
    state.admin.check(given.as_deref(), CORPUS_PAGES)?;
    check_json_change(&state, &headers)?;
    Ok(Json(state.ingest.delete(&state.answerer, &name).await?))
}

#[derive(Deserialize)]
pub(crate) struct TokenForm {
    /// Empty when the page was opened with the login cookie.
    #[serde(default)]
    token: String,
    /// The page's form token (see [`check_page_form`]).
    #[serde(default)]
    form_token: String,
}

impl TokenForm {
    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    pub(crate) fn form_token(&self) -> &str {
        &self.form_token
    }
}

/// `POST /admin/corpora/{name}/delete`: the page's delete button; back to the page.
pub(crate) async fn delete_from_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Form(form): Form<TokenForm>,
) -> Result<Redirect, ApiError> {
    check_page_form(
        &state,
        &headers,
        &form.token,
        &form.form_token,
        CORPUS_PAGES,
    )?;
    let note = match state.ingest.delete(&state.answerer, &name).await {
        Ok(deleted) => format!("deleted={}", encode(&deleted.name)),
        Err(e) => format!("error={}", encode(&ApiError::from(e).message)),
    };
    Ok(Redirect::to(&format!(
        "/admin?{}{note}",
        token_parameter(Some(&form.token))
    )))
}

/// `token=…&` for a page that was opened with the token in its URL (the login cookie needs
/// none), else nothing.
pub(crate) fn token_parameter(token: Option<&str>) -> String {
    match token.filter(|t| !t.is_empty()) {
        Some(token) => format!("token={}&", encode(token)),
        None => String::new(),
    }
}
