//! What reading one document may spend (issue 70): a deadline over the whole of reading it
//! (parsing, the HTML tree and its layout, the outline, the written passages), a flag the caller
//! raises when nobody waits for the result any more (an upload whose client went away), and the
//! bounds on a table's size. Readers check the budget as they go, so that no document holds a
//! thread or memory past these limits whatever its shape, and a document past them is refused
//! with a sentence before anything is stored.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long reading a document may take, all of it, at the least; a large one gets
/// [`READ_TIME_PER_MB`] more for each megabyte (the layout of the costliest page within the HTML
/// bounds took up to 2.7 s per MB on 2 cores, in a debug build; so that the budget holds a page of any shape to
/// the time its size warrants, and a 64 MB upload of plain records is still read).
pub const READ_TIME_LIMIT: Duration = Duration::from_secs(5);
/// How much longer reading may take for each megabyte of the document.
pub const READ_TIME_PER_MB: Duration = Duration::from_secs(4);
/// What reading any file may produce, whatever its size: the bytes of its passages and records,
/// with the headings and place each block is read under (issue 84).
pub const MAX_OUTPUT_BYTES: usize = 512 * 1024 * 1024;
/// What reading a file may produce at the least, however small it is.
pub const OUTPUT_BASE_BYTES: usize = 4 * 1024 * 1024;
/// How many times its own size a file may produce besides [`OUTPUT_BASE_BYTES`]: a spreadsheet's
/// cells written under their columns take several times their packed bytes, but a file that
/// says "this row, a million times" in 1.6 KB (issue 84) is not a document a person wrote.
pub const OUTPUT_PER_BYTE: usize = 32;
/// The most characters a title, a heading or a place keeps: each is repeated as the context of
/// every passage and sentence under it (a 64 KB `<title>` over 1,000 paragraphs took 961 MB).
pub const MAX_CONTEXT_PART_CHARS: usize = 200;

/// `text` cut to [`MAX_CONTEXT_PART_CHARS`] characters, with an ellipsis where it was cut.
pub fn bounded_context_part(text: &str) -> String {
    match text.char_indices().nth(MAX_CONTEXT_PART_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", text[..end].trim_end()),
    }
}

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

/// The most pages of one upload read by OCR, all its files together (issue 97: each file
/// had its own 300 pages, so an upload of many scans read for hours).
pub const MAX_OCR_PAGES_PER_UPLOAD: usize = 300;
/// The longest OCR may run for one upload, all its files together (a scanned report of a few
/// hundred clean pages reads in a few minutes on 2 cores; pages of noise take the page limit).
pub const MAX_OCR_TIME_PER_UPLOAD: Duration = Duration::from_secs(10 * 60);

/// What OCR may still spend on one upload: pages, and time from its first page on (rendering,
/// taking rulings out, recognizing: all of it), shared by every file of it.
#[derive(Debug)]
pub struct OcrAllowance {
    pages_left: AtomicUsize,
    started: std::sync::OnceLock<Instant>,
}

impl OcrAllowance {
    /// The allowance of one upload: [`MAX_OCR_PAGES_PER_UPLOAD`] pages and
    /// [`MAX_OCR_TIME_PER_UPLOAD`].
    pub fn per_upload() -> Arc<Self> {
        Arc::new(Self {
            pages_left: AtomicUsize::new(MAX_OCR_PAGES_PER_UPLOAD),
            started: std::sync::OnceLock::new(),
        })
    }

