//! The lines of a till receipt or any `Label  value` list read as two columns without a header
//! (issue 100): a line saying how many of the line above were bought ("2 x £2.85", "3 @ 1.80")
//! belongs to that line, and a line whose value follows its label after a single space
//! ("ITEMS 10") is that label and value, not a label with no value.

use std::sync::LazyLock;

use regex::Regex;

use super::grid::BodyRow;

/// "2 x £2.85", "3x 1.80", "4 @ £0.60": a quantity times a price.
static QUANTITY_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\d{1,3}\s*[xX×@]\s*[£$€]?\d+(?:[.,]\d{2})?$").expect("a valid pattern")
});
/// "ITEMS 10", "No of items 7": words, then a number alone.
static LABEL_THEN_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\p{L}[\p{L} .'-]*?)\s+(\d[\d,]*(?:\.\d+)?)$").expect("a valid pattern")
});

/// The rows of a two-column table without a header, its quantity lines joined to the line
/// above ("Olives kalamata (2 x £2.85)" | "£5.70") and its `LABEL NUMBER` lines split in two.
pub(super) fn slip_rows(body: Vec<BodyRow>) -> Vec<BodyRow> {
    let mut out: Vec<BodyRow> = Vec::with_capacity(body.len());
    for row in body {
        let BodyRow::Data(mut cells) = row else {
            out.push(row);
            continue;
        };
        let alone = cells.len() == 2 && cells[1].trim().is_empty();
        let first = cells.first().map_or("", |c| c.trim()).to_string();
        if alone && QUANTITY_LINE.is_match(&first) {
            if let Some(BodyRow::Data(above)) = out.last_mut() {
                if above.len() == 2 && !above[1].trim().is_empty() {
                    above[0] = format!("{} ({first})", above[0].trim());
                    continue;
                }
            }
        }
        if alone {
            if let Some(parts) = LABEL_THEN_NUMBER.captures(&first) {
                cells = vec![parts[1].trim().to_string(), parts[2].to_string()];
            }
        }
        out.push(BodyRow::Data(cells));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(label: &str, value: &str) -> BodyRow {
        BodyRow::Data(vec![label.into(), value.into()])
    }

    #[test]
    fn a_quantity_line_joins_its_item_and_a_count_line_splits() {
        let rows = slip_rows(vec![
            data("Olives kalamata", "£5.70"),
            data("2 x £2.85", ""),
            data("Rye crackers", "£1.85"),
            data("ITEMS 10", ""),
            data("Opening hours", ""),
        ]);
        assert_eq!(
            rows,
            vec![
                data("Olives kalamata (2 x £2.85)", "£5.70"),
                data("Rye crackers", "£1.85"),
                data("ITEMS", "10"),
                data("Opening hours", ""),
            ]
        );
    }

    #[test]
    fn a_quantity_line_with_nothing_priced_above_stays() {
        let rows = slip_rows(vec![data("3 x £1.80", "")]);
        assert_eq!(rows, vec![data("3 x £1.80", "")]);
    }
}
