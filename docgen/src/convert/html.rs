//! An HTML page read into a [`FlowDocument`]'s blocks: its parsed tree walked in document
//! order, each element opening or closing a block as a reader sees them (headings, paragraphs,
//! list items at their depth, table cells, terms and definitions), bold and italic kept as runs.

use ego_tree::iter::Edge;
use scraper::{Html, Node};

use super::model::{clean_runs, FlowBlock, FlowCell, FlowTable, Run};

/// Elements whose content is not read.
const SKIP: [&str; 5] = ["script", "style", "template", "noscript", "svg"];
/// Elements that end the text before them.
const BLOCKISH: [&str; 17] = [
    "div",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "nav",
    "aside",
    "body",
    "html",
    "blockquote",
    "figure",
    "figcaption",
    "address",
    "hr",
    "form",
    "pre",
];

/// The text being gathered and what it will become.
#[derive(Debug)]
enum Open {
    Heading(u8),
    Paragraph,
    Item(usize),
    Term,
    Definition,
    Caption,
    Cell { th: bool, colspan: usize },
}

/// Where a list, table or definition list being read sits in `blocks`.
#[derive(Default)]
struct Reader {
    blocks: Vec<FlowBlock>,
    title: String,
    in_title: bool,
    skip: usize,
    bold: usize,
    italic: usize,
    open: Option<(Open, Vec<Run>)>,
    /// The lists open, outermost first (a nested list's items go to the outermost block).
    lists: Vec<usize>,
    table: Option<usize>,
    /// Whether a row is open in the table.
    row: bool,
    definitions: Option<usize>,
    term: Vec<Run>,
}

/// The page's `<title>` (spaces collapsed) and its blocks.
pub(super) fn read(text: &str) -> (String, Vec<FlowBlock>) {
    let page = Html::parse_document(text);
    let mut reader = Reader::default();
    for edge in page.tree.root().traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Element(e) => reader.start(e.name(), e.attr("colspan")),
                Node::Text(t) => reader.data(t),
                _ => {}
            },
            Edge::Close(node) => {
                if let Node::Element(e) = node.value() {
                    reader.end(e.name());
                }
            }
        }
    }
    reader.close();
    let title = reader
        .title
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (title, reader.blocks)
}

fn heading_level(tag: &str) -> Option<u8> {
    match tag.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(d - b'0'),
        _ => None,
    }
}

impl Reader {
    fn start(&mut self, tag: &str, colspan: Option<&str>) {
        if SKIP.contains(&tag) {
            self.skip += 1;
            return;
        }
        if self.skip > 0 {
            return;
        }
        let begin = |this: &mut Reader, open: Open| {
            this.close();
            this.open = Some((open, Vec::new()));
        };
        match tag {
            "title" => self.in_title = true,
            "b" | "strong" => self.bold += 1,
            "i" | "em" | "cite" => self.italic += 1,
            "br" => self.data(" "),
            "p" => begin(self, Open::Paragraph),
            "ul" | "ol" => {
                self.close();
                match self.lists.first() {
                    Some(&outer) => self.lists.push(outer),
                    None => {
                        self.blocks.push(FlowBlock::List {
                            ordered: tag == "ol",
                            items: Vec::new(),
                        });
                        self.lists.push(self.blocks.len() - 1);
                    }
                }
            }
            "li" => begin(self, Open::Item(self.lists.len().saturating_sub(1))),
            "dl" => {
                self.close();
                self.blocks.push(FlowBlock::Definitions(Vec::new()));
                self.definitions = Some(self.blocks.len() - 1);
            }
            "dt" => begin(self, Open::Term),
            "dd" => begin(self, Open::Definition),
            "table" => {
                self.close();
                self.blocks.push(FlowBlock::Table(FlowTable::default()));
                self.table = Some(self.blocks.len() - 1);
            }
            "caption" => begin(self, Open::Caption),
            "tr" => {
                self.close();
                if let Some(table) = self.table_mut() {
                    table.rows.push(Vec::new());
                    self.row = true;
                }
            }
            "td" | "th" => {
                let colspan = colspan.and_then(|s| s.trim().parse().ok()).unwrap_or(1);
                begin(
                    self,
                    Open::Cell {
                        th: tag == "th",
                        colspan: colspan.max(1),
                    },
                );
            }
            _ => match heading_level(tag) {
                Some(level) => begin(self, Open::Heading(level)),
                None if BLOCKISH.contains(&tag) => self.close(),
                None => {}
            },
        }
    }

