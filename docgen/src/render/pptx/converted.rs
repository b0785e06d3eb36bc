//! A converted document (issue 102) as a PowerPoint deck: a slide per top-level section (the
//! shallowest heading below the title), the first holding the title and what precedes the
//! first section; a slide's text in its body box (bold and italic runs, list items bulleted or
//! numbered by level, terms as "Term: definition"), its tables after it as graphic frames with
//! columns as wide as their text, header cells bold, spans as `gridSpan` over `hMerge` cells.

use super::super::docx::converted::column_widths;
use super::super::zip::xml_escape;
use super::{frame, package, paragraph, text_box};
use crate::convert::model::{runs_text, FlowBlock, FlowDocument, FlowTable, Run};

/// The table's width on the slide, in EMU.
const TABLE_WIDTH: usize = 10_515_600;

/// The document as a deck.
pub(in crate::render) fn render(document: &FlowDocument) -> Vec<u8> {
    let slides: Vec<(String, Vec<String>)> = sections(document)
        .into_iter()
        .map(|(title, blocks)| slide(&title, &blocks))
        .collect();
    package(&document.title, &slides)
}

/// The title and the blocks before the first section, then each top-level section's heading
/// and blocks.
fn sections(document: &FlowDocument) -> Vec<(Vec<Run>, Vec<&FlowBlock>)> {
    let mut blocks: Vec<&FlowBlock> = document.blocks.iter().collect();
    let mut title = vec![Run::plain(&document.heading())];
    if let Some(FlowBlock::Heading { level: 1, runs }) = blocks.first() {
        title = runs.clone();
        blocks.remove(0);
    }
    let top = blocks
        .iter()
        .filter_map(|b| match b {
            FlowBlock::Heading { level, .. } => Some(*level),
            _ => None,
        })
        .min();
    let mut sections = vec![(title, Vec::new())];
    for block in blocks {
        match block {
            FlowBlock::Heading { level, runs } if Some(*level) == top => {
                sections.push((runs.clone(), Vec::new()));
            }
            other => {
                if let Some((_, section)) = sections.last_mut() {
                    section.push(other);
                }
            }
        }
    }
    sections
}

/// A slide's title paragraph and shapes: the text box, then the tables.
fn slide(title: &[Run], blocks: &[&FlowBlock]) -> (String, Vec<String>) {
    let mut paragraphs = Vec::new();
    let mut tables = Vec::new();
    let plain = |runs: &str| paragraph(runs, false);
    for block in blocks {
        match block {
            FlowBlock::Paragraph(runs) => paragraphs.push(plain(&runs_xml(runs, false))),
            FlowBlock::Heading { runs, .. } => paragraphs.push(plain(&runs_xml(runs, true))),
            FlowBlock::List { ordered, items } => {
                for (level, runs) in items {
                    paragraphs.push(item(*ordered, *level, &runs_xml(runs, false)));
                }
            }
            FlowBlock::Definitions(items) => {
                for (term, definition) in items {
                    let mut runs = vec![Run::plain(&format!("{}: ", runs_text(term)))];
                    runs.extend(definition.iter().cloned());
                    paragraphs.push(plain(&runs_xml(&runs, false)));
                }
            }
            FlowBlock::Code(text) => {
                for line in text.split('\n') {
                    paragraphs.push(plain(&runs_xml(&[Run::plain(line)], false)));
                }
            }
            FlowBlock::Table(table) => {
                if let Some(caption) = &table.caption {
                    paragraphs.push(plain(&runs_xml(caption, false)));
                }
                tables.push(table_xml(table));
            }
        }
    }
    let mut shapes = Vec::new();
    if !paragraphs.is_empty() {
        shapes.push(text_box(&paragraphs));
    }
    shapes.extend(tables);
    (plain(&runs_xml(title, false)), shapes)
}

/// Runs with their bold and italic (all bold when `bold`).
fn runs_xml(runs: &[Run], bold: bool) -> String {
    runs.iter()
        .map(|run| {
            let b = if run.bold || bold { r#" b="1""# } else { "" };
            let i = if run.italic { r#" i="1""# } else { "" };
            format!(
                r#"<a:r><a:rPr lang="en-GB"{b}{i}/><a:t>{}</a:t></a:r>"#,
                xml_escape(&run.text)
            )
        })
        .collect()
}

/// A list item at `level`: bulleted, or numbered 1., 2., … by PowerPoint.
fn item(ordered: bool, level: usize, runs: &str) -> String {
    let properties = if ordered {
        format!(
            r#"<a:pPr marL="{}" lvl="{level}" indent="-342900"><a:buFont typeface="+mj-lt"/><a:buAutoNum type="arabicPeriod"/></a:pPr>"#,
            342_900 * (level + 1)
        )
    } else {
        format!(
            r#"<a:pPr marL="{}" lvl="{level}" indent="-285750"><a:buFont typeface="Arial"/><a:buChar char="•"/></a:pPr>"#,
            285_750 * (level + 1)
        )
    };
    format!("<a:p>{properties}{runs}</a:p>")
}

fn table_xml(table: &FlowTable) -> String {
    let widths = column_widths(table, TABLE_WIDTH);
    let grid: String = widths
        .iter()
        .map(|w| format!(r#"<a:gridCol w="{w}"/>"#))
        .collect();
    let empty = |merge: &str| {
        format!(
            r#"<a:tc{merge}><a:txBody><a:bodyPr/><a:lstStyle/><a:p/></a:txBody><a:tcPr/></a:tc>"#
        )
    };
    let mut rows = String::new();
    for row in &table.rows {
        rows.push_str(r#"<a:tr h="370840">"#);
        let mut used = 0;
        for cell in row {
            let span = if cell.colspan > 1 {
                format!(r#" gridSpan="{}""#, cell.colspan)
            } else {
                String::new()
            };
            rows.push_str(&format!(
                r#"<a:tc{span}><a:txBody><a:bodyPr/><a:lstStyle/><a:p>{}</a:p></a:txBody><a:tcPr/></a:tc>"#,
                runs_xml(&cell.runs, cell.th)
            ));
            rows.push_str(&empty(r#" hMerge="1""#).repeat(cell.colspan - 1));
            used += cell.colspan;
        }
        rows.push_str(&empty("").repeat(widths.len().saturating_sub(used)));
        rows.push_str("</a:tr>");
    }
    frame(&grid, &rows, table.header)
}
