//! What a spreadsheet shows beyond its cells' values (issue 85): the number format that makes
//! 45 read "£45.00" and 0.91 read "91%", and the merged regions that make one title span a
//! table or one group name span its rows. An `.xlsx` file's are read through `calamine`
//! (styles and merge cells); an OpenDocument file's from its `content.xml` (each cell's value
//! type and currency, and its spans), since `calamine` reads neither for it.

use std::collections::{BTreeMap, HashMap};
use std::io::Cursor;

use quick_xml::events::Event;

/// A sheet's cells by (row, column), both from 0.
pub(super) type CellMap = BTreeMap<u32, BTreeMap<u32, String>>;

/// How a number cell is shown.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Shown {
    /// Money with its currency's sign.
    Currency(&'static str),
    /// A share shown as a percent.
    Percent,
}

/// A region of merged cells: its top-left and bottom-right, inclusive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Merge {
    pub top: u32,
    pub left: u32,
    pub bottom: u32,
    pub right: u32,
}

/// A sheet's number formats and merged regions.
#[derive(Debug, Clone, Default)]
pub(super) struct SheetFormats {
    pub shown: HashMap<(u32, u32), Shown>,
    pub merges: Vec<Merge>,
}

/// The most formatted cells and merges kept per file: past them, cells are read as values.
const MAX_FORMATTED: usize = 200_000;

/// The sign of a currency named by its ISO code or written in a format code.
fn currency_sign(code: &str) -> Option<&'static str> {
    if code.contains("GBP") || code.contains('£') {
        Some("£")
    } else if code.contains("EUR") || code.contains('€') {
        Some("€")
    } else if code.contains("USD") || code.contains('$') {
        Some("$")
    } else {
        None
    }
}

/// How an Excel number format code shows a number ("\"£\"#,##0.00" → currency, "0%" → percent).
pub(super) fn shown_by_format_code(code: &str) -> Option<Shown> {
    // Text in quotes and brackets holds the sign; a percent outside them scales the number.
    if let Some(sign) = currency_sign(code) {
        return Some(Shown::Currency(sign));
    }
    let outside_quotes: String = code.split('"').step_by(2).collect();
    outside_quotes.contains('%').then_some(Shown::Percent)
}

/// Each sheet's formats and merges of an OpenDocument spreadsheet, in sheet order, streamed
/// from `content.xml` (its size is bounded before: `check_ods_cells`).
pub(super) fn ods_formats(bytes: &[u8]) -> Vec<SheetFormats> {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return Vec::new();
    };
    let Ok(content) = archive.by_name("content.xml") else {
        return Vec::new();
    };
    let mut reader = quick_xml::Reader::from_reader(std::io::BufReader::new(content));
    let attr = |e: &quick_xml::events::BytesStart<'_>, name: &str| -> Option<String> {
        e.attributes()
            .flatten()
            .find(|a| a.key.local_name().as_ref() == name)
            .map(|a| a.value.into_owned())
    };
    let number = |value: Option<String>| -> u32 {
        value
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(1)
            .max(1)
    };
    let mut sheets: Vec<SheetFormats> = Vec::new();
    let (mut row, mut column, mut kept) = (0u32, 0u32, 0usize);
    let mut row_repeat = 1u32;
    let mut buffer = Vec::new();
    loop {
        let event = match reader.read_event_into(&mut buffer) {
            Ok(event) => event,
            Err(_) => return sheets,
        };
        match &event {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "table" => {
                sheets.push(SheetFormats::default());
                row = 0;
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "table-row" => {
                row_repeat = number(attr(e, "number-rows-repeated"));
                column = 0;
                if matches!(event, Event::Empty(_)) {
                    row = row.saturating_add(row_repeat);
                }
            }
            Event::End(e) if e.local_name().as_ref() == "table-row" => {
                row = row.saturating_add(row_repeat);
            }
            Event::Start(e) | Event::Empty(e)
                if matches!(e.local_name().as_ref(), "table-cell" | "covered-table-cell") =>
            {
                let repeat = number(attr(e, "number-columns-repeated"));
                if let Some(sheet) = sheets.last_mut() {
                    let shown = match attr(e, "value-type").as_deref() {
                        Some("currency") => attr(e, "currency")
                            .as_deref()
                            .and_then(currency_sign)
                            .map(Shown::Currency),
                        Some("percentage") => Some(Shown::Percent),
                        _ => None,
                    };
                    if let Some(shown) = shown {
                        for c in column..column.saturating_add(repeat.min(1_000)) {
                            if kept < MAX_FORMATTED {
                                sheet.shown.insert((row, c), shown.clone());
                                kept += 1;
                            }
                        }
                    }
                    let across = number(attr(e, "number-columns-spanned"));
                    let down = number(attr(e, "number-rows-spanned"));
                    if (across > 1 || down > 1) && kept < MAX_FORMATTED {
                        kept += 1;
                        sheet.merges.push(Merge {
                            top: row,
                            left: column,
                            bottom: row.saturating_add(down - 1),
                            right: column.saturating_add(across - 1),
                        });
                    }
                }
                column = column.saturating_add(repeat);
            }
            Event::Eof => return sheets,
            _ => {}
        }
        buffer.clear();
    }
}

/// `cells` as a person sees them: each number in its format ("£45.00", "91%"), and each merged
/// region written out: a region across the sheet's first rows (a title, a group header) in
/// every column it spans, a region down in every row it spans, a region across lower down (a
/// note) once.
pub(super) fn apply(cells: &mut CellMap, formats: &SheetFormats) {
    for (&(row, column), shown) in &formats.shown {
        let Some(text) = cells.get_mut(&row).and_then(|r| r.get_mut(&column)) else {
            continue;
        };
        let Ok(number) = text.trim().parse::<f64>() else {
            continue;
        };
        *text = match shown {
            Shown::Currency(sign) => format!("{sign}{number:.2}"),
            Shown::Percent => {
                let percent = number * 100.0;
                if (percent - percent.round()).abs() < 1e-9 {
                    format!("{}%", percent.round() as i64)
                } else {
                    format!("{percent:.1}%")
                }
            }
        };
    }
    let first_row = cells.keys().next().copied().unwrap_or(0);
    for merge in &formats.merges {
        let Some(text) = cells
            .get(&merge.top)
            .and_then(|r| r.get(&merge.left))
            .cloned()
        else {
            continue;
        };
        // A merge spans at most the table bounds' columns and a thousand rows.
        let bottom = merge.bottom.min(merge.top.saturating_add(1_000));
        let right = merge.right.min(
            merge
                .left
                .saturating_add(super::super::budget::MAX_TABLE_COLUMNS as u32),
        );
        let header_area = merge.top <= first_row.saturating_add(2);
        for row in merge.top..=bottom {
            for column in merge.left..=right {
                if (row, column) == (merge.top, merge.left) {
                    continue;
                }
                let across = column > merge.left;
                if across && !header_area {
                    continue;
                }
                cells.entry(row).or_default().insert(column, text.clone());
            }
        }
    }
}
