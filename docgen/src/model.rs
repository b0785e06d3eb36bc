//! The logical content of a generated document and its truth: what a person sees, independent
//! of the format it is written in. Every renderer writes this model; the evaluation reads the
//! rendered file back and scores what Tally read against it.

use chrono::NaiveDate;
use serde::Serialize;

/// The separator of a header path's parts ("Spending (£) › 2025–26"), as the readers join a
/// column's headers over several rows.
pub const HEADER_PATH_SEPARATOR: &str = " › ";

/// One generated document.
#[derive(Debug, Clone, Serialize)]
pub struct Document {
    /// The file's stem ("t07-clubs").
    pub name: String,
    /// The seed it was drawn from (the part it belongs to is chosen by seed).
    pub seed: u64,
    /// The document's title.
    pub title: String,
    /// Its blocks, in reading order.
    pub blocks: Vec<Block>,
    /// What surrounds the content and is not content: a page's menu, banner and footer, a
    /// PDF's running header. Renderers that have such places write it there.
    pub boilerplate: Boilerplate,
}

/// Text around the content that a reader must leave out.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Boilerplate {
    /// A site's menu items ("Home", "Jobs (5 vacancies)").
    pub menu: Vec<String>,
    /// A banner above the content ("Join 3,000+ members today").
    pub banner: String,
    /// The footer's lines ("© 2026 Millbeck Anglers", "Registered charity 1045213").
    pub footer: Vec<String>,
    /// A line printed at the top of every page of a paged document ("Spring 2026 · Issue 41").
    pub running_header: String,
}

/// A block of content.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Block {
    /// A heading (1 = largest below the title).
    Heading {
        /// Its level.
        level: u8,
        /// Its text.
        text: String,
    },
    /// Running text. Its words are [`Word`]s so that renderers can hyphenate, use ligatures
    /// or put a note marker after a word.
    Paragraph {
        /// The sentence's words.
        words: Vec<Word>,
    },
    /// A list, with the line that leads it when there is one.
    List {
        /// The lead line ("Present:").
        lead: Option<String>,
        /// The items.
        items: Vec<String>,
    },
    /// `Label: value` lines (an infobox, a spec sheet).
    KeyValues {
        /// The pairs.
        pairs: Vec<(String, String)>,
    },
    /// A table.
    Table(Table),
}

/// A word of running text and how it may be written.
#[derive(Debug, Clone, Serialize)]
pub struct Word {
    /// The word as a person reads it ("members", "five", "£38,500").
    pub text: String,
    /// Where a renderer that wraps lines may hyphenate it: the byte offset of the break
    /// ("mem|bers" is 3). Only long words of letters carry one.
    pub hyphen_at: Option<usize>,
    /// A note marker written after the word (superscript where the format has it: "seats³").
    pub note: Option<u8>,
}

impl Word {
    /// The word written plainly, with its ligatures when `ligatures` (ﬁ, ﬂ, ﬀ).
    pub fn written(&self, ligatures: bool) -> String {
        if ligatures {
            with_ligatures(&self.text)
        } else {
            self.text.clone()
        }
    }

    /// Whether the evaluation watches this word: it is hyphenated, has a ligature or a marker.
    pub fn watched(&self) -> bool {
        self.hyphen_at.is_some() || self.note.is_some() || with_ligatures(&self.text) != self.text
    }
}

/// `text` with the Latin ligatures a typesetter would use.
pub fn with_ligatures(text: &str) -> String {
    text.replace("ffi", "\u{FB03}")
        .replace("ffl", "\u{FB04}")
        .replace("ff", "\u{FB00}")
        .replace("fi", "\u{FB01}")
        .replace("fl", "\u{FB02}")
}

/// A paragraph's words joined with spaces (markers left out: they are notes, not words).
pub fn plain_words(words: &[Word]) -> String {
    words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A table as a person sees it.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// A title written in a row of its own above the header, spanning the table ("Weekly
    /// bursts, 2025"); renderers without merged cells write it as that row's first cell.
    pub title_row: Option<String>,
    /// The header rows (one or two), each a list of cells with their spans.
    pub header: Vec<Vec<HeaderCell>>,
    /// The body rows.
    pub rows: Vec<Row>,
    /// What this table exercises, for the report's per-feature figures ("two-row header").
    pub features: Vec<&'static str>,
}

/// A header cell and the columns and rows it spans.
#[derive(Debug, Clone, Serialize)]
pub struct HeaderCell {
    /// Its text.
    pub text: String,
    /// Columns spanned (≥ 1).
    pub colspan: usize,
    /// Header rows spanned (≥ 1).
    pub rowspan: usize,
}

/// What a body row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowKind {
    /// A row of data.
    Data,
    /// A total or subtotal of the rows above: a check, never data.
    Total,
    /// A note written across the table ("Fees are per term"): its one cell spans every column.
    Note,
}

