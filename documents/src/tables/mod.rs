//! Records as typed tables (issue 74): each table of a person's documents typed once at ingestion,
//! every cell a number in its base unit, a year or text (`table.rs`), and a corpus's tables held
//! in memory (`memory.rs`). The engine plans and computes aggregations over them.

mod memory;
mod query;
mod table;

pub use memory::MemoryRecords;
pub use query::{compute, AggregateQuery, Bound, Computed, Filter, FilterTest};
pub use table::{
    in_column_unit, measure_of, tables_of, tables_of_records, year_of, Cell, Column, ColumnKind,
    RecordTable, Row, TableSchema, NUMBER,
};