    /// Takes `pages` pages of it; refused when fewer are left (nothing is taken then).
    pub fn take_pages(&self, pages: usize) -> Result<(), ReadRefused> {
        let taken = self
            .pages_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(pages)
            });
        match taken {
            Ok(_) => Ok(()),
            Err(left) => Err(ReadRefused::TooLarge(format!(
                "it has {pages} pages to read by OCR, and only {left} of the \
                 {MAX_OCR_PAGES_PER_UPLOAD} an upload may have read by OCR are left; upload \
                 it on its own"
            ))),
        }
    }

    /// The OCR time left; its clock starts when it is first asked.
    pub fn time_left(&self) -> Duration {
        let started = self.started.get_or_init(Instant::now);
        MAX_OCR_TIME_PER_UPLOAD.saturating_sub(started.elapsed())
    }

    /// `Err` once the time is spent.
    pub fn check_time(&self) -> Result<(), ReadRefused> {
        if self.time_left().is_zero() {
            return Err(ReadRefused::TooLarge(format!(
                "OCR of this upload ran for {} minutes, all it may: upload fewer scanned pages \
                 at a time",
                MAX_OCR_TIME_PER_UPLOAD.as_secs() / 60
            )));
        }
        Ok(())
    }
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
    /// The file cannot be read as its format says: encrypted, scanned pages without a text
    /// layer, a reader that gave up; says which in our own words.
    #[error("{0}")]
    Unreadable(String),
    /// The file is damaged, or not `what` its name says ("an EPUB book"); keeps its reader's
    /// error.
    #[error("it is damaged or not {what}")]
    Damaged {
        /// What the file should have been, with its article.
        what: &'static str,
        /// What the reader's library said.
        #[source]
        cause: ReaderCause,
    },
    /// A step of reading it failed on this machine (a scratch file, a thread, the OCR tool);
    /// keeps why.
    #[error("{step}")]
    Failed {
        /// The step, in a few words ("cannot write it for OCR").
        step: String,
        /// Why it failed.
        #[source]
        cause: ReaderCause,
    },
}

impl ReadRefused {
    /// The file is damaged or not `what` it should be, as `cause` says.
    pub fn damaged(
        what: &'static str,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        ReadRefused::Damaged {
            what,
            cause: ReaderCause(Arc::new(cause)),
        }
    }

    /// The `step` of reading failed, because of `cause`.
    pub fn failed(
        step: impl Into<String>,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        ReadRefused::Failed {
            step: step.into(),
            cause: ReaderCause(Arc::new(cause)),
        }
    }
}

/// A library's error kept as the cause of a refusal. Shared, so that a refusal can be cloned
/// (a chapter's refusal is its book's); two are equal when they say the same.
#[derive(Debug, Clone)]
pub struct ReaderCause(Arc<dyn std::error::Error + Send + Sync>);

impl std::fmt::Display for ReaderCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ReaderCause {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for ReaderCause {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl Eq for ReaderCause {}

/// The budget of one file's reading; cheap to clone (clones share the cancellation flag and
/// what was produced, so that a chapter or an attachment spends its file's budget).
#[derive(Debug, Clone)]
pub struct ReadBudget {
    until: Instant,
    /// Time added to `until` since (OCR's pages), shared by the clones.
    extra_ms: Arc<AtomicU64>,
    cancelled: Arc<AtomicBool>,
    produced: Arc<AtomicUsize>,
    max_output: usize,
    /// What OCR may still spend: the upload's, shared by its files.
    ocr: Arc<OcrAllowance>,
}

impl Default for ReadBudget {
    fn default() -> Self {
        Self::new(READ_TIME_LIMIT)
    }
}

impl ReadBudget {
    /// A budget of `time` from now.
    /// A budget of `time` from now, producing at most [`MAX_OUTPUT_BYTES`].
    pub fn new(time: Duration) -> Self {
        Self {
            until: Instant::now() + time,
            extra_ms: Arc::new(AtomicU64::new(0)),
            cancelled: Arc::new(AtomicBool::new(false)),
            produced: Arc::new(AtomicUsize::new(0)),
            max_output: MAX_OUTPUT_BYTES,
            ocr: OcrAllowance::per_upload(),
        }
    }

    /// The budget for reading one file of `bytes`: [`READ_TIME_LIMIT`] and [`READ_TIME_PER_MB`]
    /// for each megabyte; producing at most [`OUTPUT_BASE_BYTES`] and [`OUTPUT_PER_BYTE`] times
    /// its size, and never more than [`MAX_OUTPUT_BYTES`]. Each file has its own: a small file
    /// does not spend what a large one beside it earned.
    pub fn for_bytes(bytes: usize) -> Self {
        let megabytes = bytes as f64 / (1024.0 * 1024.0);
        let mut budget = Self::new(READ_TIME_LIMIT + READ_TIME_PER_MB.mul_f64(megabytes));
        budget.max_output = OUTPUT_BASE_BYTES
            .saturating_add(bytes.saturating_mul(OUTPUT_PER_BYTE))
            .min(MAX_OUTPUT_BYTES);
        budget
    }

    /// The same budget, producing at most `bytes`.
    pub fn producing_at_most(mut self, bytes: usize) -> Self {
        self.max_output = bytes;
        self
    }

    /// The most bytes this reading may produce.
    pub fn max_output(&self) -> usize {
        self.max_output
    }

