//! A converted workbook (issue 102: the collection's CSV tables) as an OpenDocument
//! spreadsheet: the header row in bold, numbers as `float` cells showing the CSV's text,
//! every row as wide as the widest.

use super::super::zip::xml_escape;
use super::package;
use crate::convert::model::{Sheet, SheetCell, Workbook};

/// Bold for the header (`fo` declared where it is used: the package's root declares the
/// generator's namespaces only), one and two decimals for numbers.
const STYLES: &str = r#"<office:automatic-styles><number:number-style style:name="N1"><number:number number:decimal-places="1" number:min-decimal-places="1" number:min-integer-digits="1"/></number:number-style><number:number-style style:name="N2"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1"/></number:number-style><style:style style:name="ce1" style:family="table-cell"><style:text-properties xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" fo:font-weight="bold"/></style:style><style:style style:name="ce2" style:family="table-cell" style:data-style-name="N1"/><style:style style:name="ce3" style:family="table-cell" style:data-style-name="N2"/></office:automatic-styles>"#;

/// The workbook as an OpenDocument spreadsheet.
pub(in crate::render) fn render(workbook: &Workbook) -> Vec<u8> {
    let sheets: String = workbook.sheets.iter().map(sheet).collect();
    package(&workbook.title, STYLES, &sheets)
}

fn sheet(sheet: &Sheet) -> String {
    let width = sheet.rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut rows = String::new();
    for (r, row) in sheet.rows.iter().enumerate() {
        rows.push_str("<table:table-row>");
        for c in 0..width {
            rows.push_str(&cell(
                row.get(c).unwrap_or(&SheetCell::Empty),
                r == 0 && sheet.header,
            ));
        }
        rows.push_str("</table:table-row>");
    }
    format!(
        r#"<table:table table:name="{}"><table:table-column table:number-columns-repeated="{width}"/>{rows}</table:table>"#,
        xml_escape(&sheet.name)
    )
}

fn cell(cell: &SheetCell, header: bool) -> String {
    match cell {
        SheetCell::Empty => "<table:table-cell/>".into(),
        SheetCell::Text(text) => {
            let style = if header {
                r#" table:style-name="ce1""#
            } else {
                ""
            };
            format!(
                r#"<table:table-cell{style} office:value-type="string"><text:p>{}</text:p></table:table-cell>"#,
                xml_escape(text)
            )
        }
        SheetCell::Number { shown, decimals } => {
            let style = match decimals {
                1 => r#" table:style-name="ce2""#,
                2 => r#" table:style-name="ce3""#,
                _ => "",
            };
            format!(
                r#"<table:table-cell{style} office:value-type="float" office:value="{}"><text:p>{}</text:p></table:table-cell>"#,
                cell.stored().unwrap_or_default(),
                xml_escape(shown)
            )
        }
    }
}
