//! A CSV file read with the `csv` crate: one table whose first record names the columns. The
//! file's delimiter is read from the file (`csv_dialect.rs`), and its numbers and dates are
//! rewritten from the spreadsheet's locale into the records' form (`cell_locale.rs`).

use super::cell_locale;
use super::csv_dialect::{backslash_escapes, delimiter, without_bom};
use super::grid::is_value_cell;
use super::lines::push_grid;
use super::{Outline, OutlineBuilder};
use crate::corpus::budget::{ReadBudget, ReadRefused, TableSize};

/// The outline of a CSV text: its rows (records of any length are kept; an unreadable record
/// ends the table). Each record's width is checked as it is read, before it is kept, so a header
/// of a million columns is refused at once.
pub(crate) fn outline(text: &str, budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    let text = without_bom(text);
    let delimiter = delimiter(text);
    let escape = backslash_escapes(text, delimiter);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(delimiter)
        .escape(escape.then_some(b'\\'))
        .double_quote(!escape)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut size = TableSize::default();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut record = csv::StringRecord::new();
    while let Ok(true) = reader.read_record(&mut record) {
        if rows.len().is_multiple_of(1024) {
            budget.check()?;
        }
        size.add_row(record.len())?;
        rows.push(record.iter().map(str::to_string).collect());
    }
    let mut builder = OutlineBuilder::new(budget);
    // A CSV file's first record names its columns unless every cell of it is a value: a
    // header such as "3-dart average" starts with a digit and still names a column.
    let first_names_columns = rows.first().is_some_and(|first| {
        first
            .iter()
            .any(|cell| !cell.is_empty() && !is_value_cell(cell))
    }) && rows.len() > 1;
    let header_rows = usize::from(first_names_columns);
    cell_locale::normalise(&mut rows[header_rows..], delimiter);
    push_grid(&mut builder, rows, header_rows)?;
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::structure::Record;

    #[test]
    fn the_first_record_names_the_columns() {
        let outline = outline(
            "Route,Stops,Minutes\n\"Red, fast\",12,40\nBlue,9,35\n",
            &ReadBudget::default(),
        )
        .unwrap();
        assert_eq!(
            outline.blocks[0].kind,
            Record::TableRow {
                header: vec!["Route".into(), "Stops".into(), "Minutes".into()].into(),
                cells: vec!["Red, fast".into(), "12".into(), "40".into()]
            }
        );
        // Two rows, and their first column as the list of routes.
        assert_eq!(outline.blocks.len(), 3);
        assert!(
            matches!(&outline.blocks[2].kind, Record::RowNames { names, .. } if names.len() == 2)
        );
    }
}

#[cfg(test)]
mod bounds {
    use super::*;
    use crate::corpus::budget::MAX_TABLE_COLUMNS;

    /// Issue 70: a header of 1,000,000 columns over 200 rows stopped the server (its header was
    /// copied into every row, 57 MB each); it is refused before any row is kept.
    #[test]
    fn a_table_wider_than_the_bound_is_refused_with_a_sentence() {
        let mut text = vec!["h"; 1_000_000].join(",");
        text.push('\n');
        text.push_str(&"5\n".repeat(200));
        let started = std::time::Instant::now();
        let refused = outline(&text, &ReadBudget::default()).unwrap_err();
        assert!(
            matches!(&refused, ReadRefused::TooLarge(why) if why.contains("1000000 columns")),
            "{refused}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        // As wide as the bound is read, and its rows share one header.
        let mut text = (0..MAX_TABLE_COLUMNS)
            .map(|n| format!("c{n}"))
            .collect::<Vec<_>>()
            .join(",");
        text.push('\n');
        text.push_str(&"5\n".repeat(200));
        let outline = outline(&text, &ReadBudget::default()).unwrap();
        assert_eq!(outline.blocks.len(), 200);
        let headers: Vec<&[String]> = outline
            .blocks
            .iter()
            .map(|b| match &b.kind {
                crate::corpus::structure::Record::TableRow { header, .. } => &header[..],
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(headers
            .windows(2)
            .all(|w| std::ptr::eq(w[0].as_ptr(), w[1].as_ptr())));
    }
}
