//! Optical character recognition of scanned pages and photos of pages (issue 89), by the
//! machine's Tesseract (`tesseract-ocr`, English data) and, for a PDF's pages, poppler's
//! `pdftoppm` to render them. Each tool runs as a bounded subprocess: a wall-clock limit, an
//! address-space and CPU limit (`prlimit`), a cap on the pixels it is given, and the page's
//! words come back with their boxes and confidences. Without the tools on the machine, OCR is
//! said to be missing and the file is refused with a sentence that names what to install.
//!
//! This module knows nothing of outlines: `structure::scanned` lays the words out.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::budget::{ReadBudget, ReadRefused};

/// The resolution pages are rendered and read at: Tesseract reads 10-point text best at 300 dpi.
pub const OCR_DPI: u32 = 300;
/// The most pixels one page given to Tesseract may have (an A4 page at 300 dpi has 8.7
/// million; a 48-megapixel phone photo is still read). A larger image is refused unread: its
/// header can claim 100,000 × 100,000 pixels in a few kilobytes.
pub const MAX_OCR_PIXELS: u64 = 50_000_000;
/// The most pages of one file read by OCR (a scanned report of a few hundred pages is read; a
/// PDF of 2,000 image pages is refused by its count, before any is read).
pub const MAX_OCR_PAGES: usize = 300;
/// The longest one page's rendering or recognition may run.
pub const OCR_PAGE_TIME: Duration = Duration::from_secs(30);
/// The address space one tool may take (a page at [`MAX_OCR_PIXELS`] in grey takes 50 MB; the
/// recognizer's models and buffers a few hundred).
const OCR_MEMORY_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// A word whose confidence is below this many percent is unsure: a number read with less is
/// marked, and an answer that rests on it is not given as sure. Chosen on the tuning part of
/// `tally eval reading --scans` (the share of digits wrong among words below it).
pub const UNSURE_CONFIDENCE: f32 = 80.0;

/// One word as Tesseract read it, with its box in pixels of its page and its confidence (0–100).
#[derive(Debug, Clone, PartialEq)]
pub struct OcrWord {
    /// The word's text.
    pub text: String,
    /// Its box's left edge.
    pub left: u32,
    /// Its box's top edge.
    pub top: u32,
    /// Its box's width.
    pub width: u32,
    /// Its box's height.
    pub height: u32,
    /// How sure Tesseract is of it, in percent.
    pub confidence: f32,
    /// The block, paragraph and line Tesseract put it in.
    pub line: (u32, u32, u32),
}

/// Which OCR tools the machine has.
#[derive(Debug, Clone)]
pub struct OcrTools {
    tesseract: PathBuf,
    pdftoppm: Option<PathBuf>,
    prlimit: Option<PathBuf>,
}

/// The sentence that says what to install for OCR.
pub const OCR_MISSING: &str = "OCR is not installed on this server (install Debian's \
    tesseract-ocr, tesseract-ocr-eng and poppler-utils, or run scripts/setup.sh)";

impl OcrTools {
    /// The tools on this machine's `PATH`, looked up once; `None` without Tesseract.
    pub fn on_this_machine() -> Option<&'static OcrTools> {
        static TOOLS: OnceLock<Option<OcrTools>> = OnceLock::new();
        TOOLS
            .get_or_init(|| {
                let tesseract = on_path("tesseract")?;
                Some(OcrTools {
                    tesseract,
                    pdftoppm: on_path("pdftoppm"),
                    prlimit: on_path("prlimit"),
                })
            })
            .as_ref()
    }

    /// Whether PDF pages can be rendered for OCR (poppler's `pdftoppm` is there).
    pub fn reads_pdf_pages(&self) -> bool {
        self.pdftoppm.is_some()
    }

    /// The words of the image in `path` (PNG, JPEG, TIFF), per page (a TIFF may hold several),
    /// within the page time limit and the budget.
    pub fn words_of_image(
        &self,
        path: &Path,
        budget: &ReadBudget,
    ) -> Result<Vec<Vec<OcrWord>>, ReadRefused> {
        // A page of one image is read with its table rulings taken out; a file of several
        // pages (a TIFF) as it is.
        let cleaned = path.with_extension("clean.pgm");
        let path = match without_rulings(path, &cleaned) {
            Ok(()) => cleaned.as_path(),
            Err(_) => path,
        };
        let mut command = self.bounded(&self.tesseract);
        command
            .arg(path)
            .arg("stdout")
            .args(["-l", "eng", "--psm", "3", "tsv"])
            // One thread per page: on 2 cores OpenMP's threads cost more than they give.
            .env("OMP_THREAD_LIMIT", "1");
        let tsv = run_bounded(command, OCR_PAGE_TIME, budget, "recognizing its text")?;
        Ok(parse_tsv(&String::from_utf8_lossy(&tsv)))
    }

    /// Renders page `page` (from 1) of the PDF in `pdf` to a grey image in `dir` at `dpi`, and
    /// gives its path (a PGM: written in a fraction of the time a PNG of a noisy scan takes).
    pub fn render_pdf_page(
        &self,
        pdf: &Path,
        page: u32,
        dpi: u32,
        dir: &Path,
        budget: &ReadBudget,
    ) -> Result<PathBuf, ReadRefused> {
        let pdftoppm = self
            .pdftoppm
            .as_ref()
            .ok_or_else(|| ReadRefused::Unreadable(OCR_MISSING.into()))?;
        let prefix = dir.join(format!("page-{page}"));
        let mut command = self.bounded(pdftoppm);
        command
            .args(["-r", &dpi.to_string(), "-gray", "-singlefile"])
            .args(["-f", &page.to_string(), "-l", &page.to_string()])
            .arg(pdf)
            .arg(&prefix);
        run_bounded(command, OCR_PAGE_TIME, budget, "rendering a page")?;
        Ok(prefix.with_extension("pgm"))
    }

    /// A command for `program` under the memory and CPU limits, when `prlimit` is there.
    fn bounded(&self, program: &Path) -> Command {
        match &self.prlimit {
            Some(prlimit) => {
                let mut command = Command::new(prlimit);
                command
                    .arg(format!("--as={OCR_MEMORY_BYTES}"))
                    .arg(format!("--cpu={}", OCR_PAGE_TIME.as_secs()))
                    .arg("--")
                    .arg(program);
                command
            }
            None => Command::new(program),
        }
    }
}

