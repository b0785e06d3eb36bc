//! What the pages send and show, as plain serde types that compile for the browser too: the
//! question with its settings, the answer with where it is stored (the answer itself is
//! `tally-types`' [`AnswerBody`], the engine's own type), feedback, history and examples.

use serde::{Deserialize, Serialize};
use tally_types::AnswerBody;
use tally_types::{
    InstanceScoring, Mode, QuestionKind, Ranker, SnippetSource, SortOrder, Strategy,
};

/// Cookie holding the person's theme (`light` or `dark`; absent: follow the system).
pub const THEME_COOKIE: &str = "tally_theme";
/// Cookie holding the settings of the person's last question that differ from the defaults, as
/// a URL query; the home page starts from them.
pub const SETTINGS_COOKIE: &str = "tally_settings";

/// Cookie holding the visitor's anonymous random id: their history lists the questions asked
/// with it.
pub const VISITOR_COOKIE: &str = "tally_visitor";

/// Longest question accepted, in characters (the API and the page say so when it is longer).
pub const MAX_QUESTION_CHARS: usize = 500;

/// The query parameters of a question: the text, the mode and the settings of each pipeline
/// (the names [`Ask::from_params`] reads; the API refuses others).
pub const QUESTION_PARAMETERS: [&str; 2] = ["q", "mode"];
pub const COUNT_PARAMETERS: [&str; 8] = [
    "snippets",
    "snippet_source",
    "snippet_set",
    "threshold",
    "strategy",
    "theta",
    "instances",
    "corpus",
];
pub const SEARCH_PARAMETERS: [&str; 4] = ["ranker", "alpha", "k", "sort"];

/// Text as Tally answers and stores it: without NUL and the other control characters
/// (PostgreSQL's text and JSON types refuse NUL; the tokenizer and the page have no use for the
/// rest). Line breaks and tabs stay. Every text from a client passes here once, at the server's
/// edge.
pub fn clean_text(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
        .collect()
}

/// Which pipeline answers: chosen from the question (`auto`) or by the person asking.
pub const MODES: [(Mode, &str); 5] = [
    (Mode::Auto, "Detect"),
    (Mode::Count, "Count question"),
    (Mode::Value, "Value question"),
    (Mode::Quantity, "Quantity condition"),
    (Mode::Search, "Plain search"),
];

/// Settings a person may change; kept in the URL (and a cookie). The defaults are the best
/// measured settings (the server's tests check them against the engine's defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Snippets retrieved for a count question without a stored snippet set.
    pub snippets: usize,
    /// Span confidence threshold.
    pub threshold: f64,
    /// Count consolidation strategy.
    pub strategy: String,
    /// CNP band θ.
    pub theta: f64,
    /// Instance ranking.
    pub instances: String,
    /// Quantity-search ranker.
    pub ranker: String,
    /// Weight of the quantity score.
    pub alpha: f64,
    /// Order of search results.
    pub sort: String,
    /// Search results shown.
    pub k: usize,
    /// Corpus of the snippet index that count questions retrieve from (`all`: every one).
    #[serde(default = "all_corpora")]
    pub corpus: String,
    /// Where count questions take their snippets from: `corpus` or `web` (when the server has
    /// a web search configured).
    #[serde(default = "corpus_snippets")]
    pub snippet_source: String,
    /// A stored web snippet set to answer from again, exactly as before (implies the web).
    #[serde(default)]
    pub snippet_set: Option<i64>,
}

fn corpus_snippets() -> String {
    SnippetSource::Corpus.name().into()
}

fn all_corpora() -> String {
    ALL_CORPORA.into()
}

pub use tally_types::count::ALL_CORPORA;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            snippets: 50,
            threshold: 0.2,
            strategy: STRATEGIES[0].into(),
            theta: 0.3,
            instances: INSTANCE_SCORINGS[0].into(),
            ranker: Ranker::DEFAULT.name().into(),
            alpha: 1.0,
            sort: SORTS[0].0.into(),
            k: 10,
            corpus: all_corpora(),
            snippet_source: corpus_snippets(),
            snippet_set: None,
        }
    }
}

