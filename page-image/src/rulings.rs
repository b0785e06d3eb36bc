//! The rules drawn on a page's image — a ruled table's lines — found as long runs of ink across
//! or down the page. They are whitened before OCR (Tesseract reads a ruled cell as noise; without
//! its rules it reads the text), and kept as straight lines, each fitted to the pieces of ink it
//! was found in, so that `structure::ruled` can put the words OCR read into the cells the lines
//! draw. A scan is turned by a degree or so, and a photo bent by its perspective: a rule is a
//! line with a slope, not a row of pixels.

use image::GrayImage;

/// A pixel darker than this is ink.
pub const DARK: u8 = 170;
/// How far round a ruling's pixels its fringe is whitened.
const FRINGE: usize = 2;
/// Pieces of ink this many pixels apart across a rule's direction (or fewer) are one rule: a
/// rule a few pixels thick, turned by a degree, steps from one row of pixels to the next.
const STEP: u32 = 2;
/// A rule whose pieces stray further than this many pixels from its fitted line is a filled
/// area (a shaded band, a photo's shadow), not a rule.
const THICKEST: f32 = 6.0;

/// One straight rule on the page: across it (its offset is a y, its extent runs along x) or
/// down it (its offset is an x, its extent along y).
#[derive(Debug, Clone, PartialEq)]
pub struct Ruling {
    /// Where the rule starts and ends along its direction, in pixels.
    pub from: u32,
    /// See `from`.
    pub to: u32,
    /// The rule's offset across its direction where the extent is 0 (the fitted line's
    /// intercept).
    intercept: f32,
    /// How much the offset grows per pixel along the rule (a scan's turn).
    slope: f32,
}

impl Ruling {
    /// The rule's offset across its direction at `along` (its y at an x, for a rule across).
    pub fn offset_at(&self, along: f32) -> f32 {
        self.intercept + self.slope * along
    }

    /// Whether the rule runs through `along`, within `slack` pixels of its ends.
    pub fn covers(&self, along: f32, slack: f32) -> bool {
        self.from as f32 - slack <= along && along <= self.to as f32 + slack
    }

    /// A rule of `offset` across its whole extent, with no slope (for tests and drawings).
    pub fn straight(offset: f32, from: u32, to: u32) -> Ruling {
        Ruling {
            from,
            to,
            intercept: offset,
            slope: 0.0,
        }
    }
}

/// The rules of one page: across (a table's row lines) and down (its column lines).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rulings {
    /// Rules across the page, top to bottom.
    pub across: Vec<Ruling>,
    /// Rules down the page, left to right.
    pub down: Vec<Ruling>,
}

