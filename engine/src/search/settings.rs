//! What one quantity search is asked to do: the ranker, its weights, how many hits and in what
//! order. Chosen once per search (`choices.rs` reads them from a request) and read by every stage.

use serde::{Deserialize, Serialize};
pub(crate) use tally_types::{Ranker, SortOrder};

use tally_documents::sentence_store::keys::BARE_WEIGHT;

/// Settings of one search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchSettings {
    /// The ranker that orders the hits.
    pub ranker: Ranker,
    /// Weight of the quantity score (the paper uses 1, the authors' code 2; 1 ranked best on
    /// the dev queries).
    pub alpha: f64,
    /// Hits returned.
    pub k: usize,
    /// The order the hits are returned in.
    pub sort: SortOrder,
    /// Candidates re-ranked by `dense` and `entity`, and sorted by value.
    pub pool: usize,
    /// Weight of a bare number's match to a counted constraint (a unit match weighs 1).
    #[serde(default = "default_bare_weight")]
    pub bare_weight: f64,
    /// The dense ranker's weights of cosine similarity and normalised BM25.
    #[serde(default)]
    pub dense: DenseWeights,
    /// Credit for a value that misses a condition, falling with its distance to it (0: the
    /// strict reading; see [`tally_documents::sentence_store::conditions::Test::with_softness`]).
    #[serde(default)]
    pub soft: f64,
    /// How much the query's word rarity moves α: α · max(0, 1 + balance · (½ − rarity)), with
    /// rarity the mean idf of its words over the largest idf (0: α as set). Queries whose words
    /// are rare may need the quantity less.
    #[serde(default)]
    pub balance: f64,
}

fn default_bare_weight() -> f64 {
    BARE_WEIGHT
}

impl SearchSettings {
    /// The defaults with `ranker` and its own weights: those that ranked best on the Qsearch dev
    /// queries in `tally eval search`'s grid (whose 5-fold cross-validation measures this choice).
    pub fn for_ranker(ranker: Ranker) -> Self {
        // Each ranker's best point of its grid (bare weight 0.5, 0.8 or 1; balance −1, 0, 1
        // or 2 for `entity`, see `tuning::Parts::adopted`); α is 1 for all.
        // `learned` reads the dense pool as its weights were trained on it.
        let (bare_weight, balance) = match ranker {
            Ranker::Dense | Ranker::Learned => (1.0, 0.0),
            Ranker::Entity => (BARE_WEIGHT, 2.0),
            _ => (BARE_WEIGHT, 0.0),
        };
        SearchSettings {
            ranker,
            alpha: tally_types::search::DEFAULT_ALPHA,
            k: tally_types::search::DEFAULT_RESULTS,
            sort: SortOrder::default(),
            pool: 100,
            bare_weight,
            dense: DenseWeights::default(),
            soft: 0.0,
            balance,
        }
    }

    /// The same settings with another ranker, and that ranker's own default weights.
    pub fn with_ranker(&self, ranker: Ranker) -> Self {
        let own = SearchSettings::for_ranker(ranker);
        SearchSettings {
            ranker,
            bare_weight: own.bare_weight,
            dense: own.dense,
            soft: own.soft,
            balance: own.balance,
            ..self.clone()
        }
    }
}

impl Default for SearchSettings {
    /// qbm25's: the best ranker that needs no encoder.
    fn default() -> Self {
        SearchSettings::for_ranker(Ranker::Qbm25)
    }
}

/// The weights of cosine similarity and normalised BM25 in the dense score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DenseWeights {
    /// The weight of cosine similarity.
    pub cosine: f64,
    /// The weight of normalised BM25.
    pub text: f64,
}

impl Default for DenseWeights {
    /// The best of `tally eval search`'s grid on the Qsearch dev queries (cosine 1, 2 or 4 ×
    /// text 0, 0.2, 0.5 or 1, with α and the bare-number weight); its cross-validated MRR@10 is
    /// printed next to the in-sample one.
    fn default() -> Self {
        DenseWeights {
            cosine: 4.0,
            text: 0.2,
        }
    }
}
