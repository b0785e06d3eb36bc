//! Counts read from a document's structure (issue 58): a table cell under a column that names
//! the counted noun ("Falcon — Gold: 8" for "how many gold medals did falcon win"), a spec
//! line's value under its label, a list counted when nothing states the number ("Present: A; B;
//! C" for "how many people were at the meeting"), and a count bound to the year the question
//! asks for (the 2008 entry of a dated history, not the 2001 or 2015 ones).
//!
//! These readings come before the reader's: a passage's structure says which number is which,
//! where the reader, trained on web prose, picks its favourite number.

use tally_types::count::answer::QuestionAnalysis;

use super::candidates::{count_candidates, CountCandidate};
use super::clause::{clause_count, Telling};
use super::dated::{asked_year, dated_answer, dated_counts, years_of};
use super::question::words;
use super::relevance::Subject;
use super::statement::{
    clear_statement, counts_the_answer_type, noun_statement, NOUN_STATEMENT_FLOOR, STATEMENT_FLOOR,
};
use tally_documents::corpus::datasets::Snippet;
use tally_documents::corpus::structure::marks::{context_marks, mark_fits, marks_in};
use tally_documents::corpus::structure::{cell_in_unit, without_place, Record, CONTEXT_SEPARATOR};
use tally_documents::snippet_index::is_document_passage;
use tally_text::quantity::singular;

mod fit;
mod reading;
use fit::{asked_nouns, content_words, label_fit, verb_fit};
pub use reading::Reading;

/// A count read from structure, with the snippet it was read in.
#[derive(Debug, Clone, PartialEq)]
pub struct StructuredCount {
    /// The count read.
    pub count: f64,
    /// The index of the snippet it was read in.
    pub snippet: usize,
    /// How it was read.
    pub reading: Reading,
}

/// Words that mean people in a list of names ("how many people were at the meeting").
const PEOPLE: &[&str] = &[
    "people",
    "person",
    "attendee",
    "member",
    "participant",
    "guest",
    "present",
    "attending",
    "attended",
    "coming",
    "come",
];
/// Labels of lists of the people present.
const PRESENT_LEADS: &[&str] = &[
    "present",
    "attendees",
    "attending",
    "in attendance",
    "guests",
];
/// The whole count a cell or value states ("8", "twelve", "1,200 members"); `None` for a value
/// that is not a count (a year, a measure with a unit, text).
fn count_in(value: &str) -> Option<f64> {
    let value = without_closing_remark(value);
    let candidates = count_candidates(value);
    let first = candidates.first()?;
    let leading = value[..first.number_span.start].trim().is_empty();
    (candidates.len() == 1 && leading && first.count.fract() == 0.0).then_some(first.count)
}

/// A value without the remark in brackets that closes it ("37 (last quarter: 52)" → "37").
fn without_closing_remark(value: &str) -> &str {
    let value = value.trim_end();
    match value.rfind('(') {
        Some(open) if value.ends_with(')') => value[..open].trim_end(),
        _ => value,
    }
}

/// The count of a value that is a count alone, or a count of the noun asked for ("7", "37 (last
/// quarter: 52)", "44 buses"); `None` for a phrase that goes on ("60,000 Mumbai, India").
fn bare_count(value: &str, analysis: &QuestionAnalysis) -> Option<f64> {
    let value = without_closing_remark(value);
    let candidates = count_candidates(value);
    let [only] = candidates.as_slice() else {
        return None;
    };
    let whole = only.number_span.start == 0 && only.span.end >= value.trim_end_matches('.').len();
    let noun = words(&only.noun).last().map(|w| singular(w));
    let of_the_noun = noun.is_none_or(|n| asked_nouns(analysis).contains(&n));
    (whole && of_the_noun && only.count.fract() == 0.0).then_some(only.count)
}

/// Whether the counted noun asked for is among the few words after a candidate's number ("4 new
/// export formats", where the candidate reader stopped at "new").
fn noun_follows(text: &str, candidate: &CountCandidate, analysis: &QuestionAnalysis) -> bool {
    let after = text.get(candidate.number_span.end..).unwrap_or_default();
    let nouns = asked_nouns(analysis);
    words(after)
        .into_iter()
        .take(4)
        .any(|w| nouns.contains(&singular(&w)))
}

