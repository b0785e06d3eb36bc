//! Every setting of the count pipeline: one value ([`CountSettings`]) that the page, the JSON
//! API, the answer stream, the study and `tally ask` build, checked once ([`CountSettings::check`]),
//! carried unchanged to the engine and stored with each answer. Each setting a person may change
//! is listed once in [`COUNT_SETTINGS`], which gives its name in the URL, the form, the JSON and
//! the command line (`min_relevance` / `--min-relevance`), how it is read and written back, its
//! range and its control on the page.

use serde::{Deserialize, Serialize};

use super::choices::{InstanceScoring, ScorerKind, StatementRule, Strategy};
use super::origin::ALL_CORPORA;
use crate::choice::Choice;

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

/// The most snippets a question may retrieve (the snippet index's cap).
pub const MAX_SNIPPETS: usize = 1000;

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
    /// The fewest counts that must pass the threshold when it is relaxed.
    pub min_counts: usize,
    /// How candidates are combined into one count.
    pub strategy: Strategy,
    /// Algorithm 2's settings (`theta` …), written beside the others. (Answers stored before
    /// they were flattened kept them under `context`; those read with the defaults.)
    #[serde(flatten)]
    pub context: ContextSettings,
    /// How instances are ranked.
    #[serde(alias = "instance_scoring")]
    pub instances: InstanceScoring,
    /// How count spans get their confidence.
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
            instances: InstanceScoring::default(),
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
#[serde(default)]
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

/// What the engine decided for itself when it answered, beside the settings as asked (which
/// it never changes): shown with the answer's settings, so a reader can tell what was used.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ResolvedSettings {
    /// The scorer that ran: the one asked for, or the next best when its models are missing
    /// (ranker → neural → lexical).
    pub scorer: ScorerKind,
    /// The abstention threshold that applied: abstention reads confidences as probabilities,
    /// which only the candidate ranker's are, so other scorers never abstain (0).
    pub abstain_below: f64,
    /// The least relevance that applied: a data set's stored snippet set was gathered for its
    /// question, so each of its passages is read (0).
    pub min_relevance: f64,
}

impl CountSettings {
    /// What applies when `scorer` runs, over a stored snippet set or not ([`ResolvedSettings`]).
    pub fn resolve(&self, scorer: ScorerKind, stored_set: bool) -> ResolvedSettings {
        ResolvedSettings {
            scorer,
            abstain_below: if scorer == ScorerKind::Ranker {
                self.abstain_below
            } else {
                0.0
            },
            min_relevance: if stored_set { 0.0 } else { self.min_relevance },
        }
    }

    /// What Tally decided for itself, in sentences (none when everything applied as asked).
    pub fn notes(&self, resolved: &ResolvedSettings) -> Vec<String> {
        let mut notes = Vec::new();
        if resolved.scorer != self.scorer {
            notes.push(format!(
                "The {} scorer ran (the models of {} are not loaded).",
                resolved.scorer.name(),
                self.scorer.name()
            ));
        }
        if resolved.abstain_below != self.abstain_below {
            notes.push("No abstention: only the ranker's confidences are probabilities.".into());
        }
        if resolved.min_relevance != self.min_relevance {
            notes.push(
                "Every passage was read: a stored snippet set was gathered for its question."
                    .into(),
            );
        }
        notes
    }

    /// These settings with the resolved values in place: what the stages read.
    pub fn applied(&self, resolved: &ResolvedSettings) -> CountSettings {
        CountSettings {
            scorer: resolved.scorer,
            abstain_below: resolved.abstain_below,
            min_relevance: resolved.min_relevance,
            ..self.clone()
        }
    }

    /// Each setting within its range, or the first one that is not, with one sentence per
    /// setting (the same from the page, the API and the command line).
    pub fn check(&self) -> Result<(), SettingError> {
        for setting in &COUNT_SETTINGS {
            if let Control::Number { min, max, .. } = setting.control {
                let written = (setting.write)(self);
                let value: f64 = written.parse().unwrap_or(f64::NAN);
                if !(min..=max).contains(&value) {
                    return Err(SettingError::OutOfRange {
                        name: setting.name,
                        min,
                        max,
                        given: written,
                    });
                }
            }
        }
        Ok(())
    }

    /// The settings that differ from the defaults, as `name=value` pairs (values unencoded).
    pub fn changed(&self) -> Vec<(&'static str, String)> {
        let defaults = CountSettings::default();
        COUNT_SETTINGS
            .iter()
            .map(|s| (s.name, (s.write)(self), (s.write)(&defaults)))
            .filter(|(_, value, default)| value != default)
            .map(|(name, value, _)| (name, value))
            .collect()
    }
}

