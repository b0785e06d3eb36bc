//! Study sessions and responses in PostgreSQL. A session row holds its planned tasks; each
//! response is one row, unique per (session, task), so a re-sent form stores nothing new.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::FromRow;
use tally_types::study::StudyTask;
use uuid::Uuid;

use tally_store::db::{Database, DbError};

/// A session is abandoned when it is not completed and nothing happened in it for this long:
/// it takes no more answers, and the summary counts it apart.
pub const ABANDONED_AFTER_HOURS: i32 = 24;

/// An abandoned session without a single response is deleted this long after its last activity:
/// it holds nothing for the study, and a script starting sessions would otherwise grow the table
/// (and "sessions started") for ever. Until then the summary counts it as abandoned.
pub const EMPTY_SESSION_KEPT_DAYS: i32 = 7;

/// The last activity of a session (its start or its latest response), as SQL over `s`.
const LAST_ACTIVE: &str = "greatest(s.started_at, \
     (SELECT max(r.answered_at) FROM study_responses r WHERE r.session_id = s.id))";

/// A session as stored.
#[derive(Debug, Clone)]
pub struct Session {
    /// The session's id.
    pub id: Uuid,
    /// The study it belongs to.
    pub study: String,
    /// Its tasks, in order.
    pub tasks: Vec<StudyTask>,
    /// The code handed back once it is complete.
    pub completion_code: Option<String>,
    /// Indexes of the tasks answered so far.
    pub answered: Vec<usize>,
    /// The task shown last and when the server first showed it (the clock of its response).
    pub shown: Option<(usize, DateTime<Utc>)>,
    /// Not completed, and idle for [`ABANDONED_AFTER_HOURS`].
    pub abandoned: bool,
}

impl Session {
    /// The first task not answered yet.
    pub fn next_task(&self) -> Option<usize> {
        (0..self.tasks.len()).find(|i| !self.answered.contains(i))
    }
}

/// Stores a new session with its planned tasks.
pub async fn create_session(
    db: &Database,
    id: Uuid,
    study: &str,
    tasks: &[StudyTask],
) -> Result<(), DbError> {
    let pool = db.pool().await?;
    sqlx::query("INSERT INTO study_sessions (id, study, meta) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(study)
        .bind(serde_json::json!({ "tasks": tasks }))
        .execute(pool)
        .await?;
    Ok(())
}

/// A session and its progress, if it exists.
pub async fn load_session(db: &Database, id: Uuid) -> Result<Option<Session>, DbError> {
    let pool = db.pool().await?;
    let row: Option<(String, serde_json::Value, Option<String>, bool)> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT study, meta, completion_code, \
             completion_code IS NULL AND {LAST_ACTIVE} < now() - make_interval(hours => $2) \
             FROM study_sessions s WHERE id = $1"
        )))
        .bind(id)
        .bind(ABANDONED_AFTER_HOURS)
        .fetch_optional(pool)
        .await?;
    let Some((study, meta, completion_code, abandoned)) = row else {
        return Ok(None);
    };
    let tasks: Vec<StudyTask> = serde_json::from_value(meta["tasks"].clone())
        .map_err(|e| DbError::stored(format!("study session {id}'s tasks"), e))?;
    let answered: Vec<i32> =
        sqlx::query_scalar("SELECT task_index FROM study_responses WHERE session_id = $1")
            .bind(id)
            .fetch_all(pool)
            .await?;
    let shown = meta["shown"]["index"]
        .as_u64()
        .zip(meta["shown"]["at"].as_str())
        .and_then(|(index, at)| {
            let at = DateTime::parse_from_rfc3339(at).ok()?;
            Some((index as usize, at.with_timezone(&Utc)))
        });
    Ok(Some(Session {
        id,
        study,
        tasks,
        completion_code,
        answered: answered.into_iter().map(|i| i as usize).collect(),
        shown,
        abandoned,
    }))
}

/// Notes that task `index` of the session is shown now, unless it was shown before (a reload
/// does not restart its clock).
pub async fn mark_shown(db: &Database, session: Uuid, index: usize) -> Result<(), DbError> {
    let pool = db.pool().await?;
    sqlx::query(
        "UPDATE study_sessions SET meta = jsonb_set(meta, '{shown}', \
         jsonb_build_object('index', $2::int, 'at', to_jsonb(now()))) \
         WHERE id = $1 AND (meta->'shown'->>'index') IS DISTINCT FROM $2::text",
    )
    .bind(session)
    .bind(index as i32)
    .execute(pool)
    .await?;
    Ok(())
}

