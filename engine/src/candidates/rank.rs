//! The learned choice among the candidates (issue 99). Each candidate is described by hashed
//! features of how it meets the question — its operation, rows and conditions against the
//! question's cue words and words, how much of the columns it read the question names, its
//! value's form, how many readings agree, where the enumeration put it — and one log-linear
//! model scores them, with regression trees boosted on its score for what one feature means
//! beside another (`Tree`); a softmax over a question's candidates gives each one's
//! probability, and a logistic curve fitted on held-out questions turns the best one's into the
//! probability that it is right. Trained on WikiTableQuestions' train split by `tally-lab train ranker`
//! (weak supervision: the candidates equal to the gold answer are the positives, their marginal
//! likelihood maximised) and shipped in `data/candidate-ranker.json`.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use tally_documents::tables::{ColumnKind, RecordTable};

use super::asked::Asked;
use super::documents::{standing_of, DocumentWords, Standing};
use super::plan::{numbers_in, Comparison, Condition, Operation, Plan, Program, Rows, Test};
use super::{normalized, Candidate, PassageReading, Source, TableCorpus};

mod model;
mod passage;
mod readers;
mod trees;

pub use model::{
    best, calibrate, marginal, softmax, sureness_row, Curve, Ranker, Scorer, SURENESS,
};
pub use readers::{Reader, ReadersAnswer};
pub use trees::{Node, Tree, Values};

use passage::passage_features;
use readers::readers_features;

/// The features are hashed into this many weights.
pub const DIMENSIONS: usize = 1 << 18;

/// A candidate's features: hashed indices with their values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Features(pub Vec<(u32, f32)>);

impl Features {
    fn add(&mut self, name: &str, value: f32) {
        if value != 0.0 {
            self.0.push((hash(name), value));
        }
    }

    fn flag(&mut self, name: &str) {
        self.add(name, 1.0);
    }

    /// The value of the feature `name` (0 when absent): what the sureness curve reads.
    pub fn value(&self, name: &str) -> f64 {
        let index = hash(name);
        self.0
            .iter()
            .filter(|(i, _)| *i == index)
            .map(|(_, v)| f64::from(*v))
            .sum()
    }

    /// Each feature again under a second index, the weight it has over several documents.
    fn add_twins(&mut self) {
        let twins: Vec<(u32, f32)> = self.0.iter().map(|&(i, v)| (twin(i), v)).collect();
        self.0.extend(twins);
    }
}

/// A feature's several-documents twin: its index mixed into another place of the weights.
fn twin(index: u32) -> u32 {
    let mixed = (u64::from(index) ^ 0x5bd1_e995).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ((mixed >> 20) % DIMENSIONS as u64) as u32
}

/// FNV-1a of a feature's name, within [`DIMENSIONS`].
fn hash(name: &str) -> u32 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    (h % DIMENSIONS as u64) as u32
}

/// What the ranker reads of a table's columns once per question: how many of a column's
/// values differ (a count of the rows whose key is X is 1 by construction, and the question
/// more often asks for another cell of that row), which number columns the question names, and
/// for a value a condition tests, how many cells are it and how many hold it among other words
/// ("Usain Bolt" against "Usain Bolt, Asafa Powell").
struct TableFacts<'a> {
    /// The table's cells as questions are matched with them, column by column.
    texts: &'a [Vec<String>],
    distinct: Vec<f32>,
    named_numbers: Vec<usize>,
    held: RefCell<BTreeMap<(usize, String), (usize, usize)>>,
}

impl<'a> TableFacts<'a> {
    fn of(asked: &Asked, table: &RecordTable, texts: &'a [Vec<String>]) -> Self {
        let rows = table.rows.len().max(1) as f32;
        let distinct = texts
            .iter()
            .map(|cells| cells.iter().collect::<BTreeSet<_>>().len() as f32 / rows)
            .collect();
        let named_numbers = table
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                matches!(c.kind, ColumnKind::Number { .. }) && asked.names_loosely(&c.header) > 0.0
            })
            .map(|(at, _)| at)
            .collect();
        TableFacts {
            texts,
            distinct,
            named_numbers,
            held: RefCell::default(),
        }
    }

    /// The cells of `column` that are `value`, and those that hold it as words among others.
    fn held(&self, column: usize, value: &str) -> (usize, usize) {
        let value = normalized(value);
        let key = (column, value);
        if let Some(held) = self.held.borrow().get(&key) {
            return *held;
        }
        let padded = format!(" {} ", key.1);
        let cells = self.texts.get(column).map_or(&[][..], Vec::as_slice);
        let equal = cells.iter().filter(|c| **c == key.1).count();
        let within = cells
            .iter()
            .filter(|c| **c != key.1 && format!(" {c} ").contains(&padded))
            .count();
        self.held.borrow_mut().insert(key, (equal, within));
        (equal, within)
    }

    /// Whether `column`'s values are a key: nearly all differ, over at least three rows.
    fn is_key(&self, table: &RecordTable, column: usize) -> bool {
        table.rows.len() >= 3 && self.distinct.get(column).is_some_and(|d| *d >= 0.9)
    }
}