/// Why a setting was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum SettingError {
    /// Not a value of the setting's kind (a number, a whole number, a choice's name).
    Unreadable {
        /// The setting's name.
        name: &'static str,
        /// Why the value could not be read.
        reason: String,
    },
    /// A number outside the setting's range.
    OutOfRange {
        /// The setting's name.
        name: &'static str,
        /// The smallest value allowed.
        min: f64,
        /// The largest value allowed.
        max: f64,
        /// The value given.
        given: String,
    },
}

impl std::fmt::Display for SettingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingError::Unreadable { reason, .. } => f.write_str(reason),
            SettingError::OutOfRange {
                name,
                min,
                max,
                given,
            } => write!(f, "{name} must be between {min} and {max}, not {given}"),
        }
    }
}

impl std::error::Error for SettingError {}

/// How a setting is given on the page (and checked everywhere).
#[derive(Debug, Clone, Copy)]
pub enum Control {
    /// A number from `min` to `max`; `whole` numbers only when `step` is 1.
    Number {
        /// The smallest value allowed.
        min: f64,
        /// The largest value allowed.
        max: f64,
        /// The step between values (1: whole numbers only).
        step: f64,
    },
    /// One of a choice's names: `all` are accepted, the page offers `offered`.
    Choice {
        /// Every name accepted.
        all: fn() -> Vec<&'static str>,
        /// The names the page offers.
        offered: fn() -> Vec<&'static str>,
    },
    /// One of the corpora the server offers (`all`: every one).
    Corpus,
}

/// One count setting a person may change: its one name and everything that reads or shows it.
pub struct CountSetting {
    /// Its name in the URL, the form, the JSON and (with `-` for `_`) the command line.
    pub name: &'static str,
    /// Its label on the page.
    pub label: &'static str,
    /// What it does, for the command line's help and the API description.
    pub help: &'static str,
    /// How it is given on the page.
    pub control: Control,
    /// Whether it says where snippets come from (an evaluation over stored snippet sets has
    /// no use for it).
    pub retrieval: bool,
    /// Reads a value as given (trimmed) into the settings.
    pub read: fn(&mut CountSettings, &str) -> Result<(), SettingError>,
    /// Writes the value back as it is read.
    pub write: fn(&CountSettings) -> String,
}

impl CountSetting {
    /// Its command-line flag, without the dashes (`min-relevance`).
    pub fn flag(&self) -> String {
        self.name.replace('_', "-")
    }
}

fn number(name: &'static str, given: &str) -> Result<f64, SettingError> {
    match given.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(SettingError::Unreadable {
            name,
            reason: format!("{name} must be a number, not “{given}”"),
        }),
    }
}

fn whole(name: &'static str, given: &str) -> Result<usize, SettingError> {
    match given.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && v.fract() == 0.0 => Ok(v as usize),
        _ => Err(SettingError::Unreadable {
            name,
            reason: format!("{name} must be a whole number, not “{given}”"),
        }),
    }
}

fn chosen<T: Choice>(name: &'static str, given: &str) -> Result<T, SettingError> {
    T::choose(given).map_err(|unknown| SettingError::Unreadable {
        name,
        reason: unknown.to_string(),
    })
}

fn names<T: Choice>() -> Vec<&'static str> {
    T::all().iter().map(|c| c.choice_name()).collect()
}

/// The instance scorings the page offers: the reader's stay out of the panel (on NQ dev they
/// rank instances no better than type compatibility, `tally eval instances`, and they cost a
/// reading of the snippets); the URL and the command line take them.
fn offered_instances() -> Vec<&'static str> {
    names::<InstanceScoring>()
        .into_iter()
        .filter(|n| !n.starts_with("reader"))
        .collect()
}

const FRACTION: Control = Control::Number {
    min: 0.0,
    max: 1.0,
    step: 0.05,
};

