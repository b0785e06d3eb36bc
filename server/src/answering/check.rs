//! Checks made once at the edge of the service: the question, its corpus, its kind and the settings.

use super::*;

/// A question checked once, at the edge ([`Answerer::check`]): its text cleaned and within
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
    pub(super) corpus_checked: bool,
}

impl Checked {
    /// The question's text, cleaned and trimmed.
    pub fn question(&self) -> &str {
        &self.ask.q
    }
}

/// Whether the corpus `settings` name (if any) is one of the `offered` corpora.
pub(super) fn check_corpus(
    offered: &[String],
    settings: &CountSettings,
) -> Result<(), AnswerError> {
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
pub(super) fn decide_kind(
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
    .map_err(|e| Refused::from(e).into())
}
