//! The candidates of a question over tables: the programs its mentions suggest, run, and their
//! values gathered (one candidate per value, its readings kept in the order they were made, the
//! simplest first). Bounded: at most [`MAX_TABLES`] tables and [`MAX_CANDIDATES`] values.

use tally_documents::tables::{in_column_unit, FilterTest, RecordTable};
use tally_types::count::Operation as RuleOperation;

use super::corpus::TableCorpus;
use super::mention::{mentions, Mentions};
use super::passages::{passage_readings, DocumentPassage};
use super::plan::{
    cell_number, normalized, Comparison, Condition, Operation, Plan, Program, Rows, Test,
};
use super::{Candidate, PassageReading, Reading, Source, MAX_READINGS};
use crate::records::{plan as rules_plan, read_question, Plan as RulesPlan};

/// How many tables of a corpus are read for one question (those it names most).
pub const MAX_TABLES: usize = 4;
/// How many different values one question gets.
pub const MAX_CANDIDATES: usize = 400;
/// How many tables sharing the question's words are read for mentions.
const MAX_TABLES_READ: usize = 16;
/// How many rows a mention may take for their cells to be candidates.
const MAX_NAMED_ROWS: usize = 6;

/// The candidate answers of `question` over `tables` and the corpus's other `passages`, in the
/// order they were made (the tables' first).
pub fn candidates(
    question: &str,
    corpus: &TableCorpus,
    passages: &[DocumentPassage],
) -> Vec<Candidate> {
    let mut gathered = Gathered::default();
    let question_words = format!(" {} ", normalized(question));
    let tables = corpus.tables();
    let read = corpus.sharing_words(question, MAX_TABLES_READ);
    for (t, programs) in rules_programs(question, corpus, &read) {
        gathered.add(t, &tables[t], programs);
    }
    let mut named: Vec<(usize, usize, Mentions)> = read
        .into_iter()
        .map(|t| {
            let table = &tables[t];
            let m = mentions(question, table, corpus.texts(t));
            let fit = 2 * m.whole.len() + m.words.len() + header_words(question, table);
            (fit, t, m)
        })
        .collect();
    // The tables the question names most; ties keep the corpus's order.
    named.sort_by_key(|(fit, t, _)| (std::cmp::Reverse(*fit), *t));
    for (_, t, m) in named.into_iter().take(MAX_TABLES) {
        let table = &tables[t];
        for program in programs_of(table, &m, &question_words) {
            gathered.add(t, table, program);
            if gathered.candidates.len() >= MAX_CANDIDATES {
                return gathered.candidates;
            }
        }
    }
    for (value, source) in passage_readings(question, passages) {
        let described = match &source {
            Source::Passage { document, what, .. } => match what {
                PassageReading::Stated => format!("stated in {document}"),
                PassageReading::Items => format!("items of a list in {document}"),
            },
            Source::Table { .. } => String::new(),
        };
        gathered.push(value, Reading { source, described });
        if gathered.candidates.len() >= MAX_CANDIDATES {
            break;
        }
    }
    gathered.candidates
}

#[derive(Default)]
struct Gathered {
    candidates: Vec<Candidate>,
}

impl Gathered {
    fn add(&mut self, t: usize, table: &RecordTable, program: Program) {
        let Some(outcome) = program.run(table) else {
            return;
        };
        if !outcome.value.is_finite() {
            return;
        }
        let reading = Reading {
            described: program.describe(table),
            source: Source::Table {
                table: t,
                program,
                rows: outcome.rows,
            },
        };
        self.push(outcome.value, reading);
    }

    fn push(&mut self, value: f64, reading: Reading) {
        if !value.is_finite() {
            return;
        }
        match self
            .candidates
            .iter_mut()
            .find(|c| same_value(c.value, value))
        {
            Some(known) if known.readings.contains(&reading) => {}
            Some(known) if known.readings.len() < MAX_READINGS => known.readings.push(reading),
            Some(_) => {}
            None => self.candidates.push(Candidate {
                value,
                readings: vec![reading],
            }),
        }
    }
}

