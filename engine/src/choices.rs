//! Settings as people choose them (names and numbers from a command line, a URL or a form),
//! checked once into the engine's settings. The command line and the web app both come here, so
//! a setting means the same everywhere and is refused with the same sentence, which lists the
//! choices.

use crate::count::consolidate::Strategy;
use crate::count::instances::InstanceScoring;
use crate::count::pipeline::{CountSettings, ScorerKind};
use crate::count::snippet_index::MAX_K;
use crate::search::{Ranker, SearchSettings, SortOrder};

/// Why a choice was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ChoiceError {
    #[error("unknown {what} `{given}` ({choices})")]
    Unknown {
        what: &'static str,
        given: String,
        choices: String,
    },
    #[error("{what} must be {range}, not {given}")]
    OutOfRange {
        what: &'static str,
        range: String,
        given: String,
    },
}

/// The value named `given` among `all`, or an error that lists their names.
fn pick<T: Copy>(
    what: &'static str,
    given: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    parse: fn(&str) -> Option<T>,
) -> Result<T, ChoiceError> {
    parse(given).ok_or_else(|| ChoiceError::Unknown {
        what,
        given: given.to_string(),
        choices: all.iter().map(|&v| name(v)).collect::<Vec<_>>().join(", "),
    })
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

/// Count settings by name; `None` keeps the default.
#[derive(Debug, Clone, Default)]
pub struct CountChoices<'a> {
    pub strategy: Option<&'a str>,
    pub threshold: Option<f64>,
    pub abstain_below: Option<f64>,
    /// Lower the threshold until this many counts pass (0: never).
    pub min_counts: Option<usize>,
    pub scorer: Option<&'a str>,
    pub theta: Option<f64>,
    pub instance_scoring: Option<&'a str>,
    pub snippets: Option<usize>,
    /// One corpus of the snippet index (`None`: all of them).
    pub corpus: Option<&'a str>,
}

impl CountChoices<'_> {
    /// The default settings with these choices, each checked.
    pub fn settings(&self) -> Result<CountSettings, ChoiceError> {
        let mut settings = CountSettings::default();
        if let Some(name) = self.strategy {
            settings.strategy = pick(
                "strategy",
                name,
                &Strategy::ALL,
                Strategy::name,
                Strategy::parse,
            )?;
        }
        if let Some(t) = self.threshold {
            settings.threshold = fraction("the threshold", t)?;
        }
        if let Some(t) = self.abstain_below {
            settings.abstain_below = fraction("the abstention threshold", t)?;
        }
        if let Some(n) = self.min_counts {
            settings.relax_threshold = n > 0;
            settings.min_counts = n;
        }
        if let Some(name) = self.scorer {
            settings.scorer = pick(
                "scorer",
                name,
                &ScorerKind::ALL,
                ScorerKind::name,
                ScorerKind::parse,
            )?;
        }
        if let Some(theta) = self.theta {
            settings.context.theta = fraction("θ", theta)?;
        }
        if let Some(name) = self.instance_scoring {
            settings.instance_scoring = pick(
                "instance scoring",
                name,
                &InstanceScoring::ALL,
                InstanceScoring::name,
                InstanceScoring::parse,
            )?;
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

/// Search settings by name.
#[derive(Debug, Clone)]
pub struct SearchChoices<'a> {
    pub ranker: &'a str,
    pub alpha: f64,
    pub k: usize,
    pub sort: &'a str,
}

impl SearchChoices<'_> {
    /// The default settings with these choices, each checked.
    pub fn settings(&self) -> Result<SearchSettings, ChoiceError> {
        let ranker = pick(
            "ranker",
            self.ranker,
            &Ranker::ALL,
            Ranker::name,
            Ranker::parse,
        )?;
        let sort = pick(
            "sort order",
            self.sort,
            &SortOrder::ALL,
            SortOrder::name,
            SortOrder::parse,
        )?;
        if !self.alpha.is_finite() || self.alpha < 0.0 {
            return Err(ChoiceError::OutOfRange {
                what: "α",
                range: "a number ≥ 0".into(),
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
            sort,
            ..SearchSettings::for_ranker(ranker)
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
            ranker: search.ranker.name(),
            alpha: search.alpha,
            k: search.k,
            sort: search.sort.name(),
        };
        assert_eq!(chosen.settings().unwrap(), search);
    }

    #[test]
    fn refusals_name_the_choices_and_the_range() {
        let bad = CountChoices {
            strategy: Some("mean"),
            ..Default::default()
        };
        assert_eq!(
            bad.settings().unwrap_err().to_string(),
            "unknown strategy `mean` (most-confident, most-frequent, median, weighted-median)"
        );
        let bad = CountChoices {
            theta: Some(1.5),
            ..Default::default()
        };
        assert_eq!(
            bad.settings().unwrap_err().to_string(),
            "θ must be between 0 and 1, not 1.5"
        );
        let bad = SearchChoices {
            ranker: "magic",
            alpha: 1.0,
            k: 10,
            sort: "relevance",
        };
        assert!(bad
            .settings()
            .unwrap_err()
            .to_string()
            .starts_with("unknown ranker `magic` (bm25, bm25-filter, qbm25, dense, entity)"));
    }
}
