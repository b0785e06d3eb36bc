//! The operator's review endpoints (admin token): the queue of feedback not yet reviewed,
//! decisions on it, the verified answers (listed, withdrawn) and the accepted judgments
//! exported for `tally train`.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use serde::Deserialize;
use tally_types::request::encode;
use tally_types::{Choice, Decision};

use crate::admin_token::REVIEW_PAGE;
use crate::http::admin::token_parameter;
use crate::http::login::check_page_form;

use crate::error::ApiError;
use crate::http::api::{admit_to_feedback_rows, ListParams};
use crate::state::AppState;
use tally_store::review::{self, Decided, NewDecision, QueuePage};
use tally_store::verified;
use tally_types::QueuedQuestion;
use tally_types::VerifiedRecord;

/// An id in the path, or a 400 that says what it is.
fn id_of(id: Result<Path<i64>, PathRejection>, what: &str) -> Result<i64, ApiError> {
    id.map(|Path(id)| id).map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the {what} id is a whole number"),
        )
    })
}

/// Rows listed when the request does not say.
const DEFAULT_LIMIT: i64 = 100;

/// The review queue's page: `limit` opinions (1 to 500, 100 when not given) after `offset`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct QueueParams {
    /// Opinions returned.
    #[param(minimum = 1, maximum = 500, default = 100)]
    limit: Option<i64>,
    /// Opinions to skip: the next page starts at the previous offset plus its limit.
    #[param(minimum = 0, maximum = 9223372036854775807_i64, default = 0)]
    offset: Option<i64>,
}

/// The verified answers' list: `limit` rows (1 to 500, 100 when not given).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct VerifiedParams {
    /// Rows returned.
    #[param(minimum = 1, maximum = 500, default = 100)]
    limit: Option<i64>,
}

impl QueueParams {
    fn page(&self) -> Result<QueuePage, ApiError> {
        let offset = self.offset.unwrap_or(0);
        if offset < 0 {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "offset is a whole number of 0 or more",
            ));
        }
        Ok(QueuePage {
            limit: ListParams { limit: self.limit }.limit_or(DEFAULT_LIMIT)?,
            offset,
        })
    }
}

/// `GET /api/admin/review?limit=N&offset=M`: feedback not yet reviewed, by question, what most
/// visitors say first; each opinion with its first few feedback ids and comments.
#[utoipa::path(
    get,
    path = "/admin/review",
    summary = "The review queue",
    description = "Feedback on answers not yet reviewed, grouped by question; each opinion counts the visitors who gave it (no visitor id is shown; feedback without the visitor cookie counts once per address), how many rows say it, and lists the first of their feedback ids and comments (at most 10, and at most `limit`). Pages of `limit` opinions follow each other by `offset`. Admin token.",
    params(QueueParams),
    security(("adminToken" = [])),
    responses(
        (status = 200, description = "Questions with their opinions", body = Vec<crate::http::openapi::QueuedQuestionBody>),
        crate::http::openapi::AdminErrors,
    )
)]
pub(crate) async fn queue(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Result<Query<QueueParams>, QueryRejection>,
) -> Result<Json<Vec<QueuedQuestion>>, ApiError> {
    admit_to_feedback_rows(&state, &headers)?;
    let Query(params) = params?;
    Ok(Json(review::queue(&state.db, params.page()?).await?))
}

/// `POST /api/admin/review/{feedback_id}` with `{"decision": "accepted"|"rejected",
/// "reviewer": "…"}`: decides on that feedback and every pending row saying the same.
#[utoipa::path(
    post,
    path = "/admin/review/{id}",
    summary = "Accept or reject feedback",
    description = "Decides on a feedback row and every pending row saying the same about the same question. Accepting a corrected count (or a 'correct' on a count) makes it the question's verified answer on every server. Admin token.",
    params(("id" = i64, Path, minimum = 1, maximum = 9223372036854775807_i64, description = "A feedback row's id")),
    request_body = crate::http::openapi::NewDecisionBody,
    security(("adminToken" = [])),
    responses(
        (status = 200, description = "What was decided, and the verified answer made", body = crate::http::openapi::DecidedBody),
        (status = 404, response = crate::http::openapi::NotFound),
        (status = 409, description = "Reviewed before", body = crate::http::openapi::ErrorBody),
        crate::http::openapi::BodyErrors,
        crate::http::openapi::AdminErrors,
    )
)]
pub(crate) async fn decide(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: Result<Path<i64>, PathRejection>,
    body: Result<Json<NewDecision>, JsonRejection>,
) -> Result<Json<Decided>, ApiError> {
    let id = id_of(id, "feedback")?;
    admit_to_feedback_rows(&state, &headers)?;
    crate::http::login::check_json_change(&state, &headers)?;
    let Json(new) = body?;
    let db = state.db.clone();
    let decided =
        tally_store::db::write_to_end(async move { review::decide(&db, id, &new).await }).await?;
    Ok(Json(decided))
}

/// `GET /api/admin/verified?limit=N`: the verified answers, current ones first, then the
/// withdrawn and replaced ones.
#[utoipa::path(
    get,
    path = "/admin/verified",
    summary = "The verified answers",
    description = "Current ones first, then the withdrawn and replaced ones, newest first. Admin token.",
    params(VerifiedParams),
    security(("adminToken" = [])),
    responses(
        (status = 200, description = "The verified answers", body = Vec<crate::http::openapi::VerifiedBody>),
        crate::http::openapi::AdminErrors,
    )
)]
pub(crate) async fn list_verified(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Result<Query<VerifiedParams>, QueryRejection>,
) -> Result<Json<Vec<VerifiedRecord>>, ApiError> {
    admit_to_feedback_rows(&state, &headers)?;
    let Query(params) = params?;
    let limit = ListParams {
        limit: params.limit,
    }
    .limit_or(DEFAULT_LIMIT)?;
    Ok(Json(verified::list(&state.db, limit).await?))
}

