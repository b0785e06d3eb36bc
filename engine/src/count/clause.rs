//! Several counts in one sentence (issue 58): "The Pell County council has 45 seats. In this
//! year's election the Green Alliance won 17 seats, the Farmers' Party won 14 …" asked "how many
//! seats did the Green Alliance win". Both "45 seats" and "17 seats" count the noun asked for,
//! and the reader's favourite is the total; the clause that says the question's other words
//! ("Green Alliance", "won") says which count is meant. (A bare number continuing a clause's
//! list, "played 38 matches, winning 21", was tried and went: docs/experiments.md.)

use super::candidates::CountCandidate;
use super::question::{is_stop, words, QuestionAnalysis};
use super::statement::counts_the_answer_type;
use tally_text::quantity::singular;

/// Past forms that do not end in "-ed", to their stems ("won" → "win").
const IRREGULAR: &[(&str, &str)] = &[
    ("won", "win"),
    ("took", "take"),
    ("taken", "take"),
    ("ran", "run"),
    ("got", "get"),
    ("made", "make"),
    ("held", "hold"),
    ("sold", "sell"),
    ("bought", "buy"),
    ("gave", "give"),
    ("given", "give"),
    ("found", "find"),
    ("kept", "keep"),
    ("sent", "send"),
    ("lost", "lose"),
    ("built", "build"),
    ("brought", "bring"),
    ("met", "meet"),
    ("paid", "pay"),
    ("spent", "spend"),
    ("wrote", "write"),
    ("written", "write"),
    ("grew", "grow"),
    ("grown", "grow"),
    ("drew", "draw"),
    ("drawn", "draw"),
    ("began", "begin"),
    ("begun", "begin"),
];

/// A word's stem for matching a question's word to a passage's: irregular past forms to their
/// present, then "-ing", "-ed", "-es"/"-s" and a doubled last consonant off ("winning" → "win",
/// "employed" → "employ", "operates" → "operat", "operate" → "operat").
pub(crate) fn stem(word: &str) -> String {
    let word = word.to_lowercase();
    if let Some((_, present)) = IRREGULAR.iter().find(|(past, _)| *past == word) {
        return stem(present);
    }
    let mut s = singular(&word);
    for suffix in ["ing", "ed", "e"] {
        if s.len() > suffix.len() + 2 && s.ends_with(suffix) {
            s.truncate(s.len() - suffix.len());
            break;
        }
    }
    let bytes = s.as_bytes();
    if bytes.len() > 3 && bytes[bytes.len() - 1] == bytes[bytes.len() - 2] {
        s.pop();
    }
    s
}

/// The question's words that say which count is meant, stemmed: its content words besides the
/// counted noun's ("green", "alliance", "win").
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Telling {
    /// The stemmed words.
    pub words: Vec<String>,
}

impl Telling {
    /// The telling words of the analysed question.
    pub(crate) fn of(analysis: &QuestionAnalysis) -> Self {
        let stems = |text: &str| -> Vec<String> { words(text).iter().map(|w| stem(w)).collect() };
        let typed = stems(&analysis.answer_type);
        let mut telling = Telling { words: Vec::new() };
        for word in words(&analysis.question) {
            let stemmed = stem(&word);
            if !is_stop(&word) && !typed.contains(&stemmed) && !telling.words.contains(&stemmed) {
                telling.words.push(stemmed);
            }
        }
        telling
    }
}

/// The clause of `text` around byte `at`: from the last clause break before it to the first
/// after it (a comma, a semicolon, a colon, a full stop, "and", "but").
pub(crate) fn clause_around(text: &str, at: usize) -> &str {
    const BREAKS: &[&str] = &[", ", "; ", ": ", ". ", " and ", " but ", " — "];
    let start = BREAKS
        .iter()
        .filter_map(|b| text[..at].rfind(b).map(|i| i + b.len()))
        .max()
        .unwrap_or(0);
    let end = BREAKS
        .iter()
        .filter_map(|b| text[at..].find(b).map(|i| at + i))
        .min()
        .unwrap_or(text.len());
    &text[start..end]
}

/// How many of the telling words the clause around a candidate says.
fn clause_fit(text: &str, candidate: &CountCandidate, telling: &[String]) -> usize {
    let Some(at) = text
        .get(candidate.number_span.clone())
        .map(|_| candidate.number_span.start)
    else {
        return 0;
    };
    let said: Vec<String> = words(clause_around(text, at))
        .iter()
        .map(|w| stem(w))
        .collect();
    telling.iter().filter(|w| said.contains(w)).count()
}

/// The count of the clause that says most of the question's telling words, among a passage's
/// counts of the noun asked for, when it says strictly more than the clause of any other count
/// and at least one; with the clause.
pub(crate) fn clause_count(
    text: &str,
    candidates: &[(CountCandidate, f64)],
    analysis: &QuestionAnalysis,
    telling: &Telling,
) -> Option<(f64, String)> {
    let mut fits: Vec<(usize, &CountCandidate)> = candidates
        .iter()
        .filter(|(c, p)| *p > 0.0 && c.span.end <= text.len())
        .filter_map(|(c, _)| {
            let fit = clause_fit(text, c, &telling.words);
            counts_the_answer_type(c, analysis).then_some((fit, c))
        })
        .collect();
    if fits.len() < 2 {
        return None;
    }
    fits.sort_by_key(|(fit, _)| std::cmp::Reverse(*fit));
    let (best, candidate) = fits[0];
    let rivals_fit = fits[1..]
        .iter()
        .filter(|(_, c)| c.count != candidate.count)
        .map(|(fit, _)| *fit)
        .max()
        .unwrap_or(0);
    (best >= 1 && best > rivals_fit).then(|| {
        let clause = clause_around(text, candidate.number_span.start).trim();
        (candidate.count, clause.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::candidates::count_candidates;
    use crate::count::question::analyse;

    fn read(question: &str, text: &str) -> Option<f64> {
        let analysis = analyse(question);
        let candidates: Vec<(CountCandidate, f64)> = count_candidates(text)
            .into_iter()
            .map(|c| (c, 0.5))
            .collect();
        clause_count(text, &candidates, &analysis, &Telling::of(&analysis)).map(|c| c.0)
    }

    #[test]
    fn stems_match_the_forms_of_a_word() {
        assert_eq!(stem("won"), stem("win"));
        assert_eq!(stem("winning"), "win");
        assert_eq!(stem("employed"), stem("employ"));
        assert_eq!(stem("operates"), stem("operate"));
    }

    #[test]
    fn the_clause_that_says_the_question_picks_the_count() {
        let text = "The Pell County council has 45 seats. In this year's election the Green \
                    Alliance won 17 seats, the Farmers' Party won 14 and the Civic League won 9.";
        assert_eq!(
            read(
                "how many seats did the Green Alliance win in Pell County",
                text
            ),
            Some(17.0)
        );
        // The question names the council only: its own clause says so.
        assert_eq!(
            read("how many seats does the Pell County council have", text),
            Some(45.0)
        );
        // Nothing in the question tells the counts apart: no reading.
        assert_eq!(read("how many seats are there", text), None);
    }
}
