//! The text formats as people write them: plain text with aligned columns (a table's merged
//! group header written once over its first column, a title line above it, a note line under
//! it), Markdown with GFM tables (a second header row as the table's first row, as converters
//! write it), and CSV of the document's first table (as a spreadsheet exports it: merged cells
//! blank).

use crate::model::{Block, Document, RowKind, Table, Value, Word};

/// Plain text: wrapped at 72 columns, hyphenated where a long word meets the margin, note
/// markers as superscript digits, and ligatures when the text was copied from a typeset page
/// (odd seeds).
pub(super) fn plain(document: &Document) -> String {
    let ligatures = !document.seed.is_multiple_of(2);
    let mut out = format!("{}\n\n", document.title);
    for block in &document.blocks {
        match block {
            Block::Heading { level, text } => {
                if *level == 1 {
                    out.push_str(&format!("{text}\n{}\n\n", "=".repeat(text.chars().count())));
                } else {
                    out.push_str(&format!("{text}\n\n"));
                }
            }
            Block::Paragraph { words } => {
                out.push_str(&wrap(words, 72, ligatures));
                out.push('\n');
            }
            Block::List { lead, items } => {
                if let Some(lead) = lead {
                    out.push_str(&format!("{lead}\n"));
                }
                for item in items {
                    out.push_str(&format!("- {item}\n"));
                }
                out.push('\n');
            }
            Block::KeyValues { pairs } => {
                for (label, value) in pairs {
                    out.push_str(&format!("{label}: {value}\n"));
                }
                out.push('\n');
            }
            Block::Table(table) => {
                out.push_str(&aligned(table));
                out.push('\n');
            }
        }
    }
    out
}

/// Words wrapped at `width` characters, a hyphenable word broken at its hyphen point when it
/// meets the margin.
fn wrap(words: &[Word], width: usize, ligatures: bool) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in words {
        let mut text = word.written(ligatures);
        if let Some(note) = word.note {
            text.push(superscript(note));
        }
        let fits =
            |line: &str, more: &str| line.chars().count() + 1 + more.chars().count() <= width;
        if line.is_empty() || fits(&line, &text) {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&text);
            continue;
        }
        match word.hyphen_at {
            Some(at) if fits(&line, &format!("{}-", &word.text[..at])) && !ligatures => {
                line.push_str(&format!(" {}-", &word.text[..at]));
                out.push_str(&line);
                out.push('\n');
                line = word.text[at..].to_string();
            }
            _ => {
                out.push_str(&line);
                out.push('\n');
                line = text;
            }
        }
    }
    out.push_str(&line);
    out.push('\n');
    out
}

fn superscript(n: u8) -> char {
    match n {
        1 => '¹',
        2 => '²',
        3 => '³',
        4 => '⁴',
        5 => '⁵',
        6 => '⁶',
        7 => '⁷',
        8 => '⁸',
        _ => '⁹',
    }
}

/// A table's rows as a person writes them in a text file or a CSV export: the title alone on
/// the first row, each header row with a spanning cell written in its first column, the body
/// with covered cells blank and a note in its first cell.
fn written_rows(table: &Table) -> Vec<Vec<String>> {
    let width = table.width();
    let mut rows = Vec::new();
    if let Some(title) = &table.title_row {
        let mut row = vec![String::new(); width];
        row[0] = title.clone();
        rows.push(row);
    }
    let grid = table.header_grid();
    for (r, header) in table.header.iter().enumerate() {
        let mut row = vec![String::new(); width];
        let mut c = 0;
        for cell in header {
            // A cell spanning from the row above is not written again.
            while c < width && r > 0 && grid[r][c] == grid[r - 1][c] && spans_down(table, r - 1, c)
            {
                c += 1;
            }
            if c < width {
                row[c] = cell.text.clone();
            }
            c += cell.colspan;
        }
        rows.push(row);
    }
    for row in &table.rows {
        let mut cells = vec![String::new(); width];
        match row.kind {
            RowKind::Note => cells[0] = row.cells[0].value.shown(),
            _ => {
                for (c, cell) in row.cells.iter().enumerate() {
                    if cell.value != Value::Covered {
                        cells[c] = cell.value.shown();
                    }
                }
            }
        }
        rows.push(cells);
    }
    rows
}

