//! The PostgreSQL store: a lazily connected pool whose migrations are applied on first contact.
//!
//! The server starts and keeps answering when the database is down: every use checks the pool
//! and reports [`DbError::Unavailable`], which the HTTP layer turns into a clear 503 ("feedback
//! cannot be saved"). Once the database is back, the next use connects again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use tokio::sync::Mutex;

use crate::cluster_error::ClusterError;
use crate::refused::{Clash, Invalid, InvalidFeedback, Missing};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// Why a use of the store failed.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The database cannot be reached, or could not be set up.
    #[error("database unavailable")]
    Unavailable(#[source] Unreachable),
    /// The request is not valid: what is wrong with it.
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// A stored row cannot be read back (a name the schema no longer admits, JSON of another
    /// shape): a broken database, not the request's fault.
    #[error("{what} cannot be read")]
    Stored {
        /// The row, in a few words ("feedback 12").
        what: String,
        /// Why it cannot be read.
        #[source]
        cause: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A row the request refers to does not exist.
    #[error(transparent)]
    NotFound(#[from] Missing),
    /// The request clashes with a row someone else stored.
    #[error(transparent)]
    Conflict(#[from] Clash),
    /// Any other error of the database.
    #[error("database error")]
    Query(#[source] sqlx::Error),
    /// The private PostgreSQL cluster (the server's own, without `DATABASE_URL`) could not be
    /// started, started again or stopped.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
}

/// Every database error is classified on its way in: a plain `?` on a query cannot skip the
/// "database unavailable" reading of a lost connection.
impl From<sqlx::Error> for DbError {
    fn from(error: sqlx::Error) -> Self {
        classify(error)
    }
}

/// A feedback that is not valid is a request that is not valid (a 422), and `?` gives it.
impl From<InvalidFeedback> for DbError {
    fn from(invalid: InvalidFeedback) -> Self {
        DbError::Invalid(invalid.into())
    }
}

/// Why the database cannot be used right now: the cause of [`DbError::Unavailable`], a kind of
/// the store's error as milli's `UserError` is of its `Error`. Its causes are shared (`Arc`):
/// a store that could not be set up gives the same cause on every use.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Unreachable {
    /// `DATABASE_URL` is not a valid database URL.
    #[error("DATABASE_URL is not valid")]
    Url(#[source] Arc<sqlx::Error>),
    /// No `DATABASE_URL` was given and no private cluster could be set up.
    #[error("no private PostgreSQL cluster could be set up")]
    NoCluster(#[source] Arc<ClusterError>),
    /// The schema could not be brought up to date.
    #[error("its schema could not be brought up to date")]
    Migrate(#[source] Arc<sqlx::migrate::MigrateError>),
    /// The connection could not be made, or was lost.
    #[error("the connection failed")]
    Connection(#[source] Arc<sqlx::Error>),
    /// A task working for it (reading tables, storing) crashed.
    #[error("{what} crashed")]
    Crashed {
        /// What the task did.
        what: &'static str,
        /// Why it ended.
        #[source]
        source: Arc<tokio::task::JoinError>,
    },
    /// It gave no answer within this many seconds.
    #[error("no answer within {0} s")]
    NoAnswer(u64),
}

impl DbError {
    /// The stored row `what` cannot be read, because of `cause`.
    pub fn stored(
        what: impl Into<String>,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        DbError::Stored {
            what: what.into(),
            cause: Box::new(cause),
        }
    }

    /// A task working for the store that crashed (`what` it did: "reading the tables").
    pub fn crashed(what: &'static str, source: tokio::task::JoinError) -> Self {
        DbError::Unavailable(Unreachable::Crashed {
            what,
            source: Arc::new(source),
        })
    }
}

/// Handle to the store; cheap to clone.
#[derive(Clone)]
pub struct Database {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Result<PgPool, Unreachable>,
    migrated: AtomicBool,
    migrate_lock: Mutex<()>,
}

impl Database {
    /// Prepares a pool for `url` without connecting yet.
    pub fn new(url: &str) -> Self {
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(3))
            .connect_lazy(url)
            .map_err(|e| Unreachable::Url(Arc::new(e)));
        Self {
            inner: Arc::new(Inner {
                pool,
                migrated: AtomicBool::new(false),
                migrate_lock: Mutex::new(()),
            }),
        }
    }

    /// A store that cannot be used, for when no private cluster could be set up; says why on
    /// every use.
    pub(crate) fn unavailable(why: ClusterError) -> Self {
        Self {
            inner: Arc::new(Inner {
                pool: Err(Unreachable::NoCluster(Arc::new(why))),
                migrated: AtomicBool::new(false),
                migrate_lock: Mutex::new(()),
            }),
        }
    }

    /// The pool, once the database answers and the schema is current.
    pub async fn pool(&self) -> Result<&PgPool, DbError> {
        let pool = self
            .inner
            .pool
            .as_ref()
            .map_err(|e| DbError::Unavailable(e.clone()))?;
        if !self.inner.migrated.load(Ordering::Acquire) {
            let _guard = self.inner.migrate_lock.lock().await;
            if !self.inner.migrated.load(Ordering::Acquire) {
                MIGRATOR
                    .run(pool)
                    .await
                    .map_err(|e| DbError::Unavailable(Unreachable::Migrate(Arc::new(e))))?;
                self.inner.migrated.store(true, Ordering::Release);
            }
        }
        Ok(pool)
    }

    /// Whether the database answers right now (runs the migrations if they have not run yet).
    pub async fn check(&self) -> Result<(), DbError> {
        let pool = self.pool().await?;
        sqlx::query("SELECT 1")
            .execute(pool)
            .await
            .map_err(|e| DbError::Unavailable(Unreachable::Connection(Arc::new(e))))?;
        Ok(())
    }

    /// Closes the pool's connections (on shutdown, before the private cluster stops).
    pub async fn close(&self) {
        if let Ok(pool) = &self.inner.pool {
            pool.close().await;
        }
    }
}

/// Runs a database write in its own task, so that it finishes even when the request that
/// started it goes away: a transaction cut off between BEGIN and COMMIT would leave its pooled
/// connection inside an open transaction, and later writes on it would be lost.
pub async fn write_to_end<T, F>(write: F) -> Result<T, DbError>
where
    T: Send + 'static,
    F: std::future::Future<Output = Result<T, DbError>> + Send + 'static,
{
    tokio::spawn(write)
        .await
        .unwrap_or_else(|e| Err(DbError::crashed("the storing task", e)))
}

/// Maps an error from a query to what the caller should be told: lost connections are
/// "unavailable", not internal errors.
fn classify(error: sqlx::Error) -> DbError {
    match error {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => {
            DbError::Unavailable(Unreachable::Connection(Arc::new(error)))
        }
        other => DbError::Query(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain `?` on a query's error reads a lost connection as "unavailable".
    fn asked() -> Result<(), DbError> {
        Err(sqlx::Error::PoolTimedOut)?
    }

    #[test]
    fn a_question_mark_classifies_the_database_error() {
        assert!(matches!(asked(), Err(DbError::Unavailable(_))));
        assert!(matches!(
            DbError::from(sqlx::Error::RowNotFound),
            DbError::Query(sqlx::Error::RowNotFound)
        ));
        let chained = DbError::from(sqlx::Error::RowNotFound);
        assert!(std::error::Error::source(&chained).is_some());
        // A lost connection keeps sqlx's error as its cause, written once.
        let lost = DbError::from(sqlx::Error::PoolTimedOut);
        let written = tally_types::error::Causes(&lost).to_string();
        assert!(
            written.starts_with("database unavailable: the connection failed: "),
            "{written}"
        );
        assert!(
            written.contains(&sqlx::Error::PoolTimedOut.to_string()),
            "{written}"
        );
    }
}
