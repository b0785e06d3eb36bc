//! Training Tally's count reader (`tally train count-spans`).
//!
//! Data: the CoQEx Stresstest and LC-QuAD-count snippet sets with their gold counts. Labels by
//! distant supervision: a window's answer positions are the annotated answer spans of the SQuAD
//! file plus, by the paper's rule, every count candidate whose count is within ±10% of the gold
//! count; windows without any are labelled "no answer" ([CLS]).
//!
//! What is trained: the reader's top (`span_model::ReaderTop`): copies of MiniLM's top
//! `tuned_layers` layers, started from the pretrained weights and fine-tuned on "[CLS] question
//! [SEP] passage [SEP]" so that question and passage attend to each other for this task, and the
//! two-layer span head over them. The frozen lower layers' states are computed once per window
//! and reused by every fold and epoch; only the top is run forward and backward (its layer norms
//! are the differentiable ones of `crate::bert`). Unanswered windows are subsampled each epoch.
//! Loss: for start and end, −log of the probability mass on the positive positions (several
//! spans of one window can be right).
//!
//! Evaluation: 5-fold cross-validation by query (query-disjoint folds); every query is answered
//! by the head that did not see it, and the out-of-fold answers give RP / coverage / P/C per
//! data set, for each strategy and threshold, next to the lexical baseline.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use candle_core::Var;
use candle_core::{DType, Device, IndexOp, Tensor, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use serde::Serialize;

use super::cross_validation::{
    best_threshold, cross_validate, fold_assignment, lexical_confidences, shuffle, CrossValidation,
};
use super::data::{QueryCandidates, TrainingQuery, TRAINING_SETS};
use super::span_confidences::write_span_confidences;
use tally_encoder::sha256_file;
use tally_encoder::Encoder;
use tally_engine::count::candidates::CountCandidate;
use tally_engine::count::span_model::{
    head_logits, probabilities, raise_candidate_probabilities, ReaderTop, SpanModelMeta, META_FILE,
    WEIGHTS_FILE,
};

pub use super::error::TrainError;
use super::settings::TrainSettings;
use super::windows::{encode, EncodedWindow};

/// Figures of one training run.
#[derive(Debug, Clone, Serialize)]
pub struct TrainReport {
    /// Training questions per data set.
    pub queries: BTreeMap<String, usize>,
    /// Windows trained on.
    pub windows: usize,
    /// Windows with an answer.
    pub positive_windows: usize,
    /// Windows of silver questions.
    pub silver_windows: usize,
    /// Seconds spent encoding the windows.
    pub encode_seconds: f64,
    /// Seconds spent training.
    pub train_seconds: f64,
    /// The settings of the run.
    pub settings: TrainSettings,
    /// Out-of-fold figures: data set → scorer → strategy → threshold → scores.
    pub cross_validation: CrossValidation,
    /// The threshold with the best mean P/C over the data sets (weighted median, neural).
    pub best_threshold: f64,
    /// The final head's last training loss.
    pub final_loss: f32,
}

/// Trains the span head: cross-validation first, then the final head on everything, written to
/// `out_dir`. The out-of-fold candidate probabilities go to `oof_path`: the candidate ranker
/// (`train_ranker.rs`) trains on them. `progress` receives one line per step.
pub fn train_count_spans(
    encoder: Arc<Encoder>,
    encoder_dir: &Path,
    queries: &[TrainingQuery],
    out_dir: &Path,
    oof_path: &Path,
    settings: &TrainSettings,
    progress: &dyn Fn(&str),
) -> Result<TrainReport, TrainError> {
    let layers = encoder.config().num_hidden_layers;
    if settings.tuned_layers > layers {
        return Err(TrainError::TunedLayers {
            asked: settings.tuned_layers,
            layers,
        });
    }
    let started = Instant::now();
    let (windows, candidates) = encode(
        &encoder,
        queries,
        layers - settings.tuned_layers,
        settings,
        progress,
    )?;
    let encode_seconds = started.elapsed().as_secs_f64();
    progress(&format!(
        "encoded {} windows of {} queries in {encode_seconds:.1} s",
        windows.len(),
        queries.len()
    ));

    let fold_of = fold_assignment(queries.len(), settings.folds, settings.seed);

    let train_started = Instant::now();
    let mut out_of_fold: Vec<Vec<Vec<(CountCandidate, f64)>>> = vec![Vec::new(); queries.len()];
    for fold in 0..settings.folds {
        let train: Vec<&EncodedWindow> = windows
            .iter()
            .filter(|w| fold_of[w.query] != fold)
            .collect();
        let (_, head, losses) = train_reader(&encoder, &train, settings, &|_| {})?;
        let loss = losses.last().copied().unwrap_or_default();
        progress(&format!(
            "fold {}/{}: loss {loss:.4}",
            fold + 1,
            settings.folds
        ));
        for q in (0..queries.len()).filter(|&q| fold_of[q] == fold) {
            let held: Vec<&EncodedWindow> = windows
                .iter()
                .filter(|w| w.query == q && !w.silver)
                .collect();
            out_of_fold[q] = confidences(&head, &held, &candidates[q])?;
        }
    }
    write_span_confidences(oof_path, queries, &out_of_fold)?;
    let lexical = lexical_confidences(queries, &candidates);
    let cross_validation =
        cross_validate(queries, &[("neural", &out_of_fold), ("lexical", &lexical)]);
    let best_threshold = best_threshold(&cross_validation);

    let all: Vec<&EncodedWindow> = windows.iter().collect();
    let (varmap, _, losses) = train_reader(&encoder, &all, settings, progress)?;
    let final_loss = losses.last().copied().unwrap_or_default();
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
        silver_windows: windows.iter().filter(|w| w.silver).count(),
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

/// Trains the reader's top (fine-tuned layers and head) on `windows`; returns its variables, the
/// trained top and each epoch's mean loss. The layers start from the encoder's own top layers.
fn train_reader(
    encoder: &Encoder,
    windows: &[&EncodedWindow],
    settings: &TrainSettings,
    progress: &dyn Fn(&str),
) -> Result<(VarMap, ReaderTop, Vec<f32>), TrainError> {
    let device = encoder.device();
    let config = encoder.config();
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, device);
    let top = ReaderTop::new(vb, config, settings.hidden, settings.tuned_layers)?;
    start_from_pretrained(&varmap, encoder, settings.tuned_layers)?;
    // The layers start from pretrained weights and move slowly; the head starts from scratch.
    let (layer_vars, head_vars): (Vec<Var>, Vec<Var>) = {
        let vars = varmap
            .data()
            .lock()
            .map_err(|_| candle_core::Error::Msg("variable map lock poisoned".into()))?;
        let of = |layers: bool| {
            vars.iter()
                .filter(|(name, _)| name.starts_with("layer.") == layers)
                .map(|(_, var)| var.clone())
                .collect()
        };
        (of(true), of(false))
    };
    let optimizer = |vars: Vec<Var>, lr: f64| {
        AdamW::new(
            vars,
            ParamsAdamW {
                lr,
                weight_decay: 0.01,
                ..Default::default()
            },
        )
    };
    let mut head_optimizer = optimizer(head_vars, settings.learning_rate)?;
    let mut layer_optimizer = optimizer(layer_vars, settings.layer_learning_rate)?;

    let (positives, negatives): (Vec<usize>, Vec<usize>) =
        (0..windows.len()).partition(|&i| !windows[i].starts.is_empty());
    let negatives_per_epoch = ((positives.len() as f64 * settings.negatives_per_positive).ceil()
        as usize)
        .min(negatives.len());
    let mut losses = Vec::with_capacity(settings.epochs);
    for epoch in 0..settings.epochs {
        let seed = settings.seed.wrapping_add(epoch as u64 + 1);
        // This epoch's windows: every answered one and a fresh draw of unanswered ones, in
        // batches of similar length whose order is shuffled.
        let mut drawn = negatives.clone();
        shuffle(&mut drawn, seed);
        let mut chosen: Vec<usize> = positives
            .iter()
            .chain(&drawn[..negatives_per_epoch])
            .copied()
            .collect();
        chosen.sort_by_key(|&i| windows[i].window.ids.len());
        let mut batches: Vec<Vec<usize>> = chosen
            .chunks(settings.batch)
            .map(<[usize]>::to_vec)
            .collect();
        shuffle(&mut batches, seed);
        let mut total = 0.0;
        for batch in &batches {
            let rows: Vec<&EncodedWindow> = batch.iter().map(|&i| windows[i]).collect();
            let loss = batch_loss(&top, &rows, device)?;
            let gradients = loss.backward()?;
            head_optimizer.step(&gradients)?;
            layer_optimizer.step(&gradients)?;
            total += loss.to_scalar::<f32>()?;
        }
        let loss = total / batches.len().max(1) as f32;
        losses.push(loss);
        progress(&format!(
            "epoch {}/{}: {} windows, loss {loss:.4}",
            epoch + 1,
            settings.epochs,
            chosen.len()
        ));
    }
    Ok((varmap, top, losses))
}

/// Sets the reader's layers `layer.0…` to the encoder's last `tuned` layers.
fn start_from_pretrained(
    varmap: &VarMap,
    encoder: &Encoder,
    tuned: usize,
) -> Result<(), TrainError> {
    if tuned == 0 {
        return Ok(());
    }
    let pretrained = candle_core::safetensors::load(encoder.weights_file(), encoder.device())?;
    let first = encoder.config().num_hidden_layers - tuned;
    let vars = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("variable map lock poisoned".into()))?;
    for (name, var) in vars.iter() {
        let Some(rest) = name.strip_prefix("layer.") else {
            continue;
        };
        let (index, rest) = rest.split_once('.').unwrap_or((rest, ""));
        let index: usize = index
            .parse()
            .map_err(|_| candle_core::Error::Msg(format!("unexpected variable {name}")))?;
        let source = ["", "bert."]
            .iter()
            .map(|prefix| format!("{prefix}encoder.layer.{}.{rest}", first + index))
            .find_map(|key| pretrained.get(&key))
            .ok_or_else(|| candle_core::Error::Msg(format!("no pretrained weights for {name}")))?;
        var.set(&source.to_dtype(DType::F32)?)?;
    }
    Ok(())
}

