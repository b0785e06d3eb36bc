//! The lines of a till receipt read by OCR as two columns without a header (issue 100): a line
//! saying how many of the line above were bought ("2 x £2.85", "3 @ £1.80") belongs to that
//! line, and a line whose count follows its label after a single space ("ITEMS 10") is that
//! label and count, not a label with no value. Only a table whose values are mostly prices is
//! read so: "2 x 4" in a table of timber sizes or "Chapter 3" in a contents list stays as it is.

use std::sync::LazyLock;

use regex::Regex;

use super::grid::BodyRow;

/// "2 x £2.85", "3x 1.80", "4 @ £0.60": a quantity times a price (with its pence).
static QUANTITY_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\d{1,3}\s*[xX×@]\s*[£$€]?\d+[.,]\d{2}$").expect("a valid pattern")
});
/// "ITEMS 10", "No of items 7": words, then a whole number of at most three digits (a year or a
/// version is no count).
static LABEL_THEN_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\p{L}[\p{L} .'-]*?)\s+(\d{1,3})$").expect("a valid pattern"));
/// A price: "£5.70", "5.70", "€12,40".
static PRICE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[£$€]?\d[\d,]*[.,]\d{2}$").expect("a valid pattern"));

/// The rows of a two-column table without a header whose values are mostly prices, its
/// quantity lines joined to the line above ("Olives kalamata (2 x £2.85)" | "£5.70") and its
/// `LABEL COUNT` lines split in two; any other table's rows as they are.
pub(super) fn slip_rows(body: Vec<BodyRow>) -> Vec<BodyRow> {
    let values: Vec<&str> = body
        .iter()
        .filter_map(|row| match row {
            BodyRow::Data(cells) if cells.len() == 2 && !cells[1].trim().is_empty() => {
                Some(cells[1].trim())
            }
            _ => None,
        })
        .collect();
    let two_columns = body.iter().all(|row| match row {
        BodyRow::Data(cells) | BodyRow::Total(cells) => cells.len() == 2,
        BodyRow::Note(_) => true,
    });
    let prices = values.iter().filter(|v| PRICE.is_match(v)).count();
    if !two_columns || values.len() < 2 || 2 * prices < values.len() {
        return body;
    }
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
    fn a_table_not_of_prices_stays_as_it_is() {
        let sizes = vec![
            data("Joist", "2 x 4"),
            data("2 x 6", ""),
            data("Chapter 3", ""),
            data("Rafter", "3 x 5"),
        ];
        assert_eq!(slip_rows(sizes.clone()), sizes);
        // A receipt's year or version is no count.
        let rows = slip_rows(vec![
            data("Tea", "£1.20"),
            data("Coffee", "£2.40"),
            data("Windows 2024", ""),
        ]);
        assert_eq!(rows[2], data("Windows 2024", ""));
    }
}
