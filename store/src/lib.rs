//! Tally's PostgreSQL store: the pool and its migrations, the private cluster started when no database is
//! configured, and the tables by what they hold (questions with their answers, feedback; the
//! user study keeps its own in the server's `study/`).

pub mod answers;
pub mod cluster_error;
pub mod corpora;
pub mod db;
pub mod feedback;
#[cfg(feature = "json-schema")]
mod feedback_schema;
pub mod pg_cluster;
pub mod records;
pub mod refused;
pub mod review;
pub mod snippet_sets;
pub mod verified;
