//! The HTTP surface: the accept loop, the JSON API, the answer stream, the static site files and
//! the Leptos pages.

pub(crate) mod admin;
pub(crate) mod api;
pub(crate) mod crops;
pub(crate) mod deadline;
pub(crate) mod health;
pub(crate) mod listen;
pub(crate) mod login;
pub(crate) mod openapi;
pub(crate) mod preferences;
pub(crate) mod review;
pub(crate) mod same_origin;
pub(crate) mod stream;

use std::path::Path;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use std::sync::Arc;

use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::HeaderValue;
use axum::routing::get;
use axum::Router;
use leptos::prelude::provide_context;
use leptos_axum::{generate_route_list, LeptosRoutes};
use tally_app::backend::BackendHandle;
use tally_app::{shell, App};
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tower_http::LatencyUnit;
use tracing::Level;

use crate::backend::ServerBackend;
use crate::state::AppState;

/// Largest request body the API accepts.
pub(crate) const MAX_BODY_BYTES: usize = 64 * 1024;

/// Hashed asset names change with their content, so browsers may keep them for a year.
const CACHE_HASHED: &str = "public, max-age=31536000, immutable";
const CACHE_UNHASHED: &str = "no-cache";

/// The app's routes; a request body that takes longer than `body_timeout` to arrive in all (an
/// upload: [`deadline::UPLOAD_BODY_DEADLINE`]), or pauses for longer than it, is cut off.
pub(crate) fn router(state: AppState, body_timeout: Duration) -> Router {
    let (api, _) = api_router();

    let options = state.leptos_options.clone();
    let pkg_dir = Path::new(options.site_root.as_ref()).join(options.site_pkg_dir.as_ref());
    let cache = if options.hash_files {
        CACHE_HASHED
    } else {
        CACHE_UNHASHED
    };
    let pkg = Router::new()
        .fallback_service(ServeDir::new(pkg_dir))
        .layer(SetResponseHeaderLayer::overriding(
            CACHE_CONTROL,
            HeaderValue::from_static(cache),
        ));

    let backend = BackendHandle(Arc::new(ServerBackend {
        state: state.clone(),
    }));
    let routes = generate_route_list(App);
    let preferences_state = state.clone();
    let app = Router::new()
        .merge(api)
        .route("/study/export", get(api::study_export))
        .route("/theme", axum::routing::post(preferences::set_theme))
        .route(
            "/admin/corpora/{name}/delete",
            axum::routing::post(admin::delete_from_page),
        )
        .route(
            "/admin/review/{id}",
            axum::routing::post(review::decide_from_page),
        )
        .route(
            "/admin/verified/{id}/withdraw",
            axum::routing::post(review::withdraw_from_page),
        )
        .route("/admin/login", axum::routing::post(login::login))
        .route("/admin/logout", axum::routing::post(login::logout))
        .nest_service(&format!("/{}", options.site_pkg_dir), pkg)
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                provide_context(backend.clone());
                // A fresh nonce per page: its inline scripts carry it, and so does its CSP.
                leptos::nonce::provide_nonce();
            },
            move || shell(options.clone()),
        )
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        .with_state(state)
        .layer(axum::middleware::from_fn(
            refuse_bad_server_function_arguments,
        ))
        .layer(axum::middleware::from_fn(limit_server_function_bodies))
        .layer(axum::middleware::from_fn_with_state(
            preferences_state,
            preferences::restore_settings,
        ))
        .layer(axum::middleware::from_fn(preferences::ensure_visitor))
        .layer(axum::middleware::from_fn(login::hold_back_wrong_tokens))
        .layer(axum::middleware::from_fn(
            same_origin::admin_changes_from_own_pages,
        ))
        .layer(CompressionLayer::new())
        .layer(RequestBodyTimeoutLayer::new(body_timeout))
        .layer(axum::middleware::from_fn(move |request, next| {
            deadline::limit_body_time(body_timeout, request, next)
        }));
    with_security_headers(app).layer(
        TraceLayer::new_for_http()
            .make_span_with(|request: &axum::http::Request<axum::body::Body>| {
                // Like tower-http's default span, with secrets in the query string redacted
                // (headers, the Authorization header included, are not logged).
                tracing::info_span!(
                    "request",
                    method = %request.method(),
                    uri = %redacted(request.uri()),
                    version = ?request.version(),
                )
            })
            .on_response(
                DefaultOnResponse::new()
                    .level(Level::INFO)
                    .latency_unit(LatencyUnit::Millis),
            ),
    )
}

/// The JSON API under `/api` and its description: each route is registered with the
/// `#[utoipa::path]` of its handler (`routes!`), so a route is served exactly when it is
/// described ([`openapi::document`] is built from the same call).
pub(crate) fn api_router() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    use utoipa::OpenApi;
    use utoipa_axum::router::OpenApiRouter;
    use utoipa_axum::routes;
    let uploads = OpenApiRouter::new()
        .routes(routes!(admin::list, admin::upload))
        .layer(DefaultBodyLimit::max(crate::ingest::MAX_UPLOAD_BYTES));
    let api = OpenApiRouter::new()
        .routes(routes!(health::health))
        .routes(routes!(api::list_feedback, api::post_feedback))
        .routes(routes!(api::feedback_summary))
        .routes(routes!(api::get_feedback))
        .routes(routes!(api::get_count))
        .routes(routes!(api::get_search))
        .routes(routes!(api::get_value))
        .routes(routes!(crops::get_crop))
        .routes(routes!(stream::answer_stream))
        .routes(routes!(api::list_questions))
        .routes(routes!(api::description))
        .merge(uploads)
        .routes(routes!(admin::delete))
        .routes(routes!(review::queue))
        .routes(routes!(review::decide))
        .routes(routes!(review::list_verified))
        .routes(routes!(review::withdraw))
        .routes(routes!(review::export_judgments))
        .routes(routes!(admin::job))
        .routes(routes!(admin::job_events))
        .routes(routes!(admin::restart))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .nest("/api", api)
        .split_for_parts()
}

