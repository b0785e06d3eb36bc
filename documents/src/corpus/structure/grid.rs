//! A table's grid as a person reads it (issue 85), shared by every reader: merged cells written
//! out ([`SpanGrid`]: a header cell in every column and row it spans, a body cell merged down in
//! every row it spans, a body cell merged across once), a title row above the header read as
//! the table's caption, a header over two rows joined into header paths ("Spending (£) ›
//! 2025–26"), and each body row told apart: data, a Total or Subtotal row (kept as a check,
//! never counted as data), or a note written across the table ("Fees are per term.").

use crate::corpus::budget::{ReadRefused, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS};

/// The separator of a header path's parts.
pub const HEADER_PATH_SEPARATOR: &str = " › ";

/// What a body row is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum BodyRow {
    /// A row of data.
    Data(Vec<String>),
    /// A Total or Subtotal row.
    Total(Vec<String>),
    /// A note across the table.
    Note(String),
}

/// A table read into its caption, its header (one path per column) and its rows.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Shaped {
    /// The title written in a row of its own above the header.
    pub caption: Option<String>,
    /// Each column's header path (empty when the table names no columns).
    pub header: Vec<String>,
    /// The body rows.
    pub rows: Vec<BodyRow>,
}

/// Reads a table's rows (spans already written out) into a [`Shaped`] table. `header_rows`:
/// how many of the first rows the file marks as header (0 when it does not say).
pub(super) fn shape(rows: Vec<Vec<String>>, header_rows: usize) -> Shaped {
    shape_with(rows, header_rows, false)
}

/// [`shape`] for rows whose spans the file wrote (an HTML table's [`SpanGrid`]): a header cell
/// spanning two header rows is then in both, so a blank first cell under a named one, in a
/// column blank all the way down, is a body row's own blank (a picture's cell), not the rest
/// of a header spanning down.
pub(super) fn shape_spanned(rows: Vec<Vec<String>>, header_rows: usize) -> Shaped {
    shape_with(rows, header_rows, true)
}

fn shape_with(mut rows: Vec<Vec<String>>, mut header_rows: usize, spans_written: bool) -> Shaped {
    rows.retain(|r| r.iter().any(|c| !c.trim().is_empty()));
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    for row in &mut rows {
        row.resize(width, String::new());
    }
    let mut caption = None;
    // A title row: one cell of words (or the same words in every cell, a merge written out)
    // above a row that names two or more columns, in a table of three columns or more.
    // Over two columns it is an infobox's title ("Elderholm" over "County | Caddingshire"):
    // its rows are `Label: value` lines under it, with no header.
    let infobox_title = width == 2 && rows.len() >= 2;
    if (width >= 3 && rows.len() >= 3) || infobox_title {
        if let Some(title) = lone_text(&rows[0]) {
            let below = rows[1].iter().filter(|c| !c.trim().is_empty()).count();
            if below >= 2 && (!is_value_cell(&title) || dated_title(&title)) {
                caption = Some(title);
                rows.remove(0);
                header_rows = header_rows.saturating_sub(1);
                if infobox_title {
                    let body = rows.into_iter().map(classify).collect();
                    return Shaped {
                        caption,
                        header: Vec::new(),
                        rows: body,
                    };
                }
            }
        }
    }
    let names_only = |row: &Vec<String>| row.iter().all(|c| c.trim().is_empty() || names_column(c));
    let first_is_header = header_rows > 0
        || (!rows.is_empty()
            && rows[0].iter().all(|c| !is_value_cell(c))
            && rows
                .iter()
                .skip(1)
                .any(|r| r.iter().any(|c| is_value_cell(c))));
    let mut header_grid: Vec<Vec<String>> = Vec::new();
    if first_is_header && !rows.is_empty() {
        header_grid.push(rows.remove(0));
        // Header rows below the first: marked so by the file, or names under a first cell that
        // is blank or repeats the one above (a header cell spanning both rows).
        while let Some(next) = rows.first() {
            let marked = header_grid.len() < header_rows;
            let first_above = header_grid[0].first().map(|c| c.trim()).unwrap_or("");
            let first = next.first().map(|c| c.trim()).unwrap_or("");
            // A blank first cell continues the header where spans are not written (a merged
            // corner exported once), or where the column is filled below (a corner left
            // blank); a column blank all the way down under its name is a picture's.
            let filled_below = rows.iter().skip(1).any(|r| !r[0].trim().is_empty());
            let blank_under =
                first.is_empty() && (!spans_written || first_above.is_empty() || filled_below);
            let continues = names_only(next)
                && (blank_under || first == first_above)
                && next.iter().skip(1).any(|c| !c.trim().is_empty())
                && Some(next) != header_grid.last();
            // One text across every column under the header ("Representing Guatemala") is a
            // section of the rows below, not a level of the columns' names.
            let section = lone_text(next).is_some()
                && next.iter().all(|c| !c.trim().is_empty())
                && width >= 2;
            if !(marked || continues) || section || header_grid.len() >= 3 || rows.len() < 2 {
                break;
            }
            header_grid.push(rows.remove(0));
        }
    }
    let mut header = header_paths(&header_grid, width);
    let mut body: Vec<BodyRow> = rows.into_iter().map(classify).collect();
    drop_blank_halves(&mut header, &mut body);
    fill_down(&mut body, &header);
    Shaped {
        caption,
        header,
        rows: body,
    }
}

