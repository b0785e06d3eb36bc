//! What Tally answers to a count question: the count (or why none is given), the representative
//! count phrase with its synonyms, subgroups and incomparables, the instances, and every snippet
//! with its marked count phrases. The engine returns it, the API serves it, the pages render it.

use serde::{Deserialize, Serialize};

use super::origin::{Retrieval, SnippetLink, SnippetOrigin};
use super::settings::{CountSettings, ResolvedSettings};

/// How a candidate count phrase relates to the representative one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CnpClass {
    /// CNP_rep itself: the most confident candidate with the predicted count.
    Representative,
    /// Counts the same thing: its count is within ±θ of the prediction.
    Synonym,
    /// Counts a part of it: a smaller count ("17 regional languages" of 700 languages).
    Subgroup,
    /// Counts something else: unrelated phrase, or a larger count.
    Incomparable,
}

impl CnpClass {
    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub fn name(self) -> &'static str {
        match self {
            CnpClass::Representative => "representative",
            CnpClass::Synonym => "synonym",
            CnpClass::Subgroup => "subgroup",
            CnpClass::Incomparable => "incomparable",
        }
    }
}

/// What Tally understood of a count question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct QuestionAnalysis {
    /// The question as asked.
    pub question: String,
    /// "how many …", "number of …" (false for a keyword query).
    pub has_count_cue: bool,
    /// The counted noun phrase as asked ("indian elephants").
    pub answer_type: String,
    /// Its singular form ("indian elephant").
    pub answer_type_singular: String,
    /// Its head noun, singular ("elephant").
    pub head: String,
    /// The other content phrases ("paul mccartney", "beatles").
    pub entities: Vec<String>,
    /// Every content word, lower case, in order.
    pub terms: Vec<String>,
    /// The question asking for instances ("which indian elephants are there in the world").
    pub which_question: String,
}

/// A count phrase of a snippet with its confidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct CountSpan {
    /// Character offsets in the snippet text (what a browser highlights).
    pub start: usize,
    /// End of the span (character offset, exclusive).
    pub end: usize,
    /// The count phrase as written.
    pub text: String,
    /// The count it states.
    pub count: f64,
    /// The scorer's confidence that it states the answer.
    pub confidence: f64,
    /// The snippet's answer (its most confident count span).
    pub chosen: bool,
    /// Took part in consolidation (chosen and above the threshold used).
    pub used: bool,
    /// How it relates to the representative count phrase (`None` when not classified).
    pub cnp_class: Option<CnpClass>,
}

/// An instance mention in a snippet, character offsets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct InstanceMark {
    /// Start of the mention (character offset).
    pub start: usize,
    /// End of the mention (character offset, exclusive).
    pub end: usize,
    /// The instance mentioned.
    pub instance: String,
}

/// A snippet as the answer shows it: its text, count spans and instance mentions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SnippetAnswer {
    /// The snippet's id.
    pub id: String,
    /// Where the snippet is from.
    pub source: String,
    /// The snippet's text.
    pub text: String,
    /// Its count phrases, with their confidence.
    pub spans: Vec<CountSpan>,
    /// Its instance mentions.
    pub instances: Vec<InstanceMark>,
    /// The page a web snippet was taken from (`None` for the corpus's snippets).
    #[serde(default)]
    pub link: Option<SnippetLink>,
}

/// A CNP in a group: which snippet, its phrase, count and confidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Cnp {
    /// The id of the snippet it is in.
    pub snippet_id: String,
    /// The count phrase as written.
    pub text: String,
    /// The count it states.
    pub count: f64,
    /// The scorer's confidence that it states the answer.
    pub confidence: f64,
}

/// The count phrases other than the representative one, by how they relate to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct CnpGroups {
    /// Count phrases that count the same thing.
    pub synonyms: Vec<Cnp>,
    /// Count phrases that count a part of it.
    pub subgroups: Vec<Cnp>,
    /// Count phrases that count something else.
    pub incomparables: Vec<Cnp>,
}

/// An instance of what is counted, with its score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct RankedInstance {
    /// The instance's name.
    pub name: String,
    /// Its score, in [0, 1].
    pub score: f64,
    /// Snippet ids mentioning it.
    pub snippets: Vec<String>,
}

/// How long one stage of answering took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct StageTiming {
    /// The stage, by name.
    #[cfg_attr(feature = "json-schema", schemars(with = "String"))]
    pub stage: super::Stage,
    /// Milliseconds it took.
    pub ms: f64,
}

/// Everything Tally answers to a count question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct CountAnswer {
    /// The question as asked.
    pub question: String,
    /// What Tally understood of the question.
    pub analysis: QuestionAnalysis,
    /// The predicted count; `None` when no snippet has a usable count, or when the evidence is
    /// too weak to answer (then `abstention` says why, and the groups still show the closest
    /// evidence).
    pub count: Option<f64>,
    /// The probability that the most confident count phrase states the answer (the scorer's
    /// confidence, calibrated for the ranker); abstention compares it with the setting.
    #[serde(default)]
    pub support: f64,
    /// How sure Tally is of the count: its probability of being right, the bound below which
    /// it is declined, and the reading it rests on (kept when declined). `None` when nothing
    /// was read, or for answers stored before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certainty: Option<crate::Certainty>,
    /// Why no count is given although counts were found, as a sentence
    /// ([`Abstention::sentence`] of `abstention_reason`).
    #[serde(default)]
    pub abstention: Option<String>,
    /// The same, typed, with its figures (answers stored before it existed have only the
    /// sentence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstention_reason: Option<super::Abstention>,
    /// How the count was read from a document's structure, when it was ("read from a table:
    /// Gold, row Falcon", "counted from a list of 4 (“Present”)"), with the passage's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_from: Option<StructuredReading>,
    /// The count, sum, average, largest or smallest computed over a table's records, with the
    /// rows it touched, when the question was answered so (issue 74); then `count` is its value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregation: Option<super::Aggregation>,
    /// The representative count phrase.
    pub cnp_rep: Option<Cnp>,
    /// Share of the used confidence that agrees with the prediction (synonyms and CNP_rep).
    pub confidence: f64,
    /// The other count phrases, grouped by how they relate to the representative one.
    pub groups: CnpGroups,
    /// The instances found, best first.
    pub instances: Vec<RankedInstance>,
    /// Every snippet used, with its marked count phrases.
    pub snippets: Vec<SnippetAnswer>,
    /// How the snippets were found.
    pub retrieval: Retrieval,
    /// Where the snippets came from; `None`: the local snippet index.
    #[serde(default)]
    pub origin: Option<SnippetOrigin>,
    /// The threshold after relaxation.
    pub threshold_used: f64,
    /// The settings as asked (never changed by the engine).
    pub settings: CountSettings,
    /// What the engine decided for itself (`None` in answers stored before it was recorded).
    #[serde(default)]
    pub resolved: Option<ResolvedSettings>,
    /// How long each stage took.
    pub timings: Vec<StageTiming>,
}

/// A count read from a passage's structure (a table cell, a spec line, a list, a dated entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct StructuredReading {
    /// The passage it was read in.
    pub snippet_id: String,
    /// How, in words.
    pub how: String,
}
