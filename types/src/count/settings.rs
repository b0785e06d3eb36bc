//! Every setting of the count pipeline, stored with each answer.

use serde::{Deserialize, Serialize};

use super::choices::{InstanceScoring, ScorerKind, StatementRule, Strategy};

/// The default of [`CountSettings::abstain_below`]. `tally train count-spans` chose 0.10 by
/// nested cross-validation on the stored snippet sets alone; with passages read only when they
/// are about the question and clear statements answering (issue 47), 0.15 gave the best mean
/// P/C on Stresstest and LC-QuAD-count and far fewer wrong counts on the own-documents tuning
/// half and off-corpus (`docs/experiments.md`).
pub const DEFAULT_ABSTAIN_BELOW: f64 = 0.15;

/// The default of [`CountSettings::min_relevance`] (issue 47): of 0, 0.5, 0.6, 0.7 and 0.8, the
/// best balance of answers right and counts wrong on the own-documents tuning half, with the
/// best mean P/C on Stresstest and LC-QuAD-count (`docs/experiments.md`).
pub const DEFAULT_MIN_RELEVANCE: f64 = 0.7;

/// The default of [`CountSettings::snippets`]: snippets BM25 retrieves for a question.
pub const DEFAULT_SNIPPETS: usize = 50;

/// The most snippets a count question reads on a server whose operator did not allow more
/// (`--max-snippets`): twice the default, a few seconds of CPU with the costliest instance
/// scoring (1,000 with the reader's instances took 30 s).
pub const DEFAULT_MAX_SNIPPETS: usize = 100;

/// Every setting of the count pipeline; stored with each answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct CountSettings {
    /// Snippets retrieved for a question without a stored snippet set.
    pub snippets: usize,
    /// Minimum span confidence for a count to take part.
    pub threshold: f64,
    /// Lower the threshold by 0.1 until `min_counts` counts pass (the authors' relaxation).
    pub relax_threshold: bool,
    pub min_counts: usize,
    pub strategy: Strategy,
    pub context: ContextSettings,
    pub instance_scoring: InstanceScoring,
    pub scorer: ScorerKind,
    /// Instances returned.
    pub max_instances: usize,
    /// Retrieve only from this corpus of the snippet index (`None`: all of them).
    pub corpus: Option<String>,
    /// Support below which Tally answers "no reliable answer in this corpus" instead of a count
    /// (see [`support`]); 0 never abstains.
    #[serde(default)]
    pub abstain_below: f64,
    /// Passages whose relevance to the question's subject (the rarity-weighted share of its
    /// subject words they name) is below this give no count; 0 reads every passage. Answers
    /// stored before the setting existed read every passage.
    #[serde(default)]
    pub min_relevance: f64,
    /// What a clear statement of the count asked for does ([`StatementRule`]).
    #[serde(default = "StatementRule::before_the_setting")]
    pub statements: StatementRule,
}

impl CountSettings {
    /// The settings as they apply with `scorer`: abstention reads confidences as
    /// probabilities, which only the candidate ranker's are, so other scorers never abstain.
    pub fn for_scorer(&self, scorer: ScorerKind) -> Self {
        Self {
            scorer,
            abstain_below: if scorer == ScorerKind::Ranker {
                self.abstain_below
            } else {
                0.0
            },
            ..self.clone()
        }
    }
}

impl Default for CountSettings {
    fn default() -> Self {
        Self {
            snippets: DEFAULT_SNIPPETS,
            // The candidate ranker with weighted median at 0.2: the best mean cross-validated P/C
            // over Stresstest and LC-QuAD-count (`tally train count-spans`, README).
            threshold: 0.2,
            relax_threshold: true,
            min_counts: 5,
            strategy: Strategy::WeightedMedian,
            context: ContextSettings::default(),
            instance_scoring: InstanceScoring::default(),
            scorer: ScorerKind::Ranker,
            max_instances: 20,
            corpus: None,
            abstain_below: DEFAULT_ABSTAIN_BELOW,
            min_relevance: DEFAULT_MIN_RELEVANCE,
            statements: StatementRule::default(),
        }
    }
}

/// Settings of Algorithm 2.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ContextSettings {
    /// Relative band around the prediction within which a count is a synonym (paper: 0.3).
    pub theta: f64,
    /// A phrase whose cosine to CNP_rep is at most this is incomparable (paper: 0; Tally: 0.1).
    pub incomparable_cosine: f32,
    /// The authors' code: a larger count stays a synonym when its phrase's cosine to CNP_rep is
    /// above this (`None`: larger counts are always incomparable, as in the paper's text).
    pub larger_synonym_cosine: Option<f32>,
}

impl Default for ContextSettings {
    fn default() -> Self {
        Self {
            theta: 0.3,
            // Chosen on the CoQuAD kg and no-direct-answer context files (0.0–0.3 tried);
            // the snippet file is kept for measuring.
            incomparable_cosine: 0.1,
            larger_synonym_cosine: None,
        }
    }
}