/// Drops the blank half of two columns under one header cell spanning both (a colour swatch
/// beside a party's name under one "Party", issue 100: Wikipedia's election tables): a column
/// blank in every row whose pair holds text says nothing a reader could count. Only pairs: a
/// longer run of one header is left as it is. Each row is rebuilt once.
fn drop_blank_halves(header: &mut Vec<String>, body: &mut [BodyRow]) {
    if !body.iter().any(|r| matches!(r, BodyRow::Data(_))) {
        return;
    }
    let blank_in_every_row = |column: usize| {
        body.iter().all(|row| match row {
            BodyRow::Data(cells) | BodyRow::Total(cells) => {
                cells.get(column).is_none_or(|c| c.trim().is_empty())
            }
            BodyRow::Note(_) => true,
        })
    };
    let same = |a: usize, b: usize| {
        header.get(a).is_some_and(|h| !h.trim().is_empty()) && header.get(a) == header.get(b)
    };
    let mut dropped = vec![false; header.len()];
    let mut column = 0;
    while column + 1 < header.len() {
        let pair = same(column, column + 1)
            && !(column > 0 && same(column - 1, column))
            && !same(column + 1, column + 2);
        if pair {
            match (blank_in_every_row(column), blank_in_every_row(column + 1)) {
                (true, false) => dropped[column] = true,
                (false, true) => dropped[column + 1] = true,
                _ => {}
            }
            column += 2;
        } else {
            column += 1;
        }
    }
    if !dropped.contains(&true) {
        return;
    }
    let kept = |cells: &mut Vec<String>| {
        let mut index = 0;
        cells.retain(|_| {
            index += 1;
            !dropped.get(index - 1).copied().unwrap_or(false)
        });
    };
    kept(header);
    for row in body.iter_mut() {
        if let BodyRow::Data(cells) | BodyRow::Total(cells) = row {
            kept(cells);
        }
    }
}

/// Whether a title's only numbers are years or spans of years ("Climate data for Fayetteville
/// (1981–2010 normals)"): a title still, not a row of values.
fn dated_title(title: &str) -> bool {
    let words: Vec<&str> = title.split_whitespace().collect();
    words.len() >= 3
        && words.iter().all(|word| {
            let word = word.trim_matches(|c: char| !c.is_alphanumeric());
            !word.starts_with(|c: char| c.is_ascii_digit())
                || word
                    .split(['–', '-', '/'])
                    .all(|part| part.len() == 4 && part.chars().all(|c| c.is_ascii_digit()))
        })
}

