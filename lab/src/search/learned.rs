//! A learned ranker over the dense ranker's pool: a linear score of each sentence's features
//! (cosine to the query, normalised BM25, qs when every constraint is met, whether it is), with
//! weights trained on judged queries by a pairwise logistic loss (a relevant sentence should
//! outscore an irrelevant one of the same query) and measured by cross-validation by query:
//! each fold's queries are ranked with weights learned on the other folds only.

use std::collections::HashSet;

use super::eval::{
    ranking_scores, relevant_sentences, JudgedCollection, QueryScores, SearchEvalError, CUTOFF,
};
use super::generated::encoder_text;
use super::token_vectors::TokenVectors;
use tally_documents::sentence_store::index::SentenceIndex;
use tally_encoder::cosine;
use tally_encoder::Encoder;
use tally_engine::count::logistic::{FitSettings, Logistic};
use tally_engine::search::rank::search;
pub use tally_engine::search::rankers::learned::{features, LearnedWeights, FEATURES};
use tally_engine::search::settings::{DenseWeights, SearchSettings};
use tally_types::Ranker;

const N: usize = FEATURES.len();
/// The fit's settings: fixed beforehand (the count ranker's), not chosen on the judged queries.
const FIT: FitSettings = FitSettings {
    iterations: 2000,
    learning_rate: 0.5,
    l2: 1e-3,
};

/// Features measured beside the shipped ones, to see whether they would help (`tally train
/// search-ranker` prints each one's cross-validated figure): how far the matched value lies
/// inside the condition (ln of its ratio to the bound, signed so that inside is positive, −3 to
/// 3; 0 without a match) and whether the matched quantity is written with a unit.
pub const CANDIDATES: [&str; 3] = ["condition margin", "unit written", "token cosine"];

/// The columns of the shipped features, in [`Pooled`]'s numbering (the shipped features, then
/// the candidates).
pub const SHIPPED: [usize; N] = [0, 1, 2, 3];

/// The column of candidate feature `i` ([`CANDIDATES`]).
pub const fn candidate_column(i: usize) -> usize {
    N + i
}

/// The name of a column: a shipped feature's or a candidate's.
pub fn column_name(column: usize) -> &'static str {
    FEATURES
        .get(column)
        .copied()
        .unwrap_or_else(|| CANDIDATES[column - N])
}

/// One pooled sentence of a query: its features and whether it is judged relevant.
#[derive(Debug, Clone)]
struct Pooled {
    features: [f64; N],
    candidates: [f64; 3],
    relevant: bool,
}

impl Pooled {
    /// The columns picked: the shipped features are 0–3, the candidates 4 on.
    fn vector(&self, columns: &[usize]) -> Vec<f64> {
        columns
            .iter()
            .map(|&c| {
                self.features
                    .get(c)
                    .copied()
                    .unwrap_or_else(|| self.candidates[c - N])
            })
            .collect()
    }
}

/// The candidate features of a hit for a query's constraints (the token cosine, `token_cosine`,
/// measured by the caller).
fn candidates(
    hit: &tally_types::search::Hit,
    constraints: &[tally_text::quantity::Constraint],
    token_cosine: f64,
) -> [f64; 3] {
    use tally_text::quantity::Condition;
    let mut margins = Vec::new();
    for (c, constraint) in constraints.iter().enumerate() {
        let Some(m) = hit.matches.iter().find(|m| m.constraint == c) else {
            continue;
        };
        let (x, v) = (m.converted, constraint.value);
        if x <= 0.0 || v <= 0.0 {
            continue;
        }
        let ratio = (x / v).ln();
        let margin = match constraint.condition {
            Condition::Greater | Condition::AtLeast => ratio,
            Condition::Less | Condition::AtMost => -ratio,
            Condition::Range => {
                let high = constraint.high.unwrap_or(v);
                ratio.min((high / x).ln())
            }
            _ => -ratio.abs(),
        };
        margins.push(margin.clamp(-3.0, 3.0));
    }
    let margin = if margins.is_empty() {
        0.0
    } else {
        margins.iter().sum::<f64>() / margins.len() as f64
    };
    let unit_written = hit.matches.first().is_some_and(|m| {
        m.surface
            .chars()
            .any(|ch| ch.is_alphabetic() || matches!(ch, '$' | '€' | '£' | '¥' | '%' | '°'))
    });
    [margin, f64::from(u8::from(unit_written)), token_cosine]
}

/// A judged query's pool.
#[derive(Debug, Clone)]
pub struct QueryPool {
    pooled: Vec<Pooled>,
    /// Relevant sentences in all (for NDCG's ideal).
    relevant: usize,
}

/// A query with the texts of its relevant sentences: a judged query, or a generated one
/// ([`super::generated`]) with its positives.
#[derive(Debug, Clone)]
pub struct LabelledQuery {
    /// The query's text.
    pub query: String,
    /// The texts of its relevant sentences.
    pub relevant: HashSet<String>,
}

