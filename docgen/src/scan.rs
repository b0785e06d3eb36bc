//! Pages printed and spoilt as a scanner or a phone spoils them (issue 89): a generated
//! document's HTML printed by Chromium (tables ruled or not), rendered to pixels by poppler,
//! then rotated slightly and speckled at 300 or 200 dpi, or photographed (perspective, uneven
//! light, blur, JPEG), and written back as a scanner's image-only PDF or a phone's JPEG. The
//! same seed spoils a page the same way.

use std::path::{Path, PathBuf};
use std::process::Command;

use image::{GrayImage, Luma};

use crate::model::{Block, Document};
use crate::render::{render, Format};
use crate::DocgenError;

/// How a page is spoilt before it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Condition {
    /// Scanned at 300 dpi: rotated by up to 1°, with speckle.
    Scan300,
    /// Scanned at 200 dpi: rotated by up to 1°, with speckle.
    Scan200,
    /// Photographed: perspective, uneven light, blur and JPEG, at about 200 dpi.
    Photo,
}

impl Condition {
    /// Every condition, in the report's order.
    pub const ALL: [Condition; 3] = [Condition::Scan300, Condition::Scan200, Condition::Photo];

    /// The resolution the page is rendered at before it is spoilt.
    pub fn dpi(self) -> u32 {
        match self {
            Condition::Scan300 => 300,
            Condition::Scan200 | Condition::Photo => 200,
        }
    }

    /// The condition's name as a folder's.
    pub fn slug(self) -> &'static str {
        match self {
            Condition::Scan300 => "scan300",
            Condition::Scan200 => "scan200",
            Condition::Photo => "photo",
        }
    }

    /// The condition's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Condition::Scan300 => "scan 300 dpi",
            Condition::Scan200 => "scan 200 dpi",
            Condition::Photo => "photo",
        }
    }
}

/// Writes each PDF of `pdfs` (or an HTML page, printed first) as `condition` spoils it, for
/// every condition: `DIR/CONDITION/NAME.pdf`, the pages as images only (a scanner's PDF, or a
/// phone's scanning app's of its photos), or `NAME.jpg` for a photo of one page. The
/// collections answered from scans are made so.
pub fn write_scans(
    files: &[PathBuf],
    conditions: &[Condition],
    out: &Path,
) -> Result<usize, DocgenError> {
    let print = |file: &Path, work: &Path| {
        if file.extension().is_some_and(|e| e == "pdf") {
            Ok(file.to_path_buf())
        } else {
            print_page(&std::fs::read_to_string(file)?, false, true, work)
        }
    };
    let spoil_page = |page: &GrayImage, condition: Condition, n: usize, p: usize| {
        spoil(page, condition, 7919 * (n as u64 + 1) + p as u64)
    };
    write_spoilt_files(files, conditions, out, print, spoil_page)
}

/// Each file of `files` printed to a PDF by `print` (given a work folder), its pages spoilt by
/// `spoil` (page, condition, the condition's place in `conditions`, the page's number) and
/// written for every condition ([`write_spoilt`]); how many files were written.
pub(crate) fn write_spoilt_files(
    files: &[PathBuf],
    conditions: &[Condition],
    out: &Path,
    print: impl Fn(&Path, &Path) -> Result<PathBuf, DocgenError>,
    spoil: impl Fn(&GrayImage, Condition, usize, usize) -> GrayImage,
) -> Result<usize, DocgenError> {
    let work = tempfile::tempdir()?;
    let mut written = 0;
    for file in files {
        let name = stem_of(file)?;
        let pdf = print(file, work.path())?;
        for (n, condition) in conditions.iter().enumerate() {
            let pages = pixels(&pdf, condition.dpi(), work.path())?;
            let spoilt: Vec<GrayImage> = pages
                .iter()
                .enumerate()
                .map(|(p, page)| spoil(page, *condition, n, p))
                .collect();
            written += write_spoilt(&name, &spoilt, *condition, out)?;
        }
    }
    Ok(written)
}

/// The name a file is written under spoilt: its own name without its extension.
pub(crate) fn stem_of(file: &Path) -> Result<String, DocgenError> {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .ok_or_else(|| DocgenError::NoFileName(file.to_path_buf()))
}

