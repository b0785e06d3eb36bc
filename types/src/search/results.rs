//! What a search returns: the query as understood, ranked sentence hits (and entities in entity
//! mode), notes for the user, and timings. One serde type for the CLI, the API and the web app.

use serde::{Deserialize, Serialize};

use super::choices::{Ranker, SortOrder};

/// A constraint as the user should see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ConstraintView {
    /// "> 80000 people", "between 5 and 10 kilogram".
    pub text: String,
    /// The constraint's words in the query.
    pub source: String,
    pub condition: String,
    pub value: f64,
    pub high: Option<f64>,
    pub unit: Option<String>,
    /// How results are compared: "length, converted", "currency usd, never converted" …
    pub compared_as: String,
}

/// The query as Tally understood it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct QueryView {
    pub terms: Vec<String>,
    pub constraints: Vec<ConstraintView>,
}

/// A quantity of a hit that meets one constraint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct QuantityMatch {
    /// Index into `QueryView::constraints`.
    pub constraint: usize,
    /// Character offsets of the quantity in the sentence (for highlighting).
    pub start: usize,
    pub end: usize,
    /// As written in the sentence.
    pub surface: String,
    /// The value in the query's unit (converted where the dimension allows).
    pub converted: f64,
    pub query_unit: Option<String>,
}

/// A ranked sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Hit {
    pub rank: usize,
    pub id: String,
    pub source: String,
    /// The entity the corpus gives for the sentence, if any.
    pub entity: Option<String>,
    pub text: String,
    /// The final score of the ranker.
    pub score: f64,
    /// BM25 over the query's words (raw), and normalised by the query's best BM25.
    pub text_score: f64,
    pub text_score_normalised: f64,
    /// The quantity score qs in [0, 1].
    pub quantity_score: f64,
    /// Per constraint: whether the sentence meets it.
    pub meets: Vec<bool>,
    pub matches: Vec<QuantityMatch>,
    /// The other sources holding the same sentence (a sentence is shown once, at its best rank).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_in: Vec<String>,
}

impl Hit {
    /// Whether the sentence meets every constraint (false when there are none).
    pub fn meets_all(&self) -> bool {
        !self.meets.is_empty() && self.meets.iter().all(|m| *m)
    }
}

/// An entity answer (entity mode): the entity, its score and the evidence sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct EntityHit {
    pub rank: usize,
    pub entity: String,
    pub score: f64,
    /// How well the fact's context matches the query.
    pub context_score: f64,
    pub quantity_score: f64,
    pub evidence: Hit,
}

/// Milliseconds per stage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SearchTimings {
    pub parse_ms: f64,
    pub retrieve_ms: f64,
    pub rerank_ms: f64,
    pub total_ms: f64,
}

/// The answer to a quantity search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SearchResults {
    pub query: String,
    pub understood: QueryView,
    pub ranker: Ranker,
    pub sort: SortOrder,
    pub alpha: f64,
    pub k: usize,
    /// Things the user should know: contradictions, a text-only fallback, a capped k …
    pub notes: Vec<String>,
    pub hits: Vec<Hit>,
    pub entities: Vec<EntityHit>,
    pub timings: SearchTimings,
}