/// The count of a `Label: value` line (its value's `count`) whose label names the counted noun,
/// scored as the structured readings are (a label that names the noun beats one that names
/// another word of the type).
fn labelled_count(
    label: &str,
    count: Option<f64>,
    analysis: &QuestionAnalysis,
) -> Option<(u8, f64, Reading)> {
    let fit = label_fit(label, analysis);
    let count = count.filter(|_| fit > 0)?;
    let reading = Reading::Labelled {
        label: label.to_string(),
    };
    Some((fit * 2 + 4, count, reading))
}

/// `Label: value` segments inside running text ("Opened in 2011. Staff: 7. It shares a
/// building …"): each sentence or `;`-part that reads as a labelled line whose value is a bare
/// count. Web text writes headlines so ("Joker: 6 Actors Who Have Played …", "Stadium Capacity:
/// 60,000 Mumbai, India"), which are no such line.
fn labelled_segments(
    text: &str,
    analysis: &QuestionAnalysis,
    mark_fit: u8,
) -> Vec<(u8, f64, Reading)> {
    text.split(". ")
        .flat_map(|sentence| sentence.split("; "))
        .filter_map(|segment| {
            let (label, value) = labelled_line(segment.trim().trim_end_matches('.'))?;
            labelled_count(label, bare_count(value, analysis), analysis)
        })
        .map(|(score, count, reading)| (score + mark_fit, count, reading))
        .collect()
}

/// The most words of a label in running text ("Stadium capacity: …").
const MAX_LABEL_WORDS: usize = 6;

/// A `Label: value` line as people write one in running text ("Staff: 7"): a label of a few
/// words that is no sentence, then its value.
fn labelled_line(text: &str) -> Option<(&str, &str)> {
    let (label, value) = text.split_once(": ")?;
    let label = label.trim();
    let short = (1..=MAX_LABEL_WORDS).contains(&label.split_whitespace().count());
    (short && !label.contains(['.', '!', '?'])).then(|| (label, value.trim()))
}

