//! How well a label or a column's header names what a question counts: the noun asked for,
//! its synonyms ("employees" under "Staff") and the verb of a column ("Won" for "how many … win").

use tally_text::quantity::singular;
use tally_types::count::answer::QuestionAnalysis;

use crate::count::question::{is_stop, words};
/// Words a label may use for the noun asked for.
const SYNONYMS: &[(&str, &str)] = &[
    ("people", "population"),
    ("resident", "population"),
    ("inhabitant", "population"),
    ("employee", "staff"),
    ("worker", "staff"),
    ("people", "staff"),
    ("employee", "headcount"),
    ("seat", "capacity"),
    ("people", "passenger"),
    ("people", "visitor"),
];

/// The singular content words of a phrase.
pub(super) fn content_words(text: &str) -> Vec<String> {
    let without_brackets: String = {
        let mut depth = 0;
        text.chars()
            .filter(|&c| {
                match c {
                    '(' => depth += 1,
                    ')' => depth = (depth - 1).max(0),
                    _ => {}
                }
                depth == 0 && c != ')'
            })
            .collect()
    };
    words(&without_brackets)
        .into_iter()
        .filter(|w| !is_stop(w) && !w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| singular(&w))
        .collect()
}

/// The nouns the question counts: its answer type's head and, when the type runs on into a
/// verb ("streams feed lake morrow"), its first plural word.
pub(super) fn asked_nouns(analysis: &QuestionAnalysis) -> Vec<String> {
    let mut nouns = Vec::new();
    if !analysis.head.is_empty() {
        nouns.push(analysis.head.clone());
    }
    let typed = words(&analysis.answer_type);
    for word in typed.iter().take(3) {
        let one = singular(word);
        if one != *word && !nouns.contains(&one) {
            nouns.push(one);
            break;
        }
    }
    nouns
}

/// How well a label or column names what the question counts: 2 when it names its noun (or a
/// synonym), 1 when it names another word of the answer type ("Gold" for "gold medals"), 0 not.
pub(super) fn label_fit(label: &str, analysis: &QuestionAnalysis) -> u8 {
    let label_words = content_words(label);
    if label_words.is_empty() {
        return 0;
    }
    let nouns = asked_nouns(analysis);
    let names_noun = nouns.iter().any(|n| {
        label_words.contains(n)
            || SYNONYMS
                .iter()
                .any(|(asked, said)| asked == n && label_words.iter().any(|w| w == said))
    });
    if names_noun {
        return 2;
    }
    let typed = content_words(&analysis.answer_type);
    u8::from(label_words.iter().any(|w| typed.contains(w)))
}

/// Verbs a question asks with and the columns that count them ("how many games did they win" →
/// "Won", "W").
const VERB_COLUMNS: &[(&str, &[&str])] = &[
    ("win", &["won", "w", "win"]),
    ("won", &["won", "w", "win"]),
    ("lose", &["lost", "l", "loss"]),
    ("lost", &["lost", "l", "loss"]),
    ("draw", &["drawn", "d", "draw"]),
    ("drew", &["drawn", "d", "draw"]),
    ("play", &["played", "p", "pld"]),
    ("played", &["played", "p", "pld"]),
    ("score", &["scored", "for"]),
    ("scored", &["scored", "for"]),
    ("concede", &["conceded", "against"]),
    ("conceded", &["conceded", "against"]),
];

/// 1 when a column names what the question's verb counts ("Won" for "how many … win"), or is
/// one of the question's own words; 0 otherwise.
pub(super) fn verb_fit(column: &str, question_words: &[String]) -> u8 {
    let column_words = content_words(&column.replace('_', " "));
    let said = question_words.iter().any(|q| {
        VERB_COLUMNS.iter().any(|(verb, columns)| {
            q == verb && column_words.iter().any(|c| columns.contains(&c.as_str()))
        })
    });
    u8::from(said)
}
