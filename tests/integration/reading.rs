//! Reading measured where it happens (issue 85): the generator's documents, whose truth is
//! known, through `tally read --json` in every format (a table's header paths, its Total row
//! apart) and through the web upload: a sum and a count with a condition over a table with a
//! Total row are computed over its data rows only, in a Word file and an Excel workbook.

use std::path::PathBuf;
use std::process::Command;

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;

use crate::own_documents::{json, upload_and_wait, TOKEN};
use crate::support::{demo_server, workspace_root};

/// The generator's document of seed 17 in every format, and its branches table's truth (a
/// library service's: its second table lists branches with their staff, under a Total row).
/// `tests/lab/reading_fixtures.rs` keeps them the lab generator's output.
struct Fixtures {
    dir: PathBuf,
    truth: Value,
}

impl Fixtures {
    fn load() -> Fixtures {
        let dir = workspace_root().join("tests/fixtures/reading");
        let truth = std::fs::read(dir.join("truth.json")).expect("the reading fixtures' truth");
        Fixtures {
            dir,
            truth: serde_json::from_slice(&truth).expect("truth.json is JSON"),
        }
    }

    fn formats(&self) -> Vec<&str> {
        self.truth["formats"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect()
    }

    fn file(&self, extension: &str) -> (String, PathBuf) {
        let name = format!("{}.{extension}", self.truth["name"].as_str().unwrap());
        let path = self.dir.join(&name);
        (name, path)
    }

    /// Each data row's staff.
    fn staff(&self) -> Vec<i64> {
        self.truth["staff"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_i64)
            .collect()
    }
}

#[test]
fn tally_read_json_prints_header_paths_and_total_rows_in_every_format() {
    let fixtures = Fixtures::load();
    let width = fixtures.truth["width"].as_u64().unwrap() as usize;
    for format in fixtures.formats() {
        let (_, path) = fixtures.file(format);
        let output = Command::new(env!("CARGO_BIN_EXE_tally"))
            .args(["read", "--json"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{format:?}: {output:?}");
        if format == "csv" {
            // A CSV file holds the document's first table only.
            continue;
        }
        let read: Value = serde_json::from_slice(&output.stdout).unwrap();
        let tables: Vec<&Value> = read["documents"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["tables"].as_array().unwrap())
            .collect();
        let branches = tables
            .iter()
            .find(|t| {
                t["header"]
                    .as_array()
                    .is_some_and(|h| h.len() == width && h[1] == "Staff")
            })
            .unwrap_or_else(|| panic!("{format:?}: no table of branches in {read}"));
        let kinds: Vec<&str> = branches["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["kind"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds.iter().filter(|k| **k == "total").count(),
            1,
            "{format:?}: {branches}"
        );
        assert_eq!(
            kinds.iter().filter(|k| **k == "data").count(),
            fixtures.staff().len(),
            "{format:?}: {branches}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sum_and_a_count_leave_the_total_row_out_after_an_upload() {
    let server = demo_server("reading", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let fixtures = Fixtures::load();
    let staff = fixtures.staff();
    let total: i64 = staff.iter().sum();
    let over_20 = staff.iter().filter(|n| **n > 20).count();
    for format in ["docx", "xlsx"] {
        let corpus = format!("generated-{format}");
        let (name, path) = fixtures.file(format);
        let form = Form::new().text("corpus", corpus.clone()).part(
            "file",
            Part::bytes(std::fs::read(path).unwrap()).file_name(name),
        );
        upload_and_wait(&client, &server, form).await;
        let ask = |question: &str| {
            let url = server.url(&format!(
                "/api/count?q={}&corpus={corpus}",
                question.replace(' ', "+")
            ));
            let client = client.clone();
            async move {
                let (status, body) = json(client.get(url).send().await.unwrap()).await;
                assert_eq!(status, StatusCode::OK, "{body}");
                body["answer"].clone()
            }
        };
        let sum = ask("how many staff work at the branches in total").await;
        assert_eq!(sum["count"], total as f64, "{format:?}: {sum}");
        let count = ask("how many branches have more than 20 staff").await;
        assert_eq!(count["count"], over_20 as f64, "{format:?}: {count}");
    }
}
