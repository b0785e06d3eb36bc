//! Files other programs made (issue 100), answered through `tally ask`: a route list exported
//! by a European spreadsheet (`;` between fields, a byte-order mark, decimal commas, thousands
//! dots, day-first dates, quoted fields holding `;`), the same export as an older spreadsheet
//! writes it (Windows-1252), AGM minutes with the names under "Present:" one a paragraph, and
//! a page of actions as a Markdown task list, and a phone's photo of a till receipt (its HTML
//! beside it; made with `tally-lab eval reading --receipts --conditions photo --scan-files
//! quayside-deli-receipt.html --write DIR`). The files are in `tests/fixtures/other-programs`.
//! (A value question over a CSV row, "what is the distance of the ridge path", finds no
//! observation, comma or semicolon file alike: a gap of the value answer, not of the reading.)

use std::process::Output;

use serde_json::Value;

use crate::support::{json_of, run_from_root, scratch_dir, workspace_root};

/// `tally` with its indexes in a scratch folder of this test.
struct Tally {
    index: String,
    sentences: String,
}

impl Tally {
    fn new(name: &str) -> Tally {
        let dir = scratch_dir(name);
        Tally {
            index: dir.join("snippets").display().to_string(),
            sentences: dir.join("sentences").display().to_string(),
        }
    }

    fn run(&self, args: &[&str]) -> Output {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--index", &self.index, "--search-index", &self.sentences]);
        run_from_root(env!("CARGO_BIN_EXE_tally"), &all, &[])
    }

    fn ingest(&self, corpus: &str, files: &[&str]) {
        let dir = workspace_root().join("tests/fixtures/other-programs");
        let paths: Vec<String> = files
            .iter()
            .map(|f| dir.join(f).display().to_string())
            .collect();
        let mut args = vec!["ingest", "--corpus", corpus];
        args.extend(paths.iter().map(String::as_str));
        let out = self.run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The answer object of a count question over `corpus`.
    fn count(&self, question: &str, corpus: &str) -> Value {
        let asked = json_of(&self.run(&["ask", question, "--corpus", corpus, "--json"]));
        asked["answer"].clone()
    }

    /// The answer object of a value question over `corpus`.
    fn value(&self, question: &str, corpus: &str) -> Value {
        let asked = json_of(&self.run(&[
            "ask", question, "--mode", "value", "--corpus", corpus, "--json",
        ]));
        asked["answer"].clone()
    }

    /// What `tally read --json` reads of a fixture.
    fn read(&self, file: &str) -> Value {
        let path = workspace_root()
            .join("tests/fixtures/other-programs")
            .join(file);
        json_of(&run_from_root(
            env!("CARGO_BIN_EXE_tally"),
            &["read", "--json", path.to_str().unwrap()],
            &[],
        ))
    }
}

#[test]
fn a_semicolon_csv_with_decimal_commas_is_counted_and_summed() {
    let tally = Tally::new("other-programs-csv");
    for (corpus, file) in [("walks", "walks-2025.csv"), ("ansi", "walks-2025-ansi.csv")] {
        tally.ingest(corpus, &[file]);
        // 11,2 21,3 and 14,5 km: three routes over 10 km, read as numbers, not split cells.
        let longer = tally.count("how many routes are longer than 10 km", corpus);
        assert_eq!(longer["count"], 3.0, "{file}: {longer}");
        // 1.485, 2.310 and 1.920 m are thousands, not decimals.
        let climbs = tally.count("how many routes climb more than 1000 m", corpus);
        assert_eq!(climbs["count"], 3.0, "{file}: {climbs}");
        // 11,2 + 21,3 + 4,8 + 9,6 + 14,5 + 7,1 km.
        let total = tally.count("what is the total distance of the routes", corpus);
        assert_eq!(total["count"], 68.5, "{file}: {total}");
    }
    // Read as six rows of five columns, the quoted `;` inside its cell, the name with its
    // accent, the dates day-first.
    let read = tally.read("walks-2025-ansi.csv");
    let text = read.to_string();
    assert!(text.contains("Café Round"), "{text}");
    assert!(text.contains("quiet; shaded"), "{text}");
    assert!(text.contains("2025-01-12"), "{text}");
    assert!(!text.contains("Route;Distance"), "{text}");
}

#[test]
fn names_under_present_and_open_actions_are_counted() {
    let tally = Tally::new("other-programs-minutes");
    tally.ingest(
        "orchard",
        &["orchard-agm-minutes.txt", "orchard-actions.md"],
    );
    let present = tally.count(
        "how many people were present at the annual general meeting",
        "orchard",
    );
    assert_eq!(present["count"], 7.0, "{present}");
    let open = tally.count("how many actions are still open", "orchard");
    assert_eq!(open["count"], 3.0, "{open}");
    let done = tally.count("how many actions are done", "orchard");
    assert_eq!(done["count"], 2.0, "{done}");
}

#[test]
fn a_receipt_photo_is_read_price_by_item_and_answers_its_count_and_total() {
    let tally = Tally::new("other-programs-receipt");
    // Tesseract's page segmentation drops the price column far right of the names; each price
    // is read again from the ink no word covered and put beside its item.
    let read = tally.read("quayside-deli-receipt.jpg");
    let pairs: Vec<(String, String)> = read["documents"][0]["passages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| {
            let pair = &p["record"]["key_value"];
            Some((
                pair["label"].as_str()?.to_string(),
                pair["value"].as_str()?.to_string(),
            ))
        })
        .collect();
    for (item, price) in [
        ("Smoked mackerel pate", "£3.20"),
        ("Rye crackers", "£1.85"),
        ("Cornish brie 200g", "£4.60"),
        ("Focaccia rosemary", "£2.95"),
        ("Apple juice 750ml", "£3.10"),
    ] {
        assert!(
            pairs.iter().any(|(l, v)| l == item && v == price),
            "{item} {price} not read together: {pairs:?}"
        );
    }
    // A quantity line stays with its item; "ITEMS 10" is a label and its number.
    assert!(
        pairs
            .iter()
            .any(|(l, v)| l.starts_with("Lemon drizzle slice (3") && v == "£5.40"),
        "{pairs:?}"
    );
    assert!(
        pairs.iter().any(|(l, v)| l == "ITEMS" && v == "10"),
        "{pairs:?}"
    );

