//! Counts dated by their clause (issue 86): "In 2019 the club had 140 members; by 2023 it had
//! grown to 212." Asked for a year, the count of that year's clause; asked in the present tense
//! ("how many members does the club have"), the count of the latest year stated, and the
//! answer says the year it holds for.

use super::candidates::CountCandidate;
use super::clause::clause_around;
use super::question::{words, QuestionAnalysis};
use super::statement::counts_the_answer_type;

/// A count and the year its clause states.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct DatedCount {
    /// The year.
    pub year: i32,
    /// The count.
    pub count: f64,
}

/// The first year (1800–2100) written in `text` other than at `skip`.
fn year_in(text: &str, skip: Option<&str>) -> Option<i32> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|d| d.len() == 4 && Some(*d) != skip)
        .filter_map(|d| d.parse::<i32>().ok())
        .find(|y| (1800..=2100).contains(y))
}

/// Whether a question asks in a past tense ("how many did …", "how many were …").
fn asks_in_the_past(question: &str) -> bool {
    words(question)
        .iter()
        .any(|w| matches!(w.as_str(), "did" | "was" | "were" | "had"))
}

/// The year a question asks about, if it names one.
pub(super) fn asked_year(question: &str) -> Option<i32> {
    year_in(question, None)
}

/// A passage's counts whose clause states a year: counts of the noun asked for, and bare
/// numbers continuing such a passage ("by 2023 it had grown to 212") once one count names the
/// noun. `None` unless at least two years are stated.
pub(super) fn dated_counts(
    text: &str,
    candidates: &[(CountCandidate, f64)],
    analysis: &QuestionAnalysis,
) -> Option<Vec<DatedCount>> {
    let mut typed = false;
    let mut dated = Vec::new();
    for (candidate, p) in candidates {
        if *p <= 0.0 || candidate.number_span.end > text.len() {
            continue;
        }
        let number = &text[candidate.number_span.clone()];
        let clause = clause_around(text, candidate.number_span.start);
        let Some(year) = year_in(clause, Some(number)) else {
            continue;
        };
        // A year is no count of the noun.
        if (1800.0..=2100.0).contains(&candidate.count) && number.len() == 4 {
            continue;
        }
        let of_the_noun = counts_the_answer_type(candidate, analysis);
        typed |= of_the_noun;
        if of_the_noun || candidate.noun.is_empty() {
            dated.push(DatedCount {
                year,
                count: candidate.count,
            });
        }
    }
    (typed && years_of(&dated).len() >= 2).then_some(dated)
}

/// The years a passage's dated counts are for, in order.
pub(super) fn years_of(dated: &[DatedCount]) -> Vec<i32> {
    let mut years: Vec<i32> = dated.iter().map(|d| d.year).collect();
    years.sort_unstable();
    years.dedup();
    years
}

/// The count a question means among a passage's dated counts: the year asked for's, or, asked
/// in the present tense, the latest year's; with its year and whether it is the latest.
pub(super) fn dated_answer(question: &str, dated: &[DatedCount]) -> Option<(DatedCount, bool)> {
    let of_year = |year: i32| {
        let counts: Vec<&DatedCount> = dated.iter().filter(|d| d.year == year).collect();
        // One count for the year, or several that agree.
        counts
            .first()
            .filter(|first| counts.iter().all(|c| c.count == first.count))
            .map(|c| **c)
    };
    match asked_year(question) {
        Some(year) => of_year(year).map(|d| (d, false)),
        None if asks_in_the_past(question) => None,
        None => {
            let latest = dated.iter().map(|d| d.year).max()?;
            of_year(latest).map(|d| (d, true))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::candidates::count_candidates;
    use crate::count::question::analyse;

    fn read(question: &str, text: &str) -> Option<(f64, i32)> {
        let analysis = analyse(question);
        let candidates: Vec<(CountCandidate, f64)> = count_candidates(text)
            .into_iter()
            .map(|c| (c, 0.5))
            .collect();
        let dated = dated_counts(text, &candidates, &analysis)?;
        dated_answer(question, &dated).map(|(d, _)| (d.count, d.year))
    }

    const CLUB: &str = "In 2018 the club had 118 members. In 2019 the club had 140 members; by \
                        2023 it had grown to 212, after the new courts opened.";

    #[test]
    fn the_present_tense_reads_the_latest_year() {
        assert_eq!(
            read("how many members does the club have", CLUB),
            Some((212.0, 2023))
        );
    }

    #[test]
    fn a_year_asked_reads_that_year_and_a_year_not_stated_reads_none() {
        assert_eq!(
            read("how many members did the club have in 2019", CLUB),
            Some((140.0, 2019))
        );
        assert_eq!(
            read("how many members did the club have in 2021", CLUB),
            None
        );
        // One year stated: nothing to choose between.
        assert_eq!(
            read(
                "how many members does the club have",
                "In 2019 the club had 140 members."
            ),
            None
        );
    }
}
