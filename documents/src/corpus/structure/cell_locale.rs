//! Numbers and dates as a spreadsheet in another locale writes them (issue 100), rewritten
//! in the one form the records read: a decimal comma (`21,3`) and a thousands dot (`1.485`)
//! become `21.3` and `1485`, a day-first date (`12.01.2025`) becomes `2025-01-12`.
//!
//! Each column is decided from its own values, never from one cell (two at least): a comma followed by other
//! than three digits is a decimal comma, a dot so followed a decimal point, several dots in
//! groups of three are thousands dots. A column whose values cannot tell (every cell `1.485`)
//! takes the file's locale from the columns that can; a column whose values disagree is left as
//! written. A date whose day is over 12, or written with dots, says the column is day-first.

use std::sync::LazyLock;

use regex::Regex;

/// Which mark a column's numbers write before their decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DecimalMark {
    Point,
    Comma,
}

/// A number with what is written around it: a currency or sign before ("€ ", "-"), a unit or
/// per cent after (" km", "%").
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<before>[^\d]{0,4}?)(?P<digits>\d(?:[\d.,\u{a0}\u{202f} ']*\d)?)(?P<after>[^\d]{0,8})$")
        .expect("number pattern")
});

/// A date of three numbers, its year last ("12.01.2025", "3/4/2024").
static DATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{1,2})([./-])(\d{1,2})[./-](\d{4})$").expect("date pattern"));

/// The body rows (the header rows left as written) with each column's numbers and dates in
/// the records' form. A file whose fields are split by commas keeps its numbers as written:
/// its decimal mark is the point (a decimal comma there would have to be quoted, and a quoted
/// "8,10" is more often two numbers than one).
pub(super) fn normalise(rows: &mut [Vec<String>], delimiter: u8) {
    let comma_separated = delimiter == b',';
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let marks: Vec<Option<DecimalMark>> = (0..width)
        .map(|c| column_mark(rows.iter().filter_map(|row| row.get(c))))
        .collect();
    let (marks, file_mark) = if comma_separated {
        (vec![None; marks.len()], Some(DecimalMark::Point))
    } else {
        // A file split by `;` comes from a locale whose decimal mark is the comma, unless
        // its columns say otherwise.
        let file_mark = file_mark(rows, &marks).or_else(|| {
            let undecided = marks.iter().all(Option::is_none);
            (delimiter == b';' && undecided).then_some(DecimalMark::Comma)
        });
        (marks, file_mark)
    };
    for (c, mark) in marks.iter().enumerate() {
        let cells = || rows.iter().filter_map(|row| row.get(c));
        let day_first = day_first(cells(), file_mark == Some(DecimalMark::Comma));
        let mark = mark.or(file_mark);
        for row in rows.iter_mut() {
            let Some(cell) = row.get_mut(c) else { continue };
            if let Some(iso) = foreign_month_date(cell) {
                *cell = iso;
                continue;
            }
            if let Some(day_first) = day_first {
                if let Some(iso) = iso_date(cell, day_first) {
                    *cell = iso;
                    continue;
                }
            }
            if mark == Some(DecimalMark::Comma) {
                if let Some(written) = with_decimal_point(cell) {
                    *cell = written;
                }
            }
        }
    }
}

/// What one number says of its locale: `None` when it could be written in either
/// (`1.485`, `1,485`, `42`).
fn mark_of(cell: &str) -> Option<DecimalMark> {
    let digits = NUMBER.captures(cell.trim())?.name("digits")?.as_str();
    let (dots, commas) = (digits.matches('.').count(), digits.matches(',').count());
    let after = |mark: char| digits.rsplit(mark).next().map_or(0, str::len);
    match (dots, commas) {
        (0, 0) => None,
        // Both marks: the last one is the decimal mark ("1.234,50", "1,234.50").
        (_, _) if dots > 0 && commas > 0 => {
            if digits.rfind(',') > digits.rfind('.') {
                Some(DecimalMark::Comma)
            } else {
                Some(DecimalMark::Point)
            }
        }
        (0, 1) if after(',') != 3 => Some(DecimalMark::Comma),
        (1, 0) if after('.') != 3 => Some(DecimalMark::Point),
        // Several of one mark are thousands marks, when in groups of three.
        (0, _) if commas > 1 && thousands(digits, ',') => Some(DecimalMark::Point),
        (_, 0) if dots > 1 && thousands(digits, '.') => Some(DecimalMark::Comma),
        _ => None,
    }
}

/// Whether `digits` is groups of three after a first group of one to three, split by `mark`.
fn thousands(digits: &str, mark: char) -> bool {
    let mut groups = digits.split(mark);
    let first = groups.next().unwrap_or_default();
    // "0.125" is an eighth, never a hundred and twenty-five.
    (1..=3).contains(&first.len()) && !first.starts_with('0') && groups.all(|g| g.len() == 3)
}

