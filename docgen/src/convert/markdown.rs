//! A Markdown file read into a [`FlowDocument`]'s blocks from its CommonMark events (tables
//! on): headings, paragraphs, lists with their items' depth, tables (a header row of empty
//! cells is no header), code. A `Label: value` line ("**Present:** …") starts a paragraph of
//! its own, as a person reads such lines, though CommonMark joins it to the lines above.

use std::sync::LazyLock;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use regex::Regex;

use super::model::{clean_runs, FlowBlock, FlowCell, FlowTable, Run};

static LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\*\*|__)?[A-Z][^:|]{0,40}?:(\*\*|__)?\s+\S").expect("the pattern is valid")
});

/// What the text being gathered will become.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Open {
    Heading(u8),
    Paragraph,
    Item(usize),
    Cell,
    Code,
}

#[derive(Default)]
struct Reader {
    blocks: Vec<FlowBlock>,
    open: Option<(Open, Vec<Run>)>,
    bold: usize,
    italic: usize,
    /// Index in `blocks` of the outermost list, once per level of nesting open.
    lists: Vec<usize>,
    table: Option<FlowTable>,
    in_head: bool,
}

/// The blocks of `text`.
pub(super) fn read(text: &str) -> Vec<FlowBlock> {
    let text = text.replace("\r\n", "\n");
    let mut reader = Reader::default();
    let parser = Parser::new_ext(&text, Options::ENABLE_TABLES).into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Start(tag) => reader.start(tag),
            Event::End(tag) => reader.end(tag),
            Event::Text(t) => reader.push(&t, reader.bold > 0, reader.italic > 0),
            Event::Code(t) => reader.push(&t, false, false),
            Event::HardBreak => reader.push(" ", false, false),
            Event::SoftBreak => {
                let next = text[range.end..].lines().next().unwrap_or("");
                let paragraph = matches!(reader.open, Some((Open::Paragraph, _)));
                if paragraph && LABEL.is_match(next) {
                    reader.close();
                    reader.open = Some((Open::Paragraph, Vec::new()));
                } else {
                    reader.push(" ", false, false);
                }
            }
            _ => {}
        }
    }
    reader.close();
    reader.blocks
}

impl Reader {
    fn push(&mut self, text: &str, bold: bool, italic: bool) {
        if let Some((_, runs)) = &mut self.open {
            runs.push(Run {
                text: text.to_string(),
                bold,
                italic,
            });
        }
    }

    fn begin(&mut self, open: Open) {
        self.close();
        self.open = Some((open, Vec::new()));
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Heading { level, .. } => self.begin(Open::Heading(level as u8)),
            // A loose list's item holds its text in a paragraph: it stays the item's.
            Tag::Paragraph if !matches!(self.open, Some((Open::Item(_), _))) => {
                self.begin(Open::Paragraph);
            }
            Tag::List(first) => {
                self.close();
                match self.lists.first() {
                    Some(&outer) => self.lists.push(outer),
                    None => {
                        self.blocks.push(FlowBlock::List {
                            ordered: first.is_some(),
                            items: Vec::new(),
                        });
                        self.lists.push(self.blocks.len() - 1);
                    }
                }
            }
            Tag::Item => self.begin(Open::Item(self.lists.len().saturating_sub(1))),
            Tag::Table(_) => {
                self.close();
                self.table = Some(FlowTable::default());
            }
            Tag::TableHead => {
                self.in_head = true;
                self.new_row();
            }
            Tag::TableRow => self.new_row(),
            Tag::TableCell => self.begin(Open::Cell),
            Tag::CodeBlock(_) => self.begin(Open::Code),
            Tag::Strong => self.bold += 1,
            Tag::Emphasis => self.italic += 1,
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) | TagEnd::Item | TagEnd::TableCell | TagEnd::CodeBlock => {
                self.close();
            }
            TagEnd::Paragraph if matches!(self.open, Some((Open::Paragraph, _))) => self.close(),
            TagEnd::List(_) => {
                self.close();
                self.lists.pop();
            }
            TagEnd::TableHead => self.in_head = false,
            TagEnd::Table => self.end_table(),
            TagEnd::Strong => self.bold = self.bold.saturating_sub(1),
            TagEnd::Emphasis => self.italic = self.italic.saturating_sub(1),
            _ => {}
        }
    }

    fn new_row(&mut self) {
        if let Some(table) = &mut self.table {
            table.rows.push(Vec::new());
        }
    }

    /// The table ends: an empty header row is dropped and the table has no header.
    fn end_table(&mut self) {
        self.close();
        let Some(mut table) = self.table.take() else {
            return;
        };
        let header = table
            .rows
            .first()
            .is_some_and(|r| r.iter().any(|c| !c.runs.is_empty()));
        if !header && !table.rows.is_empty() {
            table.rows.remove(0);
        }
        table.header = header;
        if let Some(first) = table.rows.first_mut().filter(|_| header) {
            first.iter_mut().for_each(|c| c.th = true);
        }
        self.blocks.push(FlowBlock::Table(table));
    }

    fn close(&mut self) {
        let Some((open, runs)) = self.open.take() else {
            return;
        };
        if open == Open::Code {
            let text: String = runs.iter().map(|r| r.text.as_str()).collect();
            let text = text.strip_suffix('\n').unwrap_or(&text).to_string();
            self.blocks.push(FlowBlock::Code(text));
            return;
        }
        let runs = clean_runs(runs);
        if open == Open::Cell {
            if let Some(row) = self.table.as_mut().and_then(|t| t.rows.last_mut()) {
                row.push(FlowCell {
                    runs,
                    th: false,
                    colspan: 1,
                });
            }
            return;
        }
        if runs.is_empty() {
            return;
        }
        match open {
            Open::Heading(level) => self.blocks.push(FlowBlock::Heading { level, runs }),
            Open::Item(level) => {
                if let Some(FlowBlock::List { items, .. }) =
                    self.lists.first().and_then(|&l| self.blocks.get_mut(l))
                {
                    items.push((level, runs));
                }
            }
            _ => self.blocks.push(FlowBlock::Paragraph(runs)),
        }
    }
}
