//! A public demo attacked a fifth time (issue 70): a CSV a million columns wide, HTML whose
//! layout runs away, uploads whose clients leave, a flooded review queue, admin forms posted
//! from another origin, two corrections accepted at one moment, a visitor's comment published
//! as the verified note, and a verified answer shown over a corpus it was not judged on. Each
//! check is bounded and runs on loopback.

use std::time::{Duration, Instant};

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{demo_server, quoted_after, scratch_dir, upload, Server, ADMIN_TOKEN};

const QUESTION: &str = "how many moons does mars have";

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn count(server: &Server, query: &str) -> Value {
    let response = reqwest::get(server.url(&format!("/api/count?{query}")))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

/// `POST /api/feedback` from 127.0.0.`from` as the visitor with cookie `visitor` (none: no
/// cookie).
async fn feedback(
    server: &Server,
    from: u8,
    visitor: Option<&str>,
    body: &Value,
) -> (StatusCode, Value) {
    let client = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from([127, 0, 0, from]))
        .build()
        .unwrap();
    let mut request = client.post(server.url("/api/feedback"));
    if let Some(visitor) = visitor {
        request = request.header("cookie", format!("tally_visitor={visitor}"));
    }
    let response = request.json(body).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

async fn admin_get(server: &Server, path: &str) -> (StatusCode, String) {
    let response = reqwest::Client::new()
        .get(server.url(path))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    (response.status(), response.text().await.unwrap())
}

async fn accept(server: &Server, feedback_id: i64, note: Option<&str>) -> (StatusCode, Value) {
    let mut body = json!({"decision": "accepted"});
    if let Some(note) = note {
        body["note"] = json!(note);
    }
    let response = reqwest::Client::new()
        .post(server.url(&format!("/api/admin/review/{feedback_id}")))
        .bearer_auth(ADMIN_TOKEN)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Items 1-3: documents past the reading bounds are refused with a sentence, at once, and
/// nothing is stored; an upload whose client left stops its reading and holds the next upload's
/// turn only until then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wide_tables_runaway_pages_and_abandoned_uploads() {
    let server = demo_server("round-five-uploads", &["--admin-token", ADMIN_TOKEN]).await;

    // 1. The 1.9 MB CSV whose header of 1,000,000 columns stopped the server.
    let mut wide = vec!["h"; 1_000_000].join(",");
    wide.push('\n');
    wide.push_str(&"5\n".repeat(200));
    let (status, body, took) = upload(&server, "wide", "w.csv", wide.into_bytes()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let why = body["error"].as_str().unwrap_or_default();
    assert!(why.contains("w.csv") && why.contains("columns"), "{body}");
    assert!(took < 10.0, "refused after {took} s");
    // The same bound for a Markdown table.
    let markdown = format!(
        "|{}|\n|{}|\n{}",
        "h|".repeat(5_000),
        "-|".repeat(5_000),
        "|5|\n".repeat(200)
    );
    let (status, body, _) = upload(&server, "wide", "w.md", markdown.into_bytes()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    // 2. Pages whose layout grew faster than the square (46 s and 430 s before).
    for (name, page) in [
        ("tables.html", "<b><i><table><tr><td>".repeat(1000)),
        ("divs.html", "<div><p>".repeat(2000)),
    ] {
        let (status, body, took) = upload(&server, "deep", name, page.into_bytes()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap_or_default()
                .contains("nested"),
            "{body}"
        );
        assert!(took < 10.0, "{name} refused after {took} s");
    }
    let (status, corpora) = admin_get(&server, "/api/admin/corpora").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        !corpora.contains("\"wide\"") && !corpora.contains("\"deep\""),
        "{corpora}"
    );

    // 3. An upload whose client leaves while it is read. First how long a whole one takes.
    let lines: String = (0..120_000)
        .map(|i| {
            format!(
                "{{\"title\": \"lot {i}\", \"text\": \"Lot {i} holds {} crates of pears.\"}}\n",
                i % 89 + 1
            )
        })
        .collect();
    let big = lines.into_bytes();
    let (status, body, whole) = upload(&server, "whole", "lots.jsonl", big.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    // Then one whose client gives up a quarter of the way in, and one right after it.
    let leave_after = Duration::from_secs_f64(whole / 4.0);
    let abandoned = {
        let url = server.url("/api/admin/corpora");
        let big = big.clone();
        tokio::spawn(async move {
            let form = Form::new()
                .text("corpus", "gone")
                .part("file", Part::bytes(big).file_name("lots.jsonl"));
            reqwest::Client::new()
                .post(url)
                .bearer_auth(ADMIN_TOKEN)
                .timeout(leave_after)
                .multipart(form)
                .send()
                .await
        })
    };
    assert!(abandoned.await.unwrap().is_err(), "the client left");
    // Its reading stops at its next check (the server says so in its log).
    let deadline = Instant::now() + Duration::from_secs(10);
    while !server
        .log_text()
        .contains("reading lots.jsonl stopped: the upload's client went away")
    {
        assert!(Instant::now() < deadline, "{}", server.log_text());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, body, next) = upload(&server, "after", "a.txt", b"Seats: 48".to_vec()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    // The next upload waited for the abandoned reading to stop, not for it to finish.
    assert!(
        next < whole * 0.75,
        "the next upload took {next:.2} s; a whole one {whole:.2} s"
    );
    // Nothing of the abandoned one was stored (its reading stopped before).
    let (_, corpora) = admin_get(&server, "/api/admin/corpora").await;
    assert!(!corpora.contains("\"gone\""), "{corpora}");
    eprintln!("a whole upload {whole:.2} s; the next after an abandoned one {next:.2} s");
}

/// Items 4-8: feedback floods are bounded, admin forms come from the server's own pages, one of
/// two simultaneous acceptances wins, the verified note is the operator's and holds over the
/// corpus judged, absurd counts are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floods_cross_site_posts_and_verified_answers() {
    let server = demo_server("round-five-review", &["--admin-token", ADMIN_TOKEN]).await;
    let first = count(&server, &format!("q={}", QUESTION.replace(' ', "+"))).await;
    let answer_id = first["answer_id"].as_i64().expect("stored");

    // 4. One address without a cookie: 20 a minute by default, and one visitor however many
    // rows it sends.
    let comment = "x".repeat(4000);
    let flood = json!({"part": "answer", "answer_id": answer_id, "verdict": "wrong",
                       "corrected_value": 7, "comment": comment});
    let mut created = 0;
    let mut refused = None;
    for _ in 0..25 {
        match feedback(&server, 1, None, &flood).await {
            (StatusCode::CREATED, _) => created += 1,
            (StatusCode::TOO_MANY_REQUESTS, body) => {
                refused = Some(body);
                break;
            }
            (status, body) => panic!("{status}: {body}"),
        }
    }
    assert_eq!(created, 20, "the default feedback limit");
    assert!(refused.is_some());
    let (status, queue) = admin_get(&server, "/api/admin/review?limit=1").await;
    assert_eq!(status, StatusCode::OK);
    assert!(queue.len() < 20_000, "{} bytes for limit=1", queue.len());
    let queue: Value = serde_json::from_str(&queue).unwrap();
    let opinion = &queue[0]["opinions"][0];
    assert_eq!(opinion["visitors"], 1, "{opinion}");
    assert_eq!(opinion["rows"], 20);
    assert_eq!(opinion["comment_count"], 20);
    assert_eq!(opinion["comments"].as_array().unwrap().len(), 1);
    assert_eq!(opinion["feedback_ids"].as_array().unwrap().len(), 1);
    let flooded_id = opinion["feedback_ids"][0].as_i64().unwrap();
    let (status, rest) = admin_get(&server, "/api/admin/review?limit=1&offset=1").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(rest, "[]");
    let (status, _) = admin_get(&server, "/api/admin/review?offset=-1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The page shows the first ten comments and says how many more there are.
    let (_, page) = admin_get(&server, &format!("/admin/review?token={ADMIN_TOKEN}")).await;
    assert!(page.contains("and 10 more"), "{page}");
    assert!(page.len() < 200_000, "{} bytes", page.len());

    // 5. Admin forms: from another origin refused even with the login cookie; from the page
    // only with its form token.
    let client = no_redirects();
    let login = client
        .post(server.url("/admin/login"))
        .form(&[("token", ADMIN_TOKEN), ("next", "/admin/review")])
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::SEE_OTHER);
    let cookie = login.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let page = client
        .get(server.url("/admin/review"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let form_token = quoted_after(&page, "name=\"form_token\" value=\"").expect("a form token");
    assert!(form_token.len() >= 32, "{form_token}");
    let reject = |origin: Option<&'static str>, site: Option<&'static str>, token: &str| {
        let mut request = client
            .post(server.url(&format!("/admin/review/{flooded_id}")))
            .header("cookie", &cookie)
            .form(&[("decision", "rejected"), ("form_token", token)]);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        if let Some(site) = site {
            request = request.header("sec-fetch-site", site);
        }
        request.send()
    };
    for (origin, site) in [
        (Some("http://evil.example"), Some("cross-site")),
        (Some("http://evil.example"), None),
        (None, Some("same-site")),
    ] {
        let response = reject(origin, site, &form_token).await.unwrap();
        assert_eq!(
            response.status(),
            StatusCode::FORBIDDEN,
            "{origin:?} {site:?}"
        );
        let body = response.text().await.unwrap();
        assert!(body.contains("own pages"), "{body}");
    }
    let own_origin = server.base_url.clone();
    let own = Box::leak(own_origin.into_boxed_str());
    let response = reject(Some(own), Some("same-origin"), "forged")
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(response.text().await.unwrap().contains("reload the page"));
    // Still pending after all of them.
    let (_, queue) = admin_get(&server, "/api/admin/review").await;
    assert!(queue.contains(&format!("[{flooded_id}")), "{queue}");
    let response = reject(Some(own), Some("same-origin"), &form_token)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let (_, queue) = admin_get(&server, "/api/admin/review").await;
    assert!(!queue.contains(&format!("[{flooded_id}")), "{queue}");

    // 8. Absurd corrections are refused at the API; the page's form says where the bound is.
    let (status, body) = feedback(
        &server,
        2,
        Some("6e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a61"),
        &json!({"part": "answer", "answer_id": answer_id, "verdict": "wrong",
                "corrected_value": 1e300}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    // 6. Two different corrections accepted at the same moment: one wins, the other is 409.
    let mut ids = Vec::new();
    for (visitor, value) in [
        ("6e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a62", 2),
        ("6e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a63", 3),
    ] {
        let (status, row) = feedback(
            &server,
            3,
            Some(visitor),
            &json!({"part": "answer", "answer_id": answer_id, "verdict": "wrong",
                    "corrected_value": value, "comment": "visit http://spam.example"}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{row}");
        ids.push(row["id"].as_i64().unwrap());
    }
    let note = "Checked against the atlas";
    let (a, b) = tokio::join!(
        accept(&server, ids[0], Some(note)),
        accept(&server, ids[1], Some(note))
    );
    let statuses = [a.0, b.0];
    assert!(
        statuses.contains(&StatusCode::OK)
            && statuses
                .iter()
                .all(|s| *s == StatusCode::OK || *s == StatusCode::CONFLICT),
        "{a:?} {b:?}"
    );
    for (status, body) in [&a, &b] {
        if *status == StatusCode::CONFLICT {
            assert!(
                body["error"].as_str().unwrap().contains("same moment"),
                "{body}"
            );
        }
    }

    // 7. The verified note is the operator's, never the visitor's comment; it holds over the
    // corpus the answer was judged on (every corpus here), not over an uploaded one.
    let asked = count(&server, &format!("q={}", QUESTION.replace(' ', "+"))).await;
    let verified = &asked["verified"];
    assert_eq!(verified["note"], note, "{verified}");
    assert_eq!(verified["corpus"], "all");
    assert!(!asked.to_string().contains("spam.example"));
    let (status, body, _) = upload(
        &server,
        "club",
        "club.txt",
        b"The club has 3 boats and 48 members.".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // Listed once its first step is indexed; asked about once it is whole.
        let (_, corpora) = admin_get(&server, "/api/admin/corpora").await;
        let rows: Value = serde_json::from_str(&corpora).unwrap_or(Value::Null);
        let indexed =
            rows.as_array().into_iter().flatten().any(|row| {
                row["name"] == "club" && row["indexing"] == false && row["snippets"] != 0
            });
        if indexed {
            break;
        }
        assert!(Instant::now() < deadline, "{corpora}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let over_club = count(
        &server,
        &format!("q={}&corpus=club", QUESTION.replace(' ', "+")),
    )
    .await;
    assert!(
        over_club.get("verified").is_none(),
        "{}",
        over_club["verified"]
    );
    assert!(server.stop().success());
}

/// Item 9: a private cluster is stopped however its holder ends, a panic included.
#[tokio::test]
async fn a_private_cluster_is_stopped_when_its_holder_ends() {
    let dir = scratch_dir("round-five-cluster");
    let pid_file = dir.join("pg").join("data").join("postmaster.pid");
    {
        let cluster = tally_store::pg_cluster::PrivateCluster::start(&dir.join("pg"))
            .await
            .expect("a private PostgreSQL starts");
        assert!(
            cluster.owned() && pid_file.is_file(),
            "{}",
            pid_file.display()
        );
        // Dropped here without stop().
    }
    assert!(!pid_file.exists(), "stopped when dropped");
    let pg = dir.join("pg");
    let panicked = tokio::spawn(async move {
        let _cluster = tally_store::pg_cluster::PrivateCluster::start(&pg)
            .await
            .expect("starts again");
        panic!("a test that fails while holding its cluster");
    })
    .await;
    assert!(panicked.is_err());
    assert!(!pid_file.exists(), "stopped when its task panicked");
}
