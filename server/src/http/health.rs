//! The system's status: what is really loaded. Served as `/api/health` and to the status panel.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use tally_app::status::{
    AnsweringStatus, CorpusStatus, DatabaseStatus, EncoderStatus, Health, SystemStatus,
    WebSearchStatus,
};

use crate::state::AppState;
use tally_store::db::{DbError, Unreachable};
use tally_types::WebSearchState;

/// How long a status check waits for the database: long enough for a healthy local server, short
/// enough that a down database does not stall the page or a load balancer's probe.
const DATABASE_CHECK_TIMEOUT: Duration = Duration::from_secs(1);

/// Who reads the status: anyone sees what works and what does not, in words; the admin also
/// sees the details (paths, the database's and the loaders' own messages with their commands
/// and ports), which are otherwise only in the log (issue 57).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Audience {
    Public,
    Admin,
}

/// The audience of a request: the admin when its token (header or login cookie) is right.
pub(crate) fn audience(state: &AppState, headers: &axum::http::HeaderMap) -> Audience {
    let given = crate::http::login::given_token(state, headers, None)
        .ok()
        .flatten();
    audience_of(state, given.as_deref())
}

/// The admin when `token` is the admin token (an empty one is none), else the public.
pub(crate) fn audience_of(state: &AppState, token: Option<&str>) -> Audience {
    match token.filter(|t| !t.is_empty()) {
        Some(token) if state.admin.check(Some(token), "details").is_ok() => Audience::Admin,
        _ => Audience::Public,
    }
}

/// What the public status says of a part that failed, instead of its error's details.
const ENCODER_FAILED: &str = "the sentence encoder could not be loaded (the server's log says why)";
const DATABASE_UNAVAILABLE: &str =
    "database unavailable: it cannot be reached right now (the server's log says why)";
const ANSWERING_FAILED: &str =
    "the corpora or models could not be loaded (the server's log says why)";

/// Checks every part now (the database with a real query), as `audience` may see it.
pub(crate) async fn current_status(state: &AppState, audience: Audience) -> SystemStatus {
    let status = full_status(state).await;
    match audience {
        Audience::Admin => status,
        Audience::Public => public(status),
    }
}

/// `status` without its details: errors in words, no paths, no address of the web search.
fn public(mut status: SystemStatus) -> SystemStatus {
    status.data_dir = None;
    status.encoder.path = None;
    if let Some(web) = &mut status.web_search {
        // Often a host inside the operator's network, with its port.
        web.endpoint = String::new();
    }
    if status.encoder.error.is_some() {
        status.encoder.error = Some(ENCODER_FAILED.into());
    }
    if status.database.error.is_some() {
        status.database.error = Some(DATABASE_UNAVAILABLE.into());
    }
    if status.answering.error.is_some() {
        status.answering.error = Some(ANSWERING_FAILED.into());
    }
    status
}

async fn full_status(state: &AppState) -> SystemStatus {
    let loaded = state.encoder.encoder.as_ref().ok();
    let encoder = EncoderStatus {
        loaded: loaded.is_some(),
        model: loaded.map(|e| e.name().to_string()),
        dimension: loaded.map(|e| e.dimension()),
        device: loaded.map(|e| e.device_name()),
        path: state.encoder.path.as_ref().map(|p| p.display().to_string()),
        error: state
            .encoder
            .encoder
            .as_ref()
            .err()
            .map(ToString::to_string),
    };
    let check = tokio::time::timeout(DATABASE_CHECK_TIMEOUT, state.db.check())
        .await
        .unwrap_or_else(|_| {
            Err(DbError::Unavailable(Unreachable::NoAnswer(
                DATABASE_CHECK_TIMEOUT.as_secs(),
            )))
        });
    if let Err(e) = &check {
        tracing::debug!("status: {}", tally_types::error::Causes(e));
    }
    let database = DatabaseStatus {
        connected: check.is_ok(),
        error: check
            .err()
            .map(|e| tally_types::error::Causes(&e).to_string()),
    };
    let answering = match state.answerer.state() {
        Ok(ready) => AnsweringStatus { ready, error: None },
        Err(e) => AnsweringStatus {
            ready: false,
            error: Some(tally_types::error::Causes(&e).to_string()),
        },
    };
    let status = if !encoder.loaded || answering.error.is_some() {
        Health::Failed
    } else if !database.connected {
        Health::Degraded
    } else {
        Health::Ok
    };
    SystemStatus {
        status,
        version: env!("CARGO_PKG_VERSION").to_string(),
        checked_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        encoder,
        database,
        answering,
        data_dir: state.data_dir.as_ref().map(|p| p.display().to_string()),
        corpora: state
            .corpora
            .iter()
            .map(|c| CorpusStatus {
                name: c.name.clone(),
                description: c.description.clone(),
                bytes: c.bytes,
            })
            .collect(),
        web_search: state.answerer.web().map(|web| {
            let source = web.search.state();
            let state =
                WebSearchState::after(source.last_at.is_some(), source.last_error.is_some());
            WebSearchStatus {
                provider: web.search.provider().to_string(),
                endpoint: web.search.endpoint(),
                state,
                last_error: source.last_error,
                last_at: source.last_at,
                searches: source.searches,
                failures: source.failures,
            }
        }),
    }
}

/// `GET /api/health`: 200 while answering works (even without a database), 503 when the
/// encoder failed to load.
#[utoipa::path(
    get,
    path = "/health",
    summary = "What the server has loaded",
    responses(
        (status = 200, description = "Answering works (the database may be down: see database.connected)", body = crate::http::openapi::StatusBody),
        (status = 503, description = "The encoder could not be loaded", body = crate::http::openapi::StatusBody),
    )
)]
pub(crate) async fn health(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
) -> (StatusCode, Json<SystemStatus>) {
    let status = current_status(&state, audience(&state, &headers)).await;
    let code = if status.encoder.loaded {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (code, Json(status))
}
