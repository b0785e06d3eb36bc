//! A document as a person reads it (issues 58 and 71): its title, its headings and the section
//! each block sits in, and each block as a typed [`Record`]: a paragraph, a list, a `Label: value`
//! line or definition, a table row with its column headers, a speaker turn, a dated entry. A
//! document is parsed once into an [`Outline`] by the reader of its format (`lines.rs` for plain
//! text, `markdown.rs`, `html.rs` over the page's DOM, `csv_table.rs`), and the outline is turned
//! into the [`Passage`]s both indexes hold (`passages.rs`): each passage keeps its record, typed,
//! from ingestion to the answer (stored beside its text, never read back from it), its text is
//! written so that it reads on its own for retrieval and the reader ("Falcon — Gold: 8"), and its
//! context (the title and section path) travels with it as the passage's source.

mod cell_locale;
pub mod crops;
mod csv_dialect;
mod csv_table;
mod epub;
mod flow;
mod grid;
mod html;
mod led_lists;
mod line_forms;
mod line_runs;
mod lines;
mod mail;
mod markdown;
pub mod marks;
mod ocr_slips;
mod office;
mod passages;
mod pdf;
mod pdf_spans;
mod ruled;
mod scanned;
mod sheet_formats;
mod sheets;
mod slip_lines;
pub mod tasks;

pub use grid::HEADER_PATH_SEPARATOR;
pub use passages::{
    how_read, passages, passages_of, sentences_in_context, snippet_pieces, without_crop_lines,
    without_place, write_passages, HowRead, Passage, CONTEXT_MARK, CONTEXT_SEPARATOR, CROP_MARK,
    MAX_SNIPPET_CHARS, PLACE_SEPARATOR, RECORD_MARK,
};
pub use scanned::{READ_BY_OCR, UNSURE_NUMBERS};

use std::sync::Arc;

use super::budget::{bounded_context_part, ReadBudget, ReadRefused};
use super::format::Format;

/// A document's title and blocks, in reading order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outline {
    /// The document's title, when it has one.
    pub title: Option<String>,
    /// Its blocks, in reading order.
    pub blocks: Vec<Block>,
}

/// One block of a document, with the headings above it (outermost first) and where in the
/// file it is when the file has places a person turns to ("page 2", "sheet 'Fares', row 7",
/// "slide 3", "attachment 'quote.txt'").
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// What the block is.
    pub kind: Record,
    /// The headings above it, outermost first.
    pub sections: Vec<String>,
    /// Where in the file it is, when the file has such places ("page 2").
    pub place: Option<String>,
    /// The crop of the scanned page it was read from, as a grey PNG, when OCR read it
    /// ([`crops`]).
    pub crop: Option<Arc<[u8]>>,
}

/// What a block is, typed: the record a passage keeps from ingestion to the answer, so that a
/// cell is found by its row and column, a list's items are counted and a definition is read
/// under its term, in code.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Record {
    /// Running text.
    Paragraph(String),
    /// The items of one list, with the line that introduces it ("Present:", "Ingredients")
    /// when there is one.
    List {
        /// The line that introduces the list, when there is one.
        lead: Option<String>,
        /// The list's items.
        items: Vec<String>,
    },
    /// The different names a table's column holds ("Station" over the stations' names,
    /// "Finish" over the finishes of its rows), for a column whose every cell is a name.
    RowNames {
        /// The column's header.
        column: String,
        /// The names its cells hold.
        names: Vec<String>,
    },
    /// `Label: value` ("Battery: 3200 mAh"), an infobox row or a definition.
    KeyValue {
        /// The label, or the term defined.
        label: String,
        /// The value, or the definition.
        value: String,
    },
    /// A table row with its table's column headers (empty when the table has none), shared by
    /// the table's rows (one copy per table: a wide header copied into each row once took 57 MB
    /// a row).
    TableRow {
        /// The table's column headers, shared by its rows.
        header: Arc<[String]>,
        /// The row's cells.
        cells: Vec<String>,
    },
    /// A table's Total or Subtotal row (issue 85): kept, with its table's header, as a check
    /// on the rows above it, and never counted, summed or compared as one of them.
    TotalRow {
        /// The table's column headers, shared by its rows.
        header: Arc<[String]>,
        /// The row's cells ("Total", "", "21").
        cells: Vec<String>,
    },
    /// What one speaker said ("LENA: We took on three porters").
    Turn {
        /// Who spoke.
        speaker: String,
        /// What they said.
        text: String,
    },
    /// An entry of a dated history or changelog ("2008 — now runs 7 shops").
    Dated {
        /// The entry's date.
        date: String,
        /// What the entry says.
        text: String,
    },
}

