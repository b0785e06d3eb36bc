//! Word (`.docx`) as Word saves it: the title and headings in their styles, paragraphs with
//! superscript note markers, bulleted lists (numbering), `Label: value` lines, and tables with a
//! title row spanning the table (`gridSpan`), header rows marked `tblHeader`, a group header
//! across its columns and the other header cells merged down (`vMerge`), a group column merged
//! down, a note across the table.

use super::zip::{xml_escape, zip_of};
use crate::model::{Block, Cell, Document, Row, RowKind, Table, Value};

pub(super) mod converted;

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>"#;

const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>"#;

const DOCUMENT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>"#;

const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:sz w:val="56"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="26"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/></w:style></w:styles>"#;

const NUMBERING: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#;

pub(super) fn render(document: &Document) -> Vec<u8> {
    let mut body = paragraph(Some("Title"), &run(&document.title));
    for block in &document.blocks {
        match block {
            Block::Heading { level, text } => {
                body.push_str(&paragraph(Some(&format!("Heading{level}")), &run(text)));
            }
            Block::Paragraph { words } => {
                let mut runs = String::new();
                for (n, word) in words.iter().enumerate() {
                    let space = if n + 1 < words.len() { " " } else { "" };
                    runs.push_str(&run(&word.text));
                    if let Some(note) = word.note {
                        runs.push_str(&format!(
                            r#"<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>{note}</w:t></w:r>"#
                        ));
                    }
                    runs.push_str(&run(space));
                }
                body.push_str(&paragraph(None, &runs));
            }
            Block::List { lead, items } => {
                if let Some(lead) = lead {
                    body.push_str(&paragraph(None, &run(lead)));
                }
                for item in items {
                    body.push_str(&format!(
                        r#"<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>{}</w:p>"#,
                        run(item)
                    ));
                }
            }
            Block::KeyValues { pairs } => {
                for (label, value) in pairs {
                    body.push_str(&paragraph(None, &run(&format!("{label}: {value}"))));
                }
            }
            Block::Table(table) => {
                body.push_str(&table_xml(table));
                // Word keeps a paragraph after a table.
                body.push_str(&paragraph(None, ""));
            }
        }
    }
    let document_xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}<w:sectPr/></w:body></w:document>"#
    );
    package(&document.title, document_xml, STYLES, NUMBERING)
}

/// A Word file titled `title` of the main part `document_xml` with its styles and numbering.
fn package(title: &str, document_xml: String, styles: &str, numbering: &str) -> Vec<u8> {
    let core = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{}</dc:title></cp:coreProperties>"#,
        xml_escape(title)
    );
    zip_of(&[
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes().to_vec()),
        ("_rels/.rels", RELS.as_bytes().to_vec()),
        (
            "word/_rels/document.xml.rels",
            DOCUMENT_RELS.as_bytes().to_vec(),
        ),
        ("word/document.xml", document_xml.into_bytes()),
        ("word/styles.xml", styles.as_bytes().to_vec()),
        ("word/numbering.xml", numbering.as_bytes().to_vec()),
        ("docProps/core.xml", core.into_bytes()),
    ])
}

fn run(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    format!(
        r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#,
        xml_escape(text)
    )
}

fn paragraph(style: Option<&str>, runs: &str) -> String {
    match style {
        Some(style) => format!(r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr>{runs}</w:p>"#),
        None => format!("<w:p>{runs}</w:p>"),
    }
}

/// A table cell: its text, the columns it spans, and whether it starts or continues a merge
/// down.
fn cell(text: &str, span: usize, merge: Option<bool>) -> String {
    let mut properties = String::new();
    if span > 1 {
        properties.push_str(&format!(r#"<w:gridSpan w:val="{span}"/>"#));
    }
    match merge {
        Some(true) => properties.push_str(r#"<w:vMerge w:val="restart"/>"#),
        Some(false) => properties.push_str("<w:vMerge/>"),
        None => {}
    }
    format!(
        "<w:tc><w:tcPr>{properties}</w:tcPr>{}</w:tc>",
        paragraph(None, &run(text))
    )
}

fn table_xml(table: &Table) -> String {
    let width = table.width();
    let grid: String = (0..width).map(|_| r#"<w:gridCol w:w="1500"/>"#).collect();
    let mut xml = format!(
        r#"<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>"#
    );
    let header_row = r#"<w:trPr><w:tblHeader/></w:trPr>"#;
    if let Some(title) = &table.title_row {
        xml.push_str(&format!(
            "<w:tr>{header_row}{}</w:tr>",
            cell(title, width, None)
        ));
    }
    for (r, header) in table.header.iter().enumerate() {
        let mut cells = String::new();
        let mut column = 0;
        let mut cells_here = header.iter().peekable();
        while column < width {
            if let Some(span) = spanned_from_above(table, r, column) {
                cells.push_str(&cell("", span, Some(false)));
                column += span;
                continue;
            }
            let Some(header_cell) = cells_here.next() else {
                break;
            };
            let merge = (header_cell.rowspan > 1).then_some(true);
            cells.push_str(&cell(&header_cell.text, header_cell.colspan, merge));
            column += header_cell.colspan;
        }
        xml.push_str(&format!("<w:tr>{header_row}{cells}</w:tr>"));
    }
    for row in &table.rows {
        xml.push_str(&body_row(row, width));
    }
    xml.push_str("</w:tbl>");
    xml
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

fn body_row(row: &Row, width: usize) -> String {
    if row.kind == RowKind::Note {
        return format!(
            "<w:tr>{}</w:tr>",
            cell(&row.cells[0].value.shown(), width, None)
        );
    }
    let cells: String = row
        .cells
        .iter()
        .map(|c: &Cell| match (&c.value, c.rowspan) {
            (Value::Covered, _) => cell("", 1, Some(false)),
            (value, span) if span > 1 => cell(&value.shown(), 1, Some(true)),
            (value, _) => cell(&value.shown(), 1, None),
        })
        .collect();
    format!("<w:tr>{cells}</w:tr>")
}
