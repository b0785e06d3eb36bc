//! The tables of uploaded documents in PostgreSQL (issue 74): written with the documents, in
//! the same transaction; read as schemas to plan a question over; and aggregated in SQL. Every
//! value of a query (the table, a column's position, a bound, a text) is a bound parameter:
//! nothing from a document or a question is spliced into SQL text.

use sqlx::types::Json;
use sqlx::{FromRow, Postgres, Transaction};
use tally_documents::sentence_store::index::Document;
use tally_documents::tables::{
    tables_of, AggregateQuery, Column, Computed, FilterTest, RecordTable, Row, TableSchema,
};
use tally_types::count::{Aggregation, Operation};

use crate::db::{Database, DbError};

/// Cells written per statement.
const CELL_BATCH: usize = 20_000;

/// The tables of `documents`, each document's in its order (computed off the async threads by
/// the caller: reading a document's passages takes time).
pub fn tables_of_documents(documents: &[Document]) -> Vec<Vec<RecordTable>> {
    documents
        .iter()
        .map(|d| tables_of(&d.text, &d.source))
        .collect()
}

/// Writes `tables` of `corpus`.
pub async fn write_tables(
    tx: &mut Transaction<'_, Postgres>,
    corpus: &str,
    tables: &[RecordTable],
) -> Result<(), DbError> {
    for table in tables {
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO record_tables (corpus, document, context, columns, row_count) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(corpus)
        .bind(&table.document)
        .bind(&table.context)
        .bind(Json(&table.columns))
        .bind(i32::try_from(table.rows.len()).unwrap_or(i32::MAX))
        .fetch_one(&mut **tx)
        .await?;
        let row_indexes: Vec<i32> = (0..table.rows.len())
            .map(|r| i32::try_from(r).unwrap_or(i32::MAX))
            .collect();
        let places: Vec<Option<&str>> = table.rows.iter().map(|r| r.place.as_deref()).collect();
        sqlx::query(
            "INSERT INTO record_rows (table_id, row_index, place) \
             SELECT $1, r.row_index, r.place FROM UNNEST($2::int[], $3::text[]) AS r (row_index, place)",
        )
        .bind(id)
        .bind(&row_indexes)
        .bind(&places)
        .execute(&mut **tx)
        .await?;
        let cells: Vec<(i32, i32, &str, Option<f64>)> = table
            .rows
            .iter()
            .enumerate()
            .flat_map(|(r, row)| {
                row.cells.iter().enumerate().map(move |(c, cell)| {
                    (
                        i32::try_from(c).unwrap_or(i32::MAX),
                        i32::try_from(r).unwrap_or(i32::MAX),
                        cell.text.as_str(),
                        cell.number,
                    )
                })
            })
            .collect();
        for batch in cells.chunks(CELL_BATCH) {
            let columns: Vec<i32> = batch.iter().map(|c| c.0).collect();
            let rows: Vec<i32> = batch.iter().map(|c| c.1).collect();
            let texts: Vec<&str> = batch.iter().map(|c| c.2).collect();
            let numbers: Vec<Option<f64>> = batch.iter().map(|c| c.3).collect();
            sqlx::query(
                "INSERT INTO record_cells (table_id, column_index, row_index, text, number) \
                 SELECT $1, c.column_index, c.row_index, c.text, c.number \
                 FROM UNNEST($2::int[], $3::int[], $4::text[], $5::float8[]) \
                   AS c (column_index, row_index, text, number)",
            )
            .bind(id)
            .bind(&columns)
            .bind(&rows)
            .bind(&texts)
            .bind(&numbers)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

/// Deletes `corpus`'s tables (a replacement or a deletion of the corpus).
pub async fn delete_tables(
    tx: &mut Transaction<'_, Postgres>,
    corpus: &str,
) -> Result<(), DbError> {
    sqlx::query("DELETE FROM record_tables WHERE corpus = $1")
        .bind(corpus)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[derive(FromRow)]
struct TableRow {
    corpus: String,
    id: i64,
    document: String,
    context: String,
    columns: Json<Vec<Column>>,
    row_count: i32,
}

/// The tables of `corpora` without their rows, each with its corpus and id.
pub async fn schemas_in(
    db: &Database,
    corpora: &[String],
) -> Result<Vec<(String, i64, TableSchema)>, DbError> {
    let pool = db.pool().await?;
    let rows: Vec<TableRow> = sqlx::query_as(
        "SELECT corpus, id, document, context, columns, row_count FROM record_tables \
         WHERE corpus = ANY($1) ORDER BY id",
    )
    .bind(corpora)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|t| {
            (
                t.corpus,
                t.id,
                TableSchema {
                    document: t.document,
                    context: t.context,
                    columns: t.columns.0,
                    rows: usize::try_from(t.row_count).unwrap_or(0),
                },
            )
        })
        .collect())
}

/// Each row's cells, each checked against the filters, and the value column's number: the
/// one SQL text every aggregation runs (its filters come as parallel arrays). A macro so that
/// `concat!` joins it to each query's end at compile time: every SQL text is a literal.
macro_rules! taken_rows {
    () => {
        "\
WITH filters AS (
    SELECT * FROM UNNEST($2::int[], $3::float8[], $4::bool[], $5::float8[], $6::bool[], $7::text[])
        AS f (column_index, low, low_inclusive, high, high_inclusive, text_is)
),
judged AS (
    SELECT r.row_index,
           NOT EXISTS (
               SELECT 1 FROM filters f
               LEFT JOIN record_cells c
                      ON c.table_id = $1 AND c.row_index = r.row_index
                     AND c.column_index = f.column_index
               WHERE NOT coalesce(CASE
                   WHEN f.text_is IS NOT NULL THEN lower(btrim(c.text)) = lower(f.text_is)
                   ELSE c.number IS NOT NULL
                        AND (f.low IS NULL OR c.number > f.low
                             OR (f.low_inclusive AND c.number = f.low))
                        AND (f.high IS NULL OR c.number < f.high
                             OR (f.high_inclusive AND c.number = f.high))
               END, false)
           ) AS meets,
           v.number AS value
    FROM record_rows r
    LEFT JOIN record_cells v
           ON v.table_id = $1 AND v.row_index = r.row_index AND v.column_index = $8
    WHERE r.table_id = $1
),
taken AS (
    SELECT row_index, meets AND ($8::int IS NULL OR value IS NOT NULL) AS taken, value
    FROM judged
)"
    };
}

/// A query's filters as the parallel arrays the SQL unnests: each filter's column, bounds and
/// text (bound parameters all).
struct FilterArrays {
    columns: Vec<i32>,
    lows: Vec<Option<f64>>,
    low_inclusive: Vec<bool>,
    highs: Vec<Option<f64>>,
    high_inclusive: Vec<bool>,
    texts: Vec<Option<String>>,
}

impl FilterArrays {
    fn of(query: &AggregateQuery) -> Self {
        let mut arrays = FilterArrays {
            columns: Vec::new(),
            lows: Vec::new(),
            low_inclusive: Vec::new(),
            highs: Vec::new(),
            high_inclusive: Vec::new(),
            texts: Vec::new(),
        };
        for filter in &query.filters {
            arrays
                .columns
                .push(i32::try_from(filter.column).unwrap_or(i32::MAX));
            let (low, high, text) = match &filter.test {
                FilterTest::Within { low, high } => (*low, *high, None),
                FilterTest::TextIs(text) => (None, None, Some(text.clone())),
            };
            arrays.lows.push(low.map(|b| b.value));
            arrays.low_inclusive.push(low.is_some_and(|b| b.inclusive));
            arrays.highs.push(high.map(|b| b.value));
            arrays
                .high_inclusive
                .push(high.is_some_and(|b| b.inclusive));
            arrays.texts.push(text);
        }
        arrays
    }
}

/// The SQL text of an operation's aggregate over the taken rows; the first row wins a tie, as
/// in code.
fn aggregate_sql(operation: Operation) -> &'static str {
    match operation {
        Operation::Count => {
            const SQL: &str = concat!(
                taken_rows!(),
                " SELECT count(*) FILTER (WHERE taken)::float8, count(*) FILTER (WHERE taken), NULL::int FROM taken"
            );
            SQL
        }
        Operation::Sum => {
            const SQL: &str = concat!(
                taken_rows!(),
                " SELECT sum(value) FILTER (WHERE taken), count(*) FILTER (WHERE taken), NULL::int FROM taken"
            );
            SQL
        }
        Operation::Average => {
            const SQL: &str = concat!(
                taken_rows!(),
                " SELECT avg(value) FILTER (WHERE taken), count(*) FILTER (WHERE taken), NULL::int FROM taken"
            );
            SQL
        }
        Operation::Largest => {
            const SQL: &str = concat!(
                taken_rows!(),
                " SELECT (SELECT value FROM taken WHERE taken ORDER BY value DESC, row_index LIMIT 1), \
                 (SELECT count(*) FROM taken WHERE taken), \
                 (SELECT row_index FROM taken WHERE taken ORDER BY value DESC, row_index LIMIT 1)"
            );
            SQL
        }
        Operation::Smallest => {
            const SQL: &str = concat!(
                taken_rows!(),
                " SELECT (SELECT value FROM taken WHERE taken ORDER BY value ASC, row_index LIMIT 1), \
                 (SELECT count(*) FROM taken WHERE taken), \
                 (SELECT row_index FROM taken WHERE taken ORDER BY value ASC, row_index LIMIT 1)"
            );
            SQL
        }
    }
}

