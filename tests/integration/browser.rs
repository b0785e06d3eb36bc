//! The home page hydrates in a real browser: headless Chromium (Debian's), driven by
//! playwright-core, clicks "Check again", which only works with the WASM app running.
//! Needs the site built by `cargo leptos build` (the README's test command does it).

use std::process::Command;

use crate::support::{
    require_built_site, scratch_dir, unreachable_database_url, workspace_root, Server,
};

/// Runs a playwright-core script with node; fails with its output and the server's log, or
/// returns what it printed.
fn run_browser_script(server: &Server, script: &str, args: &[&str]) -> String {
    let output = Command::new("node")
        .current_dir(workspace_root())
        .arg(script)
        .args(args)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "browser test failed\nstdout:\n{stdout}\nstderr:\n{stderr}\nserver log:\n{}",
        server.log_text()
    );
    println!("{stdout}");
    stdout
}

#[tokio::test]
async fn home_page_hydrates_and_rechecks_status() {
    let root = workspace_root();
    require_built_site();
    let dir = scratch_dir("browser");
    let db_url = unreachable_database_url();
    let server = Server::start(&dir, "server", &[], &[("DATABASE_URL", &db_url)]).await;
    let screenshot = root.join("target/browser/home.png");
    let _ = std::fs::remove_file(&screenshot);

    run_browser_script(
        &server,
        "tests/browser/hydration.mjs",
        &[&server.url("/"), &screenshot.display().to_string()],
    );
    let png = std::fs::read(&screenshot).expect("screenshot saved");
    assert!(png.starts_with(b"\x89PNG"), "screenshot is a PNG");
    assert!(server.stop().success());
}

/// A person asks a dataset count question and a quantity search in the browser; the feedback
/// the page confirms is in the database, tied to the answer the page shows.
#[tokio::test]
async fn questions_answers_and_feedback_in_a_browser() {
    let root = workspace_root();
    require_built_site();
    let dir = scratch_dir("browser-answers");
    let pg = dir.join("pg").display().to_string();
    let server = Server::start(&dir, "server", &["--pg-dir", &pg], &[]).await;
    server.wait_until_answering().await;
    let shots = root.join("target/browser");

    let stdout = run_browser_script(
        &server,
        "tests/browser/answers.mjs",
        &[&server.base_url, &shots.display().to_string()],
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    assert_eq!(seen["count"], "180");

    let feedback: serde_json::Value =
        reqwest::get(server.url(&format!("/api/feedback/{}", seen["feedback_id"])))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    assert_eq!(feedback["answer_id"], seen["answer_id"], "{feedback}");
    assert_eq!(feedback["part"], "instance");
    assert_eq!(feedback["part_ref"], seen["instance"]);
    assert_eq!(feedback["verdict"], "relevant");
    for name in ["count.png", "count-phone-dark.png", "search.png"] {
        let png = std::fs::read(shots.join(name)).expect("screenshot saved");
        assert!(png.starts_with(b"\x89PNG"), "{name} is a PNG");
    }
    assert!(server.stop().success());
}
