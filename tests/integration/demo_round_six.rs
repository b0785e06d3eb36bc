//! A public demo attacked a sixth time (issue 84): files nested deep enough to overflow a
//! reader's stack, small files that expand to gigabytes, a corpus whose indexing takes the server
//! down (a poison pill stored in the database), deletes and shutdowns during a long indexing,
//! and the JSON admin changes the login cookie alone admitted. Each check runs on loopback.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;

use crate::formats::zip_of;
use crate::support::{demo_server, quoted_after, scratch_dir, upload, Server, ADMIN_TOKEN};

/// A Word file whose tables nest `levels` deep.
fn nested_tables_docx(levels: usize) -> Vec<u8> {
    let mut body = String::from("<w:p><w:r><w:t>Members: 40.</w:t></w:r></w:p>");
    body.push_str(&"<w:tbl><w:tr><w:tc>".repeat(levels));
    body.push_str(&"<w:p/></w:tc></w:tr></w:tbl>".repeat(levels));
    let document = format!(
        r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    zip_of(&[("word/document.xml", document.as_bytes())])
}

/// An OpenDocument spreadsheet of `rows` (the content of its one table).
fn ods_of(rows: &str) -> Vec<u8> {
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Fees">{rows}</table:table></office:spreadsheet></office:body></office:document-content>"#
    );
    zip_of(&[
        (
            "mimetype",
            b"application/vnd.oasis.opendocument.spreadsheet",
        ),
        ("content.xml", content.as_bytes()),
    ])
}

/// Many megabytes of short paragraphs: minutes of indexing in a debug build.
fn long_text() -> Vec<u8> {
    (1..=600_000)
        .map(|n| format!("Shed {n} holds 4 spades and 2 rakes.\n\n"))
        .collect::<String>()
        .into_bytes()
}

async fn admin_json(server: &Server, path: &str) -> Value {
    reqwest::Client::new()
        .get(server.url(path))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Waits until job `id` is indexing (some bytes done, not all); false if it ended first.
async fn wait_until_indexing(server: &Server, id: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let job = admin_json(server, &format!("/api/admin/jobs/{id}")).await;
        if job["state"] != "running" {
            return false;
        }
        let done = job["bytes_done"].as_u64().unwrap_or(0);
        if done > 0 && done < job["bytes"].as_u64().unwrap_or(0) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

fn corpus_row<'a>(rows: &'a Value, name: &str) -> Option<&'a Value> {
    rows.as_array()?.iter().find(|r| r["name"] == name)
}

/// Items 1, 4 and 5: files that crashed the server or grew it by gigabytes are refused with a
/// sentence, and the server answers on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_nested_deep_or_expanding_far_are_refused_and_the_server_lives() {
    let server = demo_server("round-six-files", &["--admin-token", ADMIN_TOKEN]).await;
    let empty_repeats = ods_of(
        r#"<table:table-row table:number-rows-repeated="100000"><table:table-cell table:number-columns-repeated="16000"/><table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell></table:table-row>"#,
    );
    let repeated_rows = ods_of(
        r#"<table:table-row table:number-rows-repeated="1048575"><table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell></table:table-row>"#,
    );
    let files = [
        ("deep.docx", nested_tables_docx(2_000), "more than 300 deep"),
        ("empty.ods", empty_repeats, "span more than"),
        ("rows.ods", repeated_rows, "more than a file of its size"),
    ];
    for (name, bytes, says) in files {
        let (status, body, seconds) = upload(&server, "hostile", name, bytes).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(name) && error.contains(says),
            "{name}: {body}"
        );
        assert!(seconds < 10.0, "{name}: {seconds} s");
    }
    let health = reqwest::get(server.url("/api/health")).await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    let rows = admin_json(&server, "/api/admin/corpora").await;
    assert!(
        corpus_row(&rows, "hostile").is_none(),
        "nothing stored: {rows}"
    );
}

