//! OCR's usual slips in a table read from a page image, mended by the column they stand in: a
//! column's cells are written alike ("£8.25", "£12.75"; "Vessel 9", "Vessel 12"), so a cell
//! of the column that differs from that form only by a slip OCR is known to make is read with
//! the slip undone — a colon read for a decimal point ("£10:25"), a speck read as a point at a
//! cell's end ("22.", "Vessel 13."), the space between a name and its number dropped
//! ("Vessel10"). Nothing else is changed: a cell becomes only what its column shows it should
//! look like, and a column whose cells share no form is left as read.

use std::collections::HashMap;

/// The share of a column's filled cells that must share a form for the others to be mended to
/// it.
const COLUMN_FORM_SHARE: f32 = 0.6;
/// The fewest cells of a column that must share a form.
const FEWEST_ALIKE: usize = 3;

/// Mends each column of `rows` (a table's body rows, cells in column order).
pub(super) fn mend_columns(rows: &mut [&mut Vec<String>]) {
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    for column in 0..width {
        let mut forms: HashMap<String, usize> = HashMap::new();
        let mut filled = 0;
        for row in rows.iter() {
            if let Some(text) = row.get(column).filter(|t| !t.is_empty()) {
                *forms.entry(form(text)).or_default() += 1;
                filled += 1;
            }
        }
        let Some((usual, count)) = forms
            .into_iter()
            .max_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)))
        else {
            continue;
        };
        if count < FEWEST_ALIKE || (count as f32) < COLUMN_FORM_SHARE * filled as f32 {
            continue;
        }
        for row in rows.iter_mut() {
            let Some(text) = row.get_mut(column) else {
                continue;
            };
            if text.is_empty() || form(text) == usual {
                continue;
            }
            if let Some(mended) = slips_undone(text).into_iter().find(|m| form(m) == usual) {
                *text = mended;
            }
        }
    }
}

/// A cell's form: each run of digits as `9`, each run of letters as `a`, every other
/// character as itself ("£10.25" and "£8.75" are "£9.9", "Vessel 9" is "a 9").
fn form(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let class = if c.is_ascii_digit() {
            '9'
        } else if c.is_alphabetic() {
            'a'
        } else {
            c
        };
        if (class == '9' || class == 'a') && out.ends_with(class) {
            continue;
        }
        out.push(class);
    }
    out
}

/// The readings of a cell with OCR's usual slips undone, one slip before two.
fn slips_undone(text: &str) -> Vec<String> {
    let colon = |t: &str| t.replace(':', ".");
    // At the end only: a point before a number is a decimal point (".5") as often as a speck.
    let speck = |t: &str| t.trim_end_matches('.').to_string();
    // The space between letters and the digits after them.
    let space = |t: &str| {
        let mut spaced = String::new();
        let mut previous: Option<char> = None;
        for c in t.chars() {
            if c.is_ascii_digit() && previous.is_some_and(char::is_alphabetic) {
                spaced.push(' ');
            }
            spaced.push(c);
            previous = Some(c);
        }
        spaced
    };
    vec![
        colon(text),
        speck(text),
        space(text),
        speck(&colon(text)),
        space(&speck(text)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mended(column: &[&str]) -> Vec<String> {
        let mut rows: Vec<Vec<String>> = column.iter().map(|t| vec![t.to_string()]).collect();
        let mut body: Vec<&mut Vec<String>> = rows.iter_mut().collect();
        mend_columns(&mut body);
        rows.into_iter().map(|mut r| r.remove(0)).collect()
    }

    #[test]
    fn a_columns_odd_cell_is_mended_to_the_form_its_cells_share() {
        // The colon mended; the others have no slip that gives "£9.9" and stay as read.
        assert_eq!(
            mended(&[
                "£8.25", "£10:25", "£9.50", "£12.75", "£3.25", "£1,250", "22.", "£7.00"
            ]),
            ["£8.25", "£10.25", "£9.50", "£12.75", "£3.25", "£1,250", "22.", "£7.00"]
        );
        assert_eq!(
            mended(&[
                "Vessel 1",
                "Vessel10",
                "Vessel 13.",
                "Vessel7.",
                "Vessel 5",
                "Vessel 2",
                "Vessel 3",
                "Vessel 8",
                ""
            ]),
            [
                "Vessel 1",
                "Vessel 10",
                "Vessel 13",
                "Vessel 7",
                "Vessel 5",
                "Vessel 2",
                "Vessel 3",
                "Vessel 8",
                ""
            ]
        );
    }

    #[test]
    fn a_column_of_no_shared_form_is_left_as_read() {
        // Times beside prices: no form has three in five.
        let column = ["10:25", "£8.25", "11:40", "£9.10", "Closed"];
        assert_eq!(mended(&column), column);
    }
}
