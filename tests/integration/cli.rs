//! The `tally` sub-commands that print figures: real data in, JSON or a clear error out.

use std::path::PathBuf;
use std::process::Command;

fn data_dir() -> PathBuf {
    std::env::var_os("TALLY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

fn tally(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the tally binary runs")
}

#[test]
fn eval_extraction_prints_the_metrics_as_json() {
    let gold = data_dir().join("quantities/newsquant_dev.json");
    let out = tally(&[
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
fn eval_extraction_explains_a_bad_gold_file() {
    let out = tally(&["eval", "extraction", "--gold", "no/such/file.json"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot read no/such/file.json"), "{stderr}");

    let scratch = std::env::temp_dir().join(format!("tally-bad-gold-{}.json", std::process::id()));
    std::fs::write(&scratch, "{\"not\": \"a list\"}").unwrap();
    let out = tally(&["eval", "extraction", "--gold", scratch.to_str().unwrap()]);
    let _ = std::fs::remove_file(&scratch);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a gold quantity file"));
}

#[test]
fn bench_extraction_reports_a_rate() {
    let gold = data_dir().join("quantities/newsquant_dev.json");
    let out = tally(&[
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
