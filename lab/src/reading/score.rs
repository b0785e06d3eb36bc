//! Scores what Tally read from one generated file against the document's truth: cells right
//! with their header paths, header paths right, row kinds told apart (data, total, note), tables
//! found, list items and `Label: value` lines right, boilerplate left out, words intact, and a
//! TEDS-style tree similarity per table.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use tally_documents::corpus::structure::{without_place, Passage, Record};

use tally_docgen::model::{Block, Document, RowKind, Table, Value, HEADER_PATH_SEPARATOR};
use tally_docgen::render::{Format, Holds};

/// Right out of all, for one measure.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    /// How many were right.
    pub right: usize,
    /// How many were scored.
    pub total: usize,
}

impl Tally {
    pub(super) fn add(&mut self, right: bool) {
        self.total += 1;
        self.right += usize::from(right);
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: Tally) {
        self.right += other.right;
        self.total += other.total;
    }

    /// The share right, in percent (`None` when nothing was scored).
    pub fn percent(&self) -> Option<f64> {
        (self.total > 0).then(|| 100.0 * self.right as f64 / self.total as f64)
    }
}

/// The measures of one file (or of many, merged).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct FileScore {
    /// Body cells right, value and header path, per table feature ("all" for every cell).
    pub cells: BTreeMap<String, Tally>,
    /// Columns whose header path is read right.
    pub header_paths: Tally,
    /// Body rows read as what they are (data as data; total and note rows not as data).
    pub row_kinds: Tally,
    /// Total and subtotal rows not read as data.
    pub totals: Tally,
    /// Note rows not read as data.
    pub notes: Tally,
    /// Tables found (half or more of their rows found under one header).
    pub tables: Tally,
    /// List items read as items of a list.
    pub list_items: Tally,
    /// `Label: value` lines read as such.
    pub key_values: Tally,
    /// Boilerplate strings left out of every passage.
    pub boilerplate: Tally,
    /// Hyphenated, ligatured and marked words read whole.
    pub words: Tally,
    /// Sum of the tables' TEDS-style similarities and how many tables (its mean is reported).
    pub teds: (f64, usize),
}

impl FileScore {
    /// Adds another file's score.
    pub fn merge(&mut self, other: &FileScore) {
        for (feature, tally) in &other.cells {
            self.cells.entry(feature.clone()).or_default().merge(*tally);
        }
        for (mine, theirs) in [
            (&mut self.header_paths, other.header_paths),
            (&mut self.row_kinds, other.row_kinds),
            (&mut self.totals, other.totals),
            (&mut self.notes, other.notes),
            (&mut self.tables, other.tables),
            (&mut self.list_items, other.list_items),
            (&mut self.key_values, other.key_values),
            (&mut self.boilerplate, other.boilerplate),
            (&mut self.words, other.words),
        ] {
            mine.merge(theirs);
        }
        self.teds.0 += other.teds.0;
        self.teds.1 += other.teds.1;
    }
}

/// A table as read: its header and its rows, each row's cells and whether it was read as data.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ReadTable {
    pub(super) header: Vec<String>,
    pub(super) rows: Vec<(Vec<String>, bool)>,
}

/// The tables of a file's passages: consecutive row records under one header and context.
pub(super) fn read_tables(passages: &[Passage]) -> Vec<ReadTable> {
    let mut tables: Vec<ReadTable> = Vec::new();
    let mut last: Option<(String, Vec<String>)> = None;
    for passage in passages {
        let (header, cells, data) = match passage.record.as_deref() {
            Some(Record::TableRow { header, cells }) => (header, cells, true),
            Some(Record::TotalRow { header, cells }) => (header, cells, false),
            _ => {
                last = None;
                continue;
            }
        };
        // Rows differ by their place ("sheet 'Fees', row 7"), not by their table.
        let key = (without_place(&passage.context).to_string(), header.to_vec());
        if last.as_ref() != Some(&key) {
            tables.push(ReadTable {
                header: header.to_vec(),
                rows: Vec::new(),
            });
            last = Some(key);
        }
        if let Some(table) = tables.last_mut() {
            table.rows.push((cells.clone(), data));
        }
    }
    tables
}

/// A cell's value in a form that compares what a person sees: a number with its currency or
/// percent, a date, or words.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Canon {
    Number(f64, Option<char>),
    Date(NaiveDate),
    Words(String),
}

