//! The parts of a page image that OCR read no word from and that are read again, each cut out
//! as one line of text (issues 89 and 100): a ruled table's cells that hold ink but got no word
//! (Tesseract drops a short number alone in a cell), then the ink outside every ruled table no
//! word covers (a receipt's price column far right of its items' names).

use image::GrayImage;
use tally_page_image::rule_grid::{Grid, PixelBox};
use tally_page_image::rulings::{Rulings, DARK};
use tally_page_image::unread_ink::unread_lines;

/// A ruled cell's box is read this many pixels inside its lines (their whitened fringe, a
/// turn of the page).
const CELL_INSET: f32 = 4.0;
/// A ruled cell with at least this many dark pixels holds text (a digit at 300 dpi has a
/// hundred or more; a scan's speck a few).
const CELL_INK: usize = 40;
/// The most blank cells of one page read again (each a line in one run of Tesseract, within
/// the page's time).
const MOST_CELLS_READ_AGAIN: usize = 200;

/// The boxes of `page` to read again, given the boxes of the `words` OCR read, their usual
/// height and the page's `rulings`: the blank cells with ink first, then the lines of ink
/// outside the tables; and how many of them are cells.
pub(super) fn areas_to_read_again(
    page: &GrayImage,
    rulings: &Rulings,
    words: &[PixelBox],
    text_height: f32,
) -> (Vec<PixelBox>, usize) {
    let grids = rulings.grids();
    let mut again = blank_cells_with_ink(page, &grids, words);
    let cells = again.len();
    // Ink inside a ruled table is the cells' to read again; only ink outside every table is
    // read again as lines (read twice, a cell's number was written twice).
    let mut covered = words.to_vec();
    for grid in &grids {
        covered.extend(grid.cells().iter().map(|cell| grid.cell_box(cell)));
    }
    again.extend(unread_lines(page, &covered, text_height));
    (again, cells)
}

/// The cells of the page's ruled tables that got no word from OCR but hold ink: at least
/// [`CELL_INK`] dark pixels inside the cell, away from its lines (a speck is a few).
fn blank_cells_with_ink(page: &GrayImage, grids: &[Grid], words: &[PixelBox]) -> Vec<PixelBox> {
    let mut blank = Vec::new();
    let page_pixels = u64::from(page.width()) * u64::from(page.height());
    let mut looked: u64 = 0;
    for grid in grids {
        let (rows, columns) = grid.size();
        let mut has_word = vec![vec![false; columns]; rows];
        for word in words {
            let x = (word.left + word.right) / 2.0;
            let y = (word.top + word.bottom) / 2.0;
            if let Some((r, c)) = grid.unit_of(x, y) {
                has_word[r][c] = true;
            }
        }
        for cell in grid.cells() {
            let covered = (cell.row..cell.row + cell.rows)
                .any(|r| (cell.column..cell.column + cell.columns).any(|c| has_word[r][c]));
            if covered {
                continue;
            }
            let inner = grid.cell_box(&cell).inset(CELL_INSET);
            // The pixels looked at, over every cell, are at most the page's own: nested boxes
            // drawn to make many grids cost no more than one page.
            looked += area(&inner);
            if looked > page_pixels {
                return blank;
            }
            if ink(page, &inner) >= CELL_INK {
                blank.push(inner);
            }
            if blank.len() >= MOST_CELLS_READ_AGAIN {
                return blank;
            }
        }
    }
    blank
}

/// How many pixels `area` covers (none when it is turned inside out).
fn area(area: &PixelBox) -> u64 {
    let width = (area.right - area.left).max(0.0);
    let height = (area.bottom - area.top).max(0.0);
    (width * height) as u64
}

/// How many dark pixels `page` has inside `area`.
fn ink(page: &GrayImage, area: &PixelBox) -> usize {
    let (left, top) = (area.left.max(0.0) as u32, area.top.max(0.0) as u32);
    let right = (area.right.max(0.0) as u32).min(page.width());
    let bottom = (area.bottom.max(0.0) as u32).min(page.height());
    (top..bottom)
        .flat_map(|y| (left..right).map(move |x| (x, y)))
        .filter(|&(x, y)| page.get_pixel(x, y).0[0] < DARK)
        .count()
}
