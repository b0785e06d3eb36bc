//! `/api/health` and the home page tell the truth about what is loaded.

use reqwest::StatusCode;
use serde_json::Value;

use crate::support::{scratch_dir, unreachable_database_url, Server};

#[tokio::test]
async fn health_reports_encoder_and_missing_database() {
    let dir = scratch_dir("health-no-db");
    let db_url = unreachable_database_url();
    let server = Server::start(&dir, "server", &[], &[("DATABASE_URL", &db_url)]).await;

    let response = reqwest::get(server.url("/api/health")).await.unwrap();
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "the app answers without a database"
    );
    let health: Value = response.json().await.unwrap();
    assert_eq!(health["status"], "degraded");
    assert_eq!(health["encoder"]["loaded"], true);
    assert_eq!(health["encoder"]["model"], "all-MiniLM-L6-v2");
    assert_eq!(health["encoder"]["dimension"], 384);
    assert_eq!(health["encoder"]["device"], "cpu");
    assert_eq!(health["database"]["connected"], false);
    assert!(health["database"]["error"]
        .as_str()
        .unwrap()
        .starts_with("database unavailable"));
    // Where the database is and why it failed stay in the log (issue 57).
    let public = health.to_string();
    assert!(
        !public.contains(&db_url) && !public.contains("127.0.0.1:"),
        "{public}"
    );
    assert!(health["data_dir"].is_null(), "{public}");
    // The shared data sets beside the checkout are found.
    let corpora: Vec<&str> = health["corpora"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(corpora.contains(&"stresstest"), "{corpora:?}");
    assert!(corpora.contains(&"qsearch"), "{corpora:?}");

    // Saving feedback fails clearly, with 503 and a sentence.
    let response = reqwest::Client::new()
        .post(server.url("/api/feedback"))
        .json(&serde_json::json!({"part": "general", "verdict": "correct"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = response.json().await.unwrap();
    let unavailable = "The database is unavailable right now, so nothing can be saved or read";
    assert!(
        body["error"].as_str().unwrap().contains(unavailable),
        "{body}"
    );
    // Reading says the same, not that feedback cannot be saved.
    let response = reqwest::Client::new()
        .get(server.url("/api/questions"))
        .header(
            "cookie",
            "tally_visitor=7b0f2c4e-1d3a-4e5f-9a8b-0c1d2e3f4a5b",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains(unavailable),
        "{body}"
    );

    // The home page links the status page, which shows the same facts, without JavaScript.
    let page = reqwest::get(server.url("/")).await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains("<h1>Tally</h1>"));
    assert!(html.contains(r#"href="/status""#));
    let page = reqwest::get(server.url("/status")).await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("all-MiniLM-L6-v2 · 384 dimensions · cpu"),
        "{html}"
    );
    assert!(html.contains("not connected: feedback cannot be saved"));

    assert!(server.stop().success());
}

#[tokio::test]
async fn missing_encoder_makes_health_503() {
    let dir = scratch_dir("health-no-encoder");
    let db_url = unreachable_database_url();
    let server = Server::start(
        &dir,
        "server",
        &[
            "--encoder",
            "/nonexistent/encoder-dir",
            "--admin-token",
            "health-admin",
        ],
        &[("DATABASE_URL", &db_url)],
    )
    .await;
    let response = reqwest::get(server.url("/api/health")).await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let health: Value = response.json().await.unwrap();
    assert_eq!(health["status"], "failed");
    assert_eq!(health["encoder"]["loaded"], false);
    // Anyone reads what is wrong in words; the path and the details are the admin's (and the
    // log's) only (issue 57).
    assert!(health["encoder"]["error"]
        .as_str()
        .unwrap()
        .contains("could not be loaded"));
    let text = health.to_string();
    assert!(
        !text.contains("encoder-dir") && !text.contains("/nonexistent"),
        "{text}"
    );
    let admin: Value = reqwest::Client::new()
        .get(server.url("/api/health"))
        .bearer_auth("health-admin")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(admin["encoder"]["error"]
        .as_str()
        .unwrap()
        .contains("encoder-dir"));
    assert!(server.stop().success());
}

#[tokio::test]
async fn unknown_api_paths_and_pages_are_404() {
    let dir = scratch_dir("not-found");
    let db_url = unreachable_database_url();
    let server = Server::start(&dir, "server", &[], &[("DATABASE_URL", &db_url)]).await;
    let api = reqwest::get(server.url("/api/nope")).await.unwrap();
    assert_eq!(api.status(), StatusCode::NOT_FOUND);
    let body: Value = api.json().await.unwrap();
    assert_eq!(body["error"], "no such API endpoint");
    let page = reqwest::get(server.url("/no/such/page")).await.unwrap();
    assert_eq!(page.status(), StatusCode::NOT_FOUND);
    assert!(page.text().await.unwrap().contains("Page not found"));
    assert!(server.stop().success());
}
