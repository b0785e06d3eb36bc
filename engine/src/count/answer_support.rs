//! How far the evidence supports a consolidated count: what Tally's abstention reads.
//!
//! Two rules. [`SupportRule::BestConfidence`]: the highest confidence of any snippet's count
//! phrase (whether or not it states the answer). [`SupportRule::Model`]: the probability that
//! the consolidated count is right, from question-level evidence — how confident the best
//! phrase is, whether the phrases that agree with the answer are confident and many (independent
//! snippets stating the same count), and how strong the best rival count is. The model is a
//! logistic regression fitted on out-of-fold ranker confidences (`tally train count-spans`) with
//! the metric's label: the answer is right when it is within 10% of the gold count. Entity and
//! answer-type evidence reach it through the ranker's candidate confidences.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::consolidate::Scored;
use super::logistic::{read_model, write_model, FitSettings, Logistic};
use super::metrics::ratio;
use tally_types::count::SupportMeasure;

/// File name inside a span-model directory.
pub const SUPPORT_FILE: &str = "answer_support.json";

/// A snippet's count agrees with the answer when their ratio is at least this (the relaxed
/// precision's tolerance).
pub const AGREEMENT_RATIO: f64 = 0.9;

/// Counts at or above this confidence are "stated" for the snippet counts below.
const STATED: f64 = 0.1;

/// The features, in order; a saved model lists them so that a stale file is refused.
pub const SUPPORT_FEATURES: [&str; 6] = [
    "best_confidence",
    "agreeing_confidence",
    "agreeing_share",
    "agreeing_snippets",
    "stated_snippets",
    "rival_confidence",
];
const N: usize = SUPPORT_FEATURES.len();
/// The evidence of one answer, one value per name in [`SUPPORT_FEATURES`].
pub type SupportFeatures = [f64; N];

/// The evidence of one answer: `scored` holds each snippet's chosen count and confidence.
pub fn support_features(scored: &[Scored], answer: f64) -> SupportFeatures {
    let agrees = |s: &&Scored| ratio(s.count, answer) >= AGREEMENT_RATIO;
    let best = |it: &mut dyn Iterator<Item = &Scored>| it.map(|s| s.confidence).fold(0.0, f64::max);
    let total: f64 = scored.iter().map(|s| s.confidence).sum();
    let agreeing: f64 = scored.iter().filter(agrees).map(|s| s.confidence).sum();
    let stated = |s: &&Scored| s.confidence >= STATED;
    [
        best(&mut scored.iter()),
        best(&mut scored.iter().filter(agrees)),
        if total > 0.0 { agreeing / total } else { 0.0 },
        (1.0 + scored.iter().filter(agrees).filter(stated).count() as f64).ln(),
        (1.0 + scored.iter().filter(stated).count() as f64).ln(),
        best(&mut scored.iter().filter(|s| !agrees(s))),
    ]
}

/// Why the answer-support model could not be loaded.
#[derive(Debug, thiserror::Error)]
#[error("cannot load the answer-support model {path}: {message}")]
pub struct SupportError {
    /// The model file.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

/// The fitted model of [`SupportRule::Model`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AnswerSupport {
    /// The features it was trained on, in order.
    pub features: Vec<String>,
    /// The fitted logistic regression.
    #[serde(flatten)]
    pub model: Logistic,
    /// Free-form training record (data, cross-validation figures).
    #[serde(default)]
    pub training: serde_json::Value,
}

impl AnswerSupport {
    /// Fits the model on answers with their evidence and whether each was right.
    pub fn fit(rows: &[(SupportFeatures, bool)]) -> Self {
        Self {
            features: SUPPORT_FEATURES.iter().map(|f| f.to_string()).collect(),
            model: Logistic::fit(rows, &FitSettings::default()),
            training: serde_json::Value::Null,
        }
    }

    /// The probability that `answer` is right, given each snippet's chosen count.
    pub fn probability(&self, scored: &[Scored], answer: f64) -> f64 {
        self.model.probability(&support_features(scored, answer))
    }