/// Who withdraws a verified answer (optional: "operator" when none is named).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Withdrawal {
    /// The reviewer's name.
    #[serde(default)]
    reviewer: Option<String>,
}

/// `DELETE /api/admin/verified/{id}`: withdraws a verified answer (an optional JSON body names
/// the reviewer).
#[utoipa::path(
    delete,
    path = "/admin/verified/{id}",
    summary = "Withdraw a verified answer",
    description = "Its question is answered by Tally alone again, on every server. Admin token.",
    params(("id" = i64, Path, minimum = 1, maximum = 9223372036854775807_i64, description = "A verified answer's id")),
    security(("adminToken" = [])),
    responses(
        (status = 200, description = "The withdrawn answer", body = crate::http::openapi::VerifiedBody),
        (status = 404, response = crate::http::openapi::NotFound),
        crate::http::openapi::AdminErrors,
    )
)]
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: Result<Path<i64>, PathRejection>,
    body: Option<Json<Withdrawal>>,
) -> Result<Json<VerifiedRecord>, ApiError> {
    let id = id_of(id, "verified answer")?;
    admit_to_feedback_rows(&state, &headers)?;
    crate::http::login::check_json_change(&state, &headers)?;
    let by = review::reviewer_name(body.and_then(|Json(w)| w.reviewer).as_deref())?;
    let db = state.db.clone();
    let row = tally_store::db::write_to_end(async move { verified::withdraw(&db, id, &by).await })
        .await?;
    Ok(Json(row))
}

/// `GET /api/admin/judgments`: every accepted judgment, one JSON object per line, for
/// `tally train … --judgments FILE` (no visitor id, no comment).
#[utoipa::path(
    get,
    path = "/admin/judgments",
    summary = "Accepted judgments, for training",
    description = "One JSON object per line: question, part, part_ref, verdict, corrected_value, moved_to, tally_count. No visitor id, no comment. Read by `tally-lab train … --judgments FILE`. Admin token.",
    security(("adminToken" = [])),
    responses(
        (status = 200, description = "JSON lines", content_type = "application/x-ndjson", body = String),
        crate::http::openapi::AdminErrors,
    )
)]
pub(crate) async fn export_judgments(
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

/// A decision from the review page's buttons.
#[derive(Debug, Deserialize)]
pub(crate) struct DecisionForm {
    decision: String,
    /// Empty when the page was opened with the login cookie.
    #[serde(default)]
    token: String,
    /// The page's form token (see [`check_page_form`]).
    #[serde(default)]
    form_token: String,
    /// The operator's note with an accepted count (empty: none).
    #[serde(default)]
    note: String,
}

/// The review page with a note, keeping the token of a page opened with one in its URL.
fn back_to_page(token: &str, note: &str, text: &str) -> Redirect {
    Redirect::to(&format!(
        "/admin/review?{}{note}={}",
        token_parameter(Some(token)),
        encode(text)
    ))
}

/// `POST /admin/review/{id}` (the page's Accept / Reject): decides, then back to the page.
pub(crate) async fn decide_from_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: Result<Path<i64>, PathRejection>,
    Form(form): Form<DecisionForm>,
) -> Result<Redirect, ApiError> {
    let id = id_of(id, "feedback")?;
    check_page_form(&state, &headers, &form.token, &form.form_token, REVIEW_PAGE)?;
    let decision = Decision::choose(&form.decision)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
    let new = NewDecision {
        decision,
        reviewer: None,
        note: Some(form.note.clone()),
    };
    let db = state.db.clone();
    let decided =
        tally_store::db::write_to_end(async move { review::decide(&db, id, &new).await }).await;
    Ok(match decided {
        Ok(d) => {
            let verified = d
                .verified
                .map(|v| {
                    // Written as the pages write it: "£95", "324.5 m", "12".
                    let shown =
                        tally_app::format::count_or_value(v.answer.count, v.answer.unit.as_ref());
                    format!("; the verified answer is now {shown}")
                })
                .unwrap_or_default();
            back_to_page(
                &form.token,
                "done",
                &format!(
                    "{} {} feedback{verified}.",
                    d.decision.name(),
                    d.feedback_ids.len()
                ),
            )
        }
        Err(e) => back_to_page(&form.token, "error", &ApiError::from(e).message),
    })
}

/// `POST /admin/verified/{id}/withdraw` (the page's Withdraw): back to the page.
pub(crate) async fn withdraw_from_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    id: Result<Path<i64>, PathRejection>,
    Form(form): Form<crate::http::admin::TokenForm>,
) -> Result<Redirect, ApiError> {
    let id = id_of(id, "verified answer")?;
    let token = form.token().to_string();
    check_page_form(&state, &headers, &token, form.form_token(), REVIEW_PAGE)?;
    let db = state.db.clone();
    let withdrawn =
        tally_store::db::write_to_end(async move { verified::withdraw(&db, id, "operator").await })
            .await;
    Ok(match withdrawn {
        Ok(v) => back_to_page(
            &token,
            "done",
            &format!("Withdrew the verified answer of “{}”.", v.question),
        ),
        Err(e) => back_to_page(&token, "error", &ApiError::from(e).message),
    })
}