/// The features of each reading of each of `candidates` (as [`super::candidates`] gave them
/// for `question` over `corpus`), in their order: a candidate's probability is the sum of its
/// readings' (as a parser marginalises over the logical forms that give one answer). `readers`
/// is what the readers answered, where they were asked (a person's documents; not the data
/// sets' tables).
pub fn features(
    question: &str,
    corpus: &TableCorpus,
    documents: &DocumentWords,
    candidates: &[Candidate],
    readers: Option<ReadersAnswer>,
) -> Vec<Vec<Features>> {
    let asked = Asked::of(question);
    let standings = documents.standings(&asked);
    // Over several documents (a person's files, passages beside tables) the same feature may
    // weigh otherwise than over one table: each is also given as its several-documents twin.
    let several = documents.several();
    let mut facts = BTreeMap::new();
    candidates
        .iter()
        .enumerate()
        .map(|(position, candidate)| {
            candidate
                .readings
                .iter()
                .map(|reading| {
                    let mut f = reading_features(
                        &asked,
                        corpus,
                        &mut facts,
                        position,
                        candidate,
                        &reading.source,
                    );
                    let document = match &reading.source {
                        Source::Table { table, .. } => {
                            corpus.tables().get(*table).map(|t| t.document.as_str())
                        }
                        Source::Passage { document, .. } => Some(document.as_str()),
                    };
                    let standing = document.and_then(|d| standing_of(&standings, d));
                    document_features(&mut f, standing);
                    readers_features(&mut f, readers, candidate.value, &reading.source);
                    if several {
                        f.add_twins();
                    }
                    f
                })
                .collect()
        })
        .collect()
}

fn reading_features<'a>(
    asked: &Asked,
    corpus: &'a TableCorpus,
    facts: &mut BTreeMap<usize, TableFacts<'a>>,
    position: usize,
    candidate: &Candidate,
    source: &Source,
) -> Features {
    let mut f = Features::default();
    f.flag("bias");
    let what = match source {
        Source::Table { table, program, .. } => match corpus.tables().get(*table) {
            Some(read) => {
                let facts = facts
                    .entry(*table)
                    .or_insert_with(|| TableFacts::of(asked, read, corpus.texts(*table)));
                let read = Read {
                    asked,
                    table: read,
                    facts,
                };
                let mut named = Vec::new();
                let op = program_features(&mut f, &read, program, &mut named);
                coverage_features(&mut f, asked, &op, &named);
                numbers_named_features(&mut f, asked, &named.join(" "));
                op
            }
            None => "table".to_string(),
        },
        Source::Passage {
            what,
            context,
            text,
            ..
        } => {
            passage_features(&mut f, asked, context, text, *what, candidate.value);
            match what {
                PassageReading::Stated => "passage stated".to_string(),
                PassageReading::Items => "passage items".to_string(),
            }
        }
    };
    f.flag(&format!("op={what}"));
    for cue in &asked.cues {
        f.flag(&format!("op={what}|cue={cue}"));
    }
    value_features(&mut f, asked, &what, candidate);
    f.add("readings", candidate.readings.len() as f32 / 3.0);
    f.flag(&format!("op={what}|readings={}", candidate.readings.len()));
    f.flag(match position {
        0 => "position 0",
        1..=4 => "position 1-4",
        5..=19 => "position 5-19",
        _ => "position 20+",
    });
    f.add("position log", ((1 + position) as f32).ln() / 6.0);
    f
}

