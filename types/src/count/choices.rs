//! What a count answer can be asked to do: how counts are consolidated, how candidates are
//! scored, how instances are ranked.

use serde::{Deserialize, Serialize};

/// How candidates are combined into one count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// The count of the single most confident candidate.
    MostConfident,
    /// The count seen most often (ties: larger summed confidence, then smaller count).
    MostFrequent,
    /// The median count (the mean of the two middle counts for an even number).
    Median,
    /// Sorted by count, the count where cumulative confidence first reaches half of the total.
    #[default]
    WeightedMedian,
}

impl Strategy {
    /// Every value, in the order they are listed.
    pub const ALL: [Strategy; 4] = [
        Strategy::MostConfident,
        Strategy::MostFrequent,
        Strategy::Median,
        Strategy::WeightedMedian,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::MostConfident => "most-confident",
            Strategy::MostFrequent => "most-frequent",
            Strategy::Median => "median",
            Strategy::WeightedMedian => "weighted-median",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// How count spans get their confidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ScorerKind {
    /// Tally's span model (encoder + trained QA head).
    Neural,
    /// Lexical overlap of question and candidate context (baseline, and fallback without a model).
    Lexical,
    /// The mean of the two: the span model's reading of the snippet, and the lexical match of
    /// the counted noun with the answer type.
    Hybrid,
    /// The candidate ranker: the span model's probability combined with the answer-type match,
    /// the question's words around the count and the agreement of other snippets.
    #[default]
    Ranker,
}

impl ScorerKind {
    /// Every value, in the order they are listed.
    pub const ALL: [ScorerKind; 4] = [
        ScorerKind::Ranker,
        ScorerKind::Neural,
        ScorerKind::Lexical,
        ScorerKind::Hybrid,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            ScorerKind::Neural => "neural",
            ScorerKind::Lexical => "lexical",
            ScorerKind::Hybrid => "hybrid",
            ScorerKind::Ranker => "ranker",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// How instances are ranked (all scores in [0, 1]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum InstanceScoring {
    /// Only the instances of the snippet holding the single most confident count span.
    QaOnly,
    /// Share of snippets mentioning the instance.
    ContextFrequency,
    /// Summed confidence of the snippets mentioning it, over all snippets.
    SummedConfidence,
    /// How well the instance fits the answer type (encoder cosine of the instance and the answer
    /// type, in place of an NLI model), weighted by how many snippets mention it.
    #[default]
    TypeCompatibility,
    /// The reader's span probability of the instance under the "which …" question (CoQEx's
    /// span prediction with the rewritten query), summed over the snippets mentioning it.
    Reader,
    /// Type compatibility weighted by the reader's best span probability of the instance.
    ReaderTypeCompatibility,
    /// A logistic model over each name's type evidence (membership patterns beside the kind's
    /// name, the question's subject, the name's form, its fit), trained on the judged instance
    /// set; names below its calibrated probability are not shown.
    Learned,
}

impl InstanceScoring {
    /// Every value, in the order they are listed.
    pub const ALL: [InstanceScoring; 7] = [
        InstanceScoring::QaOnly,
        InstanceScoring::ContextFrequency,
        InstanceScoring::SummedConfidence,
        InstanceScoring::TypeCompatibility,
        InstanceScoring::Reader,
        InstanceScoring::ReaderTypeCompatibility,
        InstanceScoring::Learned,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            InstanceScoring::QaOnly => "qa-only",
            InstanceScoring::ContextFrequency => "context-frequency",
            InstanceScoring::SummedConfidence => "summed-confidence",
            InstanceScoring::TypeCompatibility => "type-compatibility",
            InstanceScoring::Reader => "reader",
            InstanceScoring::ReaderTypeCompatibility => "reader-type-compatibility",
            InstanceScoring::Learned => "learned",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// What a clear statement does to a count answer: a passage about the question that counts
/// exactly the noun asked for ("eight operating theatres" for "how many operating theatres …"),
/// every such statement agreeing (issue 47).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum StatementRule {
    /// Nothing: the consolidated count and its support decide.
    Off,
    /// It answers where the support was too low to answer (a fact stated once).
    LiftAbstention,
    /// It is the answer whenever there is one (the default: the better Stresstest P/C, the
    /// same on LC-QuAD-count and the own-documents tuning half).
    #[default]
    Override,
}

impl StatementRule {
    /// Every value, in the order they are listed.
    pub const ALL: [StatementRule; 3] = [
        StatementRule::Off,
        StatementRule::LiftAbstention,
        StatementRule::Override,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            StatementRule::Off => "off",
            StatementRule::LiftAbstention => "lift-abstention",
            StatementRule::Override => "override",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// What answers stored before the rule existed were made with.
    pub fn before_the_setting() -> Self {
        StatementRule::Off
    }
}
