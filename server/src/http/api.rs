//! The JSON API's handlers (their error type is [`crate::error::ApiError`]).

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use std::collections::HashMap;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use tally_app::backend::{cookie_value, Asker};
use tally_app::model::VISITOR_COOKIE;
use tally_types::request::{
    is_count_parameter, Ask, QUESTION_PARAMETERS, SEARCH_PARAMETERS, VALUE_PARAMETERS,
};

use tally_types::count::SnippetSource;
use tally_types::Mode;

use crate::admin_token::Forbidden;
use crate::answering::unobserved;
use crate::backend::{answer_and_store, answer_value, store_feedback};
use crate::error::ApiError;
use crate::http::login::bearer;
use crate::state::AppState;
use tally_store::answers;
use tally_store::feedback::{self, Feedback, NewFeedback};
use tally_types::StoredAnswer;

/// `POST /api/feedback`: 201 with the stored row, or 200 with the earlier row when the same
/// `client_token` was sent before.
#[utoipa::path(
    post,
    path = "/feedback",
    summary = "Store feedback on an answer or one of its parts",
    request_body = crate::http::openapi::NewFeedbackBody,
    responses(
        (status = 201, description = "Stored", body = crate::http::openapi::FeedbackBody),
        (status = 200, description = "The same client_token was stored before by the same visitor (or with the same content); the earlier row", body = crate::http::openapi::FeedbackBody),
        (status = 409, description = "The client_token was used for another visitor's submission; nothing of it is shown", body = crate::http::openapi::ErrorBody),
        (status = 404, response = crate::http::openapi::NotFound),
        crate::http::openapi::BodyErrors,
        crate::http::openapi::AnsweringErrors,
    )
)]
pub(crate) async fn post_feedback(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<NewFeedback>, JsonRejection>,
) -> Result<(StatusCode, Json<Feedback>), ApiError> {
    let Json(new) = body?;
    let (row, created) = store_feedback(&state, new, &asker(client, &headers)).await?;
    let code = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((code, Json(row)))
}

/// What the feedback rows (with their comments) are called in refusals.
const FEEDBACK_ROWS: &str = "feedback rows";

/// Opens the feedback rows to the admin token in the Authorization header. Missing, malformed
/// or wrong credentials are a 401 that says which would do (RFC 6750); a server without an
/// admin token keeps the rows closed to everyone (403).
pub(crate) fn admit_to_feedback_rows(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(), ApiError> {
    let given = crate::http::login::given_token(state, headers, None)
        .ok()
        .flatten();
    let given = given.as_deref();
    match state.admin.check(given, FEEDBACK_ROWS) {
        Ok(()) => Ok(()),
        Err(throttled @ (Forbidden::Throttled(_) | Forbidden::ThrottledEveryone(_))) => {
            Err(throttled.into())
        }
        Err(refused) if state.admin.is_set() => {
            let why = match given {
                Some(_) => refused.to_string(),
                None => format!("{FEEDBACK_ROWS} need the admin token (Authorization: Bearer …)"),
            };
            Err(ApiError::new(StatusCode::UNAUTHORIZED, why))
        }
        Err(closed) => Err(closed.into()),
    }
}

/// `GET /api/feedback/{id}` (admin token): one row, its comment included.
#[utoipa::path(
    get,
    path = "/feedback/{id}",
    summary = "One feedback row",
    description = "One row with its comment: the admin's (the admin token as `Authorization: Bearer …`).",
    params(("id" = i64, Path, minimum = 1, maximum = 9223372036854775807_i64, description = "A feedback row's id")),
    security(("adminToken" = [])),
    responses(
        (status = 200, description = "The row", body = crate::http::openapi::FeedbackBody),
        (status = 404, response = crate::http::openapi::NotFound),
        crate::http::openapi::AdminErrors,
    )
)]
pub(crate) async fn get_feedback(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: Result<Path<i64>, PathRejection>,
) -> Result<Json<Feedback>, ApiError> {
    let Path(id) = id.map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "the feedback id is a whole number (as returned when it was stored)",
        )
    })?;
    admit_to_feedback_rows(&state, &headers)?;
    feedback::get(&state.db, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no feedback with id {id}")))
}

/// A list of recent rows (`/api/feedback`, `/api/questions`): its query, as read and as the
/// API's description lists it.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListParams {
    /// Rows returned.
    #[param(minimum = 1, maximum = 500, default = 50)]
    pub limit: Option<i64>,
}

impl ListParams {
    /// The number of rows asked for: 1 to 500, 50 when not given.
    fn limit(&self) -> Result<i64, ApiError> {
        self.limit_or(50)
    }