/// Where the reading's document stands among the corpus's for the question: the one naming
/// its subject, another that shares some of its words, or one far from it.
fn document_features(f: &mut Features, standing: Option<Standing>) {
    let Some(standing) = standing else {
        f.flag("document unknown");
        return;
    };
    f.flag(match standing.rank {
        _ if standing.share == 0.0 => "document shares no word",
        0 => "document first",
        1 => "document second",
        _ => "document further",
    });
    f.add("document share", standing.share);
    f.add("document covers question", standing.covers);
}

/// Whether the dimension of what a reading read ("58 cm": length; a column of pounds: currency)
/// is the one the question asks for ("how tall"), another, or none (a bare number, a count).
fn dimension_features(f: &mut Features, asked: &Asked, side: &str, read: Option<&str>) {
    let read = read
        .map(|d| {
            if d.starts_with("money") {
                crate::value::MONEY_DIMENSION
            } else {
                d
            }
        })
        .filter(|d| !matches!(*d, "number" | "count"));
    let relation = match (asked.dimension.as_deref(), read) {
        (_, None) => "bare",
        (Some(asked), Some(read)) if asked == read => "same",
        (_, Some(_)) => "other",
    };
    let asked = asked.dimension.as_deref().unwrap_or("none");
    f.flag(&format!("{side}dimension {relation}"));
    f.flag(&format!("{side}dimension asked={asked}|{relation}"));
}

/// Whether the numbers the question names ("in 2005", "year 6") are in what the reading read:
/// a document that never says them answers another question.
fn numbers_named_features(f: &mut Features, asked: &Asked, read: &str) {
    if asked.numbers.is_empty() {
        return;
    }
    let held = numbers_in(read);
    let missing = asked
        .numbers
        .iter()
        .filter(|n| !held.iter().any(|h| (h - *n).abs() < 1e-9))
        .count();
    f.flag(if missing == 0 {
        "question numbers all read"
    } else {
        "question numbers not read"
    });
}

/// A table's reading as the ranker sees it: the question, the table and its columns' facts.
struct Read<'a> {
    asked: &'a Asked,
    table: &'a RecordTable,
    facts: &'a TableFacts<'a>,
}

/// The features of a program over a table; gives the operation's name.
fn program_features(
    f: &mut Features,
    read: &Read,
    program: &Program,
    named: &mut Vec<String>,
) -> String {
    match program {
        Program::One(plan) => plan_features(f, read, plan, "", named),
        Program::Difference(a, b) => {
            plan_features(f, read, a, "left ", named);
            let op = plan_features(f, read, b, "right ", named);
            sides_named_features(f, read, a, b, "difference");
            format!("difference of {op}")
        }
        Program::Total(a, b) => {
            plan_features(f, read, a, "left ", named);
            let op = plan_features(f, read, b, "right ", named);
            sides_named_features(f, read, a, b, "total");
            format!("total of {op}")
        }
    }
}

/// How much the question names a cell plan's row: the most of any of its other cells' words
/// (`None`: not a cell).
fn cell_row_named(read: &Read, plan: &Plan) -> Option<f32> {
    let Operation::Cell { row, column, .. } = plan.operation else {
        return None;
    };
    Some(read.table.rows.get(row).map_or(0.0, |r| {
        r.cells
            .iter()
            .enumerate()
            .filter(|(c, _)| *c != column)
            .map(|(_, cell)| read.asked.names(&cell.text))
            .fold(0.0, f32::max)
    }))
}

/// Whether both of a two-cell program's rows are named, not one of them: the side features
/// add up, and a pair with one named row and a neighbour can outweigh the pair the question
/// names ("between albania and algeria" read as Afghanistan and Albania).
fn sides_named_features(f: &mut Features, read: &Read, a: &Plan, b: &Plan, what: &str) {
    let (Some(left), Some(right)) = (cell_row_named(read, a), cell_row_named(read, b)) else {
        return;
    };
    f.add(&format!("{what} both rows named"), left.min(right));
    if left.min(right) == 0.0 && left.max(right) > 0.0 {
        f.flag(&format!("{what} one row unnamed"));
    }
}