/// A column's decimal mark when its values say it and do not disagree.
fn column_mark<'a>(cells: impl Iterator<Item = &'a String>) -> Option<DecimalMark> {
    let (mut point, mut comma) = (0, 0);
    for cell in cells {
        match mark_of(cell) {
            Some(DecimalMark::Point) => point += 1,
            Some(DecimalMark::Comma) => comma += 1,
            None => {}
        }
    }
    // Two cells at least say it: one cell never decides a column.
    match (point, comma) {
        (0, c) if c >= 2 => Some(DecimalMark::Comma),
        (p, 0) if p >= 2 => Some(DecimalMark::Point),
        _ => None,
    }
}

/// The file's decimal mark: the one its decided columns agree on, for the columns whose values
/// cannot tell.
fn file_mark(rows: &[Vec<String>], marks: &[Option<DecimalMark>]) -> Option<DecimalMark> {
    let decided: Vec<DecimalMark> = marks.iter().flatten().copied().collect();
    let first = *decided.first()?;
    let agree = decided.iter().all(|m| *m == first);
    // Dates written with dots are a comma locale's too ("12.01.2025").
    let dotted_dates = rows
        .iter()
        .flatten()
        .any(|cell| DATE.captures(cell.trim()).is_some_and(|d| &d[2] == "."));
    (agree && (first == DecimalMark::Comma || !dotted_dates)).then_some(first)
}

/// Whether a column's dates are day-first: `Some(true)` when a day over 12 comes first or the
/// dates are written with dots (or the file writes decimal commas), `Some(false)` when a day
/// over 12 comes second, `None` when the column holds no such date or its dates disagree.
fn day_first<'a>(cells: impl Iterator<Item = &'a String>, comma_locale: bool) -> Option<bool> {
    let (mut first_over, mut second_over, mut dotted, mut dates) = (false, false, false, 0);
    for cell in cells {
        let Some(date) = DATE.captures(cell.trim()) else {
            continue;
        };
        dates += 1;
        let number = |n: usize| date[n].parse::<u32>().unwrap_or(0);
        first_over |= number(1) > 12;
        second_over |= number(3) > 12;
        dotted |= &date[2] == ".";
    }
    match (dates, first_over, second_over) {
        (0, _, _) | (_, true, true) => None,
        (_, true, false) => Some(true),
        (_, false, true) => Some(false),
        (_, false, false) => (dotted || comma_locale).then_some(true),
    }
}

/// A date whose month is named in German, French, Spanish, Italian or Dutch, as a spreadsheet
/// in those locales shows "18 May 1999" ("18 Mai 1999", "26. Dez. 2015", "9 okt 2017"), written
/// as `yyyy-mm-dd`; `None` for another cell (an English month is read as it is written).
fn foreign_month_date(cell: &str) -> Option<String> {
    static WRITTEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\d{1,2})\.?\s+(\p{L}+)\.?\s+(\d{4})$").expect("written date pattern")
    });
    let date = WRITTEN.captures(cell.trim())?;
    let word = date[2].to_lowercase();
    if tally_text::calendar::is_month(&word) {
        return None;
    }
    const MONTHS: [&[&str]; 12] = [
        &[
            "januar", "janv", "janvier", "ene", "enero", "gen", "gennaio", "januari",
        ],
        &[
            "februar", "févr", "février", "febrero", "febbraio", "februari",
        ],
        &["mär", "märz", "maerz", "mars", "marzo", "mrt", "maart"],
        &["avr", "avril", "abr", "abril", "aprile"],
        &["mai", "mayo", "mag", "maggio", "mei"],
        &["juni", "juin", "junio", "giu", "giugno"],
        &["juli", "juil", "juillet", "julio", "lug", "luglio"],
        &["août", "ago", "agosto", "augustus"],
        &["set", "settembre", "septiembre"],
        &["okt", "oktober", "octobre", "octubre", "ott", "ottobre"],
        &["novembre", "noviembre"],
        &[
            "dez",
            "dezember",
            "déc",
            "décembre",
            "dic",
            "diciembre",
            "dicembre",
        ],
    ];
    let month = MONTHS
        .iter()
        .position(|names| names.contains(&word.as_str()))? as u32
        + 1;
    let day = date[1].parse().ok()?;
    let year = date[3].parse().ok()?;
    let date = chrono::NaiveDate::from_ymd_opt(year, month, day)?;
    Some(date.format("%Y-%m-%d").to_string())
}

/// A date of the column's order written as `yyyy-mm-dd`; `None` for a cell that is no such
/// date or no real one.
fn iso_date(cell: &str, day_first: bool) -> Option<String> {
    let date = DATE.captures(cell.trim())?;
    let (a, b) = (date[1].parse::<u32>().ok()?, date[3].parse::<u32>().ok()?);
    let (day, month) = if day_first { (a, b) } else { (b, a) };
    let year = date[4].parse::<i32>().ok()?;
    let date = chrono::NaiveDate::from_ymd_opt(year, month, day)?;
    Some(date.format("%Y-%m-%d").to_string())
}

