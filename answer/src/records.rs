//! The records a question is planned over (issue 86): the database's record tables when the
//! server has one, else the tables read back from the snippet index, held per corpus until the
//! corpora change. Both are a [`RecordSource`], so the engine's one decision answers either.
//! The lab passes the tables it read itself.

use std::sync::{Arc, Mutex, PoisonError};
use tally_documents::DocumentsError;

use tally_documents::snippet_index::SnippetIndex;
use tally_documents::tables::{AggregateQuery, Computed};
use tally_documents::tables::{MemoryRecords, Row};
use tally_engine::records::{answer_over, RecordSource, ScopedTable};
use tally_store::db::{Database, DbError};
use tally_types::CountSettings;

use crate::{AnswerError, CandidateCorpus};

/// The record tables a question is planned over.
pub enum Tables<'a> {
    /// The database's record tables (read from the blocking thread the decision runs on, through
    /// `runtime`); the snippet index's when the database holds none in scope or fails.
    Stored {
        /// The database.
        db: &'a Database,
        /// The runtime its queries run on.
        runtime: tokio::runtime::Handle,
        /// The snippet index's tables, held per corpus.
        held: &'a HeldTables,
    },
    /// The snippet index's tables, held per corpus (`tally ask`: no database).
    Held(&'a HeldTables),
    /// Tables read already (the lab reads a collection's once for all its questions).
    Memory(&'a MemoryRecords),
}

impl Tables<'_> {
    /// The snippet index's tables held per corpus, which the candidates are read from; `None`
    /// for tables read by the caller.
    pub(crate) fn held(&self) -> Option<&HeldTables> {
        match self {
            Tables::Stored { held, .. } | Tables::Held(held) => Some(held),
            Tables::Memory(_) => None,
        }
    }
}

/// The answer over the tables of `scope` when the question asks to count, add up, average or
/// compare their rows under a condition (or names a condition on a column a table lacks:
/// declined); `None` when it asks none of that.
pub(crate) fn over_records(
    question: &str,
    settings: &CountSettings,
    tables: &Tables<'_>,
    index: &SnippetIndex,
    scope: &[String],
) -> Result<Option<tally_types::CountAnswer>, AnswerError> {
    let held = match tables {
        Tables::Memory(memory) => {
            return Ok(
                answer_over(question, settings, *memory, scope).unwrap_or_else(|e| match e {})
            )
        }
        Tables::Held(held) => held,
        Tables::Stored { db, runtime, held } => {
            let stored = StoredRecords {
                db,
                runtime: runtime.clone(),
            };
            match stored.tables(scope) {
                // The snippet index holds the same tables: read from it when the database has
                // none of them (a corpus ingested beside it) or fails.
                Ok(tables) if tables.is_empty() => {}
                Ok(_) => return Ok(answer_over(question, settings, &stored, scope)?),
                Err(e) => {
                    tracing::warn!(
                        "the record tables could not be read ({}); reading the index's",
                        tally_types::error::Causes(&e)
                    )
                }
            }
            held
        }
    };
    let memory = held.of(index, scope).map_err(AnswerError::Tables)?;
    Ok(answer_over(question, settings, memory.as_ref(), scope).unwrap_or_else(|e| match e {}))
}

/// The database's record tables, read from a blocking task.
struct StoredRecords<'a> {
    db: &'a Database,
    runtime: tokio::runtime::Handle,
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
pub struct HeldTables {
    held: Mutex<Arc<MemoryRecords>>,
    /// The candidates' tables and passages of the scopes asked lately, the latest last.
    candidates: Mutex<Vec<(Vec<String>, Arc<CandidateCorpus>)>>,
}

/// How many scopes' candidate corpora are held.
const HELD_SCOPES: usize = 8;

impl HeldTables {
    /// The tables of `corpora` (and of any other corpus held), read from `index` where not held
    /// yet.
    pub fn of(
        &self,
        index: &SnippetIndex,
        corpora: &[String],
    ) -> Result<Arc<MemoryRecords>, DocumentsError> {
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

    /// The tables and passages of `scope` the candidates are read from, read from `index`
    /// where not held yet.
    pub fn candidates(
        &self,
        index: &SnippetIndex,
        scope: &[String],
    ) -> Result<Arc<CandidateCorpus>, DocumentsError> {
        let mut key = scope.to_vec();
        key.sort();
        {
            let held = self
                .candidates
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some((_, corpus)) = held.iter().find(|(k, _)| *k == key) {
                return Ok(Arc::clone(corpus));
            }
        }
        let records = self.of(index, &key)?;
        let tables = key
            .iter()
            .flat_map(|c| records.tables(c).to_vec())
            .collect();
        let read = Arc::new(CandidateCorpus::read(tables, index, &key)?);
        let mut held = self
            .candidates
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        held.retain(|(k, _)| *k != key);
        if held.len() >= HELD_SCOPES {
            held.remove(0);
        }
        held.push((key, Arc::clone(&read)));
        Ok(read)
    }

    /// Forgets `corpus`'s tables (it is being indexed, replaced or deleted).
    pub fn forget(&self, corpus: &str) {
        self.candidates
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|(scope, _)| !scope.iter().any(|c| c == corpus));
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if held.corpora().iter().any(|c| c == corpus) {
            let mut shrunk = MemoryRecords::clone(&held);
            shrunk.remove(corpus);
            *held = Arc::new(shrunk);
        }
    }
}
