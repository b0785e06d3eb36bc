//! A person's preferences, kept in cookies: the theme (set by the header's theme switch, read by
//! the page shell) and the settings of their last question (written when a question is answered
//! with non-default settings; the home page starts from them), and the anonymous visitor id that
//! keeps each visitor's history their own.

use axum::extract::{Form, Request, State};
use axum::http::header::{HOST, LOCATION, REFERER, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tally_app::backend::cookie_value;
use tally_app::model::{GONE_CORPUS, SETTINGS_COOKIE, THEME_COOKIE, VISITOR_COOKIE};
use tally_types::request::{encode, Ask, Settings};

use crate::error::ApiError;
use crate::state::AppState;

/// Cookies live a year.
const MAX_AGE: &str = "31536000";

#[derive(Debug, Deserialize)]
pub(crate) struct ThemeForm {
    theme: String,
}

/// `POST /theme` (`theme=light|dark|system`): remembers the theme and goes back to the page.
pub(crate) async fn set_theme(
    headers: HeaderMap,
    form: Form<ThemeForm>,
) -> Result<Response, ApiError> {
    let cookie = match form.theme.as_str() {
        "light" | "dark" => format!(
            "{THEME_COOKIE}={}; Path=/; Max-Age={MAX_AGE}; SameSite=Lax",
            form.theme
        ),
        "system" => format!("{THEME_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax"),
        other => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("unknown theme `{other}` (light, dark, system)"),
            ))
        }
    };
    Ok(redirect(&back_to(&headers), Some(cookie)))
}

/// On a bare `GET /`, continues from the remembered settings (`/?snippets=…`), so the URL shows
/// them; `GET /?reset-settings` forgets them. A remembered corpus that is no longer held (it
/// was deleted) is forgotten, and the home page is told which it was ([`GONE_CORPUS`]), so that
/// it says so instead of asking a corpus that answers nothing.
pub(crate) async fn restore_settings(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::GET || request.uri().path() != "/" {
        return next.run(request).await;
    }
    match request.uri().query() {
        None | Some("") => {
            if let Some(mut settings) = saved_settings(request.headers()) {
                let held = state.answerer.corpora();
                // While the engines load no corpus is listed: nothing is forgotten then.
                let gone = settings
                    .count
                    .corpus
                    .take_if(|corpus| !held.is_empty() && !held.contains(corpus));
                let query = settings.changed_query();
                return match gone {
                    None => redirect(&format!("/?{query}"), None),
                    Some(gone) => {
                        let told = format!("{GONE_CORPUS}={}", encode(&gone));
                        let location = if query.is_empty() {
                            format!("/?{told}")
                        } else {
                            format!("/?{query}&{told}")
                        };
                        let cookie = settings_cookie(&settings)
                            .and_then(|c| c.to_str().ok().map(str::to_string))
                            .unwrap_or_else(forgotten_settings);
                        redirect(&location, Some(cookie))
                    }
                };
            }
        }
        Some("reset-settings") => {
            return redirect("/", Some(forgotten_settings()));
        }
        Some(query) => {
            // A question asked with other settings: remember them. (The page streams, so its
            // headers leave before the answer is computed; the cookie is set here instead.)
            // A query that names its corpus (the banner's "all corpora") is remembered even
            // without a question, so the home page stops going back to the corpus before.
            let names_corpus = form_urlencoded::parse(query.as_bytes()).any(|(k, _)| k == "corpus");
            let cookie = parse_ask(query)
                .filter(|ask| !ask.q.trim().is_empty() || names_corpus)
                .and_then(|ask| match settings_cookie(&ask.settings) {
                    Some(cookie) => Some(cookie),
                    None if names_corpus => HeaderValue::from_str(&forgotten_settings()).ok(),
                    None => None,
                });
            let mut response = next.run(request).await;
            if let Some(value) = cookie {
                response.headers_mut().append(SET_COOKIE, value);
            }
            return response;
        }
    }
    next.run(request).await
}

/// A visitor cookie's id; anything else counts as no visitor.
pub(crate) fn visitor_id(cookie: &str) -> Option<uuid::Uuid> {
    uuid::Uuid::parse_str(cookie.trim()).ok()
}

