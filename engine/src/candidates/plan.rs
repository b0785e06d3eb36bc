//! A small typed plan over one table's records (issue 98): which rows are taken (conditions on
//! columns, first or last N, the rows between two rows) and what is computed of them (a count,
//! a count of distinct cells, a sum, an average, the largest or smallest, one cell's number,
//! the range of a column), or the difference of two such results. Executed here in code over
//! the in-memory tables; every result keeps the rows and cells it read, as evidence.

use std::sync::OnceLock;

use regex::Regex;
use tally_documents::tables::{in_column_unit, ColumnKind, RecordTable};

/// How a cell's number is compared with a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// Greater than the bound.
    Above,
    /// Less than the bound.
    Below,
    /// At least the bound.
    AtLeast,
    /// At most the bound.
    AtMost,
    /// Equal to the bound.
    Equal,
}

impl Comparison {
    /// Every comparison, in the order candidates are tried.
    pub const ALL: [Comparison; 5] = [
        Comparison::Above,
        Comparison::Below,
        Comparison::AtLeast,
        Comparison::AtMost,
        Comparison::Equal,
    ];

    fn holds(self, x: f64, bound: f64) -> bool {
        match self {
            Comparison::Above => x > bound,
            Comparison::Below => x < bound,
            Comparison::AtLeast => x >= bound,
            Comparison::AtMost => x <= bound,
            Comparison::Equal => (x - bound).abs() < 1e-9,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Comparison::Above => ">",
            Comparison::Below => "<",
            Comparison::AtLeast => "≥",
            Comparison::AtMost => "≤",
            Comparison::Equal => "=",
        }
    }
}

/// What a cell must be to meet a condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// Its text is this one (ignoring case, spacing and punctuation).
    Is(String),
    /// Its text is not this one.
    IsNot(String),
    /// Its text holds these words, in this order.
    Contains(String),
    /// Its number compares so with the bound.
    Compare(Comparison, f64),
    /// It holds no word or number ("", "—").
    Empty,
    /// It holds a word or a number.
    NotEmpty,
}

/// A condition on one column.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The column's position in the table.
    pub column: usize,
    /// What its cell must be.
    pub test: Test,
}

/// Which rows a plan takes.
#[derive(Debug, Clone, PartialEq)]
pub enum Rows {
    /// Every row.
    All,
    /// The rows that meet every condition.
    Where(Vec<Condition>),
    /// The rows that meet at least one condition.
    AnyOf(Vec<Condition>),
    /// The first N rows.
    First(usize),
    /// The last N rows.
    Last(usize),
    /// The rows from one row to another (by position), both ends taken or not.
    Between {
        /// The first row's position.
        from: usize,
        /// The last row's position.
        to: usize,
        /// Whether the two rows themselves are taken.
        inclusive: bool,
    },
}

/// What is computed of the rows taken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operation {
    /// How many rows.
    Count,
    /// How many different cells of a column.
    CountDistinct(usize),
    /// The sum of a column's numbers.
    Sum(usize),
    /// The average of a column's numbers.
    Average(usize),
    /// The largest of a column's numbers.
    Largest(usize),
    /// The smallest of a column's numbers.
    Smallest(usize),
    /// The largest less the smallest of a column's numbers.
    Range(usize),
    /// How many rows share a column's most common cell.
    LargestGroup(usize),
    /// The number of a column's most common cell (the year with the most games).
    MostCommon(usize),
    /// The `part`-th number written in one cell (a score "24–17" holds two).
    Cell {
        /// The row's position.
        row: usize,
        /// The column's position.
        column: usize,
        /// Which of the cell's numbers.
        part: usize,
    },
}

/// One computation over one table.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The rows taken.
    pub rows: Rows,
    /// What is computed of them.
    pub operation: Operation,
}

/// A plan, or the difference of two plans' results ("how many more … than …").
#[derive(Debug, Clone, PartialEq)]
pub enum Program {
    /// One plan's result.
    One(Plan),
    /// How far apart two plans' results are.
    Difference(Plan, Plan),
    /// Two plans' results added ("gold and bronze medals overall").
    Total(Plan, Plan),
}

/// A program's result and what it read.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The number computed.
    pub value: f64,
    /// The rows it took, by position.
    pub rows: Vec<usize>,
}

