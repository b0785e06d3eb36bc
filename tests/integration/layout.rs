//! The layout table in `docs/layout.md` cannot drift from the tree: every path it names exists,
//! every file of the checkout lies under a row, and every file of the folders people read
//! (the crates' sources, scripts, tests, docs, deployment) is named in its folder's row.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use crate::support::workspace_root;

/// Folders besides the crates' sources whose every file the table names (in the row of the
/// nearest folder it lists).
const ALSO_NAMED_ONE_BY_ONE: [&str; 10] = [
    "scripts/",
    "tests/lab/",
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
fn nothing_a_build_makes_is_tracked() {
    // Issue 102: an index a test run wrote under `server/target/` was committed once; every
    // `target/` folder is a build's output, ignored wherever it is.
    let out = Command::new("git")
        .args(["ls-files", "--cached"])
        .current_dir(workspace_root())
        .output()
        .expect("git lists the tracked files");
    assert!(out.status.success(), "git ls-files failed");
    let tracked = String::from_utf8_lossy(&out.stdout);
    let built: Vec<&str> = tracked
        .lines()
        .filter(|path| path.split('/').any(|part| part == "target"))
        .collect();
    assert!(built.is_empty(), "build output tracked: {built:?}");
    let ignored = Command::new("git")
        .args(["check-ignore", "-q", "server/target/tally-index/meta.json"])
        .current_dir(workspace_root())
        .status()
        .expect("git checks the ignore rules");
    assert!(
        ignored.success(),
        "a target/ folder below the root is not ignored"
    );
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
        let one_by_one = CRATE_SOURCES
            .iter()
            .chain(&ALSO_NAMED_ONE_BY_ONE)
            .any(|f| file.starts_with(f));
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

/// The crates' source folders, from the floor up: the table names each of their files too.
const CRATE_SOURCES: [&str; 14] = [
    "types/src/",
    "text/src/",
    "encoder/src/",
    "page-image/src/",
    "documents/src/",
    "docgen/src/",
    "engine/src/",
    "answer/src/",
    "lab/src/",
    "store/src/",
    "setup/src/",
    "app/src/",
    "server/src/",
    "lab-cli/src/",
];

/// Each Rust file of the crates' sources, with its text.
fn crate_sources() -> Vec<(String, String)> {
    let root = workspace_root();
    files()
        .into_iter()
        .filter(|file| {
            let in_a_crate = CRATE_SOURCES.iter().any(|dir| file.starts_with(dir));
            in_a_crate && file.ends_with(".rs")
        })
        .map(|file| {
            let text = std::fs::read_to_string(root.join(&file)).unwrap();
            (file, text)
        })
        .collect()
}

/// The longest a Rust file may be, a crate's or a test's.
const MAX_FILE_LINES: usize = 900;

#[test]
fn no_source_file_is_longer_than_900_lines() {
    let root = workspace_root();
    let long: Vec<String> = files()
        .into_iter()
        .filter(|file| file.ends_with(".rs"))
        .map(|file| {
            let lines = std::fs::read_to_string(root.join(&file))
                .unwrap()
                .lines()
                .count();
            (file, lines)
        })
        .filter(|(_, lines)| *lines > MAX_FILE_LINES)
        .map(|(file, lines)| format!("{file}: {lines} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "split these where their meaning splits:\n{}",
        long.join("\n")
    );
}

/// The longest a function may be; word lists and rule tables are the exceptions below.
const MAX_FUNCTION_LINES: usize = 120;

/// Functions that are a word list or a table of rules read in order: longer, and better whole.
const WORD_LISTS_AND_RULE_TABLES: [&str; 2] = [
    // quantity/lexicon.rs: the English function words.
    "is_function_word",
    // quantity/extract/rejections.rs: the rules that reject a number, in the order they apply.
    "is_not_a_quantity",
];

/// A line of Rust without its string and character literals and its comment, for counting braces.
fn code_of(line: &str) -> String {
    let mut code = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '\'' => {
                // A character literal ('{', '\'') or a lifetime ('a): skip the literal only.
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    chars.next();
                    chars.next();
                    chars.next();
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            c => code.push(c),
        }
    }
    code
}

/// The name of the function a line declares (with a body), if it declares one.
fn declared_function(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "async ",
        "const ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let name = rest.strip_prefix("fn ")?;
    let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    (!line.trim_end().ends_with(';')).then_some(&name[..end])
}

#[test]
fn no_function_is_longer_than_120_lines() {
    let mut long = Vec::new();
    for (file, text) in crate_sources() {
        let lines: Vec<&str> = text.lines().collect();
        for (start, line) in lines.iter().enumerate() {
            let Some(name) = declared_function(line) else {
                continue;
            };
            let (mut depth, mut opened) = (0i64, false);
            let mut end = start;
            for (k, line) in lines.iter().enumerate().skip(start) {
                let code = code_of(line);
                let opens = code.matches('{').count() as i64;
                depth += opens - code.matches('}').count() as i64;
                opened |= opens > 0;
                end = k;
                if opened && depth <= 0 {
                    break;
                }
            }
            let length = end - start + 1;
            if length > MAX_FUNCTION_LINES && !WORD_LISTS_AND_RULE_TABLES.contains(&name) {
                long.push(format!("{file}: `{name}` has {length} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions longer than {MAX_FUNCTION_LINES} lines (split them into named steps):\n{}",
        long.join("\n")
    );
}

/// The error type of each `Result<T, E>` written on a line, as written.
fn result_error_types(code: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("Result<") {
        let after = &rest[at + "Result<".len()..];
        let (mut depth, mut comma, mut end) = (0i32, None, None);
        for (k, c) in after.char_indices() {
            match c {
                '<' | '(' => depth += 1,
                '>' | ')' if depth == 0 => {
                    end = Some(k);
                    break;
                }
                '>' | ')' => depth -= 1,
                ',' if depth == 0 => comma = Some(k),
                _ => {}
            }
        }
        if let (Some(comma), Some(end)) = (comma, end) {
            errors.push(after[comma + 1..end].trim().to_string());
        }
        rest = after;
    }
    errors
}

#[test]
fn errors_are_types_not_strings() {
    let mut stringly = Vec::new();
    for (file, text) in crate_sources() {
        for (n, line) in text.lines().enumerate() {
            if result_error_types(&code_of(line))
                .iter()
                .any(|e| e == "String" || e == "&str" || e == "&'static str")
            {
                stringly.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert_eq!(
        result_error_types("fn f() -> Result<HashMap<String, String>, Error> {"),
        ["Error"]
    );
    assert!(
        stringly.is_empty(),
        "results whose error is a string (give the error a type):\n{}",
        stringly.join("\n")
    );
}

/// How many `map_err`s may turn their cause into text outside [`SENTENCE_EDGES`] (issue 102):
/// everywhere else a cause is kept as the error's `source`.
const MAX_CAUSES_AS_TEXT: usize = 5;

/// The edges that write sentences for people (an HTTP answer, a command's message, the page):
/// a library's message may become part of what they say.
const SENTENCE_EDGES: [&str; 3] = ["server/src/http/", "server/src/commands/", "app/src/"];

/// The crates' sources outside [`SENTENCE_EDGES`]: where a cause stays a cause.
fn sources_behind_the_edges() -> impl Iterator<Item = (String, String)> {
    crate_sources()
        .into_iter()
        .filter(|(file, _)| !SENTENCE_EDGES.iter().any(|edge| file.starts_with(edge)))
}

#[test]
fn causes_are_kept_not_turned_into_text() {
    let mut as_text = Vec::new();
    for (file, text) in sources_behind_the_edges() {
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            if let Some(cause) = map_err_argument(line) {
                // The closure's body: this line and the next two.
                let body = lines[n..lines.len().min(n + 3)].join(" ");
                let body = &body[body.find("map_err(").unwrap_or(0)..];
                let writes_it = body.contains(&format!("{{{cause}}}"))
                    || body.contains(&format!("{{{cause}:"))
                    || calls_to_string(body, cause);
                if writes_it {
                    as_text.push(format!("{file}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert_eq!(map_err_argument(".map_err(|e| Error::Io(e))?"), Some("e"));
    assert_eq!(map_err_argument(".map_err(Error::Io)?"), None);
    assert_eq!(map_err_argument(".map_err(move |e: Io| Bad(e))"), Some("e"));
    assert!(calls_to_string("|e| Bad(e.to_string())", "e"));
    assert!(!calls_to_string("|e| Bad { file: name.to_string() }", "e"));
    assert!(
        as_text.len() <= MAX_CAUSES_AS_TEXT,
        "{} `map_err`s turn their cause into text (at most {MAX_CAUSES_AS_TEXT}; keep it as \
         the error's #[source]):\n{}",
        as_text.len(),
        as_text.join("\n")
    );
}

/// How many error variants outside [`SENTENCE_EDGES`] may hold a sentence as a bare `String`
/// (issue 102): every other error keeps what it knows typed, and writes its sentence in its
/// own `#[error]`.
const MAX_SENTENCE_VARIANTS: usize = 5;

#[test]
fn errors_hold_typed_facts_not_sentences_made_where_they_are_raised() {
    let mut sentences = Vec::new();
    for (file, text) in sources_behind_the_edges() {
        for (line, variant) in string_error_variants(&text) {
            sentences.push(format!("{file}:{line}: {variant}"));
        }
    }
    let example = "#[derive(Debug, thiserror::Error)]\n/// Why.\npub enum E {\n    #[error(\"{0}\")]\n    \
                   Said(String),\n    Named { name: String },\n}\n\
                   #[derive(Debug, thiserror::Error)]\n#[error(\n    \"{0}\"\n)]\npub struct Why(String);\n\
                   pub enum Test {\n    Is(String),\n}\n";
    let found: Vec<&str> = string_error_variants(example)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    assert_eq!(found, ["Said(String),", "pub struct Why(String);"]);
    assert!(
        sentences.len() <= MAX_SENTENCE_VARIANTS,
        "{} error variants hold a bare `String` (at most {MAX_SENTENCE_VARIANTS}; give the \
         facts typed fields and the sentence to #[error]):\n{}",
        sentences.len(),
        sentences.join("\n")
    );
}

/// Each crate shows the crates above it one error (issue 102; tantivy's `TantivyError`,
/// meilisearch's `milli::Error`): of the error types a crate defines (named `…Error`), at most
/// one is named by another crate's code; the others are its causes or kinds.
#[test]
fn each_crate_shows_its_callers_one_error() {
    let sources = crate_sources();
    let crate_of = |file: &str| file.split('/').next().unwrap_or_default().to_string();
    let mut defined: Vec<(String, String)> = Vec::new();
    for (file, text) in &sources {
        for name in error_type_names(text) {
            defined.push((crate_of(file), name.to_string()));
        }
    }
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (home, name) in &defined {
        let used_outside = sources.iter().any(|(file, text)| {
            crate_of(file) != *home && text.lines().any(|line| names_word(&code_of(line), name))
        });
        if used_outside {
            seen.entry(home.clone()).or_default().insert(name.clone());
        }
    }
    let mut many = Vec::new();
    for (home, names) in &seen {
        if names.len() > 1 {
            many.push(format!("{home}: {names:?}"));
        }
    }
    assert_eq!(
        error_type_names("#[derive(Debug, thiserror::Error)]\npub enum WhyError {\n}\n"),
        ["WhyError"]
    );
    assert_eq!(
        error_type_names(
            "use thiserror::Error;\n#[derive(Debug, Error)]\npub(crate) enum AError {}\n"
        ),
        ["AError"]
    );
    assert!(names_word("Result<(), tally_x::WhyError>", "WhyError"));
    assert!(!names_word("Result<(), NotWhyError>", "WhyError"));
    // The scan finds what the crates above name (it cannot pass by finding nothing).
    for (home, name) in [
        ("engine", "EngineError"),
        ("documents", "DocumentsError"),
        ("store", "DbError"),
        ("answer", "AnswerError"),
    ] {
        assert!(
            seen.get(home).is_some_and(|names| names.contains(name)),
            "the scan no longer finds {home}'s {name} named by the crates above it"
        );
    }
    assert!(
        many.is_empty(),
        "crates whose callers see several errors (fold them into the crate's one error, its \
         variants keeping each as a source):\n{}",
        many.join("\n")
    );
}

/// The names ending in `Error` of the types in `text` that derive `thiserror::Error`.
fn error_type_names(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let mut names = Vec::new();
    let imported = text.contains("use thiserror::Error;");
    for (n, line) in lines.iter().enumerate() {
        let derives = line.trim_start().starts_with("#[derive(")
            && (line.contains("thiserror::Error") || (imported && names_word(line, "Error")));
        if !derives {
            continue;
        }
        let item = lines[n + 1..].iter().find_map(|line| {
            let line = line.trim_start();
            let line = ["pub(crate) ", "pub(super) ", "pub "]
                .iter()
                .find_map(|p| line.strip_prefix(p))
                .unwrap_or(line);
            line.strip_prefix("enum ")
                .or_else(|| line.strip_prefix("struct "))
        });
        if let Some(item) = item {
            let name = item
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
                .unwrap_or_default();
            if name.ends_with("Error") {
                names.push(name);
            }
        }
    }
    names
}

/// Whether `code` names `name` as a whole word.
fn names_word(code: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(name).any(|(at, _)| {
        !code[..at].chars().next_back().is_some_and(word)
            && !code[at + name.len()..].chars().next().is_some_and(word)
    })
}

/// The variants of the error types in `text` (those deriving `thiserror::Error`) that hold a
/// bare `String`, with their line numbers.
fn string_error_variants(text: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut n = 0;
    while n < lines.len() {
        if !(lines[n].trim_start().starts_with("#[derive(")
            && lines[n].contains("thiserror::Error"))
        {
            n += 1;
            continue;
        }
        // The item the derive is on (past its attributes and doc comments, however many lines
        // they take): a tuple struct, or an enum up to its closing brace.
        let Some(item) = (n + 1..lines.len()).find(|&i| {
            let line = lines[i].trim_start();
            let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
            let line = line.strip_prefix("pub ").unwrap_or(line);
            line.starts_with("enum ") || line.starts_with("struct ")
        }) else {
            break;
        };
        let head = lines[item].trim();
        if head.contains("struct") && head.contains("(String)") {
            found.push((item + 1, head));
        } else if head.contains("enum") {
            let end = (item..lines.len())
                .find(|&i| lines[i].starts_with('}'))
                .unwrap_or(lines.len());
            for (i, line) in lines.iter().enumerate().take(end).skip(item + 1) {
                if line.trim().ends_with("(String),") {
                    found.push((i + 1, line.trim()));
                }
            }
            n = end;
        }
        n += 1;
    }
    found
}

/// Whether `body` calls `cause.to_string()` (not `name.to_string()` for a cause `e`).
fn calls_to_string(body: &str, cause: &str) -> bool {
    let call = format!("{cause}.to_string()");
    body.match_indices(&call).any(|(at, _)| {
        !body[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The name a `map_err(|name| …)` closure gives its cause, on `line`.
fn map_err_argument(line: &str) -> Option<&str> {
    let after = &line[line.find("map_err(")? + "map_err(".len()..];
    let rest = after.trim_start().trim_start_matches("move").trim_start();
    let rest = rest.strip_prefix('|')?;
    // `|e: io::Error|` names `e`.
    let name = rest[..rest.find('|')?].split(':').next()?.trim();
    (!name.is_empty() && name != "_").then_some(name)
}

/// The map's rows: each crate's folder and the crates it imports, by their short names.
fn map_rows(layout: &str) -> Vec<(String, BTreeSet<String>)> {
    map_lines(layout)
        .iter()
        .map(|cells| {
            let imports = cells[2]
                .split(',')
                .map(str::trim)
                .filter(|name| *name != "–")
                .map(String::from)
                .collect();
            (folder_of(cells), imports)
        })
        .collect()
}

/// The map's rows split into their cells.
fn map_lines(layout: &str) -> Vec<Vec<String>> {
    let map = layout
        .split("## The map")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/layout.md has a map");
    map.lines()
        .filter(|line| line.starts_with("| tally-"))
        .map(|line| {
            line.trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

/// A map row's crate folder (`engine` for "tally-engine (`engine/`)").
fn folder_of(cells: &[String]) -> String {
    cells[0]
        .split('`')
        .nth(1)
        .expect("a crate's folder in backticks")
        .trim_end_matches('/')
        .to_string()
}

/// A crate's lines outside tests: each Rust file of its `src/` (among the checkout's `files`) up
/// to its first `#[cfg(test)]` line, files that hold only tests (`tests.rs`, `…_tests.rs`, a
/// `tests/` folder) left out.
fn lines_outside_tests(files: &[String], folder: &str) -> usize {
    let src = format!("{folder}/src/");
    files
        .iter()
        .filter(|file| file.starts_with(&src) && file.ends_with(".rs"))
        .filter(|file| !file.ends_with("tests.rs") && !file.contains("/tests/"))
        .map(|file| {
            let text = std::fs::read_to_string(workspace_root().join(file)).unwrap();
            text.lines()
                .take_while(|line| !line.starts_with("#[cfg(test)]"))
                .count()
        })
        .sum()
}

#[test]
fn every_crate_is_no_longer_than_the_map_says() {
    let root = workspace_root();
    let layout = std::fs::read_to_string(root.join("docs/layout.md")).expect("docs/layout.md");
    let files = files();
    let mut problems = Vec::new();
    for cells in map_lines(&layout) {
        let folder = folder_of(&cells);
        let limit: usize = cells
            .get(4)
            .and_then(|cell| cell.replace(',', "").parse().ok())
            .unwrap_or_else(|| panic!("the map gives {folder} its lines at most"));
        let lines = lines_outside_tests(&files, &folder);
        if lines > limit {
            problems.push(format!(
                "{folder}: {lines} lines outside tests, the map allows {limit}"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The Tally crates a `Cargo.toml` depends on (normal, dev and build dependencies alike: each
/// is an arrow in `cargo tree`), by their short names.
fn tally_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut in_dependencies = false;
    let mut names = BTreeSet::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_dependencies = line.ends_with("dependencies]");
            continue;
        }
        if !in_dependencies {
            continue;
        }
        if let Some(name) = line.strip_prefix("tally-") {
            let name = name.split(['=', '.', ' ']).next().unwrap_or_default();
            names.insert(name.to_string());
        }
    }
    names
}

#[test]
fn every_crate_imports_what_the_map_says_and_nothing_imports_the_lab_but_its_binary() {
    let root = workspace_root();
    let layout = std::fs::read_to_string(root.join("docs/layout.md")).expect("docs/layout.md");
    let rows = map_rows(&layout);
    assert!(rows.len() >= 12, "the map lists the crates: {rows:?}");
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut problems = Vec::new();
    for (folder, imports) in &rows {
        if !workspace.contains(&format!("\"{folder}\"")) {
            problems.push(format!("`{folder}` is not a member of the workspace"));
        }
        let manifest = std::fs::read_to_string(root.join(folder).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{folder}/Cargo.toml: {e}"));
        let depends = tally_dependencies(&manifest);
        if &depends != imports {
            problems.push(format!(
                "{folder}/Cargo.toml imports {depends:?}; the map says {imports:?}"
            ));
        }
    }
    // The invariants the map states that an import would break.
    let importers_of = |name: &str| -> Vec<&str> {
        rows.iter()
            .filter(|(_, imports)| imports.contains(name))
            .map(|(folder, _)| folder.as_str())
            .collect()
    };
    assert_eq!(
        importers_of("lab"),
        ["lab-cli"],
        "only the lab's binary imports the lab"
    );
    assert!(importers_of("server").iter().all(|f| *f == "lab-cli"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