/// The column whose every content word the question says, the one with the most words when
/// several are ("RX-600 Pro" over "RX-600"), with the count in its cell.
fn named_column<'a>(
    cells: &[(&'a str, &str)],
    question_words: &[String],
) -> Option<(&'a str, f64)> {
    let mut named: Vec<(usize, &str, f64)> = cells
        .iter()
        .filter_map(|(column, value)| {
            let words = content_words(column);
            let said = !words.is_empty() && words.iter().all(|w| question_words.contains(w));
            let count = count_in(value).filter(|_| said)?;
            Some((words.len(), *column, count))
        })
        .collect();
    named.sort_by_key(|n| std::cmp::Reverse(n.0));
    match named.as_slice() {
        [(most, column, count), rest @ ..] if rest.first().is_none_or(|r| r.0 < *most) => {
            Some((column, *count))
        }
        _ => None,
    }
}

/// The counts a table row gives a question, scored: a cell under a column that names the
/// counted noun or the question's verb (more when the row is the one the question names), or,
/// in a table whose rows are measures and whose columns are things, the cell of the column the
/// question names most fully.
fn row_counts(
    label: &str,
    cells: &[(&str, &str)],
    analysis: &QuestionAnalysis,
    question_words: &[String],
    mark_fit: u8,
) -> Vec<(u8, f64, Reading)> {
    let mut found = Vec::new();
    let cell_reading = |column: &str| Reading::Cell {
        column: column.to_string(),
        row: label.to_string(),
    };
    // The row is named by its label or by a cell of text ("team: Abbotsmead").
    let named = row_named(label, question_words)
        || cells
            .iter()
            .any(|(_, v)| count_in(v).is_none() && row_named(v, question_words));
    // A table whose rows are measures and whose columns are things ("Ethernet ports | 4 | 8"
    // under "Item | RX-600 | RX-600 Pro"): the row names the noun, and the column the question
    // names most fully is the thing asked about.
    if label_fit(label, analysis) == 2 {
        if let Some((column, count)) = named_column(cells, question_words) {
            found.push((8 + mark_fit, count, cell_reading(column)));
        }
    }
    for (written_column, written_value) in cells {
        // "Passengers (millions)" over "17.0": 17,000,000 passengers.
        let (column, value) = cell_in_unit(written_column, written_value);
        let (column, value) = (column.as_str(), value.as_str());
        // Of two columns that name the noun ("Bus routes", "Night buses"), the one whose every
        // word the question says; a column the question's verb names ("Lost" for "how many
        // matches did they lose") over the one its noun names ("Matches"); a column the
        // question says whole ("Stock" for "… have in stock") names what it asks.
        let said = content_words(column);
        let fully = !said.is_empty() && said.iter().all(|w| question_words.contains(w));
        let fit = match verb_fit(column, question_words) {
            1 => 3,
            _ => label_fit(column, analysis).max(u8::from(fully)),
        };
        if let (true, Some(count)) = (fit > 0, count_in(value)) {
            let score = fit * 2 + u8::from(fully) + u8::from(named) * 4 + mark_fit;
            found.push((score, count, cell_reading(column)));
        }
    }
    found
}

/// Whether every word of a row's label is among the question's words.
fn row_named(row: &str, question_words: &[String]) -> bool {
    let row = content_words(row);
    !row.is_empty() && row.iter().all(|w| question_words.contains(w))
}

/// The counts a passage's record gives a question, scored (`mark_fit`: how the passage's year
/// or version fits the one asked for): a row's cells, a `Label: value` line, a list or a
/// table's column of names counted, `Label: count` segments of running text.
fn record_counts(
    snippet: &Snippet,
    analysis: &QuestionAnalysis,
    question_words: &[String],
    mark_fit: u8,
) -> Vec<(u8, f64, Reading)> {
    let mut found = Vec::new();
    let record = snippet.record.as_deref();
    match record {
        Some(row @ (Record::TableRow { .. } | Record::TotalRow { .. })) => {
            if let Some((label, cells)) = row.row() {
                found.extend(row_counts(
                    label,
                    &cells,
                    analysis,
                    question_words,
                    mark_fit,
                ));
            }
        }
        Some(Record::KeyValue { label, value }) => {
            if let Some((score, count, reading)) = labelled_count(label, count_in(value), analysis)
            {
                found.push((score + mark_fit, count, reading));
            }
        }
        Some(Record::List { lead, items }) => {
            // A list without a lead line is introduced by its heading (not by the document's
            // title: "Tamsin's soup" does not list soups).
            let heading = without_place(&snippet.source)
                .split(CONTEXT_SEPARATOR)
                .skip(1)
                .last();
            let lead = lead.as_deref().or(heading).unwrap_or_default();
            if list_counts(lead, analysis) {
                found.push((
                    3 + mark_fit,
                    items.len() as f64,
                    Reading::List {
                        lead: lead.to_string(),
                        items: items.len(),
                    },
                ));
            }
        }
        Some(Record::RowNames { column, names }) => {
            // The rows are the things asked for only when their column names the noun.
            if label_fit(column, analysis) == 2 {
                found.push((
                    3 + mark_fit,
                    names.len() as f64,
                    Reading::Rows {
                        column: column.clone(),
                        rows: names.len(),
                    },
                ));
            }
        }
        Some(Record::Dated { text, .. }) => {
            found.extend(labelled_segments(text, analysis, mark_fit));
        }
        Some(Record::Turn { .. }) => {}
        Some(Record::Paragraph(_)) | None => {
            // Running text, or a data set's snippet: a whole `Label: value` line, else such
            // segments inside it.
            match labelled_line(&snippet.text) {
                Some((label, value)) => {
                    if let Some((score, count, reading)) =
                        labelled_count(label, count_in(value), analysis)
                    {
                        found.push((score + mark_fit, count, reading));
                    }
                }
                None => found.extend(labelled_segments(&snippet.text, analysis, mark_fit)),
            }
        }
    }
    found
}

/// The structured count for a question, from the snippets about it (`related`), with the
/// reader's candidates of each snippet (`per_snippet`) for year-bound counts.
pub fn structured_count(
    question: &str,
    analysis: &QuestionAnalysis,
    snippets: &[Snippet],
    related: &[bool],
    per_snippet: &[Vec<(CountCandidate, f64)>],
) -> Option<StructuredCount> {
    let asked_mark = marks_in(question).into_iter().next();
    let question_words = content_words(question);
    let telling = Telling::of(analysis);
    // (score, count, snippet, reading): the best score wins; a tie of different counts is none.
    let mut found: Vec<(u8, f64, usize, Reading)> = Vec::new();
    for (i, snippet) in snippets.iter().enumerate() {
        if !related.get(i).copied().unwrap_or(false) {
            continue;
        }
        let record = snippet.record.as_deref();
        let marks = context_marks(record, &snippet.source);
        let mark_fit = match &asked_mark {
            None => 1,
            Some(asked) if marks.iter().any(|m| mark_fits(asked, m)) => 2,
            Some(_) if marks.is_empty() => 1,
            Some(_) => continue,
        };
        found.extend(
            record_counts(snippet, analysis, &question_words, mark_fit)
                .into_iter()
                .map(|(score, count, reading)| (score, count, i, reading)),
        );
        // A row, a list or a definition is read by its structure above; the reader's counts
        // of its written text would read one cell under another's column.
        let running_text = matches!(
            record,
            None | Some(
                Record::Paragraph(_)
                    | Record::List { .. }
                    | Record::Dated { .. }
                    | Record::Turn { .. }
            )
        );
        if !running_text {
            continue;
        }
        let candidates = per_snippet.get(i).map(Vec::as_slice).unwrap_or_default();
        if let Some((count, clause)) = clause_count(&snippet.text, candidates, analysis, &telling) {
            found.push((5 + mark_fit, count, i, Reading::Clause { clause }));
        }
        // Counts the passage dates: the year asked for's, or the latest for the present tense;
        // a year it gives none for is no count at all. Only in a person's documents: a web
        // snippet is a fragment whose years tell another story (on NQ dev it turned a right
        // count wrong).
        let dated = is_document_passage(&snippet.id)
            .then(|| dated_counts(&snippet.text, candidates, analysis))
            .flatten();
        if let Some(dated) = dated {
            match (dated_answer(question, &dated), asked_year(question)) {
                (Some((count, latest)), _) => {
                    let reading = Reading::Dated {
                        year: count.year,
                        latest,
                    };
                    found.push((10, count.count, i, reading));
                }
                (None, Some(year)) => {
                    let years = years_of(&dated);
                    // No count: -1 (never a count), so that two such readings agree.
                    found.push((9, -1.0, i, Reading::NotForYear { year, years }));
                }
                (None, None) => {}
            }
        }
        // A count of the noun asked for in a passage bound to the year or version asked for.
        if let (Some(mark), 2) = (&asked_mark, mark_fit) {
            let typed = per_snippet
                .get(i)
                .into_iter()
                .flatten()
                .filter(|(c, p)| {
                    *p > 0.0
                        && (counts_the_answer_type(c, analysis)
                            || noun_follows(&snippet.text, c, analysis))
                })
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((candidate, _)) = typed {
                let bound = Reading::Bound { mark: mark.clone() };
                found.push((9, candidate.count, i, bound));
            }
        }
    }
    best_reading(&found, snippets, &question_words)
}

/// The reading with the best score; of readings that tie, those whose headings say most of the
/// question's words ("Winter timetable" for "… in winter"); a tie that remains with different
/// counts is none.
fn best_reading(
    found: &[(u8, f64, usize, Reading)],
    snippets: &[Snippet],
    question_words: &[String],
) -> Option<StructuredCount> {
    let best = found.iter().map(|f| f.0).max()?;
    let top: Vec<&(u8, f64, usize, Reading)> = found.iter().filter(|f| f.0 == best).collect();
    let context_fit = |snippet: usize| {
        let headings = without_place(&snippets[snippet].source)
            .split(CONTEXT_SEPARATOR)
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ");
        content_words(&headings)
            .iter()
            .filter(|w| question_words.contains(w))
            .count()
    };
    let most = top.iter().map(|f| context_fit(f.2)).max()?;
    let top: Vec<&(u8, f64, usize, Reading)> = top
        .into_iter()
        .filter(|f| context_fit(f.2) == most)
        .collect();
    let agree = top.iter().all(|f| f.1 == top[0].1);
    agree.then(|| StructuredCount {
        count: top[0].1,
        snippet: top[0].2,
        reading: top[0].3.clone(),
    })
}

impl StructuredCount {
    /// The things a count read from a list names: the list's items, as the document writes
    /// them; `None` for a count read another way.
    pub fn listed_names<'a>(&self, snippets: &'a [Snippet]) -> Option<&'a [String]> {
        if !matches!(self.reading, Reading::List { .. } | Reading::Rows { .. }) {
            return None;
        }
        match snippets.get(self.snippet)?.record.as_deref()? {
            Record::List { items, .. } => Some(items),
            Record::RowNames { names, .. } => Some(names),
            _ => None,
        }
    }
}

