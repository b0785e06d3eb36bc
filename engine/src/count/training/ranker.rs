//! Training the candidate ranker (the second stage of `tally train count-spans`).
//!
//! Input: the training queries and the out-of-fold span probabilities the first stage wrote, so
//! that the ranker learns how much to trust the span model on questions the span model did not
//! see. The folds are the span head's (same seed): every query's ranker confidences come from a
//! ranker trained on the other folds, and give the cross-validated figures.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use super::cross_validation::{
    cross_validate, fold_assignment, lexical_confidences, CrossValidation, QueryConfidences,
    THRESHOLDS,
};
use super::data::{QueryCandidates, TrainingQuery};
use super::reader::{TrainError, TrainSettings};
use crate::count::calibration::{reliability, Reliability};
use crate::count::consolidate::Strategy;
use crate::count::metrics::{count_scores, CountScores};
use crate::count::name_cache::NameCache;
use crate::count::pipeline::{best_per_snippet, predict, Chosen, CountSettings};
use crate::count::question::analyse;
use crate::count::ranker::{
    features, noun_fits, CandidateRanker, Features, FitSettings, QueryEvidence,
};
use crate::encoder::Encoder;

/// Figures of one ranker training run.
#[derive(Debug, Clone, Serialize)]
pub struct RankerReport {
    pub candidates: usize,
    pub positives: usize,
    pub seconds: f64,
    /// Out-of-fold figures: data set → scorer → strategy → threshold → scores.
    pub cross_validation: CrossValidation,
    /// The strategy and threshold with the best mean P/C over the data sets (ranker scorer).
    pub best_strategy: String,
    pub best_threshold: f64,
    /// The weights of the final ranker, by feature (standardised features).
    pub weights: BTreeMap<String, f64>,
    /// Reliability of the out-of-fold candidate probabilities, by scorer (`ranker`, `neural`):
    /// is a candidate with confidence p right p of the time?
    pub calibration: BTreeMap<String, Reliability>,
    /// When to say "no reliable answer", chosen by nested cross-validation.
    pub abstention: AbstentionReport,
}

/// Supports below which Tally may abstain (see `pipeline::support`).
pub const ABSTAIN_GRID: [f64; 13] = [
    0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6,
];

/// The abstention threshold and what it does to the cross-validated figures.
#[derive(Debug, Clone, Serialize)]
pub struct AbstentionReport {
    /// Chosen on all training queries (the default of `CountSettings::abstain_below`).
    pub abstain_below: f64,
    /// The threshold each fold chose on the other folds.
    pub fold_choices: Vec<f64>,
    /// Per data set: the ranker's out-of-fold figures at the best strategy and threshold, never
    /// abstaining, and abstaining with each fold's own choice.
    pub without: BTreeMap<String, CountScores>,
    pub with: BTreeMap<String, CountScores>,
}

/// Features and labels of every candidate of every query.
struct QueryRows {
    features: Vec<Vec<Features>>,
    labels: Vec<Vec<bool>>,
}