/// The resolution a page of `width` × `height` points is rendered at for OCR: [`OCR_DPI`], or
/// less for a page so large that it would pass [`MAX_OCR_PIXELS`].
pub fn dpi_for_page(width: f32, height: f32) -> u32 {
    let square_inches = (width.abs() / 72.0) as f64 * (height.abs() / 72.0) as f64;
    let most = (MAX_OCR_PIXELS as f64 / square_inches.max(1e-6)).sqrt();
    (most.floor() as u32).clamp(1, OCR_DPI)
}

/// The width and height an image's header claims (PNG, JPEG, TIFF), read without decoding it;
/// refused when it claims more than [`MAX_OCR_PIXELS`] or cannot be read as an image.
pub fn checked_image_size(bytes: &[u8]) -> Result<(u64, u64), ReadRefused> {
    let size = imagesize::blob_size(bytes).map_err(|_| {
        ReadRefused::Unreadable(
            "it is not an image Tally can read (PNG, JPEG or TIFF), or it is damaged".into(),
        )
    })?;
    let (width, height) = (size.width as u64, size.height as u64);
    if width == 0 || height == 0 {
        return Err(ReadRefused::Unreadable("its image has no pixels".into()));
    }
    if width.saturating_mul(height) > MAX_OCR_PIXELS {
        return Err(ReadRefused::TooLarge(format!(
            "its image is {width} × {height} pixels; Tally reads images of at most {} million \
             pixels (a page photographed at 48 megapixels is within it)",
            MAX_OCR_PIXELS / 1_000_000
        )));
    }
    Ok((width, height))
}

/// Writes the grey image in `from` to `to` (a PGM) with its table rulings whitened: runs of
/// dark pixels longer than any glyph's stroke, across (a row's) or down (a column's) the page,
/// each looked for in a band three pixels wide so that a ruling turned by a degree is still
/// one run. Tesseract reads a ruled table's cells as noise; without the rules it reads them as
/// text set in columns.
fn without_rulings(from: &Path, to: &Path) -> Result<(), image::ImageError> {
    let mut page = image::ImageReader::open(from)?
        .with_guessed_format()?
        .decode()?
        .to_luma8();
    let (width, height) = (page.width() as usize, page.height() as usize);
    let dark: Vec<bool> = page.as_raw().iter().map(|v| *v < DARK).collect();
    let at = |x: usize, y: usize| dark[y * width + x];
    let mut ruling = vec![false; width * height];
    // Across: a row's run of pixels dark in it or a row beside it.
    let across = (width / 25).max(60);
    for y in 0..height {
        let band = |x: usize| (y.saturating_sub(1)..=(y + 1).min(height - 1)).any(|r| at(x, r));
        mark_runs(width, across, band, |x| ruling[y * width + x] = at(x, y));
    }
    // Down: a column's run, likewise.
    let down = (height / 33).max(60);
    for x in 0..width {
        let band = |y: usize| (x.saturating_sub(1)..=(x + 1).min(width - 1)).any(|c| at(c, y));
        mark_runs(height, down, band, |y| {
            if at(x, y) {
                ruling[y * width + x] = true;
            }
        });
    }
    // A ruling's grey fringe (blur, JPEG) goes with it: two pixels round every pixel of it.
    let raw: &mut [u8] = &mut page;
    for y in 0..height {
        for x in 0..width {
            if !ruling[y * width + x] {
                continue;
            }
            for ny in y.saturating_sub(FRINGE)..=(y + FRINGE).min(height - 1) {
                for nx in x.saturating_sub(FRINGE)..=(x + FRINGE).min(width - 1) {
                    raw[ny * width + nx] = 255;
                }
            }
        }
    }
    page.save_with_format(to, image::ImageFormat::Pnm)
}