/// The count the passages state for a question, and how it was read when it came from
/// structure: a structured count first, then a clear statement, then the count of the noun asked
/// for (each `None` when the passages disagree). The pipeline and `tally eval count` both use it.
pub fn stated_count(
    question: &str,
    analysis: &QuestionAnalysis,
    snippets: &[Snippet],
    related: &[bool],
    per_snippet: &[Vec<(CountCandidate, f64)>],
) -> (Option<f64>, Option<StructuredCount>) {
    let structured = structured_count(question, analysis, snippets, related, per_snippet);
    // A year none of the dated counts is for states nothing (the pipeline declines).
    let stated = structured
        .as_ref()
        .filter(|s| !matches!(s.reading, Reading::NotForYear { .. }))
        .map(|s| s.count)
        .or_else(|| clear_statement(per_snippet, analysis, STATEMENT_FLOOR))
        .or_else(|| noun_statement(per_snippet, analysis, NOUN_STATEMENT_FLOOR));
    (stated, structured)
}

/// Which snippets are about a question: about its subject (relevance at least `min`) and not
/// bound to another year or version than the one it names.
pub fn passages_about(
    question: &str,
    subject: &Subject,
    snippets: &[Snippet],
    min: f64,
) -> Vec<bool> {
    subject
        .related(snippets, min)
        .into_iter()
        .zip(on_asked_mark(question, snippets))
        .map(|(about, on_mark)| about && on_mark)
        .collect()
}

