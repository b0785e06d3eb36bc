//! Plain text read line by line, as a person sees its layout: a title line, headings (a short
//! line alone, `#` marks, an underline), bullet and numbered lists, `Label: value` lines (a
//! label whose value is a list of names is a list: "Present: Ann, Ben and Cy"), tables (pipe or
//! box-drawn columns, columns aligned by runs of spaces or tabs), speaker turns ("LENA: …"),
//! dated entries ("2008 — …") and quoted replies ("> …", read as text).

use std::sync::{Arc, LazyLock};

use regex::Regex;

use super::grid::{self, is_value_cell, BodyRow};
use super::led_lists::{lead_of_lines, list_line};
use super::line_forms::{bullet, dated, unquote, MAX_LABEL_WORDS};
use super::ocr_slips::mend_columns;
use super::slip_lines::slip_rows;
use super::tasks::task_rows;
use super::{clean, Outline, OutlineBuilder, Record};
use crate::corpus::budget::{ReadBudget, ReadRefused, TableSize};

/// The longest line read as a heading or a title.
const MAX_HEADING_CHARS: usize = 90;
/// The most words a `Label: value` line's value has before it reads as a sentence.
const MAX_VALUE_WORDS: usize = 12;

/// The outline of a plain text, within `budget`.
pub(crate) fn outline(text: &str, budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    let mut builder = OutlineBuilder::new(budget);
    let groups = groups(text);
    let mut pending_lead: Option<String> = None;
    // Short one-line paragraphs under a lead ("Present:", then a name a paragraph): its list.
    let mut lead_items: Vec<String> = Vec::new();
    for (n, group) in groups.iter().enumerate() {
        budget.check()?;
        let next_exists = n + 1 < groups.len();
        if pending_lead.is_some() && group.len() == 1 && list_line(group[0]) {
            lead_items.push(clean(group[0]));
            continue;
        }
        if !lead_items.is_empty() {
            builder.push(Record::List {
                lead: pending_lead.take(),
                items: std::mem::take(&mut lead_items),
            });
        }
        // A first group of a few short lines that are no sentences is the title, said over
        // several lines ("WEXCOMBE ALLOTMENT SOCIETY" / "Minutes of the committee meeting").
        if n == 0 && next_exists && (2..=3).contains(&group.len()) && title_lines(group) {
            let title: Vec<String> = group.iter().map(|l| clean(l)).collect();
            builder.heading(1, &title.join(" — "));
            continue;
        }
        if let Some((level, heading)) = heading_of(group, n == 0, next_exists) {
            builder.heading(level, &heading);
            continue;
        }
        // A lone line ending with a colon introduces what follows ("Ingredients:").
        if group.len() == 1 && group[0].trim_end().ends_with(':') && next_exists {
            let lead = clean(group[0].trim_end().trim_end_matches(':'));
            if lead.split_whitespace().count() <= MAX_LABEL_WORDS {
                pending_lead = Some(lead);
                continue;
            }
        }
        read_group(&mut builder, group, pending_lead.take())?;
    }
    if !lead_items.is_empty() {
        builder.push(Record::List {
            lead: pending_lead.take(),
            items: lead_items,
        });
    }
    builder.finish()
}

/// Reads the lines of one group (no blank line between them) into blocks; `lead` introduces
/// the group's first list.
pub(super) fn read_group(
    builder: &mut OutlineBuilder,
    group: &[&str],
    lead: Option<String>,
) -> Result<(), ReadRefused> {
    if let Some(rows) = aligned_rows(group) {
        return push_table(builder, rows);
    }
    // Runs of table lines (cells between `|` or `│`, and their rules) among other lines.
    let mut lead = lead;
    let mut start = 0;
    while start < group.len() {
        let in_table = |line: &str| is_rule(line) || separated(line);
        let run = group[start..].iter().take_while(|l| in_table(l)).count();
        if group[start..start + run]
            .iter()
            .filter(|l| separated(l))
            .count()
            >= 2
        {
            push_table(builder, pipe_rows(&group[start..start + run]))?;
            start += run;
            continue;
        }
        let rest = group[start..]
            .iter()
            .skip(1)
            .position(|l| separated(l))
            .map_or(group.len(), |p| start + 1 + p);
        read_lines(builder, &group[start..rest], lead.take())?;
        start = rest;
    }
    Ok(())
}