pub(super) fn canon(text: &str) -> Canon {
    let text = text.trim().trim_end_matches('.').trim();
    for format in [
        "%Y-%m-%d",
        "%-d %b %Y",
        "%d %b %Y",
        "%d/%m/%Y",
        "%-d %B %Y",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(date) = NaiveDate::parse_from_str(text, format) {
            return Canon::Date(date);
        }
    }
    let (body, unit) = if let Some(rest) = text.strip_prefix('£') {
        (rest, Some('£'))
    } else if let Some(rest) = text.strip_suffix('%') {
        (rest.trim(), Some('%'))
    } else {
        (text, None)
    };
    let digits: String = body.chars().filter(|c| *c != ',').collect();
    match digits.parse::<f64>() {
        Ok(x) if !digits.is_empty() => {
            Canon::Number(if unit == Some('%') { x / 100.0 } else { x }, unit)
        }
        _ => Canon::Words(words(text)),
    }
}

pub(super) fn same(a: &Canon, b: &Canon) -> bool {
    match (a, b) {
        (Canon::Number(x, u), Canon::Number(y, v)) => {
            u == v && (x - y).abs() <= 1e-6 * x.abs().max(1.0)
        }
        _ => a == b,
    }
}

/// Lower case, single spaces, dashes as hyphens (a range "2024–25" reads the same with
/// either, and OCR reads an en dash as a hyphen).
fn words(text: &str) -> String {
    text.replace(['–', '—', '‑'], "-")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A header path in the form both sides are compared in.
pub(super) fn path(text: &str) -> String {
    text.split(HEADER_PATH_SEPARATOR.trim())
        .map(words)
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(HEADER_PATH_SEPARATOR)
}

/// Scores the passages Tally read from `document` written in `format`.
pub fn score(document: &Document, format: Format, passages: &[Passage]) -> FileScore {
    let mut score = FileScore::default();
    let tables = read_tables(passages);
    let truth_tables: Vec<&Table> = document
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .take(if format == Format::Csv { 1 } else { usize::MAX })
        .collect();
    let mut used = vec![false; tables.len()];
    for table in truth_tables {
        score_table(table, &tables, &mut used, &mut score);
    }
    let text = passages
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if format.holds(Holds::Prose) {
        score_prose(document, passages, &text, &mut score);
    }
    if format.holds(Holds::Boilerplate) {
        score_boilerplate(document, format, &text, &mut score);
    }
    score
}

fn score_table(table: &Table, read: &[ReadTable], used: &mut [bool], score: &mut FileScore) {
    let paths = table.header_paths();
    let grid = table.body_grid();
    let label = |cells: &[String]| cells.first().map(|c| canon(c));
    let data_labels: Vec<Canon> = table
        .rows
        .iter()
        .zip(&grid)
        .filter(|(row, _)| row.kind == RowKind::Data)
        .filter_map(|(_, values)| values.first().map(|v| canon(&v.shown())))
        .collect();
    // The read table holding most of the truth's row labels among its data rows.
    let found = |candidate: &ReadTable| {
        data_labels
            .iter()
            .filter(|l| {
                candidate
                    .rows
                    .iter()
                    .any(|(cells, data)| *data && label(cells).is_some_and(|c| same(&c, l)))
            })
            .count()
    };
    // Each read table stands for one truth table: the first unused one with most of its rows,
    // as wide as it (documents repeat row labels such as "Week 1" across tables).
    let best = read
        .iter()
        .enumerate()
        .filter(|(n, _)| !used[*n])
        .max_by_key(|(n, candidate)| {
            let width = usize::from(candidate.header.len() == table.width());
            (found(candidate), width, usize::MAX - n)
        });
    if let Some((n, _)) = best {
        used[n] = true;
    }
    let best = best.map(|(_, t)| t);
    let matched = best.map_or(0, found);
    score
        .tables
        .add(2 * matched >= data_labels.len() && matched > 0);
    let empty = ReadTable {
        header: Vec::new(),
        rows: Vec::new(),
    };
    let best = best.filter(|_| matched > 0).unwrap_or(&empty);
    for (c, truth) in paths.iter().enumerate() {
        let read_path = best.header.get(c).map_or(String::new(), |h| path(h));
        score.header_paths.add(read_path == path(truth));
        if read_path != path(truth) && std::env::var_os("TALLY_READING_MISSES").is_some() {
            eprintln!(
                "header {c}: read {read_path:?}, truth {:?} (read header {:?})",
                path(truth),
                best.header
            );
        }
    }
    let mut teds_truth: Vec<Vec<String>> = vec![paths.clone()];
    let totals_read_as_data = best
        .rows
        .iter()
        .filter(|(cells, data)| {
            *data
                && cells
                    .first()
                    .is_some_and(|c| matches!(words(c).as_str(), "total" | "subtotal"))
        })
        .count();
    let mut totals_left = totals_read_as_data;
    for (row, values) in table.rows.iter().zip(&grid) {
        match row.kind {
            RowKind::Data => {
                let shown: Vec<String> = values.iter().map(Value::shown).collect();
                score_data_row(table, &paths, &shown, best, score);
                teds_truth.push(shown);
            }
            RowKind::Total => {
                teds_truth.push(values.iter().map(Value::shown).collect());
                let right = totals_left == 0;
                totals_left = totals_left.saturating_sub(1);
                score.row_kinds.add(right);
                score.totals.add(right);
            }
            RowKind::Note => {
                let note = words(&values[0].shown());
                let as_data = read.iter().any(|t| {
                    t.rows.iter().any(|(cells, data)| {
                        *data && cells.iter().any(|c| words(c).contains(&note))
                    })
                });
                score.row_kinds.add(!as_data);
                score.notes.add(!as_data);
                if as_data && std::env::var_os("TALLY_READING_MISSES").is_some() {
                    eprintln!("note read as data: {note:?}");
                }
            }
        }
    }
    let mut teds_read: Vec<Vec<String>> = vec![best.header.clone()];
    teds_read.extend(best.rows.iter().map(|(cells, _)| cells.clone()));
    if best.header.is_empty() && best.rows.is_empty() {
        teds_read.clear();
    }
    score.teds.0 += teds(&teds_truth, &teds_read);
    score.teds.1 += 1;
}

/// Scores one data row's cells: right when the read row with its label has the value under
/// the truth's header path.
fn score_data_row(
    table: &Table,
    paths: &[String],
    shown: &[String],
    best: &ReadTable,
    score: &mut FileScore,
) {
    let label = |cells: &[String]| cells.first().map(|c| canon(c));
    let truth_label = canon(&shown[0]);
    let read_row = best
        .rows
        .iter()
        .find(|(cells, data)| *data && label(cells).is_some_and(|l| same(&l, &truth_label)));
    score.row_kinds.add(read_row.is_some());
    for (c, value) in shown.iter().enumerate() {
        if value.is_empty() {
            continue;
        }
        let right = read_row.is_some_and(|(cells, _)| {
            let header_right = best
                .header
                .get(c)
                .is_some_and(|h| path(h) == path(&paths[c]));
            let value_right = cells
                .get(c)
                .is_some_and(|cell| same(&canon(cell), &canon(value)));
            header_right && value_right
        });
        if !right && std::env::var_os("TALLY_READING_MISSES").is_some() {
            eprintln!(
                "cell {c} of {:?}: truth {value:?}, read {:?}",
                shown[0],
                read_row.map(|(cells, _)| cells)
            );
        }
        score.cells.entry("all".into()).or_default().add(right);
        for feature in &table.features {
            score
                .cells
                .entry(feature.to_string())
                .or_default()
                .add(right);
        }
    }
}

/// A TEDS-style similarity of two tables as trees of rows and cells: 1 − the cost of the
/// cheapest alignment of their rows (a row inserted or deleted costs its cells and itself; a
/// row changed costs the cells' normalised edit distances) over the larger tree's nodes.
fn teds(truth: &[Vec<String>], read: &[Vec<String>]) -> f64 {
    let nodes = |t: &[Vec<String>]| t.iter().map(|r| r.len() + 1).sum::<usize>() as f64;
    let largest = nodes(truth).max(nodes(read));
    if largest == 0.0 {
        return 1.0;
    }
    let row_cost = |a: &[String], b: &[String]| -> f64 {
        // Cells aligned by position: a missing cell costs one.
        let n = a.len().max(b.len());
        (0..n)
            .map(|i| match (a.get(i), b.get(i)) {
                (Some(x), Some(y)) if same(&canon(x), &canon(y)) => 0.0,
                (Some(x), Some(y)) => strsim(x, y),
                _ => 1.0,
            })
            .sum()
    };
    let (n, m) = (truth.len(), read.len());
    let mut cost = vec![vec![0.0; m + 1]; n + 1];
    for i in 1..=n {
        cost[i][0] = cost[i - 1][0] + truth[i - 1].len() as f64 + 1.0;
    }
    for j in 1..=m {
        cost[0][j] = cost[0][j - 1] + read[j - 1].len() as f64 + 1.0;
    }
    for i in 1..=n {
        for j in 1..=m {
            let change = cost[i - 1][j - 1] + row_cost(&truth[i - 1], &read[j - 1]);
            let delete = cost[i - 1][j] + truth[i - 1].len() as f64 + 1.0;
            let insert = cost[i][j - 1] + read[j - 1].len() as f64 + 1.0;
            cost[i][j] = change.min(delete).min(insert);
        }
    }
    (1.0 - cost[n][m] / largest).max(0.0)
}

/// Normalised Levenshtein distance of two cells' texts (0 same, 1 nothing shared).
fn strsim(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (words(a).chars().collect(), words(b).chars().collect());
    let longest = a.len().max(b.len());
    if longest == 0 {
        return 0.0;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            current[j + 1] = (previous[j] + usize::from(x != y))
                .min(previous[j + 1] + 1)
                .min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()] as f64 / longest as f64
}

fn score_prose(document: &Document, passages: &[Passage], text: &str, score: &mut FileScore) {
    let lists: Vec<&Vec<String>> = passages
        .iter()
        .filter_map(|p| match p.record.as_deref() {
            Some(Record::List { items, .. }) => Some(items),
            _ => None,
        })
        .collect();
    let pairs: Vec<(String, String)> = passages
        .iter()
        .filter_map(|p| match p.record.as_deref() {
            Some(Record::KeyValue { label, value }) => Some((words(label), words(value))),
            _ => None,
        })
        .collect();
    let flat = words(text);
    for block in &document.blocks {
        match block {
            Block::List { items, .. } => {
                for item in items {
                    let item = words(item);
                    score
                        .list_items
                        .add(lists.iter().any(|l| l.iter().any(|i| words(i) == item)));
                }
            }
            Block::KeyValues { pairs: truth } => {
                for (label, value) in truth {
                    let pair = (words(label), words(value));
                    score.key_values.add(pairs.contains(&pair));
                }
            }
            Block::Paragraph { words: truth } => {
                for word in truth.iter().filter(|w| w.watched()) {
                    let whole = intact(&flat, &word.text);
                    if !whole && std::env::var_os("TALLY_READING_MISSES").is_some() {
                        eprintln!("word not whole: {:?}", word.text);
                    }
                    score.words.add(whole);
                }
            }
            _ => {}
        }
    }
}

/// Whether `word` (without its closing stop) stands whole in `text`: not split by a hyphen
/// or a ligature, no marker glued to it.
fn intact(text: &str, word: &str) -> bool {
    let word = words(word.trim_end_matches('.'));
    let mut from = 0;
    while let Some(at) = text[from..].find(&word) {
        let start = from + at;
        let end = start + word.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        let boundary =
            |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && !"¹²³⁴⁵⁶⁷⁸⁹".contains(c));
        if boundary(before) && boundary(after) {
            return true;
        }
        from = end;
    }
    false
}

