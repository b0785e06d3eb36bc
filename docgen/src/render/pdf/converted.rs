//! A converted document (issue 102) as a PDF, in the generator's fonts and file: A4 pages in
//! Helvetica at 10.5 pt, the document's title as a running header and "Page N of M" at the
//! foot of every page, headings kept with the lines after them, list items with their bullet
//! or number indented by level, tables in columns as wide as their text (the widest capped and
//! wrapped when the page is too narrow), the header row bold with a rule under it. Every
//! document spans at least two pages: a short one breaks before the section heading nearest
//! its middle.

use super::{assemble, width_of, wrap, Font, Piece, MARGIN, PAGE_HEIGHT, PAGE_WIDTH};
use crate::convert::model::{runs_text, FlowBlock, FlowDocument, FlowTable};

const TOP: f32 = PAGE_HEIGHT - MARGIN;
const BOTTOM: f32 = MARGIN;
const TEXT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN;
const BODY: f32 = 10.5;
const LEAD: f32 = 14.0;
/// A table cell's padding, left and right together.
const PAD: f32 = 10.0;

/// The document as a PDF.
pub(in crate::render) fn render(document: &FlowDocument) -> Vec<u8> {
    let pages = pages(document);
    let total = pages.len();
    let heading = winansi(&document.heading());
    let streams: Vec<String> = pages
        .into_iter()
        .enumerate()
        .map(|(n, ops)| {
            // The running header and footer a word processor repeats on every page.
            let mut stream = Piece::plain(0.0, Font::Regular, 8.0, &heading).draw(MARGIN, 810.0);
            stream.push_str(&ops);
            let foot = format!("Page {} of {total}", n + 1);
            let x = (PAGE_WIDTH - width_of(&foot, Font::Regular, 8.0)) / 2.0;
            stream.push_str(&Piece::plain(0.0, Font::Regular, 8.0, &foot).draw(x, 30.0));
            stream
        })
        .collect();
    assemble(&streams, &document.title)
}

/// The pages' operators: laid out once, and again with a break before the section heading
/// nearest the middle when all fits on one page.
fn pages(document: &FlowDocument) -> Vec<String> {
    let first = Layout::run(document, None);
    if first.pages.len() >= 2 {
        return first.pages;
    }
    let middle = (TOP + first.y) / 2.0;
    let distance = |n: usize| (first.block_y[n] - middle).abs();
    let nearest = |candidates: Vec<usize>| {
        candidates
            .into_iter()
            .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
    };
    let sections: Vec<usize> = (0..document.blocks.len())
        .filter(|&n| matches!(document.blocks[n], FlowBlock::Heading { level: 2, .. }))
        .collect();
    let at = nearest(sections).or_else(|| nearest((1..document.blocks.len()).collect()));
    match at {
        Some(at) => Layout::run(document, Some(at)).pages,
        None => first.pages,
    }
}

/// Text as the fonts' encoding has it: signs beyond Windows-1252 written as the ASCII a
/// typist would use.
fn winansi(text: &str) -> String {
    text.replace('\u{2212}', "-")
        .replace('\u{2192}', "->")
        .replace('\u{2190}', "<-")
        .replace(['\u{2009}', '\u{202F}'], " ")
        .replace(['\u{2011}', '\u{2010}'], "-")
}

fn font(bold: bool) -> Font {
    if bold {
        Font::Bold
    } else {
        Font::Regular
    }
}

/// `text` in lines of `width`; one empty line for no text.
fn lines_of(text: &str, width: f32, size: f32, bold: bool) -> Vec<String> {
    let lines = wrap(&winansi(text), font(bold), size, width);
    if lines.is_empty() {
        vec![String::new()]
    } else {
        lines
    }
}

/// The pages laid out so far and where the next line goes.
struct Layout {
    pages: Vec<String>,
    y: f32,
    /// Where each block started (its page's height).
    block_y: Vec<f32>,
}

impl Layout {
    /// `document` laid out, a page broken before block `break_at`.
    fn run(document: &FlowDocument, break_at: Option<usize>) -> Layout {
        let mut layout = Layout {
            pages: vec![String::new()],
            y: TOP,
            block_y: Vec::new(),
        };
        let mut first_heading = true;
        for (n, block) in document.blocks.iter().enumerate() {
            if break_at == Some(n) && !layout.at_top() {
                layout.new_page();
            }
            layout.block_y.push(layout.y);
            match block {
                FlowBlock::Heading { level, runs } => {
                    let title = *level == 1 && first_heading;
                    layout.heading(&runs_text(runs), *level, title);
                    first_heading = false;
                }
                FlowBlock::Paragraph(runs) => layout.paragraph(&runs_text(runs), MARGIN, 6.0),
                FlowBlock::Code(text) => {
                    for line in text.split('\n') {
                        layout.paragraph(line, MARGIN, 0.0);
                    }
                    layout.y -= 6.0;
                }
                FlowBlock::List { ordered, items } => {
                    for (k, (level, runs)) in items.iter().enumerate() {
                        let marker = if *ordered {
                            format!("{}.", k + 1)
                        } else {
                            "\u{2022}".to_string()
                        };
                        layout.item(&marker, &runs_text(runs), *level);
                    }
                    layout.y -= 4.0;
                }
                FlowBlock::Definitions(items) => {
                    for (term, definition) in items {
                        let line = format!("{}: {}", runs_text(term), runs_text(definition));
                        layout.paragraph(&line, MARGIN, 2.0);
                    }
                    layout.y -= 4.0;
                }
                FlowBlock::Table(table) => {
                    if let Some(caption) = &table.caption {
                        layout.paragraph(&runs_text(caption), MARGIN, 2.0);
                    }
                    layout.table(table);
                }
            }
        }
        layout
    }