/// Trains the ranker with cross-validation, then on everything, and writes it into `out_dir`.
pub fn train_candidate_ranker(
    encoder: &Arc<Encoder>,
    queries: &[TrainingQuery],
    candidates: &[QueryCandidates],
    span: &[Vec<Vec<f64>>],
    settings: &TrainSettings,
    out_dir: &Path,
    progress: &dyn Fn(&str),
) -> Result<RankerReport, TrainError> {
    let started = Instant::now();
    let mut rows = Vec::with_capacity(queries.len());
    let names = NameCache::new(encoder.clone());
    for ((query, cands), span) in queries.iter().zip(candidates).zip(span) {
        let analysis = analyse(&query.question);
        let texts: Vec<&str> = query.snippets.iter().map(|s| s.text.as_str()).collect();
        let noun_fit = noun_fits(&names, &analysis, cands)?;
        let features = features(&QueryEvidence {
            analysis: &analysis,
            texts: &texts,
            candidates: cands,
            span,
            noun_fit: &noun_fit,
        });
        let labels = cands
            .iter()
            .map(|cs| {
                cs.iter()
                    .map(|c| (c.count - query.gold).abs() <= settings.tolerance * query.gold.abs())
                    .collect()
            })
            .collect();
        rows.push(QueryRows { features, labels });
    }
    progress(&format!("ranker features of {} queries", queries.len()));

    let fit = FitSettings::default();
    let fold_of = fold_assignment(queries.len(), settings.folds, settings.seed);
    let mut out_of_fold: Vec<QueryConfidences> = vec![Vec::new(); queries.len()];
    for fold in 0..settings.folds {
        let train: Vec<(Features, bool)> = (0..queries.len())
            .filter(|&q| fold_of[q] != fold)
            .flat_map(|q| labelled(&rows[q]))
            .collect();
        let ranker = CandidateRanker::fit(&train, &fit);
        for q in (0..queries.len()).filter(|&q| fold_of[q] == fold) {
            out_of_fold[q] = with_confidences(&candidates[q], &rows[q], &ranker);
        }
    }

    let neural: Vec<QueryConfidences> = candidates
        .iter()
        .zip(span)
        .map(|(cands, probs)| {
            cands
                .iter()
                .zip(probs)
                .map(|(cs, ps)| cs.iter().cloned().zip(ps.iter().copied()).collect())
                .collect()
        })
        .collect();
    let lexical = lexical_confidences(queries, candidates);
    let cross_validation = cross_validate(
        queries,
        &[
            ("ranker", &out_of_fold),
            ("neural", &neural),
            ("lexical", &lexical),
        ],
    );
    let (best_strategy, best_threshold) = best_setting(&cross_validation);

    let calibration = BTreeMap::from([
        (
            "ranker".to_string(),
            reliability(&probabilities_and_labels(&out_of_fold, &rows), 10),
        ),
        (
            "neural".to_string(),
            reliability(&probabilities_and_labels(&neural, &rows), 10),
        ),
    ]);
    let strategy = Strategy::parse(&best_strategy).unwrap_or(Strategy::WeightedMedian);
    let abstention = choose_abstention(
        queries,
        &out_of_fold,
        &fold_of,
        settings.folds,
        &CountSettings {
            strategy,
            threshold: best_threshold,
            ..CountSettings::default()
        },
    );
    progress(&format!(
        "calibration (ECE, out of fold): ranker {:.3}, neural {:.3}; abstain below {:.2}",
        calibration["ranker"].ece, calibration["neural"].ece, abstention.abstain_below
    ));

    let all: Vec<(Features, bool)> = rows.iter().flat_map(labelled).collect();
    let positives = all.iter().filter(|(_, y)| *y).count();
    let mut ranker = CandidateRanker::fit(&all, &fit);
    let seconds = started.elapsed().as_secs_f64();
    let weights: BTreeMap<String, f64> = ranker
        .features
        .iter()
        .cloned()
        .zip(ranker.weights.iter().copied())
        .collect();
    let summary: BTreeMap<&String, f64> = cross_validation
        .iter()
        .filter_map(|(d, s)| {
            let key = format!("{best_threshold:.1}");
            Some((d, s.get("ranker")?.get(&best_strategy)?.get(&key)?.pc))
        })
        .collect();
    ranker.training = serde_json::json!({
        "label": format!("a candidate within ±{:.0}% of the gold count", settings.tolerance * 100.0),
        "span_probabilities": "out of fold, from `tally train count-spans`",
        "fit": fit,
        "folds": settings.folds,
        "seed": settings.seed,
        "candidates": all.len(),
        "positives": positives,
        "best_strategy": best_strategy,
        "best_threshold": best_threshold,
        "cv_pc": summary,
        "ece_out_of_fold": calibration["ranker"].ece,
        "abstain_below": abstention.abstain_below,
    });
    ranker.save(out_dir).map_err(|source| TrainError::Write {
        path: out_dir.to_path_buf(),
        source,
    })?;
    progress(&format!("ranker trained in {seconds:.1} s"));
    Ok(RankerReport {
        candidates: all.len(),
        positives,
        seconds,
        cross_validation,
        best_strategy,
        best_threshold,
        weights,
        calibration,
        abstention,
    })
}

/// Every candidate's confidence with its label.
fn probabilities_and_labels(
    confidences: &[QueryConfidences],
    rows: &[QueryRows],
) -> Vec<(f64, bool)> {
    confidences
        .iter()
        .zip(rows)
        .flat_map(|(query, rows)| {
            query
                .iter()
                .zip(&rows.labels)
                .flat_map(|(cs, ls)| cs.iter().map(|(_, p)| *p).zip(ls.iter().copied()))
        })
        .collect()
}

