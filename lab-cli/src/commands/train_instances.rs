//! `tally train instances`: the learned instance scorer from the judged instance set's tuning
//! half. Every tuning question is asked as a user asks it; each judged candidate name gives a
//! row (its type evidence, and whether a person judged it an instance of the counted kind). The
//! logistic model's penalty is chosen by 5-fold cross-validation by question (out-of-fold
//! log-loss), and the probability above which names are shown on the same out-of-fold
//! probabilities: the best precision of the shown top 5 that still shows names for at least
//! [`MIN_SHOWING`] of the questions. The test half is never read.

use anyhow::Context;
use tally_engine::count::calibration::reliability;
use tally_engine::count::instance_scorer::InstanceScorer;
use tally_engine::count::logistic::{FitSettings, Logistic};
use tally_engine::count::membership::FEATURES;
use tally_lab::count::training::cross_validation::fold_assignment;
use tally_lab::count::training::settings::TrainSettings;

use std::path::Path;

use tally_documents::snippet_index::SnippetIndex;
use tally_engine::count::CountPipeline;
use tally_types::CountSettings;

use super::judged_instances::{
    from_feedback, judged_index, read_judged, JudgedQuestion, Judgment, SHOWN,
};
use crate::cli::TrainInstancesArgs;
use tally_lab::collection::Half;
use tally_setup::loading::load_pipeline;

const FOLDS: usize = 5;
/// L2 penalties tried.
const PENALTIES: [f64; 5] = [1e-3, 1e-2, 0.1, 0.3, 1.0];
/// Probabilities tried as the showing threshold.
const THRESHOLDS: [f64; 15] = [
    0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75,
];
/// The least share of questions that must show a name (the goal is 60% of the answered
/// ones).
const MIN_SHOWING: f64 = 0.6;

/// One candidate name of one question.
#[derive(serde::Serialize)]
pub(crate) struct Row {
    /// The question's number.
    pub(crate) question: usize,
    /// The candidate name.
    pub(crate) name: String,
    /// The scorer's features of the name.
    pub(crate) features: Vec<f64>,
    /// `None`: nobody judged it (left out of the fit; counted as no instance when shown).
    pub(crate) instance: Option<bool>,
}

/// The judged set's tuning questions.
pub(crate) fn tuning_questions(judged: &Path) -> anyhow::Result<Vec<JudgedQuestion>> {
    Ok(read_judged(judged)?
        .into_iter()
        .filter(|q| q.half() == Half::Tuning)
        .collect())
}

/// Every candidate name of each question, asked of `index` as a user asks it, with its type
/// evidence and its judgment.
pub(crate) fn candidate_rows(
    pipeline: &CountPipeline,
    index: &SnippetIndex,
    questions: &[JudgedQuestion],
    base: &CountSettings,
) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for (n, q) in questions.iter().enumerate() {
        let candidates = pipeline
            .instance_candidates(index, &q.question, &q.settings(base))
            .with_context(|| format!("reading the candidates of “{}”", q.question))?;
        for (inst, features) in candidates {
            rows.push(Row {
                question: n,
                name: inst.name.clone(),
                features,
                instance: q.judgment_of(&inst.name).map(|j| j == Judgment::Instance),
            });
        }
    }
    Ok(rows)
}

/// The penalty with the least out-of-fold log-loss over `questions` questions' rows (5 folds by
/// question), its loss and out-of-fold probabilities; `print` lists every penalty tried.
pub(crate) fn chosen_penalty(
    rows: &[Row],
    questions: usize,
    print: bool,
) -> anyhow::Result<(f64, f64, Vec<f64>)> {
    let fold_of = fold_assignment(questions, FOLDS, TrainSettings::default().seed);
    let mut best: Option<(f64, f64, Vec<f64>)> = None;
    if print {
        println!("{:>8} {:>18}", "l2", "out-of-fold loss");
    }
    for l2 in PENALTIES {
        let oof = out_of_fold(rows, &fold_of, l2);
        let loss = log_loss(rows, &oof);
        if print {
            println!("{l2:>8} {loss:>18.4}");
        }
        if best.as_ref().is_none_or(|(_, b, _)| loss < *b) {
            best = Some((l2, loss, oof));
        }
    }
    best.context("no penalty was tried")
}