/// The prose lines gathered, as one paragraph (or, when it only names things — "English,
/// German, French" under a heading — as that heading's list); `prose` is emptied.
fn flush_prose(builder: &mut OutlineBuilder, prose: &mut Vec<String>) {
    if prose.is_empty() {
        return;
    }
    let text = clean(&prose.join(" "));
    let items = name_list(&text);
    let only_names = items.len() >= 3
        && items.iter().all(|i| i.split_whitespace().count() <= 4)
        && !text.ends_with(['.', '!', '?', ':']);
    builder.push(if only_names {
        Record::List { lead: None, items }
    } else {
        Record::Paragraph(text)
    });
    prose.clear();
}

/// The list items gathered, as a list under `lead` (or a task list's table); both are emptied.
fn flush_items(
    builder: &mut OutlineBuilder,
    items: &mut Vec<String>,
    lead: &mut Option<String>,
) -> Result<(), ReadRefused> {
    if items.is_empty() {
        return Ok(());
    }
    let lead = lead.take();
    let items = std::mem::take(items);
    match task_rows(lead.as_deref(), &items) {
        Some(rows) => push_grid(builder, rows, 1),
        None => {
            builder.push(Record::List { lead, items });
            Ok(())
        }
    }
}

/// Reads lines that hold no table into blocks.
fn read_lines(
    builder: &mut OutlineBuilder,
    group: &[&str],
    lead: Option<String>,
) -> Result<(), ReadRefused> {
    let mut lead = lead;
    let mut prose: Vec<String> = Vec::new();
    let mut items: Vec<String> = Vec::new();
    // A lead given to the group whose first lines are items of its list.
    let mut skip = 0;
    if lead.is_some() {
        let led = group.iter().take_while(|l| list_line(l)).count();
        if led > 0 {
            builder.push(Record::List {
                lead: lead.take(),
                items: group[..led].iter().map(|l| clean(unquote(l))).collect(),
            });
            skip = led;
        }
    }
    let mut n = skip;
    while n < group.len() {
        let raw = group[n];
        n += 1;
        let line = unquote(raw);
        if line.is_empty() {
            continue;
        }
        if let Some((in_lead, count)) = lead_of_lines(&group[n - 1..]) {
            flush_prose(builder, &mut prose);
            flush_items(builder, &mut items, &mut lead)?;
            builder.push(Record::List {
                lead: Some(in_lead),
                items: group[n..n + count]
                    .iter()
                    .map(|l| clean(unquote(l)))
                    .collect(),
            });
            n += count;
            continue;
        }
        if let Some(item) = bullet(line) {
            // A line ending with a colon just above the bullets leads their list ("Actions:").
            if items.is_empty() && lead.is_none() && prose.len() == 1 {
                let above = prose[0].trim_end();
                if let Some(label) = above.strip_suffix(':') {
                    if (1..=MAX_LABEL_WORDS).contains(&label.split_whitespace().count()) {
                        lead = Some(clean(label));
                        prose.clear();
                    }
                }
            }
            flush_prose(builder, &mut prose);
            // A bullet that is a `Label: value` line is a spec line, not a list item.
            if let Some(kind) = labelled(item) {
                flush_items(builder, &mut items, &mut lead)?;
                builder.push(kind);
            } else {
                items.push(clean(item));
            }
            continue;
        }
        flush_items(builder, &mut items, &mut lead)?;
        if let Some(kind) = dated(line).or_else(|| labelled(line)) {
            flush_prose(builder, &mut prose);
            // An e-mail's subject names what its message is about, as a heading does.
            match kind {
                Record::KeyValue { label, value } if label.eq_ignore_ascii_case("subject") => {
                    builder.heading(2, &value)
                }
                kind => builder.push(kind),
            }
            continue;
        }
        // A line that goes on a turn or an entry ("LENA: …" and its next line) joins it.
        if prose.is_empty() {
            if let Some(last) = builder.outline.blocks.last_mut() {
                if let Record::Turn { text, .. } | Record::Dated { text, .. } = &mut last.kind {
                    if raw.starts_with([' ', '\t']) || !text.ends_with(['.', '!', '?']) {
                        text.push(' ');
                        text.push_str(&clean(line));
                        continue;
                    }
                }
            }
        }
        prose.push(line.to_string());
    }
    flush_prose(builder, &mut prose);
    flush_items(builder, &mut items, &mut lead)
}