/// Each judged query's pool (the dense ranker's, of `pool` sentences) with its features.
pub fn pools(
    collection: &JudgedCollection,
    encoder: &Encoder,
    token_vectors: Option<&TokenVectors>,
    pool: usize,
) -> Result<Vec<QueryPool>, SearchEvalError> {
    let labelled: Vec<LabelledQuery> = collection
        .queries
        .iter()
        .map(|query| LabelledQuery {
            query: query.query.clone(),
            relevant: relevant_sentences(query)
                .into_iter()
                .map(str::to_string)
                .collect(),
        })
        .collect();
    labelled_pools(&collection.index, &labelled, encoder, token_vectors, pool)
}

/// Each labelled query's pool over `index` (the dense ranker's, of `pool` sentences) with its
/// features.
pub fn labelled_pools(
    index: &SentenceIndex,
    queries: &[LabelledQuery],
    encoder: &Encoder,
    token_vectors: Option<&TokenVectors>,
    pool: usize,
) -> Result<Vec<QueryPool>, SearchEvalError> {
    let defaults = SearchSettings::for_ranker(Ranker::Dense);
    // With the cosine alone as the dense weight, a hit's score is the cosine plus α · qs.
    let settings = SearchSettings {
        k: pool,
        pool,
        dense: DenseWeights {
            cosine: 1.0,
            text: 0.0,
        },
        soft: 0.0,
        ..defaults
    };
    let mut pools = Vec::with_capacity(queries.len());
    for query in queries {
        let results = search(index, Some(encoder), &query.query, &settings)?;
        let constraints = tally_text::quantity::parse_query(&query.query).constraints;
        let query_vector = token_vectors.map(|v| v.embed(&encoder_text(&query.query)));
        let pooled = results
            .hits
            .iter()
            .map(|hit| {
                let quantity = if hit.meets_all() {
                    hit.quantity_score
                } else {
                    0.0
                };
                Pooled {
                    features: features(hit.score - settings.alpha * quantity, hit),
                    candidates: candidates(
                        hit,
                        &constraints,
                        token_vectors
                            .zip(query_vector.as_ref())
                            .map_or(0.0, |(v, q)| f64::from(cosine(q, &v.embed(&hit.text)))),
                    ),
                    relevant: query.relevant.contains(hit.text.as_str()),
                }
            })
            .collect();
        pools.push(QueryPool {
            pooled,
            relevant: query.relevant.len(),
        });
    }
    Ok(pools)
}

/// Each pool's scores when ranked by `weights` (shipped weights, or a model's [`weights_of`]).
pub fn scores_with(pools: &[QueryPool], weights: &LearnedWeights) -> Vec<QueryScores> {
    pools
        .iter()
        .map(|pool| {
            let mut order: Vec<(f64, &Pooled)> = pool
                .pooled
                .iter()
                .map(|p| (weights.score(&p.features), p))
                .collect();
            // Stable: ties keep the pool's order.
            order.sort_by(|a, b| b.0.total_cmp(&a.0));
            let gains: Vec<bool> = order.iter().take(CUTOFF).map(|(_, p)| p.relevant).collect();
            let (precision, rr, ndcg) = ranking_scores(&gains, pool.relevant);
            QueryScores {
                precision,
                rr,
                ndcg,
            }
        })
        .collect()
}

/// The model that minimises the pairwise logistic loss over `pools`: a logistic regression
/// (the count ranker's, [`Logistic`]) on each relevant − irrelevant difference as a positive
/// and its negation as a negative, so that the data are symmetric and the bias plays no part; a
/// sentence's probability under it orders the pool.
pub fn train(pools: &[&QueryPool]) -> Logistic {
    train_with(pools, &SHIPPED)
}

/// [`train`] on the features of `columns`.
fn train_with(pools: &[&QueryPool], extra: &[usize]) -> Logistic {
    let mut rows: Vec<(Vec<f64>, bool)> = Vec::new();
    for pool in pools {
        for good in pool.pooled.iter().filter(|p| p.relevant) {
            let g = good.vector(extra);
            for bad in pool.pooled.iter().filter(|p| !p.relevant) {
                let d: Vec<f64> = g
                    .iter()
                    .zip(bad.vector(extra))
                    .map(|(a, b)| a - b)
                    .collect();
                let negated = d.iter().map(|x| -x).collect();
                rows.push((d, true));
                rows.push((negated, false));
            }
        }
    }
    Logistic::fit(&rows, &FIT)
}

/// A model's weights per unit of each feature (the model standardises its inputs; the order a
/// pool is ranked in does not depend on the means or the bias), as the `learned` ranker ships
/// them.
pub fn weights_of(model: &Logistic, trained_on: String) -> LearnedWeights {
    LearnedWeights {
        trained_on,
        features: FEATURES.iter().map(|f| f.to_string()).collect(),
        weights: model
            .weights
            .iter()
            .zip(&model.scale)
            .map(|(w, s)| w / s)
            .collect(),
    }
}

