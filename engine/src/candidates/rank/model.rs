//! The ranker's model (issue 99): its weights, the curves and the sureness calibrator that turn
//! the best candidate's softmax probability into the probability that it is right, the bounds it
//! is given from, and the scorer that applies it.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::trees::{Tree, Values};
use super::{Features, DIMENSIONS};
use crate::count::logistic::Logistic;

/// The model: one weight per hashed feature, the trees boosted on their score, and the logistic
/// curve from the best candidate's softmax probability to the probability that it is right.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ranker {
    /// The nonzero weights, by feature index.
    pub weights: Vec<(u32, f32)>,
    /// The curve's slope on the logit of the best candidate's softmax probability.
    pub slope: f64,
    /// The curve's intercept.
    pub intercept: f64,
    /// The probability from which an answer is given on WikiTableQuestions, chosen on its
    /// held-out training questions (at most 8% of them answered wrongly).
    pub bound: f64,
    /// The probability from which an answer over a person's documents is given as sure: the
    /// lowest whose answers' wrong share has a 95% upper (Clopper–Pearson) bound of 3% on the
    /// collections' held-out tuning questions. The one bound every page shows.
    #[serde(default = "never")]
    pub sure_from: f64,
    /// The curve over several documents (a person's files: passages beside tables), fitted on
    /// the collections' held-out questions; absent, the one curve serves every corpus.
    #[serde(default)]
    pub several_documents: Option<Curve>,
    /// Over several documents, the probability that the best candidate is right read from its
    /// softmax probability's logit and the [`SURENESS`] features of its first reading (the one
    /// shown as evidence): whether the readers gave it, how much of the question its passage or
    /// row leaves unsaid. Fitted on the collections' held-out questions, the unanswerable ones
    /// among them; absent, the curve serves.
    #[serde(default)]
    pub sureness: Option<Logistic>,
    /// Regression trees whose leaves add to the weights' score; none, the weights alone score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trees: Vec<Tree>,
}

/// The ranker's features whose values on the best candidate's first reading tell, beyond its
/// softmax probability, whether the question is answered at all: a near miss ("the roof
/// repair" against the playground's cost) has a best candidate all the same.
pub const SURENESS: [&str; 7] = [
    "readers agree",
    "passage question words missing",
    "passage some question word missing",
    "passage covers question",
    "coverage",
    "document first",
    "document covers question",
];

/// The sureness calibrator's row: the logit of the softmax probability `p`, then the
/// [`SURENESS`] features of `reading`.
pub fn sureness_row(p: f64, reading: &Features) -> Vec<f64> {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    std::iter::once((p / (1.0 - p)).ln())
        .chain(SURENESS.iter().map(|name| reading.value(name)))
        .collect()
}

/// A logistic curve on the logit of the best candidate's softmax probability.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// Its slope.
    pub slope: f64,
    /// Its intercept.
    pub intercept: f64,
}

/// A bound no probability reaches: a model trained without a person's documents gives nothing
/// over them as sure.
fn never() -> f64 {
    1.0
}

/// A ranker ready to score: its weights laid out densely.
#[derive(Debug, Clone)]
pub struct Scorer {
    dense: Vec<f32>,
    /// The model it was made from.
    pub ranker: Ranker,
}

impl Scorer {
    /// The scorer of `ranker`.
    pub fn new(ranker: Ranker) -> Self {
        let mut dense = vec![0.0; DIMENSIONS];
        for &(i, w) in &ranker.weights {
            if let Some(slot) = dense.get_mut(i as usize) {
                *slot = w;
            }
        }
        Scorer { dense, ranker }
    }

    /// The shipped model (`data/candidate-ranker.json`).
    pub fn shipped() -> &'static Scorer {
        static SHIPPED: OnceLock<Scorer> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            let ranker = serde_json::from_str(include_str!("../../../data/candidate-ranker.json"))
                .expect("the shipped candidate ranker is valid JSON (a test reads it)");
            Scorer::new(ranker)
        })
    }

    /// A candidate's score.
    pub fn score(&self, features: &Features) -> f64 {
        let trees = &self.ranker.trees;
        let values = (!trees.is_empty()).then(|| Values::of(features));
        self.linear(features) + values.map_or(0.0, |v| trees.iter().map(|t| t.score(&v)).sum())
    }

    /// The weights' part of a candidate's score (what the trees are boosted on).
    pub fn linear(&self, features: &Features) -> f64 {
        features
            .0
            .iter()
            .map(|&(i, v)| f64::from(self.dense.get(i as usize).copied().unwrap_or(0.0) * v))
            .sum()
    }

    /// Each candidate's probability among the question's: the softmax over every reading,
    /// summed over a candidate's readings.
    pub fn probabilities(&self, features: &[Vec<Features>]) -> Vec<f64> {
        let scores: Vec<Vec<f64>> = features
            .iter()
            .map(|readings| readings.iter().map(|f| self.score(f)).collect())
            .collect();
        marginal(&scores)
    }

    /// The probability that a best candidate of softmax probability `p`, whose first reading
    /// has the features `reading`, is right, over a corpus of several documents or not
    /// ([`DocumentWords::several`]).
    pub fn calibrated(&self, p: f64, several: bool, reading: &Features) -> f64 {
        if !several {
            return calibrate(self.ranker.slope, self.ranker.intercept, p);
        }
        if let Some(sureness) = &self.ranker.sureness {
            let row = sureness_row(p, reading);
            if sureness.has_features(row.len()) {
                return sureness.probability(&row);
            }
        }
        match self.ranker.several_documents {
            Some(curve) => calibrate(curve.slope, curve.intercept, p),
            None => calibrate(self.ranker.slope, self.ranker.intercept, p),
        }
    }
}

/// The logistic curve on the logit of `p`.
pub fn calibrate(slope: f64, intercept: f64, p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    let logit = (p / (1.0 - p)).ln();
    1.0 / (1.0 + (-(slope * logit + intercept)).exp())
}

/// The softmax of `scores`.
pub fn softmax(scores: &[f64]) -> Vec<f64> {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
}

/// Each candidate's probability from its readings' scores: a softmax over every reading, summed
/// per candidate.
pub fn marginal(scores: &[Vec<f64>]) -> Vec<f64> {
    let top = scores
        .iter()
        .flatten()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = scores
        .iter()
        .map(|readings| readings.iter().map(|s| (s - top).exp()).sum())
        .collect();
    let sum: f64 = exp.iter().sum();
    exp.iter().map(|e| e / sum.max(1e-300)).collect()
}

/// The best candidate's position and its softmax probability, when there is a candidate.
pub fn best(probabilities: &[f64]) -> Option<(usize, f64)> {
    probabilities
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
}