/// `page` with its rules whitened, and the rules: runs of dark pixels longer than any glyph's
/// stroke, across (a row's) or down (a column's) the page, each looked for in a band three
/// pixels wide so that a rule turned by a degree is still one run.
pub fn whiten_rulings(mut page: GrayImage) -> (GrayImage, Rulings) {
    let (width, height) = (page.width() as usize, page.height() as usize);
    let dark: Vec<bool> = page.as_raw().iter().map(|v| *v < DARK).collect();
    let at = |x: usize, y: usize| dark[y * width + x];
    let mut ruling = vec![false; width * height];
    // Across: a row's run of pixels dark in it or a row beside it.
    let across = (width / 25).max(60);
    let mut across_pieces = Vec::new();
    for y in 0..height {
        let band = |x: usize| (y.saturating_sub(1)..=(y + 1).min(height - 1)).any(|r| at(x, r));
        for (start, end) in runs(width, across, band) {
            (start..end).for_each(|x| ruling[y * width + x] |= at(x, y));
            across_pieces.push(Piece::new(y, start, end));
        }
    }
    // Down: a column's run, likewise.
    let down = (height / 33).max(60);
    let mut down_pieces = Vec::new();
    for x in 0..width {
        let band = |y: usize| (x.saturating_sub(1)..=(x + 1).min(width - 1)).any(|c| at(c, y));
        for (start, end) in runs(height, down, band) {
            (start..end).for_each(|y| ruling[y * width + x] |= at(x, y));
            down_pieces.push(Piece::new(x, start, end));
        }
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
    let rulings = Rulings {
        across: rules_of(across_pieces),
        down: rules_of(down_pieces),
    };
    (page, rulings)
}

/// The runs of positions `0..len` where `dark` holds that are at least `longest` long, as
/// `(start, end)` with `end` past the last.
fn runs(len: usize, longest: usize, dark: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut start = None;
    for p in 0..=len {
        let is_dark = p < len && dark(p);
        match (is_dark, start) {
            (true, None) => start = Some(p),
            (false, Some(s)) => {
                if p - s >= longest {
                    found.push((s, p));
                }
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// Items joined two at a time into sets (union–find): the pieces of one rule, the rules of
/// one grid.
pub(crate) struct Joined {
    parent: Vec<usize>,
}

impl Joined {
    /// `items` sets of one item each.
    pub(crate) fn new(items: usize) -> Joined {
        Joined {
            parent: (0..items).collect(),
        }
    }

    /// The item that names the set `item` is in.
    pub(crate) fn root(&mut self, mut item: usize) -> usize {
        while self.parent[item] != item {
            self.parent[item] = self.parent[self.parent[item]];
            item = self.parent[item];
        }
        item
    }

    /// Joins the sets of `a` and `b`.
    pub(crate) fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        self.parent[ra] = rb;
    }
}

/// One run of ink found along a rule's direction: at an offset across it, from `start` to
/// `end` along it.
#[derive(Debug, Clone, Copy)]
struct Piece {
    offset: u32,
    start: u32,
    end: u32,
}

impl Piece {
    fn new(offset: usize, start: usize, end: usize) -> Piece {
        let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Piece {
            offset: clamp(offset),
            start: clamp(start),
            end: clamp(end),
        }
    }
}

/// The pieces joined into rules (pieces at most [`STEP`] apart across and touching along are
/// one rule), each fitted to a straight line; filled areas left out. `pieces` come in order of
/// their offset.
fn rules_of(pieces: Vec<Piece>) -> Vec<Ruling> {
    let mut joined = Joined::new(pieces.len());
    // Pieces are in order of offset: each is compared with those up to STEP before it only.
    let mut window_start = 0;
    for i in 0..pieces.len() {
        while pieces[i].offset > pieces[window_start].offset + STEP {
            window_start += 1;
        }
        for j in window_start..i {
            let (a, b) = (pieces[i], pieces[j]);
            if a.start <= b.end + STEP && b.start <= a.end + STEP {
                joined.join(i, j);
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<Piece>> = Default::default();
    for (i, piece) in pieces.iter().enumerate() {
        groups.entry(joined.root(i)).or_default().push(*piece);
    }
    let mut rules: Vec<Ruling> = groups.into_values().filter_map(|g| fitted(&g)).collect();
    rules.sort_by(|a, b| a.offset_at(0.0).total_cmp(&b.offset_at(0.0)));
    rules
}

/// The straight line through a rule's pieces (least squares over both ends of each piece,
/// weighted by its length), or `None` when the pieces are a filled area rather than a line.
/// Both ends, not the middle: the pieces of a rule drawn straight all have one middle, and a
/// line through one point has any slope.
fn fitted(pieces: &[Piece]) -> Option<Ruling> {
    let from = pieces.iter().map(|p| p.start).min()?;
    let to = pieces.iter().map(|p| p.end).max()?;
    let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0f64, 0.0, 0.0, 0.0, 0.0);
    for p in pieces {
        let w = f64::from(p.end - p.start) / 2.0;
        let y = f64::from(p.offset);
        for x in [f64::from(p.start), f64::from(p.end)] {
            sw += w;
            sx += w * x;
            sy += w * y;
            sxx += w * x * x;
            sxy += w * x * y;
        }
    }
    let spread = sxx - sx * sx / sw;
    let slope = if spread > 1e-9 {
        (sxy - sx * sy / sw) / spread
    } else {
        0.0
    };
    let intercept = (sy - slope * sx) / sw;
    let rule = Ruling {
        from,
        to,
        intercept: intercept as f32,
        slope: slope as f32,
    };
    // A filled area's pieces lie across many offsets at the same place along it.
    let thick = pieces.iter().any(|p| {
        let middle = (p.start + p.end) as f32 / 2.0;
        (p.offset as f32 - rule.offset_at(middle)).abs() > THICKEST
    });
    (!thick).then_some(rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A white page with a table's grid drawn on it: rows across at `ys`, columns down at `xs`,
    /// `thick` pixels each, the whole turned by `turn` pixels of y per 1,000 pixels of x.
    fn grid_page(ys: &[u32], xs: &[u32], thick: u32, turn: f32) -> GrayImage {
        let mut page = GrayImage::from_pixel(1200, 900, image::Luma([255]));
        let (left, right) = (xs[0], *xs.last().unwrap());
        let (top, bottom) = (ys[0], *ys.last().unwrap());
        let shift = |x: u32| (x as f32 * turn / 1000.0).round() as u32;
        for &y in ys {
            for x in left..=right {
                for t in 0..thick {
                    page.put_pixel(x, y + shift(x) + t, image::Luma([20]));
                }
            }
        }
        for &x in xs {
            for y in top..=bottom {
                for t in 0..thick {
                    page.put_pixel(x + t, y + shift(x), image::Luma([20]));
                }
            }
        }
        page
    }

    #[test]
    fn a_turned_grid_is_found_as_its_lines_and_whitened() {
        let page = grid_page(&[100, 160, 220, 280], &[100, 500, 900], 3, 15.0);
        let (clean, rulings) = whiten_rulings(page);
        assert_eq!(rulings.across.len(), 4, "{rulings:?}");
        assert_eq!(rulings.down.len(), 3, "{rulings:?}");
        // The second row line, 15 pixels lower at x = 1,000 than at x = 0.
        let second = &rulings.across[1];
        assert!((second.offset_at(100.0) - 162.5).abs() < 2.5, "{second:?}");
        assert!((second.offset_at(900.0) - 174.5).abs() < 2.5, "{second:?}");
        assert!(second.covers(100.0, 0.0) && second.covers(900.0, 2.0));
        assert!(!second.covers(1000.0, 10.0));
        assert!(clean.as_raw().iter().all(|v| *v == 255));
    }

    #[test]
    fn a_straight_rule_several_pixels_thick_has_no_slope() {
        // Every row of the rule's pixels is one piece of the same extent.
        let page = grid_page(&[100, 400], &[100, 900], 5, 0.0);
        let (_, rulings) = whiten_rulings(page);
        for rule in rulings.across.iter().chain(&rulings.down) {
            assert!(rule.slope.abs() < 1e-3, "{rule:?}");
        }
    }

    #[test]
    fn a_filled_area_and_text_are_no_rules() {
        let mut page = GrayImage::from_pixel(1200, 900, image::Luma([255]));
        // A shaded band 40 pixels tall across the page.
        for y in 300..340 {
            for x in 50..1150 {
                page.put_pixel(x, y, image::Luma([60]));
            }
        }
        // Letters: short strokes, none 60 pixels long.
        for n in 0..40 {
            for y in 500..530 {
                page.put_pixel(100 + n * 20, y, image::Luma([0]));
            }
        }
        let (_, rulings) = whiten_rulings(page);
        assert!(rulings.across.is_empty(), "{rulings:?}");
        assert!(rulings.down.is_empty(), "{rulings:?}");
    }
}
