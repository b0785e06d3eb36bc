//! Uploaded corpora in PostgreSQL: their documents (each text once per corpus), a version that
//! every change raises, the ingestion jobs that report how far their server has indexed them,
//! and the servers that index them. Every server's indexes are derived from these rows
//! (`ingest::sync`); a change is announced on the [`CHANNEL`] with `NOTIFY`.

use sqlx::types::Json;
use sqlx::{FromRow, Postgres, Transaction};
use tally_documents::sentence_store::index::Document;
use tally_types::documents::{
    DocumentEntry, FileOutcome, IngestJob, IngestProgress, JobState, UploadMode,
};
use uuid::Uuid;

use crate::db::{Database, DbError};
use crate::records;
use crate::refused::Clash;

/// The `LISTEN`/`NOTIFY` channel that names a corpus when it changes.
pub const CHANNEL: &str = "tally_corpora";

/// Documents written per statement.
const INSERT_BATCH: usize = 1_000;

/// Seconds after which a server that has not been seen is taken for dead, and its running jobs
/// are marked failed.
pub const SERVER_TIMEOUT_S: i64 = 30;

/// A corpus as the database has it.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct StoredCorpus {
    /// The corpus's name.
    pub name: String,
    /// Its current version, raised by every change.
    pub version: i64,
    /// The version of its last replacement (or creation).
    pub base_version: i64,
    /// Whether it was deleted.
    pub deleted: bool,
    /// Why indexing its current version failed (then no server indexes it on its own).
    pub failed: Option<String>,
}

#[derive(FromRow)]
struct JobRow {
    id: Uuid,
    corpus: String,
    files: Vec<String>,
    mode: String,
    duplicates: i32,
    state: String,
    progress: Json<IngestProgress>,
    error: Option<String>,
    outcomes: Json<Vec<FileOutcome>>,
}

impl JobRow {
    fn job(self) -> IngestJob {
        IngestJob {
            id: self.id.to_string(),
            corpus: self.corpus,
            files: self.files,
            mode: UploadMode::parse(&self.mode).unwrap_or_default(),
            duplicates: usize::try_from(self.duplicates).unwrap_or(0),
            state: JobState::parse(&self.state).unwrap_or(JobState::Failed),
            progress: self.progress.0,
            error: self.error,
            outcomes: self.outcomes.0,
        }
    }
}

const JOB_COLUMNS: &str = "id, corpus, files, mode, duplicates, state, progress, error, outcomes";

/// Who follows an upload's job.
#[derive(Debug, Clone, Copy)]
pub enum FollowedBy<'a> {
    /// The server that took it: the job runs until that server has indexed the corpus.
    Server(&'a str),
    /// Nobody (`tally ingest`): the job is done once the documents are stored, and every
    /// server indexes them.
    Nobody,
}

/// The database's clock now: when an upload began to be read, to tell a deletion that came
/// while it was read ([`store_upload`]).
pub async fn database_now(db: &Database) -> Result<chrono::DateTime<chrono::Utc>, DbError> {
    let pool = db.pool().await?;
    let (now,): (chrono::DateTime<chrono::Utc>,) =
        sqlx::query_as("SELECT now()").fetch_one(pool).await?;
    Ok(now)
}

