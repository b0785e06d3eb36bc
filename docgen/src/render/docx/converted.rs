//! A converted document (issue 102) as Word: the first heading a `Title` paragraph, deeper
//! headings `Heading1`–`Heading3`, bold and italic runs, lists as `ListParagraph` paragraphs
//! numbered by level (bullets, or decimals restarting at 1 for each numbered list), terms as
//! "Term: definition" paragraphs, tables with columns as wide as their text, the header row
//! repeated (`tblHeader`), header cells bold, spans as `gridSpan`, a caption above.

use super::super::zip::xml_escape;
use super::{package, paragraph, STYLES};
use crate::convert::model::{runs_text, FlowBlock, FlowDocument, FlowTable, Run};

/// A third heading level, which the generator's documents do not use.
const HEADING3: &str = r#"<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr><w:rPr><w:b/><w:sz w:val="24"/></w:rPr></w:style>"#;

/// A4 less margins of an inch, in twentieths of a point.
const TEXT_WIDTH: usize = 9026;

/// The document as a Word file.
pub(in crate::render) fn render(document: &FlowDocument) -> Vec<u8> {
    let mut body = String::new();
    let mut seen_heading = false;
    let mut ordered_lists = 0;
    let mut last_was_table = false;
    for block in &document.blocks {
        match block {
            FlowBlock::Heading { level, runs } => {
                let style = match (level, seen_heading) {
                    (1, false) => "Title",
                    (1 | 2, _) => "Heading1",
                    (3, _) => "Heading2",
                    _ => "Heading3",
                };
                body.push_str(&paragraph(Some(style), &runs_xml(runs, false)));
                seen_heading = true;
            }
            FlowBlock::Paragraph(runs) => body.push_str(&paragraph(None, &runs_xml(runs, false))),
            FlowBlock::List { ordered, items } => {
                // Numbering 1 is the bullets; each numbered list has its own, from 2.
                let numbering = if *ordered {
                    ordered_lists += 1;
                    ordered_lists + 1
                } else {
                    1
                };
                for (level, runs) in items {
                    body.push_str(&format!(
                        r#"<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="{}"/><w:numId w:val="{numbering}"/></w:numPr></w:pPr>{}</w:p>"#,
                        (*level).min(2),
                        runs_xml(runs, false)
                    ));
                }
            }
            FlowBlock::Definitions(items) => {
                for (term, definition) in items {
                    let mut runs = vec![Run::plain(&format!("{}: ", runs_text(term)))];
                    runs.extend(definition.iter().cloned());
                    body.push_str(&paragraph(None, &runs_xml(&runs, false)));
                }
            }
            FlowBlock::Code(text) => {
                for line in text.split('\n') {
                    body.push_str(&paragraph(None, &runs_xml(&[Run::plain(line)], false)));
                }
            }
            FlowBlock::Table(table) => {
                if let Some(caption) = &table.caption {
                    body.push_str(&paragraph(None, &runs_xml(caption, false)));
                } else if last_was_table {
                    // Two tables touching would be one.
                    body.push_str("<w:p/>");
                }
                body.push_str(&table_xml(table));
            }
        }
        last_was_table = matches!(block, FlowBlock::Table(_));
    }
    if last_was_table {
        body.push_str("<w:p/>");
    }
    let document_xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>"#
    );
    let styles = STYLES.replace("</w:styles>", &format!("{HEADING3}</w:styles>"));
    package(
        &document.title,
        document_xml,
        &styles,
        &numbering(ordered_lists),
    )
}

/// Runs with their bold and italic (all bold when `bold`).
fn runs_xml(runs: &[Run], bold: bool) -> String {
    runs.iter()
        .map(|run| {
            let mut properties = String::new();
            if run.bold || bold {
                properties.push_str("<w:b/>");
            }
            if run.italic {
                properties.push_str("<w:i/>");
            }
            if !properties.is_empty() {
                properties = format!("<w:rPr>{properties}</w:rPr>");
            }
            format!(
                r#"<w:r>{properties}<w:t xml:space="preserve">{}</w:t></w:r>"#,
                xml_escape(&run.text)
            )
        })
        .collect()
}

/// Bullets (numbering 1) and `ordered_lists` decimal numberings, three levels each.
fn numbering(ordered_lists: usize) -> String {
    let level = |n: usize, format: &str, text: &str| {
        format!(
            r#"<w:lvl w:ilvl="{n}"><w:start w:val="1"/><w:numFmt w:val="{format}"/><w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="{}" w:hanging="360"/></w:pPr></w:lvl>"#,
            720 * (n + 1)
        )
    };
    let bullets: String = ["•", "o", "▪"]
        .iter()
        .enumerate()
        .map(|(n, c)| level(n, "bullet", c))
        .collect();
    let numbers: String = ["decimal", "lowerLetter", "lowerRoman"]
        .iter()
        .enumerate()
        .map(|(n, f)| level(n, f, &format!("%{}.", n + 1)))
        .collect();
    let lists: String = (0..ordered_lists)
        .map(|k| {
            format!(
                r#"<w:num w:numId="{}"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>"#,
                k + 2
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/>{bullets}</w:abstractNum><w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="hybridMultilevel"/>{numbers}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>{lists}</w:numbering>"#
    )
}

/// Column widths summing to `total`, each as its longest text (4 to 40 characters) allows.
pub(in crate::render) fn column_widths(table: &FlowTable, total: usize) -> Vec<usize> {
    let mut longest = vec![4; table.width()];
    for row in &table.rows {
        let mut column = 0;
        for cell in row {
            if cell.colspan == 1 {
                let length = runs_text(&cell.runs).chars().count();
                longest[column] = longest[column].max(length);
            }
            column += cell.colspan;
        }
    }
    let longest: Vec<usize> = longest.into_iter().map(|l| l.min(40)).collect();
    let sum: usize = longest.iter().sum::<usize>().max(1);
    let mut widths: Vec<usize> = longest.iter().map(|l| total * l / sum).collect();
    let assigned: usize = widths.iter().sum();
    if let Some(last) = widths.last_mut() {
        *last += total - assigned;
    }
    widths
}

fn table_xml(table: &FlowTable) -> String {
    let widths = column_widths(table, TEXT_WIDTH);
    let grid: String = widths
        .iter()
        .map(|w| format!(r#"<w:gridCol w:w="{w}"/>"#))
        .collect();
    let mut xml = format!(
        r#"<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>"#
    );
    for (r, row) in table.rows.iter().enumerate() {
        xml.push_str("<w:tr>");
        if table.header && r == 0 {
            xml.push_str("<w:trPr><w:tblHeader/></w:trPr>");
        }
        let mut column = 0;
        for cell in row {
            let span = cell.colspan;
            let width: usize = widths.iter().skip(column).take(span).sum();
            let mut properties = format!(r#"<w:tcW w:w="{width}" w:type="dxa"/>"#);
            if span > 1 {
                properties.push_str(&format!(r#"<w:gridSpan w:val="{span}"/>"#));
            }
            xml.push_str(&format!(
                "<w:tc><w:tcPr>{properties}</w:tcPr>{}</w:tc>",
                paragraph(None, &runs_xml(&cell.runs, cell.th))
            ));
            column += span;
        }
        // A short row is filled out with empty cells, as Word requires.
        for w in widths.iter().skip(column) {
            xml.push_str(&format!(
                r#"<w:tc><w:tcPr><w:tcW w:w="{w}" w:type="dxa"/></w:tcPr><w:p/></w:tc>"#
            ));
        }
        xml.push_str("</w:tr>");
    }
    xml.push_str("</w:tbl>");
    xml
}
