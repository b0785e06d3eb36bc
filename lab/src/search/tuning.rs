//! Honest tuning of the rankers' weights: each ranker has a grid of settings (α, the bare-number
//! weight, the softness of conditions, the balance of α by word rarity, the dense weights); 5-fold cross-validation by query scores every query with the
//! settings that ranked best on the other four folds, so the figure it prints was not tuned on
//! the query it measures. The in-sample figures (the defaults, and the grid's best on every
//! query) are printed next to it.

use super::eval::{per_query, JudgedCollection, QueryScores, RankerScores, SearchEvalError};
use tally_encoder::Encoder;
use tally_engine::search::settings::{DenseWeights, SearchSettings};
use tally_text::hash::stable_hash;
use tally_types::Ranker;

/// Folds of the cross-validation.
pub const FOLDS: usize = 5;

/// What a grid varies besides α, the bare-number weight and the dense weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Parts {
    /// Soft conditions: softness 0, 0.1, 0.25 or 0.5.
    pub soft: bool,
    /// α balanced by word rarity: balance −1, 0, 1 or 2.
    pub balance: bool,
}

impl Parts {
    /// The parts a ranker's defaults are tuned with: a part stays when it raised the ranker's
    /// cross-validated MRR@10 on the Qsearch dev queries (`tally eval search` prints the
    /// comparison; docs/experiments.md): balance for `entity`, nothing else.
    pub fn adopted(ranker: Ranker) -> Parts {
        Parts {
            soft: false,
            balance: ranker == Ranker::Entity,
        }
    }
}

/// The settings tried for `defaults.ranker`, the defaults first (ties go to them): every
/// combination of the weights the ranker uses, and of the `parts` asked for.
pub fn grid(defaults: &SearchSettings, parts: Parts) -> Vec<SearchSettings> {
    // The defaults without the parts left out.
    let defaults = &SearchSettings {
        soft: if parts.soft { defaults.soft } else { 0.0 },
        balance: if parts.balance { defaults.balance } else { 0.0 },
        ..defaults.clone()
    };
    let mut points = vec![defaults.clone()];
    let alphas: &[f64] = match defaults.ranker {
        // `learned` has its weights from training, not from a grid.
        Ranker::Bm25 | Ranker::Bm25Filter | Ranker::Learned => &[],
        Ranker::Qbm25 | Ranker::Entity => &[0.25, 0.5, 1.0, 2.0, 4.0],
        Ranker::Dense => &[0.5, 1.0, 2.0],
    };
    let dense: Vec<DenseWeights> = if defaults.ranker == Ranker::Dense {
        let mut weights = Vec::new();
        for cosine in [1.0, 2.0, 4.0] {
            for text in [0.0, 0.2, 0.5, 1.0] {
                weights.push(DenseWeights { cosine, text });
            }
        }
        weights
    } else {
        vec![defaults.dense]
    };
    let softs: &[f64] = if parts.soft {
        &[0.0, 0.1, 0.25, 0.5]
    } else {
        &[0.0]
    };
    let balances: &[f64] = if parts.balance {
        &[-1.0, 0.0, 1.0, 2.0]
    } else {
        &[0.0]
    };
    for &alpha in alphas {
        for bare_weight in [0.5, 0.8, 1.0] {
            for &weights in &dense {
                for &soft in softs {
                    for &balance in balances {
                        let point = SearchSettings {
                            alpha,
                            bare_weight,
                            dense: weights,
                            soft,
                            balance,
                            ..defaults.clone()
                        };
                        if !points.contains(&point) {
                            points.push(point);
                        }
                    }
                }
            }
        }
    }
    points
}

/// Each query's fold: queries ordered by a hash of their text, then dealt round-robin (fixed
/// and balanced, whatever the file's order).
pub fn folds(queries: &[&str]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..queries.len()).collect();
    order.sort_by_key(|&i| (stable_hash(queries[i]), i));
    let mut fold = vec![0; queries.len()];
    for (position, &i) in order.iter().enumerate() {
        fold[i] = position % FOLDS;
    }
    fold
}

/// A grid's figures: in-sample with its first point (the defaults), in-sample at its best point,
/// and cross-validated.
#[derive(Debug, Clone)]
pub struct Tuned {
    /// Settings tried.
    pub points: usize,
    /// The figures in-sample with the defaults.
    pub defaults: RankerScores,
    /// The grid's best on every query (optimistic: tuned and measured on the same queries).
    pub best: SearchSettings,
    /// The figures in-sample at the best settings.
    pub best_scores: RankerScores,
    /// Each query scored with the settings chosen without its fold.
    pub cross_validated: RankerScores,
    /// The settings each fold chose.
    pub chosen: Vec<SearchSettings>,
}

/// A grid's points, each with every query's scores.
pub struct ScoredGrid {
    /// The settings tried.
    pub points: Vec<SearchSettings>,
    /// Per point, each query's scores.
    pub scores: Vec<Vec<QueryScores>>,
}

