//! How far confidences can be read as probabilities: a reliability table and the expected
//! calibration error (ECE), computed on out-of-fold predictions.
//!
//! Weighted median, the span threshold and the page all read a candidate's confidence as "the
//! probability that this count phrase states the answer"; these figures say how true that is.

use serde::Serialize;

/// One bin of a reliability table: predictions in `[low, high)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ReliabilityBin {
    /// The bin's lower bound (inclusive).
    pub low: f64,
    /// The bin's upper bound (exclusive).
    pub high: f64,
    /// How many predictions fall in the bin.
    pub count: usize,
    /// Mean predicted probability in the bin.
    pub predicted: f64,
    /// Share of the bin's predictions that were right.
    pub observed: f64,
}

/// A reliability table over equal-width bins and its expected calibration error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reliability {
    /// The bins, lowest first.
    pub bins: Vec<ReliabilityBin>,
    /// Σ (bin share) × |predicted − observed|, in [0, 1].
    pub ece: f64,
    /// Mean squared error of the probabilities (Brier score).
    pub brier: f64,
    /// How many predictions the table covers.
    pub predictions: usize,
}

/// The mean log-loss of `(probability, right)` pairs (probabilities clamped to [1e-6, 1 − 1e-6]).
pub fn log_loss(pairs: &[(f64, bool)]) -> f64 {
    let sum: f64 = pairs
        .iter()
        .map(|&(p, y)| {
            let p = p.clamp(1e-6, 1.0 - 1e-6);
            if y {
                -p.ln()
            } else {
                -(1.0 - p).ln()
            }
        })
        .sum();
    sum / pairs.len().max(1) as f64
}

/// The reliability of `(probability, right)` pairs over `bins` equal-width bins.
pub fn reliability(pairs: &[(f64, bool)], bins: usize) -> Reliability {
    let bins = bins.max(1);
    let mut sums = vec![(0usize, 0.0f64, 0usize); bins];
    for &(p, right) in pairs {
        let p = p.clamp(0.0, 1.0);
        let b = ((p * bins as f64) as usize).min(bins - 1);
        sums[b].0 += 1;
        sums[b].1 += p;
        sums[b].2 += usize::from(right);
    }
    let n = pairs.len().max(1) as f64;
    let mut ece = 0.0;
    let table = sums
        .iter()
        .enumerate()
        .map(|(b, &(count, total, right))| {
            let (predicted, observed) = if count == 0 {
                (0.0, 0.0)
            } else {
                (total / count as f64, right as f64 / count as f64)
            };
            ece += count as f64 / n * (predicted - observed).abs();
            ReliabilityBin {
                low: b as f64 / bins as f64,
                high: (b + 1) as f64 / bins as f64,
                count,
                predicted,
                observed,
            }
        })
        .collect();
    let brier = pairs
        .iter()
        .map(|&(p, right)| (p - f64::from(u8::from(right))).powi(2))
        .sum::<f64>()
        / n;
    Reliability {
        bins: table,
        ece,
        brier,
        predictions: pairs.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calibrated_predictor_has_no_error_and_an_overconfident_one_does() {
        // In each bin, the share of right predictions equals the predicted probability.
        let mut calibrated = Vec::new();
        for (p, right, total) in [(0.15, 3, 20), (0.55, 11, 20), (0.95, 19, 20)] {
            for i in 0..total {
                calibrated.push((p, i < right));
            }
        }
        let r = reliability(&calibrated, 10);
        assert!(r.ece < 1e-9, "{r:?}");
        assert_eq!(r.predictions, 60);
        assert_eq!(r.bins[1].count, 20);
        assert!((r.bins[5].observed - 0.55).abs() < 1e-9);

        // Always 0.9 sure, right half the time: ECE 0.4.
        let overconfident: Vec<(f64, bool)> = (0..10).map(|i| (0.9, i % 2 == 0)).collect();
        let r = reliability(&overconfident, 10);
        assert!((r.ece - 0.4).abs() < 1e-9, "{r:?}");
        assert!((r.brier - 0.41).abs() < 1e-9, "{r:?}");
    }
}