/// Marginal log-likelihood loss of a batch: −log P(start ∈ positives) − log P(end ∈ positives).
fn batch_loss(
    top: &ReaderTop,
    rows: &[&EncodedWindow],
    device: &Device,
) -> Result<Tensor, TrainError> {
    const OFF: f32 = -1e4;
    let (states, mask) = padded_states(rows)?;
    let len = states.dim(1)?;
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
    let logits = top.forward(&states, &mask)?;
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

/// The cached states of `rows`, padded with zeros to the longest: `(rows, len, dim)`, with the
/// `(rows, len)` 0/1 mask of real tokens.
fn padded_states(rows: &[&EncodedWindow]) -> candle_core::Result<(Tensor, Tensor)> {
    let len = rows.iter().map(|r| r.window.ids.len()).max().unwrap_or(1);
    let padded: Vec<Tensor> = rows
        .iter()
        .map(|r| r.states.pad_with_zeros(0, 0, len - r.window.ids.len()))
        .collect::<candle_core::Result<_>>()?;
    let states = Tensor::stack(&padded, 0)?;
    let mask: Vec<u32> = rows
        .iter()
        .flat_map(|r| (0..len).map(move |i| u32::from(i < r.window.ids.len())))
        .collect();
    let mask = Tensor::from_vec(mask, (rows.len(), len), states.device())?;
    Ok((states, mask))
}

/// Candidate confidences of one query from its encoded windows.
fn confidences(
    top: &ReaderTop,
    windows: &[&EncodedWindow],
    candidates: &QueryCandidates,
) -> Result<Vec<Vec<(CountCandidate, f64)>>, TrainError> {
    let mut out: Vec<Vec<f64>> = candidates.iter().map(|cs| vec![0.0; cs.len()]).collect();
    for chunk in windows.chunks(32) {
        let (states, mask) = padded_states(chunk)?;
        let logits = head_logits(
            top,
            &states,
            &mask,
            chunk.iter().map(|w| w.window.ids.len()),
        )?;
        for (w, row) in chunk.iter().zip(logits) {
            let s = w.window.snippet;
            let scores = probabilities(&w.window, &row);
            raise_candidate_probabilities(&w.window, &scores, &candidates[s], &mut out[s]);
        }
    }
    Ok(candidates
        .iter()
        .zip(out)
        .map(|(cs, ps)| cs.iter().cloned().zip(ps).collect())
        .collect())
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
    write_weights(varmap, &out_dir.join(WEIGHTS_FILE))?;
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
        tuned_layers: settings.tuned_layers,
        training: serde_json::json!({
            "data": TRAINING_SETS.iter().map(|(n, s, g)| format!("{n}: {s} + {g}")).collect::<Vec<_>>(),
            "settings": settings,
            "queries": report.queries,
            "windows": report.windows,
            "positive_windows": report.positive_windows,
            "silver_windows": report.silver_windows,
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

/// Writes the reader's variables in half precision: two fine-tuned layers stay near 7 MB
/// (committed with the project); loading converts back to f32.
fn write_weights(varmap: &VarMap, path: &Path) -> candle_core::Result<()> {
    let tensors: HashMap<String, Tensor> = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("variable map lock poisoned".into()))?
        .iter()
        .map(|(name, var)| Ok((name.clone(), var.as_tensor().to_dtype(DType::F16)?)))
        .collect::<candle_core::Result<_>>()?;
    candle_core::safetensors::save(&tensors, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_engine::count::span_model::{candidate_confidence, SpanModel};

    fn query(question: &str, gold: f64, snippets: &[&str]) -> TrainingQuery {
        TrainingQuery::from_texts("fixture", question, gold, snippets)
    }

    /// Two questions whose snippets hold the answer next to other counts.
    fn fixture() -> Vec<TrainingQuery> {
        vec![
            query(
                "how many songs did the band record",
                12.0,
                &[
                    "The band recorded 12 songs for the album. They toured 30 cities.",
                    "Critics counted 12 songs on the record and 4 singles.",
                    "The band had 5 members and played 200 concerts.",
                ],
            ),
            query(
                "how many moons does the planet have",
                14.0,
                &[
                    "The planet has 14 moons and 3 rings.",
                    "Astronomers listed 14 moons; 2 probes have visited it.",
                    "It took 9 years to reach, with 6 instruments on board.",
                ],
            ),
        ]
    }

    fn settings() -> TrainSettings {
        TrainSettings {
            epochs: 6,
            tuned_layers: 1,
            batch: 4,
            layer_learning_rate: 3e-4,
            ..TrainSettings::default()
        }
    }

    #[test]
    fn every_variable_of_the_reader_gets_a_gradient() {
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let layers = encoder.config().num_hidden_layers;
        let (windows, _) = encode(
            &encoder,
            &fixture(),
            layers - 1,
            &TrainSettings::default(),
            &|_| {},
        )
        .unwrap();
        assert!(windows.iter().any(|w| !w.starts.is_empty()));
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, encoder.device());
        let top = ReaderTop::new(vb, encoder.config(), 16, 1).unwrap();
        start_from_pretrained(&varmap, &encoder, 1).unwrap();
        let rows: Vec<&EncodedWindow> = windows.iter().collect();
        let gradients = batch_loss(&top, &rows, encoder.device())
            .unwrap()
            .backward()
            .unwrap();
        let vars = varmap.data().lock().unwrap();
        // The head, and every weight of the fine-tuned layer (layer norms included, which
        // candle-nn's fused kernel would have left without a gradient).
        assert!(vars.len() > 16, "{} variables", vars.len());
        for (name, var) in vars.iter() {
            let gradient = gradients
                .get(var.as_tensor())
                .unwrap_or_else(|| panic!("no gradient for {name}"));
            let size: f32 = gradient
                .abs()
                .unwrap()
                .sum_all()
                .unwrap()
                .to_scalar()
                .unwrap();
            if name.ends_with("out.bias") {
                // A bias adds the same to every position's logit, and a softmax over positions
                // does not move under a shift: its true gradient is zero, what is left is noise
                // (exactly zero now and then, which made this test fail by chance).
                assert!(
                    size < 1e-3,
                    "gradient {size} for {name}, a shift of every logit"
                );
                continue;
            }
            assert!(size > 0.0, "zero gradient for {name}");
        }
    }

    /// The longest questions the API accepts (500 characters, ~190 words) once panicked the
    /// tokenizer: the question left no room for the passage's stride.
    #[test]
    fn the_reader_answers_questions_of_any_accepted_length() {
        let pipeline = tally_engine::count::CountPipeline::load(
            tally_encoder::Encoder::provisioned_minilm()
                .expect("the MiniLM is provisioned (scripts/setup.sh)"),
            None,
            tally_engine::count::span_model::CONTEXT_CHARS,
            tally_engine::count::span_model::ReaderWeights::Fast,
        )
        .unwrap();
        let snippets = fixture().swap_remove(0).snippets;
        let words = format!("how many{}", " a".repeat(246));
        let numbers = format!("how many {}", "1,".repeat(245));
        for question in [words, numbers] {
            assert!(question.chars().count() <= 500 && question.chars().count() > 490);
            let settings = tally_types::CountSettings::default();
            let answer = pipeline.answer(
                &question,
                &snippets,
                tally_types::count::origin::Retrieval::Given,
                &settings,
                &tally_documents::rarity::SameRarity,
                &mut tally_engine::count::pipeline::carry_on,
            );
            assert!(answer.is_ok(), "{question}: {:?}", answer.err());
        }
    }

    #[test]
    fn training_lowers_the_loss_and_the_saved_reader_reads_the_same() {
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let layers = encoder.config().num_hidden_layers;
        let queries = fixture();
        let (windows, candidates) = encode(
            &encoder,
            &queries,
            layers - 1,
            &TrainSettings::default(),
            &|_| {},
        )
        .unwrap();
        let all: Vec<&EncodedWindow> = windows.iter().collect();
        let settings = settings();
        let (varmap, top, losses) = train_reader(&encoder, &all, &settings, &|_| {}).unwrap();
        assert_eq!(losses.len(), settings.epochs);
        assert!(
            losses[settings.epochs - 1] < 0.8 * losses[0],
            "the loss did not go down: {losses:?}"
        );

        // Round trip: the saved file, loaded as the pipeline loads it, gives the probabilities
        // of the trained reader (within half precision).
        let dir = std::env::temp_dir().join(format!("tally-reader-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_weights(&varmap, &dir.join(WEIGHTS_FILE)).unwrap();
        let meta = SpanModelMeta {
            encoder: encoder.name().to_string(),
            encoder_sha256: String::new(),
            hidden: settings.hidden,
            tuned_layers: 1,
            training: serde_json::Value::Null,
        };
        std::fs::write(dir.join(META_FILE), serde_json::to_string(&meta).unwrap()).unwrap();
        let loaded = SpanModel::load(encoder.clone(), &dir).unwrap();
        let texts: Vec<&str> = queries[0]
            .snippets
            .iter()
            .map(|s| s.text.as_str())
            .collect();
        let passages = tally_engine::count::span_model::candidate_passages(&texts, &candidates[0]);
        let read = loaded.score(&queries[0].question, &passages).unwrap();
        let trained: Vec<&EncodedWindow> = windows
            .iter()
            .filter(|w| w.query == 0 && !w.silver)
            .collect();
        assert_eq!(read.len(), trained.len());
        for ((window, scores), encoded) in read.iter().zip(&trained) {
            assert_eq!(window.ids, encoded.window.ids);
            let (states, mask) = padded_states(&[*encoded]).unwrap();
            let logits =
                head_logits(&top, &states, &mask, std::iter::once(window.ids.len())).unwrap();
            let expected = probabilities(window, &logits[0]);
            for (a, b) in scores.start.iter().zip(&expected.start) {
                assert!((a - b).abs() < 0.02, "start probability {a} vs {b}");
            }
        }
        // The trained reader puts the answer's number above the other counts of its snippet.
        let (window, scores) = &read[0];
        let conf = |c: &CountCandidate| {
            candidate_confidence(window, scores, &c.span, &c.number_span).unwrap_or(0.0)
        };
        let snippet = &candidates[0][0];
        let answer = snippet.iter().find(|c| c.count == 12.0).expect("12 songs");
        let other = snippet.iter().find(|c| c.count == 30.0).expect("30 cities");
        assert!(
            conf(answer) > conf(other),
            "12 songs {} vs 30 cities {}",
            conf(answer),
            conf(other)
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