/// Lines between blank lines, trailing white space dropped.
fn groups(text: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim_end();
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
        } else {
            current.push(line);
        }
    }
    out
}

/// The group as a heading and its level: `#` marks, a line underlined with `=` (1) or `-` (2),
/// or a short line alone that does not end as a sentence does (the document's first such line
/// is its title, level 1).
fn heading_of(group: &[&str], first: bool, next_exists: bool) -> Option<(usize, String)> {
    let line = group[0].trim();
    if group.len() == 2 {
        let under = group[1].trim();
        if under.len() >= 3 && under.chars().all(|c| c == '=') {
            return Some((1, line.to_string()));
        }
        if under.len() >= 3 && under.chars().all(|c| c == '-') {
            return Some((2, line.to_string()));
        }
    }
    if group.len() != 1 {
        return None;
    }
    let marks = line.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&marks) && line[marks..].starts_with(' ') {
        return Some((marks, line[marks..].trim().to_string()));
    }
    let short = line.chars().count() <= MAX_HEADING_CHARS;
    let sentence_end = line.ends_with(['.', '!', '?', ':', ';', ',']);
    // A first line alone may read as a label ("Pellow Bakery: our story"): it is the title.
    let is_item =
        bullet(line).is_some() || (!first && labelled(line).is_some()) || dated(line).is_some();
    let has_letters = line.chars().any(char::is_alphabetic);
    (next_exists && short && !sentence_end && !is_item && has_letters)
        .then(|| (if first { 1 } else { 2 }, clean(line)))
}

/// Whether every line of a group could be a title's: short, no sentence, no list item, no
/// `Label: value` line or table row.
fn title_lines(group: &[&str]) -> bool {
    group.iter().all(|line| {
        let line = line.trim();
        line.chars().count() <= MAX_HEADING_CHARS
            && !line.ends_with(['.', '!', '?', ':', ';'])
            && bullet(line).is_none()
            && labelled(line).is_none()
            && dated(line).is_none()
            && !separated(line)
            && !COLUMN_GAP.is_match(line)
    })
}

/// A `Label: value` line as a key–value line, a list ("Present: Ann, Ben and Cy") or a
/// speaker's turn ("LENA: We took on three porters this week.").
fn labelled(line: &str) -> Option<Record> {
    let (label, value) = line.split_once(':')?;
    let label = clean(label);
    let value = clean(value);
    let label_words = label.split_whitespace().count();
    if value.is_empty()
        || label_words == 0
        || label_words > MAX_LABEL_WORDS
        || label.ends_with(|c: char| c.is_ascii_digit())
            && value.starts_with(|c: char| c.is_ascii_digit())
        || !label.starts_with(|c: char| c.is_alphabetic() || c == '*')
        || label.contains(['.', '!', '?', '"', '(', ')'])
    {
        return None;
    }
    let value_words = value.split_whitespace().count();
    let names = name_list(&value);
    if names.len() >= 2 && !value.chars().any(|c| c.is_ascii_digit()) {
        return Some(Record::List {
            lead: Some(label),
            items: names,
        });
    }
    let reads_as_sentence = value_words > MAX_VALUE_WORDS || value.ends_with(['.', '!', '?']);
    if reads_as_sentence {
        // A speaker's name: one to three capitalised words.
        let speaker = label_words <= 3
            && label
                .split_whitespace()
                .all(|w| w.starts_with(|c: char| c.is_uppercase()));
        return speaker.then_some(Record::Turn {
            speaker: label,
            text: value,
        });
    }
    Some(Record::KeyValue { label, value })
}

