//! Ink on a page that OCR read no word from (issue 100). Tesseract's page segmentation drops
//! text it cannot fit into its blocks: a receipt's price column far to the right of the
//! items' names, a number alone at the end of a line. Such ink is found here as line-sized
//! boxes, to be read again one line at a time.
//!
//! The ink not under any word is smeared along each row across gaps narrower than a letter's
//! height (so a word or a price is one run), the runs that touch from row to row are joined,
//! and each piece as tall as a line of text, and wider than a speck, is a box to read.

use image::GrayImage;

use crate::rule_grid::PixelBox;
use crate::rulings::{Joined, DARK};

/// The most boxes of one page given back (each is read again as a line).
pub const MOST_LINES: usize = 200;
/// The most runs of unread ink looked at on one page (a page of text has a few tens of
/// thousands; a page of noise far more, and nothing on it worth reading again).
const MOST_RUNS: usize = 1_000_000;
/// A piece is a line of text when its height is within these many text heights.
const LINE_HEIGHTS: (f32, f32) = (0.55, 2.2);
/// A piece holds text when it is at least this many text heights wide.
const LEAST_WIDTH: f32 = 0.8;
/// A piece holds text when at least this share of its box is ink (a smear of noise is
/// thinner).
const LEAST_INK: f32 = 0.12;

/// The boxes of `page`'s ink that none of `words` (the boxes of the words read) covers, each
/// about one line of text tall; `text_height` is the page's usual height of a word, in pixels.
/// At most [`MOST_LINES`], the widest first, each with a margin of a quarter of a text height.
pub fn unread_lines(page: &GrayImage, words: &[PixelBox], text_height: f32) -> Vec<PixelBox> {
    let (width, height) = (page.width() as usize, page.height() as usize);
    if width == 0 || height == 0 || text_height < 4.0 {
        return Vec::new();
    }
    let margin = text_height / 4.0;
    let covered = covered_mask(words, width, height, margin);
    let Some((runs, row_starts)) = smeared_runs(page, &covered, text_height as usize) else {
        return Vec::new();
    };
    // Runs that overlap on neighbouring rows are one piece. Each row's runs are sorted and
    // apart, so the overlapping pairs of two rows are found in one pass over both.
    let mut joined = Joined::new(runs.len());
    for y in 1..height {
        let (mut a, mut b) = (row_starts[y - 1], row_starts[y]);
        while a < row_starts[y] && b < row_starts[y + 1] {
            if runs[a].start < runs[b].end && runs[b].start < runs[a].end {
                joined.join(a, b);
            }
            if runs[a].end < runs[b].end {
                a += 1;
            } else {
                b += 1;
            }
        }
    }
    // Each piece's box and ink, kept by its root's index (in the runs' order: the same pieces
    // in the same order on every reading).
    let mut pieces: Vec<Option<Piece>> = vec![None; runs.len()];
    for (n, run) in runs.iter().enumerate() {
        let root = joined.root(n);
        let piece = pieces[root].get_or_insert(Piece {
            left: run.start,
            top: run.row,
            right: run.end,
            bottom: run.row + 1,
            ink: 0,
        });
        piece.left = piece.left.min(run.start);
        piece.top = piece.top.min(run.row);
        piece.right = piece.right.max(run.end);
        piece.bottom = piece.bottom.max(run.row + 1);
        piece.ink += run.ink;
    }
    let mut lines: Vec<PixelBox> = pieces
        .iter()
        .flatten()
        .filter(|piece| piece.is_line(text_height))
        .map(|piece| PixelBox {
            left: (piece.left as f32 - margin).max(0.0),
            top: (piece.top as f32 - margin).max(0.0),
            right: (piece.right as f32 + margin).min(width as f32),
            bottom: (piece.bottom as f32 + margin).min(height as f32),
        })
        .collect();
    // The widest first (ties by place, so the same lines are kept every time), then in
    // reading order.
    lines.sort_by(|a, b| {
        (b.right - b.left)
            .total_cmp(&(a.right - a.left))
            .then(a.top.total_cmp(&b.top))
            .then(a.left.total_cmp(&b.left))
    });
    lines.truncate(MOST_LINES);
    lines.sort_by(|a, b| a.top.total_cmp(&b.top).then(a.left.total_cmp(&b.left)));
    lines
}

/// One row's run of ink, smeared across gaps narrower than a letter.
#[derive(Debug, Clone, Copy)]
struct Run {
    row: u32,
    start: u32,
    end: u32,
    ink: u32,
}

