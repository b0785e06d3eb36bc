//! How the server's errors answer a request: each error type says its HTTP status, the sentence a
//! person is told and when to come back ([`HttpError`]); the JSON API sends them as
//! `{"error": "…"}` ([`ApiError`]) and the pages set the status and show the sentence
//! ([`Failure`]). One place, so that a refusal reads the same in the API and on a page.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use tally_app::backend::Failure;
use tally_types::error::Causes;

use crate::admin_token::Forbidden;
use crate::answering::AnswerError;
use crate::ingest::IngestError;
use crate::study::StudyError;
use tally_store::db::DbError;

/// An error that knows how it answers an HTTP request.
pub(crate) trait HttpError: std::fmt::Display {
    fn status(&self) -> StatusCode;

    /// What the client is told; by default the error's own sentence.
    fn public_message(&self) -> String {
        self.to_string()
    }

    /// Seconds to wait before asking again, when waiting helps.
    fn retry_after(&self) -> Option<u64> {
        None
    }

    /// The pages' view of the error.
    fn failure(&self) -> Failure {
        Failure {
            status: self.status().as_u16(),
            message: self.public_message(),
        }
    }
}

/// Seconds a question about a corpus being indexed is told to wait.
const INDEXING_RETRY_AFTER_S: u64 = 5;

