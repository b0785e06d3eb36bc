//! Training the candidate ranker (the second stage of `tally train count-spans`).
//!
//! Input: the training queries and the out-of-fold span probabilities the first stage wrote, so
//! that the ranker learns how much to trust the span model on questions the span model did not
//! see. The folds are the span head's (same seed): every query's ranker confidences come from a
//! ranker trained on the other folds, and give the cross-validated figures.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use super::cross_validation::{
    cross_validate, fold_assignment, lexical_confidences, CrossValidation, QueryConfidences,
    THRESHOLDS,
};
use super::data::{QueryCandidates, TrainingQuery};
use super::reader::TrainError;
use super::settings::TrainSettings;
use tally_encoder::Encoder;
use tally_engine::count::answer_support::{
    support_features, AnswerSupport, SupportFeatures, SupportRule, AGREEMENT_RATIO, SUPPORT_FILE,
};
use tally_engine::count::calibration::{reliability, Reliability};
use tally_engine::count::metrics::ratio;
use tally_engine::count::metrics::{count_scores, CountScores};
use tally_engine::count::name_cache::NameCache;
use tally_engine::count::prediction::{best_per_snippet, predict, scored, Chosen};
use tally_engine::count::question::analyse;
use tally_engine::count::ranker::{
    features, noun_fits, CandidateRanker, Features, FitSettings, QueryEvidence,
};
use tally_types::CountSettings;
use tally_types::Strategy;

/// Figures of one ranker training run.
#[derive(Debug, Clone, Serialize)]
pub struct RankerReport {
    /// Candidates trained on.
    pub candidates: usize,
    /// Candidates that are right.
    pub positives: usize,
    /// Seconds the training took.
    pub seconds: f64,
    /// Out-of-fold figures: data set → scorer → strategy → threshold → scores.
    pub cross_validation: CrossValidation,
    /// The strategy and threshold with the best mean P/C over the data sets (ranker scorer).
    pub best_strategy: String,
    /// The threshold that goes with it.
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
    /// abstaining, and abstaining (support = best confidence) with each fold's own choice.
    pub without: BTreeMap<String, CountScores>,
    /// Abstaining with each fold's own choice.
    pub with: BTreeMap<String, CountScores>,
    /// The same with the answer-support model fitted in each fold.
    pub model_fold_choices: Vec<f64>,
    /// Abstaining with each fold's model and choice.
    pub with_model: BTreeMap<String, CountScores>,
    /// The model fitted on every answer, when it beat the best confidence (then `abstain_below`
    /// is its threshold); written next to the ranker.
    #[serde(skip)]
    pub model: Option<AnswerSupport>,
    /// Out of fold, for the kept rule: the figures per group when answering from a support of
    /// `abstain_below` upwards, along [`ABSTAIN_GRID`] (the model's support is the fold's own).
    pub curve: Vec<CurvePoint>,
}

/// One point of the abstention curve.
#[derive(Debug, Clone, Serialize)]
pub struct CurvePoint {
    /// The least support answered from.
    pub abstain_below: f64,
    /// The figures per group at that bound.
    pub by_group: BTreeMap<String, CountScores>,
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
    let rows = labelled_rows(encoder, queries, candidates, span, settings.tolerance)?;
    progress(&format!("ranker features of {} queries", queries.len()));

    let fit = FitSettings::default();
    let fold_of = fold_assignment(queries.len(), settings.folds, settings.seed);
    let out_of_fold = out_of_fold_confidences(candidates, &rows, &fold_of, settings.folds, &fit);

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
        .zip(ranker.model.weights.iter().copied())
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
    save_models(&ranker, abstention.model.as_ref(), out_dir)?;
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

/// Each query's candidates as feature rows, labelled right when within `tolerance` of the
/// gold count.
fn labelled_rows(
    encoder: &Arc<Encoder>,
    queries: &[TrainingQuery],
    candidates: &[QueryCandidates],
    span: &[Vec<Vec<f64>>],
    tolerance: f64,
) -> Result<Vec<QueryRows>, TrainError> {
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
                    .map(|c| (c.count - query.gold).abs() <= tolerance * query.gold.abs())
                    .collect()
            })
            .collect();
        rows.push(QueryRows { features, labels });
    }
    Ok(rows)
}

