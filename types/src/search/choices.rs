//! How quantity search ranks and orders its results.

use serde::{Deserialize, Serialize};

/// The weight α of the quantity score a person gets without choosing (the paper uses 1, the
/// authors' code 2; 1 ranked best on the Qsearch dev queries).
pub const DEFAULT_ALPHA: f64 = 1.0;

/// The largest weight α of the quantity score: weights past this rank by the quantity alone
/// already, and a bound keeps every stored setting a number JSON and PostgreSQL carry both ways.
pub const MAX_ALPHA: f64 = 100.0;

/// Results shown without choosing.
pub const DEFAULT_RESULTS: usize = 10;

/// How sentences are ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Ranker {
    /// BM25 over the query's words only; quantities are shown but do not rank.
    Bm25,
    /// BM25 over the sentences that meet every constraint; the others are dropped.
    Bm25Filter,
    /// Normalised BM25 plus α times the quantity score of the sentences that meet every constraint.
    Qbm25,
    /// The qbm25 pool re-ranked with the sentence encoder's cosine to the query.
    Dense,
    /// Entities ranked by their best quantity fact, each with its evidence sentence.
    Entity,
    /// The dense ranker's pool ordered by weights learned on judged queries.
    Learned,
}

impl Ranker {
    /// Every value, in the order they are listed.
    pub const ALL: [Ranker; 6] = [
        Ranker::Bm25,
        Ranker::Bm25Filter,
        Ranker::Qbm25,
        Ranker::Dense,
        Ranker::Entity,
        Ranker::Learned,
    ];

    /// The ranker a person gets without choosing (the page, `tally search`, `tally eval search
    /// --json`): the best cross-validated on the Qsearch dev queries (`tally eval search`).
    pub const DEFAULT: Ranker = Ranker::Learned;

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            Ranker::Bm25 => "bm25",
            Ranker::Bm25Filter => "bm25-filter",
            Ranker::Qbm25 => "qbm25",
            Ranker::Dense => "dense",
            Ranker::Entity => "entity",
            Ranker::Learned => "learned",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether the ranker needs the sentence encoder.
    pub fn needs_encoder(self) -> bool {
        matches!(self, Ranker::Dense | Ranker::Learned)
    }
}

/// The order of the hits shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum SortOrder {
    /// Best first.
    #[default]
    Relevance,
    /// By the quantity's value, smallest first.
    ValueAscending,
    /// By the quantity's value, largest first.
    ValueDescending,
}

impl SortOrder {
    /// Every value, in the order they are listed.
    pub const ALL: [SortOrder; 3] = [
        SortOrder::Relevance,
        SortOrder::ValueAscending,
        SortOrder::ValueDescending,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            SortOrder::Relevance => "relevance",
            SortOrder::ValueAscending => "value-ascending",
            SortOrder::ValueDescending => "value-descending",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}