/// Which snippets may answer a question that names a year or a version ("in 2008", "in 3.0"):
/// those bound to it by their context, and those bound to none; a passage bound to another
/// year answers for that year, not for the one asked.
pub fn on_asked_mark(question: &str, snippets: &[Snippet]) -> Vec<bool> {
    let Some(asked) = marks_in(question).into_iter().next() else {
        return vec![true; snippets.len()];
    };
    snippets
        .iter()
        .map(|s| {
            let marks = context_marks(s.record.as_deref(), &s.source);
            marks.is_empty() || marks.iter().any(|m| mark_fits(&asked, m))
        })
        .collect()
}

/// Whether a list introduced by `lead` lists what the question counts: its lead names the
/// counted noun ("Ingredients" for "how many ingredients"), or it lists who was present and the
/// question counts people.
fn list_counts(lead: &str, analysis: &QuestionAnalysis) -> bool {
    if label_fit(lead, analysis) == 2 {
        return true;
    }
    let asks_people = asked_nouns(analysis)
        .iter()
        .chain(analysis.terms.iter())
        .any(|w| PEOPLE.contains(&singular(w).as_str()) || PEOPLE.contains(&w.as_str()));
    // A list of people named by the question's own words ("sent their apologies").
    let asked: Vec<String> = analysis.terms.iter().map(|w| singular(w)).collect();
    let lead_words = content_words(lead);
    let named = !lead_words.is_empty() && lead_words.iter().all(|w| asked.contains(w));
    let lead = lead.to_lowercase();
    named || asks_people && PRESENT_LEADS.iter().any(|l| lead == *l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::question::analyse;

    fn snippet(text: &str, source: &str) -> Snippet {
        Snippet {
            id: String::new(),
            text: text.into(),
            source: source.into(),
            answers: Vec::new(),
            record: None,
        }
    }

    /// A passage of a document with its record, as ingestion writes both.
    fn passage(record: Record, source: &str) -> Snippet {
        use tally_documents::corpus::structure::{passages, Block, Outline};
        let outline = Outline {
            title: Some(source.into()),
            blocks: vec![Block {
                kind: record,
                sections: Vec::new(),
                place: None,
                crop: None,
            }],
        };
        let written = passages(&outline, source).remove(0);
        Snippet {
            record: written.record,
            ..snippet(&written.text, source)
        }
    }

    fn row(header: &[&str], cells: &[&str], source: &str) -> Snippet {
        let owned = |cells: &[&str]| cells.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        passage(
            Record::TableRow {
                header: owned(header).into(),
                cells: owned(cells),
            },
            source,
        )
    }

    fn read(question: &str, snippets: &[Snippet]) -> Option<(f64, Reading)> {
        let analysis = analyse(question);
        let per_snippet: Vec<Vec<(CountCandidate, f64)>> = snippets
            .iter()
            .map(|s| {
                count_candidates(&s.text)
                    .into_iter()
                    .map(|c| (c, 0.5))
                    .collect()
            })
            .collect();
        let related = vec![true; snippets.len()];
        structured_count(question, &analysis, snippets, &related, &per_snippet)
            .map(|s| (s.count, s.reading))
    }

    #[test]
    fn a_cell_under_the_column_that_names_the_noun() {
        let header = ["Team", "Players", "Gold", "Silver"];
        let rows = [
            row(
                &header,
                &["Falcon", "64", "8", "5"],
                "Spring Games › Medals",
            ),
            row(
                &header,
                &["Harrier", "12", "3", "6"],
                "Spring Games › Medals",
            ),
        ];
        assert_eq!(
            read("how many gold medals did team falcon win", &rows),
            Some((
                8.0,
                Reading::Cell {
                    column: "Gold".into(),
                    row: "Falcon".into()
                }
            ))
        );
        assert_eq!(
            read("how many players does harrier have", &rows).map(|r| r.0),
            Some(12.0)
        );
        assert_eq!(read("how many bronze medals did falcon win", &rows), None);
    }

    #[test]
    fn of_two_columns_that_name_the_noun_the_one_the_question_says_whole() {
        let header = ["Year", "Bus routes", "Night buses", "Depots"];
        let rows = [
            row(&header, &["2018", "41", "6", "3"], "Wrenmouth Transit"),
            row(&header, &["2019", "44", "9", "3"], "Wrenmouth Transit"),
        ];
        assert_eq!(
            read(
                "how many night buses did wrenmouth transit run in 2019",
                &rows
            ),
            Some((
                9.0,
                Reading::Cell {
                    column: "Night buses".into(),
                    row: "2019".into()
                }
            ))
        );
        assert_eq!(
            read(
                "how many bus routes did wrenmouth transit have in 2018",
                &rows
            )
            .map(|r| r.0),
            Some(41.0)
        );
    }

    #[test]
    fn a_list_under_no_heading_is_not_named_by_the_documents_title() {
        let ingredients = [passage(
            Record::List {
                lead: None,
                items: ["two leeks", "one onion", "three carrots"]
                    .map(String::from)
                    .to_vec(),
            },
            "Tamsin's barley and leek soup",
        )];
        assert_eq!(
            read(
                "how many carrots go into tamsin's barley and leek soup",
                &ingredients
            ),
            None
        );
    }

    #[test]
    fn of_readings_that_tie_the_one_under_the_heading_the_question_names() {
        let departures = |count: &str, season: &str| {
            passage(
                Record::KeyValue {
                    label: "Daily sailings".into(),
                    value: count.into(),
                },
                &format!("Tarrow Bay ferry › {season} timetable"),
            )
        };
        let timetables = [departures("10", "Summer"), departures("6", "Winter")];
        assert_eq!(
            read(
                "how many daily sailings does the tarrow bay ferry make in winter",
                &timetables
            )
            .map(|r| r.0),
            Some(6.0)
        );
        // Neither heading named: the two counts disagree, and none is given.
        assert_eq!(
            read(
                "how many daily sailings does the tarrow bay ferry make",
                &timetables
            ),
            None
        );
    }

    #[test]
    fn a_tables_rows_are_counted_and_named_from_its_first_column() {
        use tally_documents::corpus::budget::ReadBudget;
        use tally_documents::corpus::structure::{outline, passages};
        let table =
            "Station,Opened,Platforms\nAshby Cross,1874,2\nBrill Halt,1901,1\nCorran,1988,4\n";
        let outline = outline(
            table,
            tally_documents::corpus::format::Format::Csv,
            &ReadBudget::default(),
        )
        .expect("read");
        let snippets: Vec<Snippet> = passages(&outline, "Sandrith Coast Line")
            .into_iter()
            .map(|p| Snippet {
                record: p.record,
                ..snippet(&p.text, &p.context)
            })
            .collect();
        let analysis = analyse("how many stations are on the sandrith coast line");
        let per_snippet = vec![Vec::new(); snippets.len()];
        let related = vec![true; snippets.len()];
        let found = structured_count(
            "how many stations are on the sandrith coast line",
            &analysis,
            &snippets,
            &related,
            &per_snippet,
        )
        .expect("a count");
        assert_eq!(found.count, 3.0);
        assert_eq!(
            found.listed_names(&snippets),
            Some(
                &[
                    "Ashby Cross".to_string(),
                    "Brill Halt".into(),
                    "Corran".into()
                ][..]
            )
        );
    }

    #[test]
    fn labelled_counts_inside_running_text_and_a_table_of_models() {
        let branch = [snippet(
            "Opened in 2011. Staff: 7. It shares a building with the library.",
            "Osterby Credit Union › Our branches › Pelsham Green",
        )];
        assert_eq!(
            read("how many staff work at the pelsham green branch", &branch),
            Some((
                7.0,
                Reading::Labelled {
                    label: "Staff".into()
                }
            ))
        );
        // A remark in brackets after the count is not read as a second count.
        let report = [passage(
            Record::KeyValue {
                label: "Written complaints".into(),
                value: "37 (last quarter: 52)".into(),
            },
            "Whinstead Water Trust — Q3",
        )];
        assert_eq!(
            read("how many written complaints did whinstead receive", &report).map(|r| r.0),
            Some(37.0)
        );
        // A web headline is no labelled line: its value runs on past the count.
        let headline = [snippet(
            "Stadiums of India. DY Patil Stadium Capacity: 60,000 Mumbai, India",
            "stadiums",
        )];
        assert_eq!(read("how many stadiums are in india", &headline), None);
        // Rows are measures, columns are models: the column the question names most fully.
        let models = [row(
            &["Item", "RX-600", "RX-600 Pro"],
            &["Ethernet ports", "4", "8"],
            "Ryvenet RX-600 › Hardware",
        )];
        assert_eq!(
            read(
                "how many ethernet ports does the ryvenet rx-600 pro have",
                &models
            )
            .map(|r| r.0),
            Some(8.0)
        );
        assert_eq!(
            read("how many ethernet ports does the rx-600 have", &models).map(|r| r.0),
            Some(4.0)
        );
    }

    #[test]
    fn a_list_is_counted_and_a_year_binds_the_count() {
        let minutes = [passage(
            Record::List {
                lead: Some("Present".into()),
                items: ["Ann Hale (chair)", "Ben Ode", "Cy Dunn", "Di Marsh"]
                    .map(String::from)
                    .to_vec(),
            },
            "Harbour Clinic — staff meeting",
        )];
        assert_eq!(
            read(
                "how many people were at the harbour clinic staff meeting",
                &minutes
            )
            .map(|r| r.0),
            Some(4.0)
        );
        let entry = |date: &str, text: &str| {
            passage(
                Record::Dated {
                    date: date.into(),
                    text: text.into(),
                },
                "Pell Bakery › History",
            )
        };
        let history = [
            entry("2001", "opened with 3 shops in the town"),
            entry("2008", "the firm now runs 7 shops"),
        ];
        assert_eq!(
            read("how many shops did pell bakery have in 2008", &history),
            Some((
                7.0,
                Reading::Bound {
                    mark: "2008".into()
                }
            ))
        );
    }
}