    tally.ingest("deli", &["quayside-deli-receipt.jpg"]);
    let items = tally.count("how many items", "deli");
    assert_eq!(items["count"], 10.0, "{items}");
    let total = tally.value("what is the total", "deli");
    assert_eq!(total["value"], 26.8, "{total}");
    assert_eq!(total["unit_id"], "gbp", "{total}");
    // An item's price: the number of its `Label: value` line, described by its label.
    let juice = tally.value("what did the apple juice cost", "deli");
    assert_eq!(juice["value"], 3.1, "{juice}");
    assert_eq!(juice["unit_id"], "gbp", "{juice}");
    let crackers = tally.value("how much were the rye crackers", "deli");
    assert_eq!(crackers["value"], 1.85, "{crackers}");

    // The lines of the photo each item was read from, as `tally read --crops` writes them
    // (issue 100): the apple juice's crop is a PNG of one line, wider than tall.
    let crops = scratch_dir("other-programs-receipt-crops");
    let path = workspace_root().join("tests/fixtures/other-programs/quayside-deli-receipt.jpg");
    let read = json_of(&run_from_root(
        env!("CARGO_BIN_EXE_tally"),
        &[
            "read",
            "--json",
            "--crops",
            crops.to_str().unwrap(),
            path.to_str().unwrap(),
        ],
        &[],
    ));
    let juice = read["documents"][0]["passages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["record"]["key_value"]["label"] == "Apple juice 750ml")
        .unwrap_or_else(|| panic!("{read}"));
    let file = juice["crop_file"]
        .as_str()
        .unwrap_or_else(|| panic!("{juice}"));
    let png = std::fs::read(file).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{file}");
    let at = |i: usize| u32::from_be_bytes([png[i], png[i + 1], png[i + 2], png[i + 3]]);
    let (width, height) = (at(16), at(20));
    assert!(height < 60 && width > 5 * height, "{width} × {height}");
}
