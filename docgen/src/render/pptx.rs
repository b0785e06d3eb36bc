//! PowerPoint (`.pptx`) as PowerPoint saves a deck: a title slide, then a slide per top-level
//! section with its title in the title placeholder, its text in a body box (list items as
//! bullets, `Label: value` lines, sentences with superscript markers), and its tables as
//! graphic frames (`a:tbl`) whose merged cells carry `gridSpan`/`rowSpan` and whose covered
//! cells carry `hMerge`/`vMerge`, as PowerPoint writes them.

use super::zip::{xml_escape, zip_of};
use crate::model::{Block, Document, RowKind, Table, Value};

pub(super) mod converted;

const NAMESPACES: &str = r#"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;

const EMPTY_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>"#;

pub(super) fn render(document: &Document) -> Vec<u8> {
    // Slides: (title, shapes).
    let mut slides: Vec<(String, Vec<String>)> = vec![(document.title.clone(), Vec::new())];
    let mut body: Vec<String> = Vec::new();
    let flush = |slides: &mut Vec<(String, Vec<String>)>, body: &mut Vec<String>| {
        if !body.is_empty() {
            if let Some((_, shapes)) = slides.last_mut() {
                shapes.push(text_box(body));
            }
            body.clear();
        }
    };
    for block in &document.blocks {
        match block {
            Block::Heading { level: 1, text } => {
                flush(&mut slides, &mut body);
                slides.push((text.clone(), Vec::new()));
            }
            Block::Heading { text, .. } => body.push(paragraph(&run(text, true), false)),
            Block::Paragraph { words } => {
                let mut runs = String::new();
                for (n, word) in words.iter().enumerate() {
                    let space = if n + 1 < words.len() { " " } else { "" };
                    runs.push_str(&run(&word.text, false));
                    if let Some(note) = word.note {
                        runs.push_str(&format!(
                            r#"<a:r><a:rPr lang="en-GB" baseline="30000"/><a:t>{note}</a:t></a:r>"#
                        ));
                    }
                    runs.push_str(&run(space, false));
                }
                body.push(paragraph(&runs, false));
            }
            Block::List { lead, items } => {
                if let Some(lead) = lead {
                    body.push(paragraph(&run(lead, false), false));
                }
                for item in items {
                    body.push(paragraph(&run(item, false), true));
                }
            }
            Block::KeyValues { pairs } => {
                for (label, value) in pairs {
                    body.push(paragraph(&run(&format!("{label}: {value}"), false), false));
                }
            }
            Block::Table(table) => {
                flush(&mut slides, &mut body);
                if let Some((_, shapes)) = slides.last_mut() {
                    shapes.push(table_frame(table));
                }
            }
        }
    }
    flush(&mut slides, &mut body);
    let slides: Vec<(String, Vec<String>)> = slides
        .into_iter()
        .map(|(title, shapes)| (paragraph(&run(&title, false), false), shapes))
        .collect();
    package(&document.title, &slides)
}

