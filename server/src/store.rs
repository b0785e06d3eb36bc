//! Questions and the answers given to them, stored in PostgreSQL; the history page reads them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::FromRow;

use crate::db::{classify, Database, DbError};

/// Where an answer was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StoredIds {
    pub question_id: i64,
    pub answer_id: i64,
}

/// Stores a question and its answer in one transaction.
pub async fn store_answer(
    db: &Database,
    question: &str,
    kind: &str,
    settings: &serde_json::Value,
    answer: &serde_json::Value,
    latency_ms: f64,
) -> Result<StoredIds, DbError> {
    let pool = db.pool().await?;
    let mut tx = pool.begin().await.map_err(classify)?;
    let question_id: i64 = sqlx::query_scalar(
        "INSERT INTO questions (text, kind, settings) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(question)
    .bind(kind)
    .bind(settings)
    .fetch_one(&mut *tx)
    .await
    .map_err(classify)?;
    let answer_id: i64 = sqlx::query_scalar(
        "INSERT INTO answers (question_id, answer, latency_ms, engine_version) \
         VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(question_id)
    .bind(answer)
    .bind(latency_ms.max(0.0))
    .bind(tally_engine::ENGINE_VERSION)
    .fetch_one(&mut *tx)
    .await
    .map_err(classify)?;
    tx.commit().await.map_err(classify)?;
    Ok(StoredIds {
        question_id,
        answer_id,
    })
}

/// A stored question for the history.
#[derive(Debug, Clone, PartialEq, Serialize, FromRow)]
pub struct RecentQuestion {
    pub question_id: i64,
    pub answer_id: Option<i64>,
    pub text: String,
    pub kind: String,
    pub settings: serde_json::Value,
    pub asked_at: DateTime<Utc>,
    /// The one-line summary stored with the answer.
    pub summary: Option<String>,
    pub feedback: i64,
}

/// The most recent questions, newest first, with their answer's summary and feedback count.
pub async fn recent_questions(db: &Database, limit: i64) -> Result<Vec<RecentQuestion>, DbError> {
    let pool = db.pool().await?;
    sqlx::query_as(
        "SELECT q.id AS question_id, a.id AS answer_id, q.text, q.kind, q.settings, \
                q.asked_at, a.answer->>'summary' AS summary, \
                (SELECT count(*) FROM feedback f WHERE f.answer_id = a.id) AS feedback \
         FROM questions q LEFT JOIN answers a ON a.question_id = q.id \
         ORDER BY q.id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(classify)
}