impl Record {
    /// About how many bytes the record takes once written as a passage with its JSON: what a
    /// block counts against its file's budget (a table row counts its shared header too, which
    /// its passage writes).
    pub fn bytes(&self) -> usize {
        let sum = |texts: &[String]| texts.iter().map(String::len).sum::<usize>();
        match self {
            Record::Paragraph(text) => text.len(),
            Record::List { lead, items } => {
                lead.as_ref().map_or(0, String::len) + sum(items) + 2 * items.len()
            }
            Record::RowNames { column, names } => column.len() + sum(names) + 2 * names.len(),
            Record::KeyValue { label, value } => label.len() + value.len(),
            Record::TableRow { header, cells } | Record::TotalRow { header, cells } => {
                2 * (sum(header) + sum(cells)) + 4 * cells.len()
            }
            Record::Turn { speaker, text } => speaker.len() + text.len(),
            Record::Dated { date, text } => date.len() + text.len(),
        }
    }

    /// A table row's label (its first cell) and its other cells, each with its column's name
    /// (empty when the table names none); `None` for another record. A Total row is read as
    /// the figures it states; only the record tables (what is counted and summed) leave it out.
    pub fn row(&self) -> Option<(&str, Vec<(&str, &str)>)> {
        let (Record::TableRow { header, cells } | Record::TotalRow { header, cells }) = self else {
            return None;
        };
        let (label, rest) = cells.split_first()?;
        let named = rest
            .iter()
            .enumerate()
            .filter(|(_, cell)| !cell.trim().is_empty())
            .map(|(n, cell)| {
                let column = header.get(n + 1).map_or("", String::as_str);
                (column, cell.as_str())
            })
            .collect();
        Some((label.as_str(), named))
    }
}

/// A cell of a table row that holds a number, read under its column in the column's unit, as a
/// sentence named by its row and its column ("Junior, Annual fee: £95").
#[derive(Debug, Clone, PartialEq)]
pub struct RowValue {
    /// The column's name without its unit ("Price").
    pub column: String,
    /// The value in the column's unit ("£32.50").
    pub value: String,
    /// The cell read as a sentence named by its row and its column ("Junior, Annual fee: £95").
    pub sentence: String,
}

impl Record {
    /// A table row's names (its first cell and its cells of words: "Pennock Vale Angling
    /// League", "Millbeck Anglers") and each of its cells that holds a number, as a
    /// [`RowValue`]; `None` for another record.
    pub fn row_values(&self) -> Option<(Vec<&str>, Vec<RowValue>)> {
        let (first, cells) = self.row()?;
        let has_digit = |cell: &str| cell.contains(|c: char| c.is_ascii_digit());
        let names: Vec<&str> = std::iter::once(first)
            .chain(cells.iter().map(|(_, c)| *c).filter(|c| !has_digit(c)))
            .collect();
        let label = names.join(", ");
        let values = cells
            .iter()
            .filter(|(_, cell)| has_digit(cell))
            .map(|(column, cell)| {
                let (column, value) = cell_in_unit(column, cell);
                let sentence = if column.is_empty() {
                    format!("{label}: {value}")
                } else {
                    format!("{label}, {column}: {value}")
                };
                RowValue {
                    column,
                    value,
                    sentence,
                }
            })
            .collect();
        Some((names, values))
    }
}

