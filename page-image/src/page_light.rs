//! A page image's light evened out before OCR (issue 100): each pixel divided by the paper's
//! brightness around it, so the paper reads white wherever it lies. A receipt photographed on a
//! table, or a grey slip scanned on a white bed, otherwise leaves Tesseract's global threshold
//! between the paper and what lies round it — the whole slip turns black and no word is read —
//! and a photo's light falling off across the page fades one side's words.

use image::{GrayImage, Luma};

/// The side of the square blocks the paper's brightness is measured in, in pixels.
const BLOCK: u32 = 24;
/// How many blocks round a block the paper's brightness is taken from (a block inside a large
/// letter holds no paper).
const REACH: i64 = 2;
/// Below this brightness a block's neighbourhood is not paper but what the paper lies on (a
/// black table, a scanner's lid): it is made white, not brightened into specks of ink.
const DARKEST_PAPER: f32 = 40.0;
/// The share of a block's pixels darker than its paper's brightness (the rest is paper's
/// noise above it).
const PAPER_SHARE: f32 = 0.7;
/// A page is uneven ([`is_uneven`]) where the paper round its edge is darker than this share of
/// its brightest paper along at least [`DARK_EDGE`] of the edge: a slip on a table is far darker
/// all round it. Other pages are read as they are: evened, a scan's or a photo's page read the
/// same words but Tesseract split its columns and lists differently (the scans' tuning part:
/// unruled cells 40.1 → 24.6% at 300 dpi, lists 41.3 → 30.7% photographed), and a dark logo or
/// shaded band inside a page does not make it uneven.
const UNEVEN_BELOW: f32 = 0.6;
/// The share of the blocks round a page's edge that must be dark for it to be uneven.
const DARK_EDGE: f32 = 0.25;
/// Paper this bright against the paper round it, and brighter, reads white: its noise is not
/// taken for specks of ink.
const WHITE_FROM: f32 = 0.9;

/// Whether part of `page` is far darker than its paper ([`UNEVEN_BELOW`]): a slip lying on a
/// table, not a page's light falling off. Asked of the page as it was photographed, before
/// its rules are whitened (a table round the slip is one long run of ink, whitened with them).
pub fn is_uneven(page: &GrayImage) -> bool {
    if page.width() == 0 || page.height() == 0 {
        return false;
    }
    let paper = paper_brightness(page);
    let brightest = paper.values.iter().copied().fold(0.0, f32::max);
    let (columns, rows) = (paper.columns, paper.rows);
    let edge: Vec<f32> = (0..rows)
        .flat_map(|y| (0..columns).map(move |x| (x, y)))
        .filter(|&(x, y)| x == 0 || y == 0 || x + 1 == columns || y + 1 == rows)
        .map(|(x, y)| paper.values[(y * columns + x) as usize])
        .collect();
    let dark = edge
        .iter()
        .filter(|&&light| light < UNEVEN_BELOW * brightest)
        .count();
    dark as f32 >= DARK_EDGE * edge.len() as f32
}

/// `page` with its light evened out: every pixel over the brightest paper near it, paper
/// within [`WHITE_FROM`] of it white.
pub fn even_light(page: &GrayImage) -> GrayImage {
    let (width, height) = page.dimensions();
    if width == 0 || height == 0 {
        return page.clone();
    }
    let paper = paper_brightness(page);
    GrayImage::from_fn(width, height, |x, y| {
        let light = paper.at(x as f32, y as f32);
        if light < DARKEST_PAPER {
            return Luma([255]);
        }
        let value = f32::from(page.get_pixel(x, y).0[0]) * 255.0 / (light * WHITE_FROM);
        Luma([value.round().min(255.0) as u8])
    })
}

/// The brightness below which [`PAPER_SHARE`] of a block's pixels lie, from its histogram.
fn share_point(histogram: &[u32; 256]) -> f32 {
    let pixels: u32 = histogram.iter().sum();
    let below = (pixels as f32 * PAPER_SHARE) as u32;
    let mut seen = 0;
    for (value, n) in histogram.iter().enumerate() {
        seen += n;
        if seen > below {
            return value as f32;
        }
    }
    255.0
}

/// The paper's brightness per block, read between blocks' centres.
struct Paper {
    columns: u32,
    rows: u32,
    values: Vec<f32>,
}