fn score_boilerplate(document: &Document, format: Format, text: &str, score: &mut FileScore) {
    let chrome = &document.boilerplate;
    let strings: Vec<&String> = if format == Format::Pdf {
        vec![&chrome.running_header]
    } else {
        chrome
            .menu
            .iter()
            .filter(|m| m.contains(|c: char| c.is_ascii_digit()))
            .chain(std::iter::once(&chrome.banner))
            .chain(&chrome.footer)
            .collect()
    };
    let flat = words(text);
    for string in strings {
        let whole = words(string);
        // The words around its number ("Issue 41", "(5 vacancies)") are what a reader that
        // split it would keep; a string without a number is looked for whole.
        let parts: Vec<&str> = whole.split(' ').collect();
        let numbered = parts
            .iter()
            .position(|w| w.chars().any(|c| c.is_ascii_digit()));
        let around =
            numbered.map(|n| parts[n.saturating_sub(1)..(n + 2).min(parts.len())].join(" "));
        let left_out = !flat.contains(&whole) && around.is_none_or(|a| !flat.contains(&a));
        if !left_out && std::env::var_os("TALLY_READING_MISSES").is_some() {
            eprintln!("boilerplate read: {whole:?}");
        }
        score.boilerplate.add(left_out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_compare_as_a_person_reads_them() {
        assert!(same(&canon("£45.00"), &canon("£45")));
        assert!(!same(&canon("£45.00"), &canon("45")));
        assert!(same(&canon("91%"), &canon("91 %")));
        assert!(!same(&canon("91%"), &canon("0.91")));
        assert!(same(&canon("14 Mar 2026"), &canon("2026-03-14")));
        assert!(same(&canon("1,204"), &canon("1204")));
        assert!(!same(&canon("Hartley Road"), &canon("Mill Lane")));
    }

    #[test]
    fn a_word_is_intact_only_whole_and_without_a_glued_marker() {
        assert!(intact("five new members joined", "members"));
        assert!(!intact("five new mem- bers joined", "members"));
        assert!(!intact("\u{FB01}ve new members", "five"));
        assert!(!intact("raised £38,5001 in all", "£38,500."));
        assert!(intact("raised £38,500 in all", "£38,500."));
    }

    #[test]
    fn identical_tables_score_one_and_a_shifted_one_less() {
        let table = vec![
            vec!["Club".to_string(), "Members".to_string()],
            vec!["Falcon".to_string(), "64".to_string()],
        ];
        assert_eq!(teds(&table, &table), 1.0);
        let shifted = vec![
            vec!["Members".to_string()],
            vec!["Falcon".to_string(), "64".to_string()],
        ];
        assert!(teds(&table, &shifted) < 1.0);
        assert_eq!(teds(&table, &[]), 0.0);
    }
}
