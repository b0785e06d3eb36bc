//! A CSV file read with the `csv` crate: one table whose first record names the columns.

use super::lines::push_table;
use super::{Outline, OutlineBuilder};

/// The outline of a CSV text: its rows (records of any length are kept; an unreadable record
/// ends the table).
pub fn outline(text: &str) -> Outline {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let rows: Vec<Vec<String>> = reader
        .records()
        .map_while(Result::ok)
        .map(|record| record.iter().map(str::to_string).collect())
        .collect();
    let mut builder = OutlineBuilder::default();
    push_table(&mut builder, rows);
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::structure::BlockKind;

    #[test]
    fn the_first_record_names_the_columns() {
        let outline = outline("Route,Stops,Minutes\n\"Red, fast\",12,40\nBlue,9,35\n");
        assert_eq!(
            outline.blocks[0].kind,
            BlockKind::TableRow {
                header: vec!["Route".into(), "Stops".into(), "Minutes".into()],
                cells: vec!["Red, fast".into(), "12".into(), "40".into()]
            }
        );
        assert_eq!(outline.blocks.len(), 2);
    }
}
