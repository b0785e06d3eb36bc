//! Count questions answered from web snippets: a small search server started by the test answers
//! in SearXNG's and in Brave's format (the recorded examples in tests/fixtures/web), and then
//! fails in each way a real one can. The answer names the stored snippet set, a repeated question
//! reuses it, and every failure is shown in the answer and on the status panel, with the local
//! corpus answering instead.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::Value;

use crate::support::{page_text, scratch_dir, Server};

const SEARXNG_RECORDED: &str = include_str!("../fixtures/web/searxng-jupiter-moons.json");
const BRAVE_RECORDED: &str = include_str!("../fixtures/web/brave-jupiter-moons.json");
const BRAVE_RATE_LIMITED: &str = include_str!("../fixtures/web/brave-rate-limited.json");
const BRAVE_QUOTA: &str = include_str!("../fixtures/web/brave-quota.json");
const BRAVE_KEY: &str = "test-key-4f1d0c";
/// The web servers' admin token.
const WEB_ADMIN: &str = "web-admin-5e2a";
/// The servers' web search time limit; the slow mode waits longer.
const TIMEOUT_MS: u64 = 1500;

/// How the fake search server answers next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    Recorded,
    Slow,
    RateLimited,
    Quota,
    ServerError,
    Malformed,
    /// SearXNG's answer when the instance does not allow `format=json`.
    Forbidden,
    /// The recorded answer with its first results' links turned into `javascript:` and `data:`.
    HostileLinks,
}

/// The recorded SearXNG answer with hostile links in its first two results (issue 57).
fn searxng_hostile_links() -> String {
    let mut recorded: Value = serde_json::from_str(SEARXNG_RECORDED).unwrap();
    let results = recorded["results"].as_array_mut().unwrap();
    results[0]["url"] = "javascript:alert(document.cookie)".into();
    results[1]["url"] = "data:text/html,<script>alert(1)</script>".into();
    recorded.to_string()
}

#[derive(Clone)]
pub(crate) struct Fake {
    mode: Arc<Mutex<Mode>>,
    requests: Arc<AtomicUsize>,
    /// The last request's query string.
    last_query: Arc<Mutex<String>>,
}