/// Whether two values are one answer (to a millionth).
pub(crate) fn same_value(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

/// How many of a table's headers the question's words name.
fn header_words(question: &str, table: &RecordTable) -> usize {
    let asked = format!(" {} ", super::plan::normalized(question));
    table
        .columns
        .iter()
        .filter(|c| {
            super::plan::normalized(&c.name)
                .split(' ')
                .any(|w| w.len() > 2 && asked.contains(&format!(" {w} ")))
        })
        .count()
}

/// The program the hand rules plan (issue 74) over the tables `read`, written in the plan
/// language: the answer today's decision gives from those tables is a candidate.
fn rules_programs(question: &str, corpus: &TableCorpus, read: &[usize]) -> Vec<(usize, Program)> {
    let Some(asked) = read_question(question) else {
        return Vec::new();
    };
    let schemas: Vec<_> = read.iter().map(|t| corpus.schemas()[*t].clone()).collect();
    let RulesPlan::Query(query) = rules_plan(&asked, &schemas) else {
        return Vec::new();
    };
    let Some(&position) = read.get(query.table) else {
        return Vec::new();
    };
    let Some(table) = corpus.tables().get(position) else {
        return Vec::new();
    };
    let mut conditions = Vec::new();
    for filter in &query.filters {
        let kind = &table.columns[filter.column].kind;
        match &filter.test {
            FilterTest::TextIs(text) => conditions.push(Condition {
                column: filter.column,
                test: Test::Is(text.clone()),
            }),
            FilterTest::Within { low, high } => {
                let bound = |b: &tally_documents::tables::Bound, open, closed| Condition {
                    column: filter.column,
                    test: Test::Compare(
                        if b.inclusive { closed } else { open },
                        in_column_unit(b.value, kind),
                    ),
                };
                conditions.extend(
                    low.iter()
                        .map(|b| bound(b, Comparison::Above, Comparison::AtLeast)),
                );
                conditions.extend(
                    high.iter()
                        .map(|b| bound(b, Comparison::Below, Comparison::AtMost)),
                );
            }
        }
    }
    let column = query.value_column;
    let operation = match (query.operation, column) {
        (RuleOperation::Count, _) => Operation::Count,
        (RuleOperation::Sum, Some(c)) => Operation::Sum(c),
        (RuleOperation::Average, Some(c)) => Operation::Average(c),
        (RuleOperation::Largest, Some(c)) => Operation::Largest(c),
        (RuleOperation::Smallest, Some(c)) => Operation::Smallest(c),
        _ => return Vec::new(),
    };
    // A column read must have a number, as the rules' computation requires.
    if let (Some(c), false) = (column, operation == Operation::Count) {
        conditions.retain(|k| k.column != c || !matches!(k.test, Test::Is(_)));
    }
    vec![(
        position,
        Program::One(Plan {
            rows: if conditions.is_empty() {
                Rows::All
            } else {
                Rows::Where(conditions)
            },
            operation,
        }),
    )]
}

/// Columns most of whose cells hold a number.
fn number_columns(table: &RecordTable) -> Vec<usize> {
    (0..table.columns.len())
        .filter(|c| {
            let numbers = (0..table.rows.len())
                .filter(|r| cell_number(table, *r, *c).is_some())
                .count();
            !table.rows.is_empty() && 2 * numbers >= table.rows.len()
        })
        .collect()
}

/// What the programs of one table are made from.
struct Context<'a> {
    table: &'a RecordTable,
    m: &'a Mentions,
    /// Columns most of whose cells hold a number.
    numeric: Vec<usize>,
    /// Rows the question names (by a cell or a number).
    named_rows: Vec<usize>,
    /// Columns the question's words name.
    named_columns: Vec<usize>,
}

/// Every program the mentions suggest over one table, the simplest first.
fn programs_of(table: &RecordTable, m: &Mentions, question_words: &str) -> Vec<Program> {
    let numeric = number_columns(table);
    let cx = Context {
        table,
        m,
        named_rows: named_rows(table, m, &numeric),
        named_columns: named_columns(table, question_words),
        numeric,
    };
    let mut programs = Vec::new();
    counts(&cx, &mut programs);
    aggregates(&cx, &mut programs);
    chosen_rows(&cx, &mut programs);
    pairs(&cx, &mut programs);
    programs
}

/// Counts of all rows and under each named cell, the named rows' numbers, and counts
/// of rows whose number compares with one the question states.
fn counts(cx: &Context<'_>, programs: &mut Vec<Program>) {
    let (table, m) = (cx.table, cx.m);
    let numeric = cx.numeric.clone();
    let named_rows = cx.named_rows.clone();
    let mentions: Vec<_> = m.all().collect();
    let one = |rows: Rows, operation| Program::One(Plan { rows, operation });
    programs.push(one(Rows::All, Operation::Count));
    // Counts under one named cell, and without it.
    for mention in &mentions {
        programs.push(one(
            Rows::Where(vec![mention.condition.clone()]),
            Operation::Count,
        ));
    }
    // The named rows' cells, and their neighbours' ("the team before Crettyard").
    for &row in &named_rows {
        push_cells(programs, table, row);
    }
    for mention in &mentions {
        if let Test::Is(text) = &mention.condition.test {
            programs.push(one(
                where_one(mention.condition.column, Test::IsNot(text.clone())),
                Operation::Count,
            ));
        }
    }
    // Counts of rows whose number compares with a number the question states.
    for &n in &m.numbers {
        for &c in &numeric {
            for how in Comparison::ALL {
                programs.push(one(where_one(c, Test::Compare(how, n)), Operation::Count));
            }
        }
    }
}