/// A number written with a decimal comma and thousands dots (or spaces) rewritten with a
/// decimal point and no thousands marks, what is around it kept ("€ 1.234,50" → "€ 1234.50");
/// `None` for a cell that is no number so written.
fn with_decimal_point(cell: &str) -> Option<String> {
    let trimmed = cell.trim();
    let captures = NUMBER.captures(trimmed)?;
    let digits = &captures["digits"];
    if !digits.contains(['.', ',', '\u{a0}', '\u{202f}', ' ', '\'']) {
        return None;
    }
    let (whole, decimals) = match digits.split_once(',') {
        Some((whole, decimals)) if !decimals.contains([',', '.']) => (whole, Some(decimals)),
        Some(_) => return None,
        None => (digits, None),
    };
    let grouped = whole.contains(['.', '\u{a0}', '\u{202f}', ' ', '\'']);
    let whole_digits: String = whole.chars().filter(char::is_ascii_digit).collect();
    if grouped && !thousands(&whole.replace(['\u{a0}', '\u{202f}', ' ', '\''], "."), '.') {
        return None;
    }
    let number = match decimals {
        Some(decimals) => format!("{whole_digits}.{decimals}"),
        None => whole_digits,
    };
    Some(format!(
        "{}{number}{}",
        &captures["before"], &captures["after"]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect()
    }

    #[test]
    fn a_column_of_decimal_commas_is_read_with_points() {
        let mut body = rows(&[
            &["Nord", "11,2", "1.485", "€ 3,50", "12.01.2025"],
            &["Süd", "9,8", "980", "€ 1.234,50", "28.02.2025"],
            &["West", "7", "2.310", "-0,5 %", "03.03.2025"],
        ]);
        normalise(&mut body, b';');
        assert_eq!(
            body[0],
            ["Nord", "11.2", "1485", "€ 3.50", "2025-01-12"].map(String::from)
        );
        // "1.485" alone could be either; the file's other columns write decimal commas.
        assert_eq!(body[1][2], "980");
        assert_eq!(body[2][2], "2310");
        assert_eq!(body[1][3], "€ 1234.50");
        assert_eq!(body[2][3], "-0.5 %");
        assert_eq!(body[1][4], "2025-02-28");
    }

    #[test]
    fn a_point_locale_and_undecided_columns_stay_as_written() {
        let mut body = rows(&[
            &["1,485", "3.50", "4/13/2024"],
            &["2,310", "1.2", "5/1/2024"],
        ]);
        let before = body.clone();
        normalise(&mut body, b'\t');
        // Thousands commas are read downstream as they are; month-first slashed dates become ISO.
        assert_eq!(body[0][..2], before[0][..2]);
        assert_eq!(body[0][2], "2024-04-13");
        assert_eq!(body[1][2], "2024-05-01");
        // Slashed dates that cannot tell their order, in a file that cannot either, stay.
        let mut body = rows(&[&["3/4/2024"], &["5/6/2024"]]);
        normalise(&mut body, b'\t');
        assert_eq!(body[0][0], "3/4/2024");
        // A column whose values disagree stays as written.
        let mut body = rows(&[&["1,5"], &["2.25"]]);
        normalise(&mut body, b'\t');
        assert_eq!(body, rows(&[&["1,5"], &["2.25"]]));
    }

    #[test]
    fn one_cell_does_not_decide_a_number() {
        assert_eq!(mark_of("1.485"), None);
        assert_eq!(mark_of("1,485"), None);
        assert_eq!(mark_of("1.234.567"), Some(DecimalMark::Comma));
        assert_eq!(mark_of("1,234,567"), Some(DecimalMark::Point));
        assert_eq!(mark_of("1.234,5"), Some(DecimalMark::Comma));
        assert_eq!(mark_of("21,3 km"), Some(DecimalMark::Comma));
        assert_eq!(mark_of("version 1.2.3"), None);
        // Text that is no number says nothing.
        assert_eq!(mark_of("Nord, alt"), None);
        assert_eq!(with_decimal_point("1.2.3"), None);
        assert_eq!(with_decimal_point("12 345,6"), Some("12345.6".into()));
        assert_eq!(iso_date("31.02.2025", true), None);
        assert_eq!(with_decimal_point("0.125"), None);
        assert_eq!(
            foreign_month_date("18 Mai 1999").as_deref(),
            Some("1999-05-18")
        );
        assert_eq!(
            foreign_month_date("26. Dez. 2015").as_deref(),
            Some("2015-12-26")
        );
        assert_eq!(foreign_month_date("18 May 1999"), None);
        // A `;` file whose columns cannot tell reads thousands dots.
        let mut body = rows(&[&["Osprey", "1.470"], &["Tern", "980"]]);
        normalise(&mut body, b';');
        assert_eq!(body[0][1], "1470");
        // A comma-separated file keeps its quoted "8,10" and its points.
        let mut body = rows(&[&["8,10", "1.250"], &["12,14", "0.125"]]);
        normalise(&mut body, b',');
        assert_eq!(body, rows(&[&["8,10", "1.250"], &["12,14", "0.125"]]));
    }
}
