//! The JSON API's handlers and its error type.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use std::collections::HashMap;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use tally_app::model::Ask;

use crate::backend::{answer_and_store, StoredAnswer};
use crate::db::DbError;
use crate::feedback::{self, Feedback, NewFeedback};
use crate::state::AppState;
use crate::store;

/// An API error: an HTTP status and a sentence for people, sent as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<DbError> for ApiError {
    fn from(error: DbError) -> Self {
        match error {
            DbError::Unavailable(why) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "The database is unavailable, so feedback cannot be saved right now \
                     (nothing already stored is affected): {why}"
                ),
            ),
            DbError::Invalid(why) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, why),
            DbError::Query(e) => {
                tracing::error!(error = %e, "database query failed");
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "database query failed")
            }
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, rejection.body_text())
    }
}

/// `POST /api/feedback`: 201 with the stored row, or 200 with the earlier row when the same
/// `client_token` was sent before.
pub async fn post_feedback(
    State(state): State<AppState>,
    body: Result<Json<NewFeedback>, JsonRejection>,
) -> Result<(StatusCode, Json<Feedback>), ApiError> {
    let Json(new) = body?;
    let db = state.db.clone();
    let (row, created) =
        crate::db::write_to_end(async move { feedback::insert(&db, &new).await }).await?;
    let code = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((code, Json(row)))
}

/// `GET /api/feedback/{id}`.
pub async fn get_feedback(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Feedback>, ApiError> {
    feedback::get(&state.db, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no feedback with id {id}")))
}

#[derive(Debug, Deserialize)]
pub struct ListParams {
    limit: Option<i64>,
}

impl ListParams {
    /// The number of rows asked for: 1 to 500, 50 when not given.
    fn limit(&self) -> Result<i64, ApiError> {
        let limit = self.limit.unwrap_or(50);
        if !(1..=500).contains(&limit) {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "limit must be between 1 and 500",
            ));
        }
        Ok(limit)
    }
}

/// `GET /api/feedback?limit=N`: the newest feedback first (N from 1 to 500, default 50).
pub async fn list_feedback(
    State(state): State<AppState>,
    params: Result<Query<ListParams>, QueryRejection>,
) -> Result<Json<Vec<Feedback>>, ApiError> {
    let Query(params) = params?;
    let limit = params.limit()?;
    Ok(Json(feedback::recent(&state.db, limit).await?))
}

/// Any other `/api/...` path.
pub async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such API endpoint")
}

/// Why a question could not be answered, as an API error.
impl From<crate::answering::AnswerError> for ApiError {
    fn from(error: crate::answering::AnswerError) -> Self {
        ApiError::new(crate::backend::status_of(&error), error.to_string())
    }
}

/// `q`, `mode` and the settings from the query string; bad numbers are a 400.
pub fn ask_from(params: &HashMap<String, String>) -> Result<Ask, ApiError> {
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

/// `GET /api/count?q=…`: the count pipeline's answer, stored; the ids say where.
pub async fn get_count(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    params: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<StoredAnswer>, ApiError> {
    let Query(params) = params?;
    let ask = ask_from(&params)?;
    let stored =
        answer_and_store(&state, &ask.q, "count", &ask.settings, Some(client.ip())).await?;
    Ok(Json(stored))
}

/// `GET /api/search?q=…`: quantity search (`mode=search` for text only), stored.
pub async fn get_search(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    params: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<StoredAnswer>, ApiError> {
    let Query(params) = params?;
    let ask = ask_from(&params)?;
    let mode = match ask.mode.as_str() {
        "search" => "search",
        "auto" | "quantity" => "quantity",
        other => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("mode `{other}` does not apply to /api/search (quantity or search)"),
            ))
        }
    };
    let stored = answer_and_store(&state, &ask.q, mode, &ask.settings, Some(client.ip())).await?;
    Ok(Json(stored))
}

/// `GET /api/questions?limit=N`: recent questions with their answers' summaries.
pub async fn list_questions(
    State(state): State<AppState>,
    params: Result<Query<ListParams>, QueryRejection>,
) -> Result<Json<Vec<store::RecentQuestion>>, ApiError> {
    let Query(params) = params?;
    let limit = params.limit()?;
    Ok(Json(store::recent_questions(&state.db, limit).await?))
}

/// `GET /api/openapi.json`: this API, described as OpenAPI 3.1.
pub async fn openapi() -> impl IntoResponse {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        OPENAPI,
    )
}

const OPENAPI: &str = include_str!("openapi.json");

#[derive(Debug, Deserialize)]
pub struct ExportParams {
    format: Option<String>,
    token: Option<String>,
}

/// `GET /study/export?format=csv|json`: the study's responses, for the holder of the admin token
/// (`Authorization: Bearer …` or `token=…`).
pub async fn study_export(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    params: Result<Query<ExportParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    use crate::study::{export, store as study_store};
    use axum::http::header::{AUTHORIZATION, CONTENT_DISPOSITION, CONTENT_TYPE};

    let Query(params) = params?;
    let bearer = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    state
        .study
        .authorize(bearer.or(params.token.as_deref()))
        .map_err(study_error)?;
    let format = params.format.as_deref().unwrap_or("json");
    if !matches!(format, "json" | "csv") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("unknown export format `{format}` (csv, json)"),
        ));
    }
    let study = &state.study.definition.id;
    let rows = study_store::responses(&state.db, study).await?;
    let (started, completed) = study_store::session_counts(&state.db, study).await?;
    let attachment = format!("attachment; filename=\"{study}.{format}\"");
    if format == "csv" {
        let body = export::to_csv(&rows).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the CSV could not be written: {e}"),
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
        sessions_started: started,
        sessions_completed: completed,
        responses: &rows,
    };
    Ok(([(CONTENT_DISPOSITION, attachment)], Json(body)).into_response())
}

fn study_error(error: crate::study::StudyError) -> ApiError {
    let failure = crate::backend::study_failure(error);
    ApiError::new(
        StatusCode::from_u16(failure.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        failure.message,
    )
}