/// Stores an upload's `documents` in `corpus` with its job, in one transaction (the corpus has
/// all of them or none), and announces the change. A document whose text the corpus holds
/// already is not added; when nothing is added the job is done at once. An upload read since
/// `read_since` into a corpus deleted after that is refused (issue 97: the corpus came back
/// when an upload read by OCR ended): the person deleted what it would add to.
pub async fn store_upload(
    db: &Database,
    followed_by: FollowedBy<'_>,
    corpus: &str,
    mode: UploadMode,
    outcomes: Vec<FileOutcome>,
    documents: &[Document],
    read_since: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<IngestJob, DbError> {
    let files = outcomes.iter().map(|o| o.file.clone()).collect();
    // The documents' tables, read before the transaction, off the async threads.
    let texts: Vec<Document> = documents.to_vec();
    let tables = tokio::task::spawn_blocking(move || records::tables_of_documents(&texts))
        .await
        .map_err(|e| DbError::crashed("reading the tables", e))?;
    let pool = db.pool().await?;
    let mut tx = pool.begin().await?;
    let server = match followed_by {
        FollowedBy::Server(server) => {
            seen(&mut *tx, server).await?;
            server
        }
        FollowedBy::Nobody => "tally ingest",
    };
    let (version, deleted) = lock_corpus(&mut tx, corpus, read_since).await?;
    let next = version + 1;
    let fresh = mode == UploadMode::Replace || deleted || version == 0;
    if fresh {
        sqlx::query("DELETE FROM corpus_documents WHERE corpus = $1")
            .bind(corpus)
            .execute(&mut *tx)
            .await?;
        records::delete_tables(&mut tx, corpus).await?;
    }
    let mut added = 0usize;
    let mut inserted_ids: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut added_bytes = 0usize;
    for batch in documents.chunks(INSERT_BATCH) {
        let (ids, sources, entities, texts) = columns(batch);
        let inserted: Vec<(i32, String)> = sqlx::query_as(
            "INSERT INTO corpus_documents (corpus, added_version, id, source, entity, text) \
             SELECT $1, $2, d.id, d.source, d.entity, d.text \
             FROM UNNEST($3::text[], $4::text[], $5::text[], $6::text[]) \
               AS d (id, source, entity, text) \
             ON CONFLICT (corpus, md5(text)) DO NOTHING \
             RETURNING octet_length(text), id",
        )
        .bind(corpus)
        .bind(next)
        .bind(ids)
        .bind(sources)
        .bind(entities)
        .bind(texts)
        .fetch_all(&mut *tx)
        .await?;
        added += inserted.len();
        added_bytes += inserted
            .iter()
            .map(|(n, _)| usize::try_from(*n).unwrap_or(0))
            .sum::<usize>();
        inserted_ids.extend(inserted.into_iter().map(|(_, id)| id));
    }
    // The tables of the documents added (a document the corpus held already has its own).
    for (document, tables) in documents.iter().zip(&tables) {
        if inserted_ids.contains(&document.id) {
            records::write_tables(&mut tx, corpus, tables).await?;
        }
    }
    let changed = fresh || added > 0;
    if changed {
        sqlx::query(
            "UPDATE corpora SET version = $2, deleted_at = NULL, changed_at = now(), \
             base_version = CASE WHEN $3 THEN $2 ELSE base_version END, \
             records_version = CASE WHEN $3 OR records_version = version THEN $2 \
                                    ELSE records_version END \
             WHERE name = $1",
        )
        .bind(corpus)
        .bind(next)
        .bind(fresh)
        .execute(&mut *tx)
        .await?;
    }
    let job = IngestJob {
        id: Uuid::new_v4().to_string(),
        corpus: corpus.to_string(),
        files,
        mode,
        duplicates: documents.len() - added,
        state: if changed && matches!(followed_by, FollowedBy::Server(_)) {
            JobState::Running
        } else {
            JobState::Done
        },
        progress: IngestProgress {
            documents: added,
            bytes: added_bytes,
            ..IngestProgress::default()
        },
        error: None,
        outcomes,
    };
    insert_job(&mut tx, &job, if changed { next } else { version }, server).await?;
    if changed {
        notify(&mut tx, corpus).await?;
    }
    tx.commit().await?;
    Ok(job)
}

/// The documents' columns, as the arrays `UNNEST` takes.
#[allow(clippy::type_complexity)]
fn columns(documents: &[Document]) -> (Vec<&str>, Vec<&str>, Vec<Option<&str>>, Vec<&str>) {
    let ids = documents.iter().map(|d| d.id.as_str()).collect();
    let sources = documents.iter().map(|d| d.source.as_str()).collect();
    let entities = documents.iter().map(|d| d.entity.as_deref()).collect();
    let texts = documents.iter().map(|d| d.text.as_str()).collect();
    (ids, sources, entities, texts)
}

/// Locks `corpus`'s row for an upload (made when it is new; the lock orders concurrent
/// uploads into one corpus): its version and whether it is deleted. Refused when it was
/// deleted after `read_since`, when the upload began to be read.
async fn lock_corpus(
    tx: &mut Transaction<'_, Postgres>,
    corpus: &str,
    read_since: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<(i64, bool), DbError> {
    let (version, deleted, deleted_while_read): (i64, bool, bool) = sqlx::query_as(
        "INSERT INTO corpora AS c (name, version, base_version) VALUES ($1, 0, 0) \
         ON CONFLICT (name) DO UPDATE SET changed_at = now() \
         RETURNING c.version, c.deleted_at IS NOT NULL, coalesce(c.deleted_at > $2, false)",
    )
    .bind(corpus)
    .bind(read_since)
    .fetch_one(&mut **tx)
    .await?;
    if deleted_while_read {
        // The caller drops the transaction: the row's touch is rolled back.
        return Err(Clash::DeletedWhileRead {
            corpus: corpus.to_string(),
        }
        .into());
    }
    Ok((version, deleted))
}

async fn insert_job(
    tx: &mut Transaction<'_, Postgres>,
    job: &IngestJob,
    version: i64,
    server: &str,
) -> Result<(), DbError> {
    let id = Uuid::parse_str(&job.id)
        .map_err(|e| DbError::stored(format!("ingest job `{}`'s id", job.id), e))?;
    sqlx::query(
        "INSERT INTO ingest_jobs \
         (id, corpus, files, mode, version, duplicates, state, progress, server, outcomes) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(id)
    .bind(&job.corpus)
    .bind(&job.files)
    .bind(job.mode.name())
    .bind(version)
    .bind(i32::try_from(job.duplicates).unwrap_or(i32::MAX))
    .bind(job.state.name())
    .bind(Json(job.progress))
    .bind(server)
    .bind(Json(&job.outcomes))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn notify(tx: &mut Transaction<'_, Postgres>, corpus: &str) -> Result<(), DbError> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(corpus)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Deletes `corpus`'s documents and marks it deleted (servers drop their copies); whether the
/// database held it.
pub async fn delete(db: &Database, corpus: &str) -> Result<bool, DbError> {
    let pool = db.pool().await?;
    let mut tx = pool.begin().await?;
    let marked = sqlx::query(
        "UPDATE corpora SET deleted_at = now(), changed_at = now(), version = version + 1 \
         WHERE name = $1 AND deleted_at IS NULL",
    )
    .bind(corpus)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if marked == 0 {
        return Ok(false);
    }
    sqlx::query("DELETE FROM corpus_documents WHERE corpus = $1")
        .bind(corpus)
        .execute(&mut *tx)
        .await?;
    records::delete_tables(&mut tx, corpus).await?;
    crate::verified::withdraw_corpus(&mut tx, corpus).await?;
    // Its jobs under way end here, as cancelled: the server indexing it stops at its next
    // batch, and no job reads "done" with part of its documents (issue 57).
    sqlx::query(
        "UPDATE ingest_jobs SET state = 'cancelled', \
         error = 'the corpus was deleted before its documents were all indexed' \
         WHERE corpus = $1 AND state = 'running'",
    )
    .bind(corpus)
    .execute(&mut *tx)
    .await?;
    notify(&mut tx, corpus).await?;
    tx.commit().await?;
    Ok(true)
}

/// Whether `corpus` was deleted (or never stored).
pub async fn is_deleted(db: &Database, corpus: &str) -> Result<bool, DbError> {
    let pool = db.pool().await?;
    let live: Option<bool> =
        sqlx::query_scalar("SELECT deleted_at IS NULL FROM corpora WHERE name = $1")
            .bind(corpus)
            .fetch_optional(pool)
            .await?;
    Ok(live != Some(true))
}

/// Every corpus the database has or had.
pub async fn all(db: &Database) -> Result<Vec<StoredCorpus>, DbError> {
    let pool = db.pool().await?;
    sqlx::query_as(
        "SELECT name, version, base_version, deleted_at IS NOT NULL AS deleted, \
           CASE WHEN failed_version = version THEN failed_reason END AS failed \
         FROM corpora ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .map_err(DbError::from)
}

/// Whether the database has `corpus` (not deleted).
pub async fn has(db: &Database, corpus: &str) -> Result<bool, DbError> {
    let pool = db.pool().await?;
    let found: Option<(i64,)> =
        sqlx::query_as("SELECT version FROM corpora WHERE name = $1 AND deleted_at IS NULL")
            .bind(corpus)
            .fetch_optional(pool)
            .await?;
    Ok(found.is_some())
}

/// Which documents of a corpus to read: those added after version `after` up to `upto`.
#[derive(Debug, Clone, Copy)]
pub struct Added {
    /// The version after which documents were added (excluded).
    pub after: i64,
    /// The last version whose documents are read (included).
    pub upto: i64,
}

/// How many documents and bytes of text `added` holds.
pub async fn added_size(
    db: &Database,
    corpus: &str,
    added: Added,
) -> Result<(usize, usize), DbError> {
    let pool = db.pool().await?;
    let (n, bytes): (i64, i64) = sqlx::query_as(
        "SELECT count(*), coalesce(sum(octet_length(text)), 0)::bigint FROM corpus_documents \
         WHERE corpus = $1 AND added_version > $2 AND added_version <= $3",
    )
    .bind(corpus)
    .bind(added.after)
    .bind(added.upto)
    .fetch_one(pool)
    .await?;
    Ok((
        usize::try_from(n).unwrap_or(0),
        usize::try_from(bytes).unwrap_or(0),
    ))
}

#[derive(FromRow)]
struct DocumentRow {
    seq: i64,
    id: String,
    source: String,
    entity: Option<String>,
    text: String,
}

/// Up to `limit` documents of `added`, in upload order, after position `after_seq`; each with
/// its position.
pub async fn added_documents(
    db: &Database,
    corpus: &str,
    added: Added,
    after_seq: i64,
    limit: i64,
) -> Result<Vec<(i64, Document)>, DbError> {
    let pool = db.pool().await?;
    let rows: Vec<DocumentRow> = sqlx::query_as(
        "SELECT seq, id, source, entity, text FROM corpus_documents \
         WHERE corpus = $1 AND added_version > $2 AND added_version <= $3 AND seq > $4 \
         ORDER BY seq LIMIT $5",
    )
    .bind(corpus)
    .bind(added.after)
    .bind(added.upto)
    .bind(after_seq)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            (
                r.seq,
                Document {
                    id: r.id,
                    text: r.text,
                    source: r.source,
                    entity: r.entity,
                },
            )
        })
        .collect())
}

/// Job `id`, whichever server runs it.
pub async fn job(db: &Database, id: &str) -> Result<Option<IngestJob>, DbError> {
    let Ok(id) = Uuid::parse_str(id) else {
        return Ok(None);
    };
    let pool = db.pool().await?;
    let row: Option<JobRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {JOB_COLUMNS} FROM ingest_jobs WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(JobRow::job))
}

/// The documents `corpus` holds, by source, in the order of their names (empty for a corpus
/// the database does not hold, or holds deleted).
pub async fn documents_of(db: &Database, corpus: &str) -> Result<Vec<DocumentEntry>, DbError> {
    let pool = db.pool().await?;
    let rows: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT d.source, count(*), coalesce(sum(octet_length(d.text)), 0)::bigint \
         FROM corpus_documents d JOIN corpora c ON c.name = d.corpus AND c.deleted_at IS NULL \
         WHERE d.corpus = $1 GROUP BY d.source ORDER BY d.source",
    )
    .bind(corpus)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(source, documents, bytes)| DocumentEntry {
            source,
            documents: u64::try_from(documents).unwrap_or(0),
            bytes: u64::try_from(bytes).unwrap_or(0),
        })
        .collect())
}