/// The names of a list written in a sentence ("Ann Hale (chair), Ben Ode and the twins" →
/// three); empty when it is no such list (a clause, one name).
pub(super) fn name_list(text: &str) -> Vec<String> {
    let text = text.trim_end_matches(['.', ';']);
    let mut items: Vec<String> = Vec::new();
    for part in text.split([',', ';']) {
        let part = part.trim();
        let (left, right) = match part.split_once(" and ").or_else(|| part.split_once(" & ")) {
            Some((l, r)) => (l.trim(), Some(r.trim())),
            None => (part, None),
        };
        for item in std::iter::once(left).chain(right) {
            let item = item.trim_start_matches("and ").trim();
            if !item.is_empty() {
                items.push(item.to_string());
            }
        }
    }
    // Each item a short phrase: a list of names, not a clause.
    let short = items.iter().all(|i| i.split_whitespace().count() <= 5);
    if items.len() >= 2 && short {
        items
    } else {
        Vec::new()
    }
}

/// Whether a line holds cells between `|` or `│`.
fn separated(line: &str) -> bool {
    !is_rule(line) && (line.contains('|') || line.contains('│'))
}

/// The rows of a pipe or box-drawn table (its rule lines dropped).
fn pipe_rows(lines: &[&str]) -> Vec<Vec<String>> {
    lines
        .iter()
        .filter(|line| !is_rule(line))
        .map(|line| {
            line.trim()
                .trim_matches(['|', '│'])
                .split(['|', '│'])
                .map(clean)
                .collect()
        })
        .collect()
}

/// The rows of a group whose columns are aligned by runs of spaces (issue 85), as a person
/// reads a text table: the columns are where every row below the header leaves a gutter, each
/// run of text (two or more spaces apart) belongs to the column it starts in, so a blank cell
/// stays blank in its column; a line of one run (a title above, a note below) is a row of one
/// cell. At least three lines of two runs or more, and two columns; `None` otherwise.
fn aligned_rows(group: &[&str]) -> Option<Vec<Vec<String>>> {
    if group.len() < 3 || group.iter().any(|l| separated(l) || bullet(l).is_some()) {
        return None;
    }
    let lines: Vec<String> = group
        .iter()
        .filter(|l| !is_rule(l))
        .map(|l| l.replace('\t', "    ").trim_end().to_string())
        .collect();
    let runs: Vec<Vec<(usize, String)>> = lines.iter().map(|l| text_runs(l)).collect();
    let tabular: Vec<usize> = (0..lines.len()).filter(|&n| runs[n].len() >= 2).collect();
    if tabular.len() < 3 || tabular.len() * 2 < lines.len() {
        return None;
    }
    // The gutters of the body (the tabular lines after the first two, which may be headers
    // whose group names run over their sub-columns), or of every tabular line in a short table.
    let body: Vec<&str> = if tabular.len() >= 5 {
        tabular[2..].iter().map(|&n| lines[n].as_str()).collect()
    } else {
        tabular.iter().map(|&n| lines[n].as_str()).collect()
    };
    let width = body.iter().map(|l| l.chars().count()).max()?;
    let grids: Vec<Vec<char>> = body.iter().map(|l| l.chars().collect()).collect();
    let blank = |p: usize| grids.iter().all(|g| g.get(p).is_none_or(|c| *c == ' '));
    let starts: Vec<usize> = (0..width)
        .filter(|&p| !blank(p) && (p == 0 || blank(p - 1)))
        .collect();
    if starts.len() < 2 {
        return None;
    }
    let column_of = |at: usize| starts.iter().rposition(|s| *s <= at).unwrap_or(0);
    let mut rows: Vec<Vec<String>> = Vec::new();
    for line_runs in &runs {
        let mut row = vec![String::new(); starts.len()];
        if line_runs.len() == 1 {
            row[0] = clean(&line_runs[0].1);
        } else {
            for (at, text) in line_runs {
                let cell = &mut row[column_of(*at)];
                if !cell.is_empty() {
                    cell.push(' ');
                }
                cell.push_str(&clean(text));
            }
        }
        rows.push(row);
    }
    // A column no row fills is a gutter inside a cell's words.
    let used: Vec<bool> = (0..starts.len())
        .map(|c| rows.iter().any(|r| !r[c].is_empty()))
        .collect();
    for row in &mut rows {
        let mut c = 0;
        row.retain(|_| {
            c += 1;
            used[c - 1]
        });
    }
    (rows.first().map_or(0, Vec::len) >= 2).then_some(rows)
}