/// Every count setting a person may change, in the order the page shows them. Adding one: a
/// field in [`CountSettings`] with its default, an entry here, its use in the engine, a line
/// in `docs/count.md` (`docs/layout.md` walks through it).
pub const COUNT_SETTINGS: [CountSetting; 11] = [
    CountSetting {
        name: "snippets",
        label: "Snippets",
        help: "Snippets BM25 retrieves for a question without a stored snippet set",
        control: Control::Number {
            min: 1.0,
            max: MAX_SNIPPETS as f64,
            step: 1.0,
        },
        retrieval: true,
        read: |s, v| {
            s.snippets = whole("snippets", v)?;
            Ok(())
        },
        write: |s| s.snippets.to_string(),
    },
    CountSetting {
        name: "threshold",
        label: "Span threshold",
        help: "Least span confidence for a count to take part",
        control: FRACTION,
        retrieval: false,
        read: |s, v| {
            s.threshold = number("threshold", v)?;
            Ok(())
        },
        write: |s| s.threshold.to_string(),
    },
    CountSetting {
        name: "strategy",
        label: "Consolidation",
        help: "How counts are consolidated into one",
        control: Control::Choice {
            all: names::<Strategy>,
            offered: names::<Strategy>,
        },
        retrieval: false,
        read: |s, v| {
            s.strategy = chosen("strategy", v)?;
            Ok(())
        },
        write: |s| s.strategy.name().into(),
    },
    CountSetting {
        name: "theta",
        label: "CNP band θ",
        help: "Relative band around the answer within which a count is a synonym",
        control: FRACTION,
        retrieval: false,
        read: |s, v| {
            s.context.theta = number("theta", v)?;
            Ok(())
        },
        write: |s| s.context.theta.to_string(),
    },
    CountSetting {
        name: "instances",
        label: "Instance scoring",
        help: "How instances are ranked",
        control: Control::Choice {
            all: names::<InstanceScoring>,
            offered: offered_instances,
        },
        retrieval: false,
        read: |s, v| {
            s.instances = chosen("instances", v)?;
            Ok(())
        },
        write: |s| s.instances.name().into(),
    },
    CountSetting {
        name: "corpus",
        label: "Corpus",
        help: "Answer from this corpus of the snippet index only (all: every one)",
        control: Control::Corpus,
        retrieval: true,
        read: |s, v| {
            let v = v.trim();
            s.corpus = (!v.is_empty() && v != ALL_CORPORA).then(|| v.to_string());
            Ok(())
        },
        write: |s| s.corpus.clone().unwrap_or_else(|| ALL_CORPORA.into()),
    },
    CountSetting {
        name: "min_relevance",
        label: "Least relevance",
        help: "Read counts only from passages this relevant to the question's subject (the \
               rarity-weighted share of its subject words a passage or its title names; 0: \
               every passage)",
        control: FRACTION,
        retrieval: false,
        read: |s, v| {
            s.min_relevance = number("min_relevance", v)?;
            Ok(())
        },
        write: |s| s.min_relevance.to_string(),
    },
    CountSetting {
        name: "abstain_below",
        label: "Abstain below",
        help: "Say \"no reliable answer\" when the answer's support is below this (0: always \
               answer)",
        control: FRACTION,
        retrieval: false,
        read: |s, v| {
            s.abstain_below = number("abstain_below", v)?;
            Ok(())
        },
        write: |s| s.abstain_below.to_string(),
    },
    CountSetting {
        name: "statements",
        label: "Clear statements",
        help: "What a clear statement of the count asked for does: off, lift-abstention (it \
               answers where the support was too low) or override (it is the answer)",
        control: Control::Choice {
            all: names::<StatementRule>,
            offered: names::<StatementRule>,
        },
        retrieval: false,
        read: |s, v| {
            s.statements = chosen("statements", v)?;
            Ok(())
        },
        write: |s| s.statements.name().into(),
    },
    CountSetting {
        name: "scorer",
        label: "Span scorer",
        help: "The candidate ranker over the span model and the other evidence, the span model \
               alone (neural), lexical overlap or hybrid (neural and lexical mean)",
        control: Control::Choice {
            all: names::<ScorerKind>,
            offered: names::<ScorerKind>,
        },
        retrieval: false,
        read: |s, v| {
            s.scorer = chosen("scorer", v)?;
            Ok(())
        },
        write: |s| s.scorer.name().into(),
    },
    CountSetting {
        name: "min_counts",
        label: "Relax until counts",
        help: "Lower the threshold by 0.1 until this many counts pass (0: never)",
        control: Control::Number {
            min: 0.0,
            max: 1000.0,
            step: 1.0,
        },
        retrieval: false,
        read: |s, v| {
            let n = whole("min_counts", v)?;
            s.relax_threshold = n > 0;
            s.min_counts = n;
            Ok(())
        },
        write: |s| if s.relax_threshold { s.min_counts } else { 0 }.to_string(),
    },
];

/// The count setting named `name`.
pub fn count_setting(name: &str) -> Option<&'static CountSetting> {
    COUNT_SETTINGS.iter().find(|s| s.name == name)
}
