//! Checks made once at the edge of the service: the question, its corpus, its kind and the settings.

use std::collections::BTreeSet;

use serde::Serialize;
use tally_engine::choices::SearchChoices;
use tally_engine::search::SearchSettings;
use tally_engine::{detect_kind, KindDecision};
use tally_types::count::SnippetSource;
use tally_types::request::{clean_text, Ask, Settings};
use tally_types::{CountSettings, QuestionKind};

use crate::{AnswerError, Refused};

/// What a question is checked against: the limits and sources of the service that answers it.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// The most snippets one count question may read (the operator's `--max-snippets`).
    pub max_snippets: usize,
    /// Whether a web search is configured (the `snippet_source=web` setting needs one).
    pub web: bool,
    /// The corpora a question may name, once the engines are loaded (`None` while loading: the
    /// corpus is checked when the question is answered).
    pub offered: Option<Vec<String>>,
    /// The corpora being indexed now: a question about one is told to ask again.
    pub indexing: BTreeSet<String>,
}

/// Checks a question once, before any work: its text (cleaned, then its length), the mode's kind
/// and the settings of the pipelines it may use (the others stay at their defaults), and its
/// corpus when the corpora are known.
pub fn check(ask: &Ask, limits: &Limits) -> Result<Checked, AnswerError> {
    let question = clean_text(&ask.q).trim().to_string();
    validate_question(&question)?;
    let (mode, settings) = (ask.mode, &ask.settings);
    let forced = mode.chosen_kind();
    let may_count = matches!(forced, None | Some(QuestionKind::Count));
    // Every mode keeps the corpus chosen: a value question or a search asked of a person's
    // documents stays there (issue 98: the value mode once dropped it and answered from the
    // built-in corpus).
    let count = if may_count {
        count_settings(settings)?
    } else {
        CountSettings {
            corpus: settings.count.corpus.clone(),
            ..CountSettings::default()
        }
    };
    if may_count && count.snippets > limits.max_snippets {
        return Err(Refused::TooManySnippets {
            max: limits.max_snippets,
        }
        .into());
    }
    let search = if may_count && forced.is_some() {
        SearchSettings::default()
    } else {
        search_settings(settings)?
    };
    if let Some(offered) = &limits.offered {
        check_corpus_of(&count, offered, &limits.indexing)?;
    }
    let (snippet_source, snippet_set) = if may_count {
        // A stored snippet set is the web's, answered from again.
        let source = match settings.snippet_set {
            Some(_) => SnippetSource::Web,
            None => settings.snippet_source,
        };
        if source == SnippetSource::Web && !limits.web {
            return Err(Refused::NoWebSearch.into());
        }
        (source, settings.snippet_set)
    } else {
        (SnippetSource::Corpus, None)
    };
    Ok(Checked {
        ask: Ask {
            q: question,
            ..ask.clone()
        },
        forced,
        count,
        search,
        snippet_source,
        snippet_set,
        corpus_checked: limits.offered.is_some(),
    })
}

/// Checks the corpus a question names: one offered, or being indexed (said so), or unknown.
pub(crate) fn check_corpus_of(
    count: &CountSettings,
    offered: &[String],
    indexing: &BTreeSet<String>,
) -> Result<(), AnswerError> {
    if let Some(corpus) = &count.corpus {
        if indexing.contains(corpus) {
            return Err(AnswerError::Indexing {
                corpus: corpus.clone(),
            });
        }
    }
    check_corpus(offered, count)
}

/// A question checked once, at the edge ([`check`]): its text cleaned and within
/// limits, its mode and settings accepted. Everything below takes it and checks nothing again.
#[derive(Debug, Clone, Serialize)]
pub struct Checked {
    /// The question as asked, its text cleaned and trimmed (what is stored with the answer).
    #[serde(skip)]
    pub ask: Ask,
    /// The kind the asker chose; `None`: detected from the question.
    pub forced: Option<QuestionKind>,
    /// The count settings, each checked within its range.
    pub count: CountSettings,
    /// The search settings, checked.
    pub search: SearchSettings,
    /// Where a count question's snippets come from.
    pub snippet_source: SnippetSource,
    /// The stored web snippet set to answer from again.
    pub snippet_set: Option<i64>,
    /// Whether the corpus was checked (it can be only once the engines are loaded).
    #[serde(skip)]
    pub(crate) corpus_checked: bool,
}

impl Checked {
    /// The question's text, cleaned and trimmed.
    pub fn question(&self) -> &str {
        &self.ask.q
    }
}

/// Whether the corpus `settings` name (if any) is one of the `offered` corpora.
fn check_corpus(offered: &[String], settings: &CountSettings) -> Result<(), AnswerError> {
    let Some(corpus) = &settings.corpus else {
        return Ok(());
    };
    if offered.contains(corpus) {
        return Ok(());
    }
    Err(Refused::UnknownCorpus {
        corpus: corpus.clone(),
        offered: format!(
            "{}, {}",
            tally_types::request::ALL_CORPORA,
            offered.join(", ")
        ),
    }
    .into())
}

/// The question's length and content, checked before any work.
pub fn validate_question(question: &str) -> Result<(), AnswerError> {
    if question.trim().is_empty() {
        return Err(Refused::EmptyQuestion.into());
    }
    let chars = question.chars().count();
    if chars > tally_types::request::MAX_QUESTION_CHARS {
        return Err(Refused::TooLong {
            chars,
            max: tally_types::request::MAX_QUESTION_CHARS,
        }
        .into());
    }
    Ok(())
}

/// The question's kind: the one chosen by the asker, or detected (a question with a stored
/// snippet set in the corpus asked is a count question). `stored` is that set, read once by
/// the caller: a count question's snippets are taken from it, not asked for again.
pub(crate) fn decide_kind(
    question: &str,
    forced: Option<QuestionKind>,
    stored: &[tally_documents::corpus::datasets::Snippet],
) -> KindDecision {
    match forced {
        Some(kind) => KindDecision::chosen(question, kind),
        None => detect_kind(question, !stored.is_empty()),
    }
}

/// The count settings as asked, each within its range (one sentence per setting, the same
/// from every entry point).
pub fn count_settings(settings: &Settings) -> Result<CountSettings, AnswerError> {
    settings.count.check().map_err(Refused::from)?;
    Ok(settings.count.clone())
}

/// Search settings from the page's settings.
pub fn search_settings(settings: &Settings) -> Result<SearchSettings, AnswerError> {
    SearchChoices {
        ranker: settings.ranker,
        alpha: settings.alpha,
        k: settings.k,
        sort: settings.sort,
    }
    .settings()
    .map_err(|e| Refused::Choice(Box::new(e)).into())
}