/// A line's runs of text two or more spaces apart, each with the column (in characters) it
/// starts at.
fn text_runs(line: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut runs = Vec::new();
    let mut p = 0;
    while p < chars.len() {
        if chars[p] == ' ' {
            p += 1;
            continue;
        }
        let start = p;
        while p < chars.len() && !(chars[p] == ' ' && chars.get(p + 1).is_none_or(|c| *c == ' ')) {
            p += 1;
        }
        runs.push((start, chars[start..p].iter().collect::<String>()));
    }
    runs
}

static COLUMN_GAP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\t+|\s{2,}").expect("column gap pattern"));

/// A table's rule line ("---|---", "├───┼───┤", "+----+").
fn is_rule(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && line.chars().all(|c| "-=+|:─━┼├┤┬┴┌┐└┘│ ".contains(c))
}

/// Table rows as blocks: the first row is the header when it holds no number and a later row
/// does (a header names columns; rows hold values). Refused past the table bounds of [`crate::corpus::budget`].
pub(super) fn push_table(
    builder: &mut OutlineBuilder,
    rows: Vec<Vec<String>>,
) -> Result<(), ReadRefused> {
    push_grid(builder, rows, 0)
}

/// A table's rows (merged cells written out, see [`grid::SpanGrid`]), the first `header_rows`
/// of them marked as header by the file (0 when it does not say): read into its caption,
/// header paths and typed rows ([`grid::shape`]) and pushed.
pub(super) fn push_grid(
    builder: &mut OutlineBuilder,
    rows: Vec<Vec<String>>,
    header_rows: usize,
) -> Result<(), ReadRefused> {
    push_shaped(builder, grid::shape(rows, header_rows))
}

/// [`push_grid`] for an HTML table, whose spans the file wrote ([`grid::SpanGrid`]; the office
/// readers' grids still go through [`push_grid`]).
pub(super) fn push_spans(
    builder: &mut OutlineBuilder,
    spans: grid::SpanGrid,
) -> Result<(), ReadRefused> {
    let header_rows = spans.header_rows;
    push_shaped(builder, grid::shape_spanned(spans.into_rows(), header_rows))
}

fn push_shaped(builder: &mut OutlineBuilder, mut shaped: grid::Shaped) -> Result<(), ReadRefused> {
    if let Some(caption) = &shaped.caption {
        builder.heading(6, caption);
    }
    if builder.read_by_ocr {
        let mut data: Vec<&mut Vec<String>> = shaped
            .rows
            .iter_mut()
            .filter_map(|row| match row {
                BodyRow::Data(cells) => Some(cells),
                _ => None,
            })
            .collect();
        mend_columns(&mut data);
    }
    push_rows(builder, shaped.header.into(), shaped.rows)
}

