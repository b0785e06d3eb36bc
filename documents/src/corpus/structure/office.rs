//! Word (`.docx`) and PowerPoint (`.pptx`) files read with `undoc`: headings (by paragraph
//! style), paragraphs, bulleted and numbered lists, tables with their header rows, each slide's
//! title and text at its slide. A Word file's page headers and footers and a slide's speaker
//! notes are not body text and are left out; so are images. The archive's bounds are checked
//! first ([`crate::corpus::archive`]).

use undoc::{Block as OfficeBlock, Document, Paragraph, Table};

use super::flow::Flow;
use super::grid::SpanGrid;
use super::Outline;
use crate::corpus::archive::check_archive;
use crate::corpus::budget::{ReadBudget, ReadRefused};
use crate::corpus::format::Format;

pub(crate) fn outline(
    bytes: &[u8],
    format: Format,
    budget: &ReadBudget,
) -> Result<Outline, ReadRefused> {
    let what = match format {
        Format::Pptx => "a PowerPoint file",
        _ => "a Word file",
    };
    check_archive(bytes, what, budget)?;
    let document: Document =
        undoc::parse_bytes(bytes).map_err(|e| ReadRefused::damaged(what, e))?;
    budget.check()?;
    let slides = format == Format::Pptx;
    let mut flow = Flow::new(budget);
    flow.title(document.metadata.title.clone());
    for (n, section) in document.sections.iter().enumerate() {
        if slides {
            flow.at(Some(format!("slide {}", n + 1)));
            // A slide's title heads its text, whether or not the slide repeats it as a
            // paragraph.
            let first = section.content.iter().find_map(|b| match b {
                OfficeBlock::Paragraph(p) => Some(paragraph_text(p)),
                _ => None,
            });
            let named = |name: &&str| {
                let name = name.trim().to_lowercase();
                !name.is_empty()
                    && !name
                        .trim_end_matches(|c: char| c.is_ascii_digit())
                        .trim()
                        .eq("slide")
            };
            if let Some(name) = section.name.as_deref().filter(named) {
                if first.as_deref().map(str::trim) != Some(name.trim()) {
                    flow.heading(2, name)?;
                }
            }
        }
        let items = if slides {
            slide_items(&section.content)
        } else {
            vec![false; section.content.len()]
        };
        for (block, item) in section.content.iter().zip(items) {
            match block {
                OfficeBlock::Paragraph(p) if item => flow.list_item(&paragraph_text(p))?,
                OfficeBlock::Paragraph(p) => paragraph(&mut flow, p, slides)?,
                OfficeBlock::Table(table) => read_table(&mut flow, table)?,
                _ => {}
            }
        }
    }
    flow.finish()
}

/// Which of a slide's blocks are list items. A slide's body text is bulleted by its layout, which
/// the paragraphs do not say: a run of three or more short lines that are no sentences ("300 g
/// dark rye flour") is a list; sentences stay paragraphs.
fn slide_items(blocks: &[OfficeBlock]) -> Vec<bool> {
    let short = |b: &OfficeBlock| match b {
        OfficeBlock::Paragraph(p) if !p.heading.is_heading() => {
            let text = paragraph_text(p);
            let text = text.trim();
            !text.is_empty() && text.split_whitespace().count() <= 12 && !text.ends_with('.')
        }
        _ => false,
    };
    let mut items = vec![false; blocks.len()];
    let mut start = 0;
    while start < blocks.len() {
        let run = blocks[start..].iter().take_while(|b| short(b)).count();
        if run >= 3 {
            items[start..start + run].fill(true);
        }
        start += run.max(1);
    }
    items
}

fn paragraph(flow: &mut Flow, p: &Paragraph, slides: bool) -> Result<(), ReadRefused> {
    let text = paragraph_text(p);
    if p.heading.is_heading() {
        // On a slide the title is the slide's heading, under the deck's title.
        let level = if slides {
            2
        } else {
            p.heading.level() as usize
        };
        return flow.heading(level, &text);
    }
    let listed = p
        .list_info
        .as_ref()
        .is_some_and(|l| l.list_type != undoc::ListType::None);
    if listed {
        flow.list_item(&text)
    } else {
        flow.paragraph(&text)
    }
}

fn read_table(flow: &mut Flow, table: &Table) -> Result<(), ReadRefused> {
    // Cells placed by their spans (issue 85): a cell merged across (`gridSpan`) or down
    // (`vMerge`, whose continuation cells the library drops) keeps every cell in its column.
    let mut spans = SpanGrid::default();
    let mut heading = true;
    for (r, row) in table.rows.iter().enumerate() {
        heading &= row.is_header || row.cells.iter().all(|c| c.is_header);
        if heading {
            spans.header_rows = r + 1;
        }
        for cell in &row.cells {
            spans.place(
                r,
                &cell_text(cell),
                cell.col_span as usize,
                cell.row_span as usize,
                heading,
            )?;
        }
    }
    if let Some(caption) = &table.caption {
        flow.paragraph(caption)?;
    }
    let header_rows = spans.header_rows;
    flow.grid(spans.into_rows(), header_rows)?;
    for row in &table.rows {
        for cell in &row.cells {
            for nested in &cell.nested_tables {
                read_table(flow, nested)?;
            }
        }
    }
    Ok(())
}

/// A cell's text, its paragraphs on lines of their own.
fn cell_text(cell: &undoc::Cell) -> String {
    cell.content
        .iter()
        .map(paragraph_text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A paragraph's text as a person reads it: a superscript note marker ("seven seats³",
/// "£38,500¹") and a footnote reference left out, so that no marker is read as a digit of
/// the word or number before it; an exponent after a unit ("m²") kept.
fn paragraph_text(p: &Paragraph) -> String {
    let mut text = String::new();
    for run in &p.runs {
        let marker = run.text.trim();
        let short = !marker.is_empty() && marker.chars().count() <= 3;
        if run.style.superscript && short {
            if let Some(exponent) = super::unit_exponent(&text, marker) {
                text.push(exponent);
            }
            continue;
        }
        text.push_str(&run.text);
        if run.line_break {
            text.push('\n');
        }
    }
    text
}