/// The corpora of `server`'s running jobs.
pub async fn with_running_jobs(
    db: &Database,
    server: &str,
) -> Result<std::collections::HashSet<String>, DbError> {
    let pool = db.pool().await?;
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT DISTINCT corpus FROM ingest_jobs WHERE server = $1 AND state = 'running'",
    )
    .bind(server)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|(corpus,)| corpus).collect())
}

/// `server`'s running jobs on `corpus` up to version `upto` now stand at `progress`.
pub async fn report_progress(
    db: &Database,
    server: &str,
    corpus: &str,
    upto: i64,
    progress: &IngestProgress,
) -> Result<(), DbError> {
    let pool = db.pool().await?;
    sqlx::query(
        "UPDATE ingest_jobs SET progress = $4 \
         WHERE server = $1 AND corpus = $2 AND version <= $3 AND state = 'running'",
    )
    .bind(server)
    .bind(corpus)
    .bind(upto)
    .bind(Json(progress))
    .execute(pool)
    .await?;
    Ok(())
}

/// `server` holds `corpus` at version `held`: its running jobs up to it are done (with
/// `progress` when this pass indexed them, else as they stood, all documents done).
pub async fn finish_jobs(
    db: &Database,
    server: &str,
    corpus: &str,
    held: i64,
    progress: Option<&IngestProgress>,
) -> Result<(), DbError> {
    let pool = db.pool().await?;
    sqlx::query(
        "UPDATE ingest_jobs SET state = 'done', progress = coalesce($4, progress || \
           jsonb_build_object('documents_done', coalesce(progress->'documents', '0'), \
                              'bytes_done', coalesce(progress->'bytes', '0'))) \
         WHERE server = $1 AND corpus = $2 AND version <= $3 AND state = 'running'",
    )
    .bind(server)
    .bind(corpus)
    .bind(held)
    .bind(progress.map(Json))
    .execute(pool)
    .await?;
    Ok(())
}

