//! A corpus's tables made ready for candidates once (issue 98): each table's schema for the
//! hand rules' plan, and the words its cells, headers and context hold, so that a question
//! reads only the few tables that share its words (a corpus of 1,000 tables took 1.6 s a
//! question, debug build, when every table was read for mentions).

use std::collections::{HashMap, HashSet};

use tally_documents::tables::{RecordTable, TableSchema};

use super::mention::{column_texts, is_stop};
use super::plan::normalized;

/// The tables of a corpus, with what finds them.
#[derive(Debug, Clone, Default)]
pub struct TableCorpus {
    tables: Vec<RecordTable>,
    schemas: Vec<TableSchema>,
    /// Each table's cells as questions are matched with them, column by column.
    texts: Vec<Vec<Vec<String>>>,
    /// Each word's tables, by position, each once.
    words: HashMap<String, Vec<usize>>,
}

impl TableCorpus {
    /// Reads `tables` once.
    pub fn new(tables: Vec<RecordTable>) -> Self {
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
            words,
        }
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
