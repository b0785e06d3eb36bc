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

/// The value of an element's attribute, by its local name.
fn attr(e: &quick_xml::events::BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .map(|a| a.value.into_owned())
}

/// How an OpenDocument file shows its numbers through styles (issue 100: LibreOffice writes a
/// currency as a float whose cell style's data style prints "£"): each data style's
/// [`Shown`], and each cell style's data style.
#[derive(Debug, Default)]
struct OdsStyles {
    data: HashMap<String, Shown>,
    cells: HashMap<String, String>,
}

impl OdsStyles {
    /// How a cell of style `name` shows its number.
    fn shown(&self, name: &str) -> Option<Shown> {
        self.data.get(self.cells.get(name)?).cloned()
    }

    /// Adds the styles an XML part (`styles.xml`, or `content.xml`'s automatic styles) defines;
    /// stops at the part's body, where the cells begin.
    fn read(&mut self, reader: &mut quick_xml::Reader<impl std::io::BufRead>) {
        let mut buffer = Vec::new();
        // The data style being read, and whether it is a percentage.
        let mut open: Option<(String, bool)> = None;
        let mut text = false;
        loop {
            let event = match reader.read_event_into(&mut buffer) {
                Ok(event) => event,
                Err(_) => return,
            };
            match &event {
                Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                    "body" => return,
                    "number-style" | "currency-style" | "percentage-style" => {
                        if let Some(name) = attr(e, "name") {
                            let percent = e.local_name().as_ref() == "percentage-style";
                            if percent {
                                self.data.insert(name.clone(), Shown::Percent);
                            }
                            if matches!(event, Event::Start(_)) {
                                open = Some((name, percent));
                            }
                        }
                    }
                    "text" | "currency-symbol" => text = matches!(event, Event::Start(_)),
                    "style" => {
                        if let (Some(name), Some(data)) =
                            (attr(e, "name"), attr(e, "data-style-name"))
                        {
                            self.cells.insert(name, data);
                        }
                    }
                    _ => {}
                },
                Event::Text(t) if text => {
                    if let Some((name, false)) = &open {
                        if let Some(sign) = currency_sign(t) {
                            self.data.insert(name.clone(), Shown::Currency(sign));
                        }
                    }
                }
                Event::End(e) => match e.local_name().as_ref() {
                    "number-style" | "currency-style" | "percentage-style" => open = None,
                    "text" | "currency-symbol" => text = false,
                    _ => {}
                },
                Event::Eof => return,
                _ => {}
            }
            buffer.clear();
        }
    }
}

/// Each sheet's formats and merges of an OpenDocument spreadsheet, in sheet order, streamed
/// from `content.xml` (its size is bounded before: `check_ods_cells`). A number is shown by
/// its value type ("currency", "percentage"), else by its cell's style: the cell's own, its
/// row's default, or its column's default.
pub(super) fn ods_formats(bytes: &[u8]) -> Vec<SheetFormats> {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return Vec::new();
    };
    let mut styles = OdsStyles::default();
    if let Ok(part) = archive.by_name("styles.xml") {
        styles.read(&mut quick_xml::Reader::from_reader(
            std::io::BufReader::new(part),
        ));
    }
    let Ok(content) = archive.by_name("content.xml") else {
        return Vec::new();
    };
    let mut reader = quick_xml::Reader::from_reader(std::io::BufReader::new(content));
    styles.read(&mut reader);
    // Each column's default cell style in the sheet being read, and the row's.
    let mut column_styles: Vec<Option<String>> = Vec::new();
    let mut row_style: Option<String> = None;
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
                column_styles.clear();
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "table-column" => {
                let repeat = number(attr(e, "number-columns-repeated")).min(1_024);
                let style = attr(e, "default-cell-style-name");
                column_styles.extend(std::iter::repeat_n(style, repeat as usize));
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "table-row" => {
                row_repeat = number(attr(e, "number-rows-repeated"));
                row_style = attr(e, "default-cell-style-name");
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
                    let by_style = || {
                        let style = attr(e, "style-name")
                            .or_else(|| row_style.clone())
                            .or_else(|| column_styles.get(column as usize).cloned().flatten())?;
                        styles.shown(&style)
                    };
                    let shown = match attr(e, "value-type").as_deref() {
                        Some("currency") => attr(e, "currency")
                            .as_deref()
                            .and_then(currency_sign)
                            .map(Shown::Currency),
                        Some("percentage") => Some(Shown::Percent),
                        Some("float") => by_style(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::archive::tests::zip_of;

    /// Issue 100: LibreOffice writes money as a float whose column's cell style prints "£",
    /// and a share as a float whose style is a percentage.
    #[test]
    fn a_float_shown_by_its_columns_style_keeps_its_sign() {
        let styles = r#"<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"><office:styles><number:number-style style:name="N128"><number:text>£</number:text><number:number number:decimal-places="2"/></number:number-style><number:percentage-style style:name="N9"><number:number number:decimal-places="0"/><number:text>%</number:text></number:percentage-style></office:styles></office:document-styles>"#;
        let content = r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"><office:automatic-styles><style:style style:name="ce2" style:family="table-cell" style:data-style-name="N128"/><style:style style:name="ce3" style:family="table-cell" style:data-style-name="N9"/></office:automatic-styles><office:body><office:spreadsheet><table:table table:name="Fares"><table:table-column table:default-cell-style-name="Default"/><table:table-column table:default-cell-style-name="ce2"/><table:table-column table:default-cell-style-name="ce3"/><table:table-row><table:table-cell office:value-type="string"/><table:table-cell office:value-type="float" office:value="41.75"/><table:table-cell office:value-type="float" office:value="0.5" table:style-name="ce3"/></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>"#;
        let bytes = zip_of(&[
            ("styles.xml", styles.as_bytes()),
            ("content.xml", content.as_bytes()),
        ]);
        let sheets = ods_formats(&bytes);
        assert_eq!(sheets[0].shown.get(&(0, 1)), Some(&Shown::Currency("£")));
        assert_eq!(sheets[0].shown.get(&(0, 2)), Some(&Shown::Percent));
        assert_eq!(sheets[0].shown.get(&(0, 0)), None);
    }
}