/// A row's name: its first cell.
async fn row_name(db: &Database, table_id: i64, row: i32) -> Result<Option<String>, DbError> {
    let pool = db.pool().await?;
    sqlx::query_scalar(
        "SELECT text FROM record_cells WHERE table_id = $1 AND row_index = $2 AND column_index = 0",
    )
    .bind(table_id)
    .bind(row)
    .fetch_optional(pool)
    .await
    .map_err(DbError::from)
}

/// Runs `query` over table `table_id` in SQL: the aggregate, the chosen row, and the first
/// [`Aggregation::SHOWN_ROWS`] rows with whether each was taken.
pub async fn run(
    db: &Database,
    table_id: i64,
    query: &AggregateQuery,
) -> Result<(Computed, Vec<Row>), DbError> {
    let pool = db.pool().await?;
    let FilterArrays {
        columns,
        lows,
        low_inclusive,
        highs,
        high_inclusive,
        texts,
    } = FilterArrays::of(query);
    let value_column: Option<i32> = query
        .value_column
        .map(|c| i32::try_from(c).unwrap_or(i32::MAX));
    let bind = |sql: &'static str| {
        sqlx::query(sql)
            .bind(table_id)
            .bind(columns.clone())
            .bind(lows.clone())
            .bind(low_inclusive.clone())
            .bind(highs.clone())
            .bind(high_inclusive.clone())
            .bind(texts.clone())
            .bind(value_column)
    };
    // The aggregate, in SQL; the first row wins a tie, as in code.
    let aggregate_sql = aggregate_sql(query.operation);
    use sqlx::Row as _;
    let aggregate = bind(aggregate_sql).fetch_one(pool).await?;
    let value: Option<f64> = aggregate.try_get(0)?;
    let rows_taken: i64 = aggregate.try_get(1)?;
    let chosen: Option<i32> = aggregate.try_get(2)?;
    // The rows shown, with their cells and whether each was taken.
    const SHOWN_SQL: &str = concat!(
        taken_rows!(),
        " SELECT t.row_index, t.taken, r.place, \
                 (SELECT array_agg(c.text ORDER BY c.column_index) FROM record_cells c \
                  WHERE c.table_id = $1 AND c.row_index = t.row_index) AS cells \
          FROM taken t JOIN record_rows r ON r.table_id = $1 AND r.row_index = t.row_index \
          ORDER BY t.row_index LIMIT $9"
    );
    let shown = bind(SHOWN_SQL)
        .bind(i64::try_from(Aggregation::SHOWN_ROWS).unwrap_or(i64::MAX))
        .fetch_all(pool)
        .await?;
    let mut taken = Vec::with_capacity(shown.len());
    let mut rows = Vec::with_capacity(shown.len());
    for row in &shown {
        taken.push(row.try_get::<bool, _>(1)?);
        let cells: Option<Vec<String>> = row.try_get(3)?;
        rows.push(Row {
            cells: cells
                .unwrap_or_default()
                .into_iter()
                .map(|text| tally_documents::tables::Cell { text, number: None })
                .collect(),
            place: row.try_get(2)?,
        });
    }
    let chosen_name = match chosen {
        Some(index) => row_name(db, table_id, index).await?,
        None => None,
    };
    Ok((
        Computed {
            value,
            chosen: chosen.and_then(|c| usize::try_from(c).ok()),
            chosen_name,
            taken,
            rows_taken: usize::try_from(rows_taken).unwrap_or(0),
        },
        rows,
    ))
}