impl Paper {
    /// The paper's brightness at a pixel, interpolated between the centres of the blocks round it.
    fn at(&self, x: f32, y: f32) -> f32 {
        let fx = (x / BLOCK as f32 - 0.5).clamp(0.0, (self.columns - 1) as f32);
        let fy = (y / BLOCK as f32 - 0.5).clamp(0.0, (self.rows - 1) as f32);
        let (x0, y0) = (fx.floor() as u32, fy.floor() as u32);
        let (x1, y1) = ((x0 + 1).min(self.columns - 1), (y0 + 1).min(self.rows - 1));
        let (tx, ty) = (fx - x0 as f32, fy - y0 as f32);
        let v = |x: u32, y: u32| self.values[(y * self.columns + x) as usize];
        let top = v(x0, y0) * (1.0 - tx) + v(x1, y0) * tx;
        let bottom = v(x0, y1) * (1.0 - tx) + v(x1, y1) * tx;
        top * (1.0 - ty) + bottom * ty
    }
}

/// Each block's paper brightness: the brightest of its neighbourhood's blocks, each block's
/// brightness its [`PAPER_SHARE`] percentile (words cover less of a block than that, and a
/// speck of noise brighter than the paper does not count).
fn paper_brightness(page: &GrayImage) -> Paper {
    let (width, height) = page.dimensions();
    let columns = width.div_ceil(BLOCK);
    let rows = height.div_ceil(BLOCK);
    // One row of blocks' histograms at a time: a 50-megapixel page's every block at once
    // would take 90 MB.
    let mut brightest: Vec<f32> = Vec::with_capacity((columns * rows) as usize);
    let mut histograms = vec![[0u32; 256]; columns as usize];
    for block_row in 0..rows {
        histograms.iter_mut().for_each(|h| *h = [0; 256]);
        for y in block_row * BLOCK..((block_row + 1) * BLOCK).min(height) {
            for x in 0..width {
                let value = usize::from(page.get_pixel(x, y).0[0]);
                histograms[(x / BLOCK) as usize][value] += 1;
            }
        }
        brightest.extend(histograms.iter().map(share_point));
    }
    let mut values = vec![0f32; brightest.len()];
    for by in 0..rows as i64 {
        for bx in 0..columns as i64 {
            let mut best = 0f32;
            for ny in (by - REACH).max(0)..=(by + REACH).min(rows as i64 - 1) {
                for nx in (bx - REACH).max(0)..=(bx + REACH).min(columns as i64 - 1) {
                    best = best.max(brightest[(ny * columns as i64 + nx) as usize]);
                }
            }
            values[(by * columns as i64 + bx) as usize] = best;
        }
    }
    Paper {
        columns,
        rows,
        values,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grey slip (paper 200, ink 90) on a dark table (80), light falling off to the right.
    fn slip_on_a_table() -> GrayImage {
        GrayImage::from_fn(400, 300, |x, y| {
            let shade = 1.0 - 0.3 * x as f32 / 400.0;
            let on_slip = (100..300).contains(&x) && (50..250).contains(&y);
            let ink = on_slip && (120..280).contains(&x) && (140..150).contains(&y) && x % 7 < 4;
            let value = if ink {
                90.0
            } else if on_slip {
                200.0
            } else {
                80.0
            };
            Luma([(value * shade) as u8])
        })
    }

    #[test]
    fn the_paper_reads_white_and_the_ink_stays_dark_wherever_the_light_falls() {
        let even = even_light(&slip_on_a_table());
        for x in [130, 200, 270] {
            assert!(even.get_pixel(x, 100).0[0] >= 245, "paper at {x}");
        }
        for x in [120, 197, 274] {
            let ink = even.get_pixel(x, 145).0[0];
            assert!((100..140).contains(&ink), "ink at {x}: {ink}");
        }
        // The table far from the slip is taken for paper too: it carries no words.
        assert!(even.get_pixel(20, 20).0[0] >= 245);
    }

    #[test]
    fn a_slip_on_a_table_is_uneven_and_a_page_whose_light_falls_off_is_not() {
        assert!(is_uneven(&slip_on_a_table()));
        let falling = GrayImage::from_fn(300, 200, |x, _| Luma([250 - (x / 6) as u8]));
        assert!(!is_uneven(&falling));
    }

    #[test]
    fn a_dark_logo_inside_a_page_does_not_make_it_uneven_and_a_black_surround_turns_white() {
        let logo = GrayImage::from_fn(480, 480, |x, y| {
            Luma([if (200..300).contains(&x) && (200..300).contains(&y) {
                30
            } else {
                250
            }])
        });
        assert!(!is_uneven(&logo));
        let on_black = GrayImage::from_fn(300, 300, |x, y| {
            Luma([if (100..200).contains(&x) && (100..200).contains(&y) {
                220
            } else {
                10
            }])
        });
        assert!(is_uneven(&on_black));
        assert_eq!(even_light(&on_black).get_pixel(5, 5).0[0], 255);
    }

    #[test]
    fn a_white_page_is_left_as_it_was() {
        let page = GrayImage::from_fn(120, 90, |x, y| {
            Luma([if (30..60).contains(&x) && y == 40 {
                0
            } else {
                255
            }])
        });
        assert_eq!(even_light(&page), page);
    }
}
