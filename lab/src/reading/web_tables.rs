//! Real web tables (issue 100): WikiTableQuestions' tables as Wikipedia's pages wrote them
//! (`csv/*/N.html`: rowspan and colspan, footnote markers, flags, sort keys, nested lists),
//! read by Tally's HTML reader and scored cell by cell against the data set's own cells
//! (`N.csv`, its header rows joined by line breaks), which Tally's generator did not write.
//!
//! The tables are split by their number: even ones are the tuning part (misses may be looked
//! at while changing a reader), odd ones the test part (only scored).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use tally_documents::corpus::budget::ReadBudget;
use tally_documents::corpus::documents::read_file;
use tally_documents::corpus::structure::passages_of;
use tally_documents::corpus::Format;

use super::score::{canon, path, read_tables, same, ReadTable, Tally};
use super::Part;
use tally_docgen::model::HEADER_PATH_SEPARATOR;

/// How far ahead of the last row matched a truth row is looked for among the rows read (a row
/// Tally left out, a note row it kept).
const ROW_LOOKAHEAD: usize = 3;

/// The figures of one part.
#[derive(Debug, Default, serde::Serialize)]
pub struct WebTablesReport {
    /// Tables scored.
    pub tables: usize,
    /// Tables read with a table in them (any row under a header).
    pub found: Tally,
    /// Body cells right (value compared as a person sees it).
    pub cells: Tally,
    /// Columns whose header path is read right.
    pub header_paths: Tally,
    /// Body rows found at all.
    pub rows: Tally,
    /// Files the reader refused, with its sentence.
    pub refused: Vec<(String, String)>,
    /// Seconds spent reading, and the bytes read.
    pub reading: (f64, usize),
}

/// The data set's cells of one table: its header (each column's header rows joined by line
/// breaks) and its body rows.
struct Truth {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// Scores the HTML of the part's tables (at most `limit`) under `wtq` (its `csv/` folders).
pub fn evaluate(wtq: &Path, part: Part, limit: Option<usize>) -> anyhow::Result<WebTablesReport> {
    let mut report = WebTablesReport::default();
    let misses = std::env::var_os("TALLY_READING_MISSES").is_some();
    for (id, html, csv) in tables(wtq, part)?
        .into_iter()
        .take(limit.unwrap_or(usize::MAX))
    {
        let truth = truth(&csv)?;
        let bytes =
            std::fs::read(&html).with_context(|| format!("cannot read {}", html.display()))?;
        let started = Instant::now();
        let read = read_file(
            &bytes,
            Format::Html,
            &id,
            &ReadBudget::for_bytes(bytes.len()),
        );
        report.reading.0 += started.elapsed().as_secs_f64();
        report.reading.1 += bytes.len();
        report.tables += 1;
        let passages = match read {
            Ok(documents) => documents
                .iter()
                .flat_map(|d| passages_of(&d.text, &d.source))
                .collect(),
            Err(why) => {
                let why = tally_types::error::Causes(&why).to_string();
                report.refused.push((id.clone(), why));
                Vec::new()
            }
        };
        let read = read_tables(&passages);
        // The page holds one table: the one read with the most rows is it.
        let table = read.iter().max_by_key(|t| t.rows.len());
        report.found.add(table.is_some());
        score_table(&id, &truth, table, &mut report, misses);
    }
    Ok(report)
}

/// The part's tables: (name, HTML page, CSV), in order of folder and number.
fn tables(wtq: &Path, part: Part) -> anyhow::Result<Vec<(String, PathBuf, PathBuf)>> {
    let root = wtq.join("csv");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&root)
        .with_context(|| format!("cannot read {}", root.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut found = Vec::new();
    for folder in folders {
        let mut numbered: Vec<(u64, PathBuf)> = std::fs::read_dir(&folder)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "html"))
            .filter_map(|p| Some((p.file_stem()?.to_str()?.parse().ok()?, p)))
            .collect();
        numbered.sort();
        for (number, html) in numbered {
            let in_part = match part {
                Part::Tuning => number % 2 == 0,
                Part::Test => number % 2 == 1,
            };
            let csv = html.with_extension("csv");
            if in_part && csv.exists() {
                let folder_name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
                found.push((format!("{folder_name}/{number}"), html, csv));
            }
        }
    }
    Ok(found)
}

fn truth(csv: &Path) -> anyhow::Result<Truth> {
    // The data set escapes a quote in a field with a backslash.
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .escape(Some(b'\\'))
        .double_quote(false)
        .from_path(csv)
        .with_context(|| format!("cannot read {}", csv.display()))?;
    let mut records = reader.records();
    let header = match records.next() {
        Some(record) => record?.iter().map(str::to_string).collect(),
        None => Vec::new(),
    };
    let rows = records
        .map(|r| Ok(r?.iter().map(str::to_string).collect()))
        .collect::<Result<_, csv::Error>>()?;
    Ok(Truth { header, rows })
}

