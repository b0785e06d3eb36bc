//! A question as people ask it: the text, the mode and the settings, read once from a query
//! string or a form ([`Ask::from_params`]: numbers checked, choices read by name, problems
//! reported), written back as the URL that reproduces the answer, and the cleaning every text
//! from a client gets. The page, the API, the server's answering and the study share it.

use serde::{Deserialize, Serialize};

use crate::count::{count_setting, COUNT_SETTINGS};
use crate::search::{DEFAULT_ALPHA, DEFAULT_RESULTS};
use crate::{Choice, CountSettings, Mode, QuestionKind, Ranker, SnippetSource, SortOrder};

/// Longest question accepted, in characters (the API and the page say so when it is longer).
pub const MAX_QUESTION_CHARS: usize = 500;

/// The query parameters of a question: the text, the mode and the settings of each pipeline
/// (the names [`Ask::from_params`] reads; the API refuses others). The count pipeline's are
/// those of [`COUNT_SETTINGS`] and [`COUNT_SOURCE_PARAMETERS`].
pub const QUESTION_PARAMETERS: [&str; 2] = ["q", "mode"];
/// Where a count question's snippets come from (besides [`COUNT_SETTINGS`]).
pub const COUNT_SOURCE_PARAMETERS: [&str; 2] = ["snippet_source", "snippet_set"];
/// How a quantity search is ranked and shown (besides the question's parameters).
pub const SEARCH_PARAMETERS: [&str; 4] = ["ranker", "alpha", "k", "sort"];

/// Whether `name` is one of a count question's parameters.
pub fn is_count_parameter(name: &str) -> bool {
    count_setting(name).is_some() || COUNT_SOURCE_PARAMETERS.contains(&name)
}

/// How a value answer is shown: the unit chosen on its page (the answer's own when absent).
pub const VALUE_PARAMETERS: [&str; 1] = ["unit"];

/// Longest unit id a link may carry (ids are unit names such as `foot` or `metre per second`).
const MAX_UNIT_CHARS: usize = 64;

/// Text as Tally answers and stores it: without NUL and the other control characters
/// (PostgreSQL's text and JSON types refuse NUL; the tokenizer and the page have no use for the
/// rest). Line breaks and tabs stay. Every text from a client passes here once, at the server's
/// edge.
pub fn clean_text(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
        .collect()
}

/// Settings a person may change; kept in the URL (and a cookie). The defaults are the engine's
/// (the best measured settings), taken from the types they are defined with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The count pipeline's settings, carried to the engine as they are.
    pub count: CountSettings,
    /// Quantity-search ranker.
    pub ranker: Ranker,
    /// Weight of the quantity score.
    pub alpha: f64,
    /// Order of search results.
    pub sort: SortOrder,
    /// Search results shown.
    pub k: usize,
    /// Where count questions take their snippets from: the corpus, or the web (when the server
    /// has a web search configured).
    #[serde(default)]
    pub snippet_source: SnippetSource,
    /// A stored web snippet set to answer from again, exactly as before (implies the web).
    #[serde(default)]
    pub snippet_set: Option<i64>,
    /// The unit a value answer is shown in (a unit id, such as `foot`); the answer's own when
    /// absent. It changes how the answer reads, not the answer.
    #[serde(default)]
    pub unit: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            count: CountSettings::default(),
            ranker: Ranker::DEFAULT,
            alpha: DEFAULT_ALPHA,
            sort: SortOrder::default(),
            k: DEFAULT_RESULTS,
            snippet_source: SnippetSource::default(),
            snippet_set: None,
            unit: None,
        }
    }
}

pub use crate::count::ALL_CORPORA;

impl Settings {
    /// The settings that differ from the defaults, as a URL query (`snippets=20&k=5`);
    /// empty when all are the defaults.
    pub fn changed_query(&self) -> String {
        let (s, d) = (self, Settings::default());
        let named = |value: &'static str| value.to_string();
        let search = [
            ("ranker", named(s.ranker.name()), named(d.ranker.name())),
            ("alpha", s.alpha.to_string(), d.alpha.to_string()),
            ("sort", named(s.sort.name()), named(d.sort.name())),
            ("k", s.k.to_string(), d.k.to_string()),
            (
                "snippet_source",
                named(s.snippet_source.name()),
                named(d.snippet_source.name()),
            ),
        ]
        .into_iter()
        .filter(|(_, value, default)| value != default)
        .map(|(name, value, _)| (name, value));
        let mut pairs: Vec<String> = s
            .count
            .changed()
            .into_iter()
            .chain(search)
            .map(|(name, value)| format!("{name}={}", encode(&value)))
            .collect();
        if let Some(set) = s.snippet_set {
            pairs.push(format!("snippet_set={set}"));
        }
        if let Some(unit) = &s.unit {
            pairs.push(format!("unit={}", encode(unit)));
        }
        pairs.join("&")
    }

