//! What a question says, read once for all its candidates (issue 99): the cue words of the
//! operation it asks for, its words and numbers, the thing it counts, and whether it negates or
//! compares — what the ranker's features weigh each candidate's reading against.

use std::collections::BTreeSet;

use super::mention::is_stop;
use super::normalized;
use super::plan::numbers_in;

/// Phrases that say which operation a question asks for, looked for in its words.
const CUES: &[&str] = &[
    "how many",
    "number of",
    "total",
    "sum",
    "combined",
    "altogether",
    "average",
    "mean",
    "most",
    "largest",
    "highest",
    "biggest",
    "greatest",
    "longest",
    "top",
    "maximum",
    "least",
    "fewest",
    "smallest",
    "lowest",
    "shortest",
    "minimum",
    "difference",
    "more",
    "less",
    "than",
    "between",
    "after",
    "before",
    "first",
    "last",
    "year",
    "when",
    "how long",
    "how much",
    "how old",
    "which",
    "what",
    "who",
    "at least",
    "over",
    "under",
    "above",
    "below",
    "only",
    "each",
    "per",
    "same",
    "not",
    "without",
    "in a row",
    "consecutive",
    "rank",
    "place",
];

/// What the question says, read once for all its candidates.
pub(super) struct Asked {
    pub(super) cues: Vec<&'static str>,
    pub(super) words: BTreeSet<String>,
    pub(super) numbers: Vec<f64>,
    /// Its numbers that are part of a name: after a name's word ("Fellrunner 3", "Marlpit
    /// 2.3's") or joined after letters ("AP-300").
    pub(super) named_numbers: Vec<f64>,
    /// The word after "how many" or "number of" ("how many medals": "medal").
    pub(super) counted: Option<String>,
    /// The dimension the answer must have ("how tall" → length, "what did … cost" →
    /// currency), when the question implies one.
    pub(super) dimension: Option<String>,
    /// Whether it negates ("not", "no", "without", "except", "didn't"): the rows it counts are
    /// the others.
    pub(super) negated: bool,
    /// Whether it compares ("more than", "after", "below", "at least"): its number is a bound,
    /// not a value to match.
    pub(super) compared: bool,
}

/// Words that negate a question's condition.
const NEGATIONS: &[&str] = &[
    "not",
    "no",
    "never",
    "without",
    "except",
    "other than",
    "non",
];

/// Words that make a question's number a bound.
const COMPARISONS: &[&str] = &[
    "than",
    "after",
    "before",
    "over",
    "under",
    "above",
    "below",
    "at least",
    "at most",
    "since",
    "or more",
    "or less",
    "fewer",
    "greater",
    "earlier",
    "later",
    "exceeding",
    "beyond",
    "within",
    "less",
    "more",
];

impl Asked {
    pub(super) fn of(question: &str) -> Self {
        let lower = format!(
            " {} ",
            question.to_lowercase().replace(['?', ',', '.'], " ")
        );
        let cues = CUES
            .iter()
            .copied()
            .filter(|cue| lower.contains(&format!(" {cue} ")))
            .collect();
        let words = normalized(question)
            .split(' ')
            .filter(|w| !w.is_empty() && !is_stop(w))
            .map(str::to_string)
            .collect();
        let normal = normalized(question);
        let counted = [" how many ", " number of "].iter().find_map(|cue| {
            let at = format!(" {normal} ").find(cue)? + cue.len();
            format!(" {normal} ")
                .get(at..)?
                .split(' ')
                .find(|w| !w.is_empty() && !is_stop(w))
                .map(str::to_string)
        });
        let has = |phrases: &[&str]| {
            phrases.iter().any(|p| lower.contains(&format!(" {p} ")))
                || (phrases == NEGATIONS && lower.contains("n't "))
        };
        Asked {
            cues,
            words,
            numbers: numbers_in(question),
            named_numbers: named_numbers(question),
            counted,
            dimension: crate::value::parse_question(question).dimension,
            negated: has(NEGATIONS),
            compared: has(COMPARISONS),
        }
    }

    /// The share of `text`'s words the question names (0 without words).
    pub(super) fn names(&self, text: &str) -> f32 {
        share_of_words(text, |w| self.words.contains(w))
    }

    /// The share of `text`'s words the question names or shares a five-letter stem with
    /// ("enrolled" names "Enrollment").
    pub(super) fn names_loosely(&self, text: &str) -> f32 {
        share_of_words(text, |w| {
            self.words.contains(w) || self.words.iter().any(|q| same_stem(q, w))
        })
    }
}