/// Scores one table: its header paths column by column, and each truth row against the row
/// read that matches it best among the next few.
fn score_table(
    id: &str,
    truth: &Truth,
    table: Option<&ReadTable>,
    report: &mut WebTablesReport,
    misses: bool,
) {
    let empty = ReadTable {
        header: Vec::new(),
        rows: Vec::new(),
    };
    let table = table.unwrap_or(&empty);
    // The data set's line breaks stand both for a header row and for a `<br>` in one header
    // cell: the paths are compared word for word, their separators as spaces.
    let flat = |header: &str| plain_digits(&path(header).replace(HEADER_PATH_SEPARATOR, " "));
    let expected: Vec<String> = truth
        .header
        .iter()
        .map(|h| flat(&h.lines().collect::<Vec<_>>().join(HEADER_PATH_SEPARATOR)))
        .collect();
    let read_headers: Vec<String> = table.header.iter().map(|h| flat(h)).collect();
    // Each truth column's column read: the one under the same header (the k-th of a header
    // that repeats, "Votes" after each candidate, the k-th read under it), else the one at its
    // place (the data set leaves out a column of pictures, which a reader keeps).
    let columns: Vec<usize> = expected
        .iter()
        .enumerate()
        .map(|(n, e)| {
            let k = expected[..n].iter().filter(|x| *x == e).count();
            read_headers
                .iter()
                .enumerate()
                .filter(|(_, r)| *r == e)
                .nth(k)
                .map_or(n, |(at, _)| at)
        })
        .collect();
    for (n, expected) in expected.iter().enumerate() {
        let read = read_headers.get(columns[n]).cloned().unwrap_or_default();
        let right = *expected == read;
        if misses && !right {
            eprintln!("{id} header {n}: {expected:?} read {read:?}");
        }
        report.header_paths.add(right);
    }
    let mut next = 0;
    for row in &truth.rows {
        let candidates = next..(next + ROW_LOOKAHEAD).min(table.rows.len());
        let best = candidates
            .map(|r| (r, equal_cells(row, &in_columns(&table.rows[r].0, &columns))))
            .max_by_key(|(r, equal)| (*equal, std::cmp::Reverse(*r)))
            .filter(|(_, equal)| *equal > 0);
        report.rows.add(best.is_some());
        let read: Vec<String> = match best {
            Some((r, _)) => {
                next = r + 1;
                in_columns(&table.rows[r].0, &columns)
            }
            None => Vec::new(),
        };
        for (n, cell) in row.iter().enumerate() {
            let got = read.get(n).map_or("", String::as_str);
            let right = same_cell(cell, got);
            if misses && !right {
                eprintln!("{id} cell {n}: {cell:?} read {got:?}");
            }
            report.cells.add(right);
        }
    }
}

/// A row read, its cells in the truth's columns.
fn in_columns(cells: &[String], columns: &[usize]) -> Vec<String> {
    columns
        .iter()
        .map(|c| cells.get(*c).cloned().unwrap_or_default())
        .collect()
}

/// Superscript digits as digits: the data set writes "km2" where the page shows "km²".
fn plain_digits(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '²' => '2',
            '³' => '3',
            '¹' => '1',
            other => other,
        })
        .collect()
}

fn equal_cells(truth: &[String], read: &[String]) -> usize {
    truth
        .iter()
        .zip(read)
        .filter(|(t, r)| !t.trim().is_empty() && same_cell(t, r))
        .count()
}

fn same_cell(truth: &str, read: &str) -> bool {
    same(&canon(&plain_digits(truth)), &canon(&plain_digits(read)))
}

/// The report as `tally-lab eval reading --web-tables` prints it.
pub fn print(part: Part, report: &WebTablesReport) {
    let percent = |t: &Tally| t.percent().map_or("–".to_string(), |p| format!("{p:.1}%"));
    println!(
        "real web tables (WikiTableQuestions' HTML against its CSV), {part:?} part: {} tables",
        report.tables
    );
    println!(
        "  tables found        {:>7} of {}",
        percent(&report.found),
        report.found.total
    );
    println!(
        "  rows found          {:>7} of {}",
        percent(&report.rows),
        report.rows.total
    );
    println!(
        "  cells right         {:>7} of {}",
        percent(&report.cells),
        report.cells.total
    );
    println!(
        "  header paths right  {:>7} of {}",
        percent(&report.header_paths),
        report.header_paths.total
    );
    let (seconds, bytes) = report.reading;
    println!(
        "  reading             {:.1} ms a table, {:.2} MB/s",
        1000.0 * seconds / report.tables.max(1) as f64,
        bytes as f64 / 1e6 / seconds.max(1e-9)
    );
    for (name, why) in &report.refused {
        println!("  refused {name}: {why}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_header_is_matched_to_its_own_column_in_order() {
        // An election table: "Votes" after each candidate. Each truth column is the read
        // column under the same header in the same order, not the first "Votes".
        let row = |cells: &[&str]| cells.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let truth = Truth {
            header: row(&["County", "Feinstein", "Votes", "Seymour", "Votes"]),
            rows: vec![row(&["Marin", "71.26%", "92,205", "24.61%", "31,846"])],
        };
        let read = ReadTable {
            header: truth.header.clone(),
            rows: vec![(truth.rows[0].clone(), true)],
        };
        let mut report = WebTablesReport::default();
        score_table("t", &truth, Some(&read), &mut report, false);
        assert_eq!(report.cells.right, 5, "{:?}", report.cells);
    }
}
