//! Admin changes come from Tally's own pages only (issue 70): a request that changes something
//! under `/admin/` or `/api/admin/` (any method but GET, HEAD and OPTIONS) is refused with 403
//! when the browser says it comes from another site or origin (`Sec-Fetch-Site`), or names an
//! `Origin` that is not the server's own (its `Host`). The login cookie's `SameSite=Strict` is
//! not enough: a browser sends it from another port or subdomain of the same site. Clients
//! that are no browser (curl, scripts) send neither header and are not concerned: they carry
//! the token themselves.

use axum::extract::Request;
use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// What a browser says of where a request comes from.
const FETCH_SITE: &str = "sec-fetch-site";

/// A change of admin state sent from a page of another origin; says from where.
#[derive(Debug, thiserror::Error)]
#[error(
    "admin changes are accepted from Tally's own pages only, not from {0}; open the page on this \
     server and try again"
)]
pub(crate) struct CrossOrigin(String);

/// Refuses a cross-origin change of an admin path; passes everything else on.
pub(crate) async fn admin_changes_from_own_pages(request: Request, next: Next) -> Response {
    let changes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let path = request.uri().path();
    let admin = path.starts_with("/admin/") || path.starts_with("/api/admin/");
    if changes && admin {
        // HTTP/2 names the host in the URI (`:authority`), HTTP/1.1 in the `Host` header.
        let authority = request.uri().authority().map(|a| a.as_str().to_string());
        if let Err(refused) = same_origin(request.headers(), authority.as_deref()) {
            return ApiError::new(StatusCode::FORBIDDEN, refused.to_string()).into_response();
        }
    }
    next.run(request).await
}

/// `Ok` when the headers show the request comes from a page of this server, or say nothing of
/// where it comes from.
fn same_origin(headers: &HeaderMap, authority: Option<&str>) -> Result<(), CrossOrigin> {
    let refused = |from: &str| CrossOrigin(from.to_string());
    if let Some(site) = headers.get(FETCH_SITE) {
        // `none`: typed in the address bar or opened from a bookmark.
        let site = site.to_str().unwrap_or_default();
        if !matches!(site, "same-origin" | "none") {
            return Err(refused(&format!("a page of another origin ({site})")));
        }
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        let host = headers
            .get(HOST)
            .and_then(|h| h.to_str().ok())
            .or(authority)
            .unwrap_or_default();
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        if host.is_empty() || authority != Some(host) {
            return Err(refused("another origin"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_the_servers_own_origin_may_change_admin_state() {
        let host = ("host", "127.0.0.1:3000");
        // The page itself, a bookmark, and clients that say nothing.
        let page = headers(&[
            host,
            ("origin", "http://127.0.0.1:3000"),
            ("sec-fetch-site", "same-origin"),
        ]);
        assert!(same_origin(&page, None).is_ok());
        assert!(same_origin(&headers(&[host, ("sec-fetch-site", "none")]), None).is_ok());
        assert!(same_origin(&headers(&[host]), None).is_ok());
        // HTTP/2: the host is the URI's authority.
        let h2 = headers(&[("origin", "https://tally.example")]);
        assert!(same_origin(&h2, Some("tally.example")).is_ok());
        // Another site, another port or subdomain of the same site, an opaque origin.
        for refused in [
            vec![host, ("origin", "http://evil.example")],
            vec![host, ("sec-fetch-site", "cross-site")],
            vec![host, ("sec-fetch-site", "same-site")],
            vec![host, ("origin", "http://127.0.0.1:3001")],
            vec![host, ("origin", "null")],
            vec![("origin", "http://127.0.0.1:3000")],
        ] {
            assert!(
                same_origin(&headers(&refused), None).is_err(),
                "{refused:?}"
            );
        }
    }
}
