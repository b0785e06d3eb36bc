//! `tally-lab eval extraction | value` and `tally-lab bench extraction | value`: real data in,
//! the papers' metrics as JSON or a clear error out.

use std::process::Command;

use crate::support::{data_dir, json_of, lab};

#[test]
fn eval_extraction_prints_the_metrics_as_json() {
    let gold = data_dir().join("quantities/newsquant_dev.json");
    let out = lab(&[
        "eval",
        "extraction",
        "--gold",
        gold.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(report["sentences"], 295);
    for key in ["value", "value_unit", "value_change"] {
        for metric in ["p", "r", "f1"] {
            let x = report[key][metric].as_f64().unwrap_or(-1.0);
            assert!((0.0..=100.0).contains(&x), "{key}.{metric} = {x}");
        }
    }
    assert!(report["value"]["f1"].as_f64().unwrap() >= 93.0);
}

#[test]
fn eval_extraction_scores_the_generated_test_by_half_kind_and_dimension() {
    let collection = data_dir().join("quantities/kg-unit-collection.json");
    let out = lab(&[
        "eval",
        "extraction",
        "--generated",
        "--collection",
        collection.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let halves: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON array");
    let halves = halves.as_array().unwrap();
    assert_eq!(halves.len(), 2);
    assert_eq!(halves[0]["half"], "tuning");
    assert_eq!(halves[1]["half"], "held-out");
    for half in halves {
        assert!(half["all"]["sentences"].as_u64().unwrap() > 500);
        // Values are found whatever the unit's form; that is what the generator placed.
        assert!(
            half["all"]["value"]["f1"].as_f64().unwrap() >= 90.0,
            "{half}"
        );
        let kinds: Vec<&str> = half["per_kind"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["group"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["symbol", "abbreviation", "name", "compound"]);
        assert!(half["per_dimension"].as_array().unwrap().len() >= 15);
    }
    // The collection's path is checked like a gold file's.
    let out = lab(&[
        "eval",
        "extraction",
        "--generated",
        "--collection",
        "no/such.json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read no/such.json"));
}

#[test]
fn a_command_piped_into_a_reader_that_stops_ends_without_a_panic() {
    use std::io::{BufRead, BufReader};
    let collection = data_dir().join("quantities/kg-unit-collection.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tally-lab"))
        .args([
            "eval",
            "extraction",
            "--generated",
            "--errors",
            "--collection",
        ])
        .arg(&collection)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the tally-lab binary runs");
    // Read one line, then close the pipe as `head -1` does: hundreds of lines are still to come.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn eval_extraction_explains_a_bad_gold_file() {
    let out = lab(&["eval", "extraction", "--gold", "no/such/file.json"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot read no/such/file.json"), "{stderr}");

    let scratch = std::env::temp_dir().join(format!("tally-bad-gold-{}.json", std::process::id()));
    std::fs::write(&scratch, "{\"not\": \"a list\"}").unwrap();
    let out = lab(&["eval", "extraction", "--gold", scratch.to_str().unwrap()]);
    let _ = std::fs::remove_file(&scratch);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a gold quantity file"));
}

#[test]
fn bench_extraction_reports_a_rate() {
    let gold = data_dir().join("quantities/newsquant_dev.json");
    let out = lab(&[
        "bench",
        "extraction",
        "--sentences-from",
        gold.to_str().unwrap(),
        "--sentences",
        "2000",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let figures: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(figures["sentences"], 2000);
    assert!(figures["sentences_per_second"].as_f64().unwrap() > 0.0);
    assert_eq!(figures["single_texts"].as_array().unwrap().len(), 3);
}

#[test]
fn eval_extraction_scores_each_fixed_half_of_the_gold_file() {
    let gold = data_dir().join("quantities/newsquant_dev.json");
    let half = |name: &str| {
        json_of(&lab(&[
            "eval",
            "extraction",
            "--gold",
            gold.to_str().unwrap(),
            "--half",
            name,
            "--json",
        ]))
    };
    let (tuning, held_out) = (half("tuning"), half("held-out"));
    let sentences = |r: &serde_json::Value| r["sentences"].as_u64().unwrap();
    // Measured: 136 and 159 sentences.
    assert_eq!(sentences(&tuning) + sentences(&held_out), 295);
    assert!(sentences(&tuning) > 100 && sentences(&held_out) > 100);
    // Measured: value+unit F1 89.9 on the tuning half, 85.3 on the held-out half.
    for report in [&tuning, &held_out] {
        assert!(
            report["value_unit"]["f1"].as_f64().unwrap() > 80.0,
            "{report}"
        );
    }
    let out = lab(&[
        "eval",
        "extraction",
        "--gold",
        gold.to_str().unwrap(),
        "--half",
        "middle",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown half `middle`"));
}

#[test]
fn eval_extraction_scores_written_predictions_by_the_same_rules() {
    let gold = data_dir().join("quantities/newsquant_dev.json");
    let gold = gold.to_str().unwrap();
    let written =
        std::env::temp_dir().join(format!("tally-predictions-{}.json", std::process::id()));
    let written_arg = written.to_str().unwrap();
    let own = json_of(&lab(&[
        "eval",
        "extraction",
        "--gold",
        gold,
        "--write-predictions",
        written_arg,
        "--json",
    ]));
    let from_file = json_of(&lab(&[
        "eval",
        "extraction",
        "--gold",
        gold,
        "--predictions",
        written_arg,
        "--json",
    ]));
    // Tally's output scored directly and scored as another extractor's file: the same figures.
    assert_eq!(own, from_file);

    // A predictions file that lacks gold sentences is refused with a sentence, not scored as zero.
    std::fs::write(&written, "[]").unwrap();
    let out = lab(&[
        "eval",
        "extraction",
        "--gold",
        gold,
        "--predictions",
        written_arg,
    ]);
    let _ = std::fs::remove_file(&written);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no entry for the gold sentence"));
}

#[test]
fn eval_extraction_scores_each_class_of_the_written_and_generated_tests() {
    let everyday =
        crate::support::workspace_root().join("tests/fixtures/quantities/everyday-sentences.json");
    let out = lab(&["eval", "extraction", "--gold", everyday.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("120 sentences"), "{text}");
    // Each class the sentences were written for has its row, per half.
    for class in ["currency", "compound", "range", "change", "forms"] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(class)),
            "{class}: {text}"
        );
    }

    let collection = data_dir().join("quantities/kg-unit-collection.json");
    let out = lab(&[
        "eval",
        "extraction",
        "--generated",
        "--collection",
        collection.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("generated compound and currency sentences"),
        "{text}"
    );
    for form in ["of material per", "country mark", "converted"] {
        assert!(text.contains(form), "{form}: {text}");
    }
}

#[test]
fn eval_value_builds_questions_from_judged_sentences_and_scores_them() {
    let judged = data_dir().join("qsearch/qsearch_text_dev.jsonl");
    let scores = json_of(&lab(&[
        "eval",
        "value",
        "--judged",
        judged.to_str().unwrap(),
        "--json",
    ]));
    // Measured: 275 questions, Exist@1 0.629, Exist@10 0.771, P/C 79.7.
    assert!(scores["questions"].as_u64().unwrap() > 200, "{scores}");
    let exist_1 = scores["exist@1"].as_f64().unwrap();
    let exist_10 = scores["exist@10"].as_f64().unwrap();
    assert!(exist_1 > 0.5 && exist_10 >= exist_1, "{scores}");
    assert!(
        scores["consolidated"]["pc"].as_f64().unwrap() > 65.0,
        "{scores}"
    );

    // The rules for drawing the value, each on both halves; the tuning half chooses.
    let out = lab(&["eval", "value", "--judged", judged.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("median of 5"), "{text}");
    assert!(text.contains("majority of 5, contested at 80%"), "{text}");
    assert_eq!(text.matches("chosen on tuning").count(), 1, "{text}");

    // With the everyday questions written for the project: both sets, the rule chosen on both
    // tuning halves, and it is the default.
    let everyday = crate::support::workspace_root().join("tests/fixtures/everyday-values.json");
    let out = lab(&[
        "eval",
        "value",
        "--judged",
        judged.to_str().unwrap(),
        "--everyday",
        everyday.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("62 value questions"), "{text}");
    assert!(text.contains("everyday held-out"), "{text}");
    // One rule is chosen on the tuning halves and the default is marked. (Since issue 58 the
    // median leads there by 0.3 P/C, one question; the default stays counting sentences until
    // a larger tuning set decides: docs/experiments.md.)
    assert_eq!(text.matches("  chosen on tuning").count(), 1, "{text}");
    assert_eq!(
        text.matches("  the default").count() + text.matches("tuning, the default").count(),
        1,
        "{text}"
    );

    let out = lab(&["eval", "value", "--judged", "no/such/file.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read no/such/file.jsonl"));
}

#[test]
fn bench_value_reports_latency_over_the_default_corpus() {
    let index = std::env::temp_dir().join(format!("tally-bench-value-{}", std::process::id()));
    let figures = json_of(&lab(&[
        "bench",
        "value",
        "--runs",
        "1",
        "--json",
        "--search-index",
        index.to_str().unwrap(),
        "--data",
        data_dir().to_str().unwrap(),
    ]));
    let _ = std::fs::remove_dir_all(&index);
    assert!(figures["sentences"].as_u64().unwrap() > 10_000, "{figures}");
    assert!(figures["questions"].as_u64().unwrap() > 200, "{figures}");
    let (p50, p95) = (
        figures["p50_ms"].as_f64().unwrap(),
        figures["p95_ms"].as_f64().unwrap(),
    );
    assert!(p50 > 0.0 && p95 >= p50, "{figures}");
}
