//! The grid a ruled table's rules draw on a page image ([`crate::rulings`]): its row lines and
//! column lines, and its cells — a cell merged across where no column line is drawn through
//! its row, merged down where no row line is drawn under it. Geometry only: OCR asks it where a
//! blank cell is to read it again, and `structure::ruled` which cell a word stands in.

use crate::rulings::{Joined, Ruling, Rulings};

/// A rule's end may fall this many pixels short of the line it meets (a scan's blur, a corner
/// drawn open), and still meet it.
const MEET: f32 = 8.0;
/// Rules this many pixels apart (or fewer) are one line of the grid (a double rule, a border
/// drawn twice by two cells).
const SAME_LINE: f32 = 8.0;

/// One cell of a grid: where it starts and how many rows and columns it spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridCell {
    /// Its first row (0 is the first under the table's top line).
    pub row: usize,
    /// Its first column.
    pub column: usize,
    /// How many rows it spans.
    pub rows: usize,
    /// How many columns it spans.
    pub columns: usize,
}

/// A box on the page, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelBox {
    /// Its left edge.
    pub left: f32,
    /// Its top edge.
    pub top: f32,
    /// Its right edge.
    pub right: f32,
    /// Its bottom edge.
    pub bottom: f32,
}

impl PixelBox {
    /// The box `by` pixels inside this one on every side.
    pub fn inset(&self, by: f32) -> PixelBox {
        PixelBox {
            left: self.left + by,
            top: self.top + by,
            right: self.right - by,
            bottom: self.bottom - by,
        }
    }
}

/// One line of a grid: the rules (one or more, in pieces where merged cells break it) at one
/// offset.
#[derive(Debug, Clone)]
struct GridLine {
    rules: Vec<Ruling>,
}

impl GridLine {
    /// The line's offset at `along`: its longest rule's.
    fn offset_at(&self, along: f32) -> f32 {
        self.rules
            .iter()
            .max_by_key(|r| r.to - r.from)
            .map_or(0.0, |r| r.offset_at(along))
    }

    /// Whether the line is drawn at `along` (not broken there by a merged cell).
    fn drawn_at(&self, along: f32) -> bool {
        self.rules.iter().any(|r| r.covers(along, MEET))
    }
}

/// The grid of one ruled table: its row lines top to bottom, its column lines left to right.
#[derive(Debug, Clone)]
pub struct Grid {
    rows: Vec<GridLine>,
    columns: Vec<GridLine>,
}

impl Rulings {
    /// The grids the rules draw: every set of rules that meet and draw two rows and two
    /// columns of cells at least.
    pub fn grids(&self) -> Vec<Grid> {
        let (a, d) = (self.across.len(), self.down.len());
        let mut joined = Joined::new(a + d);
        for (i, across) in self.across.iter().enumerate() {
            for (j, down) in self.down.iter().enumerate() {
                if meet(across, down) {
                    joined.join(i, a + j);
                }
            }
        }
        let mut sets: std::collections::BTreeMap<usize, (Vec<&Ruling>, Vec<&Ruling>)> =
            Default::default();
        for (i, rule) in self.across.iter().enumerate() {
            sets.entry(joined.root(i)).or_default().0.push(rule);
        }
        for (j, rule) in self.down.iter().enumerate() {
            sets.entry(joined.root(a + j)).or_default().1.push(rule);
        }
        sets.into_values()
            .filter(|(across, down)| across.len() >= 2 && down.len() >= 2)
            .map(|(across, down)| Grid::of(&across, &down))
            // Two rows and two columns of cells at least: a box round a paragraph, a heading
            // or the page is no table.
            .filter(|grid| grid.rows.len() >= 3 && grid.columns.len() >= 3)
            .collect()
    }
}

/// Whether a rule across and a rule down cross or touch.
fn meet(across: &Ruling, down: &Ruling) -> bool {
    // Where they cross: the rule down's x at the rule across's y, solved in turn (a slope of a
    // few pixels in a thousand settles at once).
    let x = down.offset_at(across.offset_at(down.offset_at(0.0)));
    let y = across.offset_at(x);
    let x = down.offset_at(y);
    across.covers(x, MEET) && down.covers(y, MEET)
}

