//! How a count was read from a document's structure: each reading and its sentence, which the
//! answer's "how" shows.

/// How a count was read from structure, for the answer's explanation.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// A table cell: its column and row.
    Cell {
        /// The cell's column.
        column: String,
        /// The cell's row.
        row: String,
    },
    /// A `Label: value` line.
    Labelled {
        /// The line's label.
        label: String,
    },
    /// Counted from a list of this many items introduced by `lead`.
    List {
        /// The words that introduce the list.
        lead: String,
        /// How many items it has.
        items: usize,
    },
    /// The different names a table's `column` holds, counted.
    Rows {
        /// The column counted.
        column: String,
        /// How many different names it holds.
        rows: usize,
    },
    /// A count of the passage bound to the year or version asked for.
    Bound {
        /// The year or version asked for.
        mark: String,
    },
    /// The count of the clause that says the question's words, among several counts of the
    /// noun asked for.
    Clause {
        /// The clause's words.
        clause: String,
    },
    /// A passage dates its counts, but none for the year asked: no count (issue 86).
    NotForYear {
        /// The year asked for.
        year: i32,
        /// The years it gives counts for.
        years: Vec<i32>,
    },
    /// The count a passage states for a year, among counts it dates (issue 86).
    Dated {
        /// The year it holds for.
        year: i32,
        /// Whether it is the latest year the passage states (a question in the present tense).
        latest: bool,
    },
}

impl Reading {
    /// The reading in words ("read from the table: Gold, row Falcon").
    pub fn sentence(&self) -> String {
        match self {
            Reading::Cell { column, row } => format!("read from a table: {column}, row {row}"),
            Reading::Labelled { label } => format!("read from the line \u{201c}{label}\u{201d}"),
            Reading::List { lead, items } => {
                format!("counted from a list of {items} (\u{201c}{lead}\u{201d})")
            }
            Reading::Rows { column, rows } => {
                format!("counted from a table: {rows} different under \u{201c}{column}\u{201d}")
            }
            Reading::Bound { mark } => format!("the count given for {mark}"),
            Reading::Clause { clause } => {
                format!("the count of the clause \u{201c}{clause}\u{201d}")
            }
            Reading::Dated { year, latest: true } => {
                format!("as of {year}, the latest year the passage gives a count for")
            }
            Reading::Dated {
                year,
                latest: false,
            } => format!("the count stated for {year}"),
            Reading::NotForYear { year, .. } => format!("no count stated for {year}"),
        }
    }
}
