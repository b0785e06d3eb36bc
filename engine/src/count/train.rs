//! Training Tally's span head (`tally train count-spans`).
//!
//! Data: the CoQEx Stresstest and LC-QuAD-count snippet sets with their gold counts. Labels by
//! distant supervision: a window's answer positions are the annotated answer spans of the SQuAD
//! file plus, by the paper's rule, every count candidate whose count is within ±10% of the gold
//! count; windows without any are labelled "no answer" ([CLS]).
//!
//! What is trained: the two-layer head over the frozen MiniLM token states. The encoder's states
//! are computed once, so five cross-validation folds and the final model train in minutes on two
//! CPU cores; back-propagating through the encoder would cost ~100× more per epoch for a corpus
//! of 700 annotated answers. Loss: for start and end, −log of the probability mass on the
//! positive positions (several spans of one window can be right).
//!
//! Evaluation: 5-fold cross-validation by query (query-disjoint folds); every query is answered
//! by the head that did not see it, and the out-of-fold answers give RP / coverage / P/C per
//! data set, for each strategy and threshold, next to the lexical baseline.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use candle_core::{DType, Device, IndexOp, Tensor, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use serde::Serialize;

use super::candidates::{count_candidates, CountCandidate};
use super::consolidate::Strategy;
use super::dataset::{gold_for, read_gold_counts, read_squad, DatasetError, Snippet};
use super::lexical::lexical_confidence;
use super::metrics::{count_scores, CountScores};
use super::pipeline::{best_per_snippet, predict, CountSettings};
use super::question::analyse;
use super::span_model::{
    candidate_confidence, head_logits, make_windows, pair_tokenizer, probabilities, SpanHead,
    SpanModelError, SpanModelMeta, Window, META_FILE, WEIGHTS_FILE,
};
use crate::encoder::Encoder;
use crate::model_dir::sha256_file;