/// A table's rows under its `header` (one copy, shared by the rows), within the table bounds and
/// the builder's budget.
fn push_rows(
    builder: &mut OutlineBuilder,
    header: Arc<[String]>,
    body: Vec<BodyRow>,
) -> Result<(), ReadRefused> {
    // Two columns with no header read by OCR, most values prices, are a receipt's lines.
    let body = if builder.read_by_ocr && header.is_empty() {
        slip_rows(body)
    } else {
        body
    };
    // The rows of data are what a column's names are read from; a Total row and a note are not.
    // A table continued from the page before is read for its names with the rows there.
    let earlier = builder.continued_rows(&header).unwrap_or_default();
    let rows: Vec<&Vec<String>> = earlier
        .iter()
        .chain(body.iter().filter_map(|row| match row {
            BodyRow::Data(cells) => Some(cells),
            _ => None,
        }))
        .collect();
    let mut size = TableSize::default();
    size.add_row(header.len())?;
    // The things a table's columns name ("Station" over the stations' names, "Finish" over
    // four finishes on ten rows): each of its first columns whose cells are names, with the
    // different names it holds, so that "how many stations …" or "how many finishes …" is
    // counted in code and named. (A column that says the same on every row names one thing.)
    let listed: Vec<Record> = (0..header.len().min(MAX_NAMED_COLUMNS))
        .filter_map(|column| {
            let cells: Vec<&str> = rows
                .iter()
                .map(|r| r.get(column).map_or("", |c| c.trim()))
                .collect();
            let names_only = cells
                .iter()
                .all(|c| !c.is_empty() && !is_value_cell(c) && !is_year(c));
            let mut names: Vec<String> = Vec::new();
            for cell in &cells {
                if !names.iter().any(|n| n == cell) {
                    names.push(cell.to_string());
                }
            }
            (!header[column].trim().is_empty() && names_only && names.len() >= 2).then(|| {
                Record::RowNames {
                    column: header[column].clone(),
                    names,
                }
            })
        })
        .collect();
    // A header that names only its first column over two columns is an infobox's title
    // ("| Kilbrae | |"): its rows are `Label: value` lines.
    let infobox = header.len() == 2 && header[1].trim().is_empty();
    for (n, row) in body.into_iter().enumerate() {
        if n.is_multiple_of(1024) {
            builder.budget.check()?;
        }
        let (cells, total) = match row {
            BodyRow::Data(cells) => (cells, false),
            BodyRow::Total(cells) => (cells, true),
            BodyRow::Note(text) => {
                size.add_text(text.len())?;
                builder.push(Record::Paragraph(text));
                continue;
            }
        };
        size.add_row(cells.len())?;
        // The row as a passage writes each cell under its column's name.
        let named: usize = cells
            .iter()
            .zip(header.iter().map(String::len).chain(std::iter::repeat(0)))
            .filter(|(cell, _)| !cell.is_empty())
            .map(|(cell, column)| cell.len() + column + 4)
            .sum();
        size.add_text(named)?;
        // A two-column table without a header is an infobox: label | value.
        if (header.is_empty() || infobox) && cells.len() == 2 && !total {
            builder.push(Record::KeyValue {
                label: cells[0].clone(),
                value: cells[1].clone(),
            });
        } else if total {
            builder.push(Record::TotalRow {
                header: Arc::clone(&header),
                cells,
            });
        } else {
            builder.push(Record::TableRow {
                header: Arc::clone(&header),
                cells,
            });
        }
    }
    if !infobox {
        for list in listed {
            builder.push(list);
        }
    }
    Ok(())
}

/// The first columns of a table read for the names they hold.
const MAX_NAMED_COLUMNS: usize = 6;

