//! Quantiles of measured figures, one definition for every evaluation and benchmark of the lab
//! (a leaf: it imports nothing of the lab).

/// The `p` quantile (0–1) of sorted, non-empty figures, by the nearest rank.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// [`percentile`], 0 when there is no figure.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    percentile(sorted, q)
}
