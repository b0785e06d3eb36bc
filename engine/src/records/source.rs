//! Where the planner reads record tables (issue 86): one trait that the in-memory tables and the
//! server's PostgreSQL store both implement, so every entry point answers an aggregation by the
//! same decision over the same scope — one corpus, or every corpus when none is chosen.

use tally_types::count::{CountAnswer, CountSettings, Operation};

use super::answer::aggregation_answer;
use super::{decide, Decision};
use tally_documents::tables::AggregateQuery;
use tally_documents::tables::{compute, Computed};
use tally_documents::tables::{ColumnKind, MemoryRecords, Row, TableSchema};

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
///
/// Tables of one corpus with the same columns (one per region, per year, per sheet, or a list
/// continued in a second file) are also offered as their union, ahead of each table alone: a
/// question that names none of them apart is answered over all their rows, and the answer
/// names every document it took.
pub fn answer_over<S: RecordSource>(
    question: &str,
    settings: &CountSettings,
    source: &S,
    corpora: &[String],
) -> Result<Option<CountAnswer>, S::Error> {
    let tables = source.tables(corpora)?;
    let candidates = candidates(&tables);
    let schemas: Vec<TableSchema> = candidates.iter().map(|c| c.schema.clone()).collect();
    let Some(decision) = decide(question, settings, &schemas) else {
        return Ok(None);
    };
    match decision {
        Decision::Answer(answer) => Ok(Some(*answer)),
        Decision::Compute(query) => {
            let candidate = &candidates[query.table];
            let mut parts = Vec::with_capacity(candidate.members.len());
            for member in &candidate.members {
                parts.push(source.run(&tables[*member], &query)?);
            }
            let (computed, rows) = combine(query.operation, parts);
            Ok(Some(aggregation_answer(
                question,
                settings,
                &candidate.schema,
                &query,
                &computed,
                &rows,
            )))
        }
    }
}

/// A table the planner may choose: one table, or the union of tables that share their columns.
struct Candidate {
    schema: TableSchema,
    /// The tables it is made of, by their place among the tables in scope.
    members: Vec<usize>,
}

/// The unions of tables that continue each other (first), then every table alone.
fn candidates(tables: &[ScopedTable]) -> Vec<Candidate> {
    let shape = |t: &ScopedTable| {
        let columns: Vec<(String, std::mem::Discriminant<ColumnKind>)> = t
            .schema
            .columns
            .iter()
            .map(|c| (c.name.to_lowercase(), std::mem::discriminant(&c.kind)))
            .collect();
        (t.corpus.clone(), columns)
    };
    let mut groups: Vec<(_, Vec<usize>)> = Vec::new();
    for (n, table) in tables.iter().enumerate() {
        let key = shape(table);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(n),
            None => groups.push((key, vec![n])),
        }
    }
    let mut candidates: Vec<Candidate> = groups
        .into_iter()
        .filter(|(_, members)| members.len() > 1)
        .map(|(_, members)| Candidate {
            schema: union_schema(tables, &members),
            members,
        })
        .collect();
    candidates.extend(tables.iter().enumerate().map(|(n, t)| Candidate {
        schema: t.schema.clone(),
        members: vec![n],
    }));
    candidates
}

/// The schema of tables with the same columns read as one: every document named, the
/// contexts' shared words kept, the rows and the text columns' values added up.
fn union_schema(tables: &[ScopedTable], members: &[usize]) -> TableSchema {
    let mut schema = tables[members[0]].schema.clone();
    let mut documents = vec![schema.document.clone()];
    for member in &members[1..] {
        let other = &tables[*member].schema;
        if !documents.contains(&other.document) {
            documents.push(other.document.clone());
        }
        schema.rows += other.rows;
        if other.context != schema.context {
            schema.context = common_context(&schema.context, &other.context);
        }
        for (column, theirs) in schema.columns.iter_mut().zip(&other.columns) {
            for value in &theirs.values {
                if !column.values.contains(value) {
                    column.values.push(value.clone());
                }
            }
        }
    }
    schema.document = documents.join(", ");
    schema
}