    /// The settings an answer of `kind` uses, the others at their defaults: what its links
    /// carry (a value answer's link does not carry the count settings, and does carry its unit).
    pub fn used_by(&self, kind: QuestionKind) -> Settings {
        let d = Settings::default();
        match kind {
            QuestionKind::Count => Settings {
                count: self.count.clone(),
                snippet_source: self.snippet_source,
                snippet_set: self.snippet_set,
                ..d
            },
            // A value question keeps to the corpus asked, as a count does (issue 73).
            QuestionKind::Value => Settings {
                unit: self.unit.clone(),
                count: crate::count::CountSettings {
                    corpus: self.count.corpus.clone(),
                    ..d.count.clone()
                },
                ..d
            },
            // A search keeps to the corpus asked too (issue 98).
            QuestionKind::Quantity | QuestionKind::Search => Settings {
                ranker: self.ranker,
                alpha: self.alpha,
                sort: self.sort,
                k: self.k,
                count: crate::count::CountSettings {
                    corpus: self.count.corpus.clone(),
                    ..d.count.clone()
                },
                ..d
            },
        }
    }

    /// The settings an answer of `kind` is computed from: [`Settings::used_by`] without the
    /// unit it is shown in (the answer in feet is the answer in metres). Answers are stored and
    /// cached under these.
    pub fn computing(&self, kind: QuestionKind) -> Settings {
        Settings {
            unit: None,
            ..self.used_by(kind)
        }
    }
}

/// One question as asked: the text, the mode and the settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Ask {
    /// The question's text.
    pub q: String,
    /// How it is to be answered (`auto`: the kind Tally detects).
    pub mode: Mode,
    /// The settings of each pipeline.
    pub settings: Settings,
}

impl Ask {
    /// The URL that reproduces this answer (`/?q=…&mode=…` plus the settings that differ from
    /// the defaults).
    pub fn url(&self) -> String {
        let mut pairs = vec![format!("q={}", encode(&self.q))];
        if self.mode != Mode::Auto {
            pairs.push(format!("mode={}", self.mode.name()));
        }
        let settings = self.settings.changed_query();
        if !settings.is_empty() {
            pairs.push(settings);
        }
        format!("/?{}", pairs.join("&"))
    }

    /// The link to this answer of `kind`: the question with only the settings that kind uses.
    pub fn share_url(&self, kind: QuestionKind) -> String {
        Ask {
            settings: self.settings.used_by(kind),
            ..self.clone()
        }
        .url()
    }

    /// The same question shown in another unit (`None`: the answer's own).
    pub fn with_unit(&self, unit: Option<String>) -> Ask {
        let mut ask = self.clone();
        ask.settings.unit = unit;
        ask
    }

    /// The same question with its text cleaned (see [`clean_text`]).
    pub fn cleaned(mut self) -> Ask {
        self.q = clean_text(&self.q);
        self
    }

    /// The same question with another sort order.
    pub fn with_sort(&self, sort: SortOrder) -> Ask {
        let mut ask = self.clone();
        ask.settings.sort = sort;
        ask
    }

    /// The same question in another mode.
    pub fn with_mode(&self, mode: Mode) -> Ask {
        let mut ask = self.clone();
        ask.mode = mode;
        ask
    }
}

/// The choice named by parameter `name`, if it is given: an unknown name keeps the default
/// and is reported.
fn choose<T: Choice>(
    get: &impl Fn(&str) -> Option<String>,
    name: &str,
    target: &mut T,
    problems: &mut Vec<String>,
) {
    if let Some(given) = get(name).filter(|v| !v.trim().is_empty()) {
        match T::choose(&given) {
            Ok(value) => *target = value,
            Err(unknown) => problems.push(unknown.to_string()),
        }
    }
}