/// `server`'s running jobs on `corpus` failed, for the reason `why`.
pub async fn fail_jobs(
    db: &Database,
    server: &str,
    corpus: &str,
    why: &str,
) -> Result<(), DbError> {
    let pool = db.pool().await?;
    sqlx::query(
        "UPDATE ingest_jobs SET state = 'failed', error = $3 \
         WHERE server = $1 AND corpus = $2 AND state = 'running'",
    )
    .bind(server)
    .bind(corpus)
    .bind(why)
    .execute(pool)
    .await?;
    Ok(())
}

/// Indexing `corpus` at `version` failed, for the reason `why`, or it took its server down
/// (issue 84): the version is marked failed, so that no server indexes it again on its own,
/// and its running jobs, whichever server follows them, failed with the reason.
pub async fn mark_failed(
    db: &Database,
    corpus: &str,
    version: i64,
    why: &str,
) -> Result<(), DbError> {
    let pool = db.pool().await?;
    let mut tx = pool.begin().await?;
    sqlx::query(
        "UPDATE corpora SET failed_version = $2, failed_reason = $3 \
         WHERE name = $1 AND deleted_at IS NULL",
    )
    .bind(corpus)
    .bind(version)
    .bind(why)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE ingest_jobs SET state = 'failed', error = $2 \
         WHERE corpus = $1 AND state = 'running'",
    )
    .bind(corpus)
    .bind(why)
    .execute(&mut *tx)
    .await?;
    notify(&mut tx, corpus).await?;
    tx.commit().await?;
    Ok(())
}