    /// Reads [`SUPPORT_FILE`] from a span-model directory.
    pub fn load(dir: &Path) -> Result<Self, SupportError> {
        let path = dir.join(SUPPORT_FILE);
        read_model(&path, &SUPPORT_FEATURES, |m: &Self| (&m.features, &m.model)).map_err(|e| {
            SupportError {
                path,
                message: e.to_string(),
            }
        })
    }

    /// Writes [`SUPPORT_FILE`] into `dir`.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        write_model(self, dir, SUPPORT_FILE)
    }
}

/// What "support" means for one answer (see the module's comment).
#[derive(Debug, Clone, Copy)]
pub enum SupportRule<'a> {
    /// The best confidence of any snippet agreeing with the answer.
    BestConfidence,
    /// The probability from the fitted model.
    Model(&'a AnswerSupport),
}

impl SupportRule<'_> {
    /// The support of `answer` (the best confidence when there is no answer to support).
    pub fn support(&self, scored: &[Scored], answer: Option<f64>) -> f64 {
        match (self, answer) {
            (Self::Model(model), Some(answer)) => model.probability(scored, answer),
            _ => scored.iter().map(|s| s.confidence).fold(0.0, f64::max),
        }
    }

    /// What the support this rule reads measures.
    pub fn measure(&self) -> SupportMeasure {
        match self {
            Self::BestConfidence => SupportMeasure::BestConfidence,
            Self::Model(_) => SupportMeasure::Model,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(items: &[(f64, f64)]) -> Vec<Scored> {
        items
            .iter()
            .map(|&(count, confidence)| Scored { count, confidence })
            .collect()
    }

    #[test]
    fn features_read_agreement_and_rivals() {
        // 71 and 70 agree (within 10%); 12 is a rival; 69 is too weak to be "stated".
        let s = scored(&[(71.0, 0.6), (70.0, 0.3), (12.0, 0.5), (69.0, 0.05)]);
        let f = support_features(&s, 71.0);
        assert_eq!(f[0], 0.6);
        assert_eq!(f[1], 0.6);
        assert!((f[2] - 0.95 / 1.45).abs() < 1e-12);
        assert!((f[3] - 3f64.ln()).abs() < 1e-12);
        assert!((f[4] - 4f64.ln()).abs() < 1e-12);
        assert_eq!(f[5], 0.5);
    }

    #[test]
    fn agreeing_snippets_raise_the_modelled_support_and_the_model_round_trips() {
        // Right answers are stated by several snippets; wrong ones by one, against a rival.
        let mut rows = Vec::new();
        for i in 0..120 {
            let right = i % 2 == 0;
            let c = 0.3 + (i % 5) as f64 * 0.05;
            let evidence = if right {
                scored(&[(10.0, c), (10.0, c), (11.0, c), (40.0, 0.1)])
            } else {
                scored(&[(10.0, c), (40.0, c), (7.0, c)])
            };
            rows.push((support_features(&evidence, 10.0), right));
        }
        let model = AnswerSupport::fit(&rows);
        let agreed = scored(&[(10.0, 0.4), (10.0, 0.4), (11.0, 0.4)]);
        let alone = scored(&[(10.0, 0.4), (40.0, 0.4), (7.0, 0.4)]);
        let rule = SupportRule::Model(&model);
        assert!(rule.support(&agreed, Some(10.0)) > 0.8);
        assert!(rule.support(&alone, Some(10.0)) < 0.2);
        // Without an answer, and under the other rule, support is the best confidence.
        assert_eq!(rule.support(&alone, None), 0.4);
        assert_eq!(
            SupportRule::BestConfidence.support(&agreed, Some(10.0)),
            0.4
        );

        let dir = std::env::temp_dir().join(format!("tally-support-{}", std::process::id()));
        model.save(&dir).unwrap();
        let loaded = AnswerSupport::load(&dir).unwrap();
        let (a, b) = (
            loaded.probability(&agreed, 10.0),
            model.probability(&agreed, 10.0),
        );
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
