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
    let mut covered = vec![false; width * height];
    for word in words {
        let (left, top) = (
            clamped(word.left - margin, width),
            clamped(word.top - margin, height),
        );
        let right = clamped(word.right + margin, width);
        let bottom = clamped(word.bottom + margin, height);
        for y in top..bottom {
            covered[y * width + left..y * width + right].fill(true);
        }
    }
    let ink = |x: usize, y: usize| {
        !covered[y * width + x] && page.get_pixel(x as u32, y as u32).0[0] < DARK
    };
    let gap = text_height as usize;
    // Each row's smeared runs: (row, start, end, ink pixels).
    let mut runs: Vec<(usize, usize, usize, usize)> = Vec::new();
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
            runs.push((y, start, end, dark));
            x = end;
        }
    }
    row_starts.push(runs.len());
    // Runs that overlap on neighbouring rows are one piece.
    let mut joined = Joined::new(runs.len());
    for y in 1..height {
        let (above, here) = (
            row_starts[y - 1]..row_starts[y],
            row_starts[y]..row_starts[y + 1],
        );
        for a in above.clone() {
            for b in here.clone() {
                if runs[a].1 < runs[b].2 && runs[b].1 < runs[a].2 {
                    joined.join(a, b);
                }
            }
        }
    }
    let mut pieces: std::collections::HashMap<usize, (usize, usize, usize, usize, usize)> =
        std::collections::HashMap::new();
    for (n, &(y, start, end, dark)) in runs.iter().enumerate() {
        let piece = pieces
            .entry(joined.root(n))
            .or_insert((start, y, end, y + 1, 0));
        piece.0 = piece.0.min(start);
        piece.1 = piece.1.min(y);
        piece.2 = piece.2.max(end);
        piece.3 = piece.3.max(y + 1);
        piece.4 += dark;
    }
    let mut lines: Vec<PixelBox> = pieces
        .values()
        .filter(|&&(left, top, right, bottom, dark)| {
            let (w, h) = ((right - left) as f32, (bottom - top) as f32);
            h >= LINE_HEIGHTS.0 * text_height
                && h <= LINE_HEIGHTS.1 * text_height
                && w >= LEAST_WIDTH * text_height
                && dark as f32 >= LEAST_INK * w * h
        })
        .map(|&(left, top, right, bottom, _)| PixelBox {
            left: (left as f32 - margin).max(0.0),
            top: (top as f32 - margin).max(0.0),
            right: (right as f32 + margin).min(width as f32),
            bottom: (bottom as f32 + margin).min(height as f32),
        })
        .collect();
    lines.sort_by(|a, b| (b.right - b.left).total_cmp(&(a.right - a.left)));
    lines.truncate(MOST_LINES);
    lines.sort_by(|a, b| a.top.total_cmp(&b.top).then(a.left.total_cmp(&b.left)));
    lines
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
