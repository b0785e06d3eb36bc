//! A page image kept small as evidence and cut into crops (issue 100): the page OCR read,
//! scaled down and held as a PNG in 16 shades until the boxes of its blocks are cut from it,
//! each crop a small grey PNG a person checks a number read by OCR against. Pixels and boxes
//! in, PNGs out.

use std::io::Cursor;

use image::imageops;
use image::GrayImage;

/// The longer side of a page kept for evidence, in pixels: about 130 dpi for an A4 page
/// scanned at 300, where 10-point text is 18 pixels tall.
const EVIDENCE_LONG_SIDE: u32 = 1600;
/// The tallest crop kept, in pixels of the kept page: a taller box shows its first lines.
pub const CROP_MAX_HEIGHT: u32 = 360;
/// The widest crop kept, in pixels: a wider one is scaled down to it.
const CROP_MAX_WIDTH: u32 = 1000;
/// The most bytes one crop's PNG may take: a larger one is made smaller (a paragraph of a
/// grainy photo); about 10 KB a line of a photographed receipt, 3 KB a ruled row of a scan.
pub const CROP_MAX_BYTES: usize = 32 * 1024;
/// The narrowest a crop is made to fit its bytes: below it, it is not kept.
const MIN_WIDTH: u32 = 240;
/// The white kept above and below a crop's lines, in line heights: less than the gap to the
/// next line, whose letters would show cut in half.
const MARGIN: f32 = 0.2;
/// The white kept left and right of a crop's lines, in line heights.
const SIDE_MARGIN: f32 = 0.5;

/// A page as OCR read it, scaled down and kept as a PNG in 16 shades until its blocks are cut
/// from it: a few hundred kilobytes a page, not the megabytes of its pixels (a scan of 300
/// pages is read whole before it is laid out).
#[derive(Clone, PartialEq)]
pub struct EvidencePage {
    png: Vec<u8>,
    /// The kept page's pixels per pixel of the page OCR read.
    scale: f32,
}

impl std::fmt::Debug for EvidencePage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "EvidencePage({} bytes, scale {})",
            self.png.len(),
            self.scale
        )
    }
}

/// A box of lines in the pixels of the page OCR read, and the height of its lines (its margin
/// is measured in them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinesBox {
    /// Its left edge.
    pub left: u32,
    /// Its top edge.
    pub top: u32,
    /// Its right edge.
    pub right: u32,
    /// Its bottom edge.
    pub bottom: u32,
    /// The height of its lines.
    pub line_height: u32,
}

/// A kept page opened to be cut: its pixels and their scale.
pub struct OpenPage {
    image: GrayImage,
    scale: f32,
}

impl EvidencePage {
    /// `page` (the image OCR reads, before its rules are taken out) scaled down to at most
    /// [`EVIDENCE_LONG_SIDE`] pixels on its longer side; `None` if it cannot be written.
    pub fn of(page: &GrayImage) -> Option<Self> {
        let long = page.width().max(page.height()).max(1);
        let scale = (EVIDENCE_LONG_SIDE as f32 / long as f32).min(1.0);
        let width = ((page.width() as f32 * scale).round() as u32).max(1);
        let height = ((page.height() as f32 * scale).round() as u32).max(1);
        // `thumbnail` averages the pixels each kept one covers: a page at 300 dpi in a tenth of
        // the time a filtered resize takes.
        let mut image = if scale < 1.0 {
            imageops::thumbnail(page, width, height)
        } else {
            page.clone()
        };
        sixteen_shades(&mut image);
        Some(Self {
            png: png_of(&image)?,
            scale,
        })
    }

    /// The page's pixels, to cut its crops from; `None` if its PNG does not decode.
    pub fn open(&self) -> Option<OpenPage> {
        let image = image::load_from_memory_with_format(&self.png, image::ImageFormat::Png)
            .ok()?
            .to_luma8();
        Some(OpenPage {
            image,
            scale: self.scale,
        })
    }
}