/// The data sets trained on: (name, snippet file, gold file) under the CoQEx data directory.
pub const TRAINING_SETS: &[(&str, &str, &str)] = &[
    (
        "stresstest",
        "stresstest_v1/stresstest_bing_v1.json",
        "stresstest_v1/stresstest.csv",
    ),
    (
        "lcquad-count",
        "count_lcquad_v2/count_lcquadv2_bing_v1.json",
        "count_lcquad_v2/count_lcquadv2.csv",
    ),
];

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error(transparent)]
    SpanModel(#[from] SpanModelError),
    #[error("model error: {0}")]
    Model(#[from] candle_core::Error),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no training data found under {0} (expected the CoQEx stresstest_v1 and count_lcquad_v2 folders)")]
    NoData(PathBuf),
}

#[derive(Debug, Clone, Serialize)]
pub struct TrainSettings {
    pub epochs: usize,
    pub hidden: usize,
    pub learning_rate: f64,
    pub batch: usize,
    pub folds: usize,
    pub seed: u64,
    /// A candidate within this relative distance of the gold count is a positive.
    pub tolerance: f64,
}

impl Default for TrainSettings {
    fn default() -> Self {
        Self {
            epochs: 12,
            hidden: 128,
            learning_rate: 2e-3,
            batch: 32,
            folds: 5,
            seed: 17,
            tolerance: 0.1,
        }
    }
}

/// A training question with its gold count and snippets.
pub struct TrainingQuery {
    pub dataset: String,
    pub qid: String,
    pub question: String,
    pub gold: f64,
    pub snippets: Vec<Snippet>,
}

/// Reads the training sets present under `coqex_dir` (queries with a gold count only).
pub fn load_training_queries(coqex_dir: &Path) -> Result<Vec<TrainingQuery>, TrainError> {
    let mut out = Vec::new();
    for (name, snippets, gold) in TRAINING_SETS {
        let (snippets, gold) = (coqex_dir.join(snippets), coqex_dir.join(gold));
        if !snippets.is_file() || !gold.is_file() {
            continue;
        }
        let gold = read_gold_counts(&gold)?;
        for set in read_squad(&snippets)? {
            if let Some(count) = gold_for(&set, &gold).and_then(|g| g.count) {
                out.push(TrainingQuery {
                    dataset: name.to_string(),
                    qid: set.qid,
                    question: set.question,
                    gold: count,
                    snippets: set.snippets,
                });
            }
        }
    }
    if out.is_empty() {
        return Err(TrainError::NoData(coqex_dir.to_path_buf()));
    }
    Ok(out)
}

/// A window with its frozen encoder states and labels.
struct EncodedWindow {
    query: usize,
    window: Window,
    /// `(tokens, dimension)`.
    states: Tensor,
    starts: Vec<usize>,
    ends: Vec<usize>,
}

/// Candidates of one query: per snippet.
type QueryCandidates = Vec<Vec<CountCandidate>>;

/// Out-of-fold figures: data set → scorer → strategy → threshold → scores.
pub type CrossValidation =
    BTreeMap<String, BTreeMap<String, BTreeMap<String, BTreeMap<String, CountScores>>>>;

/// Figures of one training run.
#[derive(Debug, Clone, Serialize)]
pub struct TrainReport {
    pub queries: BTreeMap<String, usize>,
    pub windows: usize,
    pub positive_windows: usize,
    pub encode_seconds: f64,
    pub train_seconds: f64,
    pub settings: TrainSettings,
    /// Out-of-fold figures: data set → scorer → strategy → threshold → scores.
    pub cross_validation: CrossValidation,
    /// The threshold with the best mean P/C over the data sets (weighted median, neural).
    pub best_threshold: f64,
    pub final_loss: f32,
}

/// Thresholds swept in cross-validation.
pub const THRESHOLDS: [f64; 9] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/// Trains the span head: cross-validation first, then the final head on everything, written to
/// `out_dir`. `progress` receives one line per step.
pub fn train_count_spans(
    encoder: Arc<Encoder>,
    encoder_dir: &Path,
    queries: &[TrainingQuery],
    out_dir: &Path,
    settings: &TrainSettings,
    progress: &dyn Fn(&str),
) -> Result<TrainReport, TrainError> {
    let started = Instant::now();
    let (windows, candidates) = encode(&encoder, queries, settings.tolerance, progress)?;
    let encode_seconds = started.elapsed().as_secs_f64();
    progress(&format!(
        "encoded {} windows of {} queries in {encode_seconds:.1} s",
        windows.len(),
        queries.len()
    ));

    // Query-disjoint folds, shuffled with a fixed seed.
    let mut order: Vec<usize> = (0..queries.len()).collect();
    shuffle(&mut order, settings.seed);
    let mut fold_of = vec![0; queries.len()];
    for (i, &q) in order.iter().enumerate() {
        fold_of[q] = i % settings.folds;
    }

    let train_started = Instant::now();
    let mut out_of_fold: Vec<Vec<Vec<(CountCandidate, f64)>>> = vec![Vec::new(); queries.len()];
    for fold in 0..settings.folds {
        let train: Vec<&EncodedWindow> = windows
            .iter()
            .filter(|w| fold_of[w.query] != fold)
            .collect();
        let (_, head, loss) = train_head(&train, encoder.dimension(), settings, encoder.device())?;
        progress(&format!(
            "fold {}/{}: loss {loss:.4}",
            fold + 1,
            settings.folds
        ));
        for q in (0..queries.len()).filter(|&q| fold_of[q] == fold) {
            let held: Vec<&EncodedWindow> = windows.iter().filter(|w| w.query == q).collect();
            out_of_fold[q] = confidences(&head, &held, &candidates[q])?;
        }
    }
    let cross_validation = cross_validate(queries, &candidates, &out_of_fold);
    let best_threshold = best_threshold(&cross_validation);

    let all: Vec<&EncodedWindow> = windows.iter().collect();
    let (varmap, _, final_loss) =
        train_head(&all, encoder.dimension(), settings, encoder.device())?;
    let train_seconds = train_started.elapsed().as_secs_f64();
    progress(&format!(
        "final head: loss {final_loss:.4}; training took {train_seconds:.1} s"
    ));

    let mut counts = BTreeMap::new();
    for q in queries {
        *counts.entry(q.dataset.clone()).or_insert(0) += 1;
    }
    let report = TrainReport {
        queries: counts,
        windows: windows.len(),
        positive_windows: windows.iter().filter(|w| !w.starts.is_empty()).count(),
        encode_seconds,
        train_seconds,
        settings: settings.clone(),
        cross_validation,
        best_threshold,
        final_loss,
    };
    save(&varmap, &encoder, encoder_dir, out_dir, settings, &report)?;
    Ok(report)
}

/// Windows of every snippet with a count candidate, their frozen states and labels.
fn encode(
    encoder: &Encoder,
    queries: &[TrainingQuery],
    tolerance: f64,
    progress: &dyn Fn(&str),
) -> Result<(Vec<EncodedWindow>, Vec<QueryCandidates>), TrainError> {
    let tokenizer = pair_tokenizer(encoder)?;
    let mut windows = Vec::new();
    let mut all_candidates = Vec::new();
    for (q, query) in queries.iter().enumerate() {
        let candidates: QueryCandidates = query
            .snippets
            .iter()
            .map(|s| count_candidates(&s.text))
            .collect();
        // Only snippets with a candidate are ever scored, so only those are trained on.
        let with: Vec<usize> = (0..query.snippets.len())
            .filter(|&s| !candidates[s].is_empty())
            .collect();
        let texts: Vec<&str> = with
            .iter()
            .map(|&s| query.snippets[s].text.as_str())
            .collect();
        let mut query_windows = make_windows(&tokenizer, &query.question, &texts)?;
        for w in &mut query_windows {
            w.snippet = with[w.snippet];
        }
        for chunk in query_windows.chunks(32) {
            let sequences: Vec<(&[u32], &[u32])> = chunk
                .iter()
                .map(|w| (w.ids.as_slice(), w.type_ids.as_slice()))
                .collect();
            let (states, _) = encoder
                .token_states(&sequences)
                .map_err(SpanModelError::from)?;
            for (row, window) in chunk.iter().enumerate() {
                let snippet = &query.snippets[window.snippet];
                let (starts, ends) = labels(
                    window,
                    snippet,
                    &candidates[window.snippet],
                    query.gold,
                    tolerance,
                );
                windows.push(EncodedWindow {
                    query: q,
                    states: states.i(row)?.narrow(0, 0, window.ids.len())?.copy()?,
                    window: window.clone(),
                    starts,
                    ends,
                });
            }
        }
        all_candidates.push(candidates);
        if (q + 1) % 25 == 0 {
            progress(&format!("encoded {}/{} queries", q + 1, queries.len()));
        }
    }
    Ok((windows, all_candidates))
}

/// Positive start and end tokens of a window.
fn labels(
    window: &Window,
    snippet: &Snippet,
    candidates: &[CountCandidate],
    gold: f64,
    tolerance: f64,
) -> (Vec<usize>, Vec<usize>) {
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    let mut add = |phrase: &std::ops::Range<usize>, number: &std::ops::Range<usize>| {
        if let (Some((ps, pe)), Some((ns, ne))) =
            (window.token_range(phrase), window.token_range(number))
        {
            starts.extend([ps, ns]);
            ends.extend([ne, pe]);
        }
    };
    for c in candidates {
        if (c.count - gold).abs() <= tolerance * gold.abs() {
            add(&c.span, &c.number_span);
        }
    }
    for answer in &snippet.answers {
        let span = answer.start..answer.start + answer.text.len();
        // The number inside the annotated span, when there is one.
        let number = count_candidates(&answer.text)
            .first()
            .map(|c| span.start + c.number_span.start..span.start + c.number_span.end)
            .unwrap_or(span.clone());
        add(&span, &number);
    }
    starts.sort_unstable();
    starts.dedup();
    ends.sort_unstable();
    ends.dedup();
    (starts, ends)
}

/// Trains one head on `windows`; returns its variables, the head and the last epoch's loss.
fn train_head(
    windows: &[&EncodedWindow],
    dimension: usize,
    settings: &TrainSettings,
    device: &Device,
) -> Result<(VarMap, SpanHead, f32), TrainError> {
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, device);
    let head = SpanHead::new(vb, dimension, settings.hidden)?;
    let mut optimizer = AdamW::new(
        varmap.all_vars(),
        ParamsAdamW {
            lr: settings.learning_rate,
            weight_decay: 0.01,
            ..Default::default()
        },
    )?;
    // Batches of similar length; their order is shuffled every epoch.
    let mut by_length: Vec<usize> = (0..windows.len()).collect();
    by_length.sort_by_key(|&i| windows[i].window.ids.len());
    let mut batches: Vec<Vec<usize>> = by_length
        .chunks(settings.batch)
        .map(<[usize]>::to_vec)
        .collect();
    let mut last_loss = 0.0;
    for epoch in 0..settings.epochs {
        shuffle(&mut batches, settings.seed.wrapping_add(epoch as u64 + 1));
        let mut total = 0.0;
        for batch in &batches {
            let rows: Vec<&EncodedWindow> = batch.iter().map(|&i| windows[i]).collect();
            let loss = batch_loss(&head, &rows, device)?;
            optimizer.backward_step(&loss)?;
            total += loss.to_scalar::<f32>()?;
        }
        last_loss = total / batches.len().max(1) as f32;
    }
    Ok((varmap, head, last_loss))
}

