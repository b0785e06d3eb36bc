//! Ruled tables on a scanned page: the words OCR read put into the cells the page's rules draw
//! ([`crate::corpus::rule_grid`]) by where they stand. A ruled table's cells are told by its
//! lines, not guessed from the gaps between words: a cell's words stay together however wide
//! the gap inside it, a cell left blank stays in its column, and a cell merged across or down
//! is one cell over what it spans.

use crate::corpus::budget::ReadRefused;
use crate::corpus::ocr::OcrWord;
use tally_page_image::rule_grid::{Grid, GridCell};
use tally_page_image::rulings::Rulings;

use super::grid::SpanGrid;

/// The most header rows told by their text alone (more come only from a header cell merged
/// down over them).
const MOST_HEADER_ROWS: usize = 2;

/// A table read from its rules: its cells, where its top is, and its words.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct RuledTable {
    /// The cells, row by row, merged cells written out as [`SpanGrid`] writes them.
    pub rows: Vec<Vec<String>>,
    /// How many of the first rows are the header.
    pub header_rows: usize,
    /// The top of its first line, in pixels.
    pub top: f32,
    /// The words read in its cells.
    pub words: Vec<OcrWord>,
}

/// The ruled tables of a page (every grid its rules draw with a word in a cell), top to bottom,
/// and the page's words outside them.
pub(super) fn ruled_tables(
    words: &[OcrWord],
    rulings: &Rulings,
) -> Result<(Vec<RuledTable>, Vec<OcrWord>), ReadRefused> {
    let mut outside: Vec<OcrWord> = words.to_vec();
    let mut tables = Vec::new();
    for grid in rulings.grids() {
        let (inside, rest): (Vec<OcrWord>, Vec<OcrWord>) = outside
            .into_iter()
            .partition(|w| unit_of(&grid, w).is_some());
        outside = rest;
        if inside.is_empty() {
            continue;
        }
        tables.push(read(&grid, inside)?);
    }
    tables.sort_by(|a, b| a.top.total_cmp(&b.top));
    Ok((tables, outside))
}

/// The finest cell of `grid` a word stands in, by its middle.
fn unit_of(grid: &Grid, word: &OcrWord) -> Option<(usize, usize)> {
    let x = word.left as f32 + word.width as f32 / 2.0;
    let y = word.top as f32 + word.height as f32 / 2.0;
    grid.unit_of(x, y)
}

/// The table `words` make in `grid`: each cell's words in reading order, the header rows
/// told by their text.
fn read(grid: &Grid, words: Vec<OcrWord>) -> Result<RuledTable, ReadRefused> {
    let (height, width) = grid.size();
    let mut in_unit: Vec<Vec<Vec<&OcrWord>>> = vec![vec![Vec::new(); width]; height];
    for word in &words {
        if let Some((r, c)) = unit_of(grid, word) {
            in_unit[r][c].push(word);
        }
    }
    let cells: Vec<(GridCell, String)> = grid
        .cells()
        .into_iter()
        .map(|cell| {
            let words: Vec<&OcrWord> = in_unit[cell.row..cell.row + cell.rows]
                .iter()
                .flat_map(|row| &row[cell.column..cell.column + cell.columns])
                .flatten()
                .copied()
                .collect();
            (cell, reading_order(words))
        })
        .collect();
    let header_rows = header_rows(&cells, height);
    let mut spans = SpanGrid::default();
    for (cell, text) in &cells {
        let header = cell.row < header_rows;
        spans.place(cell.row, text, cell.columns, cell.rows, header)?;
    }
    spans.header_rows = header_rows;
    Ok(RuledTable {
        rows: spans.into_rows(),
        header_rows,
        top: grid.top(),
        words,
    })
}

/// How many of a table's first rows are its header: the rows above its first row with a digit
/// (when a row below has one), [`MOST_HEADER_ROWS`] at most, and the rows a cell of theirs is
/// merged down into ("Route" over
/// two header rows, beside "Passengers" over "2024–25" and "2025–26").
fn header_rows(cells: &[(GridCell, String)], height: usize) -> usize {
    let has_digit = |row: usize| {
        cells
            .iter()
            .any(|(c, text)| c.row == row && text.chars().any(|ch| ch.is_ascii_digit()))
    };
    let Some(first_digits) = (0..height).find(|&r| has_digit(r)) else {
        return 0;
    };
    // A table of words whose first digit comes late has one header row, not many.
    let mut header = first_digits.min(MOST_HEADER_ROWS);
    // A header cell merged down makes the rows it covers header rows.
    while let Some(end) = cells
        .iter()
        .filter(|(c, _)| c.row < header)
        .map(|(c, _)| c.row + c.rows)
        .filter(|&end| end > header && end < height)
        .max()
    {
        header = end;
    }
    header
}

/// A cell's words in reading order: lines top to bottom (a word whose middle is below the
/// line's words' bottom starts the next), each left to right, joined by spaces.
fn reading_order(mut words: Vec<&OcrWord>) -> String {
    words.sort_by_key(|w| w.top);
    let mut lines: Vec<Vec<&OcrWord>> = Vec::new();
    for word in words {
        let middle = word.top + word.height / 2;
        match lines.last_mut() {
            Some(line) if line.iter().any(|w| middle <= w.top + w.height) => line.push(word),
            _ => lines.push(vec![word]),
        }
    }
    lines
        .into_iter()
        .map(|mut line| {
            line.sort_by_key(|w| w.left);
            line.iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_page_image::rule_grid::grid_drawn as rulings;

    fn word(text: &str, left: u32, top: u32) -> OcrWord {
        OcrWord {
            text: text.into(),
            left,
            top,
            width: 10 * text.len() as u32,
            height: 20,
            confidence: 95.0,
            line: (1, 1, top),
        }
    }

    #[test]
    fn words_are_put_in_the_cells_the_rules_draw() {
        // "Loans" over two columns in the header; "Branch" merged down over the header's two
        // rows; a blank cell under "2025".
        let rulings = rulings(
            &[100.0, 140.0, 180.0, 220.0, 260.0],
            &[50.0, 300.0, 450.0, 600.0],
            &[2],
            &[1],
        );
        let words = vec![
            word("Title", 50, 40),
            word("Branch", 60, 130),
            word("Loans", 400, 110),
            word("2024", 310, 150),
            word("2025", 460, 150),
            word("North", 60, 190),
            word("Road", 120, 190),
            word("1,204", 310, 190),
            word("980", 460, 190),
            word("South", 60, 230),
            word("877", 310, 230),
            word("Note", 50, 300),
        ];
        let (tables, outside) = ruled_tables(&words, &rulings).unwrap();
        assert_eq!(tables.len(), 1);
        let table = &tables[0];
        assert_eq!(table.header_rows, 2);
        assert_eq!(
            table.rows,
            vec![
                vec!["Branch".to_string(), "Loans".into(), "Loans".into()],
                vec!["Branch".into(), "2024".into(), "2025".into()],
                vec!["North Road".into(), "1,204".into(), "980".into()],
                vec!["South".into(), "877".into(), "".into()],
            ]
        );
        let outside: Vec<&str> = outside.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(outside, vec!["Title", "Note"]);
    }

    #[test]
    fn a_grid_with_no_word_is_no_table() {
        let rulings = rulings(&[100.0, 140.0, 180.0], &[50.0, 300.0, 450.0], &[], &[]);
        let words = vec![word("Heading", 50, 40)];
        let (tables, outside) = ruled_tables(&words, &rulings).unwrap();
        assert!(tables.is_empty());
        assert_eq!(outside.len(), 1);
    }
}
