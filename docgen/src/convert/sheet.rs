//! A CSV table read as a workbook: one sheet named after its subject, the first row its
//! header, numbers as numbers shown with the CSV's decimals, an optional text-only sheet after
//! it, and one column of formulas whose cached values are the CSV's numbers.

use std::path::Path;

use super::model::{Formula, Sheet, SheetCell, Workbook};
use crate::DocgenError;

/// The CSV's non-empty rows, each its fields as written.
pub(super) fn read_rows(path: &Path) -> Result<Vec<Vec<String>>, DocgenError> {
    let csv_error = |source| DocgenError::Csv {
        path: path.to_path_buf(),
        source,
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_path(path)
        .map_err(csv_error)?;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        if !record.is_empty() {
            rows.push(record.iter().map(str::to_string).collect());
        }
    }
    Ok(rows)
}

/// Whether a CSV field is a number a spreadsheet stores as one ("-12", "0.5"; not "007").
fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    let whole_ok = whole == "0"
        || (!whole.is_empty()
            && !whole.starts_with('0')
            && whole.bytes().all(|b| b.is_ascii_digit()));
    let fraction_ok =
        fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    whole_ok && fraction_ok
}

fn decimals(s: &str) -> usize {
    s.split_once('.').map_or(0, |(_, f)| f.len())
}

/// The CSV's rows as a sheet's cells: below the first row, numbers as numbers.
pub(super) fn sheet(name: &str, rows: &[Vec<String>], formula: Option<Formula>) -> Sheet {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let cells = rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            row.iter()
                .map(|s| match s.as_str() {
                    "" => SheetCell::Empty,
                    _ if r > 0 && is_number(s) => SheetCell::Number {
                        shown: s.clone(),
                        decimals: decimals(s),
                    },
                    _ => SheetCell::Text(s.clone()),
                })
                .collect()
        })
        .collect();
    Sheet {
        name: name.to_string(),
        rows: cells,
        header: rows.len() > 1 && width > 1,
        formula,
    }
}

/// "A", "B", … "AA" for column 0, 1, … 26.
pub(super) fn column_letter(mut n: usize) -> String {
    let mut name = String::new();
    n += 1;
    while n > 0 {
        let r = (n - 1) % 26;
        name.insert(0, char::from(b'A' + r as u8));
        n = (n - 1) / 26;
    }
    name
}

/// The number a field stands for, as a formula writes it ("1.8", "212").
fn canonical(s: &str) -> String {
    SheetCell::Number {
        shown: s.to_string(),
        decimals: 0,
    }
    .stored()
    .unwrap_or_else(|| s.to_string())
}

/// One column of formulas: a true sum of two or three other numeric columns if there is one
/// (a column named like a total tried first), else `ROUND(value, decimals)` on the last
/// numeric column. `None` when no column is numeric throughout.
pub(super) fn find_formula(rows: &[Vec<String>]) -> Option<Formula> {
    let (header, data) = rows.split_first()?;
    let field = |r: &Vec<String>, c: usize| r.get(c).map_or("", String::as_str).to_string();
    let numeric: Vec<usize> = (0..header.len())
        .filter(|&c| data.iter().all(|r| is_number(&field(r, c))))
        .collect();
    let value = |r: &Vec<String>, c: usize| field(r, c).parse::<f64>().unwrap_or(0.0);
    let total_like = |name: &str| {
        let name = name.to_lowercase();
        ["total", "sum", "points", "overall", "all"]
            .iter()
            .any(|w| name.contains(w))
    };
    let mut candidates = numeric.clone();
    candidates.sort_by_key(|&c| (!total_like(&header[c]), std::cmp::Reverse(c)));
    for &c in &candidates {
        let others: Vec<usize> = numeric.iter().copied().filter(|&o| o != c).collect();
        for k in [2, 3] {
            for combo in combinations(&others, k) {
                let sums = data.iter().all(|r| {
                    (combo.iter().map(|&o| value(r, o)).sum::<f64>() - value(r, c)).abs() < 1e-9
                });
                if sums {
                    let expressions = (0..data.len())
                        .map(|j| {
                            combo
                                .iter()
                                .map(|&o| format!("{}{}", column_letter(o), j + 2))
                                .collect::<Vec<_>>()
                                .join("+")
                        })
                        .collect();
                    return Some(Formula {
                        column: c,
                        expressions,
                    });
                }
            }
        }
    }
    let c = *numeric.last()?;
    let expressions = data
        .iter()
        .map(|r| {
            let s = field(r, c);
            format!("ROUND({},{})", canonical(&s), decimals(&s))
        })
        .collect();
    Some(Formula {
        column: c,
        expressions,
    })
}

/// The `k`-element subsets of `items` in lexicographic order of their positions.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// A workbook of `sheets` titled by the file's name less its number, as office software titles
/// a workbook made from a CSV file.
pub(super) fn workbook(stem: &str, sheets: Vec<Sheet>) -> Workbook {
    Workbook {
        title: stem_title(stem),
        sheets,
    }
}

/// "32-barrowdale-sunday-league" → "barrowdale-sunday-league".
pub(super) fn stem_title(stem: &str) -> String {
    stem.split_once('-')
        .map_or(stem, |(_, rest)| rest)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_letters_and_formulas() {
        assert!(is_number("0.5") && is_number("-12") && is_number("1204"));
        assert!(!is_number("007") && !is_number("1,204") && !is_number("") && !is_number("1."));
        assert_eq!(column_letter(0), "A");
        assert_eq!(column_letter(27), "AB");
        assert_eq!(canonical("1.80"), "1.8");
        let rows: Vec<Vec<String>> = [["a", "b", "Total"], ["1", "2", "3"], ["4", "5", "9"]]
            .iter()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .collect();
        let f = find_formula(&rows).unwrap();
        assert_eq!((f.column, f.expressions[1].as_str()), (2, "A3+B3"));
    }
}