/// Marginal log-likelihood loss of a batch: −log P(start ∈ positives) − log P(end ∈ positives).
fn batch_loss(
    head: &SpanHead,
    rows: &[&EncodedWindow],
    device: &Device,
) -> Result<Tensor, TrainError> {
    const OFF: f32 = -1e4;
    let len = rows.iter().map(|r| r.window.ids.len()).max().unwrap_or(1);
    let padded: Vec<Tensor> = rows
        .iter()
        .map(|r| r.states.pad_with_zeros(0, 0, len - r.window.ids.len()))
        .collect::<candle_core::Result<_>>()?;
    let states = Tensor::stack(&padded, 0)?;
    let mut allowed = vec![OFF; rows.len() * len];
    let mut start_pos = vec![OFF; rows.len() * len];
    let mut end_pos = vec![OFF; rows.len() * len];
    for (b, r) in rows.iter().enumerate() {
        allowed[b * len] = 0.0;
        for (i, span) in r.window.spans.iter().enumerate() {
            if span.is_some() {
                allowed[b * len + i] = 0.0;
            }
        }
        if r.starts.is_empty() || r.ends.is_empty() {
            start_pos[b * len] = 0.0;
            end_pos[b * len] = 0.0;
        } else {
            for &i in &r.starts {
                start_pos[b * len + i] = 0.0;
            }
            for &i in &r.ends {
                end_pos[b * len + i] = 0.0;
            }
        }
    }
    let shape = (rows.len(), len);
    let allowed = Tensor::from_vec(allowed, shape, device)?;
    let logits = head.forward(&states)?;
    let mut loss = None;
    for (k, positives) in [(0, start_pos), (1, end_pos)] {
        let positives = Tensor::from_vec(positives, shape, device)?;
        let log_p = candle_nn::ops::log_softmax(&(logits.i((.., .., k))? + &allowed)?, D::Minus1)?;
        let mass = (log_p + positives)?.exp()?.sum(D::Minus1)?;
        let part = ((mass + 1e-20)?.log()?.neg()?).mean_all()?;
        loss = Some(match loss {
            None => part,
            Some(l) => (l + part)?,
        });
    }
    Ok(loss.expect("two parts"))
}

