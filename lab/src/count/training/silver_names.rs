//! Silver name questions: the corpora's own enumerations turned into "which …" questions, so
//! that the reader learns to read names as it reads counts.
//!
//! A sentence that names a class and lists its members — "The main islands are Oahu, Maui and
//! Kauai", "languages such as Javanese, Sundanese and Madurese", "volcanoes: Haleakalā, Kīlauea
//! and Mauna Loa" — gives "which ‹class› ‹content words of the sentence›", answered by every
//! listed name (several right spans in one window, as for counts). The sentence's other names and
//! words are its hard negatives: the reader must pick the listed members, not the subject
//! ("Hawaii") or a name after the list.
//!
//! The protocol is the count silver questions' ([`super::silver`]): made only from the snippets
//! of training questions, each belongs to the question whose snippet it came from, so a fold
//! never trains on a name question made from its own held-out snippets. Never call this on an
//! evaluation set.

use std::ops::Range;

use super::data::TrainingQuery;
use super::silver::round_robin;
use tally_engine::count::instances::Mention;
use tally_engine::count::lexical::sentence_around;
use tally_engine::count::question::{is_stop, words};
use tally_text::names::name_spans;

/// Content words of the sentence kept in a question (after the class).
const CONTEXT_WORDS: usize = 8;

/// Words between a class and its list that introduce the list ("islands such as", "languages
/// include", "the members are").
const LIST_CUES: &[&str] = &[
    "such",
    "as",
    "including",
    "include",
    "includes",
    "included",
    "like",
    "are",
    "were",
    "namely",
    "e",
    "g",
    "eg",
    "i",
    "ie",
];

/// How far before its list a class may stand, in words ("hit movies like", "names for the
/// Bible:").
const CLASS_REACH: usize = 4;

/// One silver name question: read with the passage `sentence` of snippet `snippet` of training
/// question `query`, answered by each of `names`.
#[derive(Debug, Clone, PartialEq)]
pub struct SilverNameQuestion {
    /// The training question's index.
    pub query: usize,
    /// The snippet's index in the training question.
    pub snippet: usize,
    /// The silver question.
    pub question: String,
    /// Byte offset of the sentence in the snippet, and the sentence.
    pub offset: usize,
    /// The sentence the question is read with.
    pub sentence: String,
    /// The listed names, as byte spans in the snippet.
    pub names: Vec<Range<usize>>,
}

/// At most `per_query` name questions from the snippets of each training question, taken
/// round-robin over its snippets.
pub fn silver_name_questions(
    queries: &[TrainingQuery],
    per_query: usize,
) -> Vec<SilverNameQuestion> {
    let mut out = Vec::new();
    for (q, query) in queries.iter().enumerate() {
        let per_snippet: Vec<Vec<SilverNameQuestion>> = query
            .snippets
            .iter()
            .enumerate()
            .map(|(s, snippet)| from_snippet(q, s, &snippet.text))
            .collect();
        out.extend(round_robin(per_snippet, per_query));
    }
    out
}

/// The name questions of one snippet: one per sentence with an enumeration under a class.
fn from_snippet(query: usize, snippet: usize, text: &str) -> Vec<SilverNameQuestion> {
    // Listed names, grouped by the sentence they are in.
    let mut by_sentence: Vec<(usize, &str, Vec<Range<usize>>)> = Vec::new();
    for span in listed_names(text) {
        let sentence = sentence_around(text, span.start);
        let offset = sentence.as_ptr() as usize - text.as_ptr() as usize;
        if span.end > offset + sentence.len() {
            continue;
        }
        match by_sentence.last_mut() {
            Some((o, _, spans)) if *o == offset => spans.push(span),
            _ => by_sentence.push((offset, sentence, vec![span])),
        }
    }
    by_sentence
        .into_iter()
        .filter_map(|(offset, sentence, listed)| {
            let (class, names) = enumeration(text, offset, sentence, &listed)?;
            let question = question_for(text, sentence, offset, &class, &names)?;
            Some(SilverNameQuestion {
                query,
                snippet,
                question,
                offset,
                sentence: sentence.to_string(),
                names,
            })
        })
        .collect()
}