/// Writes the tables of every corpus stored before its tables were (a corpus whose
/// `records_version` is not its version): once, when a server starts.
pub async fn backfill(db: &Database) -> Result<usize, DbError> {
    let pool = db.pool().await?;
    let stale: Vec<(String, i64)> = sqlx::query_as(
        "SELECT name, version FROM corpora \
         WHERE deleted_at IS NULL AND records_version IS DISTINCT FROM version",
    )
    .fetch_all(pool)
    .await?;
    let mut written = 0;
    for (corpus, version) in stale {
        let documents: Vec<(String, String)> = sqlx::query_as(
            "SELECT text, source FROM corpus_documents WHERE corpus = $1 ORDER BY seq",
        )
        .bind(&corpus)
        .fetch_all(pool)
        .await?;
        let tables = tokio::task::spawn_blocking(move || {
            documents
                .iter()
                .flat_map(|(text, source)| tables_of(text, source))
                .collect::<Vec<_>>()
        })
        .await
        .map_err(|e| DbError::crashed("reading the tables", e))?;
        let mut tx = pool.begin().await?;
        // Only when the corpus is still at that version: an upload since wrote its own.
        let current: Option<i64> = sqlx::query_scalar(
            "SELECT version FROM corpora WHERE name = $1 AND deleted_at IS NULL FOR UPDATE",
        )
        .bind(&corpus)
        .fetch_optional(&mut *tx)
        .await?;
        if current != Some(version) {
            continue;
        }
        delete_tables(&mut tx, &corpus).await?;
        write_tables(&mut tx, &corpus, &tables).await?;
        sqlx::query("UPDATE corpora SET records_version = version WHERE name = $1")
            .bind(&corpus)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        written += tables.len();
    }
    Ok(written)
}
