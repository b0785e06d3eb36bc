//! Search settings as people choose them (choices already read by name, numbers from a command
//! line, a URL or a form), checked once into the engine's settings. The command line and the web
//! app both come here, so a setting means the same everywhere and is refused with the same
//! sentence. (Count settings are checked where they are defined: `CountSettings::check`.)

use crate::error::EngineError;
use crate::search::SearchSettings;
use tally_types::{Ranker, SortOrder};

pub(crate) use tally_types::search::MAX_ALPHA;

/// Search settings as chosen.
#[derive(Debug, Clone)]
pub struct SearchChoices {
    /// The ranker that orders the hits.
    pub ranker: Ranker,
    /// The weight of the quantity score against the words' score.
    pub alpha: f64,
    /// How many hits to return.
    pub k: usize,
    /// The order the hits are shown in.
    pub sort: SortOrder,
}

impl SearchChoices {
    /// The default settings with these choices, each checked.
    pub fn settings(&self) -> Result<SearchSettings, EngineError> {
        if !(0.0..=MAX_ALPHA).contains(&self.alpha) {
            return Err(EngineError::OutOfRange {
                what: "alpha",
                range: format!("between 0 and {MAX_ALPHA}"),
                given: self.alpha.to_string(),
            });
        }
        if self.k == 0 {
            return Err(EngineError::OutOfRange {
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
        let bad = SearchChoices {
            ranker: Ranker::Bm25,
            alpha: -1.0,
            k: 10,
            sort: SortOrder::Relevance,
        };
        assert_eq!(
            bad.settings().unwrap_err().to_string(),
            "alpha must be between 0 and 100, not -1"
        );
    }
}