/// A body row.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// What it is.
    pub kind: RowKind,
    /// Its cells, one per column; a note row has one cell (spanning the table).
    pub cells: Vec<Cell>,
}

/// A body cell.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// Its value.
    pub value: Value,
    /// Rows this cell spans downwards (≥ 1); the cells it covers below hold [`Value::Covered`].
    pub rowspan: usize,
}

/// A cell's value with the format a person sees it in.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Value {
    /// Words.
    Text {
        /// The words.
        text: String,
    },
    /// A whole number ("1,204" when `grouped`).
    Integer {
        /// The number.
        n: i64,
    },
    /// A decimal with `places` decimals ("3.5").
    Decimal {
        /// The number.
        x: f64,
        /// Decimals shown.
        places: usize,
    },
    /// Money in pounds shown with its sign and two decimals ("£45.00").
    Money {
        /// The amount.
        amount: f64,
    },
    /// A share shown as a percent ("91%"); `fraction` is 0.91.
    Percent {
        /// The share as a fraction.
        fraction: f64,
    },
    /// A date ("14 Mar 2026").
    Date {
        /// The date.
        date: NaiveDate,
    },
    /// Covered by a cell above that spans down (its value is that cell's).
    Covered,
}

impl Value {
    /// The value as a person sees it written ("£45.00", "91%", "14 Mar 2026", "1,204").
    pub fn shown(&self) -> String {
        match self {
            Value::Text { text } => text.clone(),
            Value::Integer { n } => grouped(*n),
            Value::Decimal { x, places } => format!("{x:.places$}"),
            Value::Money { amount } => {
                let whole = amount.trunc() as i64;
                let pence = ((amount - amount.trunc()) * 100.0).round() as i64;
                format!("£{}.{pence:02}", grouped(whole))
            }
            Value::Percent { fraction } => format!("{}%", (fraction * 100.0).round() as i64),
            Value::Date { date } => date.format("%-d %b %Y").to_string(),
            Value::Covered => String::new(),
        }
    }

    /// The number a spreadsheet stores for it (a date's is its ISO date), `None` for text.
    pub fn number(&self) -> Option<f64> {
        match self {
            Value::Integer { n } => Some(*n as f64),
            Value::Decimal { x, .. } => Some(*x),
            Value::Money { amount } => Some(*amount),
            Value::Percent { fraction } => Some(*fraction),
            _ => None,
        }
    }
}

/// 1204 → "1,204".
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

impl Table {
    /// How many columns the table has.
    pub fn width(&self) -> usize {
        self.header
            .first()
            .map_or(0, |row| row.iter().map(|c| c.colspan).sum())
    }

    /// The header as a grid: each header row's text per column, a spanned cell's text in every
    /// column and row it spans.
    pub fn header_grid(&self) -> Vec<Vec<String>> {
        let width = self.width();
        let mut grid = vec![vec![None::<String>; width]; self.header.len()];
        for (r, row) in self.header.iter().enumerate() {
            let mut c = 0;
            for cell in row {
                while c < width && grid[r][c].is_some() {
                    c += 1;
                }
                for dr in 0..cell.rowspan {
                    for dc in 0..cell.colspan {
                        if let Some(slot) = grid.get_mut(r + dr).and_then(|g| g.get_mut(c + dc)) {
                            *slot = Some(cell.text.clone());
                        }
                    }
                }
                c += cell.colspan;
            }
        }
        grid.into_iter()
            .map(|row| row.into_iter().map(Option::unwrap_or_default).collect())
            .collect()
    }

    /// Each column's header path: its headers from the top, a header spanning rows named once
    /// ("Spending (£) › 2025–26", "Region").
    pub fn header_paths(&self) -> Vec<String> {
        let grid = self.header_grid();
        (0..self.width())
            .map(|c| {
                let mut parts: Vec<&str> = Vec::new();
                for row in &grid {
                    let text = row[c].as_str();
                    if !text.is_empty() && parts.last() != Some(&text) {
                        parts.push(text);
                    }
                }
                parts.join(HEADER_PATH_SEPARATOR)
            })
            .collect()
    }

    /// The body as a grid of values with spans written out (a covered cell holds the value of
    /// the cell that covers it); a note row is its one cell.
    pub fn body_grid(&self) -> Vec<Vec<Value>> {
        let mut grid: Vec<Vec<Value>> = Vec::new();
        for (r, row) in self.rows.iter().enumerate() {
            let mut values = Vec::new();
            for (c, cell) in row.cells.iter().enumerate() {
                let value = match &cell.value {
                    Value::Covered => (0..r)
                        .rev()
                        .map(|above| &self.rows[above])
                        .find_map(|above| {
                            above
                                .cells
                                .get(c)
                                .filter(|a| a.value != Value::Covered)
                                .map(|a| a.value.clone())
                        })
                        .unwrap_or(Value::Covered),
                    other => other.clone(),
                };
                values.push(value);
            }
            grid.push(values);
        }
        grid
    }
}
