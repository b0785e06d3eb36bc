//! Snippet sets: the results of one web search for one question, kept so that an answer can be
//! shown again exactly and a repeated question within the reuse time does not search again.

use chrono::{DateTime, Utc};
use sqlx::FromRow;

use crate::db::{Database, DbError};
use tally_types::request::question_key;
use tally_types::web_search::WebResult;

/// A stored web search.
#[derive(Debug, Clone, PartialEq)]
pub struct SnippetSet {
    /// The set's id.
    pub id: i64,
    /// The search provider that gave the results.
    pub source: String,
    /// When the search was made.
    pub fetched_at: DateTime<Utc>,
    /// In the search engine's order.
    pub results: Vec<WebResult>,
}

#[derive(FromRow)]
struct SetRow {
    id: i64,
    source: String,
    fetched_at: DateTime<Utc>,
}

#[derive(FromRow)]
struct SnippetRow {
    url: String,
    title: String,
    text: String,
    published: Option<String>,
}

/// The newest set fetched from `source` for `question` since `since`, if any.
pub async fn recent(
    db: &Database,
    question: &str,
    source: &str,
    since: DateTime<Utc>,
) -> Result<Option<SnippetSet>, DbError> {
    let pool = db.pool().await?;
    let row: Option<SetRow> = sqlx::query_as(
        "SELECT id, source, fetched_at FROM snippet_sets \
         WHERE question_key = $1 AND source = $2 AND fetched_at >= $3 \
         ORDER BY fetched_at DESC LIMIT 1",
    )
    .bind(question_key(question))
    .bind(source)
    .bind(since)
    .fetch_optional(pool)
    .await?;
    match row {
        Some(set) => Ok(Some(with_results(pool, set).await?)),
        None => Ok(None),
    }
}

/// Set `id` if it was fetched for `question` (case and spacing aside).
pub async fn by_id(db: &Database, id: i64, question: &str) -> Result<Option<SnippetSet>, DbError> {
    let pool = db.pool().await?;
    let row: Option<SetRow> = sqlx::query_as(
        "SELECT id, source, fetched_at FROM snippet_sets WHERE id = $1 AND question_key = $2",
    )
    .bind(id)
    .bind(question_key(question))
    .fetch_optional(pool)
    .await?;
    match row {
        Some(set) => Ok(Some(with_results(pool, set).await?)),
        None => Ok(None),
    }
}

async fn with_results(pool: &sqlx::PgPool, set: SetRow) -> Result<SnippetSet, DbError> {
    let snippets: Vec<SnippetRow> = sqlx::query_as(
        "SELECT url, title, text, published FROM web_snippets WHERE set_id = $1 ORDER BY rank",
    )
    .bind(set.id)
    .fetch_all(pool)
    .await?;
    Ok(SnippetSet {
        id: set.id,
        source: set.source,
        fetched_at: set.fetched_at,
        results: snippets
            .into_iter()
            .map(|s| WebResult {
                url: s.url,
                title: s.title,
                text: s.text,
                published: s.published,
            })
            .collect(),
    })
}

/// Stores the `results` of a search of `source` for `question`, in one transaction.
pub async fn save(
    db: &Database,
    question: &str,
    source: &str,
    results: &[WebResult],
) -> Result<SnippetSet, DbError> {
    let pool = db.pool().await?;
    let mut tx = pool.begin().await?;
    let (id, fetched_at): (i64, DateTime<Utc>) = sqlx::query_as(
        "INSERT INTO snippet_sets (question, question_key, source) VALUES ($1, $2, $3) \
         RETURNING id, fetched_at",
    )
    .bind(question)
    .bind(question_key(question))
    .bind(source)
    .fetch_one(&mut *tx)
    .await?;
    for (rank, result) in results.iter().enumerate() {
        sqlx::query(
            "INSERT INTO web_snippets (set_id, rank, url, title, text, published) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(rank as i32 + 1)
        .bind(&result.url)
        .bind(&result.title)
        .bind(&result.text)
        .bind(&result.published)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(SnippetSet {
        id,
        source: source.to_string(),
        fetched_at,
        results: results.to_vec(),
    })
}
