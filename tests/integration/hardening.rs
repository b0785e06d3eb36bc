//! A public demo attacked a fourth time (issue 57): slow bodies and many connections from one
//! address, costly questions, tokenless uploads with huge fields, login cookies made offline or
//! guessed from many addresses, the token percent-encoded in a URL, a corpus deleted while it is
//! indexed, and two servers started at once on one private cluster that is then stopped.
//! Each check is bounded and runs on loopback.

use std::time::{Duration, Instant};

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpSocket, TcpStream};

use crate::support::{
    demo_server, demo_server_starting, post_feedback, read_until_closed, scratch_dir, Server,
};

const TOKEN: &str = "harden-4f0c";

/// A connection to `server` from the loopback address `from` (127.0.0.1, 127.0.0.2, …).
async fn connect_from(server: &Server, from: [u8; 4]) -> TcpStream {
    let address = server
        .base_url
        .trim_start_matches("http://")
        .parse()
        .unwrap();
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(std::net::SocketAddr::from((from, 0))).unwrap();
    socket.connect(address).await.unwrap()
}

/// What the server sends on `stream` until it closes it (at most `wait`).
async fn read_reply(stream: &mut TcpStream, wait: Duration) -> String {
    read_until_closed(stream, wait).await.0
}

/// A server on the demo corpus with the admin token, not waiting for its corpora.
async fn plain_server(name: &str, args: &[&str]) -> Server {
    let mut all = vec!["--admin-token", TOKEN];
    all.extend_from_slice(args);
    demo_server_starting(name, &all).await
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Items 1, 3, 5 and the NUL name: one server, no trusted proxy.
#[tokio::test]
async fn slow_bodies_crowds_of_connections_tokenless_uploads_and_encoded_tokens() {
    let server = plain_server(
        "hardening-edge",
        &[
            "--body-timeout",
            "2",
            "--header-timeout",
            "30",
            "--connections-per-address",
            "6",
        ],
    )
    .await;

    // 1a. A body sent a byte every half second: each gap is shorter than the body timeout, the
    // whole is not; it is cut off with 408 once its 2 s are over.
    let mut slow = connect_from(&server, [127, 0, 0, 1]).await;
    slow.write_all(
        b"POST /api/feedback HTTP/1.1\r\nHost: tally\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n",
    )
    .await
    .unwrap();
    let started = Instant::now();
    let mut reply = String::new();
    for _ in 0..12 {
        if slow.write_all(b" ").await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        reply = read_reply(&mut slow, Duration::from_millis(1)).await;
        if !reply.is_empty() {
            break;
        }
    }
    if reply.is_empty() {
        reply = read_reply(&mut slow, Duration::from_secs(2)).await;
    }
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "cut off after {:?}",
        started.elapsed()
    );
    drop(slow);

    // 1b. One address holds at most its share of connections; another address is served.
    let mut held = Vec::new();
    for _ in 0..6 {
        held.push(connect_from(&server, [127, 0, 0, 1]).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut one_more = connect_from(&server, [127, 0, 0, 1]).await;
    let refused = read_reply(&mut one_more, Duration::from_secs(5)).await;
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused:?}");
    assert!(refused.contains("too many open connections from your address"));
    let mut other = connect_from(&server, [127, 0, 0, 2]).await;
    other
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: tally\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let health = read_reply(&mut other, Duration::from_secs(10)).await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    drop(held);
    tokio::time::sleep(Duration::from_millis(300)).await;

    // 3. An upload is refused at its first field unless the token came first: a 5 MB `corpus`
    // field before it is never read, and nothing of it comes back.
    let client = no_redirects();
    let corpora = server.url("/api/admin/corpora");
    let huge = "x".repeat(5 * 1024 * 1024);
    for accept in ["application/json", "text/html"] {
        let form = Form::new()
            .text("corpus", huge.clone())
            .text("token", TOKEN);
        match client
            .post(&corpora)
            .header("accept", accept)
            .multipart(form)
            .send()
            .await
        {
            Ok(response) => {
                assert_eq!(response.status(), StatusCode::FORBIDDEN, "{accept}");
                let location = response.headers().get("location").map(|l| l.len());
                assert_eq!(location, None, "{accept}");
                let body = response.text().await.unwrap();
                assert!(body.len() < 1000, "{} bytes", body.len());
                assert!(body.contains("need the admin token"), "{body}");
            }
            // Refused before the body was read: the connection may close while it is sent.
            Err(e) => assert!(e.is_request(), "{e}"),
        }
    }
    // With the token first, short fields are bounded and never echoed, in JSON or in the
    // page's redirect.
    let long_format = "y".repeat(20_000);
    let response = client
        .post(&corpora)
        .multipart(
            Form::new()
                .text("token", TOKEN)
                .text("format", long_format.clone()),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let body = response.text().await.unwrap();
    assert!(
        body.len() < 1000 && body.contains("over 1024 bytes"),
        "{body}"
    );
    let response = client
        .post(&corpora)
        .header("accept", "text/html")
        .multipart(
            Form::new()
                .text("token", TOKEN)
                .text("corpus", "notes")
                .text("format", "y".repeat(1000))
                .part(
                    "file",
                    Part::bytes(b"text".to_vec()).file_name("a.txt".to_string()),
                ),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.contains("unknown+format") || location.contains("unknown%20format"),
        "{location}"
    );
    assert!(
        !location.contains("yyyy") && location.len() < 600,
        "{location}"
    );

    // The smaller one: a corpus name with a NUL byte is a 400 with a sentence, not a 500.
    let response = client
        .delete(server.url("/api/admin/corpora/name%00"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);

    // 5. The token never reaches the log, however its parameter's name is encoded.
    for path in [
        format!("/admin?%74oken={TOKEN}"),
        format!("/api/questions?%54OKEN={TOKEN}"),
        format!("/study/export?format=csv&to%6Ben={TOKEN}"),
    ] {
        let _ = client.get(server.url(&path)).send().await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let log = server.log_text();
    assert!(log.contains("[redacted]"), "the requests were logged");
    assert!(!log.contains(TOKEN), "the token is in the log");

    // 4a. A login cookie made offline the way it used to be (a digest of the token) opens
    // nothing, is cleared, and counts as a wrong token: after ten, even the right token is
    // refused from this address.
    let offline: String = Sha256::digest(format!("tally admin login\n{TOKEN}").as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let forged = client
        .get(&corpora)
        .header("cookie", format!("tally_admin={offline}"))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let cleared = forged.headers().get_all("set-cookie").iter().any(|c| {
        c.to_str()
            .is_ok_and(|c| c.starts_with("tally_admin=;") && c.contains("Max-Age=0"))
    });
    assert!(cleared, "the forged cookie is cleared");
    // One at a time: this address may hold only six connections.
    for i in 0..9 {
        let guess = client
            .get(&corpora)
            .header("cookie", format!("tally_admin=v2.9999999999.{i}.{offline}"))
            .send()
            .await
            .unwrap();
        assert_eq!(guess.status(), StatusCode::FORBIDDEN);
    }
    let throttled = client
        .get(&corpora)
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(throttled.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(server.stop().success());
}

/// Item 4: a login holds, and guesses spread over many addresses close the door for everyone.
#[tokio::test]
async fn logins_are_signed_by_the_server_and_guesses_from_many_addresses_are_bounded() {
    let server = plain_server("hardening-login", &["--trusted-proxy", "127.0.0.1"]).await;
    let client = no_redirects();
    let login = client
        .post(server.url("/admin/login"))
        .header("x-forwarded-for", "198.51.100.50")
        .form(&[("token", TOKEN), ("next", "/admin")])
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::SEE_OTHER);
    let cookie = login.headers()["set-cookie"].to_str().unwrap().to_string();
    let value = cookie
        .strip_prefix("tally_admin=")
        .and_then(|c| c.split(';').next())
        .unwrap()
        .to_string();
    assert!(
        value.starts_with("v2.") && !value.contains(TOKEN),
        "{cookie}"
    );
    let corpora = server.url("/api/admin/corpora");
    let with_cookie = client
        .get(server.url("/api/feedback"))
        .header("x-forwarded-for", "198.51.100.50")
        .header("cookie", format!("tally_admin={value}"))
        .send()
        .await
        .unwrap();
    assert_eq!(with_cookie.status(), StatusCode::OK);

    // Wrong tokens from 200 addresses, one each (each address stays far below its own limit).
    let guesses = (0..200u32).map(|i| {
        client
            .get(&corpora)
            .header("x-forwarded-for", format!("10.57.{}.{}", i / 256, i % 256))
            .bearer_auth(format!("guess-{i}"))
            .send()
    });
    let started = Instant::now();
    for guess in futures_util::future::join_all(guesses).await {
        assert_eq!(guess.unwrap().status(), StatusCode::FORBIDDEN);
    }
    assert!(started.elapsed() < Duration::from_secs(60));
    // Now every address is refused for a while, a fresh one with the right token included.
    let closed = client
        .get(&corpora)
        .header("x-forwarded-for", "203.0.113.77")
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(closed.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(closed.headers().contains_key("retry-after"));
    let body: Value = closed.json().await.unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("admin access is closed"),
        "{body}"
    );
    assert!(server.stop().success());
}

/// Items 2 and 6: a question's cost is bounded for every entry point, and a corpus deleted
/// while it is indexed leaves its job cancelled.
#[tokio::test]
async fn costly_questions_are_refused_and_a_deleted_corpus_cancels_its_job() {
    let server = demo_server("hardening-cost", &["--admin-token", TOKEN]).await;
    let client = no_redirects();
    let costly = "q=how+many+moons+does+mars+have&snippets=1000&instances=reader";
    for path in [
        format!("/api/count?{costly}"),
        format!("/api/answer/stream?{costly}"),
    ] {
        let response = client.get(server.url(&path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{path}");
        let body: Value = response.json().await.unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("at most 100 snippets"),
            "{body}"
        );
    }
    // The page says so too, as a sentence.
    let page = client
        .get(server.url(&format!("/?{costly}&mode=count")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("at most 100 snippets"),
        "the page explains the bound"
    );
    let within = client
        .get(server.url("/api/count?q=how+many+moons+does+mars+have&snippets=100"))
        .send()
        .await
        .unwrap();
    assert_eq!(within.status(), StatusCode::OK);

    // A corpus of 4,000 documents, deleted as soon as it is stored: its job ends cancelled,
    // never "done" with part of its documents.
    let mut jsonl = String::new();
    for i in 0..4000 {
        jsonl.push_str(
            &json!({"title": format!("note {i}"), "text": format!("Depot {i} keeps {} vans and {} bicycles for the town.", i % 17 + 2, i % 5 + 1)})
                .to_string(),
        );
        jsonl.push('\n');
    }
    let form = Form::new().text("corpus", "depots").part(
        "file",
        Part::bytes(jsonl.into_bytes()).file_name("depots.jsonl".to_string()),
    );
    let started = client
        .post(server.url("/api/admin/corpora"))
        .bearer_auth(TOKEN)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), StatusCode::ACCEPTED);
    let job: Value = started.json().await.unwrap();
    let deleted = client
        .delete(server.url("/api/admin/corpora/depots"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::OK);
    let job_url = server.url(&format!("/api/admin/jobs/{}", job["id"].as_str().unwrap()));
    let ended = loop {
        let now: Value = client
            .get(&job_url)
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if now["state"] != "running" {
            break now;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(ended["state"], "cancelled", "{ended}");
    assert!(
        ended["documents_done"].as_u64().unwrap() < ended["documents"].as_u64().unwrap(),
        "{ended}"
    );
    assert!(
        ended["error"].as_str().unwrap().contains("deleted"),
        "{ended}"
    );
    assert!(server.stop().success());
}

/// Item 7: two servers started at once on one private cluster both get it, and when it is
/// stopped under them one of them starts it again.
#[tokio::test]
async fn two_servers_share_a_private_cluster_started_at_once_and_start_it_again() {
    let dir = scratch_dir("hardening-cluster");
    let pg = dir.join("pg");
    let pg_arg = pg.display().to_string();
    let args = ["--pg-dir", pg_arg.as_str()];
    let (first, second) = tokio::join!(
        Server::start(&dir, "first", &args, &[]),
        Server::start(&dir, "second", &args, &[])
    );
    let connected = |server: &Server| {
        let url = server.url("/api/health");
        async move {
            let health: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
            health["database"]["connected"] == true
        }
    };
    for server in [&first, &second] {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !connected(server).await {
            assert!(
                Instant::now() < deadline,
                "no database:\n{}",
                server.log_text()
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let (status, body) =
            post_feedback(server, &json!({"part": "general", "verdict": "correct"})).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }

    // Stopped under them (attached as a third party, which does not own it).
    let cluster = tally_store::pg_cluster::PrivateCluster::start(&pg)
        .await
        .expect("attaches to the running cluster");
    assert!(!cluster.owned());
    cluster.stop().expect("stops");
    let started = Instant::now();
    for server in [&first, &second] {
        while !connected(server).await {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the cluster was not started again:\n{}",
                server.log_text()
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
    let (status, body) =
        post_feedback(&second, &json!({"part": "general", "verdict": "wrong"})).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");

    // Item 10: a row is given back only to the visitor who wrote it (another visitor with the
    // same client_token got the first one's row and comment).
    let as_visitor = |visitor: &str, body: &Value| {
        reqwest::Client::new()
            .post(second.url("/api/feedback"))
            .header("cookie", format!("tally_visitor={visitor}"))
            .json(body)
            .send()
    };
    let writer = "7b0c1f3e-2d4a-4b6c-8e9f-0a1b2c3d4e51";
    let stranger = "7b0c1f3e-2d4a-4b6c-8e9f-0a1b2c3d4e52";
    let private = json!({
        "part": "general",
        "verdict": "wrong",
        "comment": "my private remark",
        "client_token": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    });
    let stored = as_visitor(writer, &private).await.unwrap();
    assert_eq!(stored.status(), StatusCode::CREATED);
    let mut prying = private.clone();
    prying["comment"] = json!("show me yours");
    for (who, body) in [(Some(stranger), &prying), (None, &prying)] {
        let response = match who {
            Some(visitor) => as_visitor(visitor, body).await.unwrap(),
            None => reqwest::Client::new()
                .post(second.url("/api/feedback"))
                .json(body)
                .send()
                .await
                .unwrap(),
        };
        assert_eq!(response.status(), StatusCode::CONFLICT);
        let text = response.text().await.unwrap();
        assert!(!text.contains("my private remark"), "{text}");
        assert!(text.contains("client_token"), "{text}");
    }
    // Its writer, re-sending (even changed), gets its own row back, still stored once.
    let own = as_visitor(writer, &prying).await.unwrap();
    assert_eq!(own.status(), StatusCode::OK);
    let own: Value = own.json().await.unwrap();
    assert_eq!(own["comment"], "my private remark");
    assert!(first.stop().success());
    assert!(second.stop().success());
}