    fn new_page(&mut self) {
        self.pages.push(String::new());
        self.y = TOP;
    }

    fn at_top(&self) -> bool {
        self.y == TOP
    }

    /// A new page unless `height` fits below.
    fn ensure(&mut self, height: f32) {
        if self.y - height < BOTTOM && !self.at_top() {
            self.new_page();
        }
    }

    fn text(&mut self, x: f32, y: f32, text: &str, size: f32, bold: bool) {
        let ops = Piece::plain(0.0, font(bold), size, text).draw(x, y);
        if let Some(page) = self.pages.last_mut() {
            page.push_str(&ops);
        }
    }

    fn lines(&mut self, x: f32, lines: &[String]) {
        for line in lines {
            self.ensure(LEAD);
            self.y -= LEAD;
            self.text(x, self.y, line, BODY, false);
        }
    }

    fn paragraph(&mut self, text: &str, x: f32, after: f32) {
        let lines = lines_of(text, TEXT_WIDTH - (x - MARGIN), BODY, false);
        self.lines(x, &lines);
        self.y -= after;
    }

    fn heading(&mut self, text: &str, level: u8, title: bool) {
        let size = match (title, level) {
            (true, _) => 20.0,
            (false, 1 | 2) => 14.0,
            (false, 3) => 12.0,
            _ => 11.0,
        };
        let lead = size * 1.25;
        if !self.at_top() && !title {
            self.y -= 10.0;
        }
        // Kept with the lines after it.
        self.ensure(lead + 3.0 * LEAD);
        for line in lines_of(text, TEXT_WIDTH, size, true) {
            self.y -= lead;
            self.text(MARGIN, self.y, &line, size, true);
        }
        self.y -= if title { 10.0 } else { 4.0 };
    }

    fn item(&mut self, marker: &str, text: &str, level: usize) {
        let x = MARGIN + 14.0 + 18.0 * level as f32;
        let tx = x + 14.0;
        let lines = lines_of(text, TEXT_WIDTH - (tx - MARGIN), BODY, false);
        self.ensure(LEAD);
        self.y -= LEAD;
        self.text(x, self.y, marker, BODY, false);
        self.text(tx, self.y, &lines[0], BODY, false);
        self.lines(tx, &lines[1..]);
        self.y -= 2.0;
    }

    fn table(&mut self, table: &FlowTable) {
        let widths = column_widths(table);
        let mut xs = vec![MARGIN];
        for w in &widths {
            xs.push(xs[xs.len() - 1] + w);
        }
        for (k, row) in table.rows.iter().enumerate() {
            let mut cells = Vec::new();
            let mut column = 0;
            for cell in row {
                let span = cell.colspan;
                let width: f32 = widths.iter().skip(column).take(span).sum::<f32>() - PAD;
                let bold = bold_cell(table, k, cell);
                let x = xs.get(column).copied().unwrap_or(MARGIN);
                cells.push((x, lines_of(&runs_text(&cell.runs), width, BODY, bold), bold));
                column += span;
            }
            let count = cells.iter().map(|(_, l, _)| l.len()).max().unwrap_or(1);
            self.ensure(count as f32 * LEAD + 2.0);
            let top = self.y;
            for (x, lines, bold) in &cells {
                for (j, line) in lines.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
                    self.text(*x, top - LEAD * (j + 1) as f32, line, BODY, *bold);
                }
            }
            self.y = top - LEAD * count as f32 - 2.0;
            if table.header && k == 0 {
                let (y, right) = (self.y + 1.0, xs[xs.len() - 1] - PAD / 2.0);
                let rule = format!("0.5 w {MARGIN:.2} {y:.2} m {right:.2} {y:.2} l S\n");
                if let Some(page) = self.pages.last_mut() {
                    page.push_str(&rule);
                }
                self.y -= 2.0;
            }
        }
        self.y -= 8.0;
    }
}

/// A header cell, a cell of the header row, or a cell bold throughout.
fn bold_cell(table: &FlowTable, row: usize, cell: &crate::convert::model::FlowCell) -> bool {
    cell.th
        || (table.header && row == 0)
        || (!cell.runs.is_empty() && cell.runs.iter().all(|r| r.bold))
}

/// Each column as wide as its widest text and padding; when they overflow the page, the widest
/// capped at the width that makes them fit (their cells wrap).
fn column_widths(table: &FlowTable) -> Vec<f32> {
    let mut natural = vec![0.0_f32; table.width()];
    for (k, row) in table.rows.iter().enumerate() {
        let mut column = 0;
        for cell in row {
            if cell.colspan == 1 {
                let text = winansi(&runs_text(&cell.runs));
                let width = width_of(&text, font(bold_cell(table, k, cell)), BODY) + PAD;
                natural[column] = natural[column].max(width);
            }
            column += cell.colspan;
        }
    }
    if natural.iter().sum::<f32>() <= TEXT_WIDTH {
        return natural;
    }
    let (mut low, mut high) = (0.0_f32, natural.iter().copied().fold(0.0, f32::max));
    for _ in 0..50 {
        let middle = (low + high) / 2.0;
        if natural.iter().map(|w| w.min(middle)).sum::<f32>() > TEXT_WIDTH {
            high = middle;
        } else {
            low = middle;
        }
    }
    natural.into_iter().map(|w| w.min(low)).collect()
}
