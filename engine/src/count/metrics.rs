//! The CoQEx metrics: relaxed precision, coverage, P/C and proximity for counts; MAP@k, AR@k,
//! Hit@k and MRR for instances; per-class accuracy for CNP categories. Figures are percentages
//! except proximity and MRR, which are in [0, 1].

use std::collections::HashMap;

use serde::Serialize;

/// min(p, g) / max(p, g), 1 when both are 0.
pub fn ratio(prediction: f64, gold: f64) -> f64 {
    let (lo, hi) = (prediction.min(gold), prediction.max(gold));
    if hi <= 0.0 {
        if lo == hi {
            1.0
        } else {
            0.0
        }
    } else {
        (lo / hi).max(0.0)
    }
}

/// Count metrics over a set of questions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CountScores {
    /// How many questions were scored.
    pub queries: usize,
    /// How many of them got an answer.
    pub answered: usize,
    /// Answered questions with ratio ≥ 0.9, over answered questions (%).
    pub rp: f64,
    /// Answered over all questions (%).
    pub coverage: f64,
    /// Harmonic mean of RP and coverage (%).
    pub pc: f64,
    /// Mean ratio over answered questions, in [0, 1].
    pub proximity: f64,
}

/// Scores (prediction, gold) pairs; a `None` prediction is an unanswered question.
pub fn count_scores(pairs: &[(Option<f64>, f64)]) -> CountScores {
    let queries = pairs.len();
    let answered: Vec<f64> = pairs
        .iter()
        .filter_map(|(p, g)| p.map(|p| ratio(p, *g)))
        .collect();
    let n = answered.len();
    let rp = if n == 0 {
        0.0
    } else {
        100.0 * answered.iter().filter(|&&r| r >= 0.9 - 1e-12).count() as f64 / n as f64
    };
    let coverage = if queries == 0 {
        0.0
    } else {
        100.0 * n as f64 / queries as f64
    };
    let pc = if rp + coverage > 0.0 {
        2.0 * rp * coverage / (rp + coverage)
    } else {
        0.0
    };
    let proximity = if n == 0 {
        0.0
    } else {
        answered.iter().sum::<f64>() / n as f64
    };
    CountScores {
        queries,
        answered: n,
        rp,
        coverage,
        pc,
        proximity,
    }
}

/// Instance ranking metrics, averaged over questions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct InstanceScores {
    /// How many questions were scored.
    pub queries: usize,
    /// Mean average precision of the first name (%).
    #[serde(rename = "map@1")]
    pub map1: f64,
    /// Mean average precision of the first five names (%).
    #[serde(rename = "map@5")]
    pub map5: f64,
    /// Mean average precision of the first ten names (%).
    #[serde(rename = "map@10")]
    pub map10: f64,
    /// Mean recall of the gold instances in the first name (%).
    #[serde(rename = "ar@1")]
    pub ar1: f64,
    /// Mean recall of the gold instances in the first five names (%).
    #[serde(rename = "ar@5")]
    pub ar5: f64,
    /// Mean recall of the gold instances in the first ten names (%).
    #[serde(rename = "ar@10")]
    pub ar10: f64,
    /// Share of questions with a gold instance in the first ten names (%).
    #[serde(rename = "hit@10")]
    pub hit10: f64,
    /// Mean reciprocal rank of the first gold instance, in [0, 1].
    pub mrr: f64,
}

/// Whether `name` matches one of `aliases`: length-normalised Levenshtein distance below 0.1,
/// case-insensitive.
pub fn matches_alias(name: &str, aliases: &[String]) -> bool {
    let name = name.to_lowercase();
    aliases
        .iter()
        .any(|a| 1.0 - strsim::normalized_levenshtein(&name, &a.to_lowercase()) < 0.1)
}

/// Relevance of each ranked name: the index of the gold instance it matches, each gold instance
/// matched at most once (a second name for the same gold instance is not relevant).
pub fn relevance(ranked: &[String], gold: &[Vec<String>]) -> Vec<bool> {
    let mut used = vec![false; gold.len()];
    ranked
        .iter()
        .map(|name| {
            let hit = (0..gold.len()).find(|&g| !used[g] && matches_alias(name, &gold[g]));
            if let Some(g) = hit {
                used[g] = true;
            }
            hit.is_some()
        })
        .collect()
}