/// Whether the header cell covering column `c` of header row `r` spans the row below.
fn spans_down(table: &Table, r: usize, c: usize) -> bool {
    let mut at = 0;
    for (row_index, row) in table.header.iter().enumerate().take(r + 1) {
        if row_index < r {
            continue;
        }
        for cell in row {
            if (at..at + cell.colspan).contains(&c) {
                return cell.rowspan > 1;
            }
            at += cell.colspan;
        }
    }
    false
}

/// Columns aligned by runs of spaces; the title and notes are lines of their own.
fn aligned(table: &Table) -> String {
    let rows = written_rows(table);
    let width = table.width();
    let mut widths = vec![0; width];
    for row in &rows {
        let alone = row.iter().skip(1).all(String::is_empty);
        for (c, cell) in row.iter().enumerate() {
            if !(alone && c == 0) {
                widths[c] = widths[c].max(cell.chars().count());
            }
        }
    }
    let mut out = String::new();
    for row in rows {
        if row.iter().skip(1).all(String::is_empty) {
            out.push_str(row[0].trim());
            out.push('\n');
            continue;
        }
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| format!("{cell:<w$}", w = widths[c]))
            .collect();
        out.push_str(line.join("   ").trim_end());
        out.push('\n');
    }
    out
}

/// Markdown: `#` headings, `-` lists, `Label: value` lines, GFM tables (a title as a bold
/// line above; a second header row as the table's first row).
pub(super) fn markdown(document: &Document) -> String {
    let mut out = format!("# {}\n\n", document.title);
    for block in &document.blocks {
        match block {
            Block::Heading { level, text } => {
                out.push_str(&format!("{} {text}\n\n", "#".repeat(*level as usize + 1)));
            }
            Block::Paragraph { words } => {
                let text: Vec<String> = words
                    .iter()
                    .map(|w| match w.note {
                        Some(n) => format!("{}[^{n}]", w.text),
                        None => w.text.clone(),
                    })
                    .collect();
                out.push_str(&format!("{}\n\n", text.join(" ")));
            }
            Block::List { lead, items } => {
                if let Some(lead) = lead {
                    out.push_str(&format!("{lead}\n\n"));
                }
                for item in items {
                    out.push_str(&format!("- {item}\n"));
                }
                out.push('\n');
            }
            Block::KeyValues { pairs } => {
                for (label, value) in pairs {
                    out.push_str(&format!("- **{label}:** {value}\n"));
                }
                out.push('\n');
            }
            Block::Table(table) => {
                let mut rows = written_rows(table);
                if table.title_row.is_some() {
                    let title = rows.remove(0);
                    out.push_str(&format!("**{}**\n\n", title[0]));
                }
                for (n, row) in rows.iter().enumerate() {
                    let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
                    out.push_str(&format!("| {} |\n", cells.join(" | ")));
                    if n == 0 {
                        out.push_str(&format!("|{}\n", "---|".repeat(row.len())));
                    }
                }
                out.push('\n');
            }
        }
    }
    let notes: Vec<u8> = document
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph { words } => Some(words),
            _ => None,
        })
        .flatten()
        .filter_map(|w| w.note)
        .collect();
    for n in notes {
        out.push_str(&format!("[^{n}]: See the notes at the back.\n"));
    }
    out
}

/// The document's first table as CSV, as a spreadsheet exports it.
pub(super) fn csv(document: &Document) -> String {
    let Some(table) = document.blocks.iter().find_map(|b| match b {
        Block::Table(t) => Some(t),
        _ => None,
    }) else {
        return String::new();
    };
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in written_rows(table) {
        // Writing to memory cannot fail.
        writer.write_record(&row).expect("memory takes the row");
    }
    String::from_utf8(writer.into_inner().expect("memory takes the rows"))
        .expect("the cells are text")
}