/// Chooses the abstention threshold: in each fold, the one with the best mean P/C over the data
/// sets on the other folds' queries, applied to the fold's own; finally the best on all queries.
fn choose_abstention(
    queries: &[TrainingQuery],
    confidences: &[QueryConfidences],
    fold_of: &[usize],
    folds: usize,
    settings: &CountSettings,
) -> AbstentionReport {
    let chosen: Vec<Vec<Chosen>> = confidences.iter().map(|c| best_per_snippet(c)).collect();
    let at = |abstain_below: f64| CountSettings {
        abstain_below,
        ..settings.clone()
    };
    let datasets: BTreeSet<&str> = queries.iter().map(|q| q.dataset.as_str()).collect();
    let scores_of = |qs: &[usize], predictions: &dyn Fn(usize) -> Option<f64>| {
        datasets
            .iter()
            .map(|&d| {
                let pairs: Vec<(Option<f64>, f64)> = qs
                    .iter()
                    .filter(|&&q| queries[q].dataset == d)
                    .map(|&q| (predictions(q), queries[q].gold))
                    .collect();
                (d.to_string(), count_scores(&pairs))
            })
            .collect::<BTreeMap<String, CountScores>>()
    };
    let best_for = |qs: &[usize]| -> f64 {
        let mean_pc = |tau: f64| {
            let s = at(tau);
            let by_set = scores_of(qs, &|q| predict(&chosen[q], &s).count);
            by_set.values().map(|s| s.pc).sum::<f64>() / by_set.len().max(1) as f64
        };
        // The lowest threshold among the best: abstain no more than the figures ask for.
        ABSTAIN_GRID
            .into_iter()
            .fold((0.0, f64::NEG_INFINITY), |(best, best_pc), tau| {
                let pc = mean_pc(tau);
                if pc > best_pc + 1e-9 {
                    (tau, pc)
                } else {
                    (best, best_pc)
                }
            })
            .0
    };
    let mut predictions = vec![None; queries.len()];
    let mut fold_choices = Vec::new();
    for fold in 0..folds {
        let others: Vec<usize> = (0..queries.len()).filter(|&q| fold_of[q] != fold).collect();
        let tau = best_for(&others);
        fold_choices.push(tau);
        for q in (0..queries.len()).filter(|&q| fold_of[q] == fold) {
            predictions[q] = predict(&chosen[q], &at(tau)).count;
        }
    }
    let all: Vec<usize> = (0..queries.len()).collect();
    let never = at(0.0);
    AbstentionReport {
        abstain_below: best_for(&all),
        fold_choices,
        without: scores_of(&all, &|q| predict(&chosen[q], &never).count),
        with: scores_of(&all, &|q| predictions[q]),
    }
}

fn labelled(rows: &QueryRows) -> impl Iterator<Item = (Features, bool)> + '_ {
    rows.features
        .iter()
        .zip(&rows.labels)
        .flat_map(|(f, l)| f.iter().copied().zip(l.iter().copied()))
}

fn with_confidences(
    candidates: &QueryCandidates,
    rows: &QueryRows,
    ranker: &CandidateRanker,
) -> QueryConfidences {
    candidates
        .iter()
        .zip(&rows.features)
        .map(|(cs, fs)| {
            cs.iter()
                .cloned()
                .zip(fs.iter().map(|x| ranker.probability(x)))
                .collect()
        })
        .collect()
}

/// Mean P/C points by which another strategy must beat weighted median to replace it.
const STRATEGY_MARGIN: f64 = 1.0;

/// The ranker's strategy and threshold with the best mean P/C over the data sets.
fn best_setting(cv: &CrossValidation) -> (String, f64) {
    let mean_pc = |strategy: &str, t: f64| -> f64 {
        let key = format!("{t:.1}");
        let pcs: Vec<f64> = cv
            .values()
            .filter_map(|s| s.get("ranker")?.get(strategy)?.get(&key))
            .map(|s| s.pc)
            .collect();
        pcs.iter().sum::<f64>() / pcs.len().max(1) as f64
    };
    let mut best = (Strategy::WeightedMedian.name().to_string(), 0.5);
    let mut best_pc = f64::NEG_INFINITY;
    for strategy in Strategy::ALL {
        for t in THRESHOLDS {
            let pc = mean_pc(strategy.name(), t);
            if pc > best_pc + 1e-9 {
                best_pc = pc;
                best = (strategy.name().to_string(), t);
            }
        }
    }
    // Weighted median (the paper's choice) stays unless another strategy is better by more
    // than the figures can tell apart: one P/C point, about one question of a data set.
    let incumbent = Strategy::WeightedMedian.name();
    let best_of_incumbent = THRESHOLDS
        .into_iter()
        .map(|t| (mean_pc(incumbent, t), t))
        .fold((f64::NEG_INFINITY, 0.5), |a, b| {
            if b.0 > a.0 + 1e-9 {
                b
            } else {
                a
            }
        });
    if best.0 != incumbent && best_pc < best_of_incumbent.0 + STRATEGY_MARGIN {
        best = (incumbent.to_string(), best_of_incumbent.1);
    }
    best
}