/// Capitalised or quoted names next to a list comma or "and", in text order; a name joined by
/// "and" or "or" ("Interstellar and Mud") also gives its parts, since a list's last two items
/// read as one capitalised run.
fn listed_names(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    for span in name_spans(text) {
        let surface = &text[span.clone()];
        for joiner in [" and ", " or "] {
            if let Some(at) = surface.find(joiner) {
                spans.push(span.start..span.start + at);
                spans.push(span.start + at + joiner.len()..span.end);
            }
        }
        spans.push(span);
    }
    spans.sort_by_key(|s| (s.start, s.end));
    spans.dedup();
    spans.retain(|span| {
        let surface = &text[span.clone()];
        surface.starts_with(|c: char| c.is_uppercase() || "\"“‘'".contains(c))
            && !surface.chars().any(|c| c.is_ascii_digit())
            && Mention::new(0, text, span.clone()).in_list
    });
    spans
}

/// The class a sentence's list enumerates and the list's names (at least two, one after the
/// other with only commas, "and" or "or" between them), or `None` when the sentence has no such
/// list after a plural class.
fn enumeration(
    text: &str,
    offset: usize,
    sentence: &str,
    listed: &[Range<usize>],
) -> Option<(String, Vec<Range<usize>>)> {
    // The longest run of listed names that follow one another.
    let mut best: Vec<Range<usize>> = Vec::new();
    let mut run: Vec<Range<usize>> = Vec::new();
    for span in listed {
        // A longer name over the one just taken ("Kauai and Molokai" after "Kauai") is skipped.
        if run.last().is_some_and(|last| last.end > span.start) {
            continue;
        }
        let joined = run
            .last()
            .is_some_and(|last| is_list_gap(text.get(last.end..span.start).unwrap_or("x")));
        if !joined {
            run.clear();
        }
        run.push(span.clone());
        if run.len() > best.len() {
            best = run.clone();
        }
    }
    if best.len() < 2 {
        return None;
    }
    let before = text.get(offset..best[0].start)?;
    let class = class_before(before)?;
    debug_assert!(best.iter().all(|s| s.end <= offset + sentence.len()));
    Some((class, best))
}

/// Only commas, "and", "or" and spaces between two listed names.
fn is_list_gap(gap: &str) -> bool {
    gap.split(|c: char| c == ',' || c.is_whitespace())
        .all(|w| w.is_empty() || w == "and" || w == "or" || w == "&")
}

/// The plural class before a list: the text before it ends with a cue ("such as", "include",
/// "are", a colon or a dash), and a lower-case plural stands within [`CLASS_REACH`] words before
/// the cue.
fn class_before(before: &str) -> Option<String> {
    let trimmed = before.trim_end();
    let mut words: Vec<&str> = trimmed
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    let punctuation_cue = trimmed.ends_with([':', '–', '—', '-', '(']);
    let mut cued = punctuation_cue;
    while words
        .last()
        .is_some_and(|w| LIST_CUES.contains(&w.to_lowercase().as_str()))
    {
        words.pop();
        cued = true;
    }
    if !cued {
        return None;
    }
    words
        .iter()
        .rev()
        .take(CLASS_REACH)
        .find(|w| is_plural_class(w))
        .map(|w| w.to_lowercase())
}

/// A lower-case plural noun-looking word: "islands", "languages", "members" (not "is", "class").
fn is_plural_class(word: &str) -> bool {
    word.len() >= 4
        && word.chars().all(|c| c.is_lowercase())
        && word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
        && !is_stop(word)
}

