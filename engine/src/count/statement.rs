//! A count stated plainly with the noun asked for (issue 47): "It has 480 beds in 22 wards, and
//! eight operating theatres" answers "how many operating theatres does Seward General Hospital
//! have" although it says so once.
//!
//! The answer-support model learned on web snippet sets, where a right answer is repeated by
//! many snippets; a fact in a person's own document is stated once, so its support stays low and
//! Tally declined it. A statement is *clear* when a passage about the question counts exactly the
//! noun asked for (every word of the answer type, with its head); when every clear statement of
//! the passages agrees, that count is the answer.

use super::answer_support::AGREEMENT_RATIO;
use super::candidates::CountCandidate;
use super::metrics::ratio;
use super::question::{words, QuestionAnalysis};
use tally_text::quantity::singular;
pub(crate) use tally_types::StatementRule;

/// A candidate must have at least this confidence to count as a statement (the ranker gives
/// candidates of passages not about the question 0).
pub(super) const STATEMENT_FLOOR: f64 = 0.05;

/// The least confidence of a count of the noun asked for ([`noun_statement`]): any count of a
/// passage about the question. The noun says which number it is, where the reader's confidence,
/// learned on web prose, stays low for a fact a document states once ("It has its own van and
/// two drivers": 0.046).
pub(super) const NOUN_STATEMENT_FLOOR: f64 = 0.0;

/// Whether `candidate` counts the answer type: its phrase holds every word of the type and its
/// noun ends with the type's head ("eight operating theatres" for "operating theatres"; not
/// "410 doctors" for "ambulances", nor "60 strings" for "string players"). The question reader
/// takes a verb after a plural noun into the type ("doctors work"); a plural first word followed
/// by one singular word is read as that plural noun.
pub(super) fn counts_the_answer_type(
    candidate: &CountCandidate,
    analysis: &QuestionAnalysis,
) -> bool {
    let Some(head) = words(&candidate.noun).last().map(|w| singular(w)) else {
        return false;
    };
    let phrase: Vec<String> = words(&candidate.text).iter().map(|w| singular(w)).collect();
    let asked = words(&analysis.answer_type);
    let wanted: Vec<String> = asked.iter().map(|w| singular(w)).collect();
    let plural_then_verb =
        asked.len() == 2 && wanted[0] != asked[0] && wanted[1] == asked[1] && head == wanted[0];
    plural_then_verb
        || (!analysis.head.is_empty()
            && head == analysis.head
            && wanted.iter().all(|w| phrase.contains(w)))
}

/// Whether the candidate names one member of a whole ("one of the official languages", "one of
/// its moons"): "one" followed by "of" and a determiner says that something belongs, not how many
/// there are. (Issue 73: "one of the official languages" of Germany answered how many languages
/// are spoken in Switzerland with 1.) Larger partitives stay statements: "two of our rooms accept
/// dogs" answers how many rooms accept dogs (own-documents tuning half).
pub(super) fn one_of_many(candidate: &CountCandidate) -> bool {
    const DETERMINERS: [&str; 8] = ["the", "its", "their", "his", "her", "our", "these", "those"];
    let words: Vec<String> = candidate
        .text
        .split_whitespace()
        .take(3)
        .map(str::to_lowercase)
        .collect();
    candidate.count == 1.0
        && words.len() == 3
        && words[1] == "of"
        && DETERMINERS.contains(&words[2].as_str())
}

/// The count every clear statement agrees on (the most confident one's), or `None` when there is
/// none or they disagree. A passage states clearly when its most confident count (what it
/// reads as the answer) counts the answer type: "three small moons" in a passage about Voyager
/// whose best reading is another count is no statement about Jupiter's moons.
pub(super) fn clear_statement(
    per_snippet: &[Vec<(CountCandidate, f64)>],
    analysis: &QuestionAnalysis,
    floor: f64,
) -> Option<f64> {
    let statements: Vec<(f64, f64)> = per_snippet
        .iter()
        .filter_map(|candidates| candidates.iter().max_by(|a, b| a.1.total_cmp(&b.1)))
        .filter(|(c, p)| {
            *p > 0.0 && *p >= floor && counts_the_answer_type(c, analysis) && !one_of_many(c)
        })
        .map(|(c, p)| (c.count, *p))
        .collect();
    let (best, _) = statements
        .iter()
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    statements
        .iter()
        .all(|(count, _)| ratio(*count, best) >= AGREEMENT_RATIO)
        .then_some(best)
}

/// Whether the candidate's noun phrase says no more than the question: "three small moons"
/// counts a part of the moons ("small"), no answer to how many moons there are.
/// `asked`: the question's words in the singular.
fn unqualified(candidate: &CountCandidate, asked: &[String]) -> bool {
    let noun = words(&candidate.noun);
    noun.split_last()
        .is_some_and(|(_, qualifiers)| qualifiers.iter().all(|w| asked.contains(&singular(w))))
}