/// The text of a row whose one cell (or every non-empty cell, the same text) holds words.
fn lone_text(row: &[String]) -> Option<String> {
    let filled: Vec<&str> = row
        .iter()
        .map(|c| c.trim())
        .filter(|c| !c.is_empty())
        .collect();
    let first = *filled.first()?;
    filled
        .iter()
        .all(|c| *c == first)
        .then(|| first.to_string())
}

/// Whether a header cell names a column: words, a year or a season ("2024–25", "Q3 2025"),
/// not a value.
fn names_column(cell: &str) -> bool {
    let cell = cell.trim();
    let season = cell.len() >= 7
        && cell.chars().take(4).all(|c| c.is_ascii_digit())
        && cell[4..].starts_with(['–', '-', '/'])
        && cell.chars().filter(|c| c.is_ascii_digit()).count() <= 8
        && cell.split(['–', '-', '/']).count() == 2;
    season || !is_value_cell(cell)
}

/// Each column's header path from the header rows: a cell spanning columns written once (in
/// its first column, blank to its right above named sub-columns) names them all; a part is
/// named once however many rows it spans.
fn header_paths(grid: &[Vec<String>], width: usize) -> Vec<String> {
    if grid.is_empty() {
        return Vec::new();
    }
    let mut filled: Vec<Vec<String>> = grid.to_vec();
    for r in 0..filled.len().saturating_sub(1) {
        for c in 1..width {
            let lower_named = !filled[r + 1][c].trim().is_empty();
            if filled[r][c].trim().is_empty() && lower_named {
                // The nearest named cell to the left, when it is over a named sub-column too.
                if let Some(left) = (0..c).rev().find(|&l| !filled[r][l].trim().is_empty()) {
                    let group = !filled[r + 1][left].trim().is_empty()
                        && (left + 1..c).all(|m| !filled[r + 1][m].trim().is_empty());
                    if group && left > 0 {
                        filled[r][c] = filled[r][left].clone();
                    }
                }
            }
        }
    }
    (0..width)
        .map(|c| {
            let mut parts: Vec<&str> = Vec::new();
            for row in &filled {
                let text = row.get(c).map_or("", |t| t.trim());
                if !text.is_empty() && parts.last() != Some(&text) {
                    parts.push(text);
                }
            }
            parts.join(HEADER_PATH_SEPARATOR)
        })
        .collect()
}

/// A body row's kind, from its cells.
fn classify(cells: Vec<String>) -> BodyRow {
    let filled: Vec<&str> = cells
        .iter()
        .map(|c| c.trim())
        .filter(|c| !c.is_empty())
        .collect();
    if cells.len() >= 2 && filled.len() == 1 && is_note(filled[0]) {
        return BodyRow::Note(filled[0].to_string());
    }
    let label = cells
        .iter()
        .take(2)
        .map(|c| c.trim())
        .find(|c| !c.is_empty());
    if label.is_some_and(is_total_label) {
        return BodyRow::Total(cells);
    }
    BodyRow::Data(cells)
}

/// "Total", "Grand total", "Subtotal", "North total", "Total (all sites)".
pub(super) fn is_total_label(label: &str) -> bool {
    let lower = label.trim().trim_end_matches(':').to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == '(')
        .filter(|w| !w.is_empty())
        .collect();
    let total = |w: &&str| matches!(*w, "total" | "totals" | "subtotal" | "sub-total");
    words.len() <= 4
        && (words.first().is_some_and(total)
            || words.last().is_some_and(total)
            || lower.starts_with("sub total"))
}

/// A note written across a table: a sentence of words (it may hold a figure: "Children under 12
/// go free."), or a line that starts as notes do.
fn is_note(text: &str) -> bool {
    let words = text.split_whitespace().count();
    let lettered = text
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic) && !w.chars().any(|c| c.is_ascii_digit()))
        .count();
    let marked = text.starts_with(['*', '†', '‡', '¹', '²', '³'])
        || ["note", "notes", "source", "sources"]
            .iter()
            .any(|w| text.to_lowercase().starts_with(w));
    let sentence = words >= 3 && lettered * 2 > words && text.ends_with('.');
    marked || sentence || (words >= 8 && lettered * 2 > words)
}