/// Sums, averages, extremes, ranges, groups and empty cells of the columns, and counts
/// of rows within a span of years or above and below a named row.
fn aggregates(cx: &Context<'_>, programs: &mut Vec<Program>) {
    let (table, m) = (cx.table, cx.m);
    let numeric = cx.numeric.clone();
    let named_rows = cx.named_rows.clone();
    let mentions: Vec<_> = m.all().collect();
    let one = |rows: Rows, operation| Program::One(Plan { rows, operation });
    // Sums, averages, extremes and ranges of every column of numbers, over all rows and over
    // each named cell's rows.
    let row_sets: Vec<Rows> = std::iter::once(Rows::All)
        .chain(
            mentions
                .iter()
                .map(|k| Rows::Where(vec![k.condition.clone()])),
        )
        .collect();
    for rows in &row_sets {
        for &c in &numeric {
            for operation in [
                Operation::Sum(c),
                Operation::Largest(c),
                Operation::Smallest(c),
                Operation::Average(c),
                Operation::Range(c),
            ] {
                programs.push(one(rows.clone(), operation));
            }
        }
    }
    for c in 0..table.columns.len() {
        programs.push(one(Rows::All, Operation::CountDistinct(c)));
        programs.push(one(Rows::All, Operation::LargestGroup(c)));
        programs.push(one(Rows::All, Operation::MostCommon(c)));
        // Rows with nothing in a column, and with something.
        for test in [Test::Empty, Test::NotEmpty] {
            programs.push(one(where_one(c, test), Operation::Count));
        }
    }
    // Rows within a span of years the question names.
    for &(low, high) in &m.spans {
        for &c in &numeric {
            programs.push(one(
                Rows::Where(vec![
                    Condition {
                        column: c,
                        test: Test::Compare(Comparison::AtLeast, low),
                    },
                    Condition {
                        column: c,
                        test: Test::Compare(Comparison::AtMost, high),
                    },
                ]),
                Operation::Count,
            ));
        }
    }
    // Rows whose number is above or below a named row's ("larger than Kilifi").
    for &row in named_rows.iter().take(2) {
        for &c in &numeric {
            let Some(value) = cell_number(table, row, c) else {
                continue;
            };
            for how in [Comparison::Above, Comparison::Below] {
                programs.push(one(
                    where_one(c, Test::Compare(how, value)),
                    Operation::Count,
                ));
            }
        }
    }
}

/// The numbers of the first and last rows and of the rows holding a column's extremes,
/// and two named columns added up.
fn chosen_rows(cx: &Context<'_>, programs: &mut Vec<Program>) {
    let table = cx.table;
    let numeric = cx.numeric.clone();
    let named_rows = cx.named_rows.clone();
    let named_columns = cx.named_columns.clone();
    // The first and last rows, and the rows holding a column's largest or smallest number
    // ("which year had the most games").
    let last = table.rows.len().saturating_sub(1);
    for row in [0, last] {
        push_row(programs, table, row);
    }
    if table.rows.len() > 1 {
        for &c in &numeric {
            programs.push(Program::Difference(cell_plan(0, c, 0), cell_plan(1, c, 0)));
        }
    }
    let extreme_columns: Vec<usize> = if numeric.iter().any(|c| named_columns.contains(c)) {
        numeric
            .iter()
            .copied()
            .filter(|c| named_columns.contains(c))
            .collect()
    } else {
        numeric.iter().copied().take(6).collect()
    };
    for &c in &extreme_columns {
        for row in extreme_rows(table, c) {
            push_row(programs, table, row);
        }
    }
    // Two named columns added up ("gold and bronze medals overall").
    let named_numeric: Vec<usize> = numeric
        .iter()
        .copied()
        .filter(|c| named_columns.contains(c))
        .collect();
    for (i, &c) in named_numeric.iter().enumerate() {
        for &d in &named_numeric[i + 1..] {
            programs.push(Program::Total(
                Plan {
                    rows: Rows::All,
                    operation: Operation::Sum(c),
                },
                Plan {
                    rows: Rows::All,
                    operation: Operation::Sum(d),
                },
            ));
            for &row in &named_rows {
                programs.push(Program::Total(cell_plan(row, c, 0), cell_plan(row, d, 0)));
            }
        }
    }
}

