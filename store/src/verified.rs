//! Verified answers: the counts the operator accepted, by the question's normalised wording
//! ([`tally_types::request::question_key`]) and the corpus the judged answer read. Every server
//! reads them from the one database at each answer, so an acceptance holds on all servers of a
//! cluster at once.

use chrono::{DateTime, Utc};
use sqlx::FromRow;
use tally_types::count::ALL_CORPORA;
use tally_types::request::question_key;
use tally_types::{VerifiedAnswer, VerifiedRecord};

use crate::db::{Database, DbError};
use crate::refused::{Clash, Missing};

#[derive(FromRow)]
struct Row {
    id: i64,
    question: String,
    question_key: String,
    count: f64,
    unit: Option<String>,
    feedback_id: i64,
    answer_id: i64,
    tally_count: Option<f64>,
    note: Option<String>,
    corpus: String,
    accepted_by: String,
    accepted_at: DateTime<Utc>,
    withdrawn_by: Option<String>,
    withdrawn_at: Option<DateTime<Utc>>,
}

impl From<Row> for VerifiedRecord {
    fn from(row: Row) -> Self {
        VerifiedRecord {
            question: row.question,
            question_key: row.question_key,
            answer: VerifiedAnswer {
                id: row.id,
                count: row.count,
                unit: row
                    .unit
                    .as_deref()
                    .and_then(tally_text::units::choices::unit_choice),
                accepted_at: row.accepted_at.to_rfc3339(),
                feedback_id: row.feedback_id,
                answer_id: row.answer_id,
                tally_count: row.tally_count,
                note: row.note,
                corpus: row.corpus,
            },
            accepted_by: row.accepted_by,
            withdrawn_by: row.withdrawn_by,
            withdrawn_at: row.withdrawn_at.map(|t| t.to_rfc3339()),
        }
    }
}

const COLUMNS: &str = "id, question, question_key, count, unit, feedback_id, answer_id, \
                       tally_count, note, corpus, accepted_by, accepted_at, withdrawn_by, \
                       withdrawn_at";

/// The corpus an answer read, as verified answers are filed under it: the count setting's
/// corpus, or [`ALL_CORPORA`] for every corpus.
pub fn corpus_of(settings: &tally_types::count::CountSettings) -> &str {
    settings.corpus.as_deref().unwrap_or(ALL_CORPORA)
}

/// The current verified answer of a question over `corpus` (see [`corpus_of`]), if the
/// operator accepted one.
pub async fn current(
    db: &Database,
    question: &str,
    corpus: &str,
) -> Result<Option<VerifiedAnswer>, DbError> {
    let key = question_key(question);
    let pool = db.pool().await?;
    let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM verified_answers \
         WHERE question_key = $1 AND corpus = $2 AND withdrawn_at IS NULL"
    )))
    .bind(key)
    .bind(corpus)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|row| VerifiedRecord::from(row).answer))
}

/// The current verified answers of `questions`, by question key (over any corpus: the newest).
pub async fn current_of(
    db: &Database,
    questions: &[&str],
) -> Result<std::collections::HashMap<String, VerifiedAnswer>, DbError> {
    let keys: Vec<String> = questions.iter().map(|q| question_key(q)).collect();
    let pool = db.pool().await?;
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM verified_answers \
         WHERE question_key = ANY($1) AND withdrawn_at IS NULL ORDER BY id"
    )))
    .bind(&keys)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let record = VerifiedRecord::from(row);
            (record.question_key, record.answer)
        })
        .collect())
}

/// The verified answers, the current ones first, then the withdrawn and replaced ones, newest
/// first.
pub async fn list(db: &Database, limit: i64) -> Result<Vec<VerifiedRecord>, DbError> {
    let pool = db.pool().await?;
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM verified_answers \
         ORDER BY withdrawn_at IS NOT NULL, id DESC LIMIT $1"
    )))
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(VerifiedRecord::from).collect())
}

/// What a new verified answer holds.
pub struct Accepted<'a> {
    /// The question it answers.
    pub question: &'a str,
    /// The count, or the value in `unit`.
    pub count: f64,
    /// A value's unit-table id (none for a count).
    pub unit: Option<&'a str>,
    /// The feedback accepted.
    pub feedback_id: i64,
    /// The answer that feedback judged.
    pub answer_id: i64,
    /// Tally's own count in the judged answer, when it gave one.
    pub tally_count: Option<f64>,
    /// The operator's note.
    pub note: Option<&'a str>,
    /// The corpus the judged answer read; the verified answer holds over it only.
    pub corpus: &'a str,
    /// Who accepted it.
    pub by: &'a str,
}

/// Makes `accepted` the question's verified answer over its corpus inside the review's
/// transaction; the one it replaces is marked withdrawn by the same reviewer. Two acceptances of
/// one question at the same moment: the second is a [`DbError::Conflict`].
pub async fn replace(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    accepted: &Accepted<'_>,
) -> Result<VerifiedRecord, DbError> {
    let key = question_key(accepted.question);
    sqlx::query(
        "UPDATE verified_answers SET withdrawn_at = now(), withdrawn_by = $2 \
         WHERE question_key = $1 AND corpus = $3 AND withdrawn_at IS NULL",
    )
    .bind(&key)
    .bind(accepted.by)
    .bind(accepted.corpus)
    .execute(&mut **tx)
    .await?;
    let row: Row = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO verified_answers (question_key, question, count, feedback_id, answer_id, \
         tally_count, note, accepted_by, corpus, unit) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {COLUMNS}"
    )))
    .bind(&key)
    .bind(accepted.question)
    .bind(accepted.count)
    .bind(accepted.feedback_id)
    .bind(accepted.answer_id)
    .bind(accepted.tally_count)
    .bind(accepted.note)
    .bind(accepted.by)
    .bind(accepted.corpus)
    .bind(accepted.unit)
    .fetch_one(&mut **tx)
    .await
    .map_err(|e| match &e {
        // Another transaction made the current answer between our update and insert: it
        // committed first and wins.
        sqlx::Error::Database(db) if db.constraint() == Some("verified_answers_current") => {
            DbError::from(Clash::AcceptedMeanwhile {
                question: accepted.question.to_string(),
            })
        }
        _ => DbError::from(e),
    })?;
    Ok(row.into())
}

/// Withdraws the current verified answers over `corpus`, in the transaction that deletes it:
/// they rest on documents no longer held (issue 101). Returns how many.
pub(crate) async fn withdraw_corpus(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    corpus: &str,
) -> Result<u64, DbError> {
    Ok(sqlx::query(
        "UPDATE verified_answers SET withdrawn_at = now(), withdrawn_by = $2 \
         WHERE corpus = $1 AND withdrawn_at IS NULL",
    )
    .bind(corpus)
    .bind(CORPUS_DELETED)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

/// Who withdrew the verified answers of a deleted corpus, as the review page lists it.
pub const CORPUS_DELETED: &str = "the corpus's deletion";

/// Withdraws a current verified answer: its question is answered by Tally alone again.
pub async fn withdraw(db: &Database, id: i64, by: &str) -> Result<VerifiedRecord, DbError> {
    let pool = db.pool().await?;
    let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE verified_answers SET withdrawn_at = now(), withdrawn_by = $2 \
         WHERE id = $1 AND withdrawn_at IS NULL RETURNING {COLUMNS}"
    )))
    .bind(id)
    .bind(by)
    .fetch_optional(pool)
    .await?;
    match row {
        Some(row) => Ok(row.into()),
        None => Err(Missing::VerifiedAnswer(id).into()),
    }
}
