//! A laid-out line's runs (words set close together: a cell, or a line of text) and a group's
//! columns, read from where the words stand (issue 89 for scans, issue 100 for a PDF's text
//! layer), with a table cell's wrapped lines joined to their row where the words' widths are
//! exact.

use super::pdf_spans::TEXT_LAYER;
use crate::corpus::ocr::OcrWord;

/// Space between two words of more than this many letter widths is a gutter between columns
/// (a word space is about half a letter wide; cells are set two letters apart or more).
const COLUMN_GAP: f32 = 1.5;
/// Space between two words of a text layer of more than this many times their box's height
/// (0.8 em: justification stretches a word space to two-thirds of an em at most) is a gutter.
const TEXT_LAYER_COLUMN_GAP: f32 = 1.07;

/// Words of a line set close together (no gutter between them): a cell, or a line of text.
pub(super) struct Run {
    pub(super) left: u32,
    pub(super) right: u32,
    /// Where its first word ends: how much room the word would have needed on the line above.
    pub(super) first_right: u32,
    /// The height of its words' boxes, which a space's width follows.
    pub(super) height: u32,
    pub(super) text: String,
}

/// A table's lines with each cell's wrapped lines joined to the line they continue: an office
/// suite wraps a cell's words that outrun its column onto the next line at the rows' own pitch
/// ("Young" over "Voices", "27 Apr" over "2024"), which reads as a row of its own. A run
/// continues the cell above it when it starts flush with it, that cell lies within one column
/// (a group's name over its sub-columns is no cell), and its first word would not have fit
/// after it within the widest cell the column holds. A line of the body joins the one above
/// when it fills half the columns or fewer and every run continues (a row with a cell left
/// blank fills more); in a line of sub-headers under the header's first line, the runs that
/// continue join it and the rest stay ("Journeys a" over "day" beside "2024–25" under
/// "Passengers").
pub(super) fn join_wrapped(runs: Vec<Vec<Run>>, columns: &[(u32, u32)]) -> Vec<Vec<Run>> {
    if columns.len() < 2 {
        return runs;
    }
    let grid = Grid::of(&runs, columns);
    let mut joined: Vec<Vec<Run>> = Vec::with_capacity(runs.len());
    let mut header: Option<usize> = None;
    for line in runs {
        let under_header = header.is_some_and(|h| h + 1 == joined.len());
        let Some(above) = joined.last() else {
            if line.len() > 1 {
                header = Some(0);
            }
            joined.push(line);
            continue;
        };
        let in_group = |run: &Run| under_header && grid.in_group(above, run);
        let targets: Vec<Option<usize>> = line
            .iter()
            .map(|run| {
                if in_group(run) {
                    None
                } else {
                    grid.continued(above, run, under_header)
                }
            })
            .collect();
        let whole = 2 * line.len() <= columns.len() && targets.iter().all(Option::is_some);
        // A line of sub-headers: each run either continues its header or sits under a
        // group's name (a row of the body has cells under single columns' headers).
        let under_group = |run: &Run| {
            in_group(run)
                || above.iter().any(|a| {
                    grid.overlapped(a).len() >= 2 && a.left <= run.right && run.left <= a.right
                })
        };
        let sub_headers = under_header
            && targets.iter().any(Option::is_some)
            && line
                .iter()
                .zip(&targets)
                .any(|(run, target)| target.is_none() && under_group(run))
            && line
                .iter()
                .zip(&targets)
                .all(|(run, target)| target.is_some() || under_group(run));
        if whole || sub_headers {
            let above = joined.last_mut().expect("a line above");
            let mut rest = Vec::new();
            for (run, target) in line.into_iter().zip(targets) {
                match target {
                    Some(at) => {
                        if !broken_number(&above[at].text, &run.text) {
                            above[at].text.push(' ');
                        }
                        above[at].text.push_str(&run.text);
                        above[at].right = run.right;
                    }
                    None => rest.push(run),
                }
            }
            if !rest.is_empty() {
                joined.push(rest);
            }
        } else {
            joined.push(line);
        }
        if header.is_none() && joined.last().is_some_and(|l| l.len() > 1) {
            header = Some(joined.len() - 1);
        }
    }
    joined
}

/// A table group's columns as the join reads them: the span of each, and the right edge of
/// the widest cell each holds on the lines of several runs.
struct Grid<'a> {
    columns: &'a [(u32, u32)],
    limits: Vec<u32>,
}

impl<'a> Grid<'a> {
    fn of(runs: &[Vec<Run>], columns: &'a [(u32, u32)]) -> Self {
        let mut grid = Grid {
            columns,
            limits: vec![0; columns.len()],
        };
        for run in runs.iter().filter(|line| line.len() > 1).flatten() {
            if let Some(c) = grid.within(run) {
                grid.limits[c] = grid.limits[c].max(run.right);
            }
        }
        grid
    }

    /// The columns `run` overlaps.
    fn overlapped(&self, run: &Run) -> Vec<usize> {
        (0..self.columns.len())
            .filter(|&c| self.columns[c].0 <= run.right && run.left <= self.columns[c].1)
            .collect()
    }

    /// The one column `run` lies within, if it overlaps only one.
    fn within(&self, run: &Run) -> Option<usize> {
        match self.overlapped(run)[..] {
            [c] => Some(c),
            _ => None,
        }
    }