/// Two named cells or rows together: counts of either or both, the rows between, and how
/// far apart their numbers are.
fn pairs(cx: &Context<'_>, programs: &mut Vec<Program>) {
    let (table, m) = (cx.table, cx.m);
    let numeric = cx.numeric.clone();
    let named_rows = cx.named_rows.clone();
    let mentions: Vec<_> = m.all().collect();
    let one = |rows: Rows, operation| Program::One(Plan { rows, operation });
    // Two named cells: rows with both (two columns) or either (one column).
    for (i, a) in mentions.iter().enumerate() {
        for b in &mentions[i + 1..] {
            let both = vec![a.condition.clone(), b.condition.clone()];
            let rows = if a.condition.column == b.condition.column {
                Rows::AnyOf(both)
            } else {
                Rows::Where(both)
            };
            programs.push(one(rows.clone(), Operation::Count));
            for &c in &numeric {
                programs.push(one(rows.clone(), Operation::Sum(c)));
            }
            // How many more rows one has than the other.
            programs.push(Program::Difference(
                Plan {
                    rows: Rows::Where(vec![a.condition.clone()]),
                    operation: Operation::Count,
                },
                Plan {
                    rows: Rows::Where(vec![b.condition.clone()]),
                    operation: Operation::Count,
                },
            ));
        }
    }
    // First and last N rows.
    for &n in &m.numbers {
        if n >= 1.0 && n.fract() == 0.0 && (n as usize) < table.rows.len() {
            for rows in [Rows::First(n as usize), Rows::Last(n as usize)] {
                programs.push(one(rows.clone(), Operation::Count));
                for c in 0..table.columns.len() {
                    programs.push(one(rows.clone(), Operation::CountDistinct(c)));
                }
                for &c in &numeric {
                    programs.push(one(rows.clone(), Operation::Sum(c)));
                }
            }
        }
    }
    // Two named rows: the rows between them, and how far apart their numbers are.
    for (i, &a) in named_rows.iter().enumerate() {
        for &b in &named_rows[i + 1..] {
            for inclusive in [true, false] {
                programs.push(one(
                    Rows::Between {
                        from: a,
                        to: b,
                        inclusive,
                    },
                    Operation::Count,
                ));
            }
            for &c in &numeric {
                programs.push(Program::Difference(cell_plan(a, c, 0), cell_plan(b, c, 0)));
            }
        }
    }
    // One named row: how far apart two of its numbers are (years between two dates).
    for &row in &named_rows {
        for (i, &c) in numeric.iter().enumerate() {
            for &d in &numeric[i + 1..] {
                programs.push(Program::Difference(
                    cell_plan(row, c, 0),
                    cell_plan(row, d, 0),
                ));
            }
        }
    }
}

/// The rows whose cell in `column` meets `test`.
fn where_one(column: usize, test: Test) -> Rows {
    Rows::Where(vec![Condition { column, test }])
}

fn cell_plan(row: usize, column: usize, part: usize) -> Plan {
    Plan {
        rows: Rows::All,
        operation: Operation::Cell { row, column, part },
    }
}

/// The rows of mentions that name few rows, then the rows whose number is one the question
/// states ("week two"), in order, each once.
fn named_rows(table: &RecordTable, m: &Mentions, numeric: &[usize]) -> Vec<usize> {
    let mut rows: Vec<usize> = Vec::new();
    let mut add = |taken: &[usize]| {
        if taken.len() <= MAX_NAMED_ROWS {
            for &r in taken {
                if !rows.contains(&r) {
                    rows.push(r);
                }
            }
        }
    };
    for mention in m.all() {
        add(&mention.rows);
    }
    for &n in &m.numbers {
        for &c in numeric {
            let equal: Vec<usize> = (0..table.rows.len())
                .filter(|r| cell_number(table, *r, c).is_some_and(|x| x == n))
                .collect();
            if equal.len() <= 2 {
                add(&equal);
            }
        }
    }
    rows
}

/// The columns whose name the question's words name.
fn named_columns(table: &RecordTable, question_words: &str) -> Vec<usize> {
    (0..table.columns.len())
        .filter(|c| {
            normalized(&table.columns[*c].name)
                .split(' ')
                .any(|w| w.len() > 2 && question_words.contains(&format!(" {w} ")))
        })
        .collect()
}

