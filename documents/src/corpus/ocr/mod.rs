//! Optical character recognition of scanned pages and photos of pages (issue 89), by the
//! machine's Tesseract (`tesseract-ocr`, English data) and, for a PDF's pages, poppler's
//! `pdftoppm` to render them. Each tool runs as a bounded subprocess: a wall-clock limit, an
//! address-space and CPU limit (`prlimit`), a cap on the pixels it is given, and the page's
//! words come back with their boxes and confidences. Without the tools on the machine, OCR is
//! said to be missing and the file is refused with a sentence that names what to install.
//!
//! This module knows nothing of outlines: `structure::scanned` lays the words out.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

mod image_file;
mod process;

pub use image_file::{checked_image_size, image_pages};
pub use process::{scratch_folder, use_scratch_dir};

use super::budget::{ReadBudget, ReadRefused};
use super::read_again::areas_to_read_again;
use image::GrayImage;
use image_file::{damaged_tiff, frame_grey, tiff_decoder, tiff_frames, too_many_pixels};
use process::{dies_with_its_parent, on_path, run_bounded};
use tally_page_image::evidence::EvidencePage;
use tally_page_image::page_light::{even_light, is_uneven};
use tally_page_image::rule_grid::PixelBox;
use tally_page_image::rulings::{whiten_rulings, Rulings};

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

/// The longest one page's blank cells, or its lines of unread ink, may take to read again (a
/// third of a page's time each: they add to the page, whose own reading has its time).
const CELLS_TIME: Duration = Duration::from_secs(10);
/// A word read again from ink outside any cell (a dropped price column) is kept from this
/// confidence, in percent: such ink may be a picture's or a stamp's.
const UNREAD_INK_CONFIDENCE: f32 = 50.0;
/// White round a cell or a line cut out for OCR, in pixels.
const CELL_MARGIN: u32 = 10;
/// The block numbers of words read from cells and lines cut out start here, so that Tesseract's
/// numbering never puts such a word in a line of the page (a page's blocks are far fewer:
/// Tesseract numbers them from 1); the layout still joins it to the row it stands in.
const CELL_BLOCKS: u32 = 100_000;

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