/// Stores a response; `false` when the task was answered already (nothing changes then).
pub async fn insert_response(
    db: &Database,
    session: Uuid,
    index: usize,
    kind: &str,
    task: &serde_json::Value,
    response: &serde_json::Value,
) -> Result<bool, DbError> {
    let pool = db.pool().await?;
    let inserted = sqlx::query(
        "INSERT INTO study_responses (session_id, task_index, task_kind, task, response) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (session_id, task_index) DO NOTHING",
    )
    .bind(session)
    .bind(index as i32)
    .bind(kind)
    .bind(task)
    .bind(response)
    .execute(pool)
    .await?
    .rows_affected();
    Ok(inserted == 1)
}

/// Marks a session complete with `code`, unless it has a code already; returns the code it has.
pub async fn complete(db: &Database, session: Uuid, code: &str) -> Result<String, DbError> {
    let pool = db.pool().await?;
    let code: String = sqlx::query_scalar(
        "UPDATE study_sessions SET completed_at = COALESCE(completed_at, now()), \
         completion_code = COALESCE(completion_code, $2) WHERE id = $1 RETURNING completion_code",
    )
    .bind(session)
    .bind(code)
    .fetch_one(pool)
    .await?;
    Ok(code)
}

/// A stored response with its session, as exports and summaries read it.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct ResponseRow {
    /// The session it was given in.
    pub session_id: Uuid,
    /// The task's place in the session.
    pub task_index: i32,
    /// The kind of task, by name.
    pub task_kind: String,
    /// The task as shown.
    pub task: serde_json::Value,
    /// The participant's response.
    pub response: serde_json::Value,
    /// When it was given.
    pub answered_at: DateTime<Utc>,
    /// Whether its session was completed.
    pub session_completed: bool,
}

/// Every response of `study`, by session and task.
pub async fn responses(db: &Database, study: &str) -> Result<Vec<ResponseRow>, DbError> {
    let pool = db.pool().await?;
    sqlx::query_as(
        "SELECT r.session_id, r.task_index, r.task_kind, r.task, r.response, r.answered_at, \
                s.completed_at IS NOT NULL AS session_completed \
         FROM study_responses r JOIN study_sessions s ON s.id = r.session_id \
         WHERE s.study = $1 ORDER BY s.started_at, r.session_id, r.task_index",
    )
    .bind(study)
    .fetch_all(pool)
    .await
    .map_err(DbError::from)
}

/// Deletes the sessions that are abandoned, have no response and were last active more than
/// [`EMPTY_SESSION_KEPT_DAYS`] ago; returns how many.
pub async fn remove_empty_abandoned(db: &Database) -> Result<u64, DbError> {
    let pool = db.pool().await?;
    let done = sqlx::query(
        "DELETE FROM study_sessions s WHERE s.completed_at IS NULL \
         AND s.started_at < now() - make_interval(days => $1) \
         AND NOT EXISTS (SELECT 1 FROM study_responses r WHERE r.session_id = s.id)",
    )
    .bind(EMPTY_SESSION_KEPT_DAYS)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// Sessions of `study` started, completed and abandoned.
pub async fn session_counts(db: &Database, study: &str) -> Result<SessionCounts, DbError> {
    let pool = db.pool().await?;
    let (started, completed, abandoned): (i64, i64, i64) =
        sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT count(*), count(completed_at), count(*) FILTER (WHERE completed_at IS NULL \
             AND {LAST_ACTIVE} < now() - make_interval(hours => $2)) \
             FROM study_sessions s WHERE study = $1"
        )))
        .bind(study)
        .bind(ABANDONED_AFTER_HOURS)
        .fetch_one(pool)
        .await?;
    Ok(SessionCounts {
        started: started as usize,
        completed: completed as usize,
        abandoned: abandoned as usize,
    })
}

/// How many sessions a study has: started, completed, and abandoned (neither completed nor
/// active for [`ABANDONED_AFTER_HOURS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SessionCounts {
    /// Sessions started.
    pub started: usize,
    /// Sessions completed.
    pub completed: usize,
    /// Sessions left unfinished past the time limit.
    pub abandoned: usize,
}