impl Settings {
    /// The settings that differ from the defaults, as a URL query (`snippets=20&theta=0.4`);
    /// empty when all are the defaults.
    pub fn changed_query(&self) -> String {
        let defaults = Settings::default();
        let s = self;
        let mut pairs = Vec::new();
        let mut add = |name: &'static str, value: String, default: String| {
            if value != default {
                pairs.push(format!("{name}={}", encode(&value)));
            }
        };
        add(
            "snippets",
            s.snippets.to_string(),
            defaults.snippets.to_string(),
        );
        add(
            "threshold",
            s.threshold.to_string(),
            defaults.threshold.to_string(),
        );
        add("strategy", s.strategy.clone(), defaults.strategy.clone());
        add("theta", s.theta.to_string(), defaults.theta.to_string());
        add("instances", s.instances.clone(), defaults.instances.clone());
        add("ranker", s.ranker.clone(), defaults.ranker.clone());
        add("alpha", s.alpha.to_string(), defaults.alpha.to_string());
        add("sort", s.sort.clone(), defaults.sort.clone());
        add("k", s.k.to_string(), defaults.k.to_string());
        add("corpus", s.corpus.clone(), defaults.corpus.clone());
        add(
            "snippet_source",
            s.snippet_source.clone(),
            defaults.snippet_source.clone(),
        );
        if let Some(set) = s.snippet_set {
            pairs.push(format!("snippet_set={set}"));
        }
        pairs.join("&")
    }
}

// The settings panel's choices, in the order shown (the default first); the names are the
// types crate's, so a renamed choice cannot drift from what the engine accepts.
pub const STRATEGIES: [&str; 4] = [
    Strategy::WeightedMedian.name(),
    Strategy::MostConfident.name(),
    Strategy::MostFrequent.name(),
    Strategy::Median.name(),
];
pub const INSTANCE_SCORINGS: [&str; 4] = [
    InstanceScoring::TypeCompatibility.name(),
    InstanceScoring::SummedConfidence.name(),
    InstanceScoring::ContextFrequency.name(),
    InstanceScoring::QaOnly.name(),
];
pub const RANKERS: [&str; 5] = [
    Ranker::Dense.name(),
    Ranker::Qbm25.name(),
    Ranker::Bm25Filter.name(),
    Ranker::Bm25.name(),
    Ranker::Entity.name(),
];
pub const SORTS: [(&str, &str); 3] = [
    (SortOrder::Relevance.name(), "Relevance"),
    (SortOrder::ValueAscending.name(), "Value ↑"),
    (SortOrder::ValueDescending.name(), "Value ↓"),
];

/// One question as asked: the text, the mode and the settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Ask {
    pub q: String,
    pub mode: Mode,
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

    /// The same question with its text cleaned (see [`clean_text`]).
    pub fn cleaned(mut self) -> Ask {
        self.q = clean_text(&self.q);
        self
    }

    /// The same question with another sort order.
    pub fn with_sort(&self, sort: &str) -> Ask {
        let mut ask = self.clone();
        ask.settings.sort = sort.to_string();
        ask
    }

    /// The same question in another mode.
    pub fn with_mode(&self, mode: Mode) -> Ask {
        let mut ask = self.clone();
        ask.mode = mode;
        ask
    }
}

/// Percent-encoding for a URL query value.
pub fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// An answer as the page shows it, with where it is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answered {
    pub ask: Ask,
    /// The kind of question it was answered as.
    pub kind: QuestionKind,
    /// Why that kind ("it asks how many languages"), or that the person chose it.
    pub kind_reason: String,
    pub chosen_by_user: bool,
    /// The stored answer's id (feedback refers to it); `None` when it could not be stored.
    pub answer_id: Option<i64>,
    /// Why the answer was not stored, when it was not.
    pub not_stored: Option<String>,
    /// Random per answer: feedback tokens derive from it, so a re-sent form is stored once.
    pub feedback_key: String,
    pub body: AnswerBody,
}

// ---- feedback, history, examples ----

/// Feedback from a form on the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedbackForm {
    pub answer_id: i64,
    /// answer, cnp, instance, search_result or observation.
    pub part: String,
    pub part_ref: Option<String>,
    pub verdict: String,
    pub corrected_value: Option<String>,
    pub moved_to: Option<String>,
    pub comment: Option<String>,
    /// The answer's feedback key; with part, part_ref and verdict it makes the idempotency token.
    pub key: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedbackSaved {
    pub id: i64,
    /// False when the same submission had been stored before.
    pub created: bool,
}

