//! Records as a queryable table (issue 74): each table of a person's documents typed at
//! ingestion (`tally_documents::tables`), a question read as an aggregation (`question.rs`) and planned over
//! the tables (`plan.rs`), computed in code (`tally_documents::tables::compute`, over the in-memory store `MemoryRecords`) or in
//! SQL by the server, and answered with the rows it touched (`answer.rs`).
//!
//! [`decide`] is the one decision every entry point makes: an aggregation to compute, a
//! decline (a condition on a column the table lacks), or none (the stated-count readings
//! answer).

mod answer;
mod plan;
mod question;
mod source;

pub use answer::{aggregation_answer, empty_answer, no_such_column_answer};
pub use plan::{plan, Plan};
pub use question::{read_question, AggregationQuestion, AskedCondition};
pub use source::{answer_over, RecordSource, ScopedTable};

use tally_documents::tables::{AggregateQuery, TableSchema};
use tally_types::count::{CountAnswer, CountSettings};

/// What a question comes to over a corpus's tables.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Compute this over the table it names (by its position among the schemas).
    Compute(AggregateQuery),
    /// Answered already: declined, with the table's columns.
    Answer(Box<CountAnswer>),
}

/// Decides how `question` is answered over the tables `schemas` describe; `None` when it asks
/// no aggregation of them.
pub fn decide(
    question: &str,
    settings: &CountSettings,
    schemas: &[TableSchema],
) -> Option<Decision> {
    if schemas.is_empty() {
        return None;
    }
    let asked = read_question(question)?;
    match plan(&asked, schemas) {
        Plan::NotAggregation => None,
        Plan::Query(query) => Some(Decision::Compute(query)),
        Plan::NoSuchColumn { table, asked } => Some(Decision::Answer(Box::new(
            no_such_column_answer(question, settings, &schemas[table], &asked),
        ))),
    }
}
