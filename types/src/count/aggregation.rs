//! A count (or sum, average, largest, smallest) computed over a table's records rather than
//! read from a sentence: which table, which column, the condition read, the result and the rows
//! it touched (issue 74). The page, the API and the stored answer share this one type.

use serde::{Deserialize, Serialize};

/// What is computed over the rows that meet the condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    /// How many rows meet the condition.
    Count,
    /// A column added up over those rows.
    Sum,
    /// A column's mean over those rows.
    Average,
    /// The row with a column's largest value.
    Largest,
    /// The row with a column's smallest value.
    Smallest,
}

impl Operation {
    /// Every operation, in the order they are listed.
    pub const ALL: [Operation; 5] = [
        Operation::Count,
        Operation::Sum,
        Operation::Average,
        Operation::Largest,
        Operation::Smallest,
    ];

    /// The operation's one name ("count", "sum" …), as serialised.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Count => "count",
            Operation::Sum => "sum",
            Operation::Average => "average",
            Operation::Largest => "largest",
            Operation::Smallest => "smallest",
        }
    }

    /// Its name as a page's heading says it ("Sum", "Average").
    pub fn title(self) -> &'static str {
        match self {
            Operation::Count => "Count",
            Operation::Sum => "Sum",
            Operation::Average => "Average",
            Operation::Largest => "Largest",
            Operation::Smallest => "Smallest",
        }
    }

    /// Whether it picks one row (its answer is a name with its value).
    pub fn picks_a_row(self) -> bool {
        matches!(self, Operation::Largest | Operation::Smallest)
    }
}

/// One row of the table as the page shows it: its cells, where it is in the file, and whether
/// the aggregation took it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct AggregatedRow {
    /// The row's cells, as written.
    pub cells: Vec<String>,
    /// "row 7", "sheet 'Stations', row 7", when the file has places.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// Whether the row meets the condition (and so was counted, added or compared).
    pub taken: bool,
}

/// A result computed over a table's records, with the evidence to check it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Aggregation {
    /// What was computed over the rows (count, sum, mean, largest, smallest).
    pub operation: Operation,
    /// The document the table is in.
    pub document: String,
    /// The table's context: the document's title and the headings above it.
    pub table: String,
    /// The table's column headers, as written.
    pub header: Vec<String>,
    /// The column added, averaged or compared (`None` for a count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    /// The conditions read, as a person checks them ("Opened > 1990", "Region = North").
    pub conditions: Vec<String>,
    /// The result: the count, the sum, the average, or the chosen row's value.
    pub value: f64,
    /// The value's unit as the column states it ("£", "km"), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The chosen row's name (its first cell), for largest and smallest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Rows the aggregation took.
    pub rows_taken: usize,
    /// Rows of the table in all.
    pub rows_total: usize,
    /// The table's rows, taken and left out, at most [`Aggregation::SHOWN_ROWS`] of them.
    pub rows: Vec<AggregatedRow>,
}

impl Aggregation {
    /// The most rows an answer carries for the page (the counts above cover them all).
    pub const SHOWN_ROWS: usize = 200;

    /// The result in words: "12 rows", "£1,240 in total", "Harbour Street: 7".
    pub fn headline(&self) -> String {
        let value = with_unit(self.value, self.unit.as_deref());
        match self.operation {
            Operation::Count => format!("{}", self.rows_taken),
            Operation::Sum => format!("{value} in total"),
            Operation::Average => format!("{value} on average"),
            Operation::Largest | Operation::Smallest => match &self.name {
                Some(name) => format!("{name} ({value})"),
                None => value,
            },
        }
    }

    /// How it was computed, as one sentence the page and the CLI show.
    pub fn explanation(&self) -> String {
        let condition = if self.conditions.is_empty() {
            "every row".to_string()
        } else {
            format!("the rows where {}", self.conditions.join(" and "))
        };
        let column = self.column.as_deref().unwrap_or("");
        let what = match self.operation {
            Operation::Count => format!("Counted {condition}"),
            Operation::Sum => format!("Added up “{column}” over {condition}"),
            Operation::Average => format!("Averaged “{column}” over {condition}"),
            Operation::Largest => format!("Took the largest “{column}” among {condition}"),
            Operation::Smallest => format!("Took the smallest “{column}” among {condition}"),
        };
        // A CSV file's table is named by its file alone.
        let document = if self.table == self.document {
            String::new()
        } else {
            format!(" ({})", self.document)
        };
        format!(
            "{what} of the table in “{}”{document}: {} of {} rows.",
            self.table, self.rows_taken, self.rows_total
        )
    }
}

/// A number as a person reads it, with its unit: "£4.50", "12.5 km", "7".
pub fn with_unit(value: f64, unit: Option<&str>) -> String {
    let number = if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        let rounded = format!("{value:.2}");
        rounded
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    };
    match unit {
        // Money keeps its pence: "£4.50", not "£4.5".
        Some(symbol @ ("£" | "$" | "€")) if value.fract() != 0.0 => {
            format!("{symbol}{value:.2}")
        }
        Some(symbol @ ("£" | "$" | "€")) => format!("{symbol}{number}"),
        Some(unit) if !unit.is_empty() => format!("{number} {unit}"),
        _ => number,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_reads_with_its_unit() {
        assert_eq!(with_unit(4.5, Some("£")), "£4.50");
        assert_eq!(with_unit(12.0, Some("km")), "12 km");
        assert_eq!(with_unit(3.456, None), "3.46");
    }

    #[test]
    fn operations_have_one_name_each() {
        for op in Operation::ALL {
            let json = serde_json::to_string(&op).unwrap();
            assert_eq!(json, format!("\"{}\"", op.name()));
        }
    }
}
