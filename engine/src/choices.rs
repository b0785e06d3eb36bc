//! Settings as people choose them (choices already read by name, numbers from a command line,
//! a URL or a form), checked once into the engine's settings. The command line and the web app
//! both come here, so a setting means the same everywhere and is refused with the same sentence.

use crate::count::consolidate::Strategy;
use crate::count::instances::InstanceScoring;
use crate::count::pipeline::{CountSettings, ScorerKind};
use crate::count::snippet_index::MAX_K;
use crate::count::statement::StatementRule;
use crate::search::{Ranker, SearchSettings, SortOrder};

/// Why a number was refused (a name is refused where it is read: [`tally_types::Choice`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ChoiceError {
    #[error("{what} must be {range}, not {given}")]
    OutOfRange {
        what: &'static str,
        range: String,
        given: String,
    },
}

/// A fraction from 0 to 1.
fn fraction(what: &'static str, value: f64) -> Result<f64, ChoiceError> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(ChoiceError::OutOfRange {
            what,
            range: "between 0 and 1".into(),
            given: value.to_string(),
        })
    }
}

/// Count settings as chosen; `None` keeps the default.
#[derive(Debug, Clone, Default)]
pub struct CountChoices<'a> {
    pub strategy: Option<Strategy>,
    pub threshold: Option<f64>,
    pub abstain_below: Option<f64>,
    pub min_relevance: Option<f64>,
    pub statements: Option<StatementRule>,
    /// Lower the threshold until this many counts pass (0: never).
    pub min_counts: Option<usize>,
    pub scorer: Option<ScorerKind>,
    pub theta: Option<f64>,
    pub instance_scoring: Option<InstanceScoring>,
    pub snippets: Option<usize>,
    /// One corpus of the snippet index (`None`: all of them).
    pub corpus: Option<&'a str>,
}

impl CountChoices<'_> {
    /// The default settings with these choices, each checked.
    pub fn settings(&self) -> Result<CountSettings, ChoiceError> {
        let mut settings = CountSettings::default();
        if let Some(strategy) = self.strategy {
            settings.strategy = strategy;
        }
        if let Some(t) = self.threshold {
            settings.threshold = fraction("the threshold", t)?;
        }
        if let Some(t) = self.abstain_below {
            settings.abstain_below = fraction("the abstention threshold", t)?;
        }
        if let Some(r) = self.min_relevance {
            settings.min_relevance = fraction("the least relevance", r)?;
        }
        if let Some(rule) = self.statements {
            settings.statements = rule;
        }
        if let Some(n) = self.min_counts {
            settings.relax_threshold = n > 0;
            settings.min_counts = n;
        }
        if let Some(scorer) = self.scorer {
            settings.scorer = scorer;
        }
        if let Some(theta) = self.theta {
            settings.context.theta = fraction("θ", theta)?;
        }
        if let Some(scoring) = self.instance_scoring {
            settings.instance_scoring = scoring;
        }
        if let Some(n) = self.snippets {
            if !(1..=MAX_K).contains(&n) {
                return Err(ChoiceError::OutOfRange {
                    what: "the number of snippets",
                    range: format!("between 1 and {MAX_K}"),
                    given: n.to_string(),
                });
            }
            settings.snippets = n;
        }
        settings.corpus = self.corpus.map(String::from);
        Ok(settings)
    }
}

/// The largest weight α of the quantity score.
pub const MAX_ALPHA: f64 = 100.0;

/// Search settings as chosen.
#[derive(Debug, Clone)]
pub struct SearchChoices {
    pub ranker: Ranker,
    pub alpha: f64,
    pub k: usize,
    pub sort: SortOrder,
}

impl SearchChoices {
    /// The default settings with these choices, each checked.
    pub fn settings(&self) -> Result<SearchSettings, ChoiceError> {
        // Weights past this rank by the quantity alone already; a bound keeps every stored
        // setting a number that JSON and PostgreSQL carry both ways.
        if !(0.0..=MAX_ALPHA).contains(&self.alpha) {
            return Err(ChoiceError::OutOfRange {
                what: "α",
                range: format!("between 0 and {MAX_ALPHA}"),
                given: self.alpha.to_string(),
            });
        }
        if self.k == 0 {
            return Err(ChoiceError::OutOfRange {
                what: "k",
                range: "at least 1".into(),
                given: "0".into(),
            });
        }
        Ok(SearchSettings {
            alpha: self.alpha,
            k: self.k,
            sort: self.sort,
            ..SearchSettings::for_ranker(self.ranker)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_choices_are_the_defaults() {
        assert_eq!(
            CountChoices::default().settings().unwrap(),
            CountSettings::default()
        );
        let search = SearchSettings::default();
        let chosen = SearchChoices {
            ranker: search.ranker,
            alpha: search.alpha,
            k: search.k,
            sort: search.sort,
        };
        assert_eq!(chosen.settings().unwrap(), search);
    }

    #[test]
    fn refusals_name_the_range() {
        let bad = CountChoices {
            theta: Some(1.5),
            ..Default::default()
        };
        assert_eq!(
            bad.settings().unwrap_err().to_string(),
            "θ must be between 0 and 1, not 1.5"
        );
        let bad = SearchChoices {
            ranker: Ranker::Bm25,
            alpha: -1.0,
            k: 10,
            sort: SortOrder::Relevance,
        };
        assert_eq!(
            bad.settings().unwrap_err().to_string(),
            "α must be between 0 and 100, not -1"
        );
    }
}