/// A pixel darker than this is ink.
const DARK: u8 = 170;
/// How far round a ruling's pixels its fringe is whitened.
const FRINGE: usize = 2;

/// Calls `mark` for each position of every run of `len` positions where `dark` holds that is
/// at least `longest` long.
fn mark_runs(
    len: usize,
    longest: usize,
    dark: impl Fn(usize) -> bool,
    mut mark: impl FnMut(usize),
) {
    let mut start = None;
    for p in 0..=len {
        let is_dark = p < len && dark(p);
        match (is_dark, start) {
            (true, None) => start = Some(p),
            (false, Some(s)) => {
                if p - s >= longest {
                    (s..p).for_each(&mut mark);
                }
                start = None;
            }
            _ => {}
        }
    }
}

/// Runs `command` to its end and gives what it wrote to standard output; killed and refused
/// past `limit`, when the budget is cancelled, or when it fails (`doing` says what it was at).
fn run_bounded(
    mut command: Command,
    limit: Duration,
    budget: &ReadBudget,
    doing: &str,
) -> Result<Vec<u8>, ReadRefused> {
    let failed = |why: String| ReadRefused::Unreadable(format!("OCR failed {doing}: {why}"));
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    // Standard output is read on its own thread so that a full pipe never stalls the tool.
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stdout) = stdout.as_mut() {
            let _ = stdout.read_to_end(&mut out);
        }
        out
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| failed(e.to_string()))? {
            break status;
        }
        let cancelled = budget.is_cancelled();
        if cancelled || started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            if cancelled {
                return Err(ReadRefused::Cancelled);
            }
            return Err(ReadRefused::TooLarge(format!(
                "OCR took more than {} s {doing} of one page, past its limit",
                limit.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = reader.join().unwrap_or_default();
    if !status.success() {
        let mut err = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            let _ = stderr.read_to_string(&mut err);
        }
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(failed(format!(
            "{status}{}{}",
            if last.is_empty() { "" } else { ": " },
            last.chars().take(200).collect::<String>()
        )));
    }
    Ok(out)
}

/// Tesseract's TSV output as words, per page: rows of level 5 (a word) with text.
fn parse_tsv(tsv: &str) -> Vec<Vec<OcrWord>> {
    let mut pages: Vec<Vec<OcrWord>> = Vec::new();
    for row in tsv.lines().skip(1) {
        let fields: Vec<&str> = row.split('\t').collect();
        let [level, page, block, par, line, _word, left, top, width, height, conf, text] =
            fields[..]
        else {
            continue;
        };
        let text = text.trim();
        if level != "5" || text.is_empty() {
            continue;
        }
        let number = |s: &str| s.parse::<u32>().unwrap_or(0);
        let page = number(page).max(1) as usize;
        if pages.len() < page {
            pages.resize_with(page, Vec::new);
        }
        pages[page - 1].push(OcrWord {
            text: text.to_string(),
            left: number(left),
            top: number(top),
            width: number(width),
            height: number(height),
            confidence: conf.parse().unwrap_or(0.0),
            line: (number(block), number(par), number(line)),
        });
    }
    pages
}

/// The program `name` in a directory of `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tesseracts_words_are_read_with_their_boxes_and_confidence() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
                   1\t1\t0\t0\t0\t0\t0\t0\t2480\t3509\t-1\t\n\
                   5\t1\t1\t1\t1\t1\t235\t125\t92\t32\t96.6\tSpring\n\
                   5\t1\t1\t1\t1\t2\t340\t125\t71\t25\t43.0\t2024\n\
                   5\t2\t1\t1\t1\t1\t10\t20\t30\t40\t90\tNext\n";
        let pages = parse_tsv(tsv);
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0][1].text, "2024");
        assert_eq!(pages[0][1].left, 340);
        assert!(pages[0][1].confidence < UNSURE_CONFIDENCE);
        assert_eq!(pages[1][0].line, (1, 1, 1));
    }

    #[test]
    fn a_huge_page_is_rendered_at_a_lower_resolution() {
        assert_eq!(dpi_for_page(595.0, 842.0), OCR_DPI);
        let dpi = dpi_for_page(14_400.0, 14_400.0);
        assert!(dpi < 40, "{dpi}");
        assert!(200u64 * 200 * dpi as u64 * dpi as u64 <= MAX_OCR_PIXELS);
    }

    #[test]
    fn an_image_claiming_too_many_pixels_is_refused_from_its_header() {
        // A PNG header claiming 100,000 × 100,000 pixels, with no pixel data.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend(100_000u32.to_be_bytes());
        png.extend(100_000u32.to_be_bytes());
        png.extend([8, 0, 0, 0, 0, 0, 0, 0, 0]);
        let refused = checked_image_size(&png).unwrap_err();
        assert!(matches!(refused, ReadRefused::TooLarge(_)), "{refused}");
        assert!(refused.to_string().contains("100000 × 100000"), "{refused}");
        assert!(checked_image_size(b"not an image at all").is_err());
    }
}