/// Words before a number that make it a quantity or a bound, not a name's.
const NOT_NAMES: &[&str] = &[
    "about", "around", "nearly", "almost", "roughly", "some", "exactly", "just", "page", "top",
];

/// The numbers of `question` that belong to a name: joined after letters ("AP-300", "X3"; not
/// a unit, an ordinal or a decade after the number: "10km", "3rd", "1990s") or written after a
/// word that is neither common, a cue, a verb's form nor a bound ("Fellrunner 3"; not "more
/// than 3", "in 2005", "scored 3 goals", "aged 65", "about 300", "year 6").
fn named_numbers(question: &str) -> Vec<f64> {
    let tokens: Vec<&str> = question.split_whitespace().collect();
    let mut named = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let numbers = numbers_in(token);
        if numbers.is_empty() {
            continue;
        }
        let joined = token
            .chars()
            .take_while(|c| !c.is_ascii_digit())
            .any(char::is_alphabetic);
        let after_a_name = i.checked_sub(1).is_some_and(|p| {
            let word = normalized(tokens[p]);
            !word.is_empty()
                && !is_stop(&word)
                && !CUES.contains(&word.as_str())
                && !COMPARISONS.contains(&word.as_str())
                && !NEGATIONS.contains(&word.as_str())
                && !NOT_NAMES.contains(&word.as_str())
                && !["ed", "ing", "ly"].iter().any(|end| word.ends_with(end))
                && word.chars().all(char::is_alphabetic)
        });
        if joined || after_a_name {
            named.extend(numbers.into_iter().map(f64::abs));
        }
    }
    named
}

/// The share of `text`'s content words that `named` accepts (0 without words).
fn share_of_words(text: &str, named: impl Fn(&str) -> bool) -> f32 {
    let normal = normalized(text);
    let words: Vec<&str> = normal
        .split(' ')
        .filter(|w| !w.is_empty() && !is_stop(w))
        .collect();
    if words.is_empty() {
        return 0.0;
    }
    let count = words.iter().filter(|w| named(w)).count();
    count as f32 / words.len() as f32
}

/// Whether two words of five letters or more begin with the same five ("enrolled",
/// "enrollment").
fn same_stem(a: &str, b: &str) -> bool {
    let stem = |w: &str| w.chars().take(5).collect::<String>();
    a.chars().count() >= 5 && b.chars().count() >= 5 && stem(a) == stem(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cues_and_words_are_read_from_the_question() {
        let asked = Asked::of("How many Nations won more than 3 gold medals?");
        assert!(asked.cues.contains(&"how many"));
        assert!(asked.cues.contains(&"more"));
        assert!(asked.words.contains("nation"));
        assert_eq!(asked.numbers, vec![3.0]);
        assert_eq!(asked.names("Gold"), 1.0);
        assert_eq!(asked.names("Silver"), 0.0);
    }

    #[test]
    fn negation_comparison_and_loose_names_are_read_from_the_question() {
        let not = Asked::of("How many schools are not charter?");
        assert!(not.negated && !not.compared);
        assert!(Asked::of("how many games didn't end in a draw").negated);
        let after = Asked::of("how many national parks were established after 1990?");
        assert!(after.compared && !after.negated);
        let enrolled = Asked::of("what is the total number of people enrolled at the college?");
        assert_eq!(enrolled.names("Enrollment"), 0.0);
        assert_eq!(enrolled.names_loosely("Enrollment"), 1.0);
        assert_eq!(enrolled.names_loosely("Founded"), 0.0);
    }

    #[test]
    fn a_number_that_is_part_of_a_name_is_told_from_a_bound_or_a_date() {
        let named = |q: &str| Asked::of(q).named_numbers;
        assert_eq!(
            named("how many doors does the halvermoor fellrunner 3 have"),
            [3.0]
        );
        assert_eq!(named("how tall is the ironleaf ap-300?"), [300.0]);
        assert_eq!(named("what was marlpit 2.3's peak memory"), [2.3]);
        assert!(named("how many nations won more than 3 gold medals").is_empty());
        assert!(named("how many members did the club have in 2005").is_empty());
        assert!(named("how many players scored 3 goals").is_empty());
        assert!(named("how many runs were over 10km").is_empty());
        assert!(named("who finished 3rd in the 1990s").is_empty());
        assert!(named("how many pupils are in year 6").is_empty());
    }
}
