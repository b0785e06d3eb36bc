//! The home page hydrates in a real browser: headless Chromium (Debian's), driven by
//! playwright-core, clicks "Check again", which only works with the WASM app running.
//! Needs the site built by `cargo leptos build` (the README's test command does it).

use std::process::Command;

use crate::support::{
    require_built_site, scratch_dir, unreachable_database_url, workspace_root, Server,
};

#[tokio::test]
async fn home_page_hydrates_and_rechecks_status() {
    let root = workspace_root();
    require_built_site();
    let dir = scratch_dir("browser");
    let db_url = unreachable_database_url();
    let server = Server::start(&dir, "server", &[], &[("DATABASE_URL", &db_url)]).await;
    let screenshot = root.join("target/browser/home.png");
    let _ = std::fs::remove_file(&screenshot);

    let output = Command::new("node")
        .current_dir(&root)
        .arg("tests/browser/hydration.mjs")
        .arg(server.url("/"))
        .arg(&screenshot)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "browser test failed\nstdout:\n{stdout}\nstderr:\n{stderr}\nserver log:\n{}",
        server.log_text()
    );
    println!("{stdout}");
    let png = std::fs::read(&screenshot).expect("screenshot saved");
    assert!(png.starts_with(b"\x89PNG"), "screenshot is a PNG");
    assert!(server.stop().success());
}