/// How much of the question the reading accounts for: the share of its words that the
/// headers, conditions and row it read name (semantic parsers' lexical coverage), and whether
/// the thing counted ("how many medals") is among them.
fn coverage_features(f: &mut Features, asked: &Asked, op: &str, named: &[String]) {
    let words: BTreeSet<String> = named
        .iter()
        .flat_map(|t| {
            normalized(t)
                .split(' ')
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let covered = asked.words.iter().filter(|w| words.contains(*w)).count();
    let share = covered as f32 / asked.words.len().max(1) as f32;
    f.add("coverage", share);
    f.add(&format!("op={op}|coverage"), share);
    f.add(
        "uncovered words",
        (asked.words.len() - covered) as f32 / 5.0,
    );
    if let Some(counted) = &asked.counted {
        let flag = if words.contains(counted) {
            "counted named"
        } else {
            "counted not named"
        };
        f.flag(&format!("op={op}|{flag}"));
    }
}

fn plan_features(
    f: &mut Features,
    read: &Read,
    plan: &Plan,
    side: &str,
    named: &mut Vec<String>,
) -> String {
    let Read { asked, table, .. } = *read;
    let header = |column: usize| table.columns.get(column).map_or("", |c| c.header.as_str());
    let (op, column) = match plan.operation {
        Operation::Count => ("count", None),
        Operation::CountDistinct(c) => ("count distinct", Some(c)),
        Operation::Sum(c) => ("sum", Some(c)),
        Operation::Average(c) => ("average", Some(c)),
        Operation::Largest(c) => ("largest", Some(c)),
        Operation::Smallest(c) => ("smallest", Some(c)),
        Operation::Range(c) => ("range", Some(c)),
        Operation::LargestGroup(c) => ("largest group", Some(c)),
        Operation::MostCommon(c) => ("most common", Some(c)),
        Operation::Cell { row, column, part } => {
            f.flag(&format!("{side}cell part={}", part.min(2)));
            f.add(
                &format!("{side}cell row named"),
                cell_row_named(read, plan).unwrap_or(0.0),
            );
            let last = table.rows.len().saturating_sub(1);
            let place = match row {
                0 => "first row",
                r if r == last => "last row",
                _ => "middle row",
            };
            f.flag(&format!("{side}cell {place}"));
            for cue in &asked.cues {
                f.flag(&format!("{side}cell {place}|cue={cue}"));
            }
            let kind = match table.columns.get(column).map(|c| &c.kind) {
                Some(ColumnKind::Number { .. }) => "number column",
                Some(ColumnKind::Year) => "year column",
                _ => "text column",
            };
            f.flag(&format!("{side}cell {kind}"));
            if let Some(r) = table.rows.get(row) {
                named.extend(
                    r.cells
                        .iter()
                        .enumerate()
                        .filter(|(c, _)| *c != column)
                        .map(|(_, cell)| cell.text.clone()),
                );
            }
            ("cell", Some(column))
        }
    };
    let dimension = match (plan.operation, column.and_then(|c| table.columns.get(c))) {
        (Operation::Count | Operation::CountDistinct(_), _) => None,
        (_, Some(c)) => match &c.kind {
            ColumnKind::Number { measure, .. } => Some(measure.as_str()),
            ColumnKind::Year => Some("year"),
            _ => None,
        },
        (_, None) => None,
    };
    dimension_features(f, asked, side, dimension);
    if let Some(column) = column {
        named.push(header(column).to_string());
        let named = asked.names(header(column));
        f.add(&format!("{side}op={op}|column named"), named);
        if named == 0.0 {
            f.flag(&format!("{side}op={op}|column not named"));
        }
        f.add(
            &format!("{side}op={op}|column named loosely"),
            asked.names_loosely(header(column)),
        );
    }
    unread_column_features(f, read, plan, column, op, side);
    let rows = match &plan.rows {
        Rows::All => "all",
        Rows::Where(conditions) | Rows::AnyOf(conditions) => {
            condition_features(f, read, conditions, op, side, named);
            if matches!(plan.rows, Rows::AnyOf(_)) {
                "any of"
            } else {
                "where"
            }
        }
        Rows::First(_) => "first",
        Rows::Last(_) => "last",
        Rows::Between { .. } => "between",
    };
    f.flag(&format!("{side}op={op}|rows={rows}"));
    for cue in &asked.cues {
        f.flag(&format!("{side}rows={rows}|cue={cue}"));
    }
    f.add(
        &format!("{side}table context named"),
        asked.names(&table.context),
    );
    op.to_string()
}

/// The features of a plan's conditions: each test against the question's cues, and how much
/// of their columns the question names.
fn condition_features(
    f: &mut Features,
    read: &Read,
    conditions: &[Condition],
    op: &str,
    side: &str,
    named: &mut Vec<String>,
) {
    let Read { asked, table, .. } = *read;
    let header = |column: usize| table.columns.get(column).map_or("", |c| c.header.as_str());
    f.add(&format!("{side}conditions"), conditions.len() as f32);
    for condition in conditions {
        named.push(header(condition.column).to_string());
        if let Test::Is(text) | Test::IsNot(text) | Test::Contains(text) = &condition.test {
            named.push(text.clone());
        }
        let test = match &condition.test {
            Test::Is(_) => "is",
            Test::IsNot(_) => "is not",
            Test::Contains(_) => "contains",
            Test::Compare(Comparison::Above, _) => "above",
            Test::Compare(Comparison::Below, _) => "below",
            Test::Compare(Comparison::AtLeast, _) => "at least",
            Test::Compare(Comparison::AtMost, _) => "at most",
            Test::Compare(Comparison::Equal, _) => "equal",
            Test::Empty => "empty",
            Test::NotEmpty => "not empty",
        };
        f.flag(&format!("{side}op={op}|test={test}"));
        f.flag(&format!("{side}test={test}|negated={}", asked.negated));
        f.flag(&format!("{side}test={test}|compared={}", asked.compared));
        for cue in &asked.cues {
            f.flag(&format!("{side}test={test}|cue={cue}"));
        }
        f.add(
            &format!("{side}condition column named"),
            asked.names(header(condition.column)),
        );
        if let Test::Is(text) = &condition.test {
            f.add(&format!("{side}condition value named"), asked.names(text));
            if read.facts.is_key(table, condition.column) {
                f.flag(&format!("{side}op={op}|is on a key column"));
            }
        }
        if let Test::Is(text) | Test::Contains(text) = &condition.test {
            let (_, within) = read.facts.held(condition.column, text);
            if within > 0 {
                f.flag(&format!(
                    "{side}op={op}|test={test}|other cells hold it among more"
                ));
            }
        }
    }
}

/// Whether the question names a number column the plan does not read ("how many people
/// enrolled at X" beside a count of X's rows: the Enrollment column holds the answer).
fn unread_column_features(
    f: &mut Features,
    read: &Read,
    plan: &Plan,
    column: Option<usize>,
    op: &str,
    side: &str,
) {
    let conditions: &[Condition] = match &plan.rows {
        Rows::Where(c) | Rows::AnyOf(c) => c,
        _ => &[],
    };
    let unread = read
        .facts
        .named_numbers
        .iter()
        .any(|&c| Some(c) != column && conditions.iter().all(|k| k.column != c));
    if unread {
        f.flag(&format!("{side}op={op}|a named number column unread"));
    }
}

fn value_features(f: &mut Features, asked: &Asked, op: &str, candidate: &Candidate) {
    let value = candidate.value;
    let whole = value.fract() == 0.0;
    let mut form = vec![];
    if whole {
        form.push("whole");
    }
    if whole && (1000.0..=2100.0).contains(&value) {
        form.push("year-like");
    }
    if value == 0.0 {
        form.push("zero");
    }
    if value == 1.0 {
        form.push("one");
    }
    if value < 0.0 {
        form.push("negative");
    }
    if value.abs() <= 10.0 {
        form.push("small");
    } else if value.abs() > 10_000.0 {
        form.push("large");
    }
    if asked.numbers.iter().any(|n| (n - value).abs() < 1e-9) {
        form.push("in question");
        if asked.named_numbers.iter().any(|n| (n - value).abs() < 1e-9) {
            form.push("part of a name in question");
        }
    }
    for form in form {
        f.flag(&format!("value {form}"));
        f.flag(&format!("op={op}|value {form}"));
        for cue in &asked.cues {
            f.flag(&format!("value {form}|cue={cue}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_ranker_reads_and_its_curve_rises() {
        let scorer = Scorer::shipped();
        assert!(!scorer.ranker.weights.is_empty());
        let none = Features::default();
        assert!(scorer.calibrated(0.9, false, &none) > scorer.calibrated(0.2, false, &none));
        assert!(scorer.calibrated(0.9, true, &none) > scorer.calibrated(0.2, true, &none));
        assert!((0.0..=1.0).contains(&scorer.ranker.bound));
    }

    #[test]
    fn a_column_of_different_values_is_a_key_and_a_named_number_column_is_found() {
        let csv = "Institution,Enrollment,State\nAlma,1200,Ohio\nBrook,800,Ohio\nCedar,950,Iowa and Ohio\n";
        let table = super::super::csv_table(csv);
        let asked = Asked::of("how many people enrolled at cedar?");
        let texts = super::super::column_texts(&table);
        let facts = TableFacts::of(&asked, &table, &texts);
        assert!(facts.is_key(&table, 0));
        assert!(!facts.is_key(&table, 2));
        assert_eq!(facts.named_numbers, vec![1]);
        assert_eq!(facts.held(2, "Ohio"), (2, 1));
        assert_eq!(facts.held(2, "Iowa"), (0, 1));
    }

    #[test]
    fn the_dimension_read_is_weighed_against_the_one_asked() {
        let asked = Asked::of("how tall is the ironleaf ap-300");
        let relation = |read: Option<&str>| {
            let mut f = Features::default();
            dimension_features(&mut f, &asked, "", read);
            ["same", "other", "bare"]
                .into_iter()
                .find(|r| f.0.contains(&(hash(&format!("dimension {r}")), 1.0)))
        };
        assert_eq!(relation(Some("length")), Some("same"));
        assert_eq!(relation(Some("money:GBP")), Some("other"));
        assert_eq!(relation(Some("number")), Some("bare"));
        assert_eq!(relation(None), Some("bare"));
    }

    #[test]
    fn a_candidate_the_readers_gave_is_told_from_the_others() {
        let csv = "Branch,Loans\nNorth,120\nSouth,85\nEast,240\n";
        let corpus = TableCorpus::new(vec![super::super::csv_table(csv)]);
        let documents = DocumentWords::new(&corpus, &[]);
        let question = "how many loans did the south branch make";
        let found = super::super::candidates(question, &corpus, &[]);
        let at = |value: f64| found.iter().position(|c| c.value == value);
        let (south, north) = (at(85.0).expect("85 read"), at(120.0).expect("120 read"));
        let agree = hash("readers agree|by=count|from=table");
        let flagged = |readers: Option<ReadersAnswer>, which: usize| {
            features(question, &corpus, &documents, &found, readers)[which]
                .iter()
                .any(|f| f.0.contains(&(agree, 1.0)))
        };
        let readers = ReadersAnswer {
            number: 85.0,
            by: Reader::Count,
            written: None,
        };
        assert!(flagged(Some(readers), south));
        assert!(!flagged(Some(readers), north));
        assert!(!flagged(None, south));
        // A value written with a scale word agrees as the document writes it, and no other
        // number does by dividing it ("£38,000" is not "38 matches").
        let value = ReadersAnswer {
            number: 1_140_000.0,
            by: Reader::Value,
            written: Some(1.14),
        };
        assert!(value.agrees_with(1.14) && value.agrees_with(1_140_000.0));
        assert!(!value.agrees_with(1.15));
        let cost = ReadersAnswer {
            number: 38_000.0,
            by: Reader::Value,
            written: Some(38_000.0),
        };
        assert!(!cost.agrees_with(38.0));
        // A number that is no number agrees with nothing.
        let nan = ReadersAnswer {
            number: f64::NAN,
            by: Reader::Count,
            written: None,
        };
        assert!(!nan.agrees_with(2.0));
    }

    #[test]
    fn a_difference_of_two_named_rows_is_told_from_one_with_a_neighbour() {
        let csv = "Country,GDP\nAfghanistan,20.3\nAlbania,12.8\nAlgeria,207.0\n";
        let table = super::super::csv_table(csv);
        let asked = Asked::of("what is the difference in gdp between albania and algeria?");
        let texts = super::super::column_texts(&table);
        let facts = TableFacts::of(&asked, &table, &texts);
        let read = Read {
            asked: &asked,
            table: &table,
            facts: &facts,
        };
        let cell = |row| Plan {
            rows: Rows::All,
            operation: Operation::Cell {
                row,
                column: 1,
                part: 0,
            },
        };
        let named = |a, b| {
            let mut f = Features::default();
            sides_named_features(&mut f, &read, &cell(a), &cell(b), "difference");
            let both = f.0.contains(&(hash("difference both rows named"), 1.0));
            let one = f.0.contains(&(hash("difference one row unnamed"), 1.0));
            (both, one)
        };
        assert_eq!(named(1, 2), (true, false));
        assert_eq!(named(0, 1), (false, true));
    }

    #[test]
    fn softmax_sums_to_one_and_the_best_is_the_first_of_the_highest() {
        let p = softmax(&[1.0, 3.0, 3.0]);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert_eq!(best(&p).map(|b| b.0), Some(1));
    }
}