/// One page as OCR read it: its words, and the rules taken out of its image before reading it
/// (a ruled table's lines, whose cells the words are put in).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OcrPage {
    /// The words read, with their boxes.
    pub words: Vec<OcrWord>,
    /// The rules found on the page.
    pub rulings: Rulings,
    /// The page kept small, to cut each block's evidence from; `None` where the page could
    /// not be decoded here (Tesseract read it whole).
    pub evidence: Option<Arc<EvidencePage>>,
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

    /// The words of the image in `path` (PNG, JPEG, TIFF), per page: a TIFF may hold several,
    /// each read (issue 97: only its first was). Each page is read with its table rulings
    /// taken out (and kept with its words), within the page time limit, the budget and the
    /// upload's OCR allowance.
    pub fn words_of_image(
        &self,
        path: &Path,
        budget: &ReadBudget,
    ) -> Result<Vec<OcrPage>, ReadRefused> {
        let words = |tsv: Vec<u8>| parse_tsv(&String::from_utf8_lossy(&tsv));
        let one_page = |image: &Path, clean: Option<(GrayImage, Rulings, Option<EvidencePage>)>| {
            let (clean, evidence) = match clean {
                Some((page, rules, evidence)) => (Some((page, rules)), evidence.map(Arc::new)),
                None => (None, None),
            };
            let page = self.page_words(image, clean, budget)?;
            Ok::<_, ReadRefused>(OcrPage { evidence, ..page })
        };
        let cleaned = path.with_extension("clean.pgm");
        match tiff_frames(path)? {
            None | Some((1, _)) => {
                let page = match without_rulings(path, &cleaned) {
                    Ok(clean) => one_page(&cleaned, Some(clean)),
                    Err(_) => one_page(path, None),
                };
                let _ = std::fs::remove_file(&cleaned);
                Ok(vec![page?])
            }
            // Frames not turned grey here: Tesseract reads them all, in one run, with the
            // time of as many pages.
            Some((frames, false)) => {
                Ok(
                    words(self.recognize(path, OCR_PAGE_TIME * frames as u32, budget)?)
                        .into_iter()
                        .map(|words| OcrPage {
                            words,
                            ..OcrPage::default()
                        })
                        .collect(),
                )
            }
            // Each frame decoded, its rulings taken out and read, one at a time.
            Some((frames, true)) => {
                let mut decoder = tiff_decoder(path)?;
                let mut pages = Vec::with_capacity(frames);
                for n in 0..frames {
                    budget.check()?;
                    if n > 0 {
                        decoder.next_image().map_err(damaged_tiff)?;
                    }
                    let grey = frame_grey(&mut decoder).ok_or_else(|| {
                        ReadRefused::Unreadable(format!("page {} of its TIFF is damaged", n + 1))
                    })?;
                    let evidence = EvidencePage::of(&grey);
                    let (clean, rulings) = cleaned_page(grey);
                    clean
                        .save_with_format(&cleaned, image::ImageFormat::Pnm)
                        .map_err(|e| ReadRefused::failed("cannot write a page for OCR", e))?;
                    let page = one_page(&cleaned, Some((clean, rulings, evidence)));
                    let _ = std::fs::remove_file(&cleaned);
                    pages.push(page?);
                }
                Ok(pages)
            }
        }
    }

    /// One page's words: Tesseract over the page in `image`, then, when the page's rules were
    /// taken out (`clean`: the page without them, and the rules), again over each ruled cell
    /// that holds ink but got no word — Tesseract's page segmentation drops a short number
    /// standing alone in a cell — and over each line of ink outside the tables no word covers
    /// (a receipt's price column).
    fn page_words(
        &self,
        image: &Path,
        clean: Option<(GrayImage, Rulings)>,
        budget: &ReadBudget,
    ) -> Result<OcrPage, ReadRefused> {
        let tsv = self.recognize(image, OCR_PAGE_TIME, budget)?;
        let mut words: Vec<OcrWord> = parse_tsv(&String::from_utf8_lossy(&tsv))
            .into_iter()
            .flatten()
            .collect();
        let Some((page, rulings)) = clean else {
            return Ok(OcrPage {
                words,
                ..OcrPage::default()
            });
        };
        let (again, cells) =
            areas_to_read_again(&page, &rulings, &word_boxes(&words), text_height(&words));
        let (blank_cells, unread) = again.split_at(cells);
        let dir = image.parent().unwrap_or(Path::new("."));
        // What is read again adds to what the page gave: a run of it that fails or runs out of
        // time keeps the page's own words, and only a reading nobody waits for any more stops.
        // The cells and the lines are read in runs of their own, so that a line of a picture
        // that takes the time does not lose the cells' numbers.
        for (boxes, first, in_cells) in [(blank_cells, 0, true), (unread, cells, false)] {
            if boxes.is_empty() {
                continue;
            }
            match self.lines_words(&page, boxes, first as u32, dir, budget) {
                Ok(more) => words.extend(more.into_iter().filter(|word| {
                    // Ink outside any cell may be a picture's or a stamp's: only words read
                    // from it with some confidence are kept.
                    in_cells
                        || (word.confidence >= UNREAD_INK_CONFIDENCE
                            && word.text.chars().any(char::is_alphanumeric))
                })),
                Err(ReadRefused::Cancelled) => return Err(ReadRefused::Cancelled),
                Err(_) => {}
            }
        }
        Ok(OcrPage {
            words,
            rulings,
            evidence: None,
        })
    }

    /// The words of the areas `boxes` of `page` (blank ruled cells, or lines of ink no word
    /// covered), each cut out and read as one line of text, all in one run of Tesseract (a list
    /// of images), their boxes put back in the page; each area's words a line of their own,
    /// numbered from `first`.
    fn lines_words(
        &self,
        page: &GrayImage,
        boxes: &[PixelBox],
        first: u32,
        dir: &Path,
        budget: &ReadBudget,
    ) -> Result<Vec<OcrWord>, ReadRefused> {
        let mut list = String::new();
        let mut corners = Vec::with_capacity(boxes.len());
        for (n, cell) in boxes.iter().enumerate() {
            let (left, top) = (cell.left.max(0.0) as u32, cell.top.max(0.0) as u32);
            let width = (cell.right.max(0.0) as u32)
                .min(page.width())
                .saturating_sub(left);
            let height = (cell.bottom.max(0.0) as u32)
                .min(page.height())
                .saturating_sub(top);
            // A margin of white round the cell: Tesseract reads a word touching the edge badly.
            let mut crop = GrayImage::from_pixel(
                width + 2 * CELL_MARGIN,
                height + 2 * CELL_MARGIN,
                image::Luma([255]),
            );
            // Its light evened out before the margin is added: a faded receipt's price, alone
            // on its line, is read with its paper white.
            let area = image::imageops::crop_imm(page, left, top, width, height).to_image();
            image::imageops::overlay(
                &mut crop,
                &even_light(&area),
                i64::from(CELL_MARGIN),
                i64::from(CELL_MARGIN),
            );
            let path = dir.join(format!("cell-{n}.pgm"));
            crop.save_with_format(&path, image::ImageFormat::Pnm)
                .map_err(|e| ReadRefused::failed("cannot write a cell for OCR", e))?;
            list.push_str(&path.to_string_lossy());
            list.push('\n');
            corners.push((left, top));
        }
        let list_path = dir.join("cells.txt");
        std::fs::write(&list_path, list)
            .map_err(|e| ReadRefused::failed("cannot write a cell for OCR", e))?;
        let mut command = self.bounded(&self.tesseract);
        command
            .arg(&list_path)
            .arg("stdout")
            .args(["-l", "eng", "--psm", "7", "tsv"])
            .env("OMP_THREAD_LIMIT", "1");
        let tsv = run_bounded(
            command,
            CELLS_TIME,
            budget,
            "recognizing a page's lines read again",
        );
        for n in 0..boxes.len() {
            let _ = std::fs::remove_file(dir.join(format!("cell-{n}.pgm")));
        }
        let _ = std::fs::remove_file(&list_path);
        let mut words = Vec::new();
        for (n, cell) in parse_tsv(&String::from_utf8_lossy(&tsv?))
            .into_iter()
            .enumerate()
        {
            let Some(&(left, top)) = corners.get(n) else {
                break;
            };
            for mut word in cell {
                word.left = (word.left + left).saturating_sub(CELL_MARGIN);
                word.top = (word.top + top).saturating_sub(CELL_MARGIN);
                // A line of its own, apart from the page's.
                word.line = (CELL_BLOCKS + first + n as u32, 0, 0);
                words.push(word);
            }
        }
        Ok(words)
    }

    /// Tesseract's TSV of the image in `path`, checked again for its size (a page rendered from
    /// a PDF is as large as the PDF's real page tree says, whatever the reader saw).
    fn recognize(
        &self,
        path: &Path,
        limit: Duration,
        budget: &ReadBudget,
    ) -> Result<Vec<u8>, ReadRefused> {
        let (width, height) = image::ImageReader::open(path)
            .and_then(|reader| reader.with_guessed_format())
            .ok()
            .and_then(|reader| reader.into_dimensions().ok())
            .map(|(w, h)| (w as u64, h as u64))
            .ok_or_else(|| {
                ReadRefused::Unreadable("a page of it is not an image OCR reads".into())
            })?;
        if width.saturating_mul(height) > MAX_OCR_PIXELS {
            return Err(too_many_pixels(width, height));
        }
        let mut command = self.bounded(&self.tesseract);
        command
            .arg(path)
            .arg("stdout")
            .args(["-l", "eng", "--psm", "3", "tsv"])
            // One thread per page: on 2 cores OpenMP's threads cost more than they give.
            .env("OMP_THREAD_LIMIT", "1");
        run_bounded(command, limit, budget, "recognizing its text")
    }

    /// Renders page `page` (from 1) of the PDF in `pdf` to a grey image in `dir` whose longer
    /// side is `long_side` pixels, and gives its path (a PGM: written in a fraction of the time
    /// a PNG of a noisy scan takes). The size is given to `pdftoppm` in pixels, not as a
    /// resolution: it renders the page its own page tree names, which may be larger than the
    /// one the reader saw (issue 97: a decoy page said Letter, the real one 5,500 points).
    pub fn render_pdf_page(
        &self,
        pdf: &Path,
        page: u32,
        long_side: u32,
        dir: &Path,
        budget: &ReadBudget,
    ) -> Result<PathBuf, ReadRefused> {
        let pdftoppm = self
            .pdftoppm
            .as_ref()
            .ok_or_else(|| ReadRefused::Unreadable(OCR_MISSING.into()))?;
        let prefix = dir.join(format!("page-{page}"));
        let long_side = long_side.clamp(1, MAX_LONG_SIDE);
        let mut command = self.bounded(pdftoppm);
        command
            .args(["-scale-to", &long_side.to_string(), "-gray", "-singlefile"])
            .args(["-f", &page.to_string(), "-l", &page.to_string()])
            .arg(pdf)
            .arg(&prefix);
        run_bounded(command, OCR_PAGE_TIME, budget, "rendering a page")?;
        Ok(prefix.with_extension("pgm"))
    }

    /// A command for `program` under the memory and CPU limits, when `prlimit` is there.
    fn bounded(&self, program: &Path) -> Command {
        let mut command = self.limited(program);
        dies_with_its_parent(&mut command);
        command
    }

    fn limited(&self, program: &Path) -> Command {
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

/// The longest side a rendered page may have: a square page of it (and a pixel `pdftoppm` may
/// round up) has at most [`MAX_OCR_PIXELS`], and any other shape fewer.
pub const MAX_LONG_SIDE: u32 = 7_070;

/// The longer side, in pixels, of a page of `width` × `height` points rendered for OCR at
/// [`dpi_for_page`], at most [`MAX_LONG_SIDE`]: what `pdftoppm` is asked for, so that the page
/// it renders has at most [`MAX_OCR_PIXELS`] whatever size its own page tree gives it.
pub fn long_side_for_page(width: f32, height: f32) -> u32 {
    let dpi = dpi_for_page(width, height) as f64;
    let longest = width.abs().max(height.abs()) as f64 / 72.0;
    ((longest * dpi).ceil() as u32).clamp(1, MAX_LONG_SIDE)
}

/// Writes the grey image in `from` to `to` (a PGM) as OCR reads it ([`cleaned_page`]: its
/// table rulings whitened, its light evened out when uneven), and gives it and the rulings.
fn without_rulings(
    from: &Path,
    to: &Path,
) -> Result<(GrayImage, Rulings, Option<EvidencePage>), image::ImageError> {
    let page = image::ImageReader::open(from)?
        .with_guessed_format()?
        .decode()?
        .to_luma8();
    // The evidence is the page as it came, its rules and its light as a person saw them.
    let evidence = EvidencePage::of(&page);
    let (clean, rulings) = cleaned_page(page);
    clean.save_with_format(to, image::ImageFormat::Pnm)?;
    Ok((clean, rulings, evidence))
}

/// The page as OCR reads it, and its rules: the rules found and whitened on the page as it was
/// (evening the light pales a faint rule), then the light evened out when part of the page is
/// far darker than its paper ([`is_uneven`], asked before the whitening takes the dark away).
fn cleaned_page(page: GrayImage) -> (GrayImage, Rulings) {
    let uneven = is_uneven(&page);
    let (clean, rulings) = whiten_rulings(page);
    if uneven {
        (even_light(&clean), rulings)
    } else {
        (clean, rulings)
    }
}

/// The boxes of `words`.
fn word_boxes(words: &[OcrWord]) -> Vec<PixelBox> {
    words
        .iter()
        .map(|w| PixelBox {
            left: w.left as f32,
            top: w.top as f32,
            right: (w.left + w.width) as f32,
            bottom: (w.top + w.height) as f32,
        })
        .collect()
}

/// The median height of the words with a letter or a digit, in pixels (0 with none).
pub(crate) fn text_height(words: &[OcrWord]) -> f32 {
    let mut heights: Vec<u32> = words
        .iter()
        .filter(|w| w.text.chars().any(char::is_alphanumeric))
        .map(|w| w.height)
        .collect();
    heights.sort_unstable();
    heights.get(heights.len() / 2).map_or(0.0, |h| *h as f32)
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

    /// A TIFF of `frames` (width, height, grey) written with Deflate.
    fn tiff_of(frames: &[(u32, u32, bool)]) -> tempfile::NamedTempFile {
        use tiff::encoder::{colortype, Compression, DeflateLevel, TiffEncoder};
        let file = tempfile::NamedTempFile::new().unwrap();
        let mut encoder = TiffEncoder::new(std::fs::File::create(file.path()).unwrap())
            .unwrap()
            .with_compression(Compression::Deflate(DeflateLevel::Fast));
        for &(width, height, grey) in frames {
            let pixels = (width * height) as usize;
            if grey {
                let data: Vec<u8> = (0..pixels).map(|i| (i % 251) as u8).collect();
                encoder
                    .write_image::<colortype::Gray8>(width, height, &data)
                    .unwrap();
            } else {
                let data = vec![200u8; pixels * 3];
                encoder
                    .write_image::<colortype::RGB8>(width, height, &data)
                    .unwrap();
            }
        }
        file
    }

    #[test]
    fn every_frame_of_a_tiff_is_counted_checked_and_turned_grey() {
        // Issue 97: a TIFF of 3 or 500 pages was read as its first.
        let three = tiff_of(&[(120, 80, true), (60, 40, false), (120, 80, true)]);
        assert_eq!(image_pages(three.path()).unwrap(), 3);
        assert_eq!(tiff_frames(three.path()).unwrap(), Some((3, true)));
        let mut decoder = tiff_decoder(three.path()).unwrap();
        decoder.next_image().unwrap();
        let grey = frame_grey(&mut decoder).unwrap();
        assert_eq!((grey.width(), grey.height()), (60, 40));
        assert_eq!(grey.get_pixel(3, 3).0, [200]);
        // A later frame past the pixel bound refuses the file before any frame is decoded.
        let huge = tiff_of(&[(100, 100, true), (8_000, 7_000, true)]);
        let refused = image_pages(huge.path()).unwrap_err();
        assert!(refused.to_string().contains("8000 × 7000"), "{refused}");
        // Not a TIFF: one page.
        let png = tempfile::NamedTempFile::new().unwrap();
        image::GrayImage::new(10, 10)
            .save_with_format(png.path(), image::ImageFormat::Png)
            .unwrap();
        assert_eq!(image_pages(png.path()).unwrap(), 1);
    }

    #[test]
    fn every_frame_of_a_tiff_goes_to_tesseract() {
        let Some(tools) = OcrTools::on_this_machine() else {
            return; // Without Tesseract there is nothing to run (scripts/setup.sh installs it).
        };
        let three = tiff_of(&[(300, 200, true), (300, 200, false), (300, 200, true)]);
        let pages = tools
            .words_of_image(three.path(), &ReadBudget::default())
            .unwrap();
        assert_eq!(pages.len(), 3);
    }

    #[test]
    fn a_decoy_page_size_renders_within_the_pixel_bound() {
        // Issue 97: the reader's page tree said Letter, the catalogue's 5,500 points a side;
        // pdftoppm rendered the real one at the reader's 300 dpi, 525 megapixels.
        let Some(tools) = OcrTools::on_this_machine().filter(|t| t.reads_pdf_pages()) else {
            return;
        };
        let pdf = b"%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [4 0 R] /Count 1 /MediaBox [0 0 5500 5500] >> endobj
3 0 obj << /Type /Pages /Kids [] /Count 0 /MediaBox [0 0 612 792] >> endobj
4 0 obj << /Type /Page /Parent 3 0 R >> endobj
trailer << /Root 1 0 R >>
%%EOF
";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("decoy.pdf");
        std::fs::write(&path, pdf).unwrap();
        let long_side = long_side_for_page(612.0, 792.0);
        assert_eq!(long_side, 3_300);
        let budget = ReadBudget::new(Duration::from_secs(60));
        let page = tools
            .render_pdf_page(&path, 1, long_side, dir.path(), &budget)
            .unwrap();
        let size = image::ImageReader::open(&page)
            .unwrap()
            .with_guessed_format()
            .unwrap()
            .into_dimensions()
            .unwrap();
        // The long side asked for, and a pixel of rounding.
        assert!(size.0.max(size.1) <= 3_301, "{size:?}");
        assert!(size.0 as u64 * size.1 as u64 <= MAX_OCR_PIXELS, "{size:?}");
        // However large a page says it is, the longer side asked for is bounded.
        assert_eq!(long_side_for_page(14_400.0, 200.0), MAX_LONG_SIDE);
    }
}