/// Every query's candidates with the confidences of a ranker fitted on the other folds.
fn out_of_fold_confidences(
    candidates: &[QueryCandidates],
    rows: &[QueryRows],
    fold_of: &[usize],
    folds: usize,
    fit: &FitSettings,
) -> Vec<QueryConfidences> {
    let mut out_of_fold: Vec<QueryConfidences> = vec![Vec::new(); candidates.len()];
    for fold in 0..folds {
        let train: Vec<(Features, bool)> = (0..candidates.len())
            .filter(|&q| fold_of[q] != fold)
            .flat_map(|q| labelled(&rows[q]))
            .collect();
        let ranker = CandidateRanker::fit(&train, fit);
        for q in (0..candidates.len()).filter(|&q| fold_of[q] == fold) {
            out_of_fold[q] = with_confidences(&candidates[q], &rows[q], &ranker);
        }
    }
    out_of_fold
}

/// Writes the ranker, and the support model when it was kept (a stale one from an earlier run
/// goes).
fn save_models(
    ranker: &CandidateRanker,
    support: Option<&AnswerSupport>,
    out_dir: &Path,
) -> Result<(), TrainError> {
    let write_error = |source| TrainError::Write {
        path: out_dir.to_path_buf(),
        source,
    };
    ranker.save(out_dir).map_err(write_error)?;
    match support {
        Some(model) => model.save(out_dir).map_err(write_error)?,
        None => match std::fs::remove_file(out_dir.join(SUPPORT_FILE)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(write_error(e)),
            _ => {}
        },
    }
    Ok(())
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

/// Chooses how and when to abstain, by nested cross-validation: in each fold, the answer-support
/// model is fitted on the other folds' answers, and the threshold with the best mean P/C over the
/// data sets on the other folds' queries is applied to the fold's own; both for the model and for
/// the best confidence alone (`answer_support.rs`). The model is kept when its cross-validated
/// mean P/C beats the best confidence by [`RULE_MARGIN`]; it is then fitted on every answer.
/// The groups of questions whose mean P/C the abstention threshold maximises: each data set,
/// and the questions of both whose snippets do state the answer (most unseen questions are like
/// these: abstaining there only costs coverage).
struct ScoreGroups<'a> {
    members: BTreeMap<String, Vec<bool>>,
    queries: &'a [TrainingQuery],
}

impl<'a> ScoreGroups<'a> {
    fn new(queries: &'a [TrainingQuery], confidences: &[QueryConfidences]) -> Self {
        let answerable: Vec<bool> = confidences
            .iter()
            .zip(queries)
            .map(|(per_snippet, query)| {
                per_snippet
                    .iter()
                    .flatten()
                    .any(|(c, _)| ratio(c.count, query.gold) >= AGREEMENT_RATIO)
            })
            .collect();
        let mut members: BTreeMap<String, Vec<bool>> = BTreeMap::new();
        for (q, query) in queries.iter().enumerate() {
            members
                .entry(query.dataset.clone())
                .or_insert_with(|| vec![false; queries.len()])[q] = true;
        }
        members.insert(ANSWERABLE.to_string(), answerable);
        Self { members, queries }
    }

    /// Each group's scores over the questions `qs` with `predictions`.
    fn scores(
        &self,
        qs: &[usize],
        predictions: &dyn Fn(usize) -> Option<f64>,
    ) -> BTreeMap<String, CountScores> {
        self.members
            .iter()
            .map(|(name, members)| {
                let pairs: Vec<(Option<f64>, f64)> = qs
                    .iter()
                    .filter(|&&q| members[q])
                    .map(|&q| (predictions(q), self.queries[q].gold))
                    .collect();
                (name.clone(), count_scores(&pairs))
            })
            .collect()
    }
}

/// What the support model is fitted on: the features of each question's answer when never
/// abstaining, and whether it is right.
fn support_rows(
    qs: &[usize],
    chosen: &[Vec<Chosen>],
    queries: &[TrainingQuery],
    never: &CountSettings,
) -> Vec<(SupportFeatures, bool)> {
    qs.iter()
        .filter_map(|&q| {
            let answer = predict(&chosen[q], never, SupportRule::BestConfidence).count?;
            let scored = scored(&chosen[q]);
            let right = ratio(answer, queries[q].gold) >= AGREEMENT_RATIO;
            Some((support_features(&scored, answer), right))
        })
        .collect()
}

