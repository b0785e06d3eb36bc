//! The `tally` sub-commands that print figures: real data in, JSON or a clear error out.

use std::process::Command;

use crate::support::{data_dir, json_of};

fn tally(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the tally binary runs")
}

#[test]
fn extract_shows_what_tally_reads_from_an_argument_or_standard_input() {
    let document = json_of(&tally(&[
        "extract",
        "Oil fell 2% to $61.50 a barrel; the stadium holds 90,000 people.",
        "--json",
    ]));
    let quantities = document["quantities"].as_array().unwrap();
    let fall = &quantities[0];
    assert_eq!(fall["surface"], "2%");
    assert_eq!(fall["change"], "down");
    assert_eq!(fall["dimension"], "ratio");
    let price = &quantities[1];
    // "$61.50 a barrel": a price per barrel, span included.
    assert_eq!(
        (price["start"].as_u64(), price["end"].as_u64()),
        (Some(15), Some(30))
    );
    assert_eq!(price["unit"], "dollar per barrel");
    assert_eq!(price["value"], 61.5);
    assert_eq!(price["dimension"], "currency");
    let people = quantities.last().unwrap();
    assert_eq!(people["unit"], "people");
    assert_eq!(people["concept"], serde_json::json!(["stadium", "holds"]));

    // Standard input: one document per line, blank lines skipped.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(["extract", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all("It weighs 7 kg.\n\nThe race covers 26.2 miles.\n".as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["quantities"][0]["dimension"], "length");

    let out = tally(&["extract", "   "]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give a text to read quantities from"));
}

#[test]
fn value_answers_from_the_sentence_index_or_says_it_cannot() {
    let index = std::env::temp_dir().join(format!("tally-value-index-{}", std::process::id()));
    let data = data_dir();
    let ask = |question: &str| {
        json_of(&tally(&[
            "value",
            question,
            "--json",
            "--search-index",
            index.to_str().unwrap(),
            "--data",
            data.to_str().unwrap(),
        ]))
    };
    // The default corpus holds "The Rose Bowl … has a capacity of 92,542".
    let a = ask("capacity of the Rose Bowl");
    assert_eq!(a["value"], 92542.0, "{a}");
    assert!(a["observations"][0]["text"]
        .as_str()
        .unwrap()
        .contains("Rose Bowl"));
    // Nothing in it gives the Zorblax Arena's capacity: no answer, and why.
    let a = ask("capacity of the Zorblax Arena");
    assert!(a["value"].is_null(), "{a}");
    assert!(a["note"].as_str().unwrap().contains("zorblax arena"), "{a}");
    let out = tally(&["value", "  "]);
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&index);
}

#[test]
fn ingest_routes_each_file_by_its_format_into_one_corpus_list() {
    let dir = crate::support::scratch_dir("cli-ingest");
    let (snippets, sentences) = (dir.join("snippets"), dir.join("sentences"));
    let indexes = [
        "--index",
        snippets.to_str().unwrap(),
        "--search-index",
        sentences.to_str().unwrap(),
    ];
    let notes = dir.join("harbour-notes.txt");
    std::fs::write(
        &notes,
        "The harbour has 14 cranes.\n\nIt moved 2.5 million containers in 2023.",
    )
    .unwrap();
    // A data set's snippets: JSONL lines that name their question.
    let sets = dir.join("demo-sets.jsonl");
    std::fs::write(
        &sets,
        r#"{"id":"s1","query":"how many cranes","text":"The port runs 14 cranes.","source":"x"}"#,
    )
    .unwrap();
    let models = crate::support::workspace_root().join("models");
    let run = |extra: &[&str]| {
        let mut args = vec!["ingest", "--models", models.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend_from_slice(&indexes);
        tally(&args)
    };
    let out = run(&[notes.to_str().unwrap(), sets.to_str().unwrap()]);
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The text file is a person's document: split, into both indexes, named after the file.
    assert!(printed.contains("corpus `harbour-notes`"), "{printed}");
    // Then every sentence gets its vector for the default search ranker (issue 76): the notes'
    // two and the snippet set's one.
    assert!(
        printed.contains("sentence vectors: 3 encoded")
            && printed.contains("396 bytes each), 3 of 3 sentences have one"),
        "{printed}"
    );
    // The snippet set goes into the snippet index as it is.
    assert!(
        printed.contains("1 snippets as corpus `demo-sets`"),
        "{printed}"
    );
    let mut list = vec!["corpus", "list"];
    list.extend_from_slice(&indexes);
    let listed = tally(&list);
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed.contains("harbour-notes") && listed.contains("demo-sets"),
        "{listed}"
    );

    // Flags are read once, at the edge: an unknown name is a usage error with the names.
    let out = run(&["--format", "doc", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "unknown format `doc` (text, html, markdown, csv, jsonl, pdf, docx, pptx, xlsx, xls, ods, \
         eml, epub, image, squad, qsearch, newsquant)"
    ));
    // A text file said to be a PDF is read as one, and said not to be one.
    let out = run(&["--format", "pdf", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("harbour-notes.txt") && said.contains("not a PDF"),
        "{said}"
    );
    // A file of no format Tally reads is refused with the formats it reads.
    let song = dir.join("harbour.mp3");
    std::fs::write(&song, [0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0]).unwrap();
    let out = run(&[song.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("a .mp3 file is not a format Tally reads") && said.contains(".docx"),
        "{said}"
    );
    // A damaged image (a JPEG's first bytes only) is refused as one, before OCR.
    let photo = dir.join("harbour.jpg");
    std::fs::write(&photo, [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]).unwrap();
    let out = run(&[photo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("harbour.jpg") && said.contains("damaged"),
        "{said}"
    );
    let out = run(&["--into", "neither", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // Judged sentences hold no count snippets.
    let judged = data_dir().join("qsearch/qsearch_text_dev.jsonl");
    let out = run(&["--into", "count", judged.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("only squad and jsonl files hold count snippets"));
}