/// Whether a table cell holds a value: a word of it is a number ("4", "£3.50", "Carn Mheall,
/// 412 m"), other than a year (a column named by its year, "Population (2021)"). Digits inside
/// a name ("RX-600", "Q3") do not make a value.
pub(super) fn is_value_cell(cell: &str) -> bool {
    cell.split_whitespace().any(|word| {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric() && !"£$€".contains(c));
        let year = word.len() == 4
            && word.chars().all(|c| c.is_ascii_digit())
            && (word.starts_with("19") || word.starts_with("20"));
        let number = word
            .trim_start_matches(['£', '$', '€'])
            .starts_with(|c: char| c.is_ascii_digit());
        number && !year
    })
}

/// A blank cell of a text column near the row's label, under a cell of words, in a data row:
/// the cell above merged down (a spreadsheet's or a text table's blank under a group's name).
fn fill_down(rows: &mut [BodyRow], header: &[String]) {
    let width = header
        .len()
        .max(rows.iter().map(data_width).max().unwrap_or(0));
    for column in 0..width.min(2) {
        // Only a column of words whose blanks sit under words.
        let cells: Vec<&str> = rows
            .iter()
            .filter_map(|r| match r {
                BodyRow::Data(cells) => cells.get(column).map(|c| c.trim()),
                _ => None,
            })
            .collect();
        let blanks = cells.iter().filter(|c| c.is_empty()).count();
        let words = cells
            .iter()
            .filter(|c| !c.is_empty())
            .all(|c| !is_value_cell(c));
        if blanks == 0
            || blanks == cells.len()
            || !words
            || cells.first().is_none_or(|c| c.is_empty())
        {
            continue;
        }
        let mut above: Option<String> = None;
        for row in rows.iter_mut() {
            match row {
                BodyRow::Data(cells) => {
                    let Some(cell) = cells.get_mut(column) else {
                        continue;
                    };
                    if cell.trim().is_empty() {
                        if let Some(above) = &above {
                            *cell = above.clone();
                        }
                    } else {
                        above = Some(cell.clone());
                    }
                }
                // A total ends a group.
                BodyRow::Total(_) => above = None,
                BodyRow::Note(_) => {}
            }
        }
    }
}

fn data_width(row: &BodyRow) -> usize {
    match row {
        BodyRow::Data(cells) | BodyRow::Total(cells) => cells.len(),
        BodyRow::Note(_) => 0,
    }
}

/// A table's cells placed by their spans, written out as a person reads them: a header cell in
/// every column and row it spans; a body cell merged down in every row it spans, merged across
/// once (blank to its right, as a note across the table is one cell).
#[derive(Debug, Default)]
pub(super) struct SpanGrid {
    rows: Vec<Vec<Option<String>>>,
    /// Cells written out so far, spans included: bounded by the table bounds.
    placed: usize,
    /// How many of the first rows are header rows.
    pub header_rows: usize,
}

impl SpanGrid {
    /// Starts row `row` (0-based, in order).
    pub(super) fn place(
        &mut self,
        row: usize,
        text: &str,
        colspan: usize,
        rowspan: usize,
        header: bool,
    ) -> Result<(), ReadRefused> {
        // A span is cut to what a table spans (HTML's own limits: 1,000 columns, 65,534 rows,
        // here the table bounds), and the cells written out are counted, so that a few bytes
        // of spans cannot make a large grid.
        let colspan = colspan.clamp(1, MAX_TABLE_COLUMNS);
        let rowspan = rowspan.clamp(1, 1_000);
        self.placed = self.placed.saturating_add(colspan.saturating_mul(rowspan));
        if self.placed > MAX_TABLE_CELLS || row + rowspan > MAX_TABLE_CELLS {
            return Err(ReadRefused::TooLarge(format!(
                "a table's merged cells span more than {MAX_TABLE_CELLS} cells"
            )));
        }
        while self.rows.len() <= row {
            self.rows.push(Vec::new());
        }
        let column = self.rows[row]
            .iter()
            .position(Option::is_none)
            .unwrap_or(self.rows[row].len());
        for r in row..row + rowspan {
            while self.rows.len() <= r {
                self.rows.push(Vec::new());
            }
            for c in column..column + colspan {
                let line = &mut self.rows[r];
                while line.len() <= c {
                    line.push(None);
                }
                let shown = header || (c == column && (r == row || rowspan > 1));
                line[c] = Some(if shown {
                    text.to_string()
                } else {
                    String::new()
                });
            }
        }
        Ok(())
    }

