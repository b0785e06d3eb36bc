//! Excel (`.xlsx`) as a spreadsheet program saves it: a sheet per table (a spreadsheet holds no
//! prose), named by the heading above it; the title merged across the table, a two-row header
//! with its group merged across and its other cells merged down, numbers stored as numbers with
//! the number format that shows them ("£"#,##0.00, 0%, d mmm yyyy), a group merged down, a note
//! merged across.

use chrono::NaiveDate;

use super::zip::{xml_escape, zip_of};
use crate::model::{Block, Document, RowKind, Table, Value};

pub(super) mod converted;

/// Style indexes of `styles.xml`'s `cellXfs`.
const TEXT: usize = 0;
const INTEGER: usize = 1;
const DECIMAL: usize = 2;
const MONEY: usize = 3;
const PERCENT: usize = 4;
const DATE: usize = 5;

const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="2"><numFmt numFmtId="164" formatCode="&quot;£&quot;#,##0.00"/><numFmt numFmtId="165" formatCode="d mmm yyyy"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="9" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>"#;

/// A sheet's cell: where it is, what it holds, its style.
struct Placed {
    row: usize,
    column: usize,
    value: Value,
}

pub(super) fn render(document: &Document) -> Vec<u8> {
    let mut sheets: Vec<(String, String)> = Vec::new();
    let mut heading = None;
    for block in &document.blocks {
        match block {
            Block::Heading { text, .. } => heading = Some(text.clone()),
            Block::Table(table) => {
                let base = heading
                    .clone()
                    .unwrap_or_else(|| format!("Sheet{}", sheets.len() + 1));
                let mut name: String = base
                    .chars()
                    .filter(|c| !"[]:*?/\\".contains(*c))
                    .take(31)
                    .collect();
                let mut n = 2;
                while sheets.iter().any(|(s, _)| *s == name) {
                    name = format!("{} ({n})", base.chars().take(26).collect::<String>());
                    n += 1;
                }
                sheets.push((name, sheet_xml(table)));
            }
            _ => {}
        }
    }
    package(&document.title, sheets, STYLES, None)
}

