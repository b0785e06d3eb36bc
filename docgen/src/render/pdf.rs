//! A PDF as a word processor exports it, written by hand: A4 pages in Helvetica (the standard
//! fonts, WinAnsi with the ligatures fi, fl, ff, ffi and ffl at codes 128–132), the running
//! header at the top of every page and "Page N" at the foot, running text wrapped and
//! hyphenated, note markers raised, prose in two balanced columns for a third of the seeds
//! (a table breaks the columns and is set at full width), tables placed by their widest
//! content, ruled for even seeds and only aligned for odd ones, their header rows repeated on
//! every page a long table runs onto.

use crate::model::{with_ligatures, Block, Document, RowKind, Table, Value, Word};

pub(super) mod converted;

const PAGE_WIDTH: f32 = 595.0;
const PAGE_HEIGHT: f32 = 842.0;
const MARGIN: f32 = 56.0;
const TEXT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN;
/// The lowest a line of content may reach (the page number sits below it).
const BOTTOM: f32 = MARGIN;
const COLUMN_GAP: f32 = 18.0;
const CELL_GAP: f32 = 12.0;
const BODY_SIZE: f32 = 10.0;

/// Helvetica's widths (thousandths of an em) of printable ASCII, space to tilde.
const REGULAR: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
/// Helvetica-Bold's widths of printable ASCII.
const BOLD: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
    611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
    278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/// The two fonts: Helvetica (`/F1`) and Helvetica-Bold (`/F2`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Font {
    Regular,
    Bold,
}

impl Font {
    fn name(self) -> &'static str {
        match self {
            Font::Regular => "F1",
            Font::Bold => "F2",
        }
    }
}

/// The code a character is drawn with: WinAnsi, the ligatures at 128–132, `?` for the rest.
fn code(c: char) -> u8 {
    match c {
        ' '..='~' => c as u8,
        '\u{FB01}' => 128,
        '\u{FB02}' => 129,
        '\u{FB00}' => 130,
        '\u{FB03}' => 131,
        '\u{FB04}' => 132,
        '\u{2026}' => 0x85,
        '\u{2022}' => 0x95,
        '\u{2013}' => 0x96,
        '\u{2014}' => 0x97,
        '\u{2018}' => 0x91,
        '\u{2019}' => 0x92,
        '\u{201C}' => 0x93,
        '\u{201D}' => 0x94,
        '\u{2039}' => 0x8B,
        '\u{203A}' => 0x9B,
        '\u{2122}' => 0x99,
        '\u{A0}'..='\u{FF}' => c as u32 as u8,
        _ => b'?',
    }
}

/// A character's width in thousandths of an em.
fn char_width(c: char, font: Font) -> f32 {
    let bold = font == Font::Bold;
    let width = match code(c) {
        b @ 32..=126 => {
            let table = if bold { &BOLD } else { &REGULAR };
            table[usize::from(b - 32)]
        }
        128 | 129 => [500, 611][usize::from(bold)],
        130 => [556, 666][usize::from(bold)],
        131 | 132 => [778, 944][usize::from(bold)],
        0x91 | 0x92 => [222, 278][usize::from(bold)],
        0x93 | 0x94 => [333, 500][usize::from(bold)],
        0x8B | 0x9B | 0xB2 | 0xB3 | 0xB9 | 0xAD => 333,
        0x95 => 350,
        0x97 | 0x85 | 0x99 => 1000,
        0xB7 => 278,
        _ => 556,
    };
    f32::from(width)
}

/// The width of `text` set in `font` at `size` points.
fn width_of(text: &str, font: Font, size: f32) -> f32 {
    text.chars().map(|c| char_width(c, font)).sum::<f32>() * size / 1000.0
}