/// A cell read under its column: the column's name without the unit it states in brackets,
/// and the cell's value in that unit ("Price (£)" over "32.50" → ("Price", "£32.50"),
/// "Passengers (millions)" over "17.0" → ("Passengers", "17.0 million"), "Length (km)" over
/// "3.4" → ("Length", "3.4 km")). A cell that is not a bare number, or a column without a unit,
/// is as written.
pub fn cell_in_unit(column: &str, cell: &str) -> (String, String) {
    let as_written = (column.to_string(), cell.to_string());
    let Some((name, unit)) = column
        .trim()
        .strip_suffix(')')
        .and_then(|c| c.rsplit_once('('))
    else {
        return as_written;
    };
    let (name, unit) = (name.trim(), unit.trim());
    let bare_number = !cell.is_empty()
        && cell
            .trim()
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        && cell.trim().starts_with(|c: char| c.is_ascii_digit());
    let short_unit = (1..=12).contains(&unit.chars().count()) && !unit.contains(char::is_numeric);
    if name.is_empty() || !bare_number || !short_unit {
        return as_written;
    }
    let cell = cell.trim();
    let value = match unit.to_lowercase().as_str() {
        "£" | "$" | "€" => format!("{unit}{cell}"),
        "millions" | "million" | "mn" => format!("{cell} million"),
        "thousands" | "thousand" | "000s" => format!("{cell} thousand"),
        _ => format!("{cell} {unit}"),
    };
    (name.to_string(), value)
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

/// Reads the bytes of a file in a format kept as bytes (a PDF, an Office or OpenDocument
/// file, an e-mail, an EPUB) into an outline within `budget`; refused with a sentence when the
/// file is damaged, encrypted, past the bounds of its format or without text.
pub fn binary_outline(
    bytes: &[u8],
    format: Format,
    budget: &ReadBudget,
) -> Result<Outline, ReadRefused> {
    guarded(format, || read_binary(bytes, format, budget)).and_then(|read| read)
}

/// The stack of the thread a file is read on: the readers' libraries recurse over what they
/// parse, and nesting is bounded before they see it (`archive.rs`, `html.rs`), so that this much
/// stack holds every file within the bounds with room to spare. Only the pages used are touched.
pub const READER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Runs `read` on a thread of its own with [`READER_STACK_BYTES`] of stack, inside
/// `catch_unwind`: a reader's library that panics on a file of `format` refuses that file with
/// a sentence (the `Err`), and no file can take the process down with it (issue 84).
pub fn guarded<T: Send>(format: Format, read: impl FnOnce() -> T + Send) -> Result<T, ReadRefused> {
    let failed = |why: String| {
        ReadRefused::Unreadable(format!(
            "the {} reader failed on it ({why}); is it damaged?",
            format.name()
        ))
    };
    std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name(format!("read-{}", format.name()))
            .stack_size(READER_STACK_BYTES)
            .spawn_scoped(scope, || {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(read))
            })
            .map_err(|e| ReadRefused::failed("no thread could be started to read it", e))?;
        match reader.join() {
            Ok(Ok(read)) => Ok(read),
            Ok(Err(panic)) | Err(panic) => Err(failed(panic_message(panic.as_ref()))),
        }
    })
}

/// What a panic said, when it said it as text.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "it panicked".into())
}

/// [`binary_outline`] on the calling thread: for a caller already on a guarded one.
pub(crate) fn read_binary(
    bytes: &[u8],
    format: Format,
    budget: &ReadBudget,
) -> Result<Outline, ReadRefused> {
    match format {
        Format::Pdf => pdf::outline(bytes, budget),
        Format::Docx | Format::Pptx => office::outline(bytes, format, budget),
        Format::Xlsx | Format::Xls | Format::Ods => sheets::outline(bytes, format, budget),
        Format::Eml => mail::outline(bytes, budget),
        Format::Epub => epub::outline(bytes, budget),
        Format::Image => scanned::image_outline(bytes, budget),
        other => Err(ReadRefused::Unreadable(format!(
            "{} is not read from bytes",
            other.name()
        ))),
    }
}

impl Outline {
    /// Appends `other`'s blocks, each under `heading` (when given) and at `place` (when the
    /// block names none of its own): a chapter of a book, an e-mail's attachment.
    fn append(&mut self, other: Outline, heading: Option<&str>, place: Option<&str>) {
        let heading = heading.map(bounded_context_part);
        let place = place.map(bounded_context_part);
        for mut block in other.blocks {
            if let Some(heading) = &heading {
                block.sections.insert(0, heading.clone());
            }
            if block.place.is_none() {
                block.place = place.clone();
            }
            self.blocks.push(block);
        }
    }
}

/// Builds an outline's blocks while remembering the heading path; shared by the readers.
#[cfg(test)]
mod tests {
    use super::cell_in_unit;