/// A workbook of `sheets` (name, worksheet XML) with the style sheet `styles`, and the shared
/// strings table `shared` (its XML) when the sheets' text cells point into one, as Excel's own
/// files do.
fn package(
    title: &str,
    sheets: Vec<(String, String)>,
    styles: &str,
    shared: Option<String>,
) -> Vec<u8> {
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    let mut overrides: String = (1..=sheets.len())
        .map(|n| format!(r#"<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#))
        .collect();
    if shared.is_some() {
        overrides.push_str(r#"<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>"#);
    }
    entries.push(("[Content_Types].xml".into(), format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>{overrides}</Types>"#).into_bytes()));
    entries.push(("_rels/.rels".into(), br#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>"#.to_vec()));
    entries.push(("docProps/core.xml".into(), format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{}</dc:title></cp:coreProperties>"#, xml_escape(title)).into_bytes()));
    let sheet_list: String = sheets
        .iter()
        .enumerate()
        .map(|(n, (name, _))| {
            format!(
                r#"<sheet name="{}" sheetId="{}" r:id="rId{}"/>"#,
                xml_escape(name),
                n + 1,
                n + 1
            )
        })
        .collect();
    entries.push(("xl/workbook.xml".into(), format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>{sheet_list}</sheets></workbook>"#).into_bytes()));
    let mut rels: String = (1..=sheets.len())
        .map(|n| format!(r#"<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet{n}.xml"/>"#))
        .collect();
    let styles_id = sheets.len() + 1;
    if shared.is_some() {
        let shared_id = styles_id + 1;
        rels.push_str(&format!(r#"<Relationship Id="rId{shared_id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>"#));
    }
    entries.push(("xl/_rels/workbook.xml.rels".into(), format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}<Relationship Id="rId{styles_id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#).into_bytes()));
    entries.push(("xl/styles.xml".into(), styles.as_bytes().to_vec()));
    if let Some(shared) = shared {
        entries.push(("xl/sharedStrings.xml".into(), shared.into_bytes()));
    }
    for (n, (_, xml)) in sheets.into_iter().enumerate() {
        entries.push((
            format!("xl/worksheets/sheet{}.xml", n + 1),
            xml.into_bytes(),
        ));
    }
    let borrowed: Vec<(&str, Vec<u8>)> = entries
        .iter()
        .map(|(n, b)| (n.as_str(), b.clone()))
        .collect();
    zip_of(&borrowed)
}

/// "A", "B", … "AA".
pub(super) fn column_name(mut column: usize) -> String {
    let mut name = String::new();
    loop {
        name.insert(0, (b'A' + (column % 26) as u8) as char);
        if column < 26 {
            return name;
        }
        column = column / 26 - 1;
    }
}

/// A table's cells and merges on its sheet, from row 0.
/// A merged region: top row, left column, bottom row, right column.
type Region = (usize, usize, usize, usize);

fn layout(table: &Table) -> (Vec<Placed>, Vec<Region>) {
    let width = table.width();
    let mut cells = Vec::new();
    let mut merges = Vec::new();
    let mut row = 0;
    let text = |t: &str| Value::Text {
        text: t.to_string(),
    };
    if let Some(title) = &table.title_row {
        cells.push(Placed {
            row,
            column: 0,
            value: text(title),
        });
        merges.push((row, 0, row, width - 1));
        row += 1;
    }
    let header_top = row;
    for (r, header) in table.header.iter().enumerate() {
        let mut column = 0;
        for cell in header {
            // Skip the columns a cell above spans down into.
            while column < width && r > 0 && covered_from_above(table, r, column) {
                column += 1;
            }
            cells.push(Placed {
                row: header_top + r,
                column,
                value: text(&cell.text),
            });
            if cell.colspan > 1 || cell.rowspan > 1 {
                merges.push((
                    header_top + r,
                    column,
                    header_top + r + cell.rowspan - 1,
                    column + cell.colspan - 1,
                ));
            }
            column += cell.colspan;
        }
    }
    row = header_top + table.header.len();
    for body in &table.rows {
        if body.kind == RowKind::Note {
            cells.push(Placed {
                row,
                column: 0,
                value: body.cells[0].value.clone(),
            });
            merges.push((row, 0, row, width - 1));
        } else {
            for (column, cell) in body.cells.iter().enumerate() {
                if cell.value == Value::Covered || cell.value.shown().is_empty() {
                    continue;
                }
                cells.push(Placed {
                    row,
                    column,
                    value: cell.value.clone(),
                });
                if cell.rowspan > 1 {
                    merges.push((row, column, row + cell.rowspan - 1, column));
                }
            }
        }
        row += 1;
    }
    (cells, merges)
}

/// Whether column `column` of header row `r` is spanned into from a header cell above.
fn covered_from_above(table: &Table, r: usize, column: usize) -> bool {
    (0..r).any(|above| {
        let mut at = 0;
        table.header[above].iter().any(|cell| {
            let hit = (at..at + cell.colspan).contains(&column) && above + cell.rowspan > r;
            at += cell.colspan;
            hit
        })
    })
}

fn sheet_xml(table: &Table) -> String {
    let (cells, merges) = layout(table);
    let mut rows: std::collections::BTreeMap<usize, Vec<&Placed>> = Default::default();
    for cell in &cells {
        rows.entry(cell.row).or_default().push(cell);
    }
    let mut data = String::new();
    for (row, mut line) in rows {
        line.sort_by_key(|c| c.column);
        data.push_str(&format!(r#"<row r="{}">"#, row + 1));
        for cell in line {
            let at = format!("{}{}", column_name(cell.column), row + 1);
            data.push_str(&cell_xml(&at, &cell.value));
        }
        data.push_str("</row>");
    }
    let merged = if merges.is_empty() {
        String::new()
    } else {
        let list: String = merges
            .iter()
            .map(|(t, l, b, r)| {
                format!(
                    r#"<mergeCell ref="{}{}:{}{}"/>"#,
                    column_name(*l),
                    t + 1,
                    column_name(*r),
                    b + 1
                )
            })
            .collect();
        format!(
            r#"<mergeCells count="{}">{list}</mergeCells>"#,
            merges.len()
        )
    };
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{data}</sheetData>{merged}</worksheet>"#
    )
}

fn cell_xml(at: &str, value: &Value) -> String {
    let number = |style: usize, x: f64| format!(r#"<c r="{at}" s="{style}"><v>{x}</v></c>"#);
    match value {
        Value::Text { text } => format!(
            r#"<c r="{at}" s="{TEXT}" t="inlineStr"><is><t>{}</t></is></c>"#,
            xml_escape(text)
        ),
        Value::Integer { n } => number(INTEGER, *n as f64),
        Value::Decimal { x, .. } => number(DECIMAL, *x),
        Value::Money { amount } => number(MONEY, *amount),
        Value::Percent { fraction } => number(PERCENT, *fraction),
        Value::Date { date } => {
            let epoch = NaiveDate::from_ymd_opt(1899, 12, 30).unwrap_or_default();
            number(DATE, (*date - epoch).num_days() as f64)
        }
        Value::Covered => String::new(),
    }
}
