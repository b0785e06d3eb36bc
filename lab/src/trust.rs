//! What teaches the engine's answer gates (`tally_engine::trust`, issue 86): the evaluations
//! write each answer's features and whether it was right (`--trust-features FILE`), and `tally
//! train trust` fits one logistic model per kind on the tuning half, cross-validated by
//! document, and chooses the bound on the out-of-fold probabilities: the lowest at which the
//! answers still given are wrong for at most [`WRONG_SHARE`] of all the tuning questions.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tally_engine::count::logistic::{FitSettings, Logistic};
use tally_engine::trust::{Gate, Trust, COUNT_FEATURES, VALUE_FEATURES};

/// The wrong share the bound is chosen for: at most this share of all questions answered
/// wrongly (issue 86's goal).
pub const WRONG_SHARE: f64 = 0.03;

/// Folds of the cross-validation by document.
const FOLDS: u64 = 5;

/// One question's line of a features file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrustLine {
    /// `count` (a count answer, or a value question answered over the records) or `value`.
    pub kind: String,
    /// Which evaluation and setting asked it ("own-documents/documents", "aggregations").
    pub setting: String,
    /// `tuning` or `test`.
    pub half: String,
    /// The document it is about: the folds keep a document's questions together.
    pub document: String,
    /// The question.
    pub question: String,
    /// Whether an answer was given before the gate (a number, sure).
    pub given: bool,
    /// Whether that answer was right (or, not given, whether declining was).
    pub right: bool,
    /// The answer's features; `None` where no gate applies (no answer, or from the data sets).
    pub features: Option<Vec<f64>>,
}

/// Where an evaluation writes its [`TrustLine`]s (nowhere without `--trust-features`).
#[derive(Debug, Default)]
pub struct TrustLog {
    out: Option<std::io::BufWriter<std::fs::File>>,
}

impl TrustLog {
    /// A log appending to `path` (created when missing).
    pub fn open(path: Option<&Path>) -> std::io::Result<Self> {
        let out = match path {
            Some(path) => Some(std::io::BufWriter::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?,
            )),
            None => None,
        };
        Ok(Self { out })
    }

    /// Writes one line.
    pub fn write(&mut self, line: &TrustLine) -> std::io::Result<()> {
        if let Some(out) = &mut self.out {
            let text = serde_json::to_string(line).map_err(std::io::Error::other)?;
            writeln!(out, "{text}")?;
        }
        Ok(())
    }
}

/// Why the gates could not be trained.
#[derive(Debug, thiserror::Error)]
pub enum TrustTrainError {
    /// A features file could not be read or written.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A line is not a [`TrustLine`].
    #[error("{path}, line {line}")]
    Line {
        /// The file.
        path: PathBuf,
        /// Its line number.
        line: usize,
        /// The cause.
        source: serde_json::Error,
    },
    /// No tuning answers of a kind to fit on.
    #[error("the features files hold no tuning-half {0} answers with features")]
    NoAnswers(&'static str),
}

/// Reads features files.
pub fn read_lines(paths: &[PathBuf]) -> Result<Vec<TrustLine>, TrustTrainError> {
    let mut lines = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|source| TrustTrainError::Io {
            path: path.clone(),
            source,
        })?;
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            lines.push(
                serde_json::from_str(line).map_err(|source| TrustTrainError::Line {
                    path: path.clone(),
                    line: n + 1,
                    source,
                })?,
            );
        }
    }
    Ok(lines)
}

/// What one gate's training measured on the tuning half, out of fold.
#[derive(Debug, Clone, Serialize)]
pub struct GateFigures {
    /// Tuning questions of the kind (the wrong share's denominator).
    pub questions: usize,
    /// Answers given before the gate.
    pub given: usize,
    /// Of those, how many were right.
    pub given_right: usize,
    /// Answers the gate applies to (features present).
    pub gated: usize,
    /// The bound chosen.
    pub bound: f64,
    /// Right answers still given at the bound (every answer with no gate counted).
    pub kept_right: usize,
    /// Wrong answers still given at the bound.
    pub kept_wrong: usize,
    /// Out-of-fold log loss of the gated answers.
    pub log_loss: f64,
    /// Their expected calibration error (10 bins).
    pub ece: f64,
    /// The L2 penalty chosen.
    pub l2: f64,
}

/// Fits both gates on the tuning lines.
pub fn train(lines: &[TrustLine]) -> Result<(Trust, [GateFigures; 2]), TrustTrainError> {
    let tuning: Vec<&TrustLine> = lines.iter().filter(|l| l.half == "tuning").collect();
    let (count, count_figures) = train_gate(&tuning, "count", &COUNT_FEATURES)?;
    let (value, value_figures) = train_gate(&tuning, "value", &VALUE_FEATURES)?;
    Ok((Trust { count, value }, [count_figures, value_figures]))
}

fn fold_of(document: &str) -> u64 {
    tally_text::hash::stable_hash(document) % FOLDS
}

