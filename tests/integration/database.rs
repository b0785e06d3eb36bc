//! Feedback goes into a real PostgreSQL and stays there: across server restarts (with the
//! server's own private cluster) and across a database outage.

use reqwest::StatusCode;
use serde_json::{json, Value};
use tally_store::pg_cluster::PrivateCluster;

use crate::support::{get_as_admin, post_feedback as post, scratch_dir, Server, ADMIN_TOKEN};

#[tokio::test]
async fn feedback_survives_a_restart_of_server_and_private_cluster() {
    let dir = scratch_dir("restart");
    let pg_dir = dir.join("pg");
    let pg_arg = pg_dir.display().to_string();
    let args = ["--pg-dir", pg_arg.as_str(), "--admin-token", ADMIN_TOKEN];

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
    let stored = get_as_admin(&server, &format!("/api/feedback/{id}")).await;
    assert_eq!(stored, created, "feedback read back after restart");
    let all = get_as_admin(&server, "/api/feedback?limit=10").await;
    assert_eq!(
        all,
        json!([created]),
        "exactly one row: nothing lost, nothing duplicated"
    );
    let client = reqwest::Client::new();
    let as_admin = |path: &str| client.get(server.url(path)).bearer_auth(ADMIN_TOKEN).send();
    let missing = as_admin("/api/feedback/123456").await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let bad_limit = as_admin("/api/feedback?limit=0").await.unwrap();
    assert_eq!(bad_limit.status(), StatusCode::BAD_REQUEST);
    // The rows and their comments are the admin's; anyone sees the counts.
    for path in ["/api/feedback", &format!("/api/feedback/{id}")] {
        let response = reqwest::get(server.url(path)).await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(response.headers()["www-authenticate"], "Bearer");
        let body: Value = response.json().await.unwrap();
        assert_eq!(
            body["error"],
            "feedback rows need the admin token (Authorization: Bearer …)"
        );
        let wrong = client.get(server.url(path)).bearer_auth("guess").send();
        assert_eq!(
            wrong.await.unwrap().status(),
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
    }
    let summary: Value = reqwest::get(server.url("/api/feedback/summary"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        summary,
        json!({"total": 1, "counts": [{"part": "general", "verdict": "wrong", "count": 1}]})
    );
    assert!(
        !summary.to_string().contains("Indonesia"),
        "no comment leaks"
    );
    assert!(server.stop().success());
}

/// A server killed with SIGKILL leaves its private cluster running; the server started next
/// on the same `--pg-dir` owns it and stops it on exit (issue 46: it attached and left it).
#[tokio::test]
async fn a_cluster_left_by_a_killed_server_is_stopped_by_the_next() {
    let dir = scratch_dir("cluster-left");
    let pg_dir = dir.join("pg");
    let pg_arg = pg_dir.display().to_string();
    let args = ["--pg-dir", pg_arg.as_str()];
    let postmaster = pg_dir.join("data/postmaster.pid");

    let first = Server::start(&dir, "first", &args, &[]).await;
    assert!(postmaster.is_file(), "the first server started the cluster");
    first.kill();
    assert!(postmaster.is_file(), "a killed server leaves it running");

    let second = Server::start(&dir, "second", &args, &[]).await;
    let health: Value = reqwest::get(second.url("/api/health"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["database"]["connected"], true, "{health}");
    let log = second.log.clone();
    assert!(second.stop().success());
    assert!(
        !postmaster.exists(),
        "the cluster is stopped when the server that adopted it exits; log:\n{}",
        std::fs::read_to_string(log).unwrap_or_default()
    );
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
    let server = Server::start(
        &dir,
        "server",
        &["--admin-token", ADMIN_TOKEN],
        &[("DATABASE_URL", &url)],
    )
    .await;

    let (status, first) = post(&server, &json!({"part": "general", "verdict": "correct"})).await;
    assert_eq!(status, StatusCode::CREATED);

    cluster.stop().expect("cluster stops");
    let (status, body) = post(&server, &json!({"part": "general", "verdict": "wrong"})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("database is unavailable right now"));
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
    let all = get_as_admin(&server, "/api/feedback").await;
    assert_eq!(all, json!([second, first]));

    assert!(server.stop().success());
    cluster.stop().expect("cluster stops");
}

/// Retention: questions last asked before the cut-off go, and with them the answers that no
/// question and no feedback refers to; an answer with feedback stays.
#[tokio::test]
async fn old_history_is_forgotten_but_feedback_keeps_its_answer() {
    use tally_store::answers::{self, AnswerKey, AnsweredFrom, Asking, HistoryOf};
    use tally_store::db::Database;
    use tally_store::feedback::{self, NewFeedback};
    use tally_types::{FeedbackPart, Verdict};

    let dir = scratch_dir("retention");
    let cluster = PrivateCluster::start(&dir.join("pg"))
        .await
        .expect("cluster starts");
    let db = Database::new(&cluster.url());
    let visitor = uuid::Uuid::new_v4();
    let asked = |question: &str, visitor| Asking {
        question: question.to_string(),
        kind: "count",
        settings: json!({}),
        visitor,
        key: AnswerKey::new(
            question,
            tally_types::Mode::Count,
            &json!({}),
            &AnsweredFrom::Corpora {
                version: "test corpus".into(),
            },
        ),
        latency_ms: 1.0,
    };
    let record = || json!({"summary": "42"});
    let kept = answers::store_answer(&db, &asked("how many a", None), record)
        .await
        .unwrap();
    // Asked again by someone else: the same answer, another question row.
    let again = answers::store_answer(&db, &asked("How many  A", Some(visitor)), record)
        .await
        .unwrap();
    assert_eq!(again.answer_id, kept.answer_id);
    assert_ne!(again.question_id, kept.question_id);
    let dropped = answers::store_answer(&db, &asked("how many b", Some(visitor)), record)
        .await
        .unwrap();
    let mine = answers::recent_questions(&db, HistoryOf::Visitor(visitor), 10)
        .await
        .unwrap();
    assert_eq!(mine.len(), 2);
    feedback::insert(
        &db,
        &NewFeedback {
            answer_id: Some(kept.answer_id),
            part: FeedbackPart::Answer,
            part_ref: None,
            verdict: Verdict::Correct,
            corrected_value: None,
            corrected_unit: None,
            moved_to: None,
            comment: None,
            client_token: None,
        },
        Some(visitor),
    )
    .await
    .unwrap();
    // The answer is shared: its feedback counts in the history of the visitor who left it, and
    // not in another's who asked the same question.
    let other = uuid::Uuid::new_v4();
    answers::store_answer(&db, &asked("how many a", Some(other)), record)
        .await
        .unwrap();
    let feedback_of = |rows: Vec<answers::RecentQuestion>| {
        rows.iter()
            .find(|r| r.answer_id == Some(kept.answer_id))
            .map(|r| r.feedback)
    };
    let mine = answers::recent_questions(&db, HistoryOf::Visitor(visitor), 10)
        .await
        .unwrap();
    assert_eq!(feedback_of(mine), Some(1));
    let theirs = answers::recent_questions(&db, HistoryOf::Visitor(other), 10)
        .await
        .unwrap();
    assert_eq!(feedback_of(theirs), Some(0));
    let everyone = answers::recent_questions(&db, HistoryOf::Everyone, 10)
        .await
        .unwrap();
    assert_eq!(feedback_of(everyone), Some(1));

    // Nothing is older than 30 days; everything is older than 0 days.
    assert_eq!(
        answers::forget_older_than(&db, 30).await.unwrap(),
        answers::Forgotten::default()
    );
    let gone = answers::forget_older_than(&db, 0).await.unwrap();
    assert_eq!((gone.questions, gone.answers), (4, 1));
    let all = answers::recent_questions(&db, HistoryOf::Everyone, 10)
        .await
        .unwrap();
    assert!(all.is_empty());
    // The answer with feedback is still there for its feedback; the other one is gone.
    let pool = db.pool().await.unwrap();
    let left: Vec<i64> = sqlx::query_scalar("SELECT id FROM answers ORDER BY id")
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(left, vec![kept.answer_id]);
    assert_ne!(dropped.answer_id, kept.answer_id);
    db.close().await;
    cluster.stop().unwrap();
}

/// Issue 97: a corpus deleted while an upload into it was read (a scan by OCR, minutes long)
/// came back when the upload was stored. The deletion wins: the upload is refused with a
/// sentence and the corpus stays deleted; an upload read after the deletion makes it anew.
#[tokio::test]
async fn a_corpus_deleted_while_an_upload_is_read_stays_deleted() {
    use tally_documents::sentence_store::index::Document;
    use tally_store::corpora::{self, FollowedBy};
    use tally_store::db::{Database, DbError};
    use tally_types::documents::{FileOutcome, UploadMode};

    let dir = scratch_dir("deleted-while-read");
    let cluster = PrivateCluster::start(&dir.join("pg"))
        .await
        .expect("cluster starts");
    let db = Database::new(&cluster.url());
    let documents = |text: &str| {
        vec![Document {
            id: format!("{text}-1"),
            text: text.to_string(),
            source: "minutes.txt".into(),
            entity: None,
        }]
    };
    let outcome = || {
        vec![FileOutcome {
            file: "minutes.txt".into(),
            documents: 1,
            ..FileOutcome::default()
        }]
    };
    let store = |text: &'static str, since| {
        let db = db.clone();
        async move {
            corpora::store_upload(
                &db,
                FollowedBy::Nobody,
                "club",
                UploadMode::Add,
                outcome(),
                &documents(text),
                since,
            )
            .await
        }
    };
    store("The club has 12 members.", None).await.unwrap();
    // An upload begins to be read; the corpus is deleted meanwhile.
    let read_since = corpora::database_now(&db).await.unwrap();
    assert!(corpora::delete(&db, "club").await.unwrap());
    let refused = store("The club has 14 members.", Some(read_since))
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, DbError::Conflict(why) if why.to_string().contains("was deleted while its files were read")),
        "{refused}"
    );
    assert!(
        !corpora::has(&db, "club").await.unwrap(),
        "it stays deleted"
    );
    // Read after the deletion: a new corpus of that name.
    let later = corpora::database_now(&db).await.unwrap();
    store("The club has 15 members.", Some(later))
        .await
        .unwrap();
    assert!(corpora::has(&db, "club").await.unwrap());
}