/// Writes the spoilt pages of the file `name` to `out/CONDITION/`: a photo of one page as the
/// phone's JPEG, anything else as a scanner's (or a scanning app's) image-only PDF. Gives the
/// number of files written.
pub fn write_spoilt(
    name: &str,
    spoilt: &[GrayImage],
    condition: Condition,
    out: &Path,
) -> Result<usize, DocgenError> {
    let dir = out.join(condition.slug());
    std::fs::create_dir_all(&dir)?;
    if condition == Condition::Photo && spoilt.len() == 1 {
        let mut jpeg = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 80)
            .encode_image(&spoilt[0])?;
        std::fs::write(dir.join(format!("{name}.jpg")), jpeg)?;
    } else {
        std::fs::write(
            dir.join(format!("{name}.pdf")),
            scanned_pdf(spoilt, condition.dpi())?,
        )?;
    }
    Ok(1)
}

/// The document printed to PDF from its HTML page, as a browser prints it (A4, landscape when
/// a table is wider than a portrait page holds).
pub fn print(document: &Document, ruled: bool, dir: &Path) -> Result<PathBuf, DocgenError> {
    let widest = document
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t.header_paths().len()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let page = String::from_utf8_lossy(&render(document, Format::Html)).into_owned();
    print_page(&page, widest > 8, ruled, dir)
}

/// An HTML page printed to PDF by Chromium, with the print style of the scans.
pub fn print_page(
    page: &str,
    landscape: bool,
    ruled: bool,
    dir: &Path,
) -> Result<PathBuf, DocgenError> {
    let border = if ruled { "1px solid #222" } else { "none" };
    let style = format!(
        "<style>@page{{size:A4 {};margin:14mm}} body{{font-family:'DejaVu Serif',serif;\
         font-size:11pt}} table{{border-collapse:collapse;font-size:10pt;margin:8pt 0}} \
         th,td{{white-space:nowrap;padding:2px 8px;border:{border};text-align:left}} \
         a{{color:#000;text-decoration:none}} dt{{display:inline}} dt::after{{content:': '}} \
         dd{{display:inline;margin:0}} dd::after{{content:'\\A';white-space:pre}}</style>",
        if landscape { "landscape" } else { "portrait" }
    );
    print_html(page, &style, dir)
}

/// An HTML page printed to PDF by Chromium, `style` (a `<style>` element) added to its head.
pub fn print_html(page: &str, style: &str, dir: &Path) -> Result<PathBuf, DocgenError> {
    let page = match page.find("</head>") {
        Some(at) => format!("{}{style}{}", &page[..at], &page[at..]),
        None => format!("{style}{page}"),
    };
    let html = dir.join("page.html");
    std::fs::write(&html, page)?;
    let pdf = dir.join("printed.pdf");
    let _ = std::fs::remove_file(&pdf);
    run(
        "chromium",
        &[
            "--headless".as_ref(),
            "--no-sandbox".as_ref(),
            "--disable-gpu".as_ref(),
            "--disable-quic".as_ref(),
            "--no-first-run".as_ref(),
            "--disable-background-networking".as_ref(),
            "--disable-component-update".as_ref(),
            "--disable-sync".as_ref(),
            format!("--user-data-dir={}", dir.join("chromium").display()).as_ref(),
            "--no-pdf-header-footer".as_ref(),
            format!("--print-to-pdf={}", pdf.display()).as_ref(),
            format!("file://{}", html.display()).as_ref(),
        ],
    )?;
    if !pdf.is_file() {
        return Err(DocgenError::NothingPrinted);
    }
    Ok(pdf)
}

/// The PDF's pages as grey images at `dpi`.
pub fn pixels(pdf: &Path, dpi: u32, dir: &Path) -> Result<Vec<GrayImage>, DocgenError> {
    let prefix = dir.join("pixels");
    for old in std::fs::read_dir(dir)?.flatten() {
        if old.file_name().to_string_lossy().starts_with("pixels") {
            std::fs::remove_file(old.path())?;
        }
    }
    run(
        "pdftoppm",
        &[
            "-r".as_ref(),
            dpi.to_string().as_ref(),
            "-gray".as_ref(),
            "-png".as_ref(),
            pdf.as_os_str(),
            prefix.as_os_str(),
        ],
    )?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("pixels"))
        })
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| Ok(image::open(f)?.to_luma8()))
        .collect()
}