/// The largest body a server function (the pages' questions, feedback and study answers) takes.
pub(crate) const MAX_SERVER_FUNCTION_BYTES: u64 = MAX_BODY_BYTES as u64;

/// Refuses a server-function request whose declared body is larger than
/// [`MAX_SERVER_FUNCTION_BYTES`] with 413 and a sentence, before it is read (the framework would
/// otherwise fail reading it and answer 500).
async fn limit_server_function_bodies(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    match declared {
        Some(bytes)
            if request.uri().path().starts_with("/_server/")
                && bytes > MAX_SERVER_FUNCTION_BYTES =>
        {
            crate::error::ApiError::new(
                axum::http::StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request is {bytes} bytes; at most {MAX_SERVER_FUNCTION_BYTES} are accepted"),
            )
            .into_response()
        }
        _ => next.run(request).await,
    }
}

/// How the server-function framework starts the body of an error in the request's arguments
/// (`server_fn`'s error encoding), which it answers with 500 like any other failure.
const ARGUMENT_ERRORS: [&str; 3] = ["Args|", "MissingArg|", "Deserialization|"];

/// Answers a server-function request whose arguments could not be read with 400 instead of the
/// framework's 500: the request was wrong, not the server. The body (the framework's encoded
/// error, which the page's client decodes) stays as it is.
async fn refuse_bad_server_function_arguments(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let server_function = request.uri().path().starts_with("/_server/");
    let response = next.run(request).await;
    if !server_function || response.status() != axum::http::StatusCode::INTERNAL_SERVER_ERROR {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // Error bodies are a sentence; a larger one is passed on unread.
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY_BYTES).await else {
        return axum::response::Response::from_parts(parts, axum::body::Body::empty());
    };
    if ARGUMENT_ERRORS
        .iter()
        .any(|p| bytes.starts_with(p.as_bytes()))
    {
        parts.status = axum::http::StatusCode::BAD_REQUEST;
    }
    axum::response::Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// Query parameters whose values are secrets, by a part of their name.
const SECRET_PARAMETERS: [&str; 4] = ["token", "key", "password", "secret"];

/// `uri` as the request log shows it: the value of every query parameter whose name, once
/// percent-decoded as the server decodes it (`%74oken` is `token`), is named like a secret
/// (`token=…`, `api_key=…`) replaced by `[redacted]` (a bare `token` too: its name is the
/// secret's place, whatever follows).
pub(crate) fn redacted(uri: &axum::http::Uri) -> String {
    let Some(query) = uri.query() else {
        return uri.to_string();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| {
            let raw_name = pair.split_once('=').map_or(pair, |(name, _)| name);
            if is_secret_name(raw_name) {
                format!("{raw_name}=[redacted]")
            } else {
                pair.to_string()
            }
        })
        .collect();
    format!("{}?{}", uri.path(), pairs.join("&"))
}

/// Whether a query parameter's raw name decodes (as `application/x-www-form-urlencoded`) to a
/// name like a secret's.
fn is_secret_name(raw_name: &str) -> bool {
    let decoded: String = form_urlencoded::parse(raw_name.as_bytes())
        .map(|(name, value)| format!("{name}{value}"))
        .collect();
    let decoded = decoded.to_ascii_lowercase();
    SECRET_PARAMETERS
        .iter()
        .any(|secret| decoded.contains(secret))
}

/// Headers every response carries. Pages set their own CSP with the page's nonce (see the
/// app's shell); everything else gets a policy that allows nothing to run.
fn with_security_headers(router: Router) -> Router {
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_in_the_query_string_are_not_logged() {
        let uri: axum::http::Uri = "/study/export?format=csv&token=s3cret&Api_Key=k&q=a+b"
            .parse()
            .unwrap();
        assert_eq!(
            redacted(&uri),
            "/study/export?format=csv&token=[redacted]&Api_Key=[redacted]&q=a+b"
        );
        let plain: axum::http::Uri = "/api/count?q=how+many".parse().unwrap();
        assert_eq!(redacted(&plain), "/api/count?q=how+many");
        assert_eq!(redacted(&"/admin".parse().unwrap()), "/admin");
        // Names are compared as the server decodes them (issue 57: `%74oken` was logged).
        for encoded in ["%74oken", "%54OKEN", "to%6Ben", "api%5Fkey", "pass%77ord"] {
            let uri: axum::http::Uri = format!("/admin?{encoded}=s3cret&x=1").parse().unwrap();
            let shown = redacted(&uri);
            assert!(!shown.contains("s3cret"), "{encoded}: {shown}");
            assert!(shown.ends_with("&x=1"), "{shown}");
        }
    }
}