/// `server` is alive; the running jobs of servers not seen for [`SERVER_TIMEOUT_S`] are
/// marked failed, with a sentence that says what to do.
pub async fn heartbeat(db: &Database, server: &str) -> Result<u64, DbError> {
    let pool = db.pool().await?;
    seen(pool, server).await?;
    let failed = sqlx::query(
        "UPDATE ingest_jobs j SET state = 'failed', error = \
           'the server indexing it (' || j.server || ') stopped before it was done; \
the documents are stored, and every other server indexes them: start the job again to follow it' \
         WHERE j.state = 'running' AND NOT EXISTS (SELECT 1 FROM corpus_servers s \
           WHERE s.id = j.server AND s.seen_at > now() - make_interval(secs => $1))",
    )
    .bind(SERVER_TIMEOUT_S as f64)
    .execute(pool)
    .await?
    .rows_affected();
    Ok(failed)
}

/// `server` is alive now.
async fn seen<'e>(
    executor: impl sqlx::Executor<'e, Database = Postgres>,
    server: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO corpus_servers (id) VALUES ($1) \
         ON CONFLICT (id) DO UPDATE SET seen_at = now()",
    )
    .bind(server)
    .execute(executor)
    .await?;
    Ok(())
}

/// Starts failed job `id` again on `server` (which indexes its corpus if it does not hold it
/// yet); the job, or `None` if there is none.
pub async fn restart(db: &Database, id: &str, server: &str) -> Result<Option<IngestJob>, DbError> {
    let Ok(id) = Uuid::parse_str(id) else {
        return Ok(None);
    };
    let pool = db.pool().await?;
    let mut tx = pool.begin().await?;
    let corpus: Option<String> = sqlx::query_scalar(
        "UPDATE ingest_jobs SET state = 'running', error = NULL, server = $2 \
         WHERE id = $1 AND state = 'failed' RETURNING corpus",
    )
    .bind(id)
    .bind(server)
    .fetch_optional(&mut *tx)
    .await?;
    // Asked for again by a person: the corpus's failed version is tried once more.
    if let Some(corpus) = &corpus {
        sqlx::query(
            "UPDATE corpora SET failed_version = NULL, failed_reason = NULL WHERE name = $1",
        )
        .bind(corpus)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    job(db, &id.to_string()).await
}