/// A piece of joined runs: its box and its ink.
#[derive(Debug, Clone, Copy)]
struct Piece {
    left: u32,
    top: u32,
    right: u32,
    bottom: u32,
    ink: u32,
}

impl Piece {
    /// Whether the piece is a line of text: as tall as one, wider than a speck, inked enough.
    fn is_line(&self, text_height: f32) -> bool {
        let (w, h) = (
            (self.right - self.left) as f32,
            (self.bottom - self.top) as f32,
        );
        h >= LINE_HEIGHTS.0 * text_height
            && h <= LINE_HEIGHTS.1 * text_height
            && w >= LEAST_WIDTH * text_height
            && self.ink as f32 >= LEAST_INK * w * h
    }
}

/// Which pixels the boxes of `words` cover, each widened by `margin` (a box turned inside out
/// covers nothing).
fn covered_mask(words: &[PixelBox], width: usize, height: usize, margin: f32) -> Vec<bool> {
    let mut covered = vec![false; width * height];
    for word in words {
        let (left, top) = (
            clamped(word.left - margin, width),
            clamped(word.top - margin, height),
        );
        let right = clamped(word.right + margin, width);
        let bottom = clamped(word.bottom + margin, height);
        if right <= left {
            continue;
        }
        for y in top..bottom {
            covered[y * width + left..y * width + right].fill(true);
        }
    }
    covered
}

/// Each row's runs of ink not `covered`, smeared across gaps of up to `gap` pixels, with where
/// each row's runs start (and one past the last); `None` past [`MOST_RUNS`] (a page of noise:
/// nothing on it is a line worth reading again).
fn smeared_runs(page: &GrayImage, covered: &[bool], gap: usize) -> Option<(Vec<Run>, Vec<usize>)> {
    let (width, height) = (page.width() as usize, page.height() as usize);
    let ink = |x: usize, y: usize| {
        !covered[y * width + x] && page.get_pixel(x as u32, y as u32).0[0] < DARK
    };
    let mut runs: Vec<Run> = Vec::new();
    let mut row_starts = Vec::with_capacity(height + 1);
    for y in 0..height {
        row_starts.push(runs.len());
        let mut x = 0;
        while x < width {
            if !ink(x, y) {
                x += 1;
                continue;
            }
            let (start, mut end, mut dark) = (x, x + 1, 1);
            let mut probe = x + 1;
            while probe < width && probe <= end + gap {
                if ink(probe, y) {
                    end = probe + 1;
                    dark += 1;
                }
                probe += 1;
            }
            runs.push(Run {
                row: y as u32,
                start: start as u32,
                end: end as u32,
                ink: dark,
            });
            if runs.len() > MOST_RUNS {
                return None;
            }
            x = end;
        }
    }
    row_starts.push(runs.len());
    Some((runs, row_starts))
}

/// A coordinate inside `0..=limit`.
fn clamped(at: f32, limit: usize) -> usize {
    (at.max(0.0) as usize).min(limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A page with two "words" of blocks of ink on one line, far apart, and a speck.
    fn page() -> GrayImage {
        GrayImage::from_fn(600, 200, |x, y| {
            let letters = |from: u32, to: u32| (from..to).contains(&x) && x % 12 < 8;
            let on_line = (80..100).contains(&y);
            let dark = (on_line && (letters(40, 160) || letters(460, 540)))
                || ((150..152).contains(&y) && (300..302).contains(&x));
            Luma([if dark { 20 } else { 250 }])
        })
    }

    #[test]
    fn a_box_turned_inside_out_covers_nothing_and_does_not_panic() {
        let crossed = PixelBox {
            left: 300.0,
            top: 90.0,
            right: 200.0,
            bottom: 60.0,
        };
        assert_eq!(unread_lines(&page(), &[crossed], 20.0).len(), 2);
    }

    #[test]
    fn ink_no_word_covers_is_found_as_a_line_and_a_speck_is_not() {
        let name = PixelBox {
            left: 40.0,
            top: 80.0,
            right: 160.0,
            bottom: 100.0,
        };
        let lines = unread_lines(&page(), &[name], 20.0);
        assert_eq!(lines.len(), 1, "{lines:?}");
        let price = &lines[0];
        assert!(price.left <= 460.0 && price.right >= 535.0, "{price:?}");
        assert!(price.top <= 80.0 && price.bottom >= 100.0, "{price:?}");
        // Read already: nothing to read again.
        let both = [name, lines[0]];
        assert!(unread_lines(&page(), &both, 20.0).is_empty());
    }
}