/// The numbers written in a text ("24–17": 24 and 17; "1,530": 1530), in order.
pub fn numbers_in(text: &str) -> Vec<f64> {
    static NUMBER: OnceLock<Regex> = OnceLock::new();
    let number = NUMBER.get_or_init(|| {
        Regex::new(r"[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-−]?\.\d+").expect("valid regex")
    });
    number
        .find_iter(text)
        .filter_map(|m| {
            let written = m.as_str().replace(',', "").replace('−', "-");
            // A hyphen between two numbers ("24-17") separates them; it is no minus sign.
            let written = match written.strip_prefix('-') {
                Some(rest)
                    if text[..m.start()]
                        .chars()
                        .next_back()
                        .is_some_and(char::is_alphanumeric) =>
                {
                    rest.to_string()
                }
                _ => written,
            };
            written.parse::<f64>().ok().filter(|n| n.is_finite())
        })
        .collect()
}

/// A text compared as a person reads it: lower case, words of letters and digits, a plural's
/// "s" taken off ("Unionists" names the cell "Unionist").
pub fn normalized(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if w.len() > 3 && !stem.ends_with('s') => stem,
            _ => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A cell's number as its column reads it: the typed number in the unit the column is written
/// in, else the first number the text holds.
pub fn cell_number(table: &RecordTable, row: usize, column: usize) -> Option<f64> {
    let cell = table.rows.get(row)?.cells.get(column)?;
    let kind = &table.columns.get(column)?.kind;
    let number = match (cell.number, kind) {
        (Some(n), ColumnKind::Number { .. }) => Some(in_column_unit(n, kind)),
        (Some(n), _) => Some(n),
        (None, _) => numbers_in(&cell.text).first().copied(),
    };
    number.filter(|n| n.is_finite())
}

fn cell_text(table: &RecordTable, row: usize, column: usize) -> &str {
    table
        .rows
        .get(row)
        .and_then(|r| r.cells.get(column))
        .map_or("", |c| c.text.as_str())
}

impl Condition {
    /// Whether the row meets it.
    pub fn holds(&self, table: &RecordTable, row: usize) -> bool {
        let text = || normalized(cell_text(table, row, self.column));
        match &self.test {
            Test::Is(value) => text() == normalized(value),
            Test::IsNot(value) => text() != normalized(value),
            Test::Contains(words) => {
                format!(" {} ", text()).contains(&format!(" {} ", normalized(words)))
            }
            Test::Compare(how, bound) => {
                cell_number(table, row, self.column).is_some_and(|x| how.holds(x, *bound))
            }
            Test::Empty => text().is_empty(),
            Test::NotEmpty => !text().is_empty(),
        }
    }

    /// As a person checks it: "Nation = France".
    pub fn describe(&self, table: &RecordTable) -> String {
        let column = column_name(table, self.column);
        match &self.test {
            Test::Is(value) => format!("{column} = {value}"),
            Test::IsNot(value) => format!("{column} ≠ {value}"),
            Test::Contains(words) => format!("{column} contains \"{words}\""),
            Test::Compare(how, bound) => format!("{column} {} {bound}", how.symbol()),
            Test::Empty => format!("{column} is empty"),
            Test::NotEmpty => format!("{column} is not empty"),
        }
    }
}

fn column_name(table: &RecordTable, column: usize) -> &str {
    table.columns.get(column).map_or("?", |c| c.header.as_str())
}

impl Rows {
    /// The positions of the rows taken.
    pub fn taken(&self, table: &RecordTable) -> Vec<usize> {
        let n = table.rows.len();
        match self {
            Rows::All => (0..n).collect(),
            Rows::Where(conditions) => (0..n)
                .filter(|r| conditions.iter().all(|c| c.holds(table, *r)))
                .collect(),
            Rows::AnyOf(conditions) => (0..n)
                .filter(|r| conditions.iter().any(|c| c.holds(table, *r)))
                .collect(),
            Rows::First(k) => (0..n.min(*k)).collect(),
            Rows::Last(k) => (n.saturating_sub(*k)..n).collect(),
            Rows::Between {
                from,
                to,
                inclusive,
            } => {
                let (low, high) = (*from.min(to), *from.max(to));
                (low..=high)
                    .filter(|r| *inclusive || (*r != low && *r != high))
                    .filter(|r| *r < n)
                    .collect()
            }
        }
    }

    fn describe(&self, table: &RecordTable) -> String {
        let joined = |conditions: &[Condition], with: &str| {
            conditions
                .iter()
                .map(|c| c.describe(table))
                .collect::<Vec<_>>()
                .join(with)
        };
        match self {
            Rows::All => "all rows".to_string(),
            Rows::Where(c) => format!("rows where {}", joined(c, " and ")),
            Rows::AnyOf(c) => format!("rows where {}", joined(c, " or ")),
            Rows::First(k) => format!("the first {k} rows"),
            Rows::Last(k) => format!("the last {k} rows"),
            Rows::Between {
                from,
                to,
                inclusive,
            } => format!(
                "rows {} to {}{}",
                from + 1,
                to + 1,
                if *inclusive { "" } else { " (ends left out)" }
            ),
        }
    }
}

impl Plan {
    /// Runs the plan over `table`: `None` when it computes nothing (no number to add up).
    pub fn run(&self, table: &RecordTable) -> Option<Outcome> {
        if let Operation::Cell { row, column, part } = self.operation {
            let cell = table.rows.get(row)?.cells.get(column)?;
            let value = if part == 0 {
                cell_number(table, row, column)?
            } else {
                *numbers_in(&cell.text).get(part)?
            };
            return Some(Outcome {
                value,
                rows: vec![row],
            });
        }
        let rows = self.rows.taken(table);
        let numbers = |column: usize| -> Vec<f64> {
            rows.iter()
                .filter_map(|r| cell_number(table, *r, column))
                .collect()
        };
        let value = match self.operation {
            Operation::Count => rows.len() as f64,
            Operation::CountDistinct(column) => {
                let mut seen: Vec<String> = rows
                    .iter()
                    .map(|r| normalized(cell_text(table, *r, column)))
                    .filter(|t| !t.is_empty())
                    .collect();
                seen.sort();
                seen.dedup();
                seen.len() as f64
            }
            Operation::Sum(column) => non_empty(numbers(column))?.iter().sum(),
            Operation::Average(column) => {
                let values = non_empty(numbers(column))?;
                values.iter().sum::<f64>() / values.len() as f64
            }
            Operation::Largest(column) => non_empty(numbers(column))?
                .into_iter()
                .fold(f64::MIN, f64::max),
            Operation::Smallest(column) => non_empty(numbers(column))?
                .into_iter()
                .fold(f64::MAX, f64::min),
            Operation::Range(column) => {
                let values = non_empty(numbers(column))?;
                let high = values.iter().copied().fold(f64::MIN, f64::max);
                let low = values.iter().copied().fold(f64::MAX, f64::min);
                high - low
            }
            Operation::LargestGroup(column) => groups(table, &rows, column).first()?.1 as f64,
            Operation::MostCommon(column) => {
                let (text, _) = groups(table, &rows, column).into_iter().next()?;
                *numbers_in(&text).first()?
            }
            Operation::Cell { .. } => return None,
        };
        Some(Outcome { value, rows })
    }

    /// As a person checks it: "sum of Votes over rows where Party = Labour".
    pub fn describe(&self, table: &RecordTable) -> String {
        let rows = self.rows.describe(table);
        let of = |what: &str, column: usize| {
            format!("{what} of {} over {rows}", column_name(table, column))
        };
        match self.operation {
            Operation::Count => format!("count of {rows}"),
            Operation::CountDistinct(c) => of("different values", c),
            Operation::Sum(c) => of("sum", c),
            Operation::Average(c) => of("average", c),
            Operation::Largest(c) => of("largest", c),
            Operation::Smallest(c) => of("smallest", c),
            Operation::Range(c) => of("range", c),
            Operation::LargestGroup(c) => of("rows sharing the most common value", c),
            Operation::MostCommon(c) => of("most common value", c),
            Operation::Cell { row, column, part } => format!(
                "{} of row {} (\"{}\"){}",
                column_name(table, column),
                row + 1,
                cell_text(table, row, 0),
                if part > 0 {
                    format!(", number {}", part + 1)
                } else {
                    String::new()
                }
            ),
        }
    }
}

/// A column's different cells among `rows` with how many rows hold each, the most held first
/// (a tie goes to the cell met first).
fn groups(table: &RecordTable, rows: &[usize], column: usize) -> Vec<(String, usize)> {
    let mut groups: Vec<(String, String, usize)> = Vec::new();
    for &r in rows {
        let text = cell_text(table, r, column);
        let key = normalized(text);
        if key.is_empty() {
            continue;
        }
        match groups.iter_mut().find(|(k, _, _)| *k == key) {
            Some(group) => group.2 += 1,
            None => groups.push((key, text.to_string(), 1)),
        }
    }
    groups.sort_by_key(|(_, _, n)| std::cmp::Reverse(*n));
    groups.into_iter().map(|(_, text, n)| (text, n)).collect()
}

fn non_empty(values: Vec<f64>) -> Option<Vec<f64>> {
    (!values.is_empty()).then_some(values)
}

impl Program {
    /// Runs the program over `table`.
    pub fn run(&self, table: &RecordTable) -> Option<Outcome> {
        match self {
            Program::One(plan) => plan.run(table),
            Program::Difference(a, b) | Program::Total(a, b) => {
                let (a, b) = (a.run(table)?, b.run(table)?);
                let value = match self {
                    Program::Total(..) => a.value + b.value,
                    _ => (a.value - b.value).abs(),
                };
                let mut rows = a.rows;
                rows.extend(b.rows);
                rows.sort_unstable();
                rows.dedup();
                Some(Outcome { value, rows })
            }
        }
    }

    /// As a person checks it.
    pub fn describe(&self, table: &RecordTable) -> String {
        match self {
            Program::One(plan) => plan.describe(table),
            Program::Difference(a, b) => format!(
                "difference between ({}) and ({})",
                a.describe(table),
                b.describe(table)
            ),
            Program::Total(a, b) => {
                format!("({}) added to ({})", a.describe(table), b.describe(table))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::csv_table as table;

    #[test]
    fn numbers_in_a_cell_are_read_as_written() {
        assert_eq!(numbers_in("24–17"), vec![24.0, 17.0]);
        assert_eq!(numbers_in("24-17"), vec![24.0, 17.0]);
        assert_eq!(numbers_in("1,530 losses"), vec![1530.0]);
        assert_eq!(numbers_in("−3.5"), vec![-3.5]);
        assert_eq!(numbers_in("2:01"), vec![2.0, 1.0]);
        assert_eq!(numbers_in("é-3"), vec![3.0]);
        assert_eq!(numbers_in(&"9".repeat(400)), Vec::<f64>::new());
    }

    #[test]
    fn plans_count_sum_and_take_differences() {
        let t = table("Nation,Gold,Silver\nFrance,3,25\nEgypt,1,2\nFrance,2,1\nPeru,0,7\n");
        let france = Condition {
            column: 0,
            test: Test::Is("france".into()),
        };
        let count = Plan {
            rows: Rows::Where(vec![france.clone()]),
            operation: Operation::Count,
        };
        assert_eq!(count.run(&t).map(|o| o.value), Some(2.0));
        let silver = Plan {
            rows: Rows::Where(vec![france]),
            operation: Operation::Sum(2),
        };
        assert_eq!(silver.run(&t).map(|o| o.value), Some(26.0));
        let egypt = Plan {
            rows: Rows::All,
            operation: Operation::Cell {
                row: 1,
                column: 2,
                part: 0,
            },
        };
        let difference = Program::Difference(silver, egypt);
        assert_eq!(difference.run(&t).map(|o| o.value), Some(24.0));
        assert_eq!(
            difference.describe(&t),
            "difference between (sum of Silver over rows where Nation = france) and (Silver of row 2 (\"Egypt\"))"
        );
        let above = Plan {
            rows: Rows::Where(vec![Condition {
                column: 1,
                test: Test::Compare(Comparison::AtLeast, 2.0),
            }]),
            operation: Operation::Count,
        };
        assert_eq!(above.run(&t).map(|o| o.rows), Some(vec![0, 2]));
        let between = Plan {
            rows: Rows::Between {
                from: 3,
                to: 0,
                inclusive: false,
            },
            operation: Operation::Count,
        };
        assert_eq!(between.run(&t).map(|o| o.value), Some(2.0));
        // Past the table's end, an exclusive range still leaves its far end out.
        let past = Rows::Between {
            from: 2,
            to: 9,
            inclusive: false,
        };
        assert_eq!(past.taken(&t), vec![3]);
    }
}
