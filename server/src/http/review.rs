//! The operator's review endpoints (admin token): the queue of feedback not yet reviewed,
//! decisions on it, the verified answers (listed, withdrawn) and the accepted judgments
//! exported for `tally train`.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use crate::error::ApiError;
use crate::http::api::admit_to_feedback_rows;
use crate::state::AppState;
use crate::store::review::{self, Decided, NewDecision, QueuedQuestion};
use crate::store::verified::{self, VerifiedRow};

/// An id in the path, or a 400 that says what it is.
fn id_of(id: Result<Path<i64>, PathRejection>, what: &str) -> Result<i64, ApiError> {
    id.map(|Path(id)| id).map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the {what} id is a whole number"),
        )
    })
}

#[derive(Debug, Deserialize)]
pub struct QueueParams {
    limit: Option<i64>,
}

impl QueueParams {
    fn limit(&self) -> Result<i64, ApiError> {
        let limit = self.limit.unwrap_or(100);
        if !(1..=500).contains(&limit) {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "limit must be between 1 and 500",
            ));
        }
        Ok(limit)
    }
}

/// `GET /api/admin/review?limit=N`: feedback not yet reviewed, by question, what most visitors
/// say first.
pub async fn queue(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Result<Query<QueueParams>, QueryRejection>,
) -> Result<Json<Vec<QueuedQuestion>>, ApiError> {
    admit_to_feedback_rows(&state, &headers)?;
    let Query(params) = params?;
    Ok(Json(review::queue(&state.db, params.limit()?).await?))
}

/// `POST /api/admin/review/{feedback_id}` with `{"decision": "accepted"|"rejected",
/// "reviewer": "…"}`: decides on that feedback and every pending row saying the same.
pub async fn decide(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: Result<Path<i64>, PathRejection>,
    body: Result<Json<NewDecision>, JsonRejection>,
) -> Result<Json<Decided>, ApiError> {
    let id = id_of(id, "feedback")?;
    admit_to_feedback_rows(&state, &headers)?;
    let Json(new) = body?;
    let db = state.db.clone();
    let decided =
        crate::store::db::write_to_end(async move { review::decide(&db, id, &new).await }).await?;
    Ok(Json(decided))
}

/// `GET /api/admin/verified?limit=N`: the verified answers, current ones first, then the
/// withdrawn and replaced ones.
pub async fn list_verified(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Result<Query<QueueParams>, QueryRejection>,
) -> Result<Json<Vec<VerifiedRow>>, ApiError> {
    admit_to_feedback_rows(&state, &headers)?;
    let Query(params) = params?;
    let limit = params.limit()?;
    Ok(Json(verified::list(&state.db, limit).await?))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Withdrawal {
    #[serde(default)]
    reviewer: Option<String>,
}

/// `DELETE /api/admin/verified/{id}`: withdraws a verified answer (an optional JSON body names
/// the reviewer).
pub async fn withdraw(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: Result<Path<i64>, PathRejection>,
    body: Option<Json<Withdrawal>>,
) -> Result<Json<VerifiedRow>, ApiError> {
    let id = id_of(id, "verified answer")?;
    admit_to_feedback_rows(&state, &headers)?;
    let by = review::reviewer_name(body.and_then(|Json(w)| w.reviewer).as_deref())?;
    let db = state.db.clone();
    let row = crate::store::db::write_to_end(async move { verified::withdraw(&db, id, &by).await })
        .await?;
    Ok(Json(row))
}

/// `GET /api/admin/judgments`: every accepted judgment, one JSON object per line, for
/// `tally train … --judgments FILE` (no visitor id, no comment).
pub async fn export_judgments(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    admit_to_feedback_rows(&state, &headers)?;
    let judgments = review::accepted_judgments(&state.db).await?;
    let mut body = String::new();
    for judgment in &judgments {
        let line = serde_json::to_string(judgment)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        body.push_str(&line);
        body.push('\n');
    }
    Ok(([(CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}
