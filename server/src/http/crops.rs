//! `GET /api/crop`: the crop of a scanned page a piece of evidence was read from (issue 100),
//! asked for by what the evidence shows — its source and its text — so that the page, the API
//! and anyone holding an answer find it the same way ([`tally_documents::crop_store`]).

use std::collections::HashMap;

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use tally_documents::crop_store::crop_key;

use crate::error::ApiError;
use crate::http::api::{only_known, QueryParams};
use crate::state::AppState;

/// The longest source or text a crop is asked by, in characters: more than any evidence holds.
const MAX_PART_CHARS: usize = 4_000;

/// The evidence a crop is asked for by: a count's snippet (`source` and `text`), a value's
/// observation (`context` as `source`, its sentence as `text`), or an aggregation's row (its
/// document and place joined by " · " as `source`, its cells joined by " | " as `text`).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CropQuery {
    /// Where the evidence was read: a snippet's `source`, an observation's `context`, or a
    /// row's document and `place` joined by " · ".
    #[param(min_length = 1, max_length = 4000)]
    source: String,
    /// What it says: a snippet's or an observation's `text`; for a row, its cells joined by
    /// " | ".
    #[param(min_length = 1, max_length = 4000)]
    text: String,
}

impl CropQuery {
    /// The query read from a request's parameters: both given, not blank, within
    /// [`MAX_PART_CHARS`], nothing else.
    fn read(params: &HashMap<String, String>) -> Result<Self, ApiError> {
        only_known(params, |name| ["source", "text"].contains(&name))?;
        let part = |name: &str| -> Result<String, ApiError> {
            let value = params.get(name).map(String::as_str).unwrap_or_default();
            if value.trim().is_empty() {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("`{name}` is needed: what the evidence shows"),
                ));
            }
            if value.chars().count() > MAX_PART_CHARS {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("`{name}` is longer than {MAX_PART_CHARS} characters"),
                ));
            }
            Ok(value.to_string())
        };
        Ok(Self {
            source: part("source")?,
            text: part("text")?,
        })
    }
}

/// `GET /api/crop?source=…&text=…`: the crop as a grey PNG.
#[utoipa::path(
    get,
    path = "/crop",
    summary = "The crop of a scanned page a piece of evidence was read from",
    description = "Evidence read by OCR (its `source`, `context` or `place` says \"read by OCR\") was read from a page image: this is the crop of that page showing the lines it was read from, kept when the file was read (a grey PNG of at most 32 KB). Ask with what the evidence shows: a count snippet's `source` and `text`, a value observation's `context` and `text`, or for an aggregation's row its `document` and `place` joined by \" · \" and its `cells` joined by \" | \". 404 when no crop is kept for it (evidence not read by OCR, or its corpus deleted).",
    params(CropQuery),
    responses(
        (status = 200, description = "The crop", content_type = "image/png", body = String),
        (status = 400, response = crate::http::openapi::BadRequest),
        (status = 404, response = crate::http::openapi::NotFound),
        (status = 503, response = crate::http::openapi::Unavailable),
        (status = 500, response = crate::http::openapi::ServerError),
    )
)]
pub(crate) async fn get_crop(
    State(state): State<AppState>,
    QueryParams(params): QueryParams,
) -> Result<Response, ApiError> {
    let query = CropQuery::read(&params)?;
    let engines = state.answerer.loaded()?;
    let key = crop_key(&query.source, &query.text);
    // Files read off the async threads.
    let crop = tokio::task::spawn_blocking(move || engines.snippets.crop(&key))
        .await
        .map_err(|e| unreadable(&e))?
        .map_err(|e| unreadable(&e))?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "no crop of a scanned page is kept for this evidence",
            )
        })?;
    let mut response = crop.to_vec().into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    // Kept with its corpus; a deleted corpus's crop is gone within the hour.
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    Ok(response)
}

/// A crop kept but not readable (its files, or the task reading them): logged with its causes,
/// a 500 for the asker.
fn unreadable(error: &(dyn std::error::Error + 'static)) -> ApiError {
    tracing::error!(error = ?error, "a crop of a scanned page could not be read");
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the crop of the scanned page could not be read",
    )
}
