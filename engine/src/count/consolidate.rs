//! Consolidation: many (count, confidence) candidates → one predicted count.
//!
//! Strategies as in CoQEx: most confident, most frequent, median, and the confidence-weighted
//! median (the default). [`select`] applies the span threshold first, with the authors'
//! relaxation: lower the threshold by 0.1 until at least five candidates pass.

pub(crate) use tally_types::Strategy;

/// A count with the confidence of the span it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    /// The count.
    pub count: f64,
    /// The confidence of the span it came from.
    pub confidence: f64,
}

/// Which candidates take part: those at or above `threshold`; with `relax`, the threshold drops
/// by 0.1 (not below 0) until at least `min_kept` pass. A count without any confidence (from a
/// passage not about the question) never takes part. Returns the threshold used and the indices
/// kept.
pub fn select(
    candidates: &[Scored],
    threshold: f64,
    relax: bool,
    min_kept: usize,
) -> (f64, Vec<usize>) {
    let keep = |t: f64| -> Vec<usize> {
        (0..candidates.len())
            .filter(|&i| candidates[i].confidence > 0.0 && candidates[i].confidence >= t - 1e-9)
            .collect()
    };
    let mut used = threshold;
    let mut kept = keep(used);
    while relax && kept.len() < min_kept && used > 1e-9 {
        used -= 0.1;
        if used < 1e-9 {
            used = 0.0;
        }
        kept = keep(used);
    }
    (used, kept)
}

/// The predicted count, or `None` without candidates.
pub fn consolidate(candidates: &[Scored], strategy: Strategy) -> Option<f64> {
    if candidates.is_empty() {
        return None;
    }
    let mut sorted = candidates.to_vec();
    sorted.sort_by(|a, b| a.count.total_cmp(&b.count));
    Some(match strategy {
        Strategy::MostConfident => {
            // First (smallest count) among equals, so the result does not depend on input order.
            sorted
                .iter()
                .fold(sorted[0], |best, c| {
                    if c.confidence > best.confidence {
                        *c
                    } else {
                        best
                    }
                })
                .count
        }
        Strategy::MostFrequent => {
            let mut groups: Vec<(f64, usize, f64)> = Vec::new();
            for c in &sorted {
                match groups.last_mut() {
                    Some(g) if g.0 == c.count => {
                        g.1 += 1;
                        g.2 += c.confidence;
                    }
                    _ => groups.push((c.count, 1, c.confidence)),
                }
            }
            groups
                .iter()
                .fold(groups[0], |best, g| {
                    if g.1 > best.1 || (g.1 == best.1 && g.2 > best.2) {
                        *g
                    } else {
                        best
                    }
                })
                .0
        }
        Strategy::Median => {
            let n = sorted.len();
            if n % 2 == 1 {
                sorted[n / 2].count
            } else {
                (sorted[n / 2 - 1].count + sorted[n / 2].count) / 2.0
            }
        }
        Strategy::WeightedMedian => weighted_median(&sorted),
    })
}

/// `sorted` by count. An exact tie at half the total averages the two neighbouring counts.
fn weighted_median(sorted: &[Scored]) -> f64 {
    let total: f64 = sorted.iter().map(|c| c.confidence.max(0.0)).sum();
    if total <= 0.0 {
        return sorted[sorted.len() / 2].count;
    }
    let half = total / 2.0;
    let mut cumulative = 0.0;
    for (i, c) in sorted.iter().enumerate() {
        cumulative += c.confidence.max(0.0);
        if (cumulative - half).abs() < 1e-9 && i + 1 < sorted.len() {
            return (c.count + sorted[i + 1].count) / 2.0;
        }
        if cumulative >= half {
            return c.count;
        }
    }
    sorted[sorted.len() - 1].count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(pairs: &[(f64, f64)]) -> Vec<Scored> {
        pairs
            .iter()
            .map(|&(count, confidence)| Scored { count, confidence })
            .collect()
    }

    /// The worked example of method.md.
    #[test]
    fn worked_example() {
        let c = scored(&[
            (150.0, 0.9),
            (160.0, 0.8),
            (180.0, 0.4),
            (180.0, 0.4),
            (210.0, 0.3),
        ]);
        assert_eq!(consolidate(&c, Strategy::MostConfident), Some(150.0));
        assert_eq!(consolidate(&c, Strategy::MostFrequent), Some(180.0));
        assert_eq!(consolidate(&c, Strategy::Median), Some(180.0));
        assert_eq!(consolidate(&c, Strategy::WeightedMedian), Some(160.0));
    }

    #[test]
    fn weighted_median_edge_cases() {
        // One candidate holding more than half of the confidence wins outright.
        let c = scored(&[(10.0, 0.1), (20.0, 0.9), (30.0, 0.1), (40.0, 0.1)]);
        assert_eq!(consolidate(&c, Strategy::WeightedMedian), Some(20.0));
        // An exact tie at half averages the neighbours.
        let c = scored(&[(10.0, 0.5), (20.0, 0.5)]);
        assert_eq!(consolidate(&c, Strategy::WeightedMedian), Some(15.0));
        assert_eq!(consolidate(&[], Strategy::WeightedMedian), None);
    }

    #[test]
    fn median_of_even_count_and_frequency_ties() {
        let c = scored(&[(1.0, 0.2), (3.0, 0.9), (5.0, 0.4), (9.0, 0.1)]);
        assert_eq!(consolidate(&c, Strategy::Median), Some(4.0));
        // Every count once: the tie goes to the larger summed confidence.
        assert_eq!(consolidate(&c, Strategy::MostFrequent), Some(3.0));
    }

    #[test]
    fn threshold_relaxation() {
        let c = scored(&[
            (1.0, 0.9),
            (2.0, 0.45),
            (3.0, 0.35),
            (4.0, 0.25),
            (5.0, 0.05),
        ]);
        let (t, kept) = select(&c, 0.5, false, 5);
        assert_eq!((t, kept.len()), (0.5, 1));
        let (t, kept) = select(&c, 0.5, true, 3);
        assert!((t - 0.3).abs() < 1e-9);
        assert_eq!(kept, vec![0, 1, 2]);
        // Never below zero: with too few candidates all of them are kept.
        let (t, kept) = select(&c, 0.5, true, 10);
        assert_eq!((t, kept.len()), (0.0, 5));
    }
}