/// A stored question with a one-line summary of its latest answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryItem {
    pub question_id: i64,
    pub text: String,
    pub kind: String,
    pub asked_at: String,
    pub summary: String,
    pub feedback: i64,
    pub url: String,
}

/// Questions to click.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Examples {
    pub count: Vec<String>,
    pub quantity: Vec<String>,
    /// The corpora of the snippet index, for the corpus setting.
    #[serde(default)]
    pub corpora: Vec<String>,
    /// The web search provider configured on the server (`searxng`, `brave`), if any: then the
    /// settings offer "Snippets: corpus / web".
    #[serde(default)]
    pub web_search: Option<String>,
}

impl Ask {
    /// Reads a question from URL parameters (`q`, `mode` and the settings' names). Values that
    /// are not numbers where numbers belong keep their defaults and are reported.
    pub fn from_params(get: impl Fn(&str) -> Option<String>) -> (Ask, Vec<String>) {
        let mut problems = Vec::new();
        let mut settings = Settings::default();
        let mut number = |name: &str, target: &mut f64| {
            if let Some(raw) = get(name).filter(|v| !v.trim().is_empty()) {
                let whole = matches!(name, "snippets" | "k");
                match raw.trim().parse::<f64>() {
                    Ok(v) if v.is_finite() && (!whole || v.fract() == 0.0) => *target = v,
                    _ if whole => {
                        problems.push(format!("{name} must be a whole number, not “{raw}”"))
                    }
                    _ => problems.push(format!("{name} must be a number, not “{raw}”")),
                }
            }
        };
        number("threshold", &mut settings.threshold);
        number("theta", &mut settings.theta);
        number("alpha", &mut settings.alpha);
        let mut snippets = settings.snippets as f64;
        number("snippets", &mut snippets);
        let mut k = settings.k as f64;
        number("k", &mut k);
        settings.snippets = snippets.max(0.0) as usize;
        settings.k = k.max(0.0) as usize;
        let text = |name: &str, target: &mut String| {
            if let Some(v) = get(name).filter(|v| !v.trim().is_empty()) {
                *target = v.trim().to_string();
            }
        };
        text("strategy", &mut settings.strategy);
        text("instances", &mut settings.instances);
        text("ranker", &mut settings.ranker);
        text("sort", &mut settings.sort);
        text("corpus", &mut settings.corpus);
        text("snippet_source", &mut settings.snippet_source);
        if let Some(raw) = get("snippet_set").filter(|v| !v.trim().is_empty()) {
            match raw.trim().parse::<i64>() {
                Ok(id) if id > 0 => settings.snippet_set = Some(id),
                _ => problems.push(format!(
                    "snippet_set must be a snippet set's number, not “{raw}”"
                )),
            }
        }
        let mode = match get("mode").map(|m| m.trim().to_string()) {
            Some(name) if !name.is_empty() => Mode::parse(&name).unwrap_or_else(|| {
                problems.push(Mode::unknown(&name));
                Mode::Auto
            }),
            _ => Mode::Auto,
        };
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
            .chain(&COUNT_PARAMETERS)
            .chain(&SEARCH_PARAMETERS)
            .map(|n| n.to_string())
            .collect();
        read.sort();
        listed.sort();
        assert_eq!(read, listed);
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
        ask.settings.theta = 0.2;
        assert_eq!(
            ask.with_mode(Mode::Count).url(),
            "/?q=how+many+moons+%26+rings%3F&mode=count&theta=0.2"
        );
        assert!(ask
            .with_sort("value-ascending")
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
        assert_eq!(ask.settings.ranker, "qbm25");
        assert_eq!(ask.settings.alpha, 2.0);
        assert_eq!(ask.settings.theta, Settings::default().theta);
        assert_eq!(
            problems,
            vec!["theta must be a number, not “lots”".to_string()]
        );
        // The URL round-trips through the parameters.
        assert_eq!(ask.url(), "/?q=phones+under+%24300&ranker=qbm25&alpha=2");
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
