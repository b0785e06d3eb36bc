//! Quantiles and confidence bounds of measured figures, one definition for every evaluation,
//! benchmark and training of the lab (a leaf: it imports nothing of the lab).

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

/// The one-sided upper Clopper–Pearson bound, at `confidence` (0.95), on a share seen `k` times
/// in `n`: the share p at which seeing at most `k` has probability 1 − `confidence`
/// (by bisection on the binomial distribution); 1 when `n` is 0.
pub fn clopper_pearson_upper(k: usize, n: usize, confidence: f64) -> f64 {
    if n == 0 || k >= n {
        return 1.0;
    }
    let at_most_k = |p: f64| -> f64 {
        // Σ_{i≤k} C(n,i) pⁱ (1−p)ⁿ⁻ⁱ, in logs.
        let (ln_p, ln_q) = (p.ln(), (1.0 - p).ln());
        let mut ln_choose = 0.0f64;
        let mut sum = 0.0f64;
        for i in 0..=k {
            if i > 0 {
                ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
            }
            sum += (ln_choose + i as f64 * ln_p + (n - i) as f64 * ln_q).exp();
        }
        sum
    };
    let (mut low, mut high) = (k as f64 / n as f64, 1.0f64);
    for _ in 0..60 {
        let mid = (low + high) / 2.0;
        if at_most_k(mid) > 1.0 - confidence {
            low = mid;
        } else {
            high = mid;
        }
    }
    high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clopper_pearson_matches_its_closed_forms() {
        // With nothing seen the bound is 1 − (1 − c)^(1/n): the "rule of three" for large n.
        let n = 100;
        let closed = 1.0 - 0.05f64.powf(1.0 / n as f64);
        assert!((clopper_pearson_upper(0, n, 0.95) - closed).abs() < 1e-9);
        // One in ten: the tabulated one-sided 95% upper bound is 0.3942.
        assert!((clopper_pearson_upper(1, 10, 0.95) - 0.3942).abs() < 1e-3);
        assert_eq!(clopper_pearson_upper(3, 0, 0.95), 1.0);
    }
}