impl Grid {
    fn of(across: &[&Ruling], down: &[&Ruling]) -> Grid {
        let middle = |rules: &[&Ruling]| {
            let from = rules.iter().map(|r| r.from).min().unwrap_or(0);
            let to = rules.iter().map(|r| r.to).max().unwrap_or(0);
            (from + to) as f32 / 2.0
        };
        Grid {
            rows: lines(across, middle(across)),
            columns: lines(down, middle(down)),
        }
    }

    /// The y of the table's top line at its left.
    pub fn top(&self) -> f32 {
        let left = self.columns[0].offset_at(0.0);
        self.rows[0].offset_at(left)
    }

    /// The row and column of the grid's finest cell the point (`x`, `y`) is in, when it is in
    /// the grid.
    pub fn unit_of(&self, x: f32, y: f32) -> Option<(usize, usize)> {
        let row = self.rows.iter().take_while(|l| l.offset_at(x) < y).count();
        let column = self
            .columns
            .iter()
            .take_while(|l| l.offset_at(y) < x)
            .count();
        let inside = |n: usize, of: usize| n >= 1 && n < of;
        (inside(row, self.rows.len()) && inside(column, self.columns.len()))
            .then(|| (row - 1, column - 1))
    }

    /// How many rows and columns of finest cells the grid has.
    pub fn size(&self) -> (usize, usize) {
        (self.rows.len() - 1, self.columns.len() - 1)
    }

    /// The middle of the finest cell at `row`, `column`.
    fn middle(&self, row: usize, column: usize) -> (f32, f32) {
        let mut x = 0.0;
        let mut y = 0.0;
        // Solved in turn, as where two rules meet.
        for _ in 0..2 {
            x = 0.5 * (self.columns[column].offset_at(y) + self.columns[column + 1].offset_at(y));
            y = 0.5 * (self.rows[row].offset_at(x) + self.rows[row + 1].offset_at(x));
        }
        (x, y)
    }

    /// The cells, in reading order of their first row and column: finest cells joined where
    /// the line between them is not drawn.
    pub fn cells(&self) -> Vec<GridCell> {
        let (height, width) = self.size();
        let mut taken = vec![vec![false; width]; height];
        let mut cells = Vec::new();
        for row in 0..height {
            for column in 0..width {
                if taken[row][column] {
                    continue;
                }
                // Across while the column line to the right is not drawn through this row.
                let mut columns = 1;
                while column + columns < width
                    && !taken[row][column + columns]
                    && !self.between_columns(row, column + columns)
                {
                    columns += 1;
                }
                // Down while the row line below is not drawn under any of its columns.
                let mut rows = 1;
                while row + rows < height
                    && (column..column + columns).all(|c| !self.between_rows(row + rows, c))
                {
                    rows += 1;
                }
                for taken_row in taken.iter_mut().skip(row).take(rows) {
                    for unit in taken_row.iter_mut().skip(column).take(columns) {
                        *unit = true;
                    }
                }
                cells.push(GridCell {
                    row,
                    column,
                    rows,
                    columns,
                });
            }
        }
        cells
    }

    /// Whether column line `line` is drawn through row `row`'s middle.
    fn between_columns(&self, row: usize, line: usize) -> bool {
        let (_, y) = self.middle(row, line - 1);
        self.columns[line].drawn_at(y)
    }

    /// Whether row line `line` is drawn under column `column`'s middle.
    fn between_rows(&self, line: usize, column: usize) -> bool {
        let (x, _) = self.middle(line - 1, column);
        self.rows[line].drawn_at(x)
    }

    /// The box of `cell` inside its lines.
    pub fn cell_box(&self, cell: &GridCell) -> PixelBox {
        let (top_row, bottom_row) = (cell.row, cell.row + cell.rows);
        let (left_column, right_column) = (cell.column, cell.column + cell.columns);
        let (x, y) = self.middle(cell.row, cell.column);
        PixelBox {
            left: self.columns[left_column].offset_at(y),
            right: self.columns[right_column].offset_at(y),
            top: self.rows[top_row].offset_at(x),
            bottom: self.rows[bottom_row].offset_at(x),
        }
    }
}

