//! A converted workbook (issue 102: the collection's CSV tables) in the Excel package: the
//! header row in bold, numbers stored as numbers shown with the CSV's decimals (`0.0`,
//! `0.00`), text in the shared strings table as Excel writes it, one column's cells as formulas
//! with their cached values.

use super::super::zip::xml_escape;
use super::{column_name, package};
use crate::convert::model::{Sheet, SheetCell, Workbook};

/// Style indexes of [`STYLES`]' `cellXfs`.
const HEADER: usize = 1;
const TWO_PLACES: usize = 2;
const ONE_PLACE: usize = 3;

const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>"#;

/// The workbook as an Excel file.
pub(in crate::render) fn render(workbook: &Workbook) -> Vec<u8> {
    let mut shared = SharedStrings::default();
    let sheets = workbook
        .sheets
        .iter()
        .map(|sheet| (sheet.name.clone(), sheet_xml(sheet, &mut shared)))
        .collect();
    package(&workbook.title, sheets, STYLES, Some(shared.xml()))
}

/// The workbook's text, each distinct string once, in the order first met; a cell holds its
/// index.
#[derive(Default)]
struct SharedStrings {
    strings: Vec<String>,
    uses: usize,
}

impl SharedStrings {
    /// The index of `text`, added when new.
    fn index(&mut self, text: &str) -> usize {
        self.uses += 1;
        match self.strings.iter().position(|s| s == text) {
            Some(at) => at,
            None => {
                self.strings.push(text.to_string());
                self.strings.len() - 1
            }
        }
    }

    /// `xl/sharedStrings.xml`.
    fn xml(&self) -> String {
        let items: String = self
            .strings
            .iter()
            .map(|s| format!(r#"<si><t xml:space="preserve">{}</t></si>"#, xml_escape(s)))
            .collect();
        format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{}" uniqueCount="{}">{items}</sst>"#,
            self.uses,
            self.strings.len()
        )
    }
}

fn sheet_xml(sheet: &Sheet, shared: &mut SharedStrings) -> String {
    let mut data = String::new();
    for (r, row) in sheet.rows.iter().enumerate() {
        data.push_str(&format!(r#"<row r="{}">"#, r + 1));
        for (c, cell) in row.iter().enumerate() {
            let at = format!("{}{}", column_name(c), r + 1);
            let formula = sheet
                .formula
                .as_ref()
                .filter(|f| f.column == c && r > 0)
                .and_then(|f| f.expressions.get(r - 1))
                .map(|e| format!("<f>{}</f>", xml_escape(e)))
                .unwrap_or_default();
            data.push_str(&cell_xml(
                &at,
                cell,
                r == 0 && sheet.header,
                &formula,
                shared,
            ));
        }
        data.push_str("</row>");
    }
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{data}</sheetData></worksheet>"#
    )
}

/// One cell; `formula` (an `<f>` element or nothing) goes before a number's cached value.
fn cell_xml(
    at: &str,
    cell: &SheetCell,
    header: bool,
    formula: &str,
    shared: &mut SharedStrings,
) -> String {
    match cell {
        SheetCell::Empty => String::new(),
        SheetCell::Text(text) => {
            let style = if header {
                format!(r#" s="{HEADER}""#)
            } else {
                String::new()
            };
            let index = shared.index(text);
            format!(r#"<c r="{at}"{style} t="s"><v>{index}</v></c>"#)
        }
        SheetCell::Number { decimals, .. } => {
            let style = match decimals {
                1 => format!(r#" s="{ONE_PLACE}""#),
                2 => format!(r#" s="{TWO_PLACES}""#),
                _ => String::new(),
            };
            let value = cell.stored().unwrap_or_default();
            format!(r#"<c r="{at}"{style} t="n">{formula}<v>{value}</v></c>"#)
        }
    }
}