/// A deck titled `title` of `slides`: each its title's paragraphs and its other shapes.
fn package(title: &str, slides: &[(String, Vec<String>)]) -> Vec<u8> {
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    let overrides: String = (1..=slides.len())
        .map(|n| format!(r#"<Override PartName="/ppt/slides/slide{n}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>"#))
        .collect();
    entries.push(("[Content_Types].xml".into(), format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>{overrides}</Types>"#).into_bytes()));
    entries.push(("_rels/.rels".into(), br#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>"#.to_vec()));
    entries.push(("docProps/core.xml".into(), format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{}</dc:title></cp:coreProperties>"#, xml_escape(title)).into_bytes()));
    let rels: String = (1..=slides.len())
        .map(|n| format!(r#"<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide{n}.xml"/>"#))
        .collect();
    entries.push(("ppt/_rels/presentation.xml.rels".into(), format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>"#).into_bytes()));
    let ids: String = (1..=slides.len())
        .map(|n| format!(r#"<p:sldId id="{}" r:id="rId{n}"/>"#, 255 + n))
        .collect();
    entries.push(("ppt/presentation.xml".into(), format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:presentation {NAMESPACES}><p:sldIdLst>{ids}</p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/></p:presentation>"#).into_bytes()));
    for (n, (title_paragraphs, shapes)) in slides.iter().enumerate() {
        let title_shape = format!(
            r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>{title_paragraphs}</p:txBody></p:sp>"#
        );
        let xml = format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:sld {NAMESPACES}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>{title_shape}{}</p:spTree></p:cSld></p:sld>"#,
            shapes.concat()
        );
        entries.push((format!("ppt/slides/slide{}.xml", n + 1), xml.into_bytes()));
        entries.push((
            format!("ppt/slides/_rels/slide{}.xml.rels", n + 1),
            EMPTY_RELS.as_bytes().to_vec(),
        ));
    }
    let borrowed: Vec<(&str, Vec<u8>)> = entries
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.clone()))
        .collect();
    zip_of(&borrowed)
}

fn run(text: &str, bold: bool) -> String {
    if text.is_empty() {
        return String::new();
    }
    let b = if bold { r#" b="1""# } else { "" };
    format!(
        r#"<a:r><a:rPr lang="en-GB"{b}/><a:t>{}</a:t></a:r>"#,
        xml_escape(text)
    )
}

fn paragraph(runs: &str, bullet: bool) -> String {
    let properties = if bullet {
        r#"<a:pPr marL="285750" indent="-285750"><a:buFont typeface="Arial"/><a:buChar char="•"/></a:pPr>"#
    } else {
        r#"<a:pPr marL="0" indent="0"><a:buNone/></a:pPr>"#
    };
    format!("<a:p>{properties}{runs}</a:p>")
}

fn text_box(paragraphs: &[String]) -> String {
    format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="3" name="Content"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>{}</p:txBody></p:sp>"#,
        paragraphs.concat()
    )
}

/// A table cell: its text, spans, and whether it is covered across or down.
fn tc(text: &str, across: usize, down: usize, covered: Option<&str>) -> String {
    let mut attributes = String::new();
    if across > 1 {
        attributes.push_str(&format!(r#" gridSpan="{across}""#));
    }
    if down > 1 {
        attributes.push_str(&format!(r#" rowSpan="{down}""#));
    }
    if let Some(merge) = covered {
        attributes.push_str(&format!(r#" {merge}="1""#));
    }
    format!(
        r#"<a:tc{attributes}><a:txBody><a:bodyPr/><a:lstStyle/><a:p>{}</a:p></a:txBody><a:tcPr/></a:tc>"#,
        run(text, false)
    )
}

fn table_frame(table: &Table) -> String {
    let width = table.width();
    let grid: String = (0..width).map(|_| r#"<a:gridCol w="914400"/>"#).collect();
    let mut rows = String::new();
    let row = |cells: String| format!(r#"<a:tr h="370840">{cells}</a:tr>"#);
    let across = |n: usize| tc("", 1, 1, Some("hMerge")).repeat(n);
    if let Some(title) = &table.title_row {
        rows.push_str(&row(format!(
            "{}{}",
            tc(title, width, 1, None),
            across(width - 1)
        )));
    }
    for (r, header) in table.header.iter().enumerate() {
        let mut cells = String::new();
        let mut column = 0;
        let mut here = header.iter();
        while column < width {
            if let Some(span) = spanned_from_above(table, r, column) {
                cells.push_str(&tc("", 1, 1, Some("vMerge")).repeat(span));
                column += span;
                continue;
            }
            let Some(h) = here.next() else { break };
            cells.push_str(&tc(&h.text, h.colspan, h.rowspan, None));
            cells.push_str(&across(h.colspan - 1));
            column += h.colspan;
        }
        rows.push_str(&row(cells));
    }
    for body in &table.rows {
        let cells = if body.kind == RowKind::Note {
            format!(
                "{}{}",
                tc(&body.cells[0].value.shown(), width, 1, None),
                across(width - 1)
            )
        } else {
            body.cells
                .iter()
                .map(|c| match c.value {
                    Value::Covered => tc("", 1, 1, Some("vMerge")),
                    _ => tc(&c.value.shown(), 1, c.rowspan, None),
                })
                .collect()
        };
        rows.push_str(&row(cells));
    }
    frame(&grid, &rows, true)
}

/// A table's graphic frame of its grid (`a:gridCol`s) and rows (`a:tr`s); `first_row` marks
/// its first row a header.
fn frame(grid: &str, rows: &str, first_row: bool) -> String {
    let first_row = u8::from(first_row);
    format!(
        r#"<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="8229600" cy="1482725"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="{first_row}"/><a:tblGrid>{grid}</a:tblGrid>{rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>"#
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
