//! The lines of a till receipt read by OCR as two columns without a header (issue 100): a line
//! saying how many of the line above were bought ("2 x £2.85", "3 @ £1.80") belongs to that
//! line, and a line whose count follows its label after a single space ("ITEMS 10") is that
//! label and count, not a label with no value. Only a table whose values are mostly prices is
//! read so: "2 x 4" in a table of timber sizes or "Chapter 3" in a contents list stays as it is.

use std::sync::LazyLock;

use regex::Regex;

use super::grid::BodyRow;
use super::{Block, Record};

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

/// How many of a receipt's prices may have lost their decimal point (each has two readings to
/// try: the search is 2ⁿ sums).
const MOST_MENDED: usize = 8;
// The search counts its choices in a `u32`.
const _: () = assert!(MOST_MENDED < 32);

/// The prices whose decimal point OCR misread on a receipt, read again from its own total: a
/// faded point read as a digit ("5276" for 5.76) or lost ("116" for 1.16). The items are the
/// `Label: value` lines before a total row ("SUBTOTAL", "TOTAL"), since the last block of
/// another kind (they and the totals may be read as two tables). Each bare number among
/// their prices is tried both ways (the digit before the pence taken for the point, or a point
/// put before the pence); a reading is kept only when exactly one way of reading them all
/// makes the items add up to that total.
pub(super) fn mend_prices(blocks: &mut [Block]) {
    let mut items: Vec<usize> = Vec::new();
    for at in 0..blocks.len() {
        match &blocks[at].kind {
            Record::KeyValue { .. } => items.push(at),
            Record::TotalRow { cells, .. } => {
                let total = cells
                    .iter()
                    .rev()
                    .find_map(|c| price_of(c.trim().trim_end_matches(':')));
                if let Some(total) = total {
                    mend_items(blocks, &items, total);
                }
                items.clear();
            }
            _ => items.clear(),
        }
    }
}

/// [`mend_prices`] over the items at `items` of `blocks`, against `total`.
fn mend_items(blocks: &mut [Block], items: &[usize], total: f64) {
    let mut known = 0.0;
    // Each bare price: where it is, the sign written before it, its two readings.
    let mut bare: Vec<(usize, String, [Option<String>; 2])> = Vec::new();
    let mut sign = "";
    for &at in items {
        let Record::KeyValue { label, value } = &blocks[at].kind else {
            continue;
        };
        // OCR may keep a stray colon after a price.
        let value = value.trim().trim_end_matches(':');
        // A label without a word is a quantity line OCR misread ("4°x" | "1.10"): no item.
        if value.is_empty() || !has_word(label) {
            continue;
        }
        let digits = value.trim_start_matches(['£', '$', '€']);
        if let Some(price) = price_of(value) {
            known += price;
            if value.len() > digits.len() {
                sign = &value[..value.len() - digits.len()];
            }
        } else if digits.len() >= 3 && digits.chars().all(|c| c.is_ascii_digit()) {
            let n = digits.len();
            let point_for_digit =
                (n >= 4).then(|| format!("{}.{}", &digits[..n - 3], &digits[n - 2..]));
            let point_lost = Some(format!("{}.{}", &digits[..n - 2], &digits[n - 2..]));
            let own_sign = value[..value.len() - digits.len()].to_string();
            bare.push((at, own_sign, [point_for_digit, point_lost]));
        }
        // Anything else ("ITEMS" | "10", a date, a price read as letters) is left out: if it
        // was an item, no reading adds up and nothing is changed.
    }
    if bare.is_empty() || bare.len() > MOST_MENDED {
        return;
    }
    let sign = sign.to_string();
    let mut found: Option<Vec<String>> = None;
    for choice in 0u32..(1 << bare.len()) {
        let mut sum = known;
        let mut texts = Vec::with_capacity(bare.len());
        for (i, (_, _, ways)) in bare.iter().enumerate() {
            let Some(text) = &ways[((choice >> i) & 1) as usize] else {
                sum = f64::NAN;
                break;
            };
            sum += text.parse::<f64>().unwrap_or(f64::NAN);
            texts.push(text.clone());
        }
        if (sum - total).abs() < 0.005 {
            if found.is_some() {
                return; // Two readings add up: neither is sure.
            }
            found = Some(texts);
        }
    }
    let Some(texts) = found else { return };
    for ((at, own_sign, _), text) in bare.iter().zip(texts) {
        let sign = if own_sign.is_empty() { &sign } else { own_sign };
        if let Record::KeyValue { value, .. } = &mut blocks[*at].kind {
            *value = format!("{sign}{text}");
        }
    }
}

/// Whether a label holds a word: two letters in a row.
fn has_word(label: &str) -> bool {
    label
        .chars()
        .zip(label.chars().skip(1))
        .any(|(a, b)| a.is_alphabetic() && b.is_alphabetic())
}

/// A price's amount ("£5.70" → 5.7), a decimal comma read as a point.
fn price_of(text: &str) -> Option<f64> {
    let text = text.trim();
    if !PRICE.is_match(text) {
        return None;
    }
    let digits = text.trim_start_matches(['£', '$', '€']);
    let (whole, pence) = digits.split_at(digits.len() - 3);
    format!("{}.{}", whole.replace([',', '.'], ""), &pence[1..])
        .parse()
        .ok()
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
    fn a_price_whose_point_ocr_misread_is_read_again_from_the_total() {
        let block = |kind: Record| Block {
            kind,
            sections: Vec::new(),
            place: None,
            crop: None,
        };
        let item = |label: &str, value: &str| {
            block(Record::KeyValue {
                label: label.into(),
                value: value.into(),
            })
        };
        let total = |value: &str| {
            block(Record::TotalRow {
                header: Vec::new().into(),
                cells: vec!["TOTAL".into(), value.into()],
            })
        };
        let value_of = |b: &Block| match &b.kind {
            Record::KeyValue { value, .. } => value.clone(),
            _ => String::new(),
        };
        // "£5276": the point read as a 2; "116": the point lost; "22%" | "£288": a quantity
        // line misread, no item. Only 5.76 and 1.16 add up to the total.
        let mut blocks = vec![
            item("Hummus", "£3.48"),
            item("Bananas loose", "£5276"),
            item("22%", "£288:"),
            item("Orange juice 1L", "116"),
            // A count among the items is no price, and does not stop the sum.
            item("ITEMS", "3"),
            block(Record::Paragraph("Thank you".into())),
        ];
        blocks.insert(5, total("£10.40"));
        mend_prices(&mut blocks);
        assert_eq!(value_of(&blocks[1]), "£5.76");
        assert_eq!(value_of(&blocks[3]), "£1.16");
        assert_eq!(value_of(&blocks[2]), "£288:");
        // Without a total that agrees, nothing is changed.
        let mut blocks = vec![
            item("Hummus", "£3.48"),
            item("Bananas", "5276"),
            total("£99.99"),
        ];
        mend_prices(&mut blocks);
        assert_eq!(value_of(&blocks[1]), "5276");
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
