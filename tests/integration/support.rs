//! Starting and stopping the real `tally` binary for a test.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

#[path = "../shared_paths.rs"]
mod shared_paths;
pub use shared_paths::{data_dir, json_of, run_from_root, scratch_dir, workspace_root};

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A running `tally serve`. Dropping it stops it gracefully (so that a private cluster it
/// started is stopped too).
pub struct Server {
    child: Option<Child>,
    pub base_url: String,
    pub log: PathBuf,
}

impl Server {
    /// Starts `tally serve` with `args` (after `serve --addr ...`) and extra environment, and
    /// waits until it answers `/api/health`.
    pub async fn start(log_dir: &Path, label: &str, args: &[&str], env: &[(&str, &str)]) -> Self {
        let port = free_port();
        let log = log_dir.join(format!("{label}.log"));
        let log_file = std::fs::File::create(&log).expect("log file");
        let mut command = Command::new(env!("CARGO_BIN_EXE_tally"));
        command
            .current_dir(workspace_root())
            .arg("serve")
            .arg("--addr")
            .arg(format!("127.0.0.1:{port}"))
            .args(args)
            .env_remove("DATABASE_URL")
            .env("TALLY_LOG", "info,tower_http=debug")
            // The background vector job would take the cores the tests time their answers on:
            // off unless a test turns it on (sentence_vectors.rs).
            .env("TALLY_SENTENCE_VECTORS", "false")
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().expect("log file"))
            .stderr(log_file);
        // Each server gets its own indexes (filled with the default corpus), so that servers
        // running side by side never contend for one index's writer lock.
        if !args.contains(&"--index") {
            command
                .arg("--index")
                .arg(log_dir.join(format!("{label}-index")));
        }
        if !args.contains(&"--search-index") {
            command
                .arg("--search-index")
                .arg(log_dir.join(format!("{label}-sentences")));
        }
        for (key, value) in env {
            command.env(key, value);
        }
        let child = command.spawn().expect("the tally binary starts");
        let server = Self {
            child: Some(child),
            base_url: format!("http://127.0.0.1:{port}"),
            log,
        };
        server.wait_until_up().await;
        server
    }

    async fn wait_until_up(&self) {
        let deadline = Instant::now() + Duration::from_secs(180);
        let client = reqwest::Client::new();
        while Instant::now() < deadline {
            if client.get(self.url("/api/health")).send().await.is_ok() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("server did not come up; log:\n{}", self.log_text());
    }

    /// Waits until the server has loaded its corpora and models and can answer.
    pub async fn wait_until_answering(&self) {
        let deadline = Instant::now() + Duration::from_secs(300);
        while Instant::now() < deadline {
            let health: serde_json::Value = reqwest::get(self.url("/api/health"))
                .await
                .expect("health answers")
                .json()
                .await
                .expect("health is JSON");
            if health["answering"]["ready"] == true {
                return;
            }
            assert!(
                health["answering"]["error"].is_null(),
                "answering failed: {health}\nlog:\n{}",
                self.log_text()
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        panic!(
            "the server never became ready to answer; log:\n{}",
            self.log_text()
        );
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends SIGTERM and waits for the process to exit; returns its exit status.
    pub fn stop(mut self) -> ExitStatus {
        self.terminate().expect("server was running")
    }

    /// Kills the process at once (SIGKILL), as a crash would: nothing of its shutdown runs.
    pub fn kill(mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn terminate(&mut self) -> Option<ExitStatus> {
        let mut child = self.child.take()?;
        // SAFETY: plain kill(2) on our own child's pid.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                return child.wait().ok();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.terminate();
    }
}

/// A URL on which nothing listens: a database that is down.
pub fn unreachable_database_url() -> String {
    format!("postgres://tally@127.0.0.1:{}/tally", free_port())
}

/// Fails with a clear message unless `cargo leptos build` has written the site (WASM, JS, CSS).
pub fn require_built_site() {
    let pkg = workspace_root().join("target/site/pkg");
    let has_wasm = std::fs::read_dir(&pkg)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "wasm"))
        })
        .unwrap_or(false);
    assert!(
        has_wasm,
        "no WASM in {}: build the site first (`cargo leptos build`, done by scripts/test.sh)",
        pkg.display()
    );
}

/// A server on the embedded demo corpus (an empty data directory), ready to answer.
pub async fn demo_server(name: &str, args: &[&str]) -> Server {
    let server = demo_server_starting(name, args).await;
    server.wait_until_answering().await;
    server
}

/// A server on the embedded demo corpus, up but perhaps still loading its corpora.
pub async fn demo_server_starting(name: &str, args: &[&str]) -> Server {
    let dir = scratch_dir(name);
    let empty = dir.join("no-data");
    std::fs::create_dir_all(&empty).unwrap();
    let pg = dir.join("pg").display().to_string();
    let data = empty.display().to_string();
    let mut all = vec!["--pg-dir", &pg, "--data", &data];
    all.extend_from_slice(args);
    Server::start(&dir, "server", &all, &[]).await
}

/// What the server sends on `stream` until it closes it, or until `wait` is over; whether it
/// closed it.
pub async fn read_until_closed(
    stream: &mut tokio::net::TcpStream,
    wait: Duration,
) -> (String, bool) {
    use tokio::io::AsyncReadExt;
    let mut received = Vec::new();
    let closed = tokio::time::timeout(wait, async {
        let mut buffer = [0u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await
    .is_ok();
    (String::from_utf8_lossy(&received).into_owned(), closed)
}

/// `POST /api/feedback` with `body`; the status and the JSON reply.
pub async fn post_feedback(
    server: &Server,
    body: &serde_json::Value,
) -> (reqwest::StatusCode, serde_json::Value) {
    let response = reqwest::Client::new()
        .post(server.url("/api/feedback"))
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

/// The text after `marker` in `html` up to the next `"` or `<`.
pub fn quoted_after(html: &str, marker: &str) -> Option<String> {
    let rest = &html[html.find(marker)? + marker.len()..];
    let end = rest.find(['"', '<'])?;
    Some(rest[..end].to_string())
}

/// The `action` of the page's first form whose action contains `name`.
pub fn form_action(page: &str, name: &str) -> Option<String> {
    page.split("action=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap_or(0)].to_string())
        .find(|a| a.contains(name))
}

/// The body of `GET url` as text (a page's HTML).
pub async fn page_text(url: impl reqwest::IntoUrl) -> String {
    reqwest::get(url)
        .await
        .expect("the server answers")
        .text()
        .await
        .expect("a text body")
}

/// The text of the page or stream at `url`, asked for with the admin `token` (a job and its
/// events are behind it, issue 97).
pub async fn admin_page_text(url: impl reqwest::IntoUrl, token: &str) -> String {
    reqwest::Client::new()
        .get(url)
        .bearer_auth(token)
        .send()
        .await
        .expect("the server answers")
        .text()
        .await
        .expect("a text body")
}

/// The admin token of the test servers that read feedback rows.
pub const ADMIN_TOKEN: &str = "test-admin-token";

/// `GET path` with the admin token, as JSON.
pub async fn get_as_admin(server: &Server, path: &str) -> serde_json::Value {
    let response = reqwest::Client::new()
        .get(server.url(path))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert!(
        response.status().is_success(),
        "{path}: {}",
        response.status()
    );
    response.json().await.unwrap()
}

/// Two servers on the embedded demo corpus sharing one private PostgreSQL and one login secret,
/// as behind a balancer, both ready to answer.
pub struct TwoServers {
    pub a: Server,
    pub b: Server,
    /// Runs as long as this value is held.
    pub cluster: tally_store::pg_cluster::PrivateCluster,
}

/// Starts [`TwoServers`] in `dir` with `args` (beside `--data`, an empty data directory).
pub async fn two_demo_servers(dir: &Path, args: &[&str]) -> TwoServers {
    let cluster = tally_store::pg_cluster::PrivateCluster::start(&dir.join("pg"))
        .await
        .expect("a private PostgreSQL starts");
    let database_url = cluster.url();
    let no_data = dir.join("no-data");
    std::fs::create_dir_all(&no_data).unwrap();
    let no_data = no_data.display().to_string();
    let mut all = vec!["--data", no_data.as_str()];
    all.extend_from_slice(args);
    let env = [
        ("DATABASE_URL", database_url.as_str()),
        (
            tally_server::admin_token::SESSION_SECRET_ENV,
            "two-servers-session-secret",
        ),
    ];
    let (a, b) = tokio::join!(
        Server::start(dir, "a", &all, &env),
        Server::start(dir, "b", &all, &env)
    );
    a.wait_until_answering().await;
    b.wait_until_answering().await;
    TwoServers { a, b, cluster }
}

/// Uploads one file into `corpus` with the admin token: status, JSON body, seconds taken.
pub async fn upload(
    server: &Server,
    corpus: &str,
    name: &str,
    bytes: Vec<u8>,
) -> (reqwest::StatusCode, serde_json::Value, f64) {
    let started = std::time::Instant::now();
    let form = reqwest::multipart::Form::new()
        .text("corpus", corpus.to_string())
        .part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
        );
    let response = reqwest::Client::new()
        .post(server.url("/api/admin/corpora"))
        .bearer_auth(ADMIN_TOKEN)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let body = response.json().await.unwrap_or(serde_json::Value::Null);
    (status, body, started.elapsed().as_secs_f64())
}

/// A PDF file of `objects` (object 1 the catalogue; text, or bytes for a stream's), with its
/// cross-reference table: the hostile PDFs of the upload tests are written from their objects
/// alone.
pub use tally_docgen::pdf_file::pdf_of;