/// `tally train instances`: trains the instance scorer on the judged set's tuning half and writes it.
pub(crate) fn train(args: &TrainInstancesArgs) -> anyhow::Result<()> {
    let mut questions = tuning_questions(&args.judged)?;
    if let Some(path) = &args.judgments {
        let marked = from_feedback(&tally_lab::collection::read_json_lines(path)?);
        println!(
            "{} questions with accepted instance marks from {}",
            marked.len(),
            path.display()
        );
        questions.extend(marked);
    }
    let data = args.data.dir();
    let index = judged_index(&args.work, data.as_deref(), &args.collection)?;
    let pipeline = load_pipeline(&args.models)?;
    let rows = candidate_rows(&pipeline, &index, &questions, &args.settings.0)?;
    if let Some(path) = &args.write_rows {
        let lines: Vec<String> = rows
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<_, _>>()?;
        std::fs::write(path, lines.join("\n") + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let judged = rows.iter().filter(|r| r.instance.is_some()).count();
    let positives = rows.iter().filter(|r| r.instance == Some(true)).count();
    println!(
        "{} tuning questions, {} candidate names, {judged} judged ({positives} instances)",
        questions.len(),
        rows.len()
    );
    let (l2, _, oof) = chosen_penalty(&rows, questions.len(), true)?;
    let pairs: Vec<(f64, bool)> = rows
        .iter()
        .zip(&oof)
        .filter_map(|(r, &p)| r.instance.map(|y| (p, y)))
        .collect();
    println!(
        "chosen l2 {l2}; out-of-fold ECE {:.3} over {} judged names",
        reliability(&pairs, 10).ece,
        pairs.len()
    );
    println!(
        "{:>9} {:>10} {:>8}   (out of fold, top {SHOWN} above the threshold)",
        "threshold", "precision", "showing"
    );
    let mut chosen: Option<(f64, f64)> = None;
    for t in THRESHOLDS {
        let (precision, showing) = shown_figures(&rows, &oof, questions.len(), t);
        println!("{t:>9.2} {precision:>10.3} {showing:>8.3}");
        if showing >= MIN_SHOWING && chosen.is_none_or(|(_, p)| precision > p) {
            chosen = Some((t, precision));
        }
    }
    let (show_above, _) = chosen.context("no threshold shows names for enough questions")?;
    let fitted: Vec<(&[f64], bool)> = rows
        .iter()
        .filter_map(|r| r.instance.map(|y| (r.features.as_slice(), y)))
        .collect();
    let scorer = InstanceScorer {
        features: FEATURES.iter().map(|f| f.to_string()).collect(),
        model: Logistic::fit(&fitted, &fit_settings(l2)),
        show_above,
    };
    let text = serde_json::to_string_pretty(&scorer)?;
    std::fs::write(&args.out, text + "\n")
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "shows names above {show_above}; weights ({}): {:?}; written to {}",
        FEATURES.join(", "),
        scorer
            .model
            .weights
            .iter()
            .map(|w| (w * 100.0).round() / 100.0)
            .collect::<Vec<_>>(),
        args.out.display()
    );
    Ok(())
}

fn fit_settings(l2: f64) -> FitSettings {
    FitSettings {
        l2,
        ..FitSettings::default()
    }
}

/// Each row's probability from a model fitted without its question's fold.
fn out_of_fold(rows: &[Row], fold_of: &[usize], l2: f64) -> Vec<f64> {
    let mut oof = vec![0.0; rows.len()];
    for fold in 0..FOLDS {
        let train: Vec<(&[f64], bool)> = rows
            .iter()
            .filter(|r| fold_of[r.question] != fold)
            .filter_map(|r| r.instance.map(|y| (r.features.as_slice(), y)))
            .collect();
        let model = Logistic::fit(&train, &fit_settings(l2));
        for (slot, r) in oof.iter_mut().zip(rows) {
            if fold_of[r.question] == fold {
                *slot = model.probability(&r.features);
            }
        }
    }
    oof
}

/// Mean log-loss over the judged rows.
fn log_loss(rows: &[Row], p: &[f64]) -> f64 {
    let pairs: Vec<(f64, bool)> = rows
        .iter()
        .zip(p)
        .filter_map(|(r, &p)| r.instance.map(|y| (p, y)))
        .collect();
    tally_engine::count::calibration::log_loss(&pairs)
}

/// The precision of the shown top [`SHOWN`] (unjudged names count as no instance) and the share
/// of questions showing a name, when names above `threshold` are shown in the default ranking's
/// order. (A question's candidates are its top names by type compatibility, so a candidate the
/// answer would not show at all is rare.)
fn shown_figures(rows: &[Row], p: &[f64], questions: usize, threshold: f64) -> (f64, f64) {
    let (mut shown, mut right, mut showing) = (0usize, 0usize, 0usize);
    for q in 0..questions {
        // Shown in the default ranking's order (type compatibility: prior × fit²).
        let mut mine: Vec<(f64, bool)> = rows
            .iter()
            .zip(p)
            .filter(|(r, &p)| r.question == q && p >= threshold)
            .map(|(r, _)| {
                let (prior, fit) = (r.features[0], r.features[1]);
                (prior * fit * fit, r.instance == Some(true))
            })
            .collect();
        mine.sort_by(|a, b| b.0.total_cmp(&a.0));
        mine.truncate(SHOWN);
        shown += mine.len();
        right += mine.iter().filter(|(_, y)| *y).count();
        showing += usize::from(!mine.is_empty());
    }
    (
        right as f64 / shown.max(1) as f64,
        showing as f64 / questions.max(1) as f64,
    )
}