/// A page spoilt as `condition` spoils it, the same for the same `seed`.
pub fn spoil(page: &GrayImage, condition: Condition, seed: u64) -> GrayImage {
    let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let (w, h) = (page.width() as f32, page.height() as f32);
    let angle = (random.unit() * 2.0 - 1.0) * 1.0f32.to_radians();
    // Where each pixel of the result comes from: a rotation about the centre and, for a photo,
    // a perspective (the top edge narrower, as a phone held above the page sees it).
    let squeeze = if condition == Condition::Photo {
        0.06 + 0.04 * random.unit()
    } else {
        0.0
    };
    let (sin, cos) = angle.sin_cos();
    let mut out = GrayImage::new(page.width(), page.height());
    for y in 0..page.height() {
        let fy = y as f32 / h;
        // The row's width in the photo: narrower at the top.
        let scale = 1.0 - squeeze * (1.0 - fy);
        for x in 0..page.width() {
            let dx = (x as f32 - w / 2.0) / scale;
            let dy = y as f32 - h / 2.0;
            let sx = cos * dx + sin * dy + w / 2.0;
            let sy = -sin * dx + cos * dy + h / 2.0;
            let mut value = sample(page, sx, sy);
            if condition == Condition::Photo {
                // Light falling off across the page.
                value *= 0.78 + 0.22 * (1.0 - (x as f32 / w) * 0.6 - fy * 0.4);
            }
            let noise = (random.unit() - 0.5)
                * if condition == Condition::Photo {
                    24.0
                } else {
                    10.0
                };
            let speck = random.unit() < 0.0004;
            let value = if speck { 30.0 } else { value + noise };
            out.put_pixel(x, y, Luma([value.clamp(0.0, 255.0) as u8]));
        }
    }
    // A scanner's optics and a phone's soften the page.
    out = image::imageops::blur(
        &out,
        if condition == Condition::Photo {
            0.8
        } else {
            0.5
        },
    );
    out
}

/// The page's grey value at a point, bilinear; white outside the page.
fn sample(page: &GrayImage, x: f32, y: f32) -> f32 {
    if x < 0.0 || y < 0.0 || x >= (page.width() - 1) as f32 || y >= (page.height() - 1) as f32 {
        return 255.0;
    }
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let at = |x, y| page.get_pixel(x, y).0[0] as f32;
    let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
    let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
    top * (1.0 - fy) + bottom * fy
}

/// A small deterministic random source (xorshift), so that a seed spoils a page the same way.
struct Random(u64);

impl Random {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A PDF whose pages are the images and nothing else, each a JPEG, as a scanner writes one.
pub fn scanned_pdf(pages: &[GrayImage], dpi: u32) -> Result<Vec<u8>, DocgenError> {
    let mut objects: Vec<Vec<u8>> = vec![b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(), Vec::new()];
    let mut kids = Vec::new();
    for page in pages {
        let mut data = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut data, 90).encode_image(page)?;
        let mut image = format!(
            "<< /Type /XObject /Subtype /Image /Width {} /Height {} /ColorSpace /DeviceGray \
             /BitsPerComponent 8 /Filter /DCTDecode /Length {} >>\nstream\n",
            page.width(),
            page.height(),
            data.len()
        )
        .into_bytes();
        image.extend(data);
        image.extend(b"\nendstream");
        objects.push(image);
        let image_ref = objects.len();
        let (w, h) = (
            page.width() as f32 * 72.0 / dpi as f32,
            page.height() as f32 * 72.0 / dpi as f32,
        );
        let content = format!("q {w:.2} 0 0 {h:.2} 0 0 cm /Im1 Do Q");
        objects.push(
            format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len()
            )
            .into_bytes(),
        );
        let content_ref = objects.len();
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w:.2} {h:.2}] /Contents \
                 {content_ref} 0 R /Resources << /XObject << /Im1 {image_ref} 0 R >> >> >>"
            )
            .into_bytes(),
        );
        kids.push(format!("{} 0 R", objects.len()));
    }
    objects[1] = format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        kids.join(" "),
        kids.len()
    )
    .into_bytes();
    Ok(crate::pdf_file::pdf_of(&objects))
}

/// Runs a tool to its end and gives its standard output; `Err` naming the tool when it is
/// missing or fails.
pub fn run(program: &'static str, args: &[&std::ffi::OsStr]) -> Result<String, DocgenError> {
    let output = Command::new(program)
        .args(args)
        .output()
        .map_err(|source| DocgenError::Missing { program, source })?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(DocgenError::Failed {
            program,
            said: said.lines().last().unwrap_or("").to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