    /// The cell of `above` that `run` continues (`in_header`: a line under the header's
    /// first).
    fn continued(&self, above: &[Run], run: &Run, in_header: bool) -> Option<usize> {
        let c = self.within(run)?;
        let limit = self.limits[c] as f32;
        let space = WORD_SPACE * run.height as f32;
        // A wrapped line of the body is no wider than the column's widest cell (a note under
        // the table set flush with its first column runs past it); one of the header stays
        // short of the next column's start ("time (min)" under "Crossing" is wider than the
        // header's first line: the column had room for either, not for both).
        let room = match self.columns.get(c + 1) {
            Some(next) if in_header => (limit + space).max(next.0 as f32 - run.height as f32),
            _ => limit + space,
        };
        if run.right as f32 > room {
            return None;
        }
        above.iter().position(|a| {
            self.within(a) == Some(c)
                && (run.left as f32 - a.left as f32).abs() <= space
                // Within half a space: a word's width within a text run is estimated from its
                // letters' share of the run.
                && a.right as f32 + 1.5 * space + (run.first_right - run.left) as f32 > limit
                // A number under a whole number is the next row's (a subtotal under a row
                // whose cells are blank), unless it is the rest of one broken mid-way.
                && !(is_number(&a.text) && is_number(&run.text) && !broken_number(&a.text, &run.text))
        })
    }

    /// Whether `run`, on the line under the header's first line `above`, sits under a name
    /// over columns whose own names are blank there: a group's ("Loans" over "2024–25" and
    /// "2025–26"), whose words under it are its sub-headers, not its wrapped words.
    fn in_group(&self, above: &[Run], run: &Run) -> bool {
        let group = |a: &Run| -> std::ops::Range<usize> {
            let Some(c) = self.within(a) else {
                return 0..0;
            };
            let next = (c + 1..self.columns.len())
                .find(|&k| above.iter().any(|b| self.overlapped(b).contains(&k)))
                .unwrap_or(self.columns.len());
            c..next
        };
        self.within(run).is_some_and(|k| {
            above.iter().any(|a| {
                let g = group(a);
                g.len() >= 2 && g.contains(&k)
            })
        })
    }
}

/// Whether `after` continues a number that `before` holds broken mid-way: a cell of one word
/// too wide for its column is wrapped inside the word ("£230,488.0" over "0", "£2,738,672"
/// over ".00").
fn broken_number(before: &str, after: &str) -> bool {
    let mut rest = after.chars();
    let continues = match rest.next() {
        Some(c) if c.is_ascii_digit() => true,
        Some('.' | ',') => rest.next().is_some_and(|c| c.is_ascii_digit()),
        _ => false,
    };
    continues
        && !before.contains(char::is_whitespace)
        && before.ends_with(|c: char| c.is_ascii_digit() || c == '.' || c == ',')
        && before.contains(|c: char| c.is_ascii_digit())
}

/// Whether a run is one number as a cell writes it: digits with their separators, a currency
/// sign or a percent ("£2,738,672", "47%", ".00").
fn is_number(text: &str) -> bool {
    text.contains(|c: char| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || ".,%£$€-+".contains(c))
}

/// A word space as a share of a text layer's word box height (0.75 em: a space is about a
/// quarter of an em).
const WORD_SPACE: f32 = 0.33;

/// A line's runs: its words split where the space between two is a gutter.
pub(super) fn runs(words: &[OcrWord], char_width: f32) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for word in words {
        let right = word.left + word.width;
        // A text layer's word knows its type's size: a gutter is wider than any word space
        // of it, however the page's other text is set (a table shrunk to fit the page sets
        // its columns closer than the prose's letters are wide).
        let gutter = if word.confidence >= TEXT_LAYER {
            TEXT_LAYER_COLUMN_GAP * word.height as f32
        } else {
            COLUMN_GAP * char_width
        };
        match runs.last_mut() {
            Some(run) if (word.left as f32 - run.right as f32) <= gutter => {
                run.text.push(' ');
                run.text.push_str(&word.text);
                run.right = right;
            }
            _ => runs.push(Run {
                left: word.left,
                right,
                first_right: right,
                height: word.height,
                text: word.text.clone(),
            }),
        }
    }
    runs
}

/// The columns of a group that is a table (three lines or more of several runs), as pixel
/// spans: the runs of its fullest lines (those with the most runs) merged where they overlap.
/// Empty for a group that is no table.
pub(super) fn columns(runs: &[Vec<Run>]) -> Vec<(u32, u32)> {
    let tabular = runs.iter().filter(|l| l.len() >= 2).count();
    let most = runs.iter().map(Vec::len).max().unwrap_or(0);
    if tabular < 3 || most < 2 {
        return Vec::new();
    }
    let mut spans: Vec<(u32, u32)> = runs
        .iter()
        .filter(|l| l.len() == most)
        .flatten()
        .map(|r| (r.left, r.right))
        .collect();
    spans.sort_unstable();
    let mut columns: Vec<(u32, u32)> = Vec::new();
    for (left, right) in spans {
        match columns.last_mut() {
            Some(last) if left <= last.1 => last.1 = last.1.max(right),
            _ => columns.push((left, right)),
        }
    }
    columns
}
