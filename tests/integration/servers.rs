//! Two `tally serve` processes behind one (imagined) load balancer, sharing one PostgreSQL: they
//! give the same answers and store each once, store every feedback row once whichever server
//! takes it, continue each other's study sessions, and share fetched web snippets. The rate
//! limit is per process (README, "Larger deployments"): the test shows that too.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};
use tally_store::pg_cluster::PrivateCluster;

use crate::own_documents;
use crate::support::{form_action, post_feedback, quoted_after, scratch_dir, Server};
use crate::web_snippets::{ask_web, Fake};

const QUESTION: &str = "how many languages are spoken in indonesia";
/// Answering requests per address and minute, on each server.
const RATE_LIMIT: usize = 6;

/// Makes study session `id` look started `ago` (a PostgreSQL interval) in the past.
async fn started_ago(database_url: &str, id: &str, ago: &str) {
    use sqlx::Connection;
    let mut db = sqlx::PgConnection::connect(database_url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE study_sessions SET started_at = now() - interval '{ago}' WHERE id = $1::uuid"
    )))
    .bind(id)
    .execute(&mut db)
    .await
    .unwrap();
}

/// The study's JSON export, with the admin token.
async fn study_export(server: &Server) -> Value {
    reqwest::Client::new()
        .get(server.url("/study/export?format=json"))
        .bearer_auth(crate::support::ADMIN_TOKEN)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn count(server: &Server, question: &str) -> (StatusCode, Value) {
    let response =
        reqwest::get(server.url(&format!("/api/count?q={}", question.replace(' ', "+"))))
            .await
            .unwrap();
    (response.status(), response.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_database() {
    let dir = scratch_dir("two-servers");
    let cluster = PrivateCluster::start(&dir.join("pg"))
        .await
        .expect("a private PostgreSQL starts");
    let database_url = cluster.url();
    let (fake, search_url) = Fake::start().await;
    let no_data = dir.join("no-data");
    std::fs::create_dir_all(&no_data).unwrap();
    let no_data = no_data.display().to_string();
    let limit = RATE_LIMIT.to_string();
    let args = [
        "--data",
        &no_data,
        "--rate-limit",
        &limit,
        "--web-search",
        "searxng",
        "--web-search-url",
        &search_url,
        "--admin-token",
        crate::support::ADMIN_TOKEN,
    ];
    let env = [("DATABASE_URL", database_url.as_str())];
    let (a, b) = tokio::join!(
        Server::start(&dir, "a", &args, &env),
        Server::start(&dir, "b", &args, &env)
    );
    a.wait_until_answering().await;
    b.wait_until_answering().await;

    // The same question on either server: the same answer, stored once.
    let (status, from_a) = count(&a, QUESTION).await;
    assert_eq!(status, StatusCode::OK, "{from_a}");
    let (status, from_b) = count(&b, QUESTION).await;
    assert_eq!(status, StatusCode::OK, "{from_b}");
    for field in ["count", "cnp_rep", "groups", "snippets", "instances"] {
        assert_eq!(from_a["answer"][field], from_b["answer"][field], "{field}");
    }
    let answer_id = from_a["answer_id"].as_i64().expect("stored");
    assert_eq!(from_b["answer_id"], answer_id, "one stored answer");

    // Web snippets fetched by one server are reused by the other.
    let web_a = ask_web(&a, "how many moons does jupiter have").await;
    let web_b = ask_web(&b, "how many moons does jupiter have").await;
    assert_eq!(fake.requests(), 1, "server b reused server a's snippet set");
    assert_eq!(web_a["origin"]["set_id"], web_b["origin"]["set_id"]);
    assert_eq!(web_b["origin"]["reused"], true);

    // Feedback sent to both (a client retrying through the balancer) is stored once.
    let feedback = json!({
        "part": "answer",
        "answer_id": answer_id,
        "verdict": "correct",
        "client_token": "0d9c4e7a-3b51-4f0e-9a3c-6f2d8b1e5a77",
    });
    let (status, first) = post_feedback(&a, &feedback).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let (status, again) = post_feedback(&b, &feedback).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["id"], first["id"]);
    let listed = crate::support::get_as_admin(&b, "/api/feedback?limit=500").await;
    let rows = listed.as_array().unwrap();
    assert_eq!(
        rows.iter().filter(|r| r["answer_id"] == answer_id).count(),
        1,
        "{listed}"
    );

    // A study session started on one server goes on on the other: each task is shown by one
    // server and answered through the other.
    let no_js = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let post = |server: &Server, action: String, form: Vec<(&'static str, String)>| {
        let request = no_js
            .post(server.url(&action))
            .header("accept", "text/html")
            .form(&form);
        async move {
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), 302, "{action}");
            response.headers()["location"].to_str().unwrap().to_string()
        }
    };
    let intro = no_js
        .get(a.url("/study"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let start = form_action(&intro, "start_study").expect("start form");
    let session_url = post(&a, start.clone(), vec![]).await;
    let session = session_url.trim_start_matches("/study/s/").to_string();
    let servers = [&a, &b];
    let mut answered = 0;
    let code = loop {
        let shown_by = servers[answered % 2];
        let answered_by = servers[(answered + 1) % 2];
        let page = no_js
            .get(shown_by.url(&session_url))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if let Some(code) = quoted_after(&page, "id=\"completion-code\" class=\"completion-code\">")
        {
            // With the word on where it goes.
            assert!(page.contains(r#"id="completion-where""#), "{page}");
            break code;
        }
        let action = form_action(&page, "answer_study_task").expect("answer form");
        let index = quoted_after(&page, "name=\"form[index]\" value=\"").unwrap();
        assert_eq!(
            index,
            answered.to_string(),
            "the next task, whichever server shows it"
        );
        let shown = quoted_after(&page, "name=\"form[shown_at_ms]\" value=\"").unwrap();
        let choice = quoted_after(&page, "id=\"choice-").unwrap();
        let form = vec![
            ("form[session]", session.clone()),
            ("form[index]", index),
            ("form[shown_at_ms]", shown),
            ("form[choice]", choice),
        ];
        assert_eq!(post(answered_by, action, form).await, session_url);
        answered += 1;
        assert!(answered <= 20, "the study never ends");
    };
    assert!(code.starts_with("TALLY-"), "{code}");
    assert!(answered >= 2, "{answered} tasks");

    // Study sessions one address starts are limited too: a script cannot inflate "sessions
    // started" (one was started above).
    let mut refused = None;
    for _ in 0..tally_server::study::STARTS_PER_MINUTE {
        let response = no_js.post(a.url(&start)).send().await.unwrap();
        let body = response.text().await.unwrap();
        if body.contains("too many study sessions started from your address") {
            refused = Some(body);
            break;
        }
    }
    assert!(
        refused.is_some(),
        "server a started every session asked for"
    );

    // A session left for a day is abandoned: it takes no more answers, and the summary counts
    // it apart.
    let left = post(&b, start.clone(), vec![]).await;
    let left_id = left.trim_start_matches("/study/s/").to_string();
    started_ago(&database_url, &left_id, "25 hours").await;
    let page = no_js
        .get(b.url(&left))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("has ended; start a new one"), "{page}");
    let export = study_export(&b).await;
    assert_eq!(export["sessions_abandoned"], 1, "{export}");
    assert_eq!(export["sessions_completed"], 1, "{export}");
    // A week later, an abandoned session without a response is deleted (the servers do it
    // hourly); the completed one stays.
    let started_before = export["sessions_started"].as_u64().unwrap();
    started_ago(&database_url, &left_id, "8 days").await;
    let db = tally_store::db::Database::new(&database_url);
    let removed = tally_server::study::store::remove_empty_abandoned(&db)
        .await
        .unwrap();
    assert_eq!(removed, 1);
    let export = study_export(&b).await;
    assert_eq!(export["sessions_abandoned"], 0, "{export}");
    assert_eq!(export["sessions_completed"], 1, "{export}");
    assert_eq!(
        export["sessions_started"].as_u64().unwrap(),
        started_before - 1
    );

    // The rate limit is kept by each process: once server a refuses this address, server b
    // still answers it (a balancer spreading one address over n servers allows n times the
    // limit; README).
    let mut refused = false;
    for n in 0..=RATE_LIMIT {
        let (status, _) = count(&a, &format!("{QUESTION} {n}")).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused = true;
            break;
        }
    }
    assert!(refused, "server a never refused");
    let (status, body) = count(&b, "how many islands does indonesia have").await;
    assert_eq!(status, StatusCode::OK, "{body}");

    assert!(a.stop().success());
    assert!(b.stop().success());
    cluster.stop().expect("the cluster stops");
}

/// Sends `request` with the admin token: its status and JSON body.
async fn as_admin(request: reqwest::RequestBuilder) -> (StatusCode, Value) {
    let response = request
        .bearer_auth(own_documents::TOKEN)
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

/// Uploads the three Hartwell files into `corpus` through `server`: the status and the job.
async fn upload_hartwell(server: &Server, corpus: &str) -> (StatusCode, Value) {
    as_admin(
        reqwest::Client::new()
            .post(server.url("/api/admin/corpora"))
            .multipart(own_documents::upload_form(corpus)),
    )
    .await
}

/// Snippets of `corpus` in `server`'s indexes (0: not there).
async fn snippets_of(server: &Server, corpus: &str) -> u64 {
    let client = reqwest::Client::new();
    let (_, corpora) = as_admin(client.get(server.url("/api/admin/corpora"))).await;
    corpora
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == corpus)
        .map_or(0, |c| c["snippets"].as_u64().unwrap())
}

/// Asks `server` until `done` holds for the count answer's status and body (at most 30 s);
/// how long it took.
async fn until_answered(
    server: &Server,
    question: &str,
    done: impl Fn(StatusCode, &Value) -> bool,
) -> Duration {
    let started = Instant::now();
    loop {
        let (status, body) = count(server, question).await;
        if done(status, &body) {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{status} {body}\nlog:\n{}",
            server.log_text()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Uploads go into PostgreSQL and every server indexes them: a corpus uploaded on one server is
/// answered by the other, its job is followed through either, a repeated upload adds nothing, a
/// replacement and a deletion reach both, a job whose server died fails with a sentence and is
/// started again elsewhere, and a server stopped halfway through indexing rebuilds the corpus
/// (never offering half of it) when it comes back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_on_one_server_is_answered_by_the_other() {
    let dir = scratch_dir("two-servers-upload");
    let cluster = PrivateCluster::start(&dir.join("pg"))
        .await
        .expect("a private PostgreSQL starts");
    let database_url = cluster.url();
    let no_data = dir.join("no-data");
    std::fs::create_dir_all(&no_data).unwrap();
    let no_data = no_data.display().to_string();
    let args = ["--data", &no_data, "--admin-token", own_documents::TOKEN];
    let env = [("DATABASE_URL", database_url.as_str())];
    let (a, b) = tokio::join!(
        Server::start(&dir, "a", &args, &env),
        Server::start(&dir, "b", &args, &env)
    );
    a.wait_until_answering().await;
    b.wait_until_answering().await;
    let client = reqwest::Client::new();
    let question = "how many reading rooms does the hartwell library have&corpus=hartwell";

    // Uploaded on a: the job shows through b, and b answers from the corpus.
    let (status, job) = upload_hartwell(&a, "hartwell").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let job_path = format!("/api/admin/jobs/{}", job["id"].as_str().unwrap());
    let events =
        crate::support::admin_page_text(b.url(&format!("{job_path}/events")), own_documents::TOKEN)
            .await;
    assert!(events.contains("event: done"), "{events}");
    let waited = until_answered(&b, question, |status, body| {
        status == StatusCode::OK && body["answer"]["count"] == 14.0
    })
    .await;
    eprintln!("answerable through the other server after {waited:?}");
    let snippets = snippets_of(&a, "hartwell").await;
    assert_eq!(snippets, 5);
    assert_eq!(snippets_of(&b, "hartwell").await, snippets);

    // A photo of a page uploaded on a: b indexes it from the database, without reading it by
    // OCR again, and shows the crop of the page beside its evidence (issue 100).
    let photo = reqwest::multipart::Form::new().text("corpus", "shop").part(
        "file",
        reqwest::multipart::Part::bytes(
            include_bytes!("../fixtures/scans/brackenfold-village-shop.jpg").to_vec(),
        )
        .file_name("brackenfold-village-shop.jpg"),
    );
    let (status, job) = as_admin(client.post(a.url("/api/admin/corpora")).multipart(photo)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let volunteers = "how many volunteers run brackenfold village shop&corpus=shop";
    // Answered or declined as its certainty says; either way from the photo's lines.
    until_answered(&b, volunteers, |status, body| {
        status == StatusCode::OK && body["answer"]["certainty"]["reading"] == 23.0
    })
    .await;
    let (_, body) = count(&b, volunteers).await;
    let scanned = crate::scans::scanned_snippets(&body["answer"]);
    assert!(!scanned.is_empty(), "{body}");
    for (source, text) in scanned {
        // A PNG (its type and signature) is given.
        let (status, size) = crate::scans::crop(&client, &b, source, text).await;
        assert_eq!(status, StatusCode::OK, "{source}: {text}");
        assert!(size.is_some(), "{source}: {text}");
    }

    // The same documents again, through b: nothing added, the job is done at once.
    let (status, again) = upload_hartwell(&b, "hartwell").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{again}");
    assert_eq!(again["state"], "done", "{again}");
    assert_eq!(again["duplicates"], 3, "{again}");
    assert_eq!(again["documents"], 0, "{again}");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(snippets_of(&a, "hartwell").await, snippets);

    // Adding to a corpus that only a server's own indexes hold (the bundled demo) is refused.
    let (status, refused) = upload_hartwell(&a, "demo").await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(refused["error"]
        .as_str()
        .unwrap()
        .contains("mode `replace`"));

    // A replacement through b with one document: both servers hold only it.
    let one = reqwest::multipart::Form::new()
        .text("corpus", "hartwell")
        .text("mode", "replace")
        .part(
            "file",
            own_documents::file("news.jsonl", own_documents::JSONL),
        );
    let (status, replaced) =
        as_admin(client.post(b.url("/api/admin/corpora")).multipart(one)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{replaced}");
    assert_eq!(replaced["mode"], "replace");
    let started = Instant::now();
    while snippets_of(&a, "hartwell").await != 1 || snippets_of(&b, "hartwell").await != 1 {
        assert!(started.elapsed() < Duration::from_secs(30), "not replaced");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // A job whose server died: failed with a sentence once the server is not seen for 30 s,
    // then started again through a, which holds the corpus: done.
    {
        use sqlx::Connection;
        let mut db = sqlx::PgConnection::connect(&database_url).await.unwrap();
        sqlx::raw_sql(
            "INSERT INTO corpus_servers (id, seen_at) VALUES ('gone', now() - interval '1 hour'); \
             INSERT INTO ingest_jobs (id, corpus, files, mode, version, state, progress, server) \
             SELECT '6f1c2b8e-0d4a-4c8e-9b1e-2a7d5c3f9e10', name, '{lost.txt}', 'add', version, \
               'running', '{\"documents\": 1}', 'gone' FROM corpora WHERE name = 'hartwell'",
        )
        .execute(&mut db)
        .await
        .unwrap();
    }
    let lost = "/api/admin/jobs/6f1c2b8e-0d4a-4c8e-9b1e-2a7d5c3f9e10";
    let started = Instant::now();
    let failed = loop {
        let (_, job) = as_admin(client.get(b.url(lost))).await;
        if job["state"] == "failed" {
            break job;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{job}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("stopped before it was done"),
        "{failed}"
    );
    let (status, _) = as_admin(client.post(a.url(&format!("{lost}/restart")))).await;
    assert_eq!(status, StatusCode::OK);
    let started = Instant::now();
    while as_admin(client.get(a.url(lost))).await.1["state"] != "done" {
        assert!(started.elapsed() < Duration::from_secs(30), "not done");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // b stopped halfway through indexing (as its file of held corpora says): when it comes
    // back it indexes the corpus again from scratch, and holds it once.
    let held = dir.join("b-index.held-corpora.json");
    assert!(b.stop().success());
    let text = std::fs::read_to_string(&held).unwrap();
    assert!(text.contains("\"complete\": true"), "{text}");
    std::fs::write(
        &held,
        text.replace("\"complete\": true", "\"complete\": false"),
    )
    .unwrap();
    let b = Server::start(&dir, "b", &args, &env).await;
    b.wait_until_answering().await;
    until_answered(&b, question, |status, body| {
        status == StatusCode::OK && body["answer"]["count"] == 14.0
    })
    .await;
    assert_eq!(snippets_of(&b, "hartwell").await, 1);
    assert!(std::fs::read_to_string(&held)
        .unwrap()
        .contains("\"complete\": true"));

    // `tally ingest` with the database: stored, and indexed by the running servers.
    let notes = dir.join("bridges.txt");
    std::fs::write(
        &notes,
        "The Ferrow bridge crosses the river on 7 stone arches.\n\n\
         All 7 arches of the Ferrow bridge were rebuilt in 1952.\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(["ingest", "--corpus", "bridges"])
        .arg(&notes)
        .env("DATABASE_URL", &database_url)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        printed.contains("1 documents stored in the database"),
        "{printed}"
    );
    until_answered(
        &a,
        "how many arches does the ferrow bridge have&corpus=bridges",
        |status, body| status == StatusCode::OK && body["answer"]["count"] == 7.0,
    )
    .await;

    // Deleted through a: b no longer knows it.
    let (status, _) = as_admin(client.delete(a.url("/api/admin/corpora/hartwell"))).await;
    assert_eq!(status, StatusCode::OK);
    until_answered(&b, question, |status, body| {
        status == StatusCode::BAD_REQUEST
            && body["error"].as_str().unwrap().contains("unknown corpus")
    })
    .await;

    assert!(a.stop().success());
    assert!(b.stop().success());
    cluster.stop().expect("the cluster stops");
}