/// Instance metrics for questions given as (relevance of the ranked list, number of gold
/// instances). MAP@k divides by min(k, gold); MAP and AR are percentages, MRR in [0, 1].
pub fn instance_scores(questions: &[(Vec<bool>, usize)]) -> InstanceScores {
    let n = questions.len();
    if n == 0 {
        return InstanceScores::default();
    }
    let ap = |rel: &[bool], gold: usize, k: usize| -> f64 {
        let mut hits = 0.0;
        let mut sum = 0.0;
        for (i, &r) in rel.iter().take(k).enumerate() {
            if r {
                hits += 1.0;
                sum += hits / (i + 1) as f64;
            }
        }
        let denominator = k.min(gold).max(1) as f64;
        sum / denominator
    };
    let recall = |rel: &[bool], gold: usize, k: usize| -> f64 {
        rel.iter().take(k).filter(|&&r| r).count() as f64 / gold.max(1) as f64
    };
    let mean = |f: &dyn Fn(&[bool], usize) -> f64| -> f64 {
        questions.iter().map(|(r, g)| f(r, *g)).sum::<f64>() / n as f64
    };
    InstanceScores {
        queries: n,
        map1: 100.0 * mean(&|r, g| ap(r, g, 1)),
        map5: 100.0 * mean(&|r, g| ap(r, g, 5)),
        map10: 100.0 * mean(&|r, g| ap(r, g, 10)),
        ar1: 100.0 * mean(&|r, g| recall(r, g, 1)),
        ar5: 100.0 * mean(&|r, g| recall(r, g, 5)),
        ar10: 100.0 * mean(&|r, g| recall(r, g, 10)),
        hit10: 100.0 * mean(&|r, _| f64::from(u8::from(r.iter().take(10).any(|&x| x)))),
        mrr: mean(&|r, _| {
            r.iter()
                .position(|&x| x)
                .map_or(0.0, |i| 1.0 / (i + 1) as f64)
        }),
    }
}

/// Per-class accuracy of CNP categories: for each gold class, the share of its members that the
/// classifier put in the same class (%), with the number of members.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct ClassAccuracy {
    /// How many candidates have this gold class.
    pub members: usize,
    /// How many of them the classifier put in it.
    pub correct: usize,
    /// `correct` over `members` (%).
    pub accuracy: f64,
}

/// Per-class accuracy of (gold, predicted) class pairs, by gold class.
pub fn class_accuracy(pairs: &[(String, String)]) -> HashMap<String, ClassAccuracy> {
    let mut out: HashMap<String, ClassAccuracy> = HashMap::new();
    for (gold, predicted) in pairs {
        let entry = out.entry(gold.clone()).or_default();
        entry.members += 1;
        if gold == predicted {
            entry.correct += 1;
        }
    }
    for entry in out.values_mut() {
        entry.accuracy = 100.0 * entry.correct as f64 / entry.members.max(1) as f64;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_metrics() {
        // 180 vs 185 is within 10%; 100 vs 185 is not; one question unanswered.
        let s = count_scores(&[(Some(180.0), 185.0), (Some(100.0), 185.0), (None, 7.0)]);
        assert_eq!(s.queries, 3);
        assert_eq!(s.answered, 2);
        assert!((s.rp - 50.0).abs() < 1e-9);
        assert!((s.coverage - 200.0 / 3.0).abs() < 1e-9);
        let pc = 2.0 * 50.0 * (200.0 / 3.0) / (50.0 + 200.0 / 3.0);
        assert!((s.pc - pc).abs() < 1e-9);
        assert!((s.proximity - (180.0 / 185.0 + 100.0 / 185.0) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn instance_metrics() {
        let gold = vec![
            vec!["Jammu and Kashmir".to_string(), "J&K".to_string()],
            vec!["Punjab".to_string()],
        ];
        let ranked: Vec<String> = ["Kerala", "J&K", "punjab", "Punjab"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let rel = relevance(&ranked, &gold);
        assert_eq!(rel, vec![false, true, true, false]);
        let s = instance_scores(&[(rel, 2)]);
        assert_eq!(s.map1, 0.0);
        assert!((s.mrr - 0.5).abs() < 1e-9);
        assert!((s.ar5 - 100.0).abs() < 1e-9);
        assert!((s.hit10 - 100.0).abs() < 1e-9);
        // AP@5 = (1/2 + 2/3) / 2.
        assert!((s.map5 - 100.0 * (0.5 + 2.0 / 3.0) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn alias_matching_is_length_normalised() {
        assert!(!matches_alias("Maniput", &["Manipur".to_string()]));
        assert!(matches_alias(
            "Arunachal Pradesh",
            &["arunachal pradesh".to_string()]
        ));
    }
}
