//! Every candidate answer a question can have over a corpus's tables (issue 98), each with the
//! plan that computed it and the rows it read: the cells the question names and their rows'
//! numbers, counts and sums under the conditions it names (a cell written in the question, a
//! number compared with a column), first or last N rows, the rows between two rows, and the
//! differences of two cells or two counts; and the numbers the passages sharing the question's
//! words state, their lists counted (`passages.rs`). The candidates are what a ranker chooses among
//! (issue 99); `tally-lab eval candidates` measures how often the right answer is among them.
//!
//! Invariant: enumeration only reads; it decides nothing, and the same question over the same
//! tables gives the same candidates in the same order.

mod asked;
mod corpus;
mod documents;
mod enumerate;
mod mention;
mod passages;
mod plan;
pub mod rank;

pub use corpus::{TableCorpus, UNION_SOURCE};
pub use documents::{document_key, DocumentWords};
pub use enumerate::{candidates, MAX_CANDIDATES, MAX_TABLES};
pub use mention::{column_texts, mentions, Mention, Mentions};
pub use passages::{passage_readings, DocumentPassage, MAX_PASSAGES};
pub use plan::{
    cell_number, normalized, numbers_in, Comparison, Condition, Operation, Outcome, Plan, Program,
    Rows, Test,
};

/// What a candidate was read from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A program run over a table.
    Table {
        /// The table's position among the tables given.
        table: usize,
        /// The program that computed the value.
        program: Program,
        /// The rows it read, by position.
        rows: Vec<usize>,
    },
    /// A passage outside the tables.
    Passage {
        /// The document's name.
        document: String,
        /// The passage's title and headings.
        context: String,
        /// The passage as written.
        text: String,
        /// How the number came from it.
        what: PassageReading,
    },
}

/// How a passage gave a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassageReading {
    /// The passage states it.
    Stated,
    /// The items of a list (or the names of a table's column) counted.
    Items,
}

/// How a candidate was computed, as a person checks it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// What it was read from.
    pub source: Source,
    /// As a person checks it: "count of rows where Nation = France".
    pub described: String,
}

/// One candidate answer: a number and the readings that give it (the first is the simplest).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The answer.
    pub value: f64,
    /// The readings that computed it, at most [`MAX_READINGS`].
    pub readings: Vec<Reading>,
}

/// How many readings a candidate keeps.
pub const MAX_READINGS: usize = 3;

/// The first table of a CSV file, read as a person's file is: what the candidates' unit tests
/// plan and rank over.
#[cfg(test)]
fn csv_table(csv: &str) -> tally_documents::tables::RecordTable {
    let documents = tally_documents::corpus::documents::read_file(
        csv.as_bytes(),
        tally_documents::corpus::format::Format::Csv,
        "t",
        &tally_documents::corpus::budget::ReadBudget::for_bytes(csv.len()),
    )
    .expect("the CSV reads");
    documents
        .iter()
        .flat_map(|d| tally_documents::tables::tables_of(&d.text, &d.source))
        .next()
        .expect("a table")
}
