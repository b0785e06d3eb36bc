//! The quantity-search commands end to end, from the real binary: search on the embedded demo
//! corpus, and the evaluation on the real Qsearch judged sentences.

use std::process::Output;

use crate::support::{json_of, run_from_root, scratch_dir};

/// Runs `tally` from the workspace root on the demo corpus (no data directory).
fn tally(args: &[&str]) -> Output {
    run_from_root(env!("CARGO_BIN_EXE_tally"), args, &[])
}

/// A search over the demo corpus (the data directory points nowhere).
fn demo_search(name: &str, query: &str, ranker: &str, extra: &[&str]) -> serde_json::Value {
    let index = scratch_dir(name).join("sentences");
    let mut args = vec![
        "search",
        query,
        "--json",
        "--ranker",
        ranker,
        "--search-index",
        index.to_str().unwrap(),
        "--data",
        "/nonexistent-tally-data",
    ];
    args.extend_from_slice(extra);
    json_of(&tally(&args))
}

#[test]
fn every_ranker_answers_from_the_demo_corpus() {
    let query = "stadiums with a capacity of more than 85000 people";
    for ranker in ["bm25", "bm25-filter", "qbm25", "dense", "entity", "learned"] {
        let results = demo_search(&format!("search-{ranker}"), query, ranker, &[]);
        assert_eq!(results["ranker"], ranker);
        assert_eq!(
            results["understood"]["constraints"][0]["text"],
            "> 85000 people"
        );
        if ranker == "entity" {
            let names: Vec<&str> = results["entities"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["entity"].as_str().unwrap())
                .collect();
            // The sentences' subjects, not the cities they are in.
            assert!(names.contains(&"Rose Bowl"), "{names:?}");
            assert!(names.contains(&"Camp Nou"), "{names:?}");
            assert_eq!(results["entities"][0]["evidence"]["meets"][0], true);
            continue;
        }
        let top = &results["hits"][0];
        if ranker != "bm25" {
            assert_eq!(top["meets"][0], true, "{ranker}: {top}");
            let converted = top["matches"][0]["converted"].as_f64().unwrap();
            assert!(converted > 85_000.0, "{ranker}: {top}");
        }
    }
}

#[test]
fn miles_meet_a_kilometre_condition_and_sorting_follows_the_value() {
    let results = demo_search(
        "search-sort",
        "electric cars with a range of more than 300 km",
        "qbm25",
        &["--sort", "value-descending"],
    );
    let values: Vec<f64> = results["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["matches"][0]["converted"].as_f64())
        .collect();
    assert!(values.len() >= 2, "{results}");
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    // 405 miles ≈ 651.8 km comes first.
    assert!((values[0] - 651.8).abs() < 1.0, "{values:?}");
}

#[test]
fn bad_search_settings_are_refused_with_a_sentence() {
    let out = tally(&["search", "phones", "--ranker", "magic"]);
    // A name clap could not read: a usage error (exit code 2), with the names there are.
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown ranker `magic`"));
    let out = tally(&["search", "  "]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the query is empty"));
}
