//! Where the planner reads record tables (issue 86): one trait that the in-memory tables and the
//! server's PostgreSQL store both implement, so every entry point answers an aggregation by the
//! same decision over the same scope — one corpus, or every corpus when none is chosen.

use tally_types::count::{CountAnswer, CountSettings};

use super::answer::aggregation_answer;
use super::compute::{compute, Computed};
use super::plan::AggregateQuery;
use super::{decide, Decision};
use tally_documents::tables::{MemoryRecords, Row, TableSchema};

/// A table in scope: the corpus it belongs to, its key in its source and its schema.
#[derive(Debug, Clone, PartialEq)]
pub struct ScopedTable {
    /// The corpus the table's document was uploaded to.
    pub corpus: String,
    /// The table's key in its source (a database id, or its place among the corpus's tables).
    pub key: i64,
    /// Its columns, context and row count.
    pub schema: TableSchema,
}

/// A store of record tables the planner reads.
pub trait RecordSource {
    /// Why the tables could not be read.
    type Error;
    /// The tables of `corpora`, in a stable order.
    fn tables(&self, corpora: &[String]) -> Result<Vec<ScopedTable>, Self::Error>;
    /// Runs `query` over `table`: the result and the first rows with whether each was taken.
    fn run(
        &self,
        table: &ScopedTable,
        query: &AggregateQuery,
    ) -> Result<(Computed, Vec<Row>), Self::Error>;
}

/// Answers `question` over the tables of `corpora` in `source`: an aggregation computed, a
/// decline (a condition on a column the table lacks), or `None` when it asks no aggregation of
/// them. The one place every entry point asks the records.
pub fn answer_over<S: RecordSource>(
    question: &str,
    settings: &CountSettings,
    source: &S,
    corpora: &[String],
) -> Result<Option<CountAnswer>, S::Error> {
    let tables = source.tables(corpora)?;
    let schemas: Vec<TableSchema> = tables.iter().map(|t| t.schema.clone()).collect();
    let Some(decision) = decide(question, settings, &schemas) else {
        return Ok(None);
    };
    match decision {
        Decision::Answer(answer) => Ok(Some(*answer)),
        Decision::Compute(query) => {
            let table = &tables[query.table];
            let (computed, rows) = source.run(table, &query)?;
            Ok(Some(aggregation_answer(
                question,
                settings,
                &table.schema,
                &query,
                &computed,
                &rows,
            )))
        }
    }
}

impl RecordSource for MemoryRecords {
    type Error = std::convert::Infallible;

    fn tables(&self, corpora: &[String]) -> Result<Vec<ScopedTable>, Self::Error> {
        Ok(corpora
            .iter()
            .flat_map(|corpus| {
                MemoryRecords::tables(self, corpus)
                    .iter()
                    .enumerate()
                    .map(move |(key, table)| ScopedTable {
                        corpus: corpus.clone(),
                        key: key as i64,
                        schema: table.schema(),
                    })
            })
            .collect())
    }

    fn run(
        &self,
        table: &ScopedTable,
        query: &AggregateQuery,
    ) -> Result<(Computed, Vec<Row>), Self::Error> {
        let held = usize::try_from(table.key)
            .ok()
            .and_then(|key| MemoryRecords::tables(self, &table.corpus).get(key));
        Ok(match held {
            Some(held) => (compute(held, query), held.rows.clone()),
            // A key this store never gave: nothing taken.
            None => (
                Computed {
                    value: None,
                    chosen: None,
                    chosen_name: None,
                    taken: Vec::new(),
                    rows_taken: 0,
                },
                Vec::new(),
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_documents::corpus::budget::ReadBudget;
    use tally_documents::corpus::documents::read;
    use tally_documents::corpus::format::Format;

    const WEATHER: &str = "Month,Rainfall (mm),Rain days\n\
                           January,92,14\nFebruary,70,11\nJuly,41,6\n";
    const RIDES: &str = "Ride,Distance,Climbing (m),Riders\n\
                         Loop,32 km,210,24\nSportive,128 km,1720,29\nCentury,161 km,1980,11\n";

    /// Two corpora, one table each.
    fn two_corpora() -> MemoryRecords {
        let mut records = MemoryRecords::default();
        for (corpus, csv) in [("weather", WEATHER), ("club", RIDES)] {
            let name = format!("{corpus}.csv");
            let documents = read(csv, Format::Csv, &name, &ReadBudget::for_bytes(csv.len()))
                .expect("the table reads");
            let stored: Vec<_> = documents
                .iter()
                .flat_map(|d| tally_documents::tables::tables_of(&d.text, &d.source))
                .collect();
            records.insert(corpus, stored);
        }
        records
    }

    fn answered(question: &str, corpora: &[&str]) -> Option<CountAnswer> {
        let corpora: Vec<String> = corpora.iter().map(|c| c.to_string()).collect();
        answer_over(
            question,
            &CountSettings::default(),
            &two_corpora(),
            &corpora,
        )
        .unwrap_or_else(|e| match e {})
    }

    #[test]
    fn every_corpus_is_planned_over_when_none_is_chosen() {
        let asked = "how many rides have more than 20 riders";
        let answer = answered(asked, &["club", "weather"]).expect("the rides table answers");
        assert_eq!(answer.count, Some(2.0), "{:?}", answer.aggregation);
        assert_eq!(
            answer.aggregation.map(|a| a.document),
            Some("club.csv".to_string())
        );
        // The corpus chosen is the only one read: the weather's corpus has no rides.
        assert_eq!(answered(asked, &["weather"]), None);
    }

    #[test]
    fn a_sum_reads_the_table_of_the_corpus_that_has_it() {
        let answer = answered("what was the total rainfall", &["club", "weather"])
            .expect("the weather table answers");
        assert_eq!(answer.count, Some(203.0));
    }
}