    #[test]
    fn a_columns_unit_reads_with_its_cells() {
        let read = |column: &str, cell: &str| cell_in_unit(column, cell);
        assert_eq!(
            read("Price (£)", "32.50"),
            ("Price".into(), "£32.50".into())
        );
        assert_eq!(
            read("Passengers (millions)", "17.0"),
            ("Passengers".into(), "17.0 million".into())
        );
        assert_eq!(
            read("Distance (km)", "3.4"),
            ("Distance".into(), "3.4 km".into())
        );
        assert_eq!(
            read("Price (£)", "on request"),
            ("Price (£)".into(), "on request".into())
        );
        assert_eq!(read("Platforms", "4"), ("Platforms".into(), "4".into()));
        assert_eq!(
            read("Population (2021)", "3,480"),
            ("Population (2021)".into(), "3,480".into())
        );
    }
}

#[derive(Debug, Default)]
struct OutlineBuilder {
    outline: Outline,
    /// (level, heading) pairs, outermost first.
    headings: Vec<(usize, String)>,
    /// Where the blocks pushed now are in the file (a page, a sheet's row, a slide).
    place: Option<String>,
    budget: ReadBudget,
    /// Why the blocks stopped being kept: the file produced more than its budget.
    refused: Option<ReadRefused>,
    /// The text was read by OCR: a table's columns are mended of OCR's slips
    /// ([`ocr_slips`]).
    read_by_ocr: bool,
    /// Some page was read by OCR: a receipt's misread prices are mended from its total when
    /// the outline is finished ([`slip_lines::mend_prices`]).
    some_page_by_ocr: bool,
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
        let text = bounded_context_part(&clean(text));
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

    /// Adds a block under the current headings and place. Each block counts against the file's
    /// budget with the headings and place it is read under; past it, the builder keeps the
    /// refusal (its [`finish`](Self::finish) returns it) and no more blocks.
    fn push(&mut self, kind: Record) {
        if self.refused.is_some() {
            return;
        }
        let sections: Vec<String> = self.headings.iter().map(|(_, h)| h.clone()).collect();
        let place = self.place.as_deref().map(bounded_context_part);
        let bytes = kind.bytes()
            + sections.iter().map(String::len).sum::<usize>()
            + place.as_ref().map_or(0, String::len);
        if let Err(why) = self.budget.produce(bytes) {
            self.refused = Some(why);
            return;
        }
        self.outline.blocks.push(Block {
            kind,
            sections,
            place,
            crop: None,
        });
    }

    /// The data rows of the table the outline ends with, when a table under `header` read now
    /// continues it on another page (its header drawn again there, as a long table's is, and
    /// nothing but the table's own column names read between): those names are taken back, to
    /// be read again over both parts. `None`, and nothing taken, when it is another table.
    fn continued_rows(&mut self, header: &[String]) -> Option<Vec<Vec<String>>> {
        let blocks = &self.outline.blocks;
        // A caption drawn again over the part on the next page (an office suite repeats a
        // table's first rows there) is read between the parts: taken back too.
        let caption = match blocks.last().map(|b| &b.kind) {
            Some(Record::Paragraph(text)) => Some(text),
            _ => None,
        };
        let names = blocks
            .iter()
            .rev()
            .skip(usize::from(caption.is_some()))
            .take_while(|b| matches!(b.kind, Record::RowNames { .. }))
            .count()
            + usize::from(caption.is_some());
        let rows = &blocks[..blocks.len() - names];
        let last = rows.last()?;
        let sections: Vec<&String> = self.headings.iter().map(|(_, h)| h).collect();
        let same_table = |b: &Block| match &b.kind {
            Record::TableRow { header: h, .. } | Record::TotalRow { header: h, .. } => {
                h.as_ref() == header && b.sections.iter().eq(sections.iter().copied())
            }
            _ => false,
        };
        if !same_table(last) || last.place == self.place.as_deref().map(bounded_context_part) {
            return None;
        }
        let part = rows.iter().rev().take_while(|b| same_table(b)).count();
        if let Some(caption) = caption {
            let before = rows.len().checked_sub(part + 1).map(|at| &rows[at].kind);
            if before != Some(&Record::Paragraph(caption.clone())) {
                return None;
            }
        }
        let mut earlier: Vec<Vec<String>> = rows
            .iter()
            .rev()
            .take_while(|b| same_table(b))
            .filter_map(|b| match &b.kind {
                Record::TableRow { cells, .. } => Some(cells.clone()),
                _ => None,
            })
            .collect();
        earlier.reverse();
        let kept = blocks.len() - names;
        self.outline.blocks.truncate(kept);
        Some(earlier)
    }