    fn end(&mut self, tag: &str) {
        if SKIP.contains(&tag) {
            self.skip = self.skip.saturating_sub(1);
            return;
        }
        if self.skip > 0 {
            return;
        }
        match tag {
            "title" => self.in_title = false,
            "b" | "strong" => self.bold = self.bold.saturating_sub(1),
            "i" | "em" | "cite" => self.italic = self.italic.saturating_sub(1),
            "p" | "li" | "dt" | "dd" | "caption" | "td" | "th" => self.close(),
            "ul" | "ol" => {
                self.close();
                self.lists.pop();
            }
            "dl" => {
                self.close();
                self.definitions = None;
            }
            "tr" => {
                self.close();
                self.row = false;
            }
            "table" => {
                self.close();
                if let Some(table) = self.table_mut() {
                    table.header = table.rows.first().is_some_and(|r| r.iter().all(|c| c.th));
                }
                self.table = None;
                self.row = false;
            }
            _ if heading_level(tag).is_some() || BLOCKISH.contains(&tag) => self.close(),
            _ => {}
        }
    }

    fn data(&mut self, text: &str) {
        if self.in_title {
            self.title.push_str(text);
            return;
        }
        if self.skip > 0 {
            return;
        }
        if self.open.is_none() {
            if text.trim().is_empty() {
                return;
            }
            // Text outside any block belongs to what encloses it.
            let open = if self.row {
                Open::Cell {
                    th: false,
                    colspan: 1,
                }
            } else if !self.lists.is_empty() {
                Open::Item(self.lists.len() - 1)
            } else if self.definitions.is_some() {
                Open::Definition
            } else {
                Open::Paragraph
            };
            self.open = Some((open, Vec::new()));
        }
        if let Some((_, runs)) = &mut self.open {
            runs.push(Run {
                text: text.to_string(),
                bold: self.bold > 0,
                italic: self.italic > 0,
            });
        }
    }

    fn table_mut(&mut self) -> Option<&mut FlowTable> {
        match self.table.and_then(|t| self.blocks.get_mut(t)) {
            Some(FlowBlock::Table(table)) => Some(table),
            _ => None,
        }
    }

    /// The text gathered ends its block.
    fn close(&mut self) {
        let Some((open, runs)) = self.open.take() else {
            return;
        };
        let runs = clean_runs(runs);
        if let Open::Cell { th, colspan } = open {
            let row = self.row;
            if let Some(last) = self.table_mut().and_then(|t| t.rows.last_mut()) {
                if row {
                    last.push(FlowCell { runs, th, colspan });
                }
            }
            return;
        }
        if runs.is_empty() {
            return;
        }
        match open {
            Open::Heading(level) => self.blocks.push(FlowBlock::Heading { level, runs }),
            Open::Paragraph => self.blocks.push(FlowBlock::Paragraph(runs)),
            Open::Item(level) => match self.lists.first().and_then(|&l| self.blocks.get_mut(l)) {
                Some(FlowBlock::List { items, .. }) => items.push((level, runs)),
                _ => self.blocks.push(FlowBlock::Paragraph(runs)),
            },
            Open::Term => self.term = runs,
            Open::Definition => {
                // A term stays for each definition after it.
                let term = self.term.clone();
                match self.definitions.and_then(|d| self.blocks.get_mut(d)) {
                    Some(FlowBlock::Definitions(items)) => items.push((term, runs)),
                    _ => self.blocks.push(FlowBlock::Paragraph(runs)),
                }
            }
            Open::Caption => {
                if let Some(table) = self.table_mut() {
                    table.caption = Some(runs);
                }
            }
            Open::Cell { .. } => {}
        }
    }
}
