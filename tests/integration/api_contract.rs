//! The API does what its OpenAPI document says: schemathesis (installed by
//! `scripts/setup.sh test` into `target/schemathesis-venv`) generates requests from the document
//! served at `/api/openapi.json`, valid and invalid ones, and checks every reply with its default
//! checks: no server errors, only documented statuses, content types, headers and schemas, valid
//! data accepted and invalid data refused. Bounded examples and a fixed seed keep it repeatable.
//!
//! Two servers on the demo corpus: one without the encoder answers count questions in
//! milliseconds even in a debug build (the lexical scorer; the answers' shape is the same), so
//! every endpoint but the health check is run there; its health check is a documented 503
//! (no encoder), so the health check is run against a server with the encoder.

use std::path::PathBuf;
use std::process::Command;

use crate::support::{demo_server, get_as_admin, workspace_root, ADMIN_TOKEN};

fn schemathesis() -> PathBuf {
    let st = workspace_root().join("target/schemathesis-venv/bin/st");
    assert!(
        st.is_file(),
        "{} is missing: run `scripts/setup.sh test` (scripts/test.sh does)",
        st.display()
    );
    st
}

/// The admin token of the server schemathesis runs against: the feedback rows need it.
const TOKEN: &str = "contract-admin-token";

/// Runs schemathesis against `base` with `filters`; panics with its report unless it passes.
fn run_schemathesis(base: &str, filters: &[&str]) {
    let config = workspace_root().join("tests/integration/schemathesis.toml");
    let output = Command::new(schemathesis())
        .current_dir(workspace_root().join("target"))
        .arg("--config-file")
        .arg(&config)
        .args(["run", &format!("{base}/api/openapi.json"), "--url", base])
        .args([
            "--max-examples",
            "10",
            "--seed",
            "17",
            "--request-timeout",
            "60",
        ])
        // Credentials are not fuzzed: control bytes in an Authorization header are refused by
        // the HTTP parser (hyper) with a bare 400 before Tally sees the request.
        .args(["--generation-with-security-parameters", "false"])
        // The coverage phase walks combinations of the optional parameters: with every count
        // setting a parameter (issue 59: 17 on the answer stream) it ran past 25 minutes.
        // Examples, fuzzing and the stateful links still exercise every parameter.
        .args(["--phases", "examples,fuzzing,stateful"])
        .args(["-H", &format!("Authorization: Bearer {TOKEN}")])
        .args(filters)
        .env("NO_COLOR", "1")
        .output()
        .expect("schemathesis runs");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "schemathesis found problems:\n{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(report.contains("No issues found"), "{report}");
}

#[tokio::test]
async fn the_api_matches_its_openapi_document() {
    let lexical = demo_server(
        "contract-lexical",
        // Feedback unlimited: the stateful phase posts more than an address's default allowance
        // (a 429 there is the limit working, tested in demo_round_five.rs).
        &[
            "--encoder",
            "no-such-encoder",
            "--admin-token",
            TOKEN,
            "--feedback-limit",
            "0",
        ],
    )
    .await;
    run_schemathesis(&lexical.base_url, &["--exclude-path", "/api/health"]);
    assert!(lexical.stop().success());

    let full = demo_server("contract-health", &[]).await;
    run_schemathesis(&full.base_url, &["--include-path", "/api/health"]);
    assert!(full.stop().success());
}

/// The description and the router hold the same operations: every operation the served
/// description lists reaches its handler (not the API's "no such API endpoint" fallback, nor a
/// 405 for its method), and the router registers the API's routes only through the handlers'
/// descriptions (`routes!` in `http::api_router`), so none is served undescribed.
#[tokio::test]
async fn the_routers_paths_and_the_descriptions_are_the_same_set() {
    let server = demo_server(
        "contract-paths",
        &["--encoder", "no-such-encoder", "--admin-token", ADMIN_TOKEN],
    )
    .await;
    let spec = get_as_admin(&server, "/api/openapi.json").await;
    let client = reqwest::Client::new();
    let paths = spec["paths"].as_object().expect("the description's paths");
    let mut operations = 0;
    for (path, item) in paths {
        for method in item.as_object().unwrap().keys() {
            operations += 1;
            let url = server.url(
                &path
                    .replace("{id}", "1")
                    .replace("{name}", "no-such-corpus"),
            );
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let response = client
                .request(method.clone(), url)
                .bearer_auth(ADMIN_TOKEN)
                .header("Origin", server.url(""))
                .send()
                .await
                .unwrap();
            let status = response.status();
            let body = response.text().await.unwrap_or_default();
            assert_ne!(
                status,
                reqwest::StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path}"
            );
            assert!(
                !body.contains("no such API endpoint"),
                "{method} {path} is described but not served: {status} {body}"
            );
        }
    }
    // The 22 operations of issue 88's count, the upload and the jobs among them, and issue
    // 100's crop of a scanned page.
    assert_eq!(operations, 23, "{:?}", paths.keys().collect::<Vec<_>>());
    for path in [
        "/api/admin/corpora",
        "/api/admin/corpora/{name}",
        "/api/admin/jobs/{id}",
        "/api/admin/jobs/{id}/events",
        "/api/admin/jobs/{id}/restart",
        "/api/crop",
    ] {
        assert!(paths.contains_key(path), "{path} is described");
    }
    // A path the description lacks is the fallback's.
    let unknown = client
        .get(server.url("/api/no-such-thing"))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), reqwest::StatusCode::NOT_FOUND);
    assert!(server.stop().success());

    // The router's side: the API's routes are added only with `routes!`, which describes them.
    let source = std::fs::read_to_string(workspace_root().join("server/src/http/mod.rs")).unwrap();
    let api_router = source
        .split("fn api_router()")
        .nth(1)
        .and_then(|rest| rest.split("\n}\n").next())
        .expect("http::api_router");
    for undescribed in [
        ".route(",
        ".route_service(",
        ".nest_service(",
        ".fallback_service(",
    ] {
        assert!(
            !api_router.contains(undescribed),
            "api_router adds a route without its description: `{undescribed}`"
        );
    }
    assert!(api_router.matches("routes!(").count() >= 20);
}
