//! The HTTP surface: JSON API, static site files and the Leptos pages.

use std::path::Path;

use axum::extract::DefaultBodyLimit;
use axum::http::header::CACHE_CONTROL;
use axum::http::HeaderValue;
use axum::routing::get;
use axum::Router;
use leptos::prelude::provide_context;
use leptos_axum::{generate_route_list, LeptosRoutes};
use tally_app::status::source::StatusSource;
use tally_app::{shell, App};
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use crate::state::AppState;
use crate::{api, health};

/// Largest request body the API accepts.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Hashed asset names change with their content, so browsers may keep them for a year.
const CACHE_HASHED: &str = "public, max-age=31536000, immutable";
const CACHE_UNHASHED: &str = "no-cache";

pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/health", get(health::health))
        .route(
            "/feedback",
            get(api::list_feedback).post(api::post_feedback),
        )
        .route("/feedback/{id}", get(api::get_feedback))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));

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

    let status_source = {
        let state = state.clone();
        StatusSource::new(move || {
            let state = state.clone();
            async move { health::current_status(&state).await }
        })
    };
    let routes = generate_route_list(App);
    Router::new()
        .nest("/api", api)
        .nest_service(&format!("/{}", options.site_pkg_dir), pkg)
        .leptos_routes_with_context(
            &state,
            routes,
            move || provide_context(status_source.clone()),
            move || shell(options.clone()),
        )
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        .with_state(state)
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
}