    /// The number of rows asked for: 1 to 500, `default` when not given.
    pub(crate) fn limit_or(&self, default: i64) -> Result<i64, ApiError> {
        let limit = self.limit.unwrap_or(default);
        if !(1..=500).contains(&limit) {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "limit must be between 1 and 500",
            ));
        }
        Ok(limit)
    }
}

/// `GET /api/feedback?limit=N` (admin token): the newest feedback first (N from 1 to 500,
/// default 50), comments included.
#[utoipa::path(
    get,
    path = "/feedback",
    summary = "Recent feedback, newest first",
    description = "The feedback rows with their comments, newest first: the admin's (the admin token as `Authorization: Bearer …`). Anyone may read the counts at `/api/feedback/summary`.",
    params(ListParams),
    security(("adminToken" = [])),
    responses(
        (status = 200, description = "Feedback rows", body = Vec<crate::http::openapi::FeedbackBody>),
        crate::http::openapi::AdminErrors,
    )
)]
pub(crate) async fn list_feedback(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Result<Query<ListParams>, QueryRejection>,
) -> Result<Json<Vec<Feedback>>, ApiError> {
    admit_to_feedback_rows(&state, &headers)?;
    let Query(params) = params?;
    let limit = params.limit()?;
    Ok(Json(feedback::recent(&state.db, limit).await?))
}

/// `GET /api/feedback/summary`: the feedback counted by part and verdict.
#[utoipa::path(
    get,
    path = "/feedback/summary",
    summary = "How much feedback there is, by part and verdict",
    description = "What anyone may see of the feedback: counts only, no comments.",
    responses(
        (status = 200, description = "Counts", body = crate::http::openapi::FeedbackSummaryBody),
        (status = 503, response = crate::http::openapi::Unavailable),
        (status = 500, response = crate::http::openapi::ServerError),
    )
)]
pub(crate) async fn feedback_summary(
    State(state): State<AppState>,
) -> Result<Json<feedback::FeedbackSummary>, ApiError> {
    Ok(Json(feedback::summary(&state.db).await?))
}

/// Any other `/api/...` path.
pub(crate) async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such API endpoint")
}

/// A request's query parameters, each given at most once: a repeated one is a 400 (which of
/// its values was meant?).
pub(crate) struct QueryParams(pub HashMap<String, String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for QueryParams {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        let Query(pairs) = Query::<Vec<(String, String)>>::from_request_parts(parts, state).await?;
        let mut params = HashMap::with_capacity(pairs.len());
        for (name, value) in pairs {
            if params.contains_key(&name) {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("the parameter `{name}` is given more than once"),
                ));
            }
            params.insert(name, value);
        }
        Ok(QueryParams(params))
    }
}

/// A 400 naming the first of `params` that `takes` does not accept.
pub(crate) fn only_known(
    params: &HashMap<String, String>,
    takes: impl Fn(&str) -> bool,
) -> Result<(), ApiError> {
    match params.keys().find(|name| !takes(name)) {
        Some(name) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("unknown parameter `{name}`"),
        )),
        None => Ok(()),
    }
}

/// Which settings an endpoint takes besides the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Takes {
    /// The question and the count pipeline's settings (`/api/count`).
    Count,
    /// The question, `mode` and the search's settings (`/api/search`).
    Search,
    /// A question of any kind (`/api/answer/stream`): `mode` and every kind's settings, the
    /// value answer's unit included.
    AnyKind,
}

impl Takes {
    fn accepts(self, name: &str) -> bool {
        let count = is_count_parameter(name);
        let search = SEARCH_PARAMETERS.contains(&name) || name == "mode";
        match self {
            Takes::Count => name == "q" || count,
            Takes::Search => name == "q" || search,
            Takes::AnyKind => {
                QUESTION_PARAMETERS.contains(&name)
                    || count
                    || search
                    || VALUE_PARAMETERS.contains(&name)
            }
        }
    }
}

/// `q`, `mode` and the settings from the query string; unknown or empty parameters and bad
/// numbers are a 400.
pub(crate) fn ask_from(params: &HashMap<String, String>, takes: Takes) -> Result<Ask, ApiError> {
    only_known(params, |name| takes.accepts(name))?;
    // The page's forms may leave a field empty (meaning "the default"); an API client says
    // what it means.
    if let Some((name, _)) = params
        .iter()
        .find(|(name, value)| *name != "q" && value.trim().is_empty())
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the parameter `{name}` is empty; leave it out for the default"),
        ));
    }
    let (ask, problems) = Ask::from_params(|name| params.get(name).cloned());
    if !problems.is_empty() {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, problems.join("; ")));
    }
    if ask.q.trim().is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "give the question as the `q` parameter",
        ));
    }
    Ok(ask)
}