impl Fake {
    /// Starts the fake search server; its base URL.
    pub(crate) async fn start() -> (Fake, String) {
        let fake = Fake {
            mode: Arc::new(Mutex::new(Mode::Recorded)),
            requests: Arc::new(AtomicUsize::new(0)),
            last_query: Arc::new(Mutex::new(String::new())),
        };
        let app = Router::new()
            .route("/search", get(searxng))
            .route("/res/v1/web/search", get(brave))
            .with_state(fake.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        (fake, url)
    }

    pub(crate) fn set(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    pub(crate) fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }

    async fn seen(&self, uri: &axum::http::Uri) -> Mode {
        self.requests.fetch_add(1, Ordering::SeqCst);
        *self.last_query.lock().unwrap() = uri.query().unwrap_or_default().to_string();
        let mode = *self.mode.lock().unwrap();
        if mode == Mode::Slow {
            tokio::time::sleep(Duration::from_millis(TIMEOUT_MS * 2)).await;
        }
        mode
    }
}

fn json(status: StatusCode, body: &'static str) -> Response {
    (status, [("content-type", "application/json")], body).into_response()
}

async fn searxng(State(fake): State<Fake>, uri: axum::http::Uri) -> Response {
    match fake.seen(&uri).await {
        Mode::Recorded | Mode::Slow => json(StatusCode::OK, SEARXNG_RECORDED),
        Mode::RateLimited | Mode::Quota => {
            (StatusCode::TOO_MANY_REQUESTS, "Too Many Requests").into_response()
        }
        Mode::ServerError => (StatusCode::BAD_GATEWAY, "upstream failed").into_response(),
        Mode::Malformed => json(StatusCode::OK, r#"{"results": [{"title": "no url"#),
        Mode::Forbidden => (StatusCode::FORBIDDEN, "403 Forbidden").into_response(),
        Mode::HostileLinks => (
            StatusCode::OK,
            [("content-type", "application/json")],
            searxng_hostile_links(),
        )
            .into_response(),
    }
}

async fn brave(State(fake): State<Fake>, uri: axum::http::Uri, headers: HeaderMap) -> Response {
    let mode = fake.seen(&uri).await;
    if headers
        .get("x-subscription-token")
        .and_then(|v| v.to_str().ok())
        != Some(BRAVE_KEY)
    {
        return (StatusCode::UNAUTHORIZED, "missing key").into_response();
    }
    match mode {
        Mode::Recorded | Mode::Slow => json(StatusCode::OK, BRAVE_RECORDED),
        Mode::RateLimited => {
            let mut response = json(StatusCode::TOO_MANY_REQUESTS, BRAVE_RATE_LIMITED);
            response
                .headers_mut()
                .insert("retry-after", "1".parse().unwrap());
            response
        }
        Mode::Quota => json(StatusCode::TOO_MANY_REQUESTS, BRAVE_QUOTA),
        Mode::ServerError => (StatusCode::SERVICE_UNAVAILABLE, "").into_response(),
        Mode::Malformed => json(StatusCode::OK, "<html>not json</html>"),
        Mode::Forbidden | Mode::HostileLinks => (StatusCode::FORBIDDEN, "").into_response(),
    }
}

fn query(question: &str) -> String {
    question.replace(' ', "+")
}

pub(crate) async fn ask_web(server: &Server, question: &str) -> Value {
    let response = reqwest::get(server.url(&format!(
        "/api/count?q={}&snippet_source=web",
        query(question)
    )))
    .await
    .unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, reqwest::StatusCode::OK, "{body}");
    body["answer"].clone()
}

/// The web search's status as the admin sees it (anyone else is not told its address).
async fn web_status(server: &Server) -> Value {
    let health: Value = reqwest::Client::new()
        .get(server.url("/api/health"))
        .bearer_auth(WEB_ADMIN)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    health["web_search"].clone()
}

async fn web_server(name: &str, provider: &str, url: &str, env: &[(&str, &str)]) -> Server {
    let dir = scratch_dir(name);
    let empty = dir.join("no-data");
    std::fs::create_dir_all(&empty).unwrap();
    let pg = dir.join("pg").display().to_string();
    let data = empty.display().to_string();
    let timeout = TIMEOUT_MS.to_string();
    let args = [
        "--pg-dir",
        &pg,
        "--data",
        &data,
        "--web-search",
        provider,
        "--web-search-url",
        url,
        "--web-search-timeout-ms",
        &timeout,
        "--admin-token",
        WEB_ADMIN,
    ];
    let server = Server::start(&dir, "server", &args, env).await;
    server.wait_until_answering().await;
    server
}

/// Checks that a web-sourced answer failed with `expected` in its reason, fell back to the
/// corpus, and that the status panel shows the source failing with the same reason.
async fn assert_falls_back(server: &Server, question: &str, expected: &str) {
    let answer = ask_web(server, question).await;
    let origin = &answer["origin"];
    let failure = origin["failure"].as_str().unwrap_or_default();
    assert!(
        failure.contains(expected),
        "expected “{expected}”: {origin}"
    );
    assert_eq!(origin["source"], "corpus", "{origin}");
    assert_ne!(answer["retrieval"], "web");
    assert!(answer["snippets"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["link"].is_null()));
    let status = web_status(server).await;
    assert_eq!(status["state"], "failing", "{status}");
    assert!(
        status["last_error"].as_str().unwrap().contains(expected),
        "{status}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searxng_snippets_answer_unseen_questions_and_failures_are_shown() {
    let (fake, url) = Fake::start().await;
    let server = web_server("web-searxng", "searxng", &url, &[]).await;
    let status = web_status(&server).await;
    assert_eq!(status["provider"], "searxng");
    assert_eq!(status["state"], "unused");
    assert_eq!(status["endpoint"], format!("{url}/search"));
    // Anyone else sees the search's state, not where it is (issue 57).
    let public: Value = reqwest::get(server.url("/api/health"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(public["web_search"]["state"], "unused");
    assert_eq!(public["web_search"]["endpoint"], "");
    assert!(!public.to_string().contains(&url), "{public}");
    // Its API document offers the web parameters (a server without a web search does not).
    let spec: Value = reqwest::get(server.url("/api/openapi.json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let parameters = spec["paths"]["/api/count"]["get"]["parameters"].to_string();
    assert!(parameters.contains("snippet_set"));
    assert!(parameters.contains(r#"["corpus","web"]"#), "{parameters}");
    // The settings offer "Snippets from the web" on a server that has a web search.
    let home = page_text(server.url("/")).await;
    assert!(home.contains(r#"id="setting-snippet-source""#));
    assert!(home.contains("the web (searxng)"));

    // A question the bundled corpora know nothing about, answered from the fetched snippets.
    let question = "how many moons does jupiter have";
    let answer = ask_web(&server, question).await;
    assert_eq!(fake.requests(), 1);
    let asked = fake.last_query.lock().unwrap().clone();
    assert!(
        asked.contains("format=json") && asked.contains("jupiter"),
        "{asked}"
    );
    assert_eq!(answer["count"], 95.0, "{answer}");
    assert_eq!(answer["retrieval"], "web");
    let origin = &answer["origin"];
    assert_eq!(origin["source"], "web");
    assert_eq!(origin["provider"], "searxng");
    assert_eq!(origin["reused"], false);
    assert!(origin["failure"].is_null());
    let set_id = origin["set_id"].as_i64().expect("the set was stored");
    let snippets = answer["snippets"].as_array().unwrap();
    assert_eq!(snippets.len(), 8);
    assert_eq!(
        snippets[0]["link"]["url"],
        "https://science.nasa.gov/jupiter/jupiter-moons/"
    );
    assert_eq!(snippets[0]["link"]["published"], "2024-03-14T00:00:00");
    assert_eq!(snippets[0]["link"]["title"], "Jupiter Moons - NASA Science");
    assert_eq!(answer["timings"][0]["stage"], "web search");
    assert_eq!(web_status(&server).await["state"], "ok");

    // Asked again (in other spelling): the stored set is reused, no new search.
    let again = ask_web(&server, "How many  moons does Jupiter have").await;
    assert_eq!(fake.requests(), 1, "the stored snippet set is reused");
    assert_eq!(again["origin"]["set_id"], set_id);
    assert_eq!(again["origin"]["reused"], true);
    assert_eq!(again["count"], 95.0);

    // The answer page says where the snippets came from and links each to its page.
    let html = reqwest::get(server.url(&format!(
        "/?q={}&mode=count&snippet_source=web",
        query(question)
    )))
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    assert!(
        html.contains(&format!(">snippet set {set_id}</a>")),
        "the page names the snippet set"
    );
    assert!(
        html.contains(&format!("snippet_set={set_id}")),
        "the set links to the answer from exactly these snippets"
    );
    assert!(html.contains(r#"href="https://science.nasa.gov/jupiter/jupiter-moons/""#));
    assert!(
        html.contains("2024-03-14T00:00:00"),
        "the snippet's date is shown"
    );

    // Each failure: shown in the answer, which comes from the local corpus instead, and on
    // the status panel.
    let failures = [
        (
            Mode::RateLimited,
            "how many moons does saturn have",
            "HTTP 429",
        ),
        (
            Mode::ServerError,
            "how many moons does uranus have",
            "HTTP 502",
        ),
        (
            Mode::Malformed,
            "how many moons does neptune have",
            "cannot read",
        ),
        (Mode::Forbidden, "how many moons does mars have", "HTTP 403"),
        (
            Mode::Slow,
            "how many moons does pluto have",
            "no answer within 1500 ms",
        ),
    ];
    for (mode, question, expected) in failures {
        fake.set(mode);
        assert_falls_back(&server, question, expected).await;
    }
    let status = web_status(&server).await;
    assert_eq!(status["failures"], 5, "{status}");

    // The page shows the failure too.
    fake.set(Mode::ServerError);
    let html =
        page_text(server.url("/?q=how+many+moons+does+earth+have&mode=count&snippet_source=web"))
            .await;
    assert!(html.contains("failed on its side (HTTP 502). Answered from the local corpus instead."));

    // Results whose links are not web pages are not results: no `javascript:` or `data:` link
    // reaches the answer or the page (issue 57).
    fake.set(Mode::HostileLinks);
    let hostile = "how many moons does jupiter have in all";
    let dropped = ask_web(&server, hostile).await;
    assert_eq!(dropped["origin"]["source"], "web", "{dropped}");
    let kept = dropped["snippets"].as_array().unwrap();
    assert_eq!(kept.len(), 6, "the two hostile results are dropped");
    for snippet in kept {
        let url = snippet["link"]["url"].as_str().unwrap_or_default();
        assert!(url.starts_with("https://"), "{snippet}");
    }
    let html = page_text(server.url(&format!(
        "/?q={}&mode=count&snippet_source=web",
        query(hostile)
    )))
    .await;
    assert!(
        !html.contains("javascript:") && !html.contains("data:text"),
        "a hostile link is on the page"
    );

    // The stored set answers again exactly, without searching, whatever the engine does now.
    let before = fake.requests();
    let exact = reqwest::get(server.url(&format!(
        "/api/count?q={}&snippet_set={set_id}",
        query(question)
    )))
    .await
    .unwrap();
    assert_eq!(exact.status(), reqwest::StatusCode::OK);
    let exact: Value = exact.json().await.unwrap();
    assert_eq!(fake.requests(), before, "no search for a stored set");
    assert_eq!(exact["answer"]["origin"]["set_id"], set_id);
    assert_eq!(exact["answer"]["count"], 95.0);
    assert_eq!(exact["answer"]["snippets"], answer["snippets"]);
    for (path, expected) in [
        (
            format!("/api/count?q=how+many+moons+does+mars+have&snippet_set={set_id}"),
            format!("there is no snippet set {set_id} for this question"),
        ),
        (
            "/api/count?q=how+many+moons&snippet_set=first".to_string(),
            "snippet_set must be a snippet set's number".to_string(),
        ),
    ] {
        let response = reqwest::get(server.url(&path)).await.unwrap();
        assert_eq!(
            response.status(),
            reqwest::StatusCode::BAD_REQUEST,
            "{path}"
        );
        let body: Value = response.json().await.unwrap();
        assert!(
            body["error"].as_str().unwrap().contains(&expected),
            "{body}"
        );
    }

    // Back to normal: the source recovers.
    fake.set(Mode::Recorded);
    let answer = ask_web(&server, "how many moons does jupiter have today").await;
    assert_eq!(answer["origin"]["source"], "web");
    assert_eq!(web_status(&server).await["state"], "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn brave_snippets_need_the_key_and_quota_is_told_from_rate_limit() {
    let (fake, url) = Fake::start().await;
    let server = web_server(
        "web-brave",
        "brave",
        &url,
        &[("TALLY_BRAVE_API_KEY", BRAVE_KEY)],
    )
    .await;
    let answer = ask_web(&server, "how many moons does jupiter have").await;
    let asked = fake.last_query.lock().unwrap().clone();
    assert!(asked.contains("count=20"), "{asked}");
    assert_eq!(answer["count"], 95.0, "{answer}");
    assert_eq!(answer["origin"]["provider"], "brave");
    let snippets = answer["snippets"].as_array().unwrap();
    assert_eq!(snippets.len(), 6);
    assert!(!snippets[0]["text"].as_str().unwrap().contains("<strong>"));

    fake.set(Mode::RateLimited);
    assert_falls_back(
        &server,
        "how many moons does saturn have",
        "retry after 1 s",
    )
    .await;
    fake.set(Mode::Quota);
    assert_falls_back(
        &server,
        "how many moons does uranus have",
        "quota is used up",
    )
    .await;
    fake.set(Mode::ServerError);
    assert_falls_back(&server, "how many moons does neptune have", "HTTP 503").await;

    // The key is sent, never written to the log.
    drop(fake);
    let log = server.log_text();
    assert!(log.contains("web search: brave"), "{log}");
    assert!(!log.contains(BRAVE_KEY), "the key is in the log");
}

#[test]
fn a_web_search_that_cannot_work_stops_the_start_with_a_sentence() {
    let dir = scratch_dir("web-misconfigured");
    let pg = dir.join("pg");
    for (args, expected) in [
        (vec!["--web-search", "brave"], "TALLY_BRAVE_API_KEY"),
        (vec!["--web-search", "searxng"], "--web-search-url"),
        (
            vec![
                "--web-search",
                "searxng",
                "--web-search-url",
                "localhost:8888",
            ],
            "must start with http",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tally"))
            .current_dir(crate::support::workspace_root())
            .arg("serve")
            .arg("--addr")
            .arg(format!("127.0.0.1:{}", crate::support::free_port()))
            .arg("--pg-dir")
            .arg(&pg)
            .args(&args)
            .env_remove("TALLY_BRAVE_API_KEY")
            .env("DATABASE_URL", crate::support::unreachable_database_url())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} started");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
