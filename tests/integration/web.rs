//! The answering API and the server-rendered answer pages: answers on the real data sets are
//! stored in PostgreSQL with their questions, feedback attaches to them, pages read without
//! JavaScript under a strict CSP, and bad input or too many requests get a clear 4xx.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{demo_server, scratch_dir, Server};

/// A Stresstest question with its gold count (../shared/data/coqex/stresstest_v1).
const QUESTION: &str = "how many songs did paul mccartney write for the beatles";
const GOLD: f64 = 180.0;

async fn get(server: &Server, path: &str) -> (StatusCode, Value) {
    let response = reqwest::get(server.url(path)).await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

/// An anonymous visitor's id, as the visitor cookie carries it.
const VISITOR: &str = "6b1f3c9e-2d4a-4e8b-9c7d-0a1b2c3d4e5f";

/// [`get`] as the visitor with the cookie `visitor`.
async fn get_as(server: &Server, path: &str, visitor: &str) -> (StatusCode, Value) {
    let response = reqwest::Client::new()
        .get(server.url(path))
        .header("cookie", format!("tally_visitor={visitor}"))
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

fn query(q: &str) -> String {
    q.replace(' ', "+").replace('$', "%24")
}

#[tokio::test]
async fn answers_are_stored_and_take_feedback() {
    let dir = scratch_dir("web-answers");
    let pg = dir.join("pg").display().to_string();
    let server = Server::start(&dir, "server", &["--pg-dir", &pg], &[]).await;
    server.wait_until_answering().await;

    // A dataset count question answers from its stored snippets, right by CoQEx's relaxed
    // precision (min/max of predicted and gold counts ≥ 0.9).
    let (status, count) = get_as(
        &server,
        &format!("/api/count?q={}", query(QUESTION)),
        VISITOR,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{count}");
    let answer = &count["answer"];
    assert_eq!(count["kind"], "count");
    assert_eq!(answer["retrieval"], "prefetched");
    let predicted = answer["count"].as_f64().expect("a count");
    assert!(
        predicted.min(GOLD) / predicted.max(GOLD) >= 0.9 - 1e-12,
        "count {predicted}"
    );
    let shown = format!("{predicted}");
    assert!(answer["cnp_rep"]["text"].as_str().unwrap().contains(&shown));
    let synonyms = answer["groups"]["synonyms"].as_array().unwrap();
    assert!(!synonyms.is_empty(), "CNP synonyms");
    let instance = answer["instances"][0]["name"]
        .as_str()
        .expect("an instance")
        .to_string();
    assert!(answer["snippets"].as_array().unwrap().len() >= 10);
    let answer_id = count["answer_id"].as_i64().expect("stored");

    // Kept to another corpus, the same question finds no stored set there: BM25 over that
    // corpus's snippets.
    let (status, other) = get(
        &server,
        &format!("/api/count?q={}&corpus=nq-count", query(QUESTION)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{other}");
    assert_eq!(other["answer"]["retrieval"], "bm25");
    assert!(!other["answer"]["snippets"].as_array().unwrap().is_empty());

    // Quantity search with value sorting: every hit meets the condition, largest first.
    let (status, search) = get(
        &server,
        "/api/search?q=stadiums+with+a+capacity+of+more+than+80000&sort=value-descending&ranker=qbm25",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{search}");
    assert_eq!(search["kind"], "quantity");
    let hits = search["answer"]["hits"].as_array().unwrap();
    assert!(hits.len() >= 3, "{search}");
    let values: Vec<f64> = hits
        .iter()
        .map(|h| {
            h["matches"][0]["converted"]
                .as_f64()
                .expect("a matched quantity")
        })
        .collect();
    assert!(values.iter().all(|v| *v > 80000.0), "{values:?}");
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");

    // A value question: one value with its evidence; a subject the corpus says nothing about
    // gets no value and a note saying why.
    let (status, value) = get(&server, "/api/value?q=capacity+of+the+Rose+Bowl").await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert_eq!(value["value"], 92542.0, "{value}");
    let evidence = value["observations"][0]["text"].as_str().unwrap();
    assert!(evidence.contains("Rose Bowl"), "{value}");
    let (status, value) = get(&server, "/api/value?q=capacity+of+the+Zorblax+Arena").await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert!(value["value"].is_null(), "{value}");
    assert!(
        value["note"].as_str().unwrap().contains("zorblax arena"),
        "{value}"
    );

    // A page opened by its URL for a new count question says at once what it is doing: the
    // first bytes carry the question in its box, the kind asked for and the stages to come,
    // before the answer (which takes seconds) streams in below.
    let mut page =
        reqwest::get(server.url("/?q=how+many+locks+are+on+the+river+thames&mode=count"))
            .await
            .unwrap();
    let first =
        String::from_utf8_lossy(&page.chunk().await.unwrap().expect("a first chunk")).into_owned();
    assert!(first.contains(r#"id="answering-now""#), "{first}");
    assert!(first.contains("as a count question"));
    assert!(first.contains(r#"value="how many locks are on the river thames""#));
    assert!(
        !first.contains(r#"id="count-value""#),
        "the answer came at once"
    );
    let mut rest = String::new();
    while let Some(chunk) = page.chunk().await.unwrap() {
        rest.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(rest.contains(r#"id="count-value""#), "then the answer");

    // A link carries what its answer's kind uses: a value page asked with count settings and a
    // unit shares the unit and the corpus asked (a value keeps to it, issue 73), not the count
    // settings.
    let page = reqwest::get(
        server
            .url("/?q=capacity+of+the+Rose+Bowl&mode=value&snippets=30&corpus=nq-count&unit=foot"),
    )
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    let share = page
        .split(r#"id="share-link">"#)
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .expect("a share link")
        .replace("&amp;", "&");
    assert!(
        share.contains("mode=value") && share.contains("unit=foot"),
        "{share}"
    );
    assert!(
        !share.contains("snippets=") && share.contains("corpus=nq-count"),
        "{share}"
    );

    // Re-sorting a search is not a new question: the visitor's history keeps one row, which
    // now points at the re-sorted answer.
    let stadiums = "/api/search?q=stadiums+with+a+capacity+of+more+than+70000&ranker=qbm25";
    let (status, first) = get_as(&server, stadiums, VISITOR).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let (status, resorted) = get_as(
        &server,
        &format!("{stadiums}&sort=value-ascending"),
        VISITOR,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{resorted}");
    assert_ne!(first["answer_id"], resorted["answer_id"], "another answer");
    let (_, questions) = get_as(&server, "/api/questions?limit=20", VISITOR).await;
    let rows: Vec<&Value> = questions
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["text"] == "stadiums with a capacity of more than 70000")
        .collect();
    assert_eq!(rows.len(), 1, "{questions}");
    assert_eq!(rows[0]["answer_id"], resorted["answer_id"]);

    // Feedback refers to the stored answer; the history lists the question with the feedback
    // its visitor left (another visitor's on the same shared answer does not count there).
    let post_feedback_as = |visitor: &'static str, token: &'static str| {
        let feedback = json!({
            "answer_id": answer_id,
            "part": "instance",
            "part_ref": instance,
            "verdict": "relevant",
            "client_token": token,
        });
        reqwest::Client::new()
            .post(server.url("/api/feedback"))
            .header("cookie", format!("tally_visitor={visitor}"))
            .json(&feedback)
            .send()
    };
    let response = post_feedback_as(VISITOR, "0d1e2f30-4a5b-4c6d-8e9f-a0b1c2d3e4f5")
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let someone_else = "0e2f3a4b-5c6d-4e7f-8a9b-c0d1e2f3a4b5";
    let response = post_feedback_as(someone_else, "1d1e2f30-4a5b-4c6d-8e9f-a0b1c2d3e4f6")
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let (_, questions) = get_as(&server, "/api/questions?limit=5", VISITOR).await;
    let asked = questions
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["answer_id"] == answer_id)
        .expect("the question is in the history");
    assert_eq!(asked["text"], QUESTION);
    assert_eq!(asked["feedback"], 1);
    assert!(asked["summary"].as_str().unwrap().contains(&shown));

    // The shareable page reads without JavaScript: count, groups, instances and highlighted
    // spans are in the server's HTML, and only scripts with the page's nonce may run.
    let page = reqwest::get(server.url(&format!("/?q={}&mode=count", query(QUESTION))))
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    let html = page.text().await.unwrap();
    assert!(
        html.contains(&format!(r#"id="count-value" class="count-value">{shown}<"#)),
        "count shown"
    );
    assert!(html.contains("class=\"cnp-group group-synonyms\""));
    assert!(html.contains("class=\"instance\""), "instances highlighted");
    assert!(
        html.contains("class=\"count cnp-representative\""),
        "CNP_rep highlighted"
    );
    // Uncertainty in plain words; the internals folded away under "How Tally got this".
    assert!(
        html.contains("likely the count asked for"),
        "likelihoods in words"
    );
    assert!(
        html.contains("the data set&#x27;s snippets for this question")
            || html.contains("the data set's snippets for this question")
    );
    assert!(html.contains(r#"<details class="timings how">"#));
    assert!(!html.contains("CNP_rep:") && !html.contains("span threshold"));
    // The plot's axis has at least three labelled ticks.
    let ticks = html.matches("plot-label plot-tick").count();
    assert!(ticks >= 3, "{ticks} axis labels");
    let nonce = csp
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("the CSP names a nonce");
    assert!(
        csp.contains("default-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    let script_tags: Vec<&str> = html
        .split("<script")
        .skip(1)
        .map(|rest| rest.split('>').next().unwrap_or_default())
        .collect();
    assert!(!script_tags.is_empty());
    for tag in script_tags {
        assert!(
            tag.contains(&format!("nonce=\"{nonce}\"")),
            "<script{tag}> lacks the nonce"
        );
    }

    let (status, spec) = get(&server, "/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    for path in [
        "/api/count",
        "/api/search",
        "/api/value",
        "/api/feedback",
        "/api/questions",
    ] {
        assert!(spec["paths"][path].is_object(), "{path} documented");
    }
    assert!(server.stop().success());
}

#[tokio::test]
async fn bad_questions_and_too_many_requests_get_clear_errors() {
    let server = demo_server("web-limits", &["--rate-limit", "4"]).await;

    let cases = [
        ("/api/count", "give the question"),
        ("/api/count?q=", "give the question"),
        (
            "/api/count?q=how+many+moons&strategy=mean",
            "unknown strategy `mean`",
        ),
        (
            "/api/search?q=phones+under+%24300&ranker=magic",
            "unknown ranker `magic`",
        ),
        ("/api/search?q=phones&alpha=lots", "alpha must be a number"),
        (
            "/api/count?q=how+many+moons&q=how+many+rings",
            "the parameter `q` is given more than once",
        ),
        ("/api/value?q=", "the question is empty"),
        (
            "/api/value?q=how+tall&ranker=bm25",
            "unknown parameter `ranker`",
        ),
        (
            "/api/count?q=how+many+moons&corpus=nope",
            "unknown corpus `nope` (all, demo)",
        ),
    ];
    for (path, message) in cases {
        let (status, body) = get(&server, path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(message),
            "{path}: {body}"
        );
    }
    let long = "a".repeat(501);
    let (status, body) = get(&server, &format!("/api/search?q={long}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("at most 500"),
        "{body}"
    );

    // The demo corpus answers; the fifth answer within a minute is refused with a 429.
    for _ in 0..4 {
        let (status, body) = get(
            &server,
            "/api/count?q=how+many+languages+are+spoken+in+indonesia",
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["answer"]["retrieval"], "prefetched");
    }
    let (status, body) = get(
        &server,
        "/api/count?q=how+many+languages+are+spoken+in+indonesia",
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        body["error"].as_str().unwrap().contains("try again in"),
        "{body}"
    );
    // The page says so too, with the same status.
    let page = reqwest::get(server.url("/?q=phones+under+%24300"))
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(page
        .text()
        .await
        .unwrap()
        .contains("too many questions from your address"));
    assert!(server.stop().success());
}

/// A question that asks for a date, a person or a place is not answered with a count: the page
/// says what Tally answers, with examples; "how large is …" is a value question (issue 47).
#[tokio::test]
async fn the_kind_sentences_say_what_tally_answers() {
    let server = demo_server("web-kinds", &[]).await;
    let page = |q: &str| {
        let url = server.url(&format!("/?q={}", query(q)));
        async move { reqwest::get(url).await.unwrap().text().await.unwrap() }
    };
    let html = page("when was the rose bowl stadium built").await;
    assert!(
        html.contains("it asks when (a date), which Tally does not answer"),
        "{html}"
    );
    assert!(html.contains("how tall is the Eiffel Tower"), "{html}");
    assert!(!html.contains(r#"id="count-value""#), "no count for a date");
    let html = page("how large is Yellowstone National Park").await;
    assert!(html.contains("Answered as a value question"), "{html}");
    assert!(server.stop().success());
}

/// Value questions share the count questions' allowance per address (issue 46: `/api/value`
/// never consulted `--rate-limit`); a refused question does not use it up.
#[tokio::test]
async fn value_questions_are_rate_limited_like_counts() {
    let server = demo_server("web-value-limit", &["--rate-limit", "3"]).await;
    let (status, _) = get(&server, "/api/value?q=").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    for _ in 0..2 {
        let (status, body) = get(&server, "/api/value?q=how+tall+is+the+eiffel+tower").await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // The third answer of the minute is a count; the fourth, a value question, is refused.
    let (status, body) = get(&server, "/api/count?q=how+many+moons+does+mars+have").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = get(&server, "/api/value?q=how+tall+is+the+eiffel+tower").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("try again in"),
        "{body}"
    );
    assert!(server.stop().success());
}

/// The theme switch and the remembered settings: cookies the server writes and reads, so both
/// work without JavaScript; bad values are refused or ignored, shared URLs never change.
#[tokio::test]
async fn themes_and_settings_are_remembered_in_cookies() {
    let server = demo_server("web-cookies", &[]).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let host = server.base_url.trim_start_matches("http://").to_string();

    // Dark theme chosen on the history page: back there, with the cookie.
    let response = client
        .post(server.url("/theme"))
        .header("referer", server.url("/history"))
        .form(&[("theme", "dark")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/history");
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with("tally_theme=dark;"), "{cookie}");
    let page = client
        .get(server.url("/history"))
        .header("cookie", "tally_theme=dark")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains(r#"<html lang="en" data-theme="dark""#),
        "{}",
        &page[..300]
    );
    let page = client
        .get(server.url("/history"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!page.contains("data-theme"), "no cookie, no forced theme");
    // "Auto" forgets the choice; a made-up theme is refused with a sentence.
    let response = client
        .post(server.url("/theme"))
        .header("referer", format!("http://evil.example/{host}"))
        .form(&[("theme", "system")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["location"], "/");
    assert!(response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .contains("Max-Age=0"));
    let response = client
        .post(server.url("/theme"))
        .form(&[("theme", "purple")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response
        .text()
        .await
        .unwrap()
        .contains("unknown theme `purple`"));

    // A question answered with other settings keeps them in a cookie…
    let response = client
        .get(server.url("/?q=how+many+moons+does+mars+have&snippets=20&strategy=most-frequent"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let saved = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("tally_settings="))
        .expect("settings cookie");
    assert!(
        saved.starts_with("tally_settings=snippets=20&strategy=most-frequent;"),
        "{saved}"
    );
    let value = saved.split(';').next().unwrap().to_string();
    // …the bare home page continues from them, in the URL…
    let response = client
        .get(server.url("/"))
        .header("cookie", &value)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        response.headers()["location"],
        "/?snippets=20&strategy=most-frequent"
    );
    let page = client
        .get(server.url("/?snippets=20&strategy=most-frequent"))
        .header("cookie", &value)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains(
            r#"name="snippets" id="setting-snippets" min="1" max="1000" step="1" value="20""#
        ),
        "the panel shows the remembered snippets"
    );
    // The corpus setting offers the loaded corpora.
    assert!(page.contains(r#"<option value="demo""#), "corpus choices");
    // …a shared URL is left alone, and Reset forgets them. A broken cookie is ignored.
    let shared = client
        .get(server.url("/?q=how+many+moons+does+mars+have"))
        .header("cookie", &value)
        .send()
        .await
        .unwrap();
    assert_eq!(shared.status(), StatusCode::OK);
    let reset = client
        .get(server.url("/?reset-settings"))
        .header("cookie", &value)
        .send()
        .await
        .unwrap();
    assert_eq!(reset.headers()["location"], "/");
    assert!(reset.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .contains("Max-Age=0"));
    let broken = client
        .get(server.url("/"))
        .header("cookie", "tally_settings=theta=lots")
        .send()
        .await
        .unwrap();
    assert_eq!(broken.status(), StatusCode::OK);
    assert!(server.stop().success());
}

/// The answer stream: each finished stage of the count pipeline as a server-sent event, then the
/// stored answer; a cached answer has no stages; a failure is an event too.
#[tokio::test]
async fn answers_stream_their_stages() {
    let server = demo_server("web-stream", &[]).await;

    /// (event, data) pairs of a whole event stream.
    async fn events(server: &Server, path: &str) -> Vec<(String, Value)> {
        let response = reqwest::get(server.url(path)).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream"));
        let body = response.text().await.unwrap();
        body.split("\n\n")
            .filter_map(|block| {
                let field = |name: &str| {
                    block
                        .lines()
                        .find_map(|l| l.strip_prefix(name).map(|v| v.trim().to_string()))
                };
                Some((
                    field("event:")?,
                    serde_json::from_str(&field("data:")?).unwrap(),
                ))
            })
            .collect()
    }

    let path = "/api/answer/stream?q=how+many+moons+does+mars+have";
    let first = events(&server, path).await;
    let names: Vec<&str> = first.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(
        names,
        ["stage", "stage", "stage", "stage", "stage", "stage", "answer"]
    );
    let stages: Vec<&str> = first[..6]
        .iter()
        .map(|(_, d)| d["stage"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        [
            "retrieval",
            "analysis",
            "span scoring",
            "consolidation",
            "contextualization",
            "instances"
        ]
    );
    assert!(first[..6]
        .iter()
        .all(|(_, d)| d["ms"].as_f64().unwrap() >= 0.0));
    let answer = &first[6].1;
    // The `/api/count` reply's shape, with the question as asked.
    assert_eq!(answer["kind"], "count");
    assert_eq!(answer["answer"]["count"], 2.0, "{answer}");
    assert_eq!(answer["ask"]["q"], "how many moons does mars have");
    assert!(answer["answer_id"].as_i64().is_some(), "stored: {answer}");

    // The same question again comes from the cache: the answer alone, the stored one.
    let again = events(&server, path).await;
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].0, "answer");
    assert_eq!(again[0].1["answer_id"], answer["answer_id"]);

    // A question that cannot be answered is a plain 400 before any event.
    let long = format!("/api/answer/stream?q={}", "a".repeat(501));
    let (status, body) = get(&server, &long).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().contains("at most 500"));
    // No question at all is a plain 400.
    let (status, body) = get(&server, "/api/answer/stream").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(server.stop().success());
}

#[tokio::test]
async fn the_admin_token_never_reaches_the_request_log() {
    let token = "log-test-secret-token";
    let server = demo_server("web-log-secrets", &["--admin-token", token]).await;
    for path in [
        format!("/api/questions?token={token}"),
        format!("/study/export?format=csv&token={token}"),
        format!("/admin?token={token}"),
    ] {
        let _ = reqwest::get(server.url(&path)).await.unwrap();
    }
    let log = server.log_text();
    assert!(
        log.contains("token=[redacted]"),
        "the requests are logged: {log}"
    );
    assert!(!log.contains(token), "the token is in the log");
    assert!(server.stop().success());
}

#[tokio::test]
async fn an_oversized_server_function_request_is_413_not_500() {
    let server = demo_server("web-server-fn-limit", &[]).await;
    let response = reqwest::Client::new()
        .post(server.url("/_server/answer_question"))
        .header("content-type", "application/x-www-form-urlencoded")
        // Four times the limit: over it, yet small enough to sit in the socket's buffers, so
        // that the server's early 413 and close do not break the client's write (3 MB did,
        // under a loaded test run).
        .body(format!("ask[q]={}", "a".repeat(256 * 1024)))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("at most 65536 are accepted"),
        "{body}"
    );
    assert!(server.stop().success());
}

#[tokio::test]
async fn a_server_function_with_unreadable_arguments_is_400_not_500() {
    let server = demo_server("web-server-fn-args", &[]).await;
    let call = |body: &'static str| {
        reqwest::Client::new()
            .post(server.url("/_server/recent_questions"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let response = call("limit=5").await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    for bad in ["limit=many", "nothing=1"] {
        let response = call(bad).await.unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{bad}");
        let body = response.text().await.unwrap();
        assert!(body.starts_with("Args|"), "{bad}: {body}");
    }
    assert!(server.stop().success());
}

/// Every page has its own `<title>`, exactly one `<h1>`, the description, and a skip link to
/// the content (issue 33); the answer page's heading is its question.
#[tokio::test]
async fn every_page_has_its_title_one_heading_and_a_skip_link() {
    let server = demo_server("page-chrome", &["--admin-token", "chrome-token"]).await;
    let mut titles = Vec::new();
    for path in [
        "/",
        "/?q=how+many+moons+does+saturn+have",
        "/history",
        "/status",
        "/study",
        "/study/summary",
        "/admin",
        "/no/such/page",
    ] {
        let page = reqwest::get(server.url(path))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let title = page
            .split("<title>")
            .nth(1)
            .and_then(|rest| rest.split("</title>").next())
            .unwrap_or_else(|| panic!("{path} has no title"))
            .to_string();
        assert_eq!(page.matches("<h1").count(), 1, "{path}: one <h1>");
        assert!(page.contains(r##"href="#main""##), "{path}: skip link");
        assert!(page.contains(r#"<main id="main""#), "{path}: its target");
        assert!(
            page.contains(r#"name="description""#),
            "{path}: description"
        );
        titles.push(title);
    }
    assert!(
        titles[1].starts_with("how many moons does saturn have"),
        "{titles:?}"
    );
    let mut distinct = titles.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), titles.len(), "{titles:?}");
}

/// Markup in a question stays text everywhere the page writes it: the title, the heading, the
/// form and the history (issue 46: the title wrote it as it was, so a shared link could carry a
/// meta refresh).
#[tokio::test]
async fn markup_in_a_question_never_becomes_an_element() {
    let server = demo_server("web-markup", &[]).await;
    let question = r#"how many moons </title><meta http-equiv="refresh" content="0;url=https://example.org/"><b id="injected">x</b><script>alert(1)</script>"#;
    let client = reqwest::Client::new();
    let visitor = "3f1c7a52-8d0e-4b4e-9a47-6f1f0b6a2c11";
    let page = |path: String| {
        let request = client
            .get(server.url(&path))
            .header("cookie", format!("tally_visitor={visitor}"));
        async move { request.send().await.unwrap().text().await.unwrap() }
    };
    // Every byte but letters and digits percent-encoded, so the question arrives exactly.
    let encoded: String = question
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    let asked = format!("/?q={encoded}&mode=count");
    for path in [asked.clone(), "/history".to_string()] {
        let html = page(path.clone()).await;
        assert!(
            html.contains("how many moons"),
            "{path}: the question is shown"
        );
        for element in ["<meta http-equiv", "<b id=", "<script>alert"] {
            assert!(!html.contains(element), "{path}: {element} in\n{html}");
        }
        assert_eq!(html.matches("</title>").count(), 1, "{path}");
    }
    let html = page(asked).await;
    let title = html
        .split("<title>")
        .nth(1)
        .and_then(|rest| rest.split("</title>").next())
        .unwrap();
    assert!(
        title.starts_with("how many moons &lt;/title&gt;&lt;meta"),
        "{title}"
    );
    assert!(server.stop().success());
}

/// A question the corpus does not answer gets a short page: the reason once, what to try, the
/// closest evidence folded away, and no form to correct an answer that was not given.
#[tokio::test]
async fn no_answer_is_a_short_page_that_says_what_to_try() {
    let server = demo_server("no-answer", &[]).await;
    let base = server.base_url.clone();
    let page = |path: String| {
        let url = format!("{base}{path}");
        async move { reqwest::get(url).await.unwrap().text().await.unwrap() }
    };
    let count = page(format!(
        "/?q={}&mode=count",
        query("how many bridges cross the river thames")
    ))
    .await;
    assert!(count.contains(r#"class="count-value none""#), "no count");
    assert!(count.contains(r#"id="what-to-try""#));
    assert!(count.contains(r#"class="closest-evidence""#));
    assert!(
        !count.contains(r#"class="count-plot""#),
        "no plot without an answer"
    );
    // Nothing to correct, but a person who knows the count can teach it (issue 73).
    assert!(count.contains(r#"id="know-answer""#), "I know the answer");
    assert!(count.contains("Send the right count"));
    // The reason does not say the headline again.
    if let Some(reason) = count.split(r#"id="abstention">"#).nth(1) {
        assert!(
            !reason.starts_with("No reliable answer"),
            "{}",
            &reason[..80]
        );
    }
    let value = page(format!(
        "/?q={}&mode=value",
        query("how heavy is a zorblax")
    ))
    .await;
    assert!(value.contains("No value found in this corpus"));
    assert!(value.contains(r#"id="what-to-try""#));
    assert!(
        !value.contains(r#"id="evidence-title""#),
        "no empty evidence"
    );
}
