//! What reading one document may spend (issue 70): a deadline over the whole of reading it
//! (parsing, the HTML tree and its layout, the outline, the written passages), a flag the caller
//! raises when nobody waits for the result any more (an upload whose client went away), and the
//! bounds on a table's size. Readers check the budget as they go, so that no document holds a
//! thread or memory past these limits whatever its shape, and a document past them is refused
//! with a sentence before anything is stored.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long reading a document may take, all of it, at the least; a large one gets
/// [`READ_TIME_PER_MB`] more for each megabyte (the layout of the costliest page within the HTML
/// bounds took up to 2.7 s per MB on 2 cores, in a debug build; so that the budget holds a page of any shape to
/// the time its size warrants, and a 64 MB upload of plain records is still read).
pub const READ_TIME_LIMIT: Duration = Duration::from_secs(5);
/// How much longer reading may take for each megabyte of the document.
pub const READ_TIME_PER_MB: Duration = Duration::from_secs(4);
/// The most columns a table may have (the widest spreadsheets people keep have a few hundred).
pub const MAX_TABLE_COLUMNS: usize = 1_000;
/// The most cells one table may have.
pub const MAX_TABLE_CELLS: usize = 2_000_000;
/// The most bytes one table's rows may take once written as passages (each cell under its
/// column's name).
pub const MAX_TABLE_TEXT_BYTES: usize = 64 * 1024 * 1024;
/// The deepest an HTML page's elements may be nested (browsers stop nesting at 512; real pages
/// stay well under 100). The layout's work grows with the depth times the text.
pub const MAX_HTML_DEPTH: usize = 256;
/// The most lists and quotes an HTML page may nest (the layout indents each line once for each
/// that holds it: a quote 250 deep took 11 s per MB).
pub const MAX_HTML_INDENTS: usize = 32;
/// The most elements an HTML page may have.
pub const MAX_HTML_ELEMENTS: usize = 1_000_000;

/// Whether an element nested `depth` deep, inside `indents` lists and quotes, as the
/// `elements`-th of its page, is within the bounds of a page's shape (every reader of a page
/// checks them as it walks the tree).
pub fn within_html_bounds(
    depth: usize,
    indents: usize,
    elements: usize,
) -> Result<(), ReadRefused> {
    if depth > MAX_HTML_DEPTH {
        return Err(ReadRefused::TooLarge(format!(
            "its elements are nested more than {MAX_HTML_DEPTH} deep"
        )));
    }
    if indents > MAX_HTML_INDENTS {
        return Err(ReadRefused::TooLarge(format!(
            "its lists and quotes are nested more than {MAX_HTML_INDENTS} deep"
        )));
    }
    if elements > MAX_HTML_ELEMENTS {
        return Err(ReadRefused::TooLarge(format!(
            "it has more than {MAX_HTML_ELEMENTS} elements"
        )));
    }
    Ok(())
}

/// Whether an element of this name indents every line inside it when laid out (a quote's
/// `> `, a list's items): the work of laying out a line grows with how many hold it.
pub fn indents_its_lines(name: &str) -> bool {
    matches!(
        name,
        "blockquote" | "ul" | "ol" | "dl" | "dd" | "li" | "menu" | "dir"
    )
}

/// Why a document was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadRefused {
    /// Reading took longer than the document's size allows.
    #[error(
        "reading it took longer than its size allows ({} s, and {} s more per MB): is it nested \
         thousands deep, or a table of millions of cells?",
        READ_TIME_LIMIT.as_secs(),
        READ_TIME_PER_MB.as_secs()
    )]
    TooSlow,
    /// Past one of the size bounds; says which.
    #[error("{0}")]
    TooLarge(String),
    /// The caller no longer wants the result.
    #[error("reading it was cancelled: the upload's client went away")]
    Cancelled,
    /// The file cannot be read as its format says: damaged, encrypted, scanned pages without a
    /// text layer; says which.
    #[error("{0}")]
    Unreadable(String),
}

/// The budget of one reading; cheap to clone (clones share the cancellation flag).
#[derive(Debug, Clone)]
pub struct ReadBudget {
    until: Instant,
    cancelled: Arc<AtomicBool>,
}

impl Default for ReadBudget {
    fn default() -> Self {
        Self::new(READ_TIME_LIMIT)
    }
}