/// The count every passage's most confident count *of the noun asked for* agrees on, when the
/// passage's best reading is another count ("Brookfield College has 7 schools and about 18,000
/// students" for the students): the reader's favourite number does not hide the count whose
/// noun is the one asked for (issue 58). A count of a qualified part ("three small moons") is
/// none. `None` when there is none or they disagree.
pub(super) fn noun_statement(
    per_snippet: &[Vec<(CountCandidate, f64)>],
    analysis: &QuestionAnalysis,
    floor: f64,
) -> Option<f64> {
    // Read once per question, not once per candidate.
    let asked: Vec<String> = words(&analysis.question)
        .iter()
        .map(|w| singular(w))
        .collect();
    let statements: Vec<(f64, f64)> = per_snippet
        .iter()
        .filter_map(|candidates| {
            candidates
                .iter()
                .filter(|(c, p)| {
                    *p > 0.0
                        && *p >= floor
                        && counts_the_answer_type(c, analysis)
                        && unqualified(c, &asked)
                        && !one_of_many(c)
                })
                .max_by(|a, b| a.1.total_cmp(&b.1))
        })
        .map(|(c, p)| (c.count, *p))
        .collect();
    let (best, _) = statements
        .iter()
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    statements
        .iter()
        .all(|(count, _)| ratio(*count, best) >= AGREEMENT_RATIO)
        .then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::candidates::count_candidates;
    use crate::count::question::analyse;

    /// The candidates of `text` that count the answer type of `question`.
    fn typed(question: &str, text: &str) -> Vec<String> {
        let analysis = analyse(question);
        count_candidates(text)
            .into_iter()
            .filter(|c| counts_the_answer_type(c, &analysis))
            .map(|c| c.text)
            .collect()
    }

    #[test]
    fn a_count_of_a_qualified_part_is_no_statement_of_the_whole() {
        let analysis = analyse("how many moons does jupiter have");
        let read = |text: &str| -> Vec<Vec<(CountCandidate, f64)>> {
            vec![count_candidates(text)
                .into_iter()
                .map(|c| (c, 0.3))
                .collect()]
        };
        let voyager = "Voyager 2 discovered volcanic activity on Io and three small moons.";
        assert_eq!(noun_statement(&read(voyager), &analysis, 0.05), None);
        let plain = "Jupiter has 95 moons and a faint ring system of 4 rings.";
        assert_eq!(noun_statement(&read(plain), &analysis, 0.05), Some(95.0));
    }

    #[test]
    fn one_of_the_languages_is_no_statement_of_how_many() {
        let analysis = analyse("how many languages are spoken in switzerland");
        let read = |text: &str| -> Vec<Vec<(CountCandidate, f64)>> {
            vec![count_candidates(text)
                .into_iter()
                .map(|c| (c, 0.3))
                .collect()]
        };
        let german = "It is the official language of Germany and Austria as well as one of the \
                      official languages of Switzerland.";
        let candidates = count_candidates(german);
        assert!(candidates.iter().any(one_of_many), "{candidates:?}");
        assert_eq!(clear_statement(&read(german), &analysis, 0.05), None);
        assert_eq!(noun_statement(&read(german), &analysis, 0.0), None);
        let plain = "Switzerland has four national languages.";
        assert_eq!(clear_statement(&read(plain), &analysis, 0.05), Some(4.0));
        // A larger part of a whole is still a count of it.
        let rooms = "Two of our ground-floor rooms accept dogs.";
        assert!(!count_candidates(rooms).iter().any(one_of_many));
    }

    #[test]
    fn only_a_count_of_the_noun_asked_for_is_a_statement() {
        let ward = "It has 480 beds in 22 wards, and eight operating theatres.";
        assert_eq!(
            typed(
                "how many operating theatres does Seward General Hospital have",
                ward
            ),
            vec!["eight operating theatres"]
        );
        assert_eq!(
            typed("how many wards are there at Seward", ward),
            vec!["22 wards"]
        );
        assert!(typed("how many ambulances does Seward have", ward).is_empty());
        // "doctors work": the verb read into the type does not hide the noun.
        let staff =
            "The hospital employs around 2,900 people, including 410 doctors and 1,200 nurses.";
        assert_eq!(
            typed("how many doctors work at Seward General Hospital", staff),
            vec!["410 doctors"]
        );
        // A phrase missing a word of the type is not one.
        assert!(typed(
            "how many string players are in the orchestra",
            "It has 60 strings."
        )
        .is_empty());
    }

    fn candidate(text: &str) -> CountCandidate {
        count_candidates(text).swap_remove(0)
    }

    #[test]
    fn agreeing_statements_answer_and_disagreeing_ones_do_not() {
        let analysis = analyse("how many wards does the hospital have");
        let (a, b, c) = (
            candidate("22 wards"),
            candidate("21 wards"),
            candidate("30 wards"),
        );
        let other = candidate("480 beds");
        let agreeing = vec![vec![(a.clone(), 0.6), (other.clone(), 0.3)], vec![(b, 0.2)]];
        assert_eq!(clear_statement(&agreeing, &analysis, 0.05), Some(22.0));
        // A passage whose best reading is another count states nothing.
        let overshadowed = vec![vec![(a.clone(), 0.3), (other.clone(), 0.6)]];
        assert_eq!(clear_statement(&overshadowed, &analysis, 0.05), None);
        let disagreeing = vec![vec![(a.clone(), 0.3)], vec![(c, 0.2)]];
        assert_eq!(clear_statement(&disagreeing, &analysis, 0.05), None);
        // Below the floor (a passage not about the question gives 0) is no statement.
        let faint = vec![vec![(a, 0.0), (other, 0.6)]];
        assert_eq!(clear_statement(&faint, &analysis, 0.05), None);
    }
}
