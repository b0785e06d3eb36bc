//! `tally-lab eval search` on the real Qsearch judged sentences.

use crate::support::{data_dir, json_of, lab};

#[test]
fn eval_search_scores_the_qsearch_dev_queries_and_qbm25_beats_bm25() {
    let judged = data_dir().join("qsearch/qsearch_text_dev.jsonl");
    let run = |ranker: &str| {
        json_of(&lab(&[
            "eval",
            "search",
            "--judged",
            judged.to_str().unwrap(),
            "--ranker",
            ranker,
            "--json",
        ]))
    };
    let bm25 = run("bm25");
    let qbm25 = run("qbm25");
    assert_eq!(qbm25["queries"], 50);
    let p = |v: &serde_json::Value| v["p@10"].as_f64().unwrap();
    let mrr = |v: &serde_json::Value| v["mrr@10"].as_f64().unwrap();
    // Measured: bm25 P@10 0.264 / MRR 0.538; qbm25 0.368 / 0.726.
    assert!(p(&qbm25) >= p(&bm25) + 0.05, "{qbm25} vs {bm25}");
    assert!(mrr(&qbm25) >= mrr(&bm25) + 0.10, "{qbm25} vs {bm25}");
    assert!(p(&qbm25) >= 0.33 && mrr(&qbm25) >= 0.65, "{qbm25}");
}