/// The one key a question is known by wherever answers, snippet sets and stored snippets are
/// looked up: its words in lower case (spacing, case and punctuation aside), so "How many
/// moons?" and "how many  moons" are the same question.
pub fn question_key(question: &str) -> String {
    question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A URL query value encoded as a form encodes it (`application/x-www-form-urlencoded`: a
/// space is `+`, every byte but letters, digits and `*-._` is percent-encoded).
pub fn encode(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

impl Ask {
    /// Reads a question from URL parameters (`q`, `mode` and the settings' names). Values that
    /// are not numbers where numbers belong keep their defaults and are reported.
    pub fn from_params(get: impl Fn(&str) -> Option<String>) -> (Ask, Vec<String>) {
        let mut problems = Vec::new();
        let mut settings = Settings::default();
        let given = |name: &str| get(name).filter(|v| !v.trim().is_empty());
        for setting in &COUNT_SETTINGS {
            if let Some(raw) = given(setting.name) {
                if let Err(e) = (setting.read)(&mut settings.count, &raw) {
                    problems.push(e.to_string());
                }
            }
        }
        if let Some(raw) = given("alpha") {
            match raw.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => settings.alpha = v,
                _ => problems.push(format!("alpha must be a number, not “{raw}”")),
            }
        }
        if let Some(raw) = given("k") {
            match raw.trim().parse::<f64>() {
                Ok(v) if v.is_finite() && v.fract() == 0.0 => settings.k = v.max(0.0) as usize,
                _ => problems.push(format!("k must be a whole number, not “{raw}”")),
            }
        }
        if let Some(raw) = get("snippet_set").filter(|v| !v.trim().is_empty()) {
            match raw.trim().parse::<i64>() {
                Ok(id) if id > 0 => settings.snippet_set = Some(id),
                _ => problems.push(format!(
                    "snippet_set must be a snippet set's number, not “{raw}”"
                )),
            }
        }
        if let Some(unit) = get("unit").filter(|v| !v.trim().is_empty()) {
            // Matched against the answer's units only: an unknown one shows the answer's own.
            let unit = clean_text(unit.trim());
            if unit.chars().count() <= MAX_UNIT_CHARS {
                settings.unit = Some(unit);
            } else {
                problems.push(format!(
                    "unit must be a unit's name, at most {MAX_UNIT_CHARS} characters"
                ));
            }
        }
        choose(&get, "ranker", &mut settings.ranker, &mut problems);
        choose(&get, "sort", &mut settings.sort, &mut problems);
        choose(
            &get,
            "snippet_source",
            &mut settings.snippet_source,
            &mut problems,
        );
        let mut mode = Mode::Auto;
        choose(&get, "mode", &mut mode, &mut problems);
        let ask = Ask {
            q: get("q").unwrap_or_default(),
            mode,
            settings,
        };
        (ask, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parameter_lists_are_the_names_from_params_reads() {
        let read = std::cell::RefCell::new(Vec::new());
        let _ = Ask::from_params(|name| {
            read.borrow_mut().push(name.to_string());
            None
        });
        let mut read = read.into_inner();
        let mut listed: Vec<String> = QUESTION_PARAMETERS
            .iter()
            .chain(&COUNT_SETTINGS.map(|s| s.name))
            .chain(&COUNT_SOURCE_PARAMETERS)
            .chain(&SEARCH_PARAMETERS)
            .chain(&VALUE_PARAMETERS)
            .map(|n| n.to_string())
            .collect();
        read.sort();
        listed.sort();
        assert_eq!(read, listed);
    }

    #[test]
    fn links_carry_what_the_answer_kind_uses_and_answers_ignore_the_unit() {
        let (ask, problems) = Ask::from_params(|name| {
            match name {
                "q" => Some("how tall is the eiffel tower"),
                "snippets" => Some("30"),
                "sort" => Some("value-descending"),
                "unit" => Some("foot"),
                _ => None,
            }
            .map(str::to_string)
        });
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            ask.share_url(QuestionKind::Value),
            "/?q=how+tall+is+the+eiffel+tower&unit=foot"
        );
        assert_eq!(
            ask.share_url(QuestionKind::Count),
            "/?q=how+tall+is+the+eiffel+tower&snippets=30"
        );
        assert_eq!(
            ask.share_url(QuestionKind::Quantity),
            "/?q=how+tall+is+the+eiffel+tower&sort=value-descending"
        );
        // Shown in feet or metres, it is one answer; the count settings are not a value's.
        assert_eq!(
            ask.settings.computing(QuestionKind::Value),
            Settings::default()
        );
        let in_metres = ask.with_unit(None);
        assert_eq!(
            in_metres.settings.computing(QuestionKind::Count),
            ask.settings.computing(QuestionKind::Count)
        );
        let (_, problems) = Ask::from_params(|name| (name == "unit").then(|| "x".repeat(65)));
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn a_question_is_known_by_its_words() {
        assert_eq!(question_key("  How many\tMOONS? "), "how many moons");
        assert_eq!(question_key("Zürich's 2.5-km lake"), "zürich s 2 5 km lake");
    }

    #[test]
    fn clean_text_drops_nul_and_control_characters_only() {
        assert_eq!(clean_text("how many\0 cats\u{7}?"), "how many cats?");
        assert_eq!(clean_text("line one\nline\ttwo"), "line one\nline\ttwo");
        assert_eq!(clean_text("Zürich – 42 °C ✓"), "Zürich – 42 °C ✓");
    }

    #[test]
    fn urls_carry_the_question_and_changed_settings_only() {
        let mut ask = Ask {
            q: "how many moons & rings?".into(),
            mode: Mode::Auto,
            settings: Settings::default(),
        };
        assert_eq!(ask.url(), "/?q=how+many+moons+%26+rings%3F");
        ask.settings.count.context.theta = 0.2;
        assert_eq!(
            ask.with_mode(Mode::Count).url(),
            "/?q=how+many+moons+%26+rings%3F&mode=count&theta=0.2"
        );
        assert!(ask
            .with_sort(SortOrder::ValueAscending)
            .url()
            .ends_with("&sort=value-ascending"));
    }

    #[test]
    fn params_give_settings_and_bad_numbers_are_reported() {
        let params = [
            ("q", "phones under $300"),
            ("ranker", "qbm25"),
            ("alpha", "2"),
            ("theta", "lots"),
        ];
        let get = |name: &str| {
            params
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        };
        let (ask, problems) = Ask::from_params(get);
        assert_eq!(ask.q, "phones under $300");
        assert_eq!(ask.mode, Mode::Auto);
        assert_eq!(ask.settings.ranker, Ranker::Qbm25);
        assert_eq!(ask.settings.alpha, 2.0);
        assert_eq!(ask.settings.count, CountSettings::default());
        assert_eq!(
            problems,
            vec!["theta must be a number, not “lots”".to_string()]
        );
        // The URL round-trips through the parameters.
        assert_eq!(ask.url(), "/?q=phones+under+%24300&ranker=qbm25&alpha=2");
    }

    #[test]
    fn choices_are_read_by_name_once_and_unknown_names_are_reported() {
        let params = [
            ("q", "how many moons"),
            ("strategy", "median"),
            ("sort", " value-descending "),
            ("instances", "mean"),
            ("snippet_source", "bing"),
        ];
        let (ask, problems) = Ask::from_params(|name| {
            params
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        });
        assert_eq!(ask.settings.count.strategy, crate::Strategy::Median);
        assert_eq!(ask.settings.sort, SortOrder::ValueDescending);
        assert_eq!(
            ask.settings.count.instances,
            CountSettings::default().instances
        );
        assert_eq!(ask.settings.snippet_source, SnippetSource::Corpus);
        assert_eq!(
            problems,
            vec![
                "unknown instance scoring `mean` (qa-only, context-frequency, summed-confidence, type-compatibility, reader, reader-type-compatibility, learned)".to_string(),
                "unknown snippet_source `bing` (corpus, web)".to_string(),
            ]
        );
        assert_eq!(
            ask.url(),
            "/?q=how+many+moons&strategy=median&sort=value-descending"
        );
    }

    #[test]
    fn the_mode_is_parsed_once_at_the_edge() {
        let ask_with = |mode: &str| {
            Ask::from_params(|name| match name {
                "q" => Some("how many moons".to_string()),
                "mode" => Some(mode.to_string()),
                _ => None,
            })
        };
        for mode in Mode::ALL {
            let (ask, problems) = ask_with(mode.name());
            assert_eq!(ask.mode, mode);
            assert!(problems.is_empty(), "{problems:?}");
            let back = ask.url();
            assert_eq!(back.contains("mode="), mode != Mode::Auto, "{back}");
        }
        let (ask, problems) = ask_with(" value ");
        assert_eq!((ask.mode, problems.len()), (Mode::Value, 0));
        let (ask, problems) = ask_with("guess");
        assert_eq!(ask.mode, Mode::Auto);
        assert_eq!(
            problems,
            vec!["unknown mode `guess` (auto, count, value, quantity, search)".to_string()]
        );
    }
}
