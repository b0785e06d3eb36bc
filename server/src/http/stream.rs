//! `GET /api/answer/stream?q=…`: an answer as a stream of server-sent events, so that people see
//! its progress stage by stage instead of a blank wait. Events, in order:
//!
//! - `stage`: `{"stage": "span scoring", "ms": 812.4}` as each stage of the count pipeline
//!   finishes (none for cached answers and searches);
//! - then one of `answer` (the answer as the page shows it, stored, with its ids) or `failure`
//!   (`{"status": 429, "error": "…"}`); the stream ends there.
//!
//! The page's question box uses it once hydrated; any client that reads server-sent events can.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use tally_types::stream::{StreamEvent, StreamFailure};
use tokio::sync::mpsc;

use crate::backend::{answer_and_store, to_page};
use crate::error::ApiError;
use crate::error::HttpError;
use crate::http::api::{ask_from, QueryParams};
use crate::state::AppState;

#[utoipa::path(
    get,
    path = "/answer/stream",
    summary = "Any question, answered as a stream of server-sent events: its progress stage by stage, then the stored answer",
    description = "Events, in order: `stage` (`{\"stage\": \"span scoring\", \"ms\": 812.4}`) as each stage of the count pipeline finishes (none for cached answers and searches); then either `answer` (the answer as the web page shows it: `ask`, `kind`, `kind_reason`, `answer_id`, `body`, …) or `failure` (`{\"status\": 429, \"error\": \"…\"}`). The stream ends after that event. Settings other than the defaults are remembered in the `tally_settings` cookie.",
    params(
        crate::http::openapi::QuestionQuery,
        crate::http::openapi::ModeQuery,
        crate::http::openapi::SearchSettingsQuery,
        crate::http::openapi::SnippetQuery
    ),
    responses(
        (status = 200, description = "Server-sent events: `stage` events as the count pipeline's stages finish, then one `answer` event (the answer as the page shows it, with its stored ids) or one `failure` event ({\"status\", \"error\"}: rate limit, busy, answering failed); the stream ends there.", content_type = "text/event-stream", body = String),
        (status = 400, response = crate::http::openapi::BadRequest),
    )
)]
pub(crate) async fn answer_stream(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    QueryParams(params): QueryParams,
) -> Result<Response, ApiError> {
    let ask = ask_from(&params, crate::http::api::Takes::AnyKind)?;
    // Refused settings are a 400 before the stream starts, not a failure event inside it.
    let checked = state.answerer.check(&ask)?;
    let asker = crate::http::api::asker(client, &headers);
    let cookie = crate::http::preferences::settings_cookie(&ask.settings);
    let (events, received) = mpsc::unbounded_channel::<Event>();
    tokio::spawn(async move {
        let stages = events.clone();
        let on_stage = Arc::new(move |stage: &tally_types::count::answer::StageTiming| {
            if let Ok(event) = Event::default()
                .event(StreamEvent::Stage.name())
                .json_data(stage)
            {
                let _ = stages.send(event);
            }
        });
        // A client that left no longer listens: its answer is dropped, which stops the
        // computation at its next stage and frees its slot for visitors still there.
        // Answered as the client's attempt, so that its answer slot is shared fairly by address.
        let answering = crate::login_throttle::Attempt::scope(
            client.ip(),
            answer_and_store(&state, &checked, &asker, on_stage),
        );
        let stored = tokio::select! {
            (stored, _) = answering => stored,
            () = events.closed() => return,
        };
        let last = match stored
            .map_err(|e| e.failure())
            .map(|s| to_page(checked.ask, s))
        {
            Ok(answered) => Event::default()
                .event(StreamEvent::Answer.name())
                .json_data(answered),
            Err(failure) => Event::default()
                .event(StreamEvent::Failure.name())
                .json_data(StreamFailure {
                    status: failure.status,
                    error: failure.message,
                }),
        };
        if let Ok(event) = last {
            let _ = events.send(event);
        }
    });
    let mut response = Sse::new(until_closed(received))
        .keep_alive(KeepAlive::default())
        .into_response();
    // As for server-rendered answers: settings other than the defaults are remembered.
    if let Some(cookie) = cookie {
        response
            .headers_mut()
            .append(axum::http::header::SET_COOKIE, cookie);
    }
    Ok(response)
}

/// The events as they come, ending when the sender is done.
fn until_closed(
    received: mpsc::UnboundedReceiver<Event>,
) -> impl Stream<Item = Result<Event, Infallible>> {
    stream::unfold(received, |mut received| async move {
        received.recv().await.map(|event| (Ok(event), received))
    })
}
