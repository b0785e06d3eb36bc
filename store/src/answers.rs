//! Questions and the answers given to them, stored in PostgreSQL; the history page reads them.
//!
//! An answer is stored once per [`AnswerKey`]; each visitor's asking of it is one small question
//! row (asking again refreshes its time, at most once a minute), so a popular question costs
//! one answer, not one per request. Old anonymous history is removed by [`forget_older_than`].

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::FromRow;
use tally_types::{Mode, QuestionKind};
use uuid::Uuid;

use crate::db::{Database, DbError};

/// Where an answer was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StoredIds {
    /// The question row's id.
    pub question_id: i64,
    /// The answer row's id.
    pub answer_id: i64,
}

/// What makes two answers the same: the question (case and spacing aside), the mode, the
/// settings, the engine's version and the corpus it answered from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerKey(String);

/// Where an answer was computed from: part of what makes two answers the same (another
/// snippet set is another answer).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum AnsweredFrom {
    /// The loaded corpora, named with their sizes (they only grow, or are replaced whole).
    Corpora {
        /// The corpora's names and sizes.
        version: String,
    },
    /// The loaded corpora, given because the web search failed.
    CorporaForTheWeb {
        /// The corpora's names and sizes.
        version: String,
    },
    /// A stored web snippet set.
    WebSnippetSet {
        /// The snippet set's id.
        id: i64,
    },
    /// Web snippets that could not be stored, fetched at this time.
    WebSnippets {
        /// When the snippets were fetched.
        fetched_at: String,
    },
}

impl AnswerKey {
    /// The key of an answer to `question` in `mode` with these settings, from this source.
    pub fn new(
        question: &str,
        mode: Mode,
        settings: &serde_json::Value,
        from: &AnsweredFrom,
    ) -> Self {
        let parts = serde_json::json!({
            "engine": tally_types::ENGINE_VERSION,
            "from": from,
            "mode": mode,
            "settings": settings,
            "question": tally_types::request::question_key(question),
        });
        Self(Uuid::new_v5(&Uuid::NAMESPACE_OID, parts.to_string().as_bytes()).to_string())
    }
}

/// One asking of a question, to be stored.
pub struct Asking {
    /// The question as asked.
    pub question: String,
    /// The question's kind, by its name.
    pub kind: &'static str,
    /// The settings it was asked with.
    pub settings: serde_json::Value,
    /// The anonymous visitor who asked; `None` for API clients without the visitor cookie.
    pub visitor: Option<Uuid>,
    /// What makes its answer the same as another's.
    pub key: AnswerKey,
    /// How long answering took, in milliseconds.
    pub latency_ms: f64,
}

/// Stores the asking and, unless an answer with the same key is stored already, the answer
/// (`answer` is only called then: the answer's JSON is the large part).
pub async fn store_answer(
    db: &Database,
    asked: &Asking,
    answer: impl FnOnce() -> serde_json::Value,
) -> Result<StoredIds, DbError> {
    let pool = db.pool().await?;
    let mut tx = pool.begin().await?;
    let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM answers WHERE answer_key = $1")
        .bind(&asked.key.0)
        .fetch_optional(&mut *tx)
        .await?;
    let answer_id = match existing {
        Some(id) => id,
        None => {
            // Another request may store the same answer meanwhile: then its row is used.
            let inserted: Option<i64> = sqlx::query_scalar(
                "INSERT INTO answers (answer_key, answer, latency_ms, engine_version) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (answer_key) DO NOTHING RETURNING id",
            )
            .bind(&asked.key.0)
            .bind(answer())
            .bind(asked.latency_ms.max(0.0))
            .bind(tally_types::ENGINE_VERSION)
            .fetch_optional(&mut *tx)
            .await?;
            match inserted {
                Some(id) => id,
                None => {
                    sqlx::query_scalar("SELECT id FROM answers WHERE answer_key = $1")
                        .bind(&asked.key.0)
                        .fetch_one(&mut *tx)
                        .await?
                }
            }
        }
    };
    if let Some(moved) = resorted(&mut tx, asked, answer_id).await? {
        tx.commit().await?;
        return Ok(StoredIds {
            question_id: moved,
            answer_id,
        });
    }
    let refreshed: Option<i64> = sqlx::query_scalar(
        "INSERT INTO questions (text, kind, settings, answer_id, visitor) \
         VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (answer_id, visitor) DO UPDATE SET last_asked_at = now() \
         WHERE questions.last_asked_at < now() - interval '1 minute' \
         RETURNING id",
    )
    .bind(&asked.question)
    .bind(asked.kind)
    .bind(&asked.settings)
    .bind(answer_id)
    .bind(asked.visitor)
    .fetch_optional(&mut *tx)
    .await?;
    let question_id =
        match refreshed {
            Some(id) => id,
            // Asked within the last minute: the row stands as it is.
            None => sqlx::query_scalar(
                "SELECT id FROM questions WHERE answer_id = $1 AND visitor IS NOT DISTINCT FROM $2",
            )
            .bind(answer_id)
            .bind(asked.visitor)
            .fetch_one(&mut *tx)
            .await?,
        };
    tx.commit().await?;
    Ok(StoredIds {
        question_id,
        answer_id,
    })
}

