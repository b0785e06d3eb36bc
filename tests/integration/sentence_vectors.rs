//! Sentence vectors computed at ingestion (issue 76), through the server: searches answer while
//! the background job runs, every corpus's vectors are counted on the corpora API, an upload
//! gets its vectors after its text is indexed, and a deleted corpus's vectors leave the file.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{
    demo_server, get_as_admin, scratch_dir, two_demo_servers, upload, workspace_root, Server,
    ADMIN_TOKEN,
};

/// Bytes of one stored vector of MiniLM (key, scale, 384 codes).
const RECORD: u64 = 8 + 4 + 384;

/// The corpora rows once `done` holds for them, or a panic with the last rows after two minutes.
async fn corpora_when(server: &Server, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let rows = get_as_admin(server, "/api/admin/corpora").await;
        let rows = rows.as_array().cloned().unwrap_or_default();
        if done(&rows) {
            return rows;
        }
        assert!(Instant::now() < deadline, "vectors never done: {rows:?}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

fn all_have_vectors(rows: &[Value]) -> bool {
    !rows.is_empty() && rows.iter().all(|r| r["vectors"] == r["sentences"])
}

fn row<'a>(rows: &'a [Value], corpus: &str) -> Option<&'a Value> {
    rows.iter().find(|r| r["name"] == corpus)
}

/// Uploads two sentences about viaducts as the corpus `viaducts`.
async fn upload_viaducts(server: &Server) {
    let text = "The Ferrow viaduct is 412 metres long.\n\nThe Mallen viaduct is 96 metres long.\n";
    let (status, body, _) = upload(server, "viaducts", "viaducts.txt", text.into()).await;
    assert!(status.is_success(), "{status}: {body}");
}

/// The corpus `viaducts` is indexed, and every corpus has its vectors.
fn viaducts_have_vectors(rows: &[Value]) -> bool {
    row(rows, "viaducts").is_some_and(|r| r["sentences"].as_u64() > Some(0))
        && all_have_vectors(rows)
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[tokio::test]
async fn a_server_fills_its_sentence_vectors_in_the_background_and_searches_answer_meanwhile() {
    let server = demo_server(
        "sentence-vectors",
        &["--admin-token", ADMIN_TOKEN, "--sentence-vectors", "true"],
    )
    .await;
    let search = "/api/search?q=stadiums+with+a+capacity+of+more+than+80000";
    let response = reqwest::get(server.url(search)).await.unwrap();
    assert!(response.status().is_success());
    let results: Value = response.json().await.unwrap();
    assert!(
        !results["answer"]["hits"].as_array().unwrap().is_empty(),
        "{results}"
    );

    let rows = corpora_when(&server, all_have_vectors).await;
    let sentences: u64 = rows.iter().map(|r| r["sentences"].as_u64().unwrap()).sum();
    assert!(sentences > 0, "{rows:?}");
    let file = workspace_root()
        .join("target/test-runs/sentence-vectors/server-sentences/sentence-vectors.bin");
    let filled = file_len(&file);
    // The header, then one whole record per distinct sentence (at most one per sentence).
    let header = 16 + "all-MiniLM-L6-v2".len() as u64;
    assert!(filled > header, "{}", file.display());
    assert_eq!((filled - header) % RECORD, 0);
    assert!((filled - header) / RECORD <= sentences);

    // An upload: its text is indexed, then its vectors follow.
    upload_viaducts(&server).await;
    let rows = corpora_when(&server, viaducts_have_vectors).await;
    let viaducts = row(&rows, "viaducts").unwrap()["sentences"]
        .as_u64()
        .unwrap();
    assert_eq!(file_len(&file), filled + viaducts * RECORD);
    let found: Value = reqwest::get(server.url("/api/search?q=viaducts+longer+than+300+m"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        found["answer"]["hits"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("Ferrow")),
        "{found}"
    );

    // Deleted: its vectors leave the file once the job has scanned again.
    let deleted = reqwest::Client::new()
        .delete(server.url("/api/admin/corpora/viaducts"))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
    let deadline = Instant::now() + Duration::from_secs(60);
    while file_len(&file) != filled {
        assert!(
            Instant::now() < deadline,
            "the deleted corpus's vectors stayed: {} bytes, {filled} before the upload",
            file_len(&file)
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(server.stop().success());
}

#[tokio::test]
async fn every_server_of_a_cluster_fills_the_vectors_of_a_corpus_uploaded_to_another() {
    let dir = scratch_dir("sentence-vectors-cluster");
    let servers = two_demo_servers(
        &dir,
        &["--admin-token", ADMIN_TOKEN, "--sentence-vectors", "true"],
    )
    .await;
    let file = |label: &str| dir.join(format!("{label}-sentences/sentence-vectors.bin"));
    let mut before = Vec::new();
    for (server, label) in [(&servers.a, "a"), (&servers.b, "b")] {
        corpora_when(server, all_have_vectors).await;
        before.push(file_len(&file(label)));
    }
    upload_viaducts(&servers.a).await;
    // Each server encodes the two new sentences into its own file beside its own index.
    for ((server, label), before) in [(&servers.a, "a"), (&servers.b, "b")]
        .into_iter()
        .zip(before)
    {
        let rows = corpora_when(server, viaducts_have_vectors).await;
        assert_eq!(row(&rows, "viaducts").unwrap()["vectors"], 2, "{rows:?}");
        assert_eq!(file_len(&file(label)), before + 2 * RECORD, "{label}");
    }
    assert!(servers.a.stop().success());
    assert!(servers.b.stop().success());
}