/// The mean P/C over the groups.
fn mean_pc(by_set: &BTreeMap<String, CountScores>) -> f64 {
    by_set.values().map(|s| s.pc).sum::<f64>() / by_set.len().max(1) as f64
}

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
    let groups = ScoreGroups::new(queries, confidences);
    let scores_of =
        |qs: &[usize], predictions: &dyn Fn(usize) -> Option<f64>| groups.scores(qs, predictions);
    let best_for = |qs: &[usize], rule: SupportRule| -> f64 {
        let pc_at = |tau: f64| {
            let s = at(tau);
            mean_pc(&scores_of(qs, &|q| predict(&chosen[q], &s, rule).count))
        };
        // The lowest threshold among the best: abstain no more than the figures ask for.
        ABSTAIN_GRID
            .into_iter()
            .fold((0.0, f64::NEG_INFINITY), |(best, best_pc), tau| {
                let pc = pc_at(tau);
                if pc > best_pc + 1e-9 {
                    (tau, pc)
                } else {
                    (best, best_pc)
                }
            })
            .0
    };
    let support_rows = |qs: &[usize]| support_rows(qs, &chosen, queries, &at(0.0));
    let mut best_confidence = vec![None; queries.len()];
    let mut modelled = vec![None; queries.len()];
    // Each query's support under the model of its own fold, for the out-of-fold curve.
    let mut model_support = vec![0.0; queries.len()];
    let (mut fold_choices, mut model_fold_choices) = (Vec::new(), Vec::new());
    for fold in 0..folds {
        let others: Vec<usize> = (0..queries.len()).filter(|&q| fold_of[q] != fold).collect();
        let own: Vec<usize> = (0..queries.len()).filter(|&q| fold_of[q] == fold).collect();
        let tau = best_for(&others, SupportRule::BestConfidence);
        fold_choices.push(tau);
        for &q in &own {
            best_confidence[q] = predict(&chosen[q], &at(tau), SupportRule::BestConfidence).count;
        }
        let model = AnswerSupport::fit(&support_rows(&others));
        let rule = SupportRule::Model(&model);
        let tau = best_for(&others, rule);
        model_fold_choices.push(tau);
        for &q in &own {
            let prediction = predict(&chosen[q], &at(tau), rule);
            modelled[q] = prediction.count;
            model_support[q] = prediction.support;
        }
    }
    let all: Vec<usize> = (0..queries.len()).collect();
    let with = scores_of(&all, &|q| best_confidence[q]);
    let with_model = scores_of(&all, &|q| modelled[q]);
    let mut model = AnswerSupport::fit(&support_rows(&all));
    let keep_model = mean_pc(&with_model) >= mean_pc(&with) + RULE_MARGIN;
    let abstain_below = if keep_model {
        best_for(&all, SupportRule::Model(&model))
    } else {
        best_for(&all, SupportRule::BestConfidence)
    };
    model.training = serde_json::json!({
        "label": format!("the consolidated count within a ratio of {AGREEMENT_RATIO} of the gold count"),
        "confidences": "the candidate ranker's, out of fold",
        "folds": folds,
        "abstain_below": abstain_below,
        "fold_choices": model_fold_choices,
        "cv_with_model": with_model,
        "cv_with_best_confidence": with,
    });
    let never = at(0.0);
    // The curve: every answer kept from a support of t upwards, t along the grid.
    let answers: Vec<(Option<f64>, f64)> = chosen
        .iter()
        .map(|c| {
            let p = predict(c, &never, SupportRule::BestConfidence);
            (p.consolidated, p.support)
        })
        .collect();
    let curve = ABSTAIN_GRID
        .into_iter()
        .map(|tau| CurvePoint {
            abstain_below: tau,
            by_group: scores_of(&all, &|q| {
                let support = if keep_model {
                    model_support[q]
                } else {
                    answers[q].1
                };
                answers[q].0.filter(|_| support >= tau)
            }),
        })
        .collect();
    AbstentionReport {
        curve,
        abstain_below,
        fold_choices,
        without: scores_of(&all, &|q| {
            predict(&chosen[q], &never, SupportRule::BestConfidence).count
        }),
        with,
        model_fold_choices,
        with_model,
        model: keep_model.then_some(model),
    }
}