/// A search re-sorted is not a new question: when the visitor's latest question has the same
/// text, kind and settings but for the sort order, its row moves to the re-sorted answer and its
/// id is returned (`None`: a new question, or a visitor-less asker).
async fn resorted(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    asked: &Asking,
    answer_id: i64,
) -> Result<Option<i64>, DbError> {
    let Some(visitor) = asked.visitor else {
        return Ok(None);
    };
    // Only searches have a sort order: other answers skip the query.
    let sorted = [QuestionKind::Quantity, QuestionKind::Search]
        .iter()
        .any(|k| k.name() == asked.kind);
    if !sorted {
        return Ok(None);
    }
    sqlx::query_scalar(
        "UPDATE questions SET answer_id = $1, settings = $2, last_asked_at = now() \
         WHERE id = (SELECT id FROM questions WHERE visitor = $3 \
                     ORDER BY last_asked_at DESC, id DESC LIMIT 1) \
           AND text = $4 AND kind = $5 AND answer_id <> $1 \
           AND (settings #- '{settings,sort}') = ($2::jsonb #- '{settings,sort}') \
           AND NOT EXISTS (SELECT 1 FROM questions WHERE answer_id = $1 AND visitor = $3) \
         RETURNING id",
    )
    .bind(answer_id)
    .bind(&asked.settings)
    .bind(visitor)
    .bind(&asked.question)
    .bind(asked.kind)
    .fetch_optional(&mut **tx)
    .await
    .map_err(DbError::from)
}

/// A stored question for the history.
#[derive(Debug, Clone, PartialEq, Serialize, FromRow)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct RecentQuestion {
    /// The question row's id.
    pub question_id: i64,
    /// Its answer's id, if the answer is still stored.
    pub answer_id: Option<i64>,
    /// The question as asked.
    pub text: String,
    /// The question's kind, by its name.
    pub kind: String,
    /// The settings it was asked with.
    pub settings: serde_json::Value,
    /// When this visitor last asked it.
    pub asked_at: DateTime<Utc>,
    /// The one-line summary stored with the answer.
    pub summary: Option<String>,
    /// How much feedback the answer has (the visitor's own, or everyone's for the admin).
    pub feedback: i64,
}

/// Whose questions a history lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryOf {
    /// One visitor's (by the visitor cookie).
    Visitor(Uuid),
    /// Everyone's (for the holder of the admin token).
    Everyone,
}

/// The most recently asked questions, newest first, with their answer's summary and feedback
/// count: a visitor's own feedback on it (answers are shared between visitors who ask the same),
/// everyone's for the admin.
pub async fn recent_questions(
    db: &Database,
    of: HistoryOf,
    limit: i64,
) -> Result<Vec<RecentQuestion>, DbError> {
    let pool = db.pool().await?;
    let visitor = match of {
        HistoryOf::Visitor(id) => Some(id),
        HistoryOf::Everyone => None,
    };
    sqlx::query_as(
        "SELECT q.id AS question_id, a.id AS answer_id, q.text, q.kind, q.settings, \
                q.last_asked_at AS asked_at, a.answer->>'summary' AS summary, \
                (SELECT count(*) FROM feedback f WHERE f.answer_id = a.id \
                   AND ($1::uuid IS NULL OR f.visitor = $1)) AS feedback \
         FROM questions q LEFT JOIN answers a ON a.id = q.answer_id \
         WHERE $1::uuid IS NULL OR q.visitor = $1 \
         ORDER BY q.last_asked_at DESC, q.id DESC LIMIT $2",
    )
    .bind(visitor)
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(DbError::from)
}

/// What [`forget_older_than`] removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Forgotten {
    /// The question rows removed.
    pub questions: u64,
    /// The answer rows removed.
    pub answers: u64,
}

/// Removes questions last asked more than `days` days ago, then the answers that no question
/// and no feedback refer to any more (answers with feedback are kept with it).
pub async fn forget_older_than(db: &Database, days: u32) -> Result<Forgotten, DbError> {
    let pool = db.pool().await?;
    let days = i32::try_from(days).unwrap_or(i32::MAX);
    let mut tx = pool.begin().await?;
    let questions = sqlx::query(
        "DELETE FROM questions WHERE last_asked_at < now() - make_interval(days => $1)",
    )
    .bind(days)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let answers = sqlx::query(
        "DELETE FROM answers a WHERE a.created_at < now() - make_interval(days => $1) \
         AND NOT EXISTS (SELECT 1 FROM questions q WHERE q.answer_id = a.id) \
         AND NOT EXISTS (SELECT 1 FROM feedback f WHERE f.answer_id = a.id)",
    )
    .bind(days)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(Forgotten { questions, answers })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_keys_ignore_case_and_spacing_but_not_settings() {
        let settings = serde_json::json!({"snippets": 50});
        let corpora = |version: &str| AnsweredFrom::Corpora {
            version: version.into(),
        };
        let key = AnswerKey::new("How many  moons?", Mode::Auto, &settings, &corpora("c1"));
        assert_eq!(
            key,
            AnswerKey::new(" how many moons? ", Mode::Auto, &settings, &corpora("c1"))
        );
        assert_ne!(
            key,
            AnswerKey::new("how many moons?", Mode::Count, &settings, &corpora("c1"))
        );
        assert_ne!(
            key,
            AnswerKey::new("how many moons?", Mode::Auto, &settings, &corpora("c2"))
        );
        let web = AnsweredFrom::CorporaForTheWeb {
            version: "c1".into(),
        };
        assert_ne!(
            key,
            AnswerKey::new("how many moons?", Mode::Auto, &settings, &web)
        );
        let other = serde_json::json!({"snippets": 20});
        assert_ne!(
            key,
            AnswerKey::new("how many moons?", Mode::Auto, &other, &corpora("c1"))
        );
    }
}