/// Whether a cell is a year, which names a row of a yearly table, not a thing.
fn is_year(cell: &str) -> bool {
    let cell = cell.trim();
    cell.len() == 4 && cell.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::structure::Block;

    fn kinds(text: &str) -> Vec<Record> {
        outline(text, &ReadBudget::default())
            .unwrap()
            .blocks
            .into_iter()
            .map(|b| b.kind)
            .collect()
    }

    #[test]
    fn a_header_may_name_columns_with_digits() {
        let table =
            "Item | RX-600 | RX-600 Pro\n---|---|---\nEthernet ports | 4 | 8\nUSB ports | 1 | 2\n";
        let rows: Vec<Record> = kinds(table);
        assert_eq!(
            rows[0],
            Record::TableRow {
                header: vec!["Item".into(), "RX-600".into(), "RX-600 Pro".into()].into(),
                cells: vec!["Ethernet ports".into(), "4".into(), "8".into()],
            }
        );
        assert!(
            is_value_cell("£3.50") && is_value_cell("8.5 cm") && is_value_cell("Ben Alder, 380 m")
        );
        assert!(!is_value_cell("2019") && !is_value_cell("Population (2021)"));
    }

    #[test]
    fn a_title_headings_and_the_section_of_each_block() {
        let outline = outline(
            "Harbour Clinic — staff meeting\n\nPresent: Ann Hale (chair), Ben Ode, Cy Dunn\n\n\
             Staffing\n\nLENA: We took on three new porters this week, and they start Monday.\n",
            &ReadBudget::default(),
        )
        .unwrap();
        assert_eq!(
            outline.title.as_deref(),
            Some("Harbour Clinic — staff meeting")
        );
        assert_eq!(
            outline.blocks,
            vec![
                Block {
                    kind: Record::List {
                        lead: Some("Present".into()),
                        items: vec![
                            "Ann Hale (chair)".into(),
                            "Ben Ode".into(),
                            "Cy Dunn".into()
                        ]
                    },
                    sections: vec![],
                    place: None,
                    crop: None,
                },
                Block {
                    kind: Record::Turn {
                        speaker: "LENA".into(),
                        text: "We took on three new porters this week, and they start Monday."
                            .into()
                    },
                    sections: vec!["Staffing".into()],
                    place: None,
                    crop: None,
                },
            ]
        );
    }

    #[test]
    fn tables_with_a_header_spec_lines_and_dated_entries() {
        let blocks = kinds(
            "Team | Players | Gold\nFalcon | 64 | 8\nHarrier | 12 | 3\n\n\
             Suction: 4,000 Pa\nBattery: 3200 mAh\n- Height: 8.5 cm\n\n\
             2001 — opened with 3 shops\n**2008**: now runs 7 shops\n",
        );
        assert_eq!(
            blocks[0],
            Record::TableRow {
                header: vec!["Team".into(), "Players".into(), "Gold".into()].into(),
                cells: vec!["Falcon".into(), "64".into(), "8".into()]
            }
        );
        // The rows' first column is the list of the things the rows are.
        assert_eq!(
            blocks[2],
            Record::RowNames {
                column: "Team".into(),
                names: vec!["Falcon".into(), "Harrier".into()]
            }
        );
        assert_eq!(
            blocks[3..6],
            [
                Record::KeyValue {
                    label: "Suction".into(),
                    value: "4,000 Pa".into()
                },
                Record::KeyValue {
                    label: "Battery".into(),
                    value: "3200 mAh".into()
                },
                Record::KeyValue {
                    label: "Height".into(),
                    value: "8.5 cm".into()
                },
            ]
        );
        assert_eq!(
            blocks[6..],
            [
                Record::Dated {
                    date: "2001".into(),
                    text: "opened with 3 shops".into()
                },
                Record::Dated {
                    date: "2008".into(),
                    text: "now runs 7 shops".into()
                },
            ]
        );
    }

    #[test]
    fn aligned_columns_are_a_table_and_prose_stays_prose() {
        let blocks = kinds(
            "Ward          Population   Stations\nNorth         8,200        4\nSouth         6,900        3\n\n\
             The district has five wards. It was formed in 1974: the year of the reform.\n",
        );
        assert!(matches!(&blocks[0], Record::TableRow { header, .. } if header.len() == 3));
        assert!(
            matches!(&blocks[2], Record::RowNames { column, names } if column == "Ward" && names.len() == 2)
        );
        assert!(matches!(&blocks[3], Record::Paragraph(p) if p.starts_with("The district")));
    }

    /// Issue 85: a text table's blank cells stay in their columns, a title line above it is its
    /// caption, a group header over two columns names both, a Total line is no data row and a
    /// note line under it is a paragraph; a word hyphenated across lines is joined and its
    /// ligature folded.
    #[test]
    fn a_text_table_with_blanks_a_title_a_two_row_header_and_a_total() {
        let outline = outline(
            "Trips\n\nWater by week\n\
             Week     Volunteer hours         Cost\n\
             \x20        2024–25    2025–26\n\
             Week 1   214        133          £5,579.00\n\
             Week 2              11           £30,790.00\n\
             Total    214        144          £36,369.00\n\
             Costs include contractors.\n\n\
             Our o\u{FB03}ce thanks every mem-\nber of sta\u{FB00}.\n",
            &ReadBudget::default(),
        )
        .unwrap();
        let kinds: Vec<&Record> = outline.blocks.iter().map(|b| &b.kind).collect();
        let header: Arc<[String]> = vec![
            "Week".to_string(),
            "Volunteer hours › 2024–25".into(),
            "Volunteer hours › 2025–26".into(),
            "Cost".into(),
        ]
        .into();
        assert_eq!(
            outline.blocks[0].sections.last().map(String::as_str),
            Some("Water by week")
        );
        assert_eq!(
            kinds[1],
            &Record::TableRow {
                header: header.clone(),
                cells: vec!["Week 2".into(), "".into(), "11".into(), "£30,790.00".into()]
            }
        );
        assert!(matches!(kinds[2], Record::TotalRow { .. }));
        assert_eq!(
            kinds[3],
            &Record::Paragraph("Costs include contractors.".into())
        );
        assert!(kinds
            .iter()
            .any(|k| **k == Record::Paragraph("Our office thanks every member of staff.".into())));
    }
}