/// The first rows holding a column's largest and its smallest number.
fn extreme_rows(table: &RecordTable, column: usize) -> Vec<usize> {
    let numbers: Vec<(usize, f64)> = (0..table.rows.len())
        .filter_map(|r| cell_number(table, r, column).map(|x| (r, x)))
        .collect();
    let largest = numbers
        .iter()
        .copied()
        .reduce(|best, next| if next.1 > best.1 { next } else { best });
    let smallest = numbers
        .iter()
        .copied()
        .reduce(|best, next| if next.1 < best.1 { next } else { best });
    largest
        .into_iter()
        .chain(smallest)
        .map(|(r, _)| r)
        .collect()
}

/// Every number of one row.
fn push_row(programs: &mut Vec<Program>, table: &RecordTable, row: usize) {
    let Some(cells) = table.rows.get(row).map(|r| &r.cells) else {
        return;
    };
    for (c, cell) in cells.iter().enumerate() {
        let parts = super::plan::numbers_in(&cell.text).len().max(1);
        for part in 0..parts.min(4) {
            programs.push(Program::One(cell_plan(row, c, part)));
        }
    }
}

/// Every number of a row and of the rows beside it.
fn push_cells(programs: &mut Vec<Program>, table: &RecordTable, row: usize) {
    let around = [Some(row), row.checked_sub(1), Some(row + 1)];
    for r in around.into_iter().flatten() {
        push_row(programs, table, r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_documents::corpus::structure::passages_of;
    use tally_documents::tables::tables_of;

    fn read(
        name: &str,
        text: &str,
        format: tally_documents::corpus::Format,
    ) -> Vec<tally_documents::sentence_store::index::Document> {
        tally_documents::corpus::documents::read_file(
            text.as_bytes(),
            format,
            name,
            &tally_documents::corpus::budget::ReadBudget::for_bytes(text.len()),
        )
        .expect("the file reads")
    }

    #[test]
    fn the_right_answers_are_candidates_with_the_rows_that_give_them() {
        let documents = read(
            "medals",
            "Nation,Gold,Silver\nFrance,3,25\nEgypt,1,2\nPeru,0,7\nChile,2,2\n",
            tally_documents::corpus::Format::Csv,
        );
        let tables = TableCorpus::new(
            documents
                .iter()
                .flat_map(|d| tables_of(&d.text, &d.source))
                .collect(),
        );
        let asked = |q: &str| candidates(q, &tables, &[]);
        let value_of =
            |found: &[Candidate], v: f64| found.iter().find(|c| same_value(c.value, v)).cloned();
        let difference =
            asked("what is the difference between france's and egypt's silver medals?");
        let found = value_of(&difference, 23.0).expect("25 − 2 is a candidate");
        assert!(
            found
                .readings
                .iter()
                .any(|r| r.described.starts_with("difference between")),
            "{found:?}"
        );
        let count = asked("how many nations won more than 1 gold?");
        let found = value_of(&count, 2.0).expect("France and Chile");
        assert!(
            matches!(&found.readings[0].source, Source::Table { rows, .. } if rows == &vec![0, 3])
        );
        let total = asked("how many silver medals in total?");
        assert!(value_of(&total, 36.0).is_some());
        assert!(total.len() <= MAX_CANDIDATES);
        // The same question over the same tables gives the same candidates.
        assert_eq!(asked("how many silver medals in total?"), total);
    }

    #[test]
    fn passages_give_their_stated_numbers_and_their_lists_counted() {
        let documents = read(
            "club",
            "# Drumlea Sailing Club\n\nThe club keeps thirty dinghies and 4 keelboats.\n\nCommittee:\n\n- Ann\n- Bea\n- Cal\n",
            tally_documents::corpus::Format::Markdown,
        );
        let passages: Vec<DocumentPassage> = documents
            .iter()
            .flat_map(|d| {
                passages_of(&d.text, &d.source)
                    .into_iter()
                    .map(|passage| DocumentPassage {
                        document: d.id.clone(),
                        passage,
                    })
            })
            .collect();
        let stated = candidates(
            "how many keelboats does drumlea sailing club keep",
            &TableCorpus::default(),
            &passages,
        );
        assert!(stated.iter().any(|c| c.value == 4.0));
        let listed = candidates(
            "how many people are on the drumlea committee",
            &TableCorpus::default(),
            &passages,
        );
        let three = listed
            .iter()
            .find(|c| c.value == 3.0)
            .expect("the list counted");
        assert!(matches!(
            three.readings[0].source,
            Source::Passage {
                what: PassageReading::Items,
                ..
            }
        ));
    }
}
