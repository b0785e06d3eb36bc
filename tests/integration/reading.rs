//! Reading measured where it happens (issue 85): the generator's documents, whose truth is
//! known, through `tally read --json` in every format (a table's header paths, its Total row
//! apart) and through the web upload: a sum and a count with a condition over a table with a
//! Total row are computed over its data rows only, in a Word file and an Excel workbook.

use std::process::Command;

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;
use tally_lab::reading::content::document;
use tally_lab::reading::model::{Block, RowKind, Table, Value as Cell};
use tally_lab::reading::render::{render, Format};

use crate::own_documents::{json, upload_and_wait, TOKEN};
use crate::support::{demo_server, scratch_dir};

/// A library service's document: its second table lists branches with their staff, under a
/// Total row (seed 17 of the tuning part).
const SEED: u64 = 17;

fn branches() -> Table {
    document(SEED)
        .blocks
        .into_iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .find(|t| t.header_paths().iter().any(|p| p == "Staff"))
        .expect("seed 17 draws a table of branches and their staff")
}

/// Each data row's staff.
fn staff(table: &Table) -> Vec<i64> {
    let column = table
        .header_paths()
        .iter()
        .position(|p| p == "Staff")
        .expect("a Staff column");
    table
        .rows
        .iter()
        .filter(|r| r.kind == RowKind::Data)
        .filter_map(|r| match &r.cells[column].value {
            Cell::Integer { n } => Some(*n),
            _ => None,
        })
        .collect()
}

#[test]
fn tally_read_json_prints_header_paths_and_total_rows_in_every_format() {
    let dir = scratch_dir("reading-json");
    let generated = document(SEED);
    let table = branches();
    for format in Format::ALL {
        let path = dir.join(format!("{}.{}", generated.name, format.extension()));
        std::fs::write(&path, render(&generated, format)).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_tally"))
            .args(["read", "--json"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{format:?}: {output:?}");
        if format == Format::Csv {
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
                    .is_some_and(|h| h.len() == table.width() && h[1] == "Staff")
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
            staff(&table).len(),
            "{format:?}: {branches}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sum_and_a_count_leave_the_total_row_out_after_an_upload() {
    let server = demo_server("reading", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let generated = document(SEED);
    let table = branches();
    let staff = staff(&table);
    let total: i64 = staff.iter().sum();
    let over_20 = staff.iter().filter(|n| **n > 20).count();
    for format in [Format::Docx, Format::Xlsx] {
        let corpus = format!("generated-{}", format.extension());
        let name = format!("{}.{}", generated.name, format.extension());
        let form = Form::new().text("corpus", corpus.clone()).part(
            "file",
            Part::bytes(render(&generated, format)).file_name(name),
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
