//! Silver training questions: the corpora's own count phrases turned into questions.
//!
//! A sentence with "N ‹noun phrase›" and other content words gives "how many ‹noun phrase›
//! ‹content words›", answered by that phrase; the sentence's other count phrases are its hard
//! negatives (the reader must pick this one, not "30 cities" next to it). Only phrases with a
//! counted noun are used, and only in sentences with another count phrase, so that every silver
//! question asks the reader to choose.
//!
//! The protocol: silver questions are made only from the snippets of training questions, and
//! each belongs to the question whose snippet it came from, so a fold never trains on silver
//! questions made from its own held-out snippets. Never call this on an evaluation set.

use super::data::{QueryCandidates, TrainingQuery};
use tally_engine::count::candidates::CountCandidate;
use tally_engine::count::lexical::sentence_around;
use tally_engine::count::question::{is_stop, words};

/// Content words of the sentence kept in a silver question (after the noun phrase).
const CONTEXT_WORDS: usize = 8;

/// One silver question: read with the passage `sentence` of snippet `snippet` of training
/// question `query`, answered by `answer`.
#[derive(Debug, Clone, PartialEq)]
pub struct SilverQuestion {
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
    /// The count that answers the question.
    pub answer: CountCandidate,
}

/// At most `per_query` silver questions from the snippets of each training question, taken
/// round-robin over its snippets (in snippet order), so they come from many snippets.
pub fn silver_questions(
    queries: &[TrainingQuery],
    candidates: &[QueryCandidates],
    per_query: usize,
) -> Vec<SilverQuestion> {
    let mut out = Vec::new();
    for (q, (query, per_snippet)) in queries.iter().zip(candidates).enumerate() {
        let per_snippet_items: Vec<Vec<SilverQuestion>> = query
            .snippets
            .iter()
            .zip(per_snippet)
            .enumerate()
            .map(|(s, (snippet, cands))| from_snippet(q, s, &snippet.text, cands))
            .collect();
        out.extend(round_robin(per_snippet_items, per_query));
    }
    out
}

/// At most `cap` items, taken one per snippet in turn (in snippet order), so that they come
/// from many snippets.
pub(super) fn round_robin<T>(per_snippet: Vec<Vec<T>>, cap: usize) -> Vec<T> {
    let mut queues: Vec<std::vec::IntoIter<T>> =
        per_snippet.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    while out.len() < cap {
        let before = out.len();
        for queue in queues.iter_mut() {
            if out.len() == cap {
                break;
            }
            if let Some(item) = queue.next() {
                out.push(item);
            }
        }
        if out.len() == before {
            break;
        }
    }
    out
}

/// The silver questions of one snippet: one per counted phrase that shares its sentence with
/// another count phrase.
fn from_snippet(
    query: usize,
    snippet: usize,
    text: &str,
    candidates: &[CountCandidate],
) -> Vec<SilverQuestion> {
    let mut out = Vec::new();
    for answer in candidates {
        if answer.noun.is_empty() {
            continue;
        }
        let sentence = sentence_around(text, answer.span.start);
        let offset = sentence.as_ptr() as usize - text.as_ptr() as usize;
        let in_sentence =
            |c: &CountCandidate| c.span.start >= offset && c.span.end <= offset + sentence.len();
        if !in_sentence(answer) || candidates.iter().filter(|c| in_sentence(c)).count() < 2 {
            continue;
        }
        let Some(question) = question_for(sentence, offset, answer) else {
            continue;
        };
        out.push(SilverQuestion {
            query,
            snippet,
            question,
            offset,
            sentence: sentence.to_string(),
            answer: answer.clone(),
        });
    }
    out
}

/// "how many ‹noun phrase as written› ‹content words of the sentence›", or `None` when the
/// sentence has no content words besides the phrase.
fn question_for(sentence: &str, offset: usize, answer: &CountCandidate) -> Option<String> {
    let phrase_end = answer.span.end - offset;
    let number_end = answer.number_span.end - offset;
    let noun_phrase = sentence.get(number_end..phrase_end)?.trim();
    if noun_phrase.is_empty() {
        return None;
    }
    let phrase_words = words(noun_phrase);
    let before = sentence.get(..answer.span.start - offset)?;
    let after = sentence.get(phrase_end..)?;
    let context: Vec<String> = words(before)
        .into_iter()
        .chain(words(after))
        .filter(|w| !is_stop(w) && !phrase_words.contains(w))
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .take(CONTEXT_WORDS)
        .collect();
    if context.is_empty() {
        return None;
    }
    Some(format!(
        "how many {} {}",
        noun_phrase.to_lowercase(),
        context.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::training::data::query_candidates;

    fn query(snippets: &[&str]) -> TrainingQuery {
        TrainingQuery::from_texts(
            "fixture",
            "how many songs did the band record",
            12.0,
            snippets,
        )
    }

    #[test]
    fn a_sentence_with_two_counts_gives_a_question_for_each() {
        let queries = vec![query(&[
            "Intro. The band recorded 12 songs and toured 30 cities in Europe. Bye.",
            "Only 5 members.",
        ])];
        let candidates = query_candidates(&queries);
        let silver = silver_questions(&queries, &candidates, 10);
        let questions: Vec<&str> = silver.iter().map(|s| s.question.as_str()).collect();
        // "5 members" stands alone in its sentence: no hard negative, no question.
        assert_eq!(
            questions,
            [
                "how many songs band recorded toured cities europe",
                "how many cities band recorded songs toured europe"
            ]
        );
        let first = &silver[0];
        assert_eq!(first.answer.count, 12.0);
        assert_eq!(
            first.sentence,
            "The band recorded 12 songs and toured 30 cities in Europe."
        );
        let text = &queries[0].snippets[0].text;
        assert_eq!(
            &text[first.offset..first.offset + first.sentence.len()],
            first.sentence
        );
        // The cap holds.
        assert_eq!(silver_questions(&queries, &candidates, 1).len(), 1);
    }
}

#[cfg(test)]
mod fold_safety {
    use super::*;
    use crate::count::training::cross_validation::fold_assignment;
    use crate::count::training::data::query_candidates;

    /// A silver question belongs to the query whose snippet it came from: training folds take
    /// it with that query, so a held-out query's snippets never reach training as silver.
    #[test]
    fn silver_questions_belong_to_the_query_whose_snippet_they_read() {
        let queries: Vec<TrainingQuery> = (0..10)
            .map(|i| {
                let text = format!(
                    "Team {i} won {} titles and played {} finals in Europe.",
                    i + 2,
                    i + 20
                );
                TrainingQuery::from_texts("fixture", "how many titles", 2.0, &[text.as_str()])
            })
            .collect();
        let candidates = query_candidates(&queries);
        let silver = silver_questions(&queries, &candidates, 10);
        assert_eq!(silver.len(), 20);
        let fold_of = fold_assignment(queries.len(), 5, 17);
        for item in &silver {
            let snippet = &queries[item.query].snippets[item.snippet].text;
            assert!(snippet.contains(&item.sentence), "{item:?}");
            // The fold that holds the query out trains on none of its silver questions.
            let held_out = fold_of[item.query];
            let trained_on: Vec<&SilverQuestion> = silver
                .iter()
                .filter(|s| fold_of[s.query] != held_out)
                .collect();
            assert!(trained_on.iter().all(|s| !snippet.contains(&s.sentence)));
        }
    }
}