/// "which ‹class› ‹content words of the sentence outside the list›", or `None` when the
/// sentence has none besides the class.
fn question_for(
    text: &str,
    sentence: &str,
    offset: usize,
    class: &str,
    names: &[Range<usize>],
) -> Option<String> {
    let listed: Vec<String> = names
        .iter()
        .flat_map(|n| words(text.get(n.clone()).unwrap_or("")))
        .collect();
    let list_start = names.first()?.start - offset;
    let list_end = names.last()?.end - offset;
    let outside = format!(
        "{} {}",
        sentence.get(..list_start)?,
        sentence.get(list_end..)?
    );
    let context: Vec<String> = words(&outside)
        .into_iter()
        .filter(|w| !is_stop(w) && w != class && !listed.contains(w))
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .take(CONTEXT_WORDS)
        .collect();
    if context.is_empty() {
        return None;
    }
    Some(format!("which {class} {}", context.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(snippets: &[&str]) -> TrainingQuery {
        TrainingQuery::from_texts(
            "fixture",
            "how many islands does hawaii have",
            8.0,
            snippets,
        )
    }

    fn names_of(item: &SilverNameQuestion, text: &str) -> Vec<String> {
        item.names
            .iter()
            .map(|n| text[n.clone()].to_string())
            .collect()
    }

    #[test]
    fn an_enumeration_under_a_class_gives_a_which_question_answered_by_each_name() {
        let text = "Welcome to Hawaii. The main islands are Oahu, Maui, Kauai and Molokai, \
                    says Governor Green. Visit us.";
        let queries = vec![query(&[text])];
        let silver = silver_name_questions(&queries, 10);
        assert_eq!(silver.len(), 1, "{silver:?}");
        let item = &silver[0];
        assert_eq!(item.question, "which islands main governor green");
        assert_eq!(names_of(item, text), ["Oahu", "Maui", "Kauai", "Molokai"]);
        assert_eq!(
            &text[item.offset..item.offset + item.sentence.len()],
            item.sentence
        );
        // "Governor Green" and "Hawaii" are not members of the list: hard negatives.
        assert!(!names_of(item, text).iter().any(|n| n.contains("Green")));
    }

    #[test]
    fn cues_colons_and_classes_a_few_words_back() {
        let text = "He starred in hit movies like Dallas Buyers Club, Interstellar and Mud. \
                    Volcanoes of the island: Haleakala, Kilauea and Mauna Loa.";
        let silver = silver_name_questions(&[query(&[text])], 10);
        let found: Vec<(String, Vec<String>)> = silver
            .iter()
            .map(|s| (s.question.clone(), names_of(s, text)))
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "which movies starred hit");
        assert_eq!(found[0].1, ["Dallas Buyers Club", "Interstellar", "Mud"]);
        // "Volcanoes" is capitalised (it opens the sentence): no lower-case class, no question.
    }

    #[test]
    fn lists_without_a_class_or_a_cue_give_nothing() {
        let text = "Paris, Lyon and Nice are lovely. We met Anna, Ben and Carl in Rome.";
        assert!(silver_name_questions(&[query(&[text])], 10).is_empty());
    }

    #[test]
    fn the_cap_takes_snippets_in_turn() {
        let a = "Its members are Anna, Ben and Carl, the band said. Its rivals are Dora, \
                 Emil and Finn, the band said.";
        let b = "Big cities such as Paris, Lyon and Nice grew fast.";
        let silver = silver_name_questions(&[query(&[a, b])], 2);
        let snippets: Vec<usize> = silver.iter().map(|s| s.snippet).collect();
        assert_eq!(snippets, [0, 1]);
    }
}

#[cfg(test)]
mod fold_safety {
    use super::*;
    use crate::count::training::cross_validation::fold_assignment;

    /// A name question belongs to the query whose snippet it came from: the fold that holds a
    /// query out trains on none of the name questions made from that query's snippets.
    #[test]
    fn name_questions_belong_to_the_query_whose_snippet_they_read() {
        let queries: Vec<TrainingQuery> = (0..10)
            .map(|i| {
                let tag = char::from(b'a' + i as u8);
                let text = format!(
                    "Club {tag} won titles. Its players include Anna{tag}, Ben{tag} and \
                     Carl{tag}, the coach said."
                );
                TrainingQuery::from_texts("fixture", "how many players", 3.0, &[text.as_str()])
            })
            .collect();
        let silver = silver_name_questions(&queries, 10);
        assert_eq!(silver.len(), 10, "{silver:?}");
        let fold_of = fold_assignment(queries.len(), 5, 17);
        for item in &silver {
            let snippet = &queries[item.query].snippets[item.snippet].text;
            assert!(snippet.contains(&item.sentence), "{item:?}");
            let held_out = fold_of[item.query];
            let trained_on: Vec<&SilverNameQuestion> = silver
                .iter()
                .filter(|s| fold_of[s.query] != held_out)
                .collect();
            assert!(trained_on.iter().all(|s| !snippet.contains(&s.sentence)));
            assert!(trained_on.iter().all(|s| s.query != item.query));
        }
    }
}
