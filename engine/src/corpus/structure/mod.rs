//! A document as a person reads it (issue 58): its title, its headings and the section each
//! block sits in, paragraphs, lists, `Label: value` lines, table rows with their column headers,
//! speaker turns and dated entries. A document is parsed once into an [`Outline`] by the reader of
//! its format (`lines.rs` for plain text, `markdown.rs`, `html.rs`, `csv_table.rs`), and the
//! outline is turned into the [`Passage`]s both indexes hold (`passages.rs`): each passage's text
//! is written so that it reads on its own ("Falcon — Gold: 8"), and its context (the title and
//! section path) travels with it as the passage's source.

mod csv_table;
mod html;
mod lines;
mod markdown;
mod passages;
pub mod reading;

pub use passages::{
    passages, passages_of, sentences_in_context, write_passages, Passage, CONTEXT_MARK,
    CONTEXT_SEPARATOR, ITEM_SEPARATOR, ROW_SEPARATOR,
};

use std::sync::Arc;

use super::budget::{ReadBudget, ReadRefused};
use super::format::Format;

/// A document's title and blocks, in reading order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outline {
    pub title: Option<String>,
    pub blocks: Vec<Block>,
}

/// One block of a document, with the headings above it (outermost first).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub kind: BlockKind,
    pub sections: Vec<String>,
}

/// What a block is.
#[derive(Debug, Clone, PartialEq)]
pub enum BlockKind {
    /// Running text.
    Paragraph(String),
    /// The items of one list, with the line that introduces it ("Present:", "Ingredients")
    /// when there is one.
    List {
        lead: Option<String>,
        items: Vec<String>,
    },
    /// `Label: value` ("Battery: 3200 mAh"), an infobox row or a definition.
    KeyValue { label: String, value: String },
    /// A table row with its table's column headers (empty when the table has none), shared by
    /// the table's rows (one copy per table: a wide header copied into each row once took 57 MB
    /// a row).
    TableRow {
        header: Arc<[String]>,
        cells: Vec<String>,
    },
    /// What one speaker said ("LENA: We took on three porters").
    Turn { speaker: String, text: String },
    /// An entry of a dated history or changelog ("2008 — now runs 7 shops").
    Dated { date: String, text: String },
}

/// Reads `text` in `format` into an outline within `budget` (HTML has its own reader,
/// [`html_outline`]).
pub fn outline(text: &str, format: Format, budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    match format {
        Format::Markdown => markdown::outline(text, budget),
        Format::Csv => csv_table::outline(text, budget),
        _ => lines::outline(text, budget),
    }
}

/// The outline of an HTML page: its `<title>` and its body's blocks, within a budget.
pub use html::outline as html_outline;

/// Builds an outline's blocks while remembering the heading path; shared by the readers.
#[derive(Debug, Default)]
struct OutlineBuilder {
    outline: Outline,
    /// (level, heading) pairs, outermost first.
    headings: Vec<(usize, String)>,
    budget: ReadBudget,
}

impl OutlineBuilder {
    fn new(budget: &ReadBudget) -> Self {
        Self {
            budget: budget.clone(),
            ..Self::default()
        }
    }

    /// A heading of `level` (1 = the largest): the first level-1 heading of an untitled
    /// document is its title.
    fn heading(&mut self, level: usize, text: &str) {
        let text = clean(text);
        if text.is_empty() {
            return;
        }
        if self.outline.title.is_none()
            && self.outline.blocks.is_empty()
            && self.headings.is_empty()
        {
            self.outline.title = Some(text);
            return;
        }
        self.headings.retain(|(l, _)| *l < level);
        self.headings.push((level, text));
    }

    fn push(&mut self, kind: BlockKind) {
        self.outline.blocks.push(Block {
            kind,
            sections: self.headings.iter().map(|(_, h)| h.clone()).collect(),
        });
    }

    fn finish(self) -> Outline {
        self.outline
    }
}

/// Text on one line with single spaces and no Markdown emphasis marks.
fn clean(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("**", "")
        .replace("__", "")
        .trim_matches(|c: char| c == '*' || c == '_' || c.is_whitespace())
        .to_string()
}
