//! The built site's files are served with content-hashed names, long-lived caching headers and
//! compression. Needs the site built by `cargo leptos build`.

use reqwest::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE};
use reqwest::StatusCode;

use crate::support::{require_built_site, scratch_dir, unreachable_database_url, Server};

/// `/pkg/...` references in the page, e.g. `/pkg/tally.3f2a….js`.
fn pkg_links(html: &str) -> Vec<String> {
    html.split(['"', '\''])
        .filter(|part| part.starts_with("/pkg/"))
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn assets_are_hashed_cached_and_compressed() {
    require_built_site();
    let dir = scratch_dir("site");
    let db_url = unreachable_database_url();
    let server = Server::start(&dir, "server", &[], &[("DATABASE_URL", &db_url)]).await;
    let client = reqwest::Client::new();

    let page = client
        .get(server.url("/"))
        .header(ACCEPT_ENCODING, "br, gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(
        page.headers()[CONTENT_ENCODING],
        "br",
        "HTML is brotli-compressed"
    );

    let html = reqwest::get(server.url("/"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let links = pkg_links(&html);
    for ext in [".js", ".wasm", ".css"] {
        let link = links
            .iter()
            .find(|l| l.ends_with(ext))
            .unwrap_or_else(|| panic!("the page links a {ext} file: {links:?}"));
        // tally.<hash>.<ext>: the name changes whenever the content does.
        let name = link.trim_start_matches("/pkg/");
        let parts: Vec<&str> = name.split('.').collect();
        assert!(
            parts.len() == 3 && parts[0].starts_with("tally") && parts[1].len() >= 8,
            "{link} carries a content hash"
        );

        for (encoding, expected) in [("br", "br"), ("gzip", "gzip")] {
            let response = client
                .get(server.url(link))
                .header(ACCEPT_ENCODING, encoding)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{link}");
            assert_eq!(
                response.headers()[CACHE_CONTROL],
                "public, max-age=31536000, immutable"
            );
            assert_eq!(response.headers()[CONTENT_ENCODING], expected, "{link}");
        }
    }
    let wasm = client
        .get(server.url(links.iter().find(|l| l.ends_with(".wasm")).unwrap()))
        .send()
        .await
        .unwrap();
    assert_eq!(wasm.headers()[CONTENT_TYPE], "application/wasm");
    assert!(wasm.bytes().await.unwrap().starts_with(b"\0asm"));

    let favicon = reqwest::get(server.url("/favicon.ico")).await.unwrap();
    assert_eq!(favicon.status(), StatusCode::OK);
    assert!(server.stop().success());
}