impl ScoredGrid {
    /// Runs every query at every point.
    pub fn run(
        collection: &JudgedCollection,
        encoder: Option<&Encoder>,
        points: Vec<SearchSettings>,
    ) -> Result<Self, SearchEvalError> {
        let scores = points
            .iter()
            .map(|settings| per_query(collection, encoder, settings))
            .collect::<Result<_, _>>()?;
        Ok(ScoredGrid { points, scores })
    }

    /// Several grids as one (e.g. every ranker's, to choose the ranker too).
    pub fn join(grids: Vec<ScoredGrid>) -> ScoredGrid {
        let mut joined = ScoredGrid {
            points: Vec::new(),
            scores: Vec::new(),
        };
        for grid in grids {
            joined.points.extend(grid.points);
            joined.scores.extend(grid.scores);
        }
        joined
    }

    /// The in-sample and cross-validated figures; `fold[q]` is query q's fold (see [`folds`]).
    pub fn cross_validate(&self, fold: &[usize]) -> Tuned {
        let all = best_point(&self.scores, |_| true);
        let mut held_out = vec![None; fold.len()];
        let mut chosen = Vec::with_capacity(FOLDS);
        for f in 0..FOLDS {
            let point = best_point(&self.scores, |q| fold[q] != f);
            for q in (0..fold.len()).filter(|&q| fold[q] == f) {
                held_out[q] = Some(self.scores[point][q]);
            }
            chosen.push(self.points[point].clone());
        }
        let held_out: Vec<QueryScores> = held_out.into_iter().flatten().collect();
        let ranker = self.points[0].ranker;
        Tuned {
            points: self.points.len(),
            defaults: RankerScores::mean(ranker, &self.scores[0]),
            best: self.points[all].clone(),
            best_scores: RankerScores::mean(self.points[all].ranker, &self.scores[all]),
            cross_validated: RankerScores::mean(ranker, &held_out),
            chosen,
        }
    }
}

/// The point with the best mean RR@10 over the queries `counts` keeps (then P@10; then the
/// earlier point).
fn best_point(scores: &[Vec<QueryScores>], counts: impl Fn(usize) -> bool) -> usize {
    let mean = |point: &[QueryScores]| {
        let kept: Vec<&QueryScores> = point
            .iter()
            .enumerate()
            .filter(|(q, _)| counts(*q))
            .map(|(_, s)| s)
            .collect();
        let n = kept.len().max(1) as f64;
        (
            kept.iter().map(|s| s.rr).sum::<f64>() / n,
            kept.iter().map(|s| s.precision).sum::<f64>() / n,
        )
    };
    let mut best = 0;
    let mut best_mean = mean(&scores[0]);
    for (i, point) in scores.iter().enumerate().skip(1) {
        let m = mean(point);
        if m.0 > best_mean.0 + 1e-12
            || ((m.0 - best_mean.0).abs() <= 1e-12 && m.1 > best_mean.1 + 1e-12)
        {
            best = i;
            best_mean = m;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_are_fixed_balanced_and_independent_of_order() {
        let queries: Vec<String> = (0..52).map(|i| format!("query {i}")).collect();
        let texts: Vec<&str> = queries.iter().map(String::as_str).collect();
        let fold = folds(&texts);
        for f in 0..FOLDS {
            let size = fold.iter().filter(|&&x| x == f).count();
            assert!(size == 10 || size == 11, "fold {f}: {size}");
        }
        let mut reversed = texts.clone();
        reversed.reverse();
        let fold_reversed = folds(&reversed);
        for (i, text) in texts.iter().enumerate() {
            let j = reversed.iter().position(|t| t == text).unwrap();
            assert_eq!(fold[i], fold_reversed[j]);
        }
    }

    #[test]
    fn the_grid_starts_with_the_defaults_and_varies_only_what_the_ranker_uses() {
        for ranker in Ranker::ALL {
            let defaults = SearchSettings {
                ranker,
                ..SearchSettings::default()
            };
            let all = Parts {
                soft: true,
                balance: true,
            };
            let points = grid(&defaults, all);
            assert_eq!(points[0], defaults);
            assert!(points
                .iter()
                .all(|p| p.ranker == ranker && p.k == defaults.k));
            let expected = match ranker {
                Ranker::Bm25 | Ranker::Bm25Filter | Ranker::Learned => 1,
                Ranker::Qbm25 | Ranker::Entity => 240,
                Ranker::Dense => 1728,
            };
            assert_eq!(points.len(), expected, "{ranker:?}");
            let plain = grid(&defaults, Parts::default());
            assert!(plain.iter().all(|p| p.soft == 0.0 && p.balance == 0.0));
        }
    }

    #[test]
    fn the_held_out_choice_ignores_the_held_out_queries() {
        let s = |rr: f64| QueryScores {
            precision: rr,
            rr,
            ndcg: rr,
        };
        // Point 1 wins on query 0 only; point 0 on the others.
        let scores = vec![vec![s(0.0), s(1.0), s(1.0)], vec![s(1.0), s(0.0), s(0.0)]];
        assert_eq!(best_point(&scores, |_| true), 0);
        assert_eq!(best_point(&scores, |q| q == 0), 1);
        assert_eq!(best_point(&scores, |q| q != 0), 0);
    }
}
