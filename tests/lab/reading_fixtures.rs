//! The reading fixtures of the server's tests (`tests/fixtures/reading/`) are the generator's
//! document of seed 17 written in every format, and its branches table's truth. The serving
//! crate's tests read the files, so that it needs no lab to test with; this test keeps them the
//! generator's output. `TALLY_WRITE_FIXTURES=1` writes them again after a change to the
//! generator.

use serde_json::json;
use tally_docgen::content::document;
use tally_docgen::model::{Block, RowKind, Value as Cell};
use tally_docgen::render::{render, Format};

use crate::support::workspace_root;

/// A library service's document: its second table lists branches with their staff, under a
/// Total row (seed 17 of the tuning part).
const SEED: u64 = 17;

/// The branches table's truth: its width and each data row's staff.
fn truth() -> serde_json::Value {
    let generated = document(SEED);
    let table = generated
        .blocks
        .iter()
        .find_map(|b| match b {
            Block::Table(t) if t.header_paths().iter().any(|p| p == "Staff") => Some(t),
            _ => None,
        })
        .expect("seed 17 draws a table of branches and their staff");
    let column = table
        .header_paths()
        .iter()
        .position(|p| p == "Staff")
        .expect("a Staff column");
    let staff: Vec<i64> = table
        .rows
        .iter()
        .filter(|r| r.kind == RowKind::Data)
        .filter_map(|r| match &r.cells[column].value {
            Cell::Integer { n } => Some(*n),
            _ => None,
        })
        .collect();
    json!({
        "name": generated.name,
        "seed": SEED,
        "width": table.width(),
        "staff_column": column,
        "staff": staff,
        "formats": Format::ALL.iter().map(|f| f.extension()).collect::<Vec<_>>(),
    })
}

#[test]
fn the_reading_fixtures_are_the_generators_documents() {
    let dir = workspace_root().join("tests/fixtures/reading");
    let generated = document(SEED);
    let truth = truth();
    let mut files = vec![(
        "truth.json".to_string(),
        format!("{}\n", serde_json::to_string_pretty(&truth).unwrap()).into_bytes(),
    )];
    for format in Format::ALL {
        let name = format!("{}.{}", generated.name, format.extension());
        files.push((name, render(&generated, format)));
    }
    if std::env::var_os("TALLY_WRITE_FIXTURES").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes) in &files {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }
    for (name, bytes) in &files {
        let stored = std::fs::read(dir.join(name))
            .unwrap_or_else(|e| panic!("tests/fixtures/reading/{name}: {e}"));
        assert!(
            &stored == bytes,
            "tests/fixtures/reading/{name} is not what the generator writes now; \
             TALLY_WRITE_FIXTURES=1 writes it again"
        );
    }
}