/// Gives a browser without a visitor cookie a new random one (pages and server functions; the
/// JSON API is left alone: its clients keep the cookie they have, or none). The request itself
/// stays anonymous: a client that never sends cookies back (a crawler) then shares one
/// anonymous history row per answer instead of adding a row per request (measured: ~590 bytes a
/// request otherwise). The price: a question asked on the very first page load of a browser is
/// not in its history; everything after is.
pub(crate) async fn ensure_visitor(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    // Site files and the API never need one: no cookie parsing on those requests.
    if path.starts_with("/api/") || path.starts_with("/pkg/") {
        return next.run(request).await;
    }
    let has_visitor = cookie_value(request.headers(), VISITOR_COOKIE)
        .as_deref()
        .and_then(visitor_id)
        .is_some();
    if has_visitor {
        return next.run(request).await;
    }
    let mut response = next.run(request).await;
    let id = uuid::Uuid::new_v4();
    let cookie =
        format!("{VISITOR_COOKIE}={id}; Path=/; Max-Age={MAX_AGE}; SameSite=Lax; HttpOnly");
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(SET_COOKIE, value);
    }
    response
}

/// The `Set-Cookie` value that forgets the remembered settings.
fn forgotten_settings() -> String {
    format!("{SETTINGS_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax")
}

/// The cookie that remembers `settings`, when they differ from the defaults.
pub(crate) fn settings_cookie(settings: &Settings) -> Option<HeaderValue> {
    let query = settings.changed_query();
    if query.is_empty() {
        return None;
    }
    HeaderValue::from_str(&format!(
        "{SETTINGS_COOKIE}={query}; Path=/; Max-Age={MAX_AGE}; SameSite=Lax"
    ))
    .ok()
}

/// The question and settings of a home-page query, if its settings are valid.
fn parse_ask(query: &str) -> Option<Ask> {
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let (ask, problems) = Ask::from_params(|name| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    });
    problems.is_empty().then_some(ask)
}

/// The remembered settings, if they are still valid and not all defaults.
fn saved_settings(headers: &HeaderMap) -> Option<Settings> {
    let settings = parse_ask(&cookie_value(headers, SETTINGS_COOKIE)?)?.settings;
    (!settings.changed_query().is_empty()).then_some(settings)
}

/// The page the request came from, when it is this site's; the home page otherwise.
fn back_to(headers: &HeaderMap) -> String {
    let host = headers.get(HOST).and_then(|h| h.to_str().ok());
    let referer = headers.get(REFERER).and_then(|r| r.to_str().ok());
    if let (Some(host), Some(referer)) = (host, referer) {
        for scheme in ["http://", "https://"] {
            if let Some(path) = referer
                .strip_prefix(scheme)
                .and_then(|rest| rest.strip_prefix(host))
                .filter(|path| path.starts_with('/') && !path.starts_with("//"))
            {
                return path.to_string();
            }
        }
    }
    "/".into()
}

pub(crate) fn redirect(location: &str, cookie: Option<String>) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(LOCATION, value);
    }
    if let Some(value) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn saved_settings_are_checked_and_minimal() {
        let h = headers(&[(
            "cookie",
            "a=1; tally_settings=snippets=20&strategy=most-frequent&theta=0.3",
        )]);
        // θ 0.3 is the default, so it is dropped.
        assert_eq!(
            saved_settings(&h).map(|s| s.changed_query()).as_deref(),
            Some("snippets=20&strategy=most-frequent")
        );
        assert_eq!(
            saved_settings(&headers(&[("cookie", "tally_settings=theta=abc")])),
            None
        );
        assert_eq!(
            saved_settings(&headers(&[("cookie", "tally_settings=k=10")])),
            None
        );
        assert_eq!(saved_settings(&headers(&[])), None);
    }

    #[test]
    fn theme_forms_go_back_to_this_sites_pages_only() {
        let h = headers(&[
            ("host", "127.0.0.1:3000"),
            ("referer", "http://127.0.0.1:3000/history?x=1"),
        ]);
        assert_eq!(back_to(&h), "/history?x=1");
        let h = headers(&[
            ("host", "127.0.0.1:3000"),
            ("referer", "http://evil.example/x"),
        ]);
        assert_eq!(back_to(&h), "/");
        let h = headers(&[("host", "a"), ("referer", "http://a//evil.example")]);
        assert_eq!(back_to(&h), "/");
        // A remembered query is decoded as browsers encode it, and refused when not valid.
        let ask = parse_ask("q=how+many%3F&strategy=median&corpus=a%2Cb").unwrap();
        assert_eq!(ask.q, "how many?");
        assert_eq!(ask.settings.count.corpus.as_deref(), Some("a,b"));
        assert!(parse_ask("strategy=most+frequent").is_none());
    }
}
