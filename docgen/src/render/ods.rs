//! OpenDocument spreadsheets (`.ods`) as LibreOffice saves them: a sheet per table, each cell
//! with its value type (`float`, `currency` in GBP, `percentage`, `date`) and the text it
//! shows, merged cells spanned (`number-columns-spanned`, `number-rows-spanned`) over covered
//! cells, in the same layout as the Excel workbook.

use super::zip::{xml_escape, zip_of};
use crate::model::{Block, Document, RowKind, Table, Value};

pub(super) mod converted;

const MANIFEST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/></manifest:manifest>"#;

/// The data styles LibreOffice writes for pounds, percents and dates.
const STYLES: &str = r#"<office:automatic-styles><number:currency-style style:name="N1"><number:currency-symbol number:language="en" number:country="GB">£</number:currency-symbol><number:number number:decimal-places="2" number:min-integer-digits="1" number:grouping="true"/></number:currency-style><number:percentage-style style:name="N2"><number:number number:decimal-places="0" number:min-integer-digits="1"/><number:text>%</number:text></number:percentage-style><number:date-style style:name="N3"><number:day/><number:text> </number:text><number:month number:textual="true"/><number:text> </number:text><number:year number:style="long"/></number:date-style><style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/><style:style style:name="ce2" style:family="table-cell" style:data-style-name="N2"/><style:style style:name="ce3" style:family="table-cell" style:data-style-name="N3"/></office:automatic-styles>"#;

pub(super) fn render(document: &Document) -> Vec<u8> {
    let mut sheets = String::new();
    let mut heading = None;
    let mut names: Vec<String> = Vec::new();
    for block in &document.blocks {
        match block {
            Block::Heading { text, .. } => heading = Some(text.clone()),
            Block::Table(table) => {
                let mut name = heading
                    .clone()
                    .unwrap_or_else(|| format!("Sheet{}", names.len() + 1));
                if names.contains(&name) {
                    name = format!("{name} ({})", names.len() + 1);
                }
                sheets.push_str(&sheet(&name, table));
                names.push(name);
            }
            _ => {}
        }
    }
    package(&document.title, STYLES, &sheets)
}

/// A spreadsheet of `sheets` (`table:table` elements) with the cell styles `styles` (an
/// `office:automatic-styles` element).
fn package(title: &str, styles: &str, sheets: &str) -> Vec<u8> {
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" office:version="1.2">{styles}<office:body><office:spreadsheet>{sheets}</office:spreadsheet></office:body></office:document-content>"#
    );
    let meta = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.2"><office:meta><dc:title>{}</dc:title></office:meta></office:document-meta>"#,
        xml_escape(title)
    );
    zip_of(&[
        (
            "mimetype",
            b"application/vnd.oasis.opendocument.spreadsheet".to_vec(),
        ),
        ("META-INF/manifest.xml", MANIFEST.as_bytes().to_vec()),
        ("content.xml", content.into_bytes()),
        ("meta.xml", meta.into_bytes()),
    ])
}

/// One cell: its value, the columns and rows it spans.
fn cell(value: &Value, across: usize, down: usize) -> String {
    let mut spans = String::new();
    if across > 1 {
        spans.push_str(&format!(r#" table:number-columns-spanned="{across}""#));
    }
    if down > 1 {
        spans.push_str(&format!(r#" table:number-rows-spanned="{down}""#));
    }
    let shown = xml_escape(&value.shown());
    let typed = match value {
        Value::Text { text } if text.is_empty() => return "<table:table-cell/>".into(),
        Value::Text { .. } => r#"office:value-type="string""#.to_string(),
        Value::Integer { n } => format!(r#"office:value-type="float" office:value="{n}""#),
        Value::Decimal { x, .. } => format!(r#"office:value-type="float" office:value="{x}""#),
        Value::Money { amount } => format!(
            r#"table:style-name="ce1" office:value-type="currency" office:currency="GBP" office:value="{amount}""#
        ),
        Value::Percent { fraction } => format!(
            r#"table:style-name="ce2" office:value-type="percentage" office:value="{fraction}""#
        ),
        Value::Date { date } => format!(
            r#"table:style-name="ce3" office:value-type="date" office:date-value="{}""#,
            date.format("%Y-%m-%d")
        ),
        Value::Covered => return "<table:covered-table-cell/>".into(),
    };
    format!(r#"<table:table-cell {typed}{spans}><text:p>{shown}</text:p></table:table-cell>"#)
}

fn covered(n: usize) -> String {
    "<table:covered-table-cell/>".repeat(n)
}

fn sheet(name: &str, table: &Table) -> String {
    let width = table.width();
    let text = |t: &str| Value::Text {
        text: t.to_string(),
    };
    let mut rows = String::new();
    if let Some(title) = &table.title_row {
        rows.push_str(&format!(
            "<table:table-row>{}{}</table:table-row>",
            cell(&text(title), width, 1),
            covered(width - 1)
        ));
    }
    for (r, header) in table.header.iter().enumerate() {
        let mut cells = String::new();
        let mut column = 0;
        let mut here = header.iter();
        while column < width {
            if let Some(span) = spanned_from_above(table, r, column) {
                cells.push_str(&covered(span));
                column += span;
                continue;
            }
            let Some(h) = here.next() else { break };
            cells.push_str(&cell(&text(&h.text), h.colspan, h.rowspan));
            cells.push_str(&covered(h.colspan - 1));
            column += h.colspan;
        }
        rows.push_str(&format!("<table:table-row>{cells}</table:table-row>"));
    }
    for row in &table.rows {
        let cells = if row.kind == RowKind::Note {
            format!(
                "{}{}",
                cell(&row.cells[0].value, width, 1),
                covered(width - 1)
            )
        } else {
            row.cells
                .iter()
                .map(|c| cell(&c.value, 1, c.rowspan))
                .collect()
        };
        rows.push_str(&format!("<table:table-row>{cells}</table:table-row>"));
    }
    format!(
        r#"<table:table table:name="{}"><table:table-column table:number-columns-repeated="{width}"/>{rows}</table:table>"#,
        xml_escape(name)
    )
}

/// The columns a header cell above spans down into at column `column` of header row `r`.
fn spanned_from_above(table: &Table, r: usize, column: usize) -> Option<usize> {
    (0..r).find_map(|above| {
        let mut at = 0;
        table.header[above].iter().find_map(|c| {
            let hit = at == column && above + c.rowspan > r;
            at += c.colspan;
            hit.then_some(c.colspan)
        })
    })
}
