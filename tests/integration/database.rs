//! Feedback goes into a real PostgreSQL and stays there: across server restarts (with the
//! server's own private cluster) and across a database outage.

use reqwest::StatusCode;
use serde_json::{json, Value};
use tally_server::pg_cluster::PrivateCluster;

use crate::support::{scratch_dir, Server};

async fn post(server: &Server, body: &Value) -> (StatusCode, Value) {
    let response = reqwest::Client::new()
        .post(server.url("/api/feedback"))
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn feedback_survives_a_restart_of_server_and_private_cluster() {
    let dir = scratch_dir("restart");
    let pg_dir = dir.join("pg");
    let pg_arg = pg_dir.display().to_string();
    let args = ["--pg-dir", pg_arg.as_str()];

    let server = Server::start(&dir, "first", &args, &[]).await;
    let health: Value = reqwest::get(server.url("/api/health"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["status"], "ok", "{health}");
    assert_eq!(health["database"]["connected"], true);

    let token = "5f0c6a52-9d0e-4a57-8d8e-2b4f3c1a7e10";
    let feedback = json!({
        "part": "general",
        "verdict": "wrong",
        "corrected_value": 42.0,
        "comment": "Indonesia has over 700 languages, not 300.",
        "client_token": token,
    });
    let (status, created) = post(&server, &feedback).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["verdict"], "wrong");
    assert_eq!(created["corrected_value"], 42.0);

    // Sending the same submission again does not duplicate it.
    let (status, again) = post(&server, &feedback).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, created);

    // Bad input gets a 4xx with a sentence, and stores nothing.
    let (status, body) = post(&server, &json!({"part": "general", "verdict": "relevant"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["error"].as_str().unwrap().contains("does not apply"));
    let (status, body) = post(
        &server,
        &json!({"part": "answer", "answer_id": 999999, "verdict": "correct"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "answer 999999 does not exist");
    let malformed = reqwest::Client::new()
        .post(server.url("/api/feedback"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status(), StatusCode::BAD_REQUEST);
    let oversized = reqwest::Client::new()
        .post(server.url("/api/feedback"))
        .header("content-type", "application/json")
        .body(format!(
            r#"{{"part":"general","verdict":"correct","comment":"{}"}}"#,
            "x".repeat(100_000)
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(oversized.status(), StatusCode::PAYLOAD_TOO_LARGE);

    // A graceful stop also stops the private cluster it started.
    assert!(server.stop().success());
    assert!(
        !pg_dir.join("data/postmaster.pid").exists(),
        "the private cluster was stopped on exit"
    );

    let server = Server::start(&dir, "second", &args, &[]).await;
    let stored: Value = reqwest::get(server.url(&format!("/api/feedback/{id}")))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(stored, created, "feedback read back after restart");
    let all: Vec<Value> = reqwest::get(server.url("/api/feedback?limit=10"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        all,
        vec![created],
        "exactly one row: nothing lost, nothing duplicated"
    );
    let missing = reqwest::get(server.url("/api/feedback/123456"))
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let bad_limit = reqwest::get(server.url("/api/feedback?limit=0"))
        .await
        .unwrap();
    assert_eq!(bad_limit.status(), StatusCode::BAD_REQUEST);
    assert!(server.stop().success());
}

#[tokio::test]
async fn database_outage_is_reported_and_loses_nothing() {
    let dir = scratch_dir("outage");
    let pg_dir = dir.join("pg");
    // The test owns the cluster; the server is given its URL.
    let cluster = PrivateCluster::start(&pg_dir)
        .await
        .expect("cluster starts");
    let url = cluster.url();
    let server = Server::start(&dir, "server", &[], &[("DATABASE_URL", &url)]).await;

    let (status, first) = post(&server, &json!({"part": "general", "verdict": "correct"})).await;
    assert_eq!(status, StatusCode::CREATED);

    cluster.stop().expect("cluster stops");
    let (status, body) = post(&server, &json!({"part": "general", "verdict": "wrong"})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("feedback cannot be saved"));
    let health = reqwest::get(server.url("/api/health")).await.unwrap();
    assert_eq!(health.status(), StatusCode::OK, "still answering");
    let health: Value = health.json().await.unwrap();
    assert_eq!(health["database"]["connected"], false);

    // The database comes back on the same port; the server reconnects by itself.
    let cluster = PrivateCluster::start(&pg_dir)
        .await
        .expect("cluster restarts");
    assert_eq!(cluster.url(), url);
    let (status, second) = post(&server, &json!({"part": "general", "verdict": "wrong"})).await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    let all: Vec<Value> = reqwest::get(server.url("/api/feedback"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(all, vec![second, first]);

    assert!(server.stop().success());
    cluster.stop().expect("cluster stops");
}
