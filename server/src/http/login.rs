//! Admin credentials: where a request's admin token is read from (the `Authorization: Bearer`
//! header, a `token` field or parameter, the login cookie) and the pages' login. The token,
//! posted once from a form, becomes a cookie (a digest of it, HttpOnly, SameSite=Strict), so
//! that it never travels in a URL, where a browser's history, a referrer or a proxy's log would
//! keep it.

use std::net::SocketAddr;

use axum::extract::rejection::FormRejection;
use axum::extract::{ConnectInfo, Form, Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use serde::Deserialize;
use tally_app::backend::cookie_value;
use tally_app::model::{login_return, ADMIN_COOKIE};
use tally_types::request::encode;

use super::preferences::redirect;
use crate::admin_token::LOGIN_LASTS;
use crate::error::ApiError;
use crate::login_throttle::{Attempt, DELAY};
use crate::state::AppState;

#[derive(Debug, Deserialize)]
pub(crate) struct LoginForm {
    token: String,
    #[serde(default)]
    next: String,
}

/// `POST /admin/login` (`token`, optional `next`: the page that asked, any path of this site):
/// with the right token, sets the login cookie and goes to `next`; with a wrong one, to the login
/// page with the reason, which goes on to `next` once the token is right.
pub(crate) async fn login(State(state): State<AppState>, Form(form): Form<LoginForm>) -> Response {
    let next = login_return(&form.next);
    match (
        state
            .admin
            .check(Some(form.token.trim()), "the admin pages"),
        state.admin.login_value(),
    ) {
        (Ok(()), Some(value)) => redirect(
            next,
            Some(format!(
                "{ADMIN_COOKIE}={value}; Path=/; Max-Age={}; SameSite=Strict; HttpOnly",
                LOGIN_LASTS.as_secs()
            )),
        ),
        (Err(refused), _) => redirect(
            &format!(
                "/login?next={}&error={}",
                encode(next),
                encode(&refused.to_string())
            ),
            None,
        ),
        (Ok(()), None) => redirect(next, None),
    }
}

/// `POST /admin/logout` (optional `next`): forgets the login cookie and goes back to `next`.
pub(crate) async fn logout(form: Result<Form<LogoutForm>, FormRejection>) -> Response {
    let next = form.map(|Form(f)| f.next).unwrap_or_default();
    redirect(login_return(&next), Some(cleared_login_cookie()))
}

#[derive(Debug, Deserialize)]
pub(crate) struct LogoutForm {
    #[serde(default)]
    next: String,
}

/// The admin token a request gives: the `Authorization: Bearer` header, else `explicit` (a form
/// field or query parameter) when not empty, else the one its login cookie stands for.
pub(crate) fn given_token(
    state: &AppState,
    headers: &HeaderMap,
    explicit: Option<&str>,
) -> Result<Option<String>, ApiError> {
    if let Some(token) = bearer(headers)? {
        return Ok(Some(token.to_string()));
    }
    if let Some(token) = explicit.filter(|t| !t.trim().is_empty()) {
        return Ok(Some(token.to_string()));
    }
    match cookie_value(headers, ADMIN_COOKIE) {
        Some(cookie) => Ok(state.admin.token_of_login(&cookie)?.map(str::to_string)),
        None => Ok(None),
    }
}

/// Checks the credentials of a form an admin page posts (`token`: its token field, empty when
/// the page was opened with the login cookie; `form_token`: the page's form token) for `what`.
/// A form admitted by the login cookie alone must carry the form token of that cookie (see
/// [`crate::admin_token::AdminToken::form_token`]): the browser sends the cookie whichever page
/// posts the form.
pub(crate) fn check_page_form(
    state: &AppState,
    headers: &HeaderMap,
    token: &str,
    form_token: &str,
    what: &str,
) -> Result<(), ApiError> {
    let given = given_token(state, headers, Some(token))?;
    state.admin.check(given.as_deref(), what)?;
    let by_cookie_alone = bearer(headers)?.is_none() && token.trim().is_empty();
    if by_cookie_alone {
        let cookie = cookie_value(headers, ADMIN_COOKIE).unwrap_or_default();
        if !state.admin.form_token_fits(&cookie, form_token.trim()) {
            return Err(form_not_from_page());
        }
    }
    Ok(())
}

/// The header in which a script sends its page's form token with a JSON admin change.
pub(crate) const FORM_TOKEN_HEADER: &str = "x-tally-form-token";

/// A JSON admin change (a POST or DELETE under `/api/admin/`) that the login cookie alone admits
/// must carry that login's form token in [`FORM_TOKEN_HEADER`], as a page's form does (issue
/// 84: the JSON routes took the cookie alone); a request with the token itself
/// (`Authorization: Bearer`) needs none. Call after the token check.
pub(crate) fn check_json_change(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    if bearer(headers)?.is_some() {
        return Ok(());
    }
    let Some(cookie) = cookie_value(headers, ADMIN_COOKIE) else {
        return Ok(());
    };
    let given = headers
        .get(FORM_TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if state.admin.form_token_fits(&cookie, given.trim()) {
        Ok(())
    } else {
        Err(form_not_from_page())
    }
}

/// The refusal of a form the login cookie alone admits without that login's form token.
pub(crate) fn form_not_from_page() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "this form does not come from a page of this server opened since your login; reload the \
         page and try again",
    )
}

/// The `Set-Cookie` value that makes a browser forget its login cookie.
fn cleared_login_cookie() -> String {
    format!("{ADMIN_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict; HttpOnly")
}

/// The `Authorization: Bearer …` token, if the header is there; any other form is a 400.
pub(crate) fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(value) = headers.get(AUTHORIZATION) else {
        return Ok(None);
    };
    // The scheme's name is case-insensitive (RFC 9110 §11.1): `bearer` is `Bearer`.
    value
        .to_str()
        .ok()
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| Some(token.trim()))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "the Authorization header must be `Bearer` and the admin token",
            )
        })
}

/// Runs each request as its client's [`Attempt`], so that admin token checks count wrong tokens
/// per address; the answer to a wrong token is held back for [`DELAY`], and a login cookie that
/// was sent with it is cleared (a stale one, signed under an earlier secret, counts once).
pub(crate) async fn hold_back_wrong_tokens(request: Request, next: Next) -> Response {
    let with_login = cookie_value(request.headers(), ADMIN_COOKIE).is_some();
    let Some(ConnectInfo(client)) = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .copied()
    else {
        return next.run(request).await;
    };
    let (mut response, wrong) = Attempt::scope(client.ip(), next.run(request)).await;
    if wrong {
        tokio::time::sleep(DELAY).await;
        if with_login {
            if let Ok(clear) = axum::http::HeaderValue::from_str(&cleared_login_cookie()) {
                response
                    .headers_mut()
                    .append(axum::http::header::SET_COOKIE, clear);
            }
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_scheme_is_read_in_any_case() {
        for header in ["Bearer s3cret", "bearer s3cret", "BEARER  s3cret "] {
            let mut headers = HeaderMap::new();
            headers.insert(AUTHORIZATION, header.parse().unwrap());
            assert_eq!(bearer(&headers).unwrap(), Some("s3cret"), "{header}");
        }
        for header in ["Basic czNjcmV0", "Bearer"] {
            let mut headers = HeaderMap::new();
            headers.insert(AUTHORIZATION, header.parse().unwrap());
            assert!(bearer(&headers).is_err(), "{header}");
        }
        assert_eq!(bearer(&HeaderMap::new()).unwrap(), None);
    }
}