fn train_gate(
    tuning: &[&TrustLine],
    kind: &'static str,
    names: &[&str],
) -> Result<(Gate, GateFigures), TrustTrainError> {
    let of_kind: Vec<&TrustLine> = tuning.iter().copied().filter(|l| l.kind == kind).collect();
    let rows: Vec<(&TrustLine, &Vec<f64>)> = of_kind
        .iter()
        .filter(|l| l.given)
        .filter_map(|l| l.features.as_ref().map(|f| (*l, f)))
        .filter(|(_, f)| f.len() == names.len())
        .collect();
    if rows.is_empty() {
        return Err(TrustTrainError::NoAnswers(kind));
    }
    // The penalty whose out-of-fold probabilities have the least log loss (tuning half only).
    let (settings, out_of_fold) = PENALTIES
        .iter()
        .map(|l2| {
            let settings = FitSettings {
                l2: *l2,
                ..FitSettings::default()
            };
            let p = out_of_fold(&rows, &settings);
            (settings, p)
        })
        .min_by(|a, b| log_loss(&rows, &a.1).total_cmp(&log_loss(&rows, &b.1)))
        .unwrap_or_else(|| (FitSettings::default(), vec![0.0; rows.len()]));
    let all: Vec<(Vec<f64>, bool)> = rows.iter().map(|(l, f)| ((*f).clone(), l.right)).collect();
    let model = Logistic::fit(&all, &settings);
    let questions = of_kind.len();
    // Answers given that no gate reads stay given whatever the bound.
    let ungated = |right: bool| {
        of_kind
            .iter()
            .filter(|l| l.given && l.features.is_none() && l.right == right)
            .count()
    };
    let (ungated_right, ungated_wrong) = (ungated(true), ungated(false));
    let kept = |bound: f64, right: bool| {
        rows.iter()
            .zip(&out_of_fold)
            .filter(|((l, _), p)| **p >= bound && l.right == right)
            .count()
    };
    let mut candidates: Vec<f64> = out_of_fold.clone();
    candidates.push(0.0);
    candidates.sort_by(f64::total_cmp);
    let allowed = (WRONG_SHARE * questions as f64).floor() as usize;
    // The lowest bound whose kept wrong answers are within the share; past every answer, none.
    let bound = candidates
        .iter()
        .copied()
        .find(|b| ungated_wrong + kept(*b, false) <= allowed)
        .unwrap_or(1.0 + f64::EPSILON);
    let figures = GateFigures {
        questions,
        given: of_kind.iter().filter(|l| l.given).count(),
        given_right: of_kind.iter().filter(|l| l.given && l.right).count(),
        gated: rows.len(),
        bound,
        kept_right: ungated_right + kept(bound, true),
        kept_wrong: ungated_wrong + kept(bound, false),
        log_loss: log_loss(&rows, &out_of_fold),
        ece: calibration_error(&rows, &out_of_fold),
        l2: settings.l2,
    };
    let gate = Gate {
        features: names.iter().map(|n| n.to_string()).collect(),
        model,
        bound,
        training: serde_json::to_value(&figures).unwrap_or_default(),
    };
    Ok((gate, figures))
}

/// The L2 penalties tried.
const PENALTIES: [f64; 5] = [1e-3, 1e-2, 0.1, 0.3, 1.0];

/// Each row's probability from a model fitted without its document's fold.
fn out_of_fold(rows: &[(&TrustLine, &Vec<f64>)], settings: &FitSettings) -> Vec<f64> {
    let mut out = vec![0.0; rows.len()];
    for fold in 0..FOLDS {
        let train: Vec<(Vec<f64>, bool)> = rows
            .iter()
            .filter(|(l, _)| fold_of(&l.document) != fold)
            .map(|(l, f)| ((*f).clone(), l.right))
            .collect();
        if train.is_empty() {
            continue;
        }
        let model = Logistic::fit(&train, settings);
        for (n, (l, f)) in rows.iter().enumerate() {
            if fold_of(&l.document) == fold {
                out[n] = model.probability(f);
            }
        }
    }
    out
}

fn log_loss(rows: &[(&TrustLine, &Vec<f64>)], p: &[f64]) -> f64 {
    let total: f64 = rows
        .iter()
        .zip(p)
        .map(|((l, _), p)| {
            let p = p.clamp(1e-6, 1.0 - 1e-6);
            if l.right {
                -p.ln()
            } else {
                -(1.0 - p).ln()
            }
        })
        .sum();
    total / rows.len().max(1) as f64
}

/// Expected calibration error over ten equal-width bins.
fn calibration_error(rows: &[(&TrustLine, &Vec<f64>)], p: &[f64]) -> f64 {
    let mut bins: BTreeMap<usize, (f64, f64, usize)> = BTreeMap::new();
    for ((l, _), p) in rows.iter().zip(p) {
        let bin = bins
            .entry(((p * 10.0) as usize).min(9))
            .or_insert((0.0, 0.0, 0));
        bin.0 += p;
        bin.1 += f64::from(u8::from(l.right));
        bin.2 += 1;
    }
    let n = rows.len().max(1) as f64;
    bins.values()
        .map(|(p, right, _)| (p - right).abs() / n)
        .sum()
}

/// Writes the gates as the engine embeds them.
pub fn save(trust: &Trust, path: &Path) -> Result<(), TrustTrainError> {
    let text = serde_json::to_string_pretty(trust).map_err(|e| TrustTrainError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })?;
    std::fs::write(path, text + "\n").map_err(|source| TrustTrainError::Io {
        path: path.to_path_buf(),
        source,
    })
}
