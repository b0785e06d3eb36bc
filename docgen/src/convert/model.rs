//! A converted document as its source has it, which the generator's [`crate::model`] cannot
//! say: runs of bold and italic, ordered and nested lists, tables with header cells, spans and
//! captions, definition lists and code; a CSV table as a workbook's sheets; an e-mail thread as
//! a message. The renderers write these as they write the generator's documents.

/// Text in one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The text.
    pub text: String,
    /// Whether it is bold.
    pub bold: bool,
    /// Whether it is italic.
    pub italic: bool,
}

impl Run {
    /// Plain text.
    pub fn plain(text: &str) -> Run {
        Run {
            text: text.to_string(),
            bold: false,
            italic: false,
        }
    }
}

/// The runs' text joined.
pub fn runs_text(runs: &[Run]) -> String {
    runs.iter().map(|r| r.text.as_str()).collect()
}

/// Runs as a reader sees them: runs of one style merged, spaces collapsed, the ends trimmed,
/// empty runs dropped.
pub fn clean_runs(runs: Vec<Run>) -> Vec<Run> {
    let mut merged: Vec<Run> = Vec::new();
    for run in runs.into_iter().filter(|r| !r.text.is_empty()) {
        match merged.last_mut() {
            Some(last) if last.bold == run.bold && last.italic == run.italic => {
                last.text.push_str(&run.text);
            }
            _ => merged.push(run),
        }
    }
    let mut out: Vec<Run> = Vec::new();
    // True at the start, so that leading spaces go.
    let mut after_space = true;
    for mut run in merged {
        let mut text = collapse_spaces(&run.text);
        if after_space {
            text = text.trim_start_matches(' ').to_string();
        }
        if !text.is_empty() {
            after_space = text.ends_with(' ');
            run.text = text;
            out.push(run);
        }
    }
    while let Some(last) = out.last_mut() {
        let trimmed = last.text.trim_end_matches(' ').to_string();
        if trimmed.is_empty() {
            out.pop();
        } else {
            last.text = trimmed;
            break;
        }
    }
    out
}

/// Runs of spaces, tabs and line breaks as one space.
fn collapse_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_space = false;
    for c in text.chars() {
        if matches!(c, ' ' | '\t' | '\r' | '\n') {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}

/// A block of a converted document.
#[derive(Debug, Clone, PartialEq)]
pub enum FlowBlock {
    /// A heading of level 1 to 6.
    Heading {
        /// Its level.
        level: u8,
        /// Its text.
        runs: Vec<Run>,
    },
    /// A paragraph.
    Paragraph(Vec<Run>),
    /// A list; an item's level is its depth of nesting (0 the outermost).
    List {
        /// Numbered rather than bulleted.
        ordered: bool,
        /// The items: level and text.
        items: Vec<(usize, Vec<Run>)>,
    },
    /// A table.
    Table(FlowTable),
    /// Terms and their definitions.
    Definitions(Vec<(Vec<Run>, Vec<Run>)>),
    /// Preformatted lines.
    Code(String),
}

/// A table as its source has it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FlowTable {
    /// The rows, each its cells from the left.
    pub rows: Vec<Vec<FlowCell>>,
    /// Whether the first row is a header row (all its cells header cells).
    pub header: bool,
    /// The caption.
    pub caption: Option<Vec<Run>>,
}

impl FlowTable {
    /// The number of columns: the widest row's, spans counted.
    pub fn width(&self) -> usize {
        self.rows
            .iter()
            .map(|r| r.iter().map(|c| c.colspan).sum::<usize>())
            .max()
            .unwrap_or(0)
    }
}

/// A table cell.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowCell {
    /// Its text.
    pub runs: Vec<Run>,
    /// A header cell (`th`).
    pub th: bool,
    /// Columns spanned (≥ 1).
    pub colspan: usize,
}

/// A converted document of running text.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowDocument {
    /// The file's stem ("36-elderholm-town").
    pub stem: String,
    /// The metadata title: an HTML page's `<title>`, else the first heading.
    pub title: String,
    /// Its blocks, in reading order.
    pub blocks: Vec<FlowBlock>,
}

impl FlowDocument {
    /// The visible title: the first level-1 heading, else the metadata title.
    pub fn heading(&self) -> String {
        self.blocks
            .iter()
            .find_map(|b| match b {
                FlowBlock::Heading { level: 1, runs } => Some(runs_text(runs)),
                _ => None,
            })
            .unwrap_or_else(|| self.title.clone())
    }
}

/// A spreadsheet cell read from CSV.
#[derive(Debug, Clone, PartialEq)]
pub enum SheetCell {
    /// Nothing.
    Empty,
    /// Text.
    Text(String),
    /// A number as the CSV writes it ("1.80"), stored as a number shown with its decimals.
    Number {
        /// The CSV's text.
        shown: String,
        /// Its decimals.
        decimals: usize,
    },
}

impl SheetCell {
    /// A number's value as a spreadsheet stores it ("1.8", "212"); `None` for text.
    pub fn stored(&self) -> Option<String> {
        match self {
            SheetCell::Number { shown, .. } => shown.parse::<f64>().ok().map(|x| {
                if x.fract() == 0.0 {
                    format!("{}", x as i64)
                } else {
                    format!("{x}")
                }
            }),
            _ => None,
        }
    }
}

/// A sheet of a workbook.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// Its name on its tab.
    pub name: String,
    /// Its rows from the top.
    pub rows: Vec<Vec<SheetCell>>,
    /// Whether the first row is a header (set in bold).
    pub header: bool,
    /// One column of formulas, its cached values the cells' numbers.
    pub formula: Option<Formula>,
}

/// A column of formulas: its index and each data row's expression (below the header).
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    /// The column (0 = A).
    pub column: usize,
    /// Each data row's expression, without `=`.
    pub expressions: Vec<String>,
}

/// A workbook: its title property and sheets.
#[derive(Debug, Clone, PartialEq)]
pub struct Workbook {
    /// The title property.
    pub title: String,
    /// The sheets, the first the selected one.
    pub sheets: Vec<Sheet>,
}

/// An e-mail thread as a message: the first message's header lines as headers, the rest of
/// the thread as its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Mail {
    /// The file's stem, which names the MIME boundaries.
    pub stem: String,
    /// `From:` as written, or an empty group for a bare name.
    pub from: String,
    /// `To:` likewise.
    pub to: String,
    /// The date in RFC 5322 form.
    pub date: String,
    /// The subject.
    pub subject: String,
    /// The Message-ID, with its angle brackets.
    pub message_id: String,
    /// The rest of the thread, exactly as in the source.
    pub body: String,
    /// An attached text file: its name and text.
    pub attachment: Option<(String, String)>,
}