/// Who sends a request: its address and the visitor cookie, if any.
pub(crate) fn asker(client: SocketAddr, headers: &HeaderMap) -> Asker {
    Asker {
        address: Some(client.ip()),
        visitor: cookie_value(headers, VISITOR_COOKIE),
    }
}

/// `GET /api/count?q=…`: the count pipeline's answer, stored; the ids say where.
#[utoipa::path(
    get,
    path = "/count",
    summary = "Answer a count question (CoQEx): count, CNP_rep, CNP groups, instances, snippets with spans, timings",
    params(crate::http::openapi::QuestionQuery, crate::http::openapi::SnippetQuery),
    responses(
        (status = 200, description = "The answer and where it is stored", body = crate::http::openapi::StoredAnswerBody),
        crate::http::openapi::AnsweringErrors,
    )
)]
pub(crate) async fn get_count(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    QueryParams(params): QueryParams,
) -> Result<Json<StoredAnswer>, ApiError> {
    let ask = ask_from(&params, Takes::Count)?;
    let checked = state.answerer.check(&ask.with_mode(Mode::Count))?;
    let asker = asker(client, &headers);
    let stored = answer_and_store(&state, &checked, &asker, unobserved()).await?;
    Ok(Json(stored))
}

/// `GET /api/search?q=…`: quantity search (`mode=search` for text only), stored.
#[utoipa::path(
    get,
    path = "/search",
    summary = "Quantity-condition search: ranked sentences (or entities) meeting the query's conditions",
    params(crate::http::openapi::QuestionQuery, crate::http::openapi::SearchModeQuery, crate::http::openapi::SearchSettingsQuery),
    responses(
        (status = 200, description = "The results and where they are stored", body = crate::http::openapi::StoredAnswerBody),
        crate::http::openapi::AnsweringErrors,
    )
)]
pub(crate) async fn get_search(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    QueryParams(params): QueryParams,
) -> Result<Json<StoredAnswer>, ApiError> {
    let ask = ask_from(&params, Takes::Search)?;
    let mode = match ask.mode {
        Mode::Search => Mode::Search,
        Mode::Auto | Mode::Quantity => Mode::Quantity,
        other => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "mode `{}` does not apply to /api/search (quantity or search)",
                    other.name()
                ),
            ))
        }
    };
    let checked = state.answerer.check(&ask.with_mode(mode))?;
    let asker = asker(client, &headers);
    let stored = answer_and_store(&state, &checked, &asker, unobserved()).await?;
    Ok(Json(stored))
}

/// `GET /api/value?q=…[&corpus=…]`: a value question ("how tall is …") answered as the page's
/// value mode answers it (a table's cell, then the sentence index's quantities, then the answer
/// gate), in the corpus chosen; not stored.
#[utoipa::path(
    get,
    path = "/value",
    summary = "Value question: one consolidated value with its unit, observations and notes (not stored)",
    description = "Answers \"how tall is …\", \"capacity of …\", \"… revenue in 2019\" from the quantities of the sentence index (a table's cell first): every quantity's description (entity, concept words, year, unit) is ranked against the question, the best are converted to one unit and consolidated by the weighted median. `value` is null when nothing answers it, with a `note` saying why.",
    params(crate::http::openapi::QuestionQuery, crate::http::openapi::CorpusQuery),
    responses(
        (status = 200, description = "The value answer", body = crate::http::openapi::ValueAnswerBody),
        crate::http::openapi::AnsweringErrors,
    )
)]
pub(crate) async fn get_value(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    QueryParams(params): QueryParams,
) -> Result<Json<tally_types::ValueAnswer>, ApiError> {
    only_known(&params, |name| ["q", "corpus"].contains(&name))?;
    let question = params.get("q").map(String::as_str).unwrap_or_default();
    // As the count setting reads it: empty or `all` is every corpus.
    let corpus = params
        .get("corpus")
        .map(|c| c.trim())
        .filter(|c| !c.is_empty() && *c != tally_types::request::ALL_CORPORA)
        .map(str::to_string);
    let asker = asker(client, &headers);
    Ok(Json(answer_value(&state, question, corpus, &asker).await?))
}