impl ReadBudget {
    /// A budget of `time` from now.
    pub fn new(time: Duration) -> Self {
        Self {
            until: Instant::now() + time,
            cancelled: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The budget for reading `bytes` of documents: [`READ_TIME_LIMIT`] and [`READ_TIME_PER_MB`]
    /// for each megabyte.
    pub fn for_bytes(bytes: usize) -> Self {
        let megabytes = bytes as f64 / (1024.0 * 1024.0);
        Self::new(READ_TIME_LIMIT + READ_TIME_PER_MB.mul_f64(megabytes))
    }

    /// The same budget, cancelled when `cancelled` is raised.
    pub fn cancelled_by(mut self, cancelled: Arc<AtomicBool>) -> Self {
        self.cancelled = cancelled;
        self
    }

    /// `Err` once the deadline has passed or the reading was cancelled.
    pub fn check(&self) -> Result<(), ReadRefused> {
        if self.cancelled.load(Ordering::Relaxed) {
            return Err(ReadRefused::Cancelled);
        }
        if Instant::now() > self.until {
            return Err(ReadRefused::TooSlow);
        }
        Ok(())
    }
}

/// Counts a table's size as its rows are read, refusing it past the bounds.
#[derive(Debug, Default)]
pub struct TableSize {
    cells: usize,
    text_bytes: usize,
}

impl TableSize {
    /// Adds a row of `columns` cells; refused past [`MAX_TABLE_COLUMNS`] or [`MAX_TABLE_CELLS`].
    pub fn add_row(&mut self, columns: usize) -> Result<(), ReadRefused> {
        if columns > MAX_TABLE_COLUMNS {
            return Err(ReadRefused::TooLarge(format!(
                "a table has a row of {columns} columns; at most {MAX_TABLE_COLUMNS} are read"
            )));
        }
        self.cells += columns;
        if self.cells > MAX_TABLE_CELLS {
            return Err(ReadRefused::TooLarge(format!(
                "a table has more than {MAX_TABLE_CELLS} cells; split it into smaller files"
            )));
        }
        Ok(())
    }

    /// Adds `bytes` of written rows; refused past [`MAX_TABLE_TEXT_BYTES`].
    pub fn add_text(&mut self, bytes: usize) -> Result<(), ReadRefused> {
        self.text_bytes += bytes;
        if self.text_bytes > MAX_TABLE_TEXT_BYTES {
            return Err(ReadRefused::TooLarge(format!(
                "a table's rows, each cell under its column's name, take more than {} MB; \
                 are its column names very long?",
                MAX_TABLE_TEXT_BYTES / (1024 * 1024)
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_runs_out_and_can_be_cancelled() {
        let budget = ReadBudget::new(Duration::from_secs(60));
        assert_eq!(budget.check(), Ok(()));
        let flag = Arc::new(AtomicBool::new(false));
        let shared = budget.clone().cancelled_by(flag.clone());
        flag.store(true, Ordering::Relaxed);
        assert_eq!(shared.check(), Err(ReadRefused::Cancelled));
        assert_eq!(budget.check(), Ok(()));
        assert!(ReadBudget::for_bytes(64 << 20).until > Instant::now() + Duration::from_secs(260));
        let spent = ReadBudget::new(Duration::ZERO);
        std::thread::sleep(Duration::from_millis(2));
        assert_eq!(spent.check(), Err(ReadRefused::TooSlow));
    }

    #[test]
    fn a_table_past_its_bounds_is_refused() {
        let mut size = TableSize::default();
        assert!(size.add_row(MAX_TABLE_COLUMNS).is_ok());
        assert!(matches!(
            size.add_row(MAX_TABLE_COLUMNS + 1),
            Err(ReadRefused::TooLarge(why)) if why.contains("1001 columns")
        ));
        let mut size = TableSize::default();
        let rows = MAX_TABLE_CELLS / MAX_TABLE_COLUMNS;
        for _ in 0..rows {
            size.add_row(MAX_TABLE_COLUMNS).unwrap();
        }
        assert!(size.add_row(1).is_err());
        assert!(TableSize::default()
            .add_text(MAX_TABLE_TEXT_BYTES + 1)
            .is_err());
    }
}