/// Items 3 and 7, and the JSON routes' form token (item 8): a corpus being indexed when its
/// server was killed is marked failed, shown with why and not indexed again on the next start;
/// a delete during indexing answers within seconds, and so does SIGTERM.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corpus_that_took_its_server_down_is_not_indexed_again_and_deletes_and_stops_are_quick() {
    let dir = scratch_dir("round-six-poison");
    let empty = dir.join("no-data");
    std::fs::create_dir_all(&empty).unwrap();
    let (pg, data) = (dir.join("pg"), empty);
    let args = [
        "--pg-dir",
        pg.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--admin-token",
        ADMIN_TOKEN,
    ];
    let server = Server::start(&dir, "server", &args, &[]).await;
    server.wait_until_answering().await;

    // A crash while indexing: the process is killed, nothing of its shutdown runs.
    let (status, job, _) = upload(&server, "sheds", "sheds.txt", long_text()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    assert!(
        wait_until_indexing(&server, &id).await,
        "indexing was seen under way"
    );
    server.kill();

    let server = Server::start(&dir, "server", &args, &[]).await;
    server.wait_until_answering().await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let row = loop {
        let rows = admin_json(&server, "/api/admin/corpora").await;
        if let Some(row) = corpus_row(&rows, "sheds").filter(|r| !r["failed"].is_null()) {
            break row.clone();
        }
        assert!(Instant::now() < deadline, "never marked failed: {rows}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert!(
        row["failed"]
            .as_str()
            .unwrap()
            .contains("stopped the server"),
        "{row}"
    );
    let job = admin_json(&server, &format!("/api/admin/jobs/{id}")).await;
    assert_eq!(job["state"], "failed", "{job}");
    // Not indexed again: a few passes later it holds nothing and is not being indexed.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let rows = admin_json(&server, "/api/admin/corpora").await;
    let row = corpus_row(&rows, "sheds").expect("still listed");
    assert_eq!(
        (row["snippets"].as_u64(), row["indexing"].as_bool()),
        (Some(0), Some(false)),
        "{row}"
    );
    let log = server.log_text();
    let indexed = |l: &&str| l.contains("corpus `sheds`") && l.contains("indexed:");
    assert!(!log.lines().any(|l| indexed(&l)), "indexed again:\n{log}");
    // The corpus page shows it, with why.
    let page = reqwest::Client::new()
        .get(server.url(&format!("/admin?token={ADMIN_TOKEN}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("Not indexed: ") && page.contains("stopped the server"),
        "{page}"
    );

    // A JSON delete with the login cookie alone needs the page's form token.
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let login = client
        .post(server.url("/admin/login"))
        .form(&[("token", ADMIN_TOKEN), ("next", "/admin")])
        .send()
        .await
        .unwrap();
    let cookie = login.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let delete = |form_token: Option<String>| {
        let mut request = client
            .delete(server.url("/api/admin/corpora/sheds"))
            .header("cookie", &cookie)
            .header("sec-fetch-site", "same-origin");
        if let Some(token) = form_token {
            request = request.header("x-tally-form-token", token);
        }
        request.send()
    };
    let refused = delete(None).await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let page = client
        .get(server.url("/admin"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let form_token = quoted_after(&page, "name=\"form_token\" value=\"").expect("a form token");
    let deleted = delete(Some(form_token)).await.unwrap();
    assert_eq!(deleted.status(), StatusCode::OK);
    let rows = admin_json(&server, "/api/admin/corpora").await;
    assert!(corpus_row(&rows, "sheds").is_none(), "{rows}");

    // A delete while a large document is indexed answers within seconds.
    let (status, job, _) = upload(&server, "sheds2", "sheds.txt", long_text()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    assert!(wait_until_indexing(&server, job["id"].as_str().unwrap()).await);
    let started = Instant::now();
    let deleted = reqwest::Client::new()
        .delete(server.url("/api/admin/corpora/sheds2"))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    let took = started.elapsed();
    assert_eq!(deleted.status(), StatusCode::OK);
    // Before issue 84 a delete waited for a whole batch (over a minute); now for one step of
    // at most 256 KB. The issue's 5 s bound is checked on the release server (abuse-test.sh,
    // check 32); this debug build, beside the other tests, gets three times that.
    assert!(took < Duration::from_secs(15), "the delete took {took:?}");

    // SIGTERM while a large document is indexed ends the server within seconds, and the next
    // start indexes it again (a shutdown is not a crash).
    let (status, job, _) = upload(&server, "sheds3", "sheds.txt", long_text()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    assert!(wait_until_indexing(&server, job["id"].as_str().unwrap()).await);
    let started = Instant::now();
    assert!(server.stop().success());
    let took = started.elapsed();
    assert!(took < Duration::from_secs(15), "SIGTERM took {took:?}");
    let server = Server::start(&dir, "server", &args, &[]).await;
    server.wait_until_answering().await;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let rows = admin_json(&server, "/api/admin/corpora").await;
        let row = corpus_row(&rows, "sheds3").cloned().unwrap_or(Value::Null);
        assert!(row["failed"].is_null(), "a shutdown is not a crash: {row}");
        if row["indexing"] == true || row["snippets"].as_u64().unwrap_or(0) > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "not indexed again: {rows}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(server.stop().success());
}