    /// The rows, each cell written out.
    pub(super) fn into_rows(self) -> Vec<Vec<String>> {
        self.rows
            .into_iter()
            .map(|r| r.into_iter().map(Option::unwrap_or_default).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect()
    }

    /// Issue 100: a picture column's blank cell under "Picture" starts a body row in a table
    /// whose spans are written (HTML), where a header spanning two rows would be in both; in a
    /// file without spans (CSV) the blank still continues the header.
    #[test]
    fn a_picture_s_blank_cell_under_a_named_header_is_a_body_row_where_spans_are_written() {
        let rows = |cells: &[&[&str]]| -> Vec<Vec<String>> {
            cells
                .iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect()
        };
        let table = rows(&[
            &["Picture", "Model", "Origin", "Built"],
            &["", "AM General HMMWV", "United States", "Yes"],
            &["", "M35 Truck", "United States", "1,200"],
            &["", "CMC Cruiser", "Philippines", "40"],
        ]);
        let spanned = shape_spanned(table.clone(), 0);
        assert_eq!(spanned.header, ["Picture", "Model", "Origin", "Built"]);
        assert_eq!(spanned.rows.len(), 3);
        // Files that write no spans keep the old rule (a known loss there: their first row).
        assert_eq!(shape(table, 0).rows.len(), 2);
        // A corner left blank in a column filled below still continues the header.
        let corner = rows(&[
            &["Country", "Population", "Population"],
            &["", "2010", "2020"],
            &["Kenya", "40,000,000", "53,000,000"],
            &["Chad", "11,000,000", "16,000,000"],
        ]);
        assert_eq!(
            shape_spanned(corner, 0).header,
            ["Country", "Population › 2010", "Population › 2020"]
        );
        // A header spanning both rows is written in both: the second row still continues it.
        let two_rows = rows(&[
            &["Region", "Loans", "Loans"],
            &["Region", "2024", "2025"],
            &["North", "120", "130"],
            &["South", "80", "95"],
        ]);
        let shaped = shape_spanned(two_rows, 0);
        assert_eq!(shaped.header, ["Region", "Loans › 2024", "Loans › 2025"]);
        assert_eq!(shaped.rows.len(), 2);
    }

    /// Issue 100: a colour swatch beside a party's name under one spanning "Party" header is
    /// no column; a spanned pair whose both halves hold text stays two columns.
    #[test]
    fn a_blank_half_of_a_spanned_header_is_no_column() {
        let elections = grid(&[
            &["By-election", "Incumbent", "Party", "Party", "Retained"],
            &["Stanstead", "Henry Lovell", " ", "Liberal", "Yes"],
            &["Huron South", "Benjamin Gunn", "", "Conservative", "No"],
        ]);
        let shaped = shape(elections, 1);
        assert_eq!(
            shaped.header,
            ["By-election", "Incumbent", "Party", "Retained"]
        );
        assert_eq!(
            shaped.rows[1],
            BodyRow::Data(vec![
                "Huron South".into(),
                "Benjamin Gunn".into(),
                "Conservative".into(),
                "No".into()
            ])
        );
        let scores = grid(&[
            &["Team", "Score", "Score"],
            &["Ashby", "3", "1"],
            &["Brill", "2", "2"],
        ]);
        assert_eq!(shape(scores, 1).header, ["Team", "Score", "Score"]);
    }

    /// Issue 100 (Wikipedia's tables): a title dated by years is still a title, and a row of
    /// one text across the columns under the header is a section, not a header level.
    #[test]
    fn a_dated_title_is_a_caption_and_a_section_row_is_no_header() {
        let climate = grid(&[
            &["Climate data for Fayetteville (1981–2010 normals)"; 3],
            &["Month", "Jan", "Feb"],
            &["Record high °F", "78", "83"],
            &["Mean low °F", "25", "29"],
        ]);
        let shaped = shape(climate, 2);
        assert_eq!(
            shaped.caption.as_deref(),
            Some("Climate data for Fayetteville (1981–2010 normals)")
        );
        assert_eq!(shaped.header, ["Month", "Jan", "Feb"]);
        let results = grid(&[
            &["Year", "Competition", "Venue"],
            &["Representing Guatemala"; 3],
            &["2003", "Pan American Games", "Santo Domingo"],
            &["2007", "Pan American Games", "Rio de Janeiro"],
        ]);
        let shaped = shape(results, 2);
        assert_eq!(shaped.header, ["Year", "Competition", "Venue"]);
    }

    #[test]
    fn a_title_row_is_the_caption_and_two_header_rows_make_paths() {
        let shaped = shape(
            grid(&[
                &["Spending by school", "", "", ""],
                &["School", "Spending (£)", "", "Pupils"],
                &["", "2024–25", "2025–26", ""],
                &["Hartley Road", "120,000", "131,500", "212"],
                &["Total", "120,000", "131,500", "212"],
                &["Fees are per term for each pupil.", "", "", ""],
            ]),
            0,
        );
        assert_eq!(shaped.caption.as_deref(), Some("Spending by school"));
        assert_eq!(
            shaped.header,
            vec![
                "School",
                "Spending (£) › 2024–25",
                "Spending (£) › 2025–26",
                "Pupils"
            ]
        );
        assert!(matches!(&shaped.rows[0], BodyRow::Data(c) if c[0] == "Hartley Road"));
        assert!(matches!(&shaped.rows[1], BodyRow::Total(_)));
        assert!(matches!(&shaped.rows[2], BodyRow::Note(n) if n.starts_with("Fees")));
    }

    #[test]
    fn a_group_merged_down_fills_its_rows_and_spans_are_written_out() {
        let mut spans = SpanGrid::default();
        spans.place(0, "Club", 1, 2, true).unwrap();
        spans.place(0, "Matches", 2, 1, true).unwrap();
        spans.place(1, "2024–25", 1, 1, true).unwrap();
        spans.place(1, "2025–26", 1, 1, true).unwrap();
        spans.place(2, "Falcon", 1, 1, false).unwrap();
        spans.place(2, "8", 1, 1, false).unwrap();
        spans.place(2, "9", 1, 1, false).unwrap();
        spans
            .place(3, "Prices are per adult member.", 3, 1, false)
            .unwrap();
        let rows = spans.into_rows();
        assert_eq!(rows[1], vec!["Club", "2024–25", "2025–26"]);
        assert_eq!(rows[3], vec!["Prices are per adult member.", "", ""]);
        let shaped = shape(rows, 2);
        assert_eq!(shaped.header[1], "Matches › 2024–25");
        assert!(matches!(&shaped.rows[1], BodyRow::Note(_)));
        let shaped = shape(
            grid(&[
                &["Branch", "Area", "Staff"],
                &["Mill Lane", "North", "4"],
                &["Quayside", "", "7"],
                &["Total", "", "11"],
            ]),
            1,
        );
        assert_eq!(
            shaped.rows[1],
            BodyRow::Data(vec!["Quayside".into(), "North".into(), "7".into()])
        );
        assert!(matches!(&shaped.rows[2], BodyRow::Total(c) if c[1].is_empty()));
    }
}