/// The group of questions whose snippets state the answer (a candidate within the tolerance).
pub const ANSWERABLE: &str = "answerable";

/// Mean P/C points by which the answer-support model must beat the best confidence to be kept.
const RULE_MARGIN: f64 = 1.0;

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

#[cfg(test)]
mod tests {
    use super::*;
    use tally_engine::count::candidates::count_candidates;

    /// A query of data set `dataset` whose snippets state `stated` counts, each with `confidence`.
    fn query(dataset: &str, gold: f64, stated: &[(f64, f64)]) -> (TrainingQuery, QueryConfidences) {
        let texts: Vec<String> = stated
            .iter()
            .map(|(n, _)| format!("The band recorded {n} songs."))
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let confidences = texts
            .iter()
            .zip(stated)
            .map(|(t, (_, p))| count_candidates(t).into_iter().map(|c| (c, *p)).collect())
            .collect();
        let q =
            TrainingQuery::from_texts(dataset, "how many songs did the band record", gold, &refs);
        (q, confidences)
    }

    /// Right answers are stated by three snippets, wrong ones by one among rivals, all with
    /// the same confidences: the support model tells them apart, the best confidence cannot.
    /// Abstaining on every wrong answer leaves P/C as it was (RP rises as much as coverage
    /// falls), so the ties go to the lowest threshold: Tally abstains no more than the figures
    /// ask for.
    #[test]
    fn abstention_is_chosen_by_nested_folds_over_the_data_sets_and_the_answerable_questions() {
        let (mut queries, mut confidences) = (Vec::new(), Vec::new());
        for i in 0..60 {
            let dataset = if i % 2 == 0 { "a" } else { "b" };
            let c = 0.3 + (i % 4) as f64 * 0.02;
            let (q, conf) = if i % 3 == 0 {
                query(dataset, 12.0, &[(12.0, c), (12.0, c), (12.0, c), (40.0, c)])
            } else {
                query(dataset, 12.0, &[(30.0, c), (40.0, c), (50.0, c), (70.0, c)])
            };
            queries.push(q);
            confidences.push(conf);
        }
        let fold_of = fold_assignment(queries.len(), 5, 17);
        let settings = CountSettings {
            strategy: Strategy::MostFrequent,
            threshold: 0.0,
            ..CountSettings::default()
        };
        let report = choose_abstention(&queries, &confidences, &fold_of, 5, &settings);
        // The answerable group holds the 20 queries whose snippets state 12, from both sets.
        assert_eq!(report.with[ANSWERABLE].queries, 20);
        assert_eq!(report.with_model[ANSWERABLE].rp, 100.0);
        assert_eq!(report.without["a"].queries, 30);
        assert_eq!(report.without["b"].rp, 100.0 / 3.0);
        assert_eq!(report.fold_choices, [0.0; 5]);
        assert_eq!(report.model_fold_choices, [0.0; 5]);
        assert_eq!(report.abstain_below, 0.0);
        assert!(report.model.is_none());
        // The curve starts where nothing is abstained on, and answers fewer questions as the
        // threshold rises.
        assert_eq!(report.curve.len(), ABSTAIN_GRID.len());
        assert_eq!(report.curve[0].by_group, report.without);
        for group in ["a", "b", ANSWERABLE] {
            let answered: Vec<usize> = report
                .curve
                .iter()
                .map(|p| p.by_group[group].answered)
                .collect();
            assert!(answered.windows(2).all(|w| w[0] >= w[1]), "{answered:?}");
        }

        // The model fitted on these answers does separate them.
        let rows: Vec<(SupportFeatures, bool)> = confidences
            .iter()
            .zip(&queries)
            .map(|(conf, q)| {
                let chosen = best_per_snippet(conf);
                let answer = predict(&chosen, &settings, SupportRule::BestConfidence)
                    .count
                    .unwrap();
                let right = ratio(answer, q.gold) >= AGREEMENT_RATIO;
                (support_features(&scored(&chosen), answer), right)
            })
            .collect();
        let model = AnswerSupport::fit(&rows);
        for (x, right) in &rows {
            let p = model.model.probability(x);
            assert!(if *right { p > 0.9 } else { p < 0.1 }, "{p} {right}");
        }
    }
}
