//! The record tables of each corpus held in memory: what evaluations and `tally ask` compute
//! over (the servers keep the same tables in PostgreSQL).

use crate::DocumentsError;
use std::collections::BTreeMap;

use super::table::{tables_of, RecordTable};
use crate::sentence_store::index::Document;

/// Each corpus's tables, in the order their documents were added.
#[derive(Debug, Clone, Default)]
pub struct MemoryRecords {
    tables: BTreeMap<String, Vec<RecordTable>>,
}

impl MemoryRecords {
    /// Adds the tables of `documents` (stored documents: their passages with records) to
    /// `corpus`.
    pub fn add(&mut self, corpus: &str, documents: &[Document]) {
        let tables = self.tables.entry(corpus.to_string()).or_default();
        for document in documents {
            tables.extend(tables_of(&document.text, &document.source));
        }
    }

    /// The tables of `corpus` read back from the snippet index's table rows (what a server or
    /// `tally ask` holds of an uploaded corpus).
    pub fn from_snippet_index(
        index: &crate::snippet_index::SnippetIndex,
        corpus: &str,
    ) -> Result<Self, DocumentsError> {
        let rows = index.table_rows_in(corpus)?;
        let documents: Vec<String> = rows
            .iter()
            .map(|s| crate::snippet_index::document_of(&s.id))
            .collect();
        let tables = super::table::tables_of_records(
            rows.iter()
                .zip(&documents)
                .filter_map(|(s, d)| Some((d.as_str(), s.source.as_str(), s.record.as_deref()?))),
        );
        let mut records = MemoryRecords::default();
        records.tables.insert(corpus.to_string(), tables);
        Ok(records)
    }

    /// The tables of each of `corpora` read back from the snippet index (what a question asked
    /// over every corpus is planned over).
    pub fn from_snippet_index_corpora(
        index: &crate::snippet_index::SnippetIndex,
        corpora: &[String],
    ) -> Result<Self, DocumentsError> {
        let mut records = MemoryRecords::default();
        for corpus in corpora {
            let mut one = Self::from_snippet_index(index, corpus)?;
            if let Some(tables) = one.tables.remove(corpus) {
                records.tables.insert(corpus.clone(), tables);
            }
        }
        Ok(records)
    }

    /// Sets `corpus`'s tables.
    pub fn insert(&mut self, corpus: &str, tables: Vec<RecordTable>) {
        self.tables.insert(corpus.to_string(), tables);
    }

    /// The corpora that hold tables.
    pub fn corpora(&self) -> Vec<String> {
        self.tables.keys().cloned().collect()
    }

    /// The tables of `corpus` (none for a corpus without tables or unknown).
    pub fn tables(&self, corpus: &str) -> &[RecordTable] {
        self.tables.get(corpus).map_or(&[], Vec::as_slice)
    }

    /// Forgets `corpus`'s tables.
    pub fn remove(&mut self, corpus: &str) {
        self.tables.remove(corpus);
    }
}
