//! The records a question is planned over (issue 86): the database's record tables when the
//! server has one, else the tables read back from the snippet index, held per corpus until the
//! corpora change. Both are a [`RecordSource`], so the engine's one decision answers either.

use std::sync::{Arc, Mutex, PoisonError};

use tally_documents::snippet_index::{IndexError, SnippetIndex};
use tally_documents::tables::{AggregateQuery, Computed};
use tally_documents::tables::{MemoryRecords, Row};
use tally_engine::records::{RecordSource, ScopedTable};
use tally_store::db::{Database, DbError};

/// The database's record tables, read from a blocking task.
pub(super) struct StoredRecords<'a> {
    pub db: &'a Database,
    pub runtime: tokio::runtime::Handle,
}

impl RecordSource for StoredRecords<'_> {
    type Error = DbError;

    fn tables(&self, corpora: &[String]) -> Result<Vec<ScopedTable>, DbError> {
        let schemas = self
            .runtime
            .block_on(tally_store::records::schemas_in(self.db, corpora))?;
        Ok(schemas
            .into_iter()
            .map(|(corpus, key, schema)| ScopedTable {
                corpus,
                key,
                schema,
            })
            .collect())
    }

    fn run(
        &self,
        table: &ScopedTable,
        query: &AggregateQuery,
    ) -> Result<(Computed, Vec<Row>), DbError> {
        self.runtime
            .block_on(tally_store::records::run(self.db, table.key, query))
    }
}

/// The tables of each corpus read back from the snippet index, kept until the corpus changes
/// (reading the built-in corpus's snippets takes a while; its tables never change). Shared, not
/// copied, with each question: a corpus read or forgotten makes a new set.
#[derive(Debug, Default)]
pub(super) struct HeldTables {
    held: Mutex<Arc<MemoryRecords>>,
}

impl HeldTables {
    /// The tables of `corpora` (and of any other corpus held), read from `index` where not held
    /// yet.
    pub(super) fn of(
        &self,
        index: &SnippetIndex,
        corpora: &[String],
    ) -> Result<Arc<MemoryRecords>, IndexError> {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let held_corpora = held.corpora();
        let missing: Vec<&String> = corpora
            .iter()
            .filter(|c| !held_corpora.contains(c))
            .collect();
        if !missing.is_empty() {
            let mut grown = MemoryRecords::clone(&held);
            for corpus in missing {
                let read = MemoryRecords::from_snippet_index(index, corpus)?;
                grown.insert(corpus, read.tables(corpus).to_vec());
            }
            *held = Arc::new(grown);
        }
        Ok(Arc::clone(&held))
    }

    /// Forgets `corpus`'s tables (it is being indexed, replaced or deleted).
    pub(super) fn forget(&self, corpus: &str) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if held.corpora().iter().any(|c| c == corpus) {
            let mut shrunk = MemoryRecords::clone(&held);
            shrunk.remove(corpus);
            *held = Arc::new(shrunk);
        }
    }
}