impl HttpError for AnswerError {
    fn status(&self) -> StatusCode {
        match self {
            AnswerError::Loading
            | AnswerError::Unavailable(_)
            | AnswerError::Busy(_)
            | AnswerError::Indexing { .. }
            // Nobody waits for a cancelled answer; were anyone to, it is the server's to redo.
            | AnswerError::Cancelled => StatusCode::SERVICE_UNAVAILABLE,
            AnswerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AnswerError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            AnswerError::Database(e) => e.status(),
            AnswerError::Count(_)
            | AnswerError::Search(_)
            | AnswerError::SentenceIndex(_)
            | AnswerError::Tables(_)
            | AnswerError::Fetch(_)
            | AnswerError::Crashed(_)
            | AnswerError::NotAValue
            | AnswerError::NoSnippets => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn public_message(&self) -> String {
        match self {
            AnswerError::Database(e) => e.public_message(),
            other => {
                // The client is told what failed and why, cause by cause, as the log is.
                let sentence = Causes(other).to_string();
                if other.status() == StatusCode::INTERNAL_SERVER_ERROR {
                    tracing::error!(error = %sentence, "answering failed");
                }
                sentence
            }
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            AnswerError::RateLimited(s) | AnswerError::Busy(s) => Some(*s),
            AnswerError::Indexing { .. } => Some(INDEXING_RETRY_AFTER_S),
            _ => None,
        }
    }
}

impl HttpError for DbError {
    fn status(&self) -> StatusCode {
        match self {
            DbError::Unavailable(_) | DbError::Cluster(_) => StatusCode::SERVICE_UNAVAILABLE,
            DbError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            DbError::NotFound(_) => StatusCode::NOT_FOUND,
            DbError::Conflict(_) => StatusCode::CONFLICT,
            DbError::Query(_) | DbError::Stored { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The database's own text (names, SQL state, connection details) stays in the log.
    fn public_message(&self) -> String {
        match self {
            DbError::Unavailable(_) | DbError::Cluster(_) => {
                // The chain begins with "database unavailable" (or the cluster's own words).
                tracing::warn!("{}", Causes(self));
                "The database is unavailable right now, so nothing can be saved or read from it \
                 (nothing already stored is affected)"
                    .into()
            }
            DbError::Invalid(why) => why.to_string(),
            DbError::NotFound(why) => why.to_string(),
            DbError::Conflict(why) => why.to_string(),
            DbError::Stored { .. } => {
                tracing::error!(error = %Causes(self), "a stored row is unreadable");
                "a stored row could not be read back; the error is logged on the server".into()
            }
            DbError::Query(e) => {
                tracing::error!(error = %Causes(e), "database query failed");
                "the database could not store this; the error is logged on the server".into()
            }
        }
    }
}

impl HttpError for StudyError {
    fn status(&self) -> StatusCode {
        match self {
            StudyError::OutOfTurn { .. }
            | StudyError::NoSuchTask { .. }
            | StudyError::NotAChoice { .. }
            | StudyError::NotASessionId { .. } => StatusCode::BAD_REQUEST,
            StudyError::NoSession(_)
            | StudyError::OtherStudy { .. }
            | StudyError::NoSuchQuestion => StatusCode::NOT_FOUND,
            StudyError::Forbidden(e) => e.status(),
            StudyError::TooManyStarts(_) => StatusCode::TOO_MANY_REQUESTS,
            StudyError::Abandoned => StatusCode::GONE,
            StudyError::NotACount { .. } | StudyError::Record(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            StudyError::Answer(e) => e.status(),
            StudyError::Db(e) => e.status(),
        }
    }

    fn public_message(&self) -> String {
        match self {
            StudyError::Answer(e) => e.public_message(),
            StudyError::Db(e) => e.public_message(),
            StudyError::Record(_) => {
                tracing::error!(error = %Causes(self), "a study response was not stored");
                self.to_string()
            }
            other => other.to_string(),
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            StudyError::TooManyStarts(seconds) => Some(*seconds),
            StudyError::Forbidden(e) => e.retry_after(),
            StudyError::Answer(e) => e.retry_after(),
            _ => None,
        }
    }
}

impl HttpError for Forbidden {
    fn status(&self) -> StatusCode {
        match self {
            Forbidden::LoginInvalid
            | Forbidden::NoTokenSet { .. }
            | Forbidden::WrongToken
            | Forbidden::NoTokenGiven { .. } => StatusCode::FORBIDDEN,
            Forbidden::Throttled(_) | Forbidden::ThrottledEveryone(_) => {
                StatusCode::TOO_MANY_REQUESTS
            }
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            Forbidden::LoginInvalid
            | Forbidden::NoTokenSet { .. }
            | Forbidden::WrongToken
            | Forbidden::NoTokenGiven { .. } => None,
            Forbidden::Throttled(seconds) | Forbidden::ThrottledEveryone(seconds) => Some(*seconds),
        }
    }
}

impl HttpError for IngestError {
    fn status(&self) -> StatusCode {
        match self {
            IngestError::NoFiles
            | IngestError::NothingRead { .. }
            | IngestError::Unusable(_)
            | IngestError::Cancelled => StatusCode::BAD_REQUEST,
            IngestError::NoCorpus(_) | IngestError::NoJob { .. } => StatusCode::NOT_FOUND,
            IngestError::OnlyInIndexes { .. } => StatusCode::CONFLICT,
            IngestError::Answer(e) => e.status(),
            IngestError::Store(e) => e.status(),
            IngestError::Documents(_) | IngestError::Held(_) | IngestError::Crashed(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            IngestError::Stopped | IngestError::ShuttingDown => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn public_message(&self) -> String {
        match self {
            IngestError::Answer(e) => e.public_message(),
            IngestError::Store(e) => e.public_message(),
            other => Causes(other).to_string(),
        }
    }
}

impl From<Forbidden> for ApiError {
    fn from(error: Forbidden) -> Self {
        ApiError::of(&error)
    }
}

impl From<IngestError> for ApiError {
    fn from(error: IngestError) -> Self {
        ApiError::of(&error)
    }
}

/// An API error: an HTTP status and a sentence for people, sent as `{"error": "..."}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// Seconds to wait before trying again (429 and a busy 503), sent as `Retry-After`.
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The API's view of any [`HttpError`].
    pub(crate) fn of(error: &impl HttpError) -> Self {
        Self {
            status: error.status(),
            message: error.public_message(),
            retry_after: error.retry_after(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(json!({ "error": self.message }))).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        // A 401 says which credentials would do (RFC 9110 §11.6.1).
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

impl From<AnswerError> for ApiError {
    fn from(error: AnswerError) -> Self {
        ApiError::of(&error)
    }
}

impl From<DbError> for ApiError {
    fn from(error: DbError) -> Self {
        ApiError::of(&error)
    }
}

impl From<StudyError> for ApiError {
    fn from(error: StudyError) -> Self {
        ApiError::of(&error)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        if timed_out(&rejection) {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "the request body did not arrive in time",
            );
        }
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

impl From<axum::extract::multipart::MultipartError> for ApiError {
    fn from(error: axum::extract::multipart::MultipartError) -> Self {
        if timed_out(&error) {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "the request body did not arrive in time",
            );
        }
        ApiError::new(error.status(), error.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, rejection.body_text())
    }
}

/// Whether reading the body stopped at the server's body timeout.
fn timed_out(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(error) = source {
        if error.is::<tower_http::timeout::TimeoutError>()
            || error.is::<crate::http::deadline::BodyDeadlineMissed>()
        {
            return true;
        }
        source = error.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_text_stays_in_the_log() {
        let error = DbError::Query(sqlx::Error::Protocol(
            "relation \"answers\" does not exist".into(),
        ));
        let api = ApiError::of(&error);
        assert_eq!(api.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!api.message.contains("relation"), "{}", api.message);
        let unavailable = DbError::from(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::ConnectionRefused,
            "connection refused (os error 111)",
        )));
        assert!(!unavailable.public_message().contains("os error"));
        assert_eq!(unavailable.status(), StatusCode::SERVICE_UNAVAILABLE);
    }

    #[test]
    fn waiting_helps_only_when_busy_or_limited_and_pages_see_the_same() {
        let busy = ApiError::of(&AnswerError::Busy(5));
        assert_eq!(
            (busy.status, busy.retry_after),
            (StatusCode::SERVICE_UNAVAILABLE, Some(5))
        );
        let limited = ApiError::of(&AnswerError::RateLimited(7));
        assert_eq!(
            (limited.status, limited.retry_after),
            (StatusCode::TOO_MANY_REQUESTS, Some(7))
        );
        let bad = ApiError::of(&AnswerError::from(crate::answering::Refused::EmptyQuestion));
        assert_eq!(
            (bad.status, bad.retry_after),
            (StatusCode::BAD_REQUEST, None)
        );
        let study = StudyError::Answer(AnswerError::Busy(5)).failure();
        assert_eq!(study.status, 503);
        assert_eq!(study.message, AnswerError::Busy(5).to_string());
    }
}
