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
    /// The condition's symbol (">", "<=", "~" …).
    pub condition: String,
    /// The value compared with (the lower bound of a range).
    pub value: f64,
    /// The upper bound of a range.
    pub high: Option<f64>,
    /// The unit asked for, if any.
    pub unit: Option<String>,
    /// How results are compared: "length, converted", "currency usd, never converted" …
    pub compared_as: String,
}

/// The query as Tally understood it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct QueryView {
    /// The query's words.
    pub terms: Vec<String>,
    /// The conditions on quantities.
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
    /// End of the quantity (character offset, exclusive).
    pub end: usize,
    /// As written in the sentence.
    pub surface: String,
    /// The value in the query's unit (converted where the dimension allows).
    pub converted: f64,
    /// The query's unit, if any.
    pub query_unit: Option<String>,
}

/// A ranked sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Hit {
    /// Its rank, from 1.
    pub rank: usize,
    /// The sentence's id.
    pub id: String,
    /// Where the sentence is from.
    pub source: String,
    /// The entity the corpus gives for the sentence, if any.
    pub entity: Option<String>,
    /// The sentence.
    pub text: String,
    /// The final score of the ranker.
    pub score: f64,
    /// BM25 over the query's words (raw), and normalised by the query's best BM25.
    pub text_score: f64,
    /// BM25 normalised by the query's best BM25, in [0, 1].
    pub text_score_normalised: f64,
    /// The quantity score qs in [0, 1].
    pub quantity_score: f64,
    /// Per constraint: whether the sentence meets it.
    pub meets: Vec<bool>,
    /// The quantities that meet a constraint.
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
    /// Its rank, from 1.
    pub rank: usize,
    /// The entity.
    pub entity: String,
    /// The final score of the ranker.
    pub score: f64,
    /// How well the fact's context matches the query.
    pub context_score: f64,
    /// The quantity score qs in [0, 1].
    pub quantity_score: f64,
    /// The sentence that gives the entity its score.
    pub evidence: Hit,
}

/// Milliseconds per stage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SearchTimings {
    /// Reading the query.
    pub parse_ms: f64,
    /// Retrieving the candidates (the ranker's first stage).
    pub retrieve_ms: f64,
    /// Scoring the candidates (the ranker's second stage).
    pub rerank_ms: f64,
    /// The whole search.
    pub total_ms: f64,
}

/// The answer to a quantity search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SearchResults {
    /// The query as asked.
    pub query: String,
    /// The query as Tally understood it.
    pub understood: QueryView,
    /// How the sentences were ranked.
    pub ranker: Ranker,
    /// The order of the hits shown.
    pub sort: SortOrder,
    /// The weight α of the quantity score.
    pub alpha: f64,
    /// How many results were asked for.
    pub k: usize,
    /// Things the user should know: contradictions, a text-only fallback, a capped k …
    pub notes: Vec<String>,
    /// The sentences, in the order asked for.
    pub hits: Vec<Hit>,
    /// The entities found (entity ranker only).
    pub entities: Vec<EntityHit>,
    /// How long each stage took.
    pub timings: SearchTimings,
}
