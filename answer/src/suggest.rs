//! "Did you mean": a question whose answer is not given as sure, with each word the snippets
//! do not hold replaced by the closest word they do (issue 87).

use tally_documents::snippet_index::SnippetIndex;
use tally_types::AnswerBody;

/// Words shorter than this are left alone: too many words are one edit from them.
const MIN_LETTERS: usize = 4;

/// Words of questions that a small corpus may lack without their being misspelt.
const QUESTION_WORDS: &[&str] = &[
    "many", "much", "what", "which", "does", "have", "there", "were", "with", "from", "that",
    "this", "their", "they", "total", "number", "average", "largest", "smallest", "most", "least",
    "more", "less", "than", "over", "under", "above", "below", "long", "tall", "high", "large",
    "when", "where", "whose", "every", "each", "about",
];

/// Whether `answer` gives nothing a person can take as sure.
pub(crate) fn unanswered(answer: &AnswerBody) -> bool {
    match answer {
        AnswerBody::Count(count) => count.count.is_none(),
        AnswerBody::Value(value) => value.value.is_none() || value.not_sure.is_some(),
        AnswerBody::Search(results) => results.hits.is_empty(),
    }
}

/// `question` with its misspelt words replaced, when one is; `None` when every word is held
/// or nothing close is (a failed read suggests nothing). A word `known` to the language is
/// left as it is, though the corpus lacks it ("keep" where the corpus says "keeps").
pub(crate) fn did_you_mean(
    index: &SnippetIndex,
    known: &dyn Fn(&str) -> bool,
    question: &str,
) -> Option<String> {
    let mut corrected = String::with_capacity(question.len());
    let mut changed = false;
    let mut word = String::new();
    let mut flush = |word: &mut String, out: &mut String| {
        let lower = word.to_lowercase();
        if word.chars().count() >= MIN_LETTERS
            && !QUESTION_WORDS.contains(&lower.as_str())
            && !known(&lower)
        {
            if let Ok(Some(closest)) = index.closest_word(&lower) {
                out.push_str(&same_case(word, &closest));
                changed = true;
                word.clear();
                return;
            }
        }
        out.push_str(word);
        word.clear();
    };
    for c in question.chars() {
        if c.is_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut corrected);
            corrected.push(c);
        }
    }
    flush(&mut word, &mut corrected);
    changed.then_some(corrected)
}

/// `suggested` written with the first letter's case of `written` ("Indonesa" → "Indonesia").
fn same_case(written: &str, suggested: &str) -> String {
    if written.chars().next().is_some_and(char::is_uppercase) {
        let mut chars = suggested.chars();
        chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    } else {
        suggested.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_documents::corpus::datasets::{QuerySnippets, Snippet};

    #[test]
    fn a_misspelt_question_is_suggested_spelt_as_the_snippets_spell_it() {
        let index = SnippetIndex::in_memory().unwrap();
        let snippet = |id: &str, text: &str| Snippet {
            id: id.into(),
            text: text.into(),
            source: "test".into(),
            answers: Vec::new(),
            record: None,
        };
        let set = QuerySnippets {
            qid: "q".into(),
            question: String::new(),
            snippets: vec![
                snippet("a#1", "The Hollowmere club has 9 courts and 212 members."),
                snippet("a#2", "Its courts are open daily."),
            ],
        };
        index.add("clubs", &[set]).unwrap();
        let nothing_known = |_: &str| false;
        assert_eq!(
            did_you_mean(
                &index,
                &nothing_known,
                "how many cuorts does Holowmere have"
            )
            .as_deref(),
            Some("how many courts does Hollowmere have")
        );
        assert_eq!(
            did_you_mean(&index, &nothing_known, "how many courts are there"),
            None
        );
        // A word of the language stays, though the snippets spell another one close to it.
        let court_is_known = |w: &str| w == "court";
        assert_eq!(
            did_you_mean(
                &index,
                &court_is_known,
                "how many court does Hollowmere have"
            ),
            None
        );
    }
}