/// `GET /api/questions?limit=N`: the questions asked with the request's visitor cookie (all
/// questions with the admin token as `Authorization: Bearer …`), most recent first, with their
/// answers' summaries. Without either, the list is empty.
#[utoipa::path(
    get,
    path = "/questions",
    summary = "Recent questions with their answers' one-line summaries",
    description = "The questions asked with this request's visitor cookie (`tally_visitor`, set by the pages), most recently asked first; with the admin token as `Authorization: Bearer …`, every visitor's. Without either, the list is empty.",
    params(ListParams),
    security((), ("adminToken" = [])),
    responses(
        (status = 200, description = "Questions, newest first", body = Vec<crate::http::openapi::RecentQuestionBody>),
        crate::http::openapi::AdminErrors,
    )
)]
pub(crate) async fn list_questions(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Result<Query<ListParams>, QueryRejection>,
) -> Result<Json<Vec<answers::RecentQuestion>>, ApiError> {
    let Query(params) = params?;
    let limit = params.limit()?;
    let visitor = cookie_value(&headers, VISITOR_COOKIE);
    let Some(of) = crate::backend::history_of(&state, visitor.as_deref(), bearer(&headers)?)?
    else {
        return Ok(Json(Vec::new()));
    };
    Ok(Json(answers::recent_questions(&state.db, of, limit).await?))
}

/// `GET /api/openapi.json`: this API, described as OpenAPI 3.1, with the corpora this server
/// has loaded as the choices of `corpus`, and the web snippet parameters only where a web
/// search is configured.
#[utoipa::path(
    get,
    path = "/openapi.json",
    summary = "This document",
    responses((status = 200, description = "OpenAPI 3.1", content_type = "application/json", body = Object))
)]
pub(crate) async fn description(State(state): State<AppState>) -> Response {
    let mut spec = match super::openapi::document() {
        Ok(spec) => spec.clone(),
        Err(e) => {
            let sentence = tally_types::error::Causes(e).to_string();
            return ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, sentence).into_response();
        }
    };
    let mut corpora = vec![tally_types::request::ALL_CORPORA.to_string()];
    corpora.extend(state.answerer.corpora());
    let has_web = state.answerer.web().is_some();
    for path in ["/api/count", "/api/answer/stream"] {
        if let Some(parameters) = spec["paths"][path]["get"]["parameters"].as_array_mut() {
            if !has_web {
                parameters.retain(|p| p["name"] != "snippet_set");
            }
            for parameter in parameters.iter_mut() {
                if parameter["name"] == "corpus" {
                    parameter["schema"]["enum"] = json!(corpora);
                }
                // The server's own bound on a question's snippets (`--max-snippets`).
                if parameter["name"] == "snippets" {
                    parameter["schema"]["maximum"] = json!(state.answerer.max_snippets());
                }
                if parameter["name"] == "snippet_source" && !has_web {
                    parameter["schema"]["enum"] = json!([SnippetSource::Corpus.name()]);
                }
            }
        }
    }
    Json(spec).into_response()
}

#[derive(Debug, Deserialize)]
pub(crate) struct ExportParams {
    format: Option<String>,
    token: Option<String>,
}

/// `GET /study/export?format=csv|json`: the study's responses, for the holder of the admin token
/// (`Authorization: Bearer …` or `token=…`).
pub(crate) async fn study_export(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Result<Query<ExportParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    use crate::study::{export, store as study_store};
    use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};

    let Query(params) = params?;
    let given = crate::http::login::given_token(&state, &headers, params.token.as_deref())?;
    state.study.authorize(given.as_deref())?;
    let format = params.format.as_deref().unwrap_or("json");
    if !matches!(format, "json" | "csv") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("unknown export format `{format}` (csv, json)"),
        ));
    }
    let study = &state.study.definition.id;
    let rows = study_store::responses(&state.db, study).await?;
    let sessions = study_store::session_counts(&state.db, study).await?;
    let attachment = format!("attachment; filename=\"{study}.{format}\"");
    if format == "csv" {
        let body = export::to_csv(&rows).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!(
                    "the CSV could not be written: {}",
                    tally_types::error::Causes(&e)
                ),
            )
        })?;
        return Ok((
            [
                (CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (CONTENT_DISPOSITION, attachment),
            ],
            body,
        )
            .into_response());
    }
    let body = export::JsonExport {
        study,
        exported_at: chrono::Utc::now().to_rfc3339(),
        sessions_started: sessions.started,
        sessions_completed: sessions.completed,
        sessions_abandoned: sessions.abandoned,
        responses: &rows,
    };
    Ok(([(CONTENT_DISPOSITION, attachment)], Json(body)).into_response())
}