/// The rules of one direction as the grid's lines, in order of their offset at `along`, rules
/// within [`SAME_LINE`] pixels of each other there one line.
fn lines(rules: &[&Ruling], along: f32) -> Vec<GridLine> {
    let mut sorted: Vec<&Ruling> = rules.to_vec();
    sorted.sort_by(|a, b| a.offset_at(along).total_cmp(&b.offset_at(along)));
    let mut lines: Vec<GridLine> = Vec::new();
    for rule in sorted {
        match lines.last_mut() {
            Some(line) if (rule.offset_at(along) - line.offset_at(along)).abs() <= SAME_LINE => {
                line.rules.push(rule.clone())
            }
            _ => lines.push(GridLine {
                rules: vec![rule.clone()],
            }),
        }
    }
    lines
}

/// The rules of a grid drawn straight (what a test or a generator draws), with rows at `ys` and columns at `xs`, every line drawn whole, except the column
/// lines in `broken` (drawn from the second row line down: a header cell merged across)
/// and the row lines in `open` (drawn from the second column line right: a first column's
/// cell merged down).
pub fn grid_drawn(ys: &[f32], xs: &[f32], broken: &[usize], open: &[usize]) -> Rulings {
    let (Some(&first_x), Some(&last_x), Some(&first_y), Some(&last_y)) =
        (xs.first(), xs.last(), ys.first(), ys.last())
    else {
        return Rulings::default();
    };
    let (left, right) = (first_x as u32, last_x as u32);
    let (top, bottom) = (first_y as u32, last_y as u32);
    let across = ys
        .iter()
        .enumerate()
        .map(|(n, &y)| {
            let from = if open.contains(&n) {
                xs.get(1).map_or(left, |x| *x as u32)
            } else {
                left
            };
            Ruling::straight(y, from, right)
        })
        .collect();
    let down = xs
        .iter()
        .enumerate()
        .map(|(n, &x)| {
            let from = if broken.contains(&n) {
                ys.get(1).map_or(top, |y| *y as u32)
            } else {
                top
            };
            Ruling::straight(x, from, bottom)
        })
        .collect();
    Rulings { across, down }
}

#[cfg(test)]
mod tests {
    use super::grid_drawn as rulings;
    use super::*;

    #[test]
    fn cells_merge_where_no_line_is_drawn() {
        // Three rows, three columns; the first row's last two cells one, the first column's
        // second and third rows one.
        let grid = &rulings(
            &[100.0, 140.0, 180.0, 220.0],
            &[50.0, 300.0, 450.0, 600.0],
            &[2],
            &[2],
        )
        .grids()[0];
        let spans: Vec<(usize, usize, usize, usize)> = grid
            .cells()
            .iter()
            .map(|c| (c.row, c.column, c.rows, c.columns))
            .collect();
        assert_eq!(
            spans,
            vec![
                (0, 0, 1, 1),
                (0, 1, 1, 2),
                (1, 0, 2, 1),
                (1, 1, 1, 1),
                (1, 2, 1, 1),
                (2, 1, 1, 1),
                (2, 2, 1, 1)
            ]
        );
        assert_eq!(grid.unit_of(320.0, 200.0), Some((2, 1)));
        assert_eq!(grid.unit_of(20.0, 200.0), None);
        let merged = grid.cell_box(&grid.cells()[1]);
        assert_eq!((merged.left, merged.right), (300.0, 600.0));
        assert_eq!(grid.top(), 100.0);
    }

    #[test]
    fn a_box_round_a_paragraph_draws_no_grid() {
        // One cell: a frame round the page or a callout, not a table.
        assert!(rulings(&[100.0, 400.0], &[50.0, 600.0], &[], &[])
            .grids()
            .is_empty());
        // One row of cells under a frame is no table either; two rows of two are.
        assert!(rulings(&[100.0, 140.0], &[50.0, 300.0, 600.0], &[], &[])
            .grids()
            .is_empty());
        assert_eq!(
            rulings(&[100.0, 140.0, 180.0], &[50.0, 300.0, 600.0], &[], &[]).grids()[0].size(),
            (2, 2)
        );
    }

    #[test]
    fn lone_rules_draw_no_grid() {
        // A rule under a heading and one down a margin meet no others.
        let rulings = Rulings {
            across: vec![Ruling::straight(100.0, 50, 600)],
            down: vec![Ruling::straight(40.0, 200, 800)],
        };
        assert!(rulings.grids().is_empty());
    }
}
