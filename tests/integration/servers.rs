//! Two `tally serve` processes behind one (imagined) load balancer, sharing one PostgreSQL: they
//! give the same answers and store each once, store every feedback row once whichever server
//! takes it, continue each other's study sessions, and share fetched web snippets. The rate
//! limit is per process (README, "Larger deployments"): the test shows that too.

use reqwest::StatusCode;
use serde_json::{json, Value};
use tally_server::store::pg_cluster::PrivateCluster;

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
    let db = tally_server::store::db::Database::new(&database_url);
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