/// Candidate confidences of one query from its encoded windows.
fn confidences(
    head: &SpanHead,
    windows: &[&EncodedWindow],
    candidates: &QueryCandidates,
) -> Result<Vec<Vec<(CountCandidate, f64)>>, TrainError> {
    let mut out: Vec<Vec<(CountCandidate, f64)>> = candidates
        .iter()
        .map(|cs| cs.iter().map(|c| (c.clone(), 0.0)).collect())
        .collect();
    for chunk in windows.chunks(32) {
        let len = chunk.iter().map(|w| w.window.ids.len()).max().unwrap_or(1);
        let padded: Vec<Tensor> = chunk
            .iter()
            .map(|w| w.states.pad_with_zeros(0, 0, len - w.window.ids.len()))
            .collect::<candle_core::Result<_>>()?;
        let states = Tensor::stack(&padded, 0)?;
        let logits = head_logits(head, &states, chunk.iter().map(|w| w.window.ids.len()))?;
        for (w, row) in chunk.iter().zip(logits) {
            let scores = probabilities(&w.window, &row);
            for (c, conf) in out[w.window.snippet].iter_mut() {
                if let Some(p) = candidate_confidence(&w.window, &scores, &c.span, &c.number_span) {
                    *conf = conf.max(p as f64);
                }
            }
        }
    }
    Ok(out)
}

