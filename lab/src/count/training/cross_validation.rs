//! Cross-validation by query: query-disjoint folds, and the out-of-fold figures of every scorer,
//! strategy and threshold on each data set. Used by the reader's and the ranker's training and
//! by the instance evaluation.

use std::collections::BTreeMap;

use super::data::{QueryCandidates, TrainingQuery};
use tally_engine::count::answer_support::SupportRule;
use tally_engine::count::candidates::CountCandidate;
use tally_engine::count::lexical::lexical_confidence;
use tally_engine::count::metrics::{count_scores, CountScores};
use tally_engine::count::prediction::{best_per_snippet, predict};
use tally_engine::count::question::analyse;
use tally_types::CountSettings;
use tally_types::Strategy;

/// Out-of-fold figures: data set → scorer → strategy → threshold → scores.
pub type CrossValidation =
    BTreeMap<String, BTreeMap<String, BTreeMap<String, BTreeMap<String, CountScores>>>>;

/// Thresholds swept in cross-validation.
pub const THRESHOLDS: [f64; 9] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/// Query-disjoint folds: `out[q]` is the fold of query `q`, shuffled with a fixed seed.
pub fn fold_assignment(queries: usize, folds: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..queries).collect();
    shuffle(&mut order, seed);
    let mut fold_of = vec![0; queries];
    for (i, &q) in order.iter().enumerate() {
        fold_of[q] = i % folds.max(1);
    }
    fold_of
}

/// Candidates with their confidences, per query and snippet.
pub type QueryConfidences = Vec<Vec<(CountCandidate, f64)>>;

/// The lexical baseline's confidences for every query.
pub fn lexical_confidences(
    queries: &[TrainingQuery],
    candidates: &[QueryCandidates],
) -> Vec<QueryConfidences> {
    queries
        .iter()
        .zip(candidates)
        .map(|(q, per_snippet)| {
            let analysis = analyse(&q.question);
            per_snippet
                .iter()
                .enumerate()
                .map(|(s, cs)| {
                    cs.iter()
                        .map(|c| {
                            (
                                c.clone(),
                                lexical_confidence(&analysis, &q.snippets[s].text, c),
                            )
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Out-of-fold figures for every data set, scorer, strategy and threshold; `scorers` gives each
/// scorer's name and its confidences for every query.
pub fn cross_validate(
    queries: &[TrainingQuery],
    scorers: &[(&str, &[QueryConfidences])],
) -> CrossValidation {
    let mut out = BTreeMap::new();
    let datasets: Vec<String> = {
        let mut d: Vec<String> = queries.iter().map(|q| q.dataset.clone()).collect();
        d.dedup();
        d
    };
    for dataset in datasets {
        let mut by_scorer = BTreeMap::new();
        for &(scorer, confs) in scorers {
            let mut by_strategy = BTreeMap::new();
            for strategy in Strategy::ALL {
                let mut by_threshold = BTreeMap::new();
                for threshold in THRESHOLDS {
                    // Never abstaining: abstention is chosen afterwards, on these figures'
                    // best strategy and threshold (`train_ranker.rs`).
                    let settings = CountSettings {
                        threshold,
                        strategy,
                        abstain_below: 0.0,
                        ..CountSettings::default()
                    };
                    let pairs: Vec<(Option<f64>, f64)> = queries
                        .iter()
                        .enumerate()
                        .filter(|(_, q)| q.dataset == dataset)
                        .map(|(i, q)| {
                            let chosen = best_per_snippet(&confs[i]);
                            (
                                predict(&chosen, &settings, SupportRule::BestConfidence).count,
                                q.gold,
                            )
                        })
                        .collect();
                    by_threshold.insert(format!("{threshold:.1}"), count_scores(&pairs));
                }
                by_strategy.insert(strategy.name().to_string(), by_threshold);
            }
            by_scorer.insert(scorer.to_string(), by_strategy);
        }
        out.insert(dataset, by_scorer);
    }
    out
}

/// The threshold with the best mean out-of-fold P/C over the data sets (reader alone, weighted
/// median).
pub fn best_threshold(cv: &CrossValidation) -> f64 {
    let mean_pc = |t: f64| -> f64 {
        let key = format!("{t:.1}");
        let pcs: Vec<f64> = cv
            .values()
            .filter_map(|s| s.get("neural")?.get("weighted-median")?.get(&key))
            .map(|s| s.pc)
            .collect();
        pcs.iter().sum::<f64>() / pcs.len().max(1) as f64
    };
    THRESHOLDS
        .into_iter()
        .max_by(|a, b| mean_pc(*a).total_cmp(&mean_pc(*b)))
        .unwrap_or(0.5)
}

/// Fisher–Yates with xorshift64: reproducible without a random-number crate.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..items.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        items.swap(i, (state % (i as u64 + 1)) as usize);
    }
}
