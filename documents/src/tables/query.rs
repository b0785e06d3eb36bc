//! An aggregation over one table, typed: the query a question is planned into (which column is
//! added up or compared, the conditions a row must meet), and its result computed in code (what
//! the in-memory store runs, and what the PostgreSQL store's SQL must agree with; a test holds
//! them together). Nothing of a query is text to splice into SQL.

use tally_types::count::Operation;

use super::RecordTable;

/// A computation over one table, every part typed: nothing of it is text to splice into SQL.
#[derive(Debug, Clone, PartialEq)]
pub struct AggregateQuery {
    /// The table's position among the schemas it was planned against.
    pub table: usize,
    /// What is computed.
    pub operation: Operation,
    /// The column added up, averaged or compared.
    pub value_column: Option<usize>,
    /// The conditions a row must meet to be taken.
    pub filters: Vec<Filter>,
}

/// A condition on one column.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    /// The column's position in the table.
    pub column: usize,
    /// What its cell must be.
    pub test: FilterTest,
    /// As a person checks it: "Opened > 1990".
    pub described: String,
}

/// What a cell must be to meet a filter.
#[derive(Debug, Clone, PartialEq)]
pub enum FilterTest {
    /// A number within bounds (in the column's base unit).
    Within {
        /// The lower bound, when any.
        low: Option<Bound>,
        /// The upper bound, when any.
        high: Option<Bound>,
    },
    /// A text equal to this one, ignoring case.
    TextIs(String),
}

/// One end of a range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    /// The bound's value.
    pub value: f64,
    /// Whether the value itself is within.
    pub inclusive: bool,
}

impl FilterTest {
    /// Whether a cell meets it.
    pub fn accepts(&self, number: Option<f64>, text: &str) -> bool {
        match self {
            FilterTest::Within { low, high } => {
                let Some(x) = number else {
                    return false;
                };
                let above = low.is_none_or(|b| x > b.value || (b.inclusive && x == b.value));
                let below = high.is_none_or(|b| x < b.value || (b.inclusive && x == b.value));
                above && below
            }
            FilterTest::TextIs(wanted) => text.trim().eq_ignore_ascii_case(wanted),
        }
    }
}

/// The result of an aggregation, with the rows it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    /// The count, sum, average or chosen row's value; `None` when no row had a value to add
    /// or compare.
    pub value: Option<f64>,
    /// The chosen row (largest, smallest), by its position in the table, and its name (its
    /// first cell).
    pub chosen: Option<usize>,
    /// The chosen row's name.
    pub chosen_name: Option<String>,
    /// Whether each row met every condition (and had a value, when a column is read), for
    /// the rows shown at least.
    pub taken: Vec<bool>,
    /// How many rows of the whole table were taken.
    pub rows_taken: usize,
}

/// Runs `query` over `table`'s rows.
pub fn compute(table: &RecordTable, query: &AggregateQuery) -> Computed {
    let cell_number = |row: usize, column: usize| {
        table.rows[row]
            .cells
            .get(column)
            .and_then(|cell| cell.number)
    };
    let taken: Vec<bool> = (0..table.rows.len())
        .map(|r| {
            let meets = query.filters.iter().all(|f| {
                let cell = table.rows[r].cells.get(f.column);
                f.test.accepts(
                    cell.and_then(|c| c.number),
                    cell.map_or("", |c| c.text.as_str()),
                )
            });
            meets
                && query
                    .value_column
                    .is_none_or(|column| cell_number(r, column).is_some())
        })
        .collect();
    let values: Vec<(usize, f64)> = match query.value_column {
        Some(column) => (0..table.rows.len())
            .filter(|r| taken[*r])
            .filter_map(|r| cell_number(r, column).map(|v| (r, v)))
            .collect(),
        None => Vec::new(),
    };
    let count = taken.iter().filter(|t| **t).count();
    // The first row wins a tie, as SQL's ORDER BY value, row does.
    let pick = |better: fn(f64, f64) -> bool| {
        values
            .iter()
            .copied()
            .reduce(|best, next| if better(next.1, best.1) { next } else { best })
    };
    let (value, chosen) = match query.operation {
        Operation::Count => (Some(count as f64), None),
        Operation::Sum => (
            (!values.is_empty()).then(|| values.iter().map(|(_, v)| v).sum()),
            None,
        ),
        Operation::Average => (
            (!values.is_empty())
                .then(|| values.iter().map(|(_, v)| v).sum::<f64>() / values.len() as f64),
            None,
        ),
        Operation::Largest => match pick(|a, b| a > b) {
            Some((row, v)) => (Some(v), Some(row)),
            None => (None, None),
        },
        Operation::Smallest => match pick(|a, b| a < b) {
            Some((row, v)) => (Some(v), Some(row)),
            None => (None, None),
        },
    };
    let chosen_name = chosen
        .and_then(|r| table.rows[r].cells.first())
        .map(|cell| cell.text.clone());
    Computed {
        value,
        chosen,
        chosen_name,
        taken,
        rows_taken: count,
    }
}
