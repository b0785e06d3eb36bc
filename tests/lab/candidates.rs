//! `tally-lab eval candidates` (issue 98): the right answer among the candidates, on
//! WikiTableQuestions' dev split read by Tally's reader, and over the aggregation collection.

use crate::support::{data_dir, json_of, lab, workspace_root};

fn recall(report: &serde_json::Value, group: &str) -> f64 {
    let g = &report["groups"][group];
    g["found"].as_f64().unwrap() / g["questions"].as_f64().unwrap()
}

#[test]
fn the_right_answer_is_among_the_candidates_far_above_chance() {
    let wtq = data_dir().join("wtq");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "candidates",
            "--wtq",
            wtq.to_str().unwrap(),
            "--limit",
            "300",
            "--json",
        ];
        args.extend_from_slice(extra);
        json_of(&lab(&args))
    };
    let read = run(&[]);
    let chance = run(&["--control"]);
    assert_eq!(read["groups"]["all"]["questions"], 300);
    // Measured on these 300: 0.927 against 0.530 by chance (each asked of another table).
    assert!(recall(&read, "all") >= 0.88, "{read}");
    assert!(
        recall(&read, "all") >= recall(&chance, "all") + 0.25,
        "{chance}"
    );
}

#[test]
fn the_aggregation_collection_answers_are_all_candidates_and_dev_misses_stay_unread() {
    let report = json_of(&lab(&[
        "eval",
        "candidates",
        "--collection",
        workspace_root()
            .join("tests/fixtures/aggregations")
            .to_str()
            .unwrap(),
        "--json",
    ]));
    assert!(recall(&report, "half: test") >= 0.95, "{report}");
    let refused = lab(&["eval", "candidates", "--misses", "5"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("train split only"));
}

/// The share of `group`'s questions whose best candidate is right.
fn top_right(report: &serde_json::Value, group: &str) -> f64 {
    let g = &report["groups"][group];
    g["top_right"].as_f64().unwrap() / g["questions"].as_f64().unwrap()
}

#[test]
fn the_shipped_ranker_chooses_far_better_than_the_first_candidate_and_is_calibrated() {
    let wtq = data_dir().join("wtq");
    let wtq = wtq.to_str().unwrap();
    let eval = |extra: &[&str]| {
        let mut args = vec!["eval", "tables", "--wtq", wtq, "--limit", "300", "--json"];
        args.extend_from_slice(extra);
        json_of(&lab(&args))
    };
    let shipped = eval(&[]);
    // A model that learned nothing (no pass over the questions) keeps the enumeration's order:
    // the first candidate, the hand rules' plan where they make one.
    let first = std::env::temp_dir().join(format!("tally-first-{}.json", std::process::id()));
    let trained = lab(&[
        "train",
        "ranker",
        "--wtq",
        wtq,
        "--limit",
        "200",
        "--folds",
        "2",
        "--epochs",
        "0",
        "--trees",
        "0",
        "--collection",
        "tests/fixtures/aggregations",
        "--out",
        first.to_str().unwrap(),
    ]);
    assert!(
        trained.status.success(),
        "{}",
        String::from_utf8_lossy(&trained.stderr)
    );
    let unlearned = eval(&["--model", first.to_str().unwrap()]);
    let _ = std::fs::remove_file(&first);
    // Measured on these 300: 0.497 (the trees shipped) against 0.123; 7.3% of them answered
    // wrongly at the bound, ECE 0.050 (7.7% wrong over the whole dev split, ECE 0.028).
    assert!(top_right(&shipped, "all") >= 0.38, "{shipped}");
    assert!(
        top_right(&shipped, "all") >= top_right(&unlearned, "all") + 0.2,
        "{unlearned}"
    );
    let all = &shipped["groups"]["all"];
    let wrong = all["wrong"].as_f64().unwrap() / all["questions"].as_f64().unwrap();
    assert!(wrong <= 0.14, "{shipped}");
    assert!(shipped["ece"].as_f64().unwrap() <= 0.1, "{shipped}");
    // Every question is reported under one type, read from the reading that gives its answer.
    let groups = shipped["groups"].as_object().unwrap();
    let typed: u64 = groups
        .iter()
        .filter(|(name, _)| name.starts_with("reads as: "))
        .map(|(_, g)| g["questions"].as_u64().unwrap())
        .sum();
    assert_eq!(typed, 300, "{shipped}");
    let conditioned = &groups["reads as: a count with a condition"]["questions"];
    assert!(conditioned.as_u64().unwrap() >= 50, "{shipped}");

    // Over a collection written for Tally, each question over all its documents: the test
    // half's best candidates, measured 20 of the 30 answerable (trained on the tuning half).
    let collection = json_of(&lab(&[
        "eval",
        "tables",
        "--collection",
        "tests/fixtures/aggregations",
        "--json",
    ]));
    let test = &collection["groups"]["test aggregation"];
    let best_right = test["top_right"].as_f64().unwrap() / test["answerable"].as_f64().unwrap();
    assert!(best_right >= 0.55, "{collection}");
}
