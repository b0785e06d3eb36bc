//! Why the private PostgreSQL cluster could not be set up, started or stopped, and the names
//! its failures state: a cause of the store's one error (`DbError::Cluster`,
//! `Unreachable::NoCluster`), apart from the cluster's code so that the error and the cluster
//! each import it, not each other.

use std::path::PathBuf;

/// The database the cluster holds for Tally.
pub(crate) const DATABASE: &str = "tally";
/// The system user PostgreSQL runs as when the server runs as root.
pub(crate) const SERVICE_USER: &str = "postgres";

/// Why the private cluster could not be set up or started.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// PostgreSQL's programs are not installed.
    #[error(
        "PostgreSQL's initdb/pg_ctl were not found (run scripts/setup.sh, or set DATABASE_URL)"
    )]
    NotInstalled,
    /// Running as root with no `postgres` user to run PostgreSQL as.
    #[error("running as root, but there is no `{SERVICE_USER}` user to run PostgreSQL as")]
    NoServiceUser,
    /// A file or directory of the cluster could not be prepared.
    #[error("cannot prepare {path}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A PostgreSQL program failed.
    #[error("`{command}` failed: {message}")]
    Command {
        /// The command run.
        command: String,
        /// What it reported.
        message: String,
    },
    /// A PostgreSQL program could not be run at all.
    #[error("`{command}` could not be run")]
    Run {
        /// The command.
        command: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The task that takes the cluster's lock crashed.
    #[error("the task taking the cluster's lock crashed")]
    LockTask(#[source] tokio::task::JoinError),
    /// The database and its roles could not be created.
    #[error("cannot set up the `{DATABASE}` database and its roles")]
    CreateDatabase(#[from] sqlx::Error),
}
