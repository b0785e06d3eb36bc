//! Logistic regression over standardised features: the model of the candidate ranker
//! ([`super::ranker`]) and of the answer's support ([`super::answer_support`]).

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Settings of [`Logistic::fit`].
#[derive(Debug, Clone, Copy, Serialize)]
pub struct FitSettings {
    /// How many gradient steps to take.
    pub iterations: usize,
    /// The step size.
    pub learning_rate: f64,
    /// L2 penalty on the weights.
    pub l2: f64,
}

impl Default for FitSettings {
    fn default() -> Self {
        Self {
            iterations: 2000,
            learning_rate: 0.5,
            l2: 1e-3,
        }
    }
}

/// A fitted model: each feature standardised by its training mean and scale, one weight each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Logistic {
    /// Each feature's training mean.
    pub mean: Vec<f64>,
    /// Each feature's training scale.
    pub scale: Vec<f64>,
    /// One weight per standardised feature.
    pub weights: Vec<f64>,
    /// The intercept.
    pub bias: f64,
}

impl Logistic {
    /// Fits by full-batch gradient descent (the data is at most tens of thousands of rows; a
    /// second-order method would buy nothing here). Every row has the same length.
    pub fn fit<X: AsRef<[f64]>>(rows: &[(X, bool)], settings: &FitSettings) -> Self {
        let k = rows.first().map_or(0, |(x, _)| x.as_ref().len());
        let n = rows.len().max(1) as f64;
        let mut mean = vec![0.0; k];
        let mut scale = vec![0.0; k];
        for (x, _) in rows {
            for (m, v) in mean.iter_mut().zip(x.as_ref()) {
                *m += v / n;
            }
        }
        for (x, _) in rows {
            for ((s, m), v) in scale.iter_mut().zip(&mean).zip(x.as_ref()) {
                *s += (v - m).powi(2) / n;
            }
        }
        for s in &mut scale {
            *s = if *s > 1e-12 { s.sqrt() } else { 1.0 };
        }
        let standard: Vec<(Vec<f64>, f64)> = rows
            .iter()
            .map(|(x, y)| {
                (
                    standardise(x.as_ref(), &mean, &scale),
                    f64::from(u8::from(*y)),
                )
            })
            .collect();
        let mut weights = vec![0.0; k];
        let mut bias = 0.0;
        for _ in 0..settings.iterations {
            let mut grad = vec![0.0; k];
            let mut grad_bias = 0.0;
            for (z, y) in &standard {
                let err = sigmoid(bias + dot(&weights, z)) - y;
                grad_bias += err / n;
                for (g, zj) in grad.iter_mut().zip(z) {
                    *g += err * zj / n;
                }
            }
            bias -= settings.learning_rate * grad_bias;
            for (w, g) in weights.iter_mut().zip(&grad) {
                *w -= settings.learning_rate * (g + settings.l2 * *w);
            }
        }
        Self {
            mean,
            scale,
            weights,
            bias,
        }
    }

    /// The modelled probability of a row.
    pub fn probability(&self, x: &[f64]) -> f64 {
        sigmoid(self.bias + dot(&self.weights, &standardise(x, &self.mean, &self.scale)))
    }

    /// Whether the model takes rows of `k` features.
    pub fn has_features(&self, k: usize) -> bool {
        self.mean.len() == k && self.scale.len() == k && self.weights.len() == k
    }
}

/// Why a saved model could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ModelFileError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] std::io::Error),
    /// The file is not the model's JSON.
    #[error(transparent)]
    Parse(#[from] serde_json::Error),
    /// The model was trained on other features than expected.
    #[error("it was trained on other features; retrain it with `tally train count-spans`")]
    OtherFeatures,
}

/// Reads a model saved as JSON at `path` whose `features` and `model` must be `expected` (a
/// model trained on other features is refused with a sentence saying how to retrain it).
pub fn read_model<T: DeserializeOwned>(
    path: &Path,
    expected: &[&str],
    fitted: impl Fn(&T) -> (&[String], &Logistic),
) -> Result<T, ModelFileError> {
    let text = std::fs::read_to_string(path)?;
    let model: T = serde_json::from_str(&text)?;
    let (features, logistic) = fitted(&model);
    if features != expected || !logistic.has_features(expected.len()) {
        return Err(ModelFileError::OtherFeatures);
    }
    Ok(model)
}

/// Writes a model as pretty JSON to `dir/file`.
pub fn write_model<T: Serialize>(model: &T, dir: &Path, file: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let text = serde_json::to_string_pretty(model).map_err(std::io::Error::other)?;
    std::fs::write(dir.join(file), text + "\n")
}

fn standardise(x: &[f64], mean: &[f64], scale: &[f64]) -> Vec<f64> {
    x.iter()
        .zip(mean)
        .zip(scale)
        .map(|((v, m), s)| (v - m) / s)
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(w: &[f64], z: &[f64]) -> f64 {
    w.iter().zip(z).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fitted_model_separates_what_one_feature_tells_apart() {
        // The first feature decides; the second is noise; the third is constant (scale 1).
        let rows: Vec<([f64; 3], bool)> = (0..200)
            .map(|i| {
                let right = i % 3 == 0;
                let signal = if right { 0.6 } else { 0.1 } + (i % 7) as f64 * 0.01;
                ([signal, (i % 5) as f64, 1.0], right)
            })
            .collect();
        let model = Logistic::fit(&rows, &FitSettings::default());
        assert!(model.has_features(3));
        assert_eq!(model.scale[2], 1.0);
        assert!(model.probability(&rows[0].0) > 0.8);
        assert!(model.probability(&rows[1].0) < 0.2);
    }
}