/// The words two contexts share, in the first's order (what names both tables:
/// "sailings-spring.csv" and "sailings-summer.csv" share "sailings csv").
fn common_context(a: &str, b: &str) -> String {
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let theirs: Vec<String> = words(b).iter().map(|w| w.to_lowercase()).collect();
    words(a)
        .into_iter()
        .filter(|w| theirs.contains(&w.to_lowercase()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One result from the results over each table of a union, with their rows in order.
fn combine(operation: Operation, parts: Vec<(Computed, Vec<Row>)>) -> (Computed, Vec<Row>) {
    if parts.len() == 1 {
        return parts.into_iter().next().unwrap_or_else(nothing_taken);
    }
    let rows_taken: usize = parts.iter().map(|(c, _)| c.rows_taken).sum();
    let values = || parts.iter().filter_map(|(c, _)| c.value.map(|v| (v, c)));
    let value = match operation {
        Operation::Count | Operation::Sum => values().map(|(v, _)| v).reduce(|a, b| a + b),
        Operation::Average => {
            let weight: usize = values().map(|(_, c)| c.rows_taken).sum();
            (weight > 0).then(|| {
                values().map(|(v, c)| v * c.rows_taken as f64).sum::<f64>() / weight as f64
            })
        }
        Operation::Largest => values().map(|(v, _)| v).reduce(f64::max),
        Operation::Smallest => values().map(|(v, _)| v).reduce(f64::min),
    };
    // The chosen row is the first part's that holds the chosen value.
    let chosen_name = match operation {
        Operation::Largest | Operation::Smallest => values()
            .find(|(v, _)| Some(*v) == value)
            .and_then(|(_, c)| c.chosen_name.clone()),
        _ => None,
    };
    let mut taken = Vec::new();
    let mut rows = Vec::new();
    for (computed, part_rows) in parts {
        let shown = part_rows.len().min(computed.taken.len());
        taken.extend_from_slice(&computed.taken[..shown]);
        rows.extend(part_rows.into_iter().take(shown));
    }
    (
        Computed {
            value,
            chosen: None,
            chosen_name,
            taken,
            rows_taken,
        },
        rows,
    )
}

fn nothing_taken() -> (Computed, Vec<Row>) {
    (
        Computed {
            value: None,
            chosen: None,
            chosen_name: None,
            taken: Vec::new(),
            rows_taken: 0,
        },
        Vec::new(),
    )
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
            None => nothing_taken(),
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
    fn tables_that_continue_each_other_are_answered_over_their_union() {
        const SPRING: &str = "Ride,Distance,Riders\nLoop,32 km,24\nSportive,128 km,29\n";
        const AUTUMN: &str = "Ride,Distance,Riders\nHill climb,18 km,9\nCentury,161 km,11\n";
        let mut records = MemoryRecords::default();
        let mut stored = Vec::new();
        for (name, csv) in [("rides-spring.csv", SPRING), ("rides-autumn.csv", AUTUMN)] {
            let documents = read(csv, Format::Csv, name, &ReadBudget::for_bytes(csv.len()))
                .expect("the table reads");
            stored.extend(
                documents
                    .iter()
                    .flat_map(|d| tally_documents::tables::tables_of(&d.text, &d.source)),
            );
        }
        records.insert("club", stored);
        let scope = ["club".to_string()];
        let ask = |question: &str| {
            answer_over(question, &CountSettings::default(), &records, &scope)
                .unwrap_or_else(|e| match e {})
                .expect("the rides answer")
        };
        let answer = ask("how many rides have more than 10 riders");
        assert_eq!(answer.count, Some(3.0));
        let aggregation = answer.aggregation.expect("an aggregation");
        assert_eq!(aggregation.document, "rides-spring.csv, rides-autumn.csv");
        assert_eq!(aggregation.rows_total, 4);
        assert_eq!(aggregation.rows.len(), 4);
        assert_eq!(ask("how many riders in total").count, Some(73.0));
        let longest = ask("which ride is the longest");
        assert_eq!(longest.count, Some(161.0));
        assert_eq!(
            longest.aggregation.and_then(|a| a.name).as_deref(),
            Some("Century")
        );
    }

    #[test]
    fn a_sum_reads_the_table_of_the_corpus_that_has_it() {
        let answer = answered("what was the total rainfall", &["club", "weather"])
            .expect("the weather table answers");
        assert_eq!(answer.count, Some(203.0));
    }
}