/// `text` as a PDF string literal in the fonts' encoding (codes past ASCII written in octal).
fn literal(text: &str) -> String {
    let mut out = String::from("(");
    for c in text.chars() {
        match code(c) {
            b @ (b'(' | b')' | b'\\') => {
                out.push('\\');
                out.push(char::from(b));
            }
            b @ 32..=126 => out.push(char::from(b)),
            b => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push(')');
    out
}

/// Text drawn on a line: its offset from the frame's left, its font and size, and its runs
/// (text, raised as a superscript).
#[derive(Debug, Clone)]
struct Piece {
    dx: f32,
    /// How far below the line's baseline (a wrapped line of a cell).
    dy: f32,
    font: Font,
    size: f32,
    runs: Vec<(String, bool)>,
}

impl Piece {
    fn plain(dx: f32, font: Font, size: f32, text: &str) -> Piece {
        Piece {
            dx,
            dy: 0.0,
            font,
            size,
            runs: vec![(text.to_string(), false)],
        }
    }

    /// The operators that draw it with its baseline at `(x, y)`.
    fn draw(&self, x: f32, y: f32) -> String {
        let (font, size) = (self.font.name(), self.size);
        let (x, y) = (x + self.dx, y - self.dy);
        let mut ops = format!("BT /{font} {size} Tf {x:.2} {y:.2} Td");
        for (text, raised) in &self.runs {
            if *raised {
                let small = (size * 0.6).round();
                ops.push_str(&format!(
                    " /{font} {small} Tf 4 Ts {} Tj 0 Ts /{font} {size} Tf",
                    literal(text)
                ));
            } else {
                ops.push_str(&format!(" {} Tj", literal(text)));
            }
        }
        ops.push_str(" ET\n");
        ops
    }
}

/// A line of prose: the space above it, its height, its pieces, and whether it stays with
/// the line after it (a heading, a list's lead).
#[derive(Debug, Clone)]
struct Line {
    before: f32,
    height: f32,
    pieces: Vec<Piece>,
    keep: bool,
}

impl Line {
    fn of(before: f32, size: f32, pieces: Vec<Piece>) -> Line {
        Line {
            before,
            height: size * 1.25,
            pieces,
            keep: false,
        }
    }

    /// Its operators with its top at `(x, top)`.
    fn draw(&self, x: f32, top: f32) -> String {
        let size = self.pieces.first().map_or(BODY_SIZE, |p| p.size);
        let baseline = top - size;
        self.pieces.iter().map(|p| p.draw(x, baseline)).collect()
    }
}

/// `text` broken into lines no wider than `width`.
fn wrap(text: &str, font: Font, size: f32, width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width_of(&candidate, font, size) > width && !line.is_empty() {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A paragraph's words set in lines of `width`: written with ligatures, a word that does not
/// fit hyphenated where it may be, a note marker raised after its word.
fn paragraph_lines(words: &[Word], width: f32) -> Vec<Line> {
    let size = BODY_SIZE;
    let space = width_of(" ", Font::Regular, size);
    let mut lines: Vec<Vec<(String, bool)>> = Vec::new();
    let mut runs: Vec<(String, bool)> = Vec::new();
    let mut used = 0.0;
    let add = |runs: &mut Vec<(String, bool)>, used: &mut f32, text: &str, note: Option<u8>| {
        let gap = if runs.is_empty() { "" } else { " " };
        match runs.last_mut() {
            Some((last, false)) => last.push_str(&format!("{gap}{text}")),
            _ => runs.push((format!("{gap}{text}"), false)),
        }
        *used += width_of(&format!("{gap}{text}"), Font::Regular, size);
        if let Some(n) = note {
            runs.push((n.to_string(), true));
            *used += width_of(&n.to_string(), Font::Regular, size * 0.6);
        }
    };
    for word in words {
        let text = word.written(true);
        let marker = word
            .note
            .map_or(0.0, |n| width_of(&n.to_string(), Font::Regular, size * 0.6));
        let gap = if runs.is_empty() { 0.0 } else { space };
        if used + gap + width_of(&text, Font::Regular, size) + marker <= width || runs.is_empty() {
            add(&mut runs, &mut used, &text, word.note);
            continue;
        }
        let split = word
            .hyphen_at
            .filter(|&k| k > 0 && k < word.text.len() && word.text.is_char_boundary(k));
        if let Some(k) = split {
            let head = format!("{}-", with_ligatures(&word.text[..k]));
            if used + gap + width_of(&head, Font::Regular, size) <= width {
                add(&mut runs, &mut used, &head, None);
                lines.push(std::mem::take(&mut runs));
                used = 0.0;
                add(
                    &mut runs,
                    &mut used,
                    &with_ligatures(&word.text[k..]),
                    word.note,
                );
                continue;
            }
        }
        lines.push(std::mem::take(&mut runs));
        used = 0.0;
        add(&mut runs, &mut used, &text, word.note);
    }
    if !runs.is_empty() {
        lines.push(runs);
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(n, runs)| {
            let piece = Piece {
                dx: 0.0,
                dy: 0.0,
                font: Font::Regular,
                size,
                runs,
            };
            Line::of(if n == 0 { 6.0 } else { 0.0 }, size, vec![piece])
        })
        .collect()
}

/// A block of prose set in lines of `width`.
fn block_lines(block: &Block, width: f32) -> Vec<Line> {
    let plain = |before: f32, dx: f32, font: Font, size: f32, text: &str| -> Vec<Line> {
        wrap(text, font, size, width - dx)
            .iter()
            .enumerate()
            .map(|(n, l)| {
                let first = if n == 0 { before } else { 0.0 };
                Line::of(first, size, vec![Piece::plain(dx, font, size, l)])
            })
            .collect()
    };
    match block {
        Block::Heading { level, text } => {
            let size = if *level <= 1 { 14.0 } else { 12.0 };
            let mut lines = plain(12.0, 0.0, Font::Bold, size, text);
            lines.iter_mut().for_each(|l| l.keep = true);
            lines
        }
        Block::Paragraph { words } => paragraph_lines(words, width),
        Block::List { lead, items } => {
            let mut lines = Vec::new();
            if let Some(lead) = lead {
                lines.extend(plain(6.0, 0.0, Font::Regular, BODY_SIZE, lead));
                lines.iter_mut().for_each(|l| l.keep = true);
            }
            for (n, item) in items.iter().enumerate() {
                let before = if n == 0 && lead.is_none() { 6.0 } else { 2.0 };
                let mut item_lines = plain(before, 24.0, Font::Regular, BODY_SIZE, item);
                if let Some(first) = item_lines.first_mut() {
                    let bullet = Piece::plain(12.0, Font::Regular, BODY_SIZE, "\u{2022}");
                    first.pieces.insert(0, bullet);
                }
                lines.extend(item_lines);
            }
            lines
        }
        Block::KeyValues { pairs } => pairs
            .iter()
            .enumerate()
            .flat_map(|(n, (label, value))| {
                let before = if n == 0 { 6.0 } else { 0.0 };
                plain(
                    before,
                    0.0,
                    Font::Regular,
                    BODY_SIZE,
                    &format!("{label}: {value}"),
                )
            })
            .collect(),
        Block::Table(_) => Vec::new(),
    }
}

/// The pages being written and where the next content goes.
struct Writer<'a> {
    document: &'a Document,
    pages: Vec<String>,
    /// The top of the space left on the current page.
    y: f32,
    /// Whether prose is set in two columns.
    columns: bool,
    /// Prose not yet placed in the columns.
    pending: Vec<Line>,
}

impl Writer<'_> {
    fn new_page(&mut self) {
        let number = self.pages.len() + 1;
        let furniture = &self.document.boilerplate.running_header;
        let mut ops = Piece::plain(0.0, Font::Regular, 8.0, furniture).draw(MARGIN, 806.0);
        let foot = format!("Page {number}");
        let x = (PAGE_WIDTH - width_of(&foot, Font::Regular, 9.0)) / 2.0;
        ops.push_str(&Piece::plain(0.0, Font::Regular, 9.0, &foot).draw(x, 30.0));
        self.pages.push(ops);
        self.y = PAGE_HEIGHT - MARGIN;
    }

    fn emit(&mut self, ops: &str) {
        if let Some(page) = self.pages.last_mut() {
            page.push_str(ops);
        }
    }

    /// Whether `height` more fits on the page below `y`.
    fn fits(y: f32, height: f32) -> bool {
        y - height >= BOTTOM
    }

    /// The lines in one column of full width, a page at a time.
    fn place(&mut self, lines: &[Line]) {
        for (n, line) in lines.iter().enumerate() {
            let at_top = self.y >= PAGE_HEIGHT - MARGIN;
            let before = if at_top { 0.0 } else { line.before };
            let next = lines.get(n + 1).filter(|_| line.keep);
            let need = before + line.height + next.map_or(0.0, |l| l.before + l.height);
            if !Self::fits(self.y, need) && !at_top {
                self.new_page();
                self.y -= line.height;
                let ops = line.draw(MARGIN, self.y + line.height);
                self.emit(&ops);
                continue;
            }
            self.y -= before;
            let ops = line.draw(MARGIN, self.y);
            self.emit(&ops);
            self.y -= line.height;
        }
    }

    /// Prose for the columns, placed when a table or the end comes.
    fn prose(&mut self, lines: Vec<Line>) {
        if self.columns {
            self.pending.extend(lines);
        } else {
            self.place(&lines);
        }
    }

    /// The pending prose in two columns, balanced as a section break balances them: the left
    /// column filled first, both ending near the same height, page after page.
    fn flush(&mut self) {
        let mut lines = std::mem::take(&mut self.pending);
        let column = (TEXT_WIDTH - COLUMN_GAP) / 2.0;
        while !lines.is_empty() {
            let room = self.y - BOTTOM;
            // Heights of the lines laid one under the other, with no space at a column's top.
            let heights = |slice: &[Line]| -> f32 {
                slice
                    .iter()
                    .enumerate()
                    .map(|(n, l)| l.height + if n == 0 { 0.0 } else { l.before })
                    .sum()
            };
            let total = heights(&lines);
            // The first split (after a line not kept with its next) that leaves the left
            // column at least half and both within the room.
            let balanced = (1..=lines.len()).find(|&k| {
                !lines[k - 1].keep
                    && heights(&lines[..k]) * 2.0 >= total - 0.1
                    && heights(&lines[..k]) <= room
                    && heights(&lines[k..]) <= room
            });
            let fill = |from: usize| {
                (from + 1..=lines.len())
                    .take_while(|&k| heights(&lines[from..k]) <= room)
                    .last()
                    .unwrap_or(from + 1)
            };
            let (split, end) = match balanced {
                Some(k) => (k, lines.len()),
                None => {
                    let split = fill(0);
                    (
                        split,
                        if split < lines.len() {
                            fill(split)
                        } else {
                            split
                        },
                    )
                }
            };
            let top = self.y;
            let mut lowest = top;
            for (range, x) in [
                (0..split, MARGIN),
                (split..end, MARGIN + column + COLUMN_GAP),
            ] {
                let mut y = top;
                for (n, line) in lines[range].iter().enumerate() {
                    y -= if n == 0 { 0.0 } else { line.before };
                    let ops = line.draw(x, y);
                    self.emit(&ops);
                    y -= line.height;
                }
                lowest = lowest.min(y);
            }
            lines.drain(..end);
            self.y = lowest;
            if !lines.is_empty() {
                self.new_page();
            }
        }
    }

    /// A table at full width below the prose, its header rows drawn again on every page it
    /// runs onto.
    fn table(&mut self, table: &Table) {
        let layout = TableLayout::of(table, self.document.seed.is_multiple_of(2));
        let head = layout.head.iter().map(|r| r.height).sum::<f32>();
        self.y -= 8.0;
        let first = layout.body.first().map_or(0.0, |r| r.height);
        if !Self::fits(self.y, head + first) {
            self.new_page();
        }
        let mut top = self.y;
        let mut ops = String::new();
        for row in &layout.head {
            ops.push_str(&row.draw(&layout, self.y));
            self.y -= row.height;
        }
        for row in &layout.body {
            if !Self::fits(self.y, row.height) {
                ops.push_str(&layout.frame(top, self.y));
                self.emit(&std::mem::take(&mut ops));
                self.new_page();
                top = self.y;
                for row in &layout.head {
                    ops.push_str(&row.draw(&layout, self.y));
                    self.y -= row.height;
                }
            }
            ops.push_str(&row.draw(&layout, self.y));
            self.y -= row.height;
        }
        ops.push_str(&layout.frame(top, self.y));
        self.emit(&ops);
        self.y -= 6.0;
    }
}

/// A line of a table: its height, what it draws (text offsets from the table's left), and
/// the columns a rule runs under (none where a cell carries on below).
struct TableLine {
    height: f32,
    pieces: Vec<Piece>,
    ruled_under: Vec<bool>,
}

impl TableLine {
    fn draw(&self, layout: &TableLayout, top: f32) -> String {
        let mut ops = String::new();
        for piece in &self.pieces {
            ops.push_str(&piece.draw(MARGIN, top - piece.size * 1.25));
        }
        if layout.ruled {
            let y = top - self.height;
            for (c, ruled) in self.ruled_under.iter().enumerate() {
                if *ruled {
                    let (x0, x1) = layout.span(c, c + 1);
                    ops.push_str(&format!("0.5 w {x0:.2} {y:.2} m {x1:.2} {y:.2} l S\n"));
                }
            }
        }
        ops
    }
}

/// Where a table's columns go and its lines, header and body.
struct TableLayout {
    ruled: bool,
    /// Each column's left edge and width, from the table's left.
    columns: Vec<(f32, f32)>,
    head: Vec<TableLine>,
    body: Vec<TableLine>,
}

impl TableLayout {
    fn of(table: &Table, ruled: bool) -> TableLayout {
        let width = table.width();
        let grid = header_places(table);
        let measure = |size: f32| -> Vec<f32> {
            let mut widths = vec![0.0_f32; width];
            for row in &table.rows {
                if row.kind == RowKind::Note {
                    continue;
                }
                let font = if row.kind == RowKind::Total {
                    Font::Bold
                } else {
                    Font::Regular
                };
                for (c, cell) in row.cells.iter().enumerate().take(width) {
                    widths[c] = widths[c].max(width_of(&cell.value.shown(), font, size));
                }
            }
            for &(_, c, span, _, text) in &grid {
                let w = width_of(text, Font::Bold, size);
                let have = widths[c..c + span].iter().sum::<f32>() + CELL_GAP * (span - 1) as f32;
                if w > have {
                    widths[c + span - 1] += w - have;
                }
            }
            widths
        };
        let total = |w: &[f32]| w.iter().sum::<f32>() + CELL_GAP * w.len() as f32;
        let mut size = BODY_SIZE;
        let mut widths = measure(size);
        if total(&widths) > TEXT_WIDTH {
            size = 8.0;
            widths = measure(size);
        }
        // A table still too wide is shrunk to the page's width as a whole, type and gaps
        // alike, as an office suite's "fit to width" does: scaling only its columns' places
        // drew cells over each other, which no reader, person or program, can take apart.
        let scale = (TEXT_WIDTH / total(&widths)).min(1.0);
        size *= scale;
        let mut columns = Vec::new();
        let mut x = 0.0;
        for w in &widths {
            columns.push((x + CELL_GAP / 2.0 * scale, w * scale));
            x += (w + CELL_GAP) * scale;
        }
        let mut layout = TableLayout {
            ruled,
            columns,
            head: Vec::new(),
            body: Vec::new(),
        };
        let height = size * 1.6;
        let whole = layout.span(0, width);
        let all = vec![true; width];
        if let Some(title) = &table.title_row {
            let dx = (whole.1 - whole.0 - width_of(title, Font::Bold, size)) / 2.0;
            let piece = Piece::plain(dx.max(0.0), Font::Bold, size, title);
            layout.head.push(TableLine {
                height,
                pieces: vec![piece],
                ruled_under: all.clone(),
            });
        }
        for r in 0..table.header.len() {
            let mut pieces = Vec::new();
            let mut ruled_under = vec![true; width];
            for &(row, c, span, rows, text) in &grid {
                if row + rows > r + 1 && row <= r {
                    ruled_under[c..c + span].iter_mut().for_each(|u| *u = false);
                }
                if row != r {
                    continue;
                }
                let (x0, x1) = layout.span(c, c + span);
                let (left, _) = layout.columns[c];
                let dx = if span > 1 {
                    (x1 - x0 - width_of(text, Font::Bold, size)) / 2.0
                } else {
                    left - x0 + MARGIN
                };
                pieces.push(Piece::plain(
                    x0 - MARGIN + dx.max(0.0),
                    Font::Bold,
                    size,
                    text,
                ));
            }
            layout.head.push(TableLine {
                height,
                pieces,
                ruled_under,
            });
        }
        layout.push_body(table, size, height);
        layout
    }

    /// The body's lines: each row's cells placed in their columns (numbers to the right), a
    /// note across the table, the rule under a cell left out above a cell merged into it.
    fn push_body(&mut self, table: &Table, size: f32, height: f32) {
        let width = table.width();
        let whole = self.span(0, width);
        let all = vec![true; width];
        for (r, row) in table.rows.iter().enumerate() {
            if row.kind == RowKind::Note {
                // Written across the table from its left, wrapped within it.
                let text = row
                    .cells
                    .first()
                    .map(|c| c.value.shown())
                    .unwrap_or_default();
                let lines = wrap(&text, Font::Regular, size, whole.1 - whole.0 - CELL_GAP);
                let pieces: Vec<Piece> = lines
                    .iter()
                    .enumerate()
                    .map(|(n, l)| Piece {
                        dy: n as f32 * size * 1.2,
                        ..Piece::plain(self.columns[0].0, Font::Regular, size, l)
                    })
                    .collect();
                let extra = pieces.len().saturating_sub(1) as f32 * size * 1.2;
                let ruled_under = all.clone();
                self.body.push(TableLine {
                    height: height + extra,
                    pieces,
                    ruled_under,
                });
                continue;
            }
            let font = if row.kind == RowKind::Total {
                Font::Bold
            } else {
                Font::Regular
            };
            let mut pieces = Vec::new();
            for (c, cell) in row.cells.iter().enumerate().take(width) {
                let text = cell.value.shown();
                if text.is_empty() {
                    continue;
                }
                let (left, w) = self.columns[c];
                let dx = if cell.value.number().is_some() {
                    left + w - width_of(&text, font, size)
                } else {
                    left
                };
                pieces.push(Piece::plain(dx, font, size, &text));
            }
            let below = table.rows.get(r + 1);
            let ruled_under = (0..width)
                .map(|c| {
                    below.and_then(|b| b.cells.get(c)).map(|c| &c.value) != Some(&Value::Covered)
                        || below.is_some_and(|b| b.kind == RowKind::Note)
                })
                .collect();
            self.body.push(TableLine {
                height,
                pieces,
                ruled_under,
            });
        }
    }

    /// The left and right edges (on the page) of columns `from..to`, half a gap either side.
    fn span(&self, from: usize, to: usize) -> (f32, f32) {
        let half = self.columns.first().map_or(0.0, |&(x, _)| x);
        let left = self.columns.get(from).map_or(0.0, |&(x, _)| x - half);
        let right = self
            .columns
            .get(to.saturating_sub(1))
            .map_or(0.0, |&(x, w)| x + w + half);
        (MARGIN + left, MARGIN + right)
    }

    /// The box around the part of the table between `top` and `bottom` on a page.
    fn frame(&self, top: f32, bottom: f32) -> String {
        if !self.ruled {
            return String::new();
        }
        let (x0, x1) = self.span(0, self.columns.len());
        format!(
            "0.5 w {x0:.2} {bottom:.2} {:.2} {:.2} re S\n",
            x1 - x0,
            top - bottom
        )
    }
}

/// Each header cell's place: its row, first column, columns and rows spanned, and text.
fn header_places(table: &Table) -> Vec<(usize, usize, usize, usize, &str)> {
    let width = table.width();
    let mut taken = vec![vec![false; width]; table.header.len()];
    let mut places = Vec::new();
    for (r, row) in table.header.iter().enumerate() {
        let mut c = 0;
        for cell in row {
            while c < width && taken[r][c] {
                c += 1;
            }
            let span = cell.colspan.clamp(1, width.saturating_sub(c).max(1));
            if c + span > width {
                break;
            }
            for taken_row in taken.iter_mut().skip(r).take(cell.rowspan.max(1)) {
                taken_row[c..c + span].iter_mut().for_each(|t| *t = true);
            }
            places.push((r, c, span, cell.rowspan.max(1), cell.text.as_str()));
            c += span;
        }
    }
    places
}

/// The document as a PDF.
pub(super) fn render(document: &Document) -> Vec<u8> {
    let columns = document.seed.is_multiple_of(3);
    let mut writer = Writer {
        document,
        pages: Vec::new(),
        y: PAGE_HEIGHT - MARGIN,
        columns,
        pending: Vec::new(),
    };
    writer.new_page();
    let title = wrap(&document.title, Font::Bold, 18.0, TEXT_WIDTH);
    let title: Vec<Line> = title
        .iter()
        .map(|t| Line::of(0.0, 18.0, vec![Piece::plain(0.0, Font::Bold, 18.0, t)]))
        .collect();
    writer.place(&title);
    writer.y -= 6.0;
    let width = if columns {
        (TEXT_WIDTH - COLUMN_GAP) / 2.0
    } else {
        TEXT_WIDTH
    };
    for block in &document.blocks {
        match block {
            Block::Table(table) if table.width() > 0 => {
                writer.flush();
                writer.table(table);
            }
            other => writer.prose(block_lines(other, width)),
        }
    }
    writer.flush();
    assemble(&writer.pages, &document.title)
}

/// `text` as a PDF text string: a literal when it is ASCII, UTF-16 with its mark otherwise.
fn text_string(text: &str) -> String {
    if text.is_ascii() {
        return literal(text);
    }
    let units: String = text.encode_utf16().map(|u| format!("{u:04X}")).collect();
    format!("<FEFF{units}>")
}

/// The file: catalog, page tree, fonts, information, each page's contents and the page, the
/// cross-reference table and the trailer.
fn assemble(pages: &[String], title: &str) -> Vec<u8> {
    let font = |base: &str| {
        format!(
            "<< /Type /Font /Subtype /Type1 /BaseFont /{base} /Encoding << /Type /Encoding \
             /BaseEncoding /WinAnsiEncoding /Differences [128 /fi /fl /ff /ffi /ffl] >> >>"
        )
    };
    let kids: Vec<String> = (0..pages.len())
        .map(|n| format!("{} 0 R", 7 + 2 * n))
        .collect();
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            pages.len()
        ),
        font("Helvetica"),
        font("Helvetica-Bold"),
        format!(
            "<< /Title {} /Creator (Microsoft Word) /Producer (Microsoft: Print To PDF) \
             /CreationDate (D:20260303091400Z) >>",
            text_string(title)
        ),
    ];
    for content in pages {
        objects.push(format!(
            "<< /Length {} >>\nstream\n{content}endstream",
            content.len()
        ));
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] \
             /Contents {} 0 R /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> >>",
            objects.len()
        ));
    }
    crate::pdf_file::office_pdf_of(&objects, 5)
}