    /// The outline, or why reading it stopped (the file produced more than its budget allows);
    /// where a page was read by OCR, a receipt's misread prices mended from its total first.
    fn finish(mut self) -> Result<Outline, ReadRefused> {
        if self.some_page_by_ocr && self.refused.is_none() {
            slip_lines::mend_prices(&mut self.outline.blocks);
        }
        match self.refused {
            Some(why) => Err(why),
            None => Ok(self.outline),
        }
    }
}

/// Text on one line with single spaces and no Markdown emphasis marks, as a person reads it
/// (issue 85): ligatures folded ("ﬁve" → "five", as NFKC does), soft hyphens dropped, and a
/// word hyphenated across a line break joined ("mem- bers" → "members", "well- known" →
/// "well-known").
fn clean(text: &str) -> String {
    let text = fold_typesetting(text);
    let text = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("**", "")
        .replace("__", "");
    let text = without_note_markers(&text);
    join_hyphenated(&text)
        .trim_matches(|c: char| c == '*' || c == '_' || c.is_whitespace())
        .to_string()
}

/// The Latin ligatures written as their letters (their NFKC forms) and soft hyphens dropped.
pub(crate) fn fold_typesetting(text: &str) -> std::borrow::Cow<'_, str> {
    let typeset = |c: char| ('\u{FB00}'..='\u{FB06}').contains(&c) || c == '\u{AD}';
    if !text.contains(typeset) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            '\u{FB05}' | '\u{FB06}' => out.push_str("st"),
            '\u{AD}' => {}
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A superscript written after `before` as a unit's exponent: "m" + "2" → '²', "cm" + "3" →
/// '³'; none after anything else (a note marker: "seats" + "3"). The readers of formats that
/// mark superscripts (HTML's `<sup>`, an office run's style) share it.
pub(crate) fn unit_exponent(before: &str, sup: &str) -> Option<char> {
    let unit = before
        .rsplit(|c: char| !c.is_alphabetic())
        .next()
        .is_some_and(|w| matches!(w, "m" | "km" | "cm" | "mm" | "ft"));
    match sup.trim() {
        "2" if unit => Some('²'),
        "3" if unit => Some('³'),
        _ => None,
    }
}

/// Superscript digits after a word or a number are note markers ("seats³", "£38,500¹"): left
/// out, so that no marker is read as a digit. After a short unit ("m²", "cm³") they are kept.
fn without_note_markers(text: &str) -> std::borrow::Cow<'_, str> {
    static MARKED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(\p{L}{3,}|[\d.,;:)])[¹²³⁴⁵⁶⁷⁸⁹⁰]+").expect("the pattern is valid")
    });
    if !text.contains(['¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹', '⁰']) {
        return std::borrow::Cow::Borrowed(text);
    }
    MARKED.replace_all(text, "$1")
}

/// Words that keep their hyphen when a line breaks after it ("well-known", "co-operate").
const COMPOUND_FIRST: &[&str] = &[
    "self",
    "well",
    "co",
    "non",
    "long",
    "short",
    "high",
    "low",
    "part",
    "full",
    "half",
    "pre",
    "post",
    "anti",
    "ex",
    "one",
    "two",
    "three",
    "four",
    "five",
    "first",
    "second",
    "third",
    "mid",
    "cross",
    "semi",
    "multi",
    "all",
    "year",
    "day",
    "week",
    "month",
    "hand",
    "home",
    "part-time",
    "full-time",
    "vice",
    "sub",
];

/// "mem- bers" → "members": a word broken at a line's end, its next part starting in lower case
/// (a suspended hyphen, "two- and three-bedroom", stays).
fn join_hyphenated(text: &str) -> String {
    static BROKEN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(\p{L}+)- (\p{Ll}+)").expect("the pattern is valid")
    });
    if !text.contains("- ") {
        return text.to_string();
    }
    BROKEN
        .replace_all(text, |caps: &regex::Captures<'_>| {
            let (left, right) = (&caps[1], &caps[2]);
            if matches!(right, "and" | "or" | "to" | "nor") {
                format!("{left}- {right}")
            } else if COMPOUND_FIRST.contains(&left.to_lowercase().as_str()) {
                format!("{left}-{right}")
            } else {
                format!("{left}{right}")
            }
        })
        .into_owned()
}
