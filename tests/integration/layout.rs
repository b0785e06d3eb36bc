//! The layout table in `docs/layout.md` cannot drift from the tree: every path it names exists,
//! every file of the checkout lies under a row, and every file of the folders people read
//! (the crates' sources, scripts, tests, docs, deployment) is named in its folder's row.

use std::collections::BTreeSet;
use std::process::Command;

use crate::support::workspace_root;

/// Folders whose every file the table names (in the row of the nearest folder it lists).
const NAMED_ONE_BY_ONE: [&str; 13] = [
    "types/src/",
    "engine/src/",
    "app/src/",
    "server/src/",
    "scripts/",
    "deploy/",
    ".ci/",
    "docs/",
    "tests/integration/",
    "tests/browser/",
    "benches/",
    "fuzz/",
    ".cargo/",
];

/// Files a folder's row need not name: the folder is the module.
const MODULE_ROOTS: [&str; 2] = ["mod.rs", "lib.rs"];

struct Row {
    paths: Vec<String>,
    what: String,
}

fn rows(table: &str) -> Vec<Row> {
    table
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').splitn(2, " | ").collect();
            let paths = cells[0]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(|p| p.trim().to_string())
                .collect();
            Row {
                paths,
                what: cells.get(1).copied().unwrap_or_default().to_string(),
            }
        })
        .collect()
}

/// The checkout's files, tracked or not, without what git ignores (build outputs, models).
fn files() -> Vec<String> {
    let out = Command::new("git")
        .args(["ls-files", "--cached", "--others", "--exclude-standard"])
        .current_dir(workspace_root())
        .output()
        .expect("git lists the checkout's files");
    assert!(out.status.success(), "git ls-files failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|f| workspace_root().join(f).exists())
        .map(String::from)
        .collect()
}

#[test]
fn the_layout_table_names_every_folder_and_file() {
    let root = workspace_root();
    let table = std::fs::read_to_string(root.join("docs/layout.md")).expect("docs/layout.md");
    let rows = rows(&table);
    assert!(rows.len() > 10, "the table has rows");
    let mut problems = BTreeSet::new();
    for path in rows.iter().flat_map(|r| &r.paths) {
        if !root.join(path).exists() {
            problems.insert(format!("the table names `{path}`, which does not exist"));
        }
    }
    for file in files() {
        // The row of the nearest folder (or the file itself) the table lists.
        let nearest = rows
            .iter()
            .flat_map(|row| row.paths.iter().map(move |p| (p, row)))
            .filter(|(p, _)| *p == &file || (p.ends_with('/') && file.starts_with(p.as_str())))
            .max_by_key(|(p, _)| p.len());
        let Some((path, row)) = nearest else {
            problems.insert(format!("`{file}` lies under no row"));
            continue;
        };
        let name = file.rsplit('/').next().unwrap_or(&file);
        let one_by_one = NAMED_ONE_BY_ONE.iter().any(|f| file.starts_with(f));
        if one_by_one
            && path != &file
            && !MODULE_ROOTS.contains(&name)
            && !row.what.contains(&format!("{name}`"))
        {
            problems.insert(format!(
                "the row of `{path}` does not name `{name}` ({file})"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/layout.md is out of date:\n{}",
        problems.into_iter().collect::<Vec<_>>().join("\n")
    );
}