impl OpenPage {
    /// `lines` of the page (with a margin of white round them, within the page) as a grey PNG
    /// in 16 shades, at most [`CROP_MAX_WIDTH`] × [`CROP_MAX_HEIGHT`] and [`CROP_MAX_BYTES`]
    /// (made smaller to fit them); `None` when it would be too small to read.
    pub fn crop_png(&self, lines: LinesBox) -> Option<Vec<u8>> {
        let [margin, side] = [MARGIN, SIDE_MARGIN].map(|m| m * lines.line_height as f32);
        let to_kept = |x: f32| (x * self.scale).max(0.0) as u32;
        let left = to_kept(lines.left as f32 - side).min(self.image.width());
        let top = to_kept(lines.top as f32 - margin).min(self.image.height());
        let right = to_kept(lines.right as f32 + side).min(self.image.width());
        let bottom = to_kept(lines.bottom as f32 + margin).min(self.image.height());
        let (width, height) = (right.saturating_sub(left), bottom.saturating_sub(top));
        if width < 4 || height < 4 {
            return None;
        }
        let area = imageops::crop_imm(&self.image, left, top, width, height.min(CROP_MAX_HEIGHT));
        let mut crop = area.to_image();
        if crop.width() > CROP_MAX_WIDTH {
            crop = scaled(&crop, CROP_MAX_WIDTH as f32 / crop.width() as f32);
        }
        sixteen_shades(&mut crop);
        // Too many bytes: smaller, twice at most, never below a legible width.
        let mut png = png_of(&crop)?;
        for _ in 0..2 {
            if png.len() <= CROP_MAX_BYTES {
                break;
            }
            let factor = (CROP_MAX_BYTES as f32 / png.len() as f32).sqrt() * 0.9;
            if (crop.width() as f32 * factor) < MIN_WIDTH as f32 {
                return None;
            }
            crop = scaled(&crop, factor);
            png = png_of(&crop)?;
        }
        (png.len() <= CROP_MAX_BYTES).then_some(png)
    }
}

/// Sixteen shades read as well as 256 and keep a photo's grain from filling a PNG.
fn sixteen_shades(image: &mut GrayImage) {
    for pixel in image.pixels_mut() {
        pixel.0[0] = (pixel.0[0] & 0xf0) | (pixel.0[0] >> 4);
    }
}

/// `image` scaled by `factor`.
fn scaled(image: &GrayImage, factor: f32) -> GrayImage {
    let width = ((image.width() as f32 * factor) as u32).max(1);
    let height = ((image.height() as f32 * factor) as u32).max(1);
    imageops::thumbnail(image, width, height)
}

/// `image` as a PNG.
fn png_of(image: &GrayImage) -> Option<Vec<u8>> {
    let mut png = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
        .ok()?;
    Some(png)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crop_is_cut_from_the_scaled_page_within_its_bounds() {
        // A page of 3,200 × 2,000 pixels is kept at half its size.
        let kept =
            EvidencePage::of(&GrayImage::from_pixel(3200, 2000, image::Luma([255]))).unwrap();
        let page = kept.open().unwrap();
        assert_eq!(page.image.dimensions(), (1600, 1000));
        let lines = LinesBox {
            left: 100,
            top: 200,
            right: 900,
            bottom: 240,
            line_height: 40,
        };
        let png = page.crop_png(lines).unwrap();
        let crop = image::load_from_memory(&png).unwrap();
        // 800 × 40 pixels with 20 of margin each side and 8 above and below, halved.
        assert_eq!((crop.width(), crop.height()), (420, 28));
        // A box taller than the bound shows its first lines.
        let tall = LinesBox {
            bottom: 1900,
            ..lines
        };
        let png = page.crop_png(tall).unwrap();
        assert_eq!(
            image::load_from_memory(&png).unwrap().height(),
            CROP_MAX_HEIGHT
        );
        // Noise no PNG compresses is made smaller until it fits, or not kept.
        let mut noise = GrayImage::new(1600, 1000);
        let mut state = 7u32;
        for pixel in noise.pixels_mut() {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            pixel.0[0] = (state >> 16) as u8;
        }
        let noisy = EvidencePage::of(&noise).unwrap().open().unwrap();
        let wide = LinesBox {
            left: 0,
            top: 0,
            right: 1600,
            bottom: 300,
            line_height: 30,
        };
        assert!(noisy
            .crop_png(wide)
            .is_none_or(|png| png.len() <= CROP_MAX_BYTES));
    }
}