    /// Counts `bytes` of passages produced; refused once the file has produced more than its
    /// size allows.
    pub fn produce(&self, bytes: usize) -> Result<(), ReadRefused> {
        let produced = self.produced.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if produced > self.max_output {
            return Err(ReadRefused::TooLarge(format!(
                "read, it expands to more than {} MB of text{}; a file this size holds far \
                 less (does it repeat one row, sheet or chapter many times?)",
                self.max_output / (1024 * 1024),
                if self.max_output < MAX_OUTPUT_BYTES {
                    format!(
                        " ({OUTPUT_PER_BYTE} times its size, and {} MB)",
                        OUTPUT_BASE_BYTES / (1024 * 1024)
                    )
                } else {
                    String::new()
                }
            )));
        }
        Ok(())
    }

    /// The same budget, spending `ocr` for OCR: the allowance of the upload the file is part of.
    pub fn with_ocr_allowance(mut self, ocr: Arc<OcrAllowance>) -> Self {
        self.ocr = ocr;
        self
    }

    /// What OCR may still spend on this file's upload.
    pub fn ocr(&self) -> &OcrAllowance {
        &self.ocr
    }

    /// The same budget, cancelled when `cancelled` is raised.
    pub fn cancelled_by(mut self, cancelled: Arc<AtomicBool>) -> Self {
        self.cancelled = cancelled;
        self
    }

    /// Whether the caller no longer wants the result.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Gives the file `more` time, from now or from its deadline if that is later: what
    /// reading pages by OCR adds (issue 89). Every clone of the budget sees it.
    pub fn extend(&self, more: Duration) {
        let now = Instant::now();
        let base = now.max(self.deadline());
        let extra = (base + more).saturating_duration_since(self.until);
        self.extra_ms
            .store(extra.as_millis() as u64, Ordering::Relaxed);
    }

    /// When reading must be done.
    fn deadline(&self) -> Instant {
        self.until + Duration::from_millis(self.extra_ms.load(Ordering::Relaxed))
    }

    /// `Err` once the deadline has passed or the reading was cancelled.
    pub fn check(&self) -> Result<(), ReadRefused> {
        if self.cancelled.load(Ordering::Relaxed) {
            return Err(ReadRefused::Cancelled);
        }
        if Instant::now() > self.deadline() {
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
        let small = ReadBudget::for_bytes(1_600);
        assert_eq!(
            small.max_output(),
            OUTPUT_BASE_BYTES + 1_600 * OUTPUT_PER_BYTE
        );
        let chapter = small.clone();
        assert!(small.produce(OUTPUT_BASE_BYTES).is_ok());
        // A clone spends the same budget: a book's chapters, a mail's attachments.
        let refused = chapter.produce(1_600 * OUTPUT_PER_BYTE + 1).unwrap_err();
        assert!(
            refused.to_string().contains("expands to more than"),
            "{refused}"
        );
        assert_eq!(
            ReadBudget::for_bytes(1 << 30).max_output(),
            MAX_OUTPUT_BYTES
        );
        assert_eq!(bounded_context_part("Fares"), "Fares");
        let long = "é".repeat(MAX_CONTEXT_PART_CHARS + 5);
        assert_eq!(
            bounded_context_part(&long).chars().count(),
            MAX_CONTEXT_PART_CHARS + 1
        );
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

    #[test]
    fn an_uploads_ocr_allowance_is_shared_by_its_files() {
        // Issue 97: each file had its own 300 pages, and an upload of many scans read for hours.
        let allowance = OcrAllowance::per_upload();
        let (first, second) = (
            ReadBudget::default().with_ocr_allowance(Arc::clone(&allowance)),
            ReadBudget::default().with_ocr_allowance(Arc::clone(&allowance)),
        );
        first.ocr().take_pages(200).unwrap();
        let refused = second.ocr().take_pages(150).unwrap_err();
        assert!(
            refused.to_string().contains("only 100 of the 300"),
            "{refused}"
        );
        second.ocr().take_pages(100).unwrap();
        assert!(first.ocr().take_pages(1).is_err());
        // Its clock runs from its first page, for every file of the upload.
        let left = second.ocr().time_left();
        assert!(left <= MAX_OCR_TIME_PER_UPLOAD && left > MAX_OCR_TIME_PER_UPLOAD / 2);
        assert!(first.ocr().check_time().is_ok());
    }
}
