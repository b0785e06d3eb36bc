//! A corpus's tables made ready for candidates once (issue 98): each table's schema for the
//! hand rules' plan, and the words its cells, headers and context hold, so that a question
//! reads only the few tables that share its words (a corpus of 1,000 tables took 1.6 s a
//! question, debug build, when every table was read for mentions).

use std::collections::{HashMap, HashSet};

use tally_documents::tables::{Cell, Column, ColumnKind, RecordTable, Row, TableSchema};

use super::mention::{column_texts, is_stop};
use super::plan::normalized;

/// The tables of a corpus, with what finds them.
#[derive(Debug, Clone, Default)]
pub struct TableCorpus {
    tables: Vec<RecordTable>,
    /// How many of them were given (the unions follow).
    originals: usize,
    schemas: Vec<TableSchema>,
    /// Each table's cells as questions are matched with them, column by column.
    texts: Vec<Vec<Vec<String>>>,
    /// Each word's tables, by position, each once.
    words: HashMap<String, Vec<usize>>,
}

impl TableCorpus {
    /// Reads `tables` once; tables that share their columns (a sheet per year, a list split
    /// over files) are also read as one, their union, after them.
    pub fn new(mut tables: Vec<RecordTable>) -> Self {
        let originals = tables.len();
        tables.extend(unions(&tables));
        let mut words: HashMap<String, Vec<usize>> = HashMap::new();
        for (t, table) in tables.iter().enumerate() {
            let mut seen: HashSet<String> = HashSet::new();
            let headers = table.columns.iter().map(|c| c.header.as_str());
            let cells = table
                .rows
                .iter()
                .flat_map(|r| r.cells.iter().map(|c| c.text.as_str()));
            for text in headers.chain(cells).chain([table.context.as_str()]) {
                for word in normalized(text).split(' ') {
                    if !word.is_empty() && !seen.contains(word) {
                        seen.insert(word.to_string());
                        words.entry(word.to_string()).or_default().push(t);
                    }
                }
            }
        }
        TableCorpus {
            schemas: tables.iter().map(RecordTable::schema).collect(),
            texts: tables.iter().map(column_texts).collect(),
            tables,
            originals,
            words,
        }
    }

    /// Each word the tables' headers, cells and context hold, with the tables holding it (by
    /// position, each once).
    pub(super) fn words(&self) -> &HashMap<String, Vec<usize>> {
        &self.words
    }

    /// How many of the tables were given: the unions of tables sharing their columns follow.
    pub fn originals(&self) -> usize {
        self.originals
    }

    /// The tables, in the corpus's order.
    pub fn tables(&self) -> &[RecordTable] {
        &self.tables
    }

    /// A table's cells as questions are matched with them, column by column.
    pub fn texts(&self, table: usize) -> &[Vec<String>] {
        self.texts.get(table).map_or(&[][..], Vec::as_slice)
    }

    /// Their schemas, in the same order.
    pub fn schemas(&self) -> &[TableSchema] {
        &self.schemas
    }

    /// The tables holding the most of the question's words (not common ones), at most
    /// `limit`, the most first (ties in the corpus's order); every table when the corpus has
    /// no more than `limit`.
    pub fn sharing_words(&self, question: &str, limit: usize) -> Vec<usize> {
        if self.tables.len() <= limit {
            return (0..self.tables.len()).collect();
        }
        let asked: HashSet<String> = normalized(question)
            .split(' ')
            .filter(|w| !w.is_empty() && !is_stop(w))
            .map(str::to_string)
            .collect();
        let mut shared: HashMap<usize, usize> = HashMap::new();
        for word in &asked {
            for &t in self.words.get(word).map_or(&[][..], Vec::as_slice) {
                *shared.entry(t).or_default() += 1;
            }
        }
        let mut ranked: Vec<(usize, usize)> = shared.into_iter().collect();
        ranked.sort_by_key(|(t, n)| (std::cmp::Reverse(*n), *t));
        ranked.into_iter().take(limit).map(|(t, _)| t).collect()
    }
}

/// The header a union adds: where each row comes from.
pub const UNION_SOURCE: &str = "Source";

/// One table for each set of two or more tables with the same column names, in the order the
/// set is first met: their rows one after the other, each with where it comes from (its
/// document and context: "2024" of a sheet named so) in a first column.
fn unions(tables: &[RecordTable]) -> Vec<RecordTable> {
    let names = |t: &RecordTable| -> Vec<String> {
        t.columns.iter().map(|c| normalized(&c.name)).collect()
    };
    let mut sets: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        if table.columns.is_empty() {
            continue;
        }
        let key = names(table);
        match sets.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(t),
            None => sets.push((key, vec![t])),
        }
    }
    sets.into_iter()
        .filter(|(_, members)| members.len() > 1)
        .map(|(_, members)| {
            let first = &tables[members[0]];
            let mut columns = vec![Column {
                header: UNION_SOURCE.to_string(),
                name: UNION_SOURCE.to_string(),
                kind: ColumnKind::Text,
                values: Vec::new(),
            }];
            columns.extend(first.columns.iter().cloned());
            let rows = members
                .iter()
                .flat_map(|&t| {
                    let from = format!("{} {}", tables[t].document, tables[t].context);
                    tables[t].rows.iter().map(move |row| {
                        let mut cells = vec![Cell {
                            text: from.clone(),
                            number: None,
                        }];
                        cells.extend(row.cells.iter().cloned());
                        Row {
                            cells,
                            place: row.place.clone(),
                        }
                    })
                })
                .collect();
            RecordTable {
                document: members
                    .iter()
                    .map(|&t| tables[t].document.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                context: format!("{} tables with the same columns", members.len()),
                columns,
                rows,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_documents::tables::tables_of;

    fn tables(name: &str, csv: &str) -> Vec<RecordTable> {
        tally_documents::corpus::documents::read_file(
            csv.as_bytes(),
            tally_documents::corpus::Format::Csv,
            name,
            &tally_documents::corpus::budget::ReadBudget::for_bytes(csv.len()),
        )
        .expect("the CSV reads")
        .iter()
        .flat_map(|d| tables_of(&d.text, &d.source))
        .collect()
    }

    #[test]
    fn tables_sharing_their_columns_are_also_read_as_one() {
        let mut read = tables("loans-2023", "Branch,Loans\nNorth,120\nSouth,80\n");
        read.extend(tables("loans-2024", "Branch,Loans\nNorth,150\nSouth,95\n"));
        read.extend(tables("staff", "Name,Role\nAnn,Librarian\nBea,Porter\n"));
        let corpus = TableCorpus::new(read);
        assert_eq!(corpus.tables().len(), 4);
        let union = &corpus.tables()[3];
        assert_eq!(union.columns[0].header, UNION_SOURCE);
        assert_eq!(union.rows.len(), 4);
        assert!(
            union.rows[2].cells[0].text.contains("loans-2024"),
            "{union:?}"
        );
        // The loans of both years added up is a candidate only the union gives.
        let found = super::super::candidates(
            "how many loans were there at the north branch in total",
            &corpus,
            &[],
        );
        assert!(found.iter().any(|c| c.value == 270.0), "{found:?}");
    }
}
