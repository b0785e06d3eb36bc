//! The observations a value question is answered from: BM25 over the descriptions of every
//! quantity (Cao et al.: matching a question against what each number describes, not against
//! whole sentences), of the question's dimension, of the entity it names when the corpus files
//! sentences under it, and about its subject.

use std::collections::HashSet;
use tally_documents::DocumentsError;

use super::question::is_measure_word;
use super::{description_words, named_measure, normalise, raw_words, subject_of, word_set};
use tally_documents::sentence_store::observations::{
    Observation, ObservationIndex, ObservationQuery, ScoredObservation,
};
use tally_text::quantity::is_function_word;
use tally_types::value::ValueQuestion;

/// Observations read at a time while the subject's filter drops some.
const PAGE: usize = 64;

/// What a question retrieved.
#[derive(Debug, Clone, PartialEq)]
pub struct Retrieved {
    /// Whether any observation matched the question's words (of its dimension and named entity)
    /// before the subject's filter.
    pub matched: bool,
    /// The best observations about the question's subject, best first, at most the number asked.
    pub top: Vec<ScoredObservation>,
}

/// The `top` best observations of `index` for `question`, of `corpus` only when one is named.
pub fn retrieve(
    question: &ValueQuestion,
    index: &ObservationIndex,
    top: usize,
    corpus: Option<&str>,
) -> Result<Retrieved, DocumentsError> {
    let words: Vec<String> = question.words.iter().map(|w| normalise(w)).collect();
    let mut query = ObservationQuery {
        words: &words,
        dimension: question.dimension.as_deref(),
        entities: None,
        mentioning: &[],
        corpus,
    };
    // A question that names an entity of the corpus ("… of Wembley Stadium") is about that
    // entity: observations of other entities go, however well their other words match.
    // (All the question's words: "Big Ben" keeps its "big".)
    let asked = word_set(&question.text);
    let named: Vec<String> = index
        .entities()?
        .into_iter()
        .filter(|entity| entity_named(entity, &asked))
        .collect();
    let mut of_named_matched = false;
    if !named.is_empty() {
        let of_named = ObservationQuery {
            entities: Some(&named),
            ..query
        };
        if index.count(&of_named)? > 0 {
            query = of_named;
            of_named_matched = true;
        }
    }
    let matched = of_named_matched || index.count(&query)? > 0;
    let subject = subject_of(question);
    let must_say = named_measure(question);
    // The index keeps the sentences that mention the subject; `about_subject` decides.
    let mentioning = ObservationQuery {
        mentioning: &subject,
        ..query
    };
    let mut kept = Vec::new();
    let mut offset = 0;
    while kept.len() < top {
        let page = index.ranked(&mentioning, offset, PAGE)?;
        let read = page.len();
        kept.extend(
            page.into_iter()
                .filter(|s| about_subject(question, &subject, must_say.as_deref(), &s.observation)),
        );
        if read < PAGE {
            break;
        }
        offset += read;
    }
    kept.truncate(top);
    Ok(Retrieved { matched, top: kept })
}

/// Whether `o` may answer the question: its sentence names the question's subject ("Eiffel
/// Tower") and, when the question implies no dimension and the sentence is not filed under the
/// subject, its description shares a word with what it asks ("capacity"): otherwise a
/// well-matched number about something else ("a 20-minute set at Wembley Stadium") would be the
/// answer.
fn about_subject(
    question: &ValueQuestion,
    subject: &[String],
    must_say: Option<&str>,
    o: &Observation,
) -> bool {
    let entity_words = o.entity.as_deref().map(word_set).unwrap_or_default();
    // A question without a capitalised subject ("how long is the road round kilbrae") is about
    // its topic words: at least half of them, in the sentence or what it is filed under.
    if subject.is_empty() {
        let topic = topic_words(question);
        if !topic.is_empty() {
            let said = word_set(&o.text);
            let named = topic
                .iter()
                .filter(|w| said.contains(*w) || entity_words.contains(*w))
                .count();
            if 2 * named < topic.len() || named == 0 {
                return false;
            }
        }
    }
    let filed_under = !subject.is_empty() && subject.iter().all(|w| entity_words.contains(w));
    let named = subject.is_empty() || filed_under || {
        let said = word_set(&o.text);
        subject
            .iter()
            .all(|w| said.contains(w) || entity_words.contains(w))
    };
    let described_words = || word_set(&description_words(&o.description).join(" "));
    // A sentence the corpus files under the subject is about it: any of its quantities of the
    // right kind may be the one asked for, unless the question names what is counted or paid
    // ("deliveries", "revenue"): then the description must say it.
    let described = match must_say {
        Some(noun) => described_words().contains(noun),
        None => {
            question.dimension.is_some() || filed_under || {
                let described = described_words();
                question
                    .words
                    .iter()
                    .filter(|w| !subject.contains(*w))
                    .any(|w| described.contains(&normalise(w)))
            }
        }
    };
    named && described
}

/// The words of a question that say what it is about, besides those that ask (question words,
/// dimension words such as "tall" or "cost", measure nouns such as "height"): "how long is the
/// road round kilbrae" → road, round, kilbrae.
fn topic_words(question: &ValueQuestion) -> Vec<String> {
    question
        .words
        .iter()
        .filter(|w| !is_measure_word(w))
        .map(|w| normalise(w))
        .collect()
}

/// Every word of the entity's name (without a parenthesised qualifier such as "(footballer)")
/// is among the question's words.
fn entity_named(entity: &str, asked: &HashSet<String>) -> bool {
    let name = entity.split('(').next().unwrap_or(entity);
    let mut words = raw_words(name)
        .map(normalise)
        .filter(|w| !is_function_word(w))
        .peekable();
    words.peek().is_some() && words.all(|w| asked.contains(&w))
}