/// Out-of-fold figures for every data set, scorer, strategy and threshold.
fn cross_validate(
    queries: &[TrainingQuery],
    candidates: &[QueryCandidates],
    neural: &[Vec<Vec<(CountCandidate, f64)>>],
) -> CrossValidation {
    let lexical: Vec<Vec<Vec<(CountCandidate, f64)>>> = queries
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
        .collect();
    let mut out = BTreeMap::new();
    let datasets: Vec<String> = {
        let mut d: Vec<String> = queries.iter().map(|q| q.dataset.clone()).collect();
        d.dedup();
        d
    };
    for dataset in datasets {
        let mut by_scorer = BTreeMap::new();
        for (scorer, confs) in [("neural", neural), ("lexical", &lexical[..])] {
            let mut by_strategy = BTreeMap::new();
            for strategy in Strategy::ALL {
                let mut by_threshold = BTreeMap::new();
                for threshold in THRESHOLDS {
                    let settings = CountSettings {
                        threshold,
                        strategy,
                        ..CountSettings::default()
                    };
                    let pairs: Vec<(Option<f64>, f64)> = queries
                        .iter()
                        .enumerate()
                        .filter(|(_, q)| q.dataset == dataset)
                        .map(|(i, q)| {
                            let chosen = best_per_snippet(&confs[i]);
                            (predict(&chosen, &settings).2, q.gold)
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

fn best_threshold(cv: &CrossValidation) -> f64 {
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

fn save(
    varmap: &VarMap,
    encoder: &Encoder,
    encoder_dir: &Path,
    out_dir: &Path,
    settings: &TrainSettings,
    report: &TrainReport,
) -> Result<(), TrainError> {
    let write_error = |path: PathBuf| move |source| TrainError::Write { path, source };
    std::fs::create_dir_all(out_dir).map_err(write_error(out_dir.to_path_buf()))?;
    varmap.save(out_dir.join(WEIGHTS_FILE))?;
    let encoder_sha256 = sha256_file(&encoder_dir.join("model.safetensors")).unwrap_or_default();
    let summary: BTreeMap<&String, f64> = report
        .cross_validation
        .iter()
        .filter_map(|(d, s)| {
            let key = format!("{:.1}", report.best_threshold);
            Some((d, s.get("neural")?.get("weighted-median")?.get(&key)?.pc))
        })
        .collect();
    let meta = SpanModelMeta {
        encoder: encoder.name().to_string(),
        encoder_sha256,
        hidden: settings.hidden,
        training: serde_json::json!({
            "data": TRAINING_SETS.iter().map(|(n, s, g)| format!("{n}: {s} + {g}")).collect::<Vec<_>>(),
            "settings": settings,
            "queries": report.queries,
            "windows": report.windows,
            "positive_windows": report.positive_windows,
            "best_threshold": report.best_threshold,
            "cv_pc_weighted_median": summary,
            "train_seconds": report.train_seconds,
            "encode_seconds": report.encode_seconds,
        }),
    };
    let path = out_dir.join(META_FILE);
    let text = serde_json::to_string_pretty(&meta).unwrap_or_default();
    std::fs::write(&path, text + "\n").map_err(write_error(path.clone()))?;
    Ok(())
}

/// Fisher–Yates with xorshift64: reproducible without a random-number crate.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..items.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        items.swap(i, (state % (i as u64 + 1)) as usize);
    }
}