/// One query's scores when its pool is ranked by `model`.
fn scores(pool: &QueryPool, model: &Logistic, extra: &[usize]) -> QueryScores {
    let mut order: Vec<(f64, &Pooled)> = pool
        .pooled
        .iter()
        .map(|p| (model.probability(&p.vector(extra)), p))
        .collect();
    // Stable: ties keep the pool's order.
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    let order: Vec<&Pooled> = order.into_iter().map(|(_, p)| p).collect();
    let gains: Vec<bool> = order.iter().take(CUTOFF).map(|p| p.relevant).collect();
    let (precision, rr, ndcg) = ranking_scores(&gains, pool.relevant);
    QueryScores {
        precision,
        rr,
        ndcg,
    }
}

/// Cross-validated per-query scores (each query ranked by a model learned without its fold) and
/// each fold's model.
pub fn cross_validate(pools: &[QueryPool], fold: &[usize]) -> (Vec<QueryScores>, Vec<Logistic>) {
    cross_validate_with(pools, fold, &SHIPPED)
}

/// [`cross_validate`] on the features of `columns` (see [`SHIPPED`]; candidate i is column 4 + i).
pub fn cross_validate_with(
    pools: &[QueryPool],
    fold: &[usize],
    extra: &[usize],
) -> (Vec<QueryScores>, Vec<Logistic>) {
    let folds = fold.iter().copied().max().map_or(0, |m| m + 1);
    let mut per_query = vec![
        QueryScores {
            precision: 0.0,
            rr: 0.0,
            ndcg: 0.0
        };
        pools.len()
    ];
    let mut models = Vec::with_capacity(folds);
    for held_out in 0..folds {
        let training: Vec<&QueryPool> = pools
            .iter()
            .zip(fold)
            .filter(|(_, f)| **f != held_out)
            .map(|(p, _)| p)
            .collect();
        let model = train_with(&training, extra);
        for (i, pool) in pools.iter().enumerate() {
            if fold[i] == held_out {
                per_query[i] = scores(pool, &model, extra);
            }
        }
        models.push(model);
    }
    (per_query, models)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(rows: &[([f64; N], bool)]) -> QueryPool {
        QueryPool {
            pooled: rows
                .iter()
                .map(|&(features, relevant)| Pooled {
                    features,
                    candidates: [0.0; 3],
                    relevant,
                })
                .collect(),
            relevant: rows.iter().filter(|(_, r)| *r).count(),
        }
    }

    #[test]
    fn shipped_weights_order_a_pool_as_the_model_does() {
        let rows: Vec<([f64; N], bool)> = (0..40)
            .map(|i| {
                let x = f64::from(i) / 40.0;
                (
                    [x, 1.0 - x, (x * 7.0).fract(), f64::from(i % 2)],
                    i % 3 == 0,
                )
            })
            .collect();
        let pools = [pool(&rows)];
        let all: Vec<&QueryPool> = pools.iter().collect();
        let model = train(&all);
        let weights = weights_of(&model, "test".into());
        assert_eq!(weights.features, FEATURES);
        let by = |score: &dyn Fn(&[f64; N]) -> f64| {
            let mut order: Vec<usize> = (0..rows.len()).collect();
            order.sort_by(|&a, &b| score(&rows[b].0).total_cmp(&score(&rows[a].0)));
            order
        };
        assert_eq!(by(&|x| model.probability(x)), by(&|x| weights.score(x)));
    }

    #[test]
    fn training_learns_the_feature_that_separates_and_folds_never_see_their_own_queries() {
        // Relevance follows the third feature; the first is noise that favours the wrong ones.
        let pools: Vec<QueryPool> = (0..10)
            .map(|q| {
                let noise = f64::from(q % 3) / 10.0;
                pool(&[
                    ([0.9 - noise, 0.5, 0.1, 0.0], false),
                    ([0.2 + noise, 0.5, 0.8, 1.0], true),
                    ([0.7, 0.4, 0.3, 1.0], false),
                ])
            })
            .collect();
        let all: Vec<&QueryPool> = pools.iter().collect();
        let w = train(&all).weights;
        assert!(w[2] > 0.0 && w[2] > w[0], "{w:?}");
        let fold: Vec<usize> = (0..10).map(|i| i % 5).collect();
        let (scores, models) = cross_validate(&pools, &fold);
        assert_eq!(models.len(), 5);
        assert!(scores.iter().all(|s| s.rr == 1.0), "{scores:?}");
        // A fold whose queries alone hold the only relevant sentences learns nothing from them.
        let mut lonely = pools.clone();
        for p in lonely.iter_mut().skip(1) {
            for x in &mut p.pooled {
                x.relevant = false;
            }
        }
        let (_, models) = cross_validate(&lonely, &fold);
        assert!(
            models[0].weights.is_empty(),
            "fold 0 held query 0 out: no pairs"
        );
    }
}
