//! The reader's out-of-fold span probabilities, written by `tally train count-spans` and read
//! by the candidate ranker's training (`--ranker-only`), checked against today's candidates.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::cross_validation::QueryConfidences;
use super::data::{QueryCandidates, TrainingQuery};
use super::error::TrainError;

/// The out-of-fold span probabilities of every candidate, as the candidate ranker reads them.
#[derive(Debug, Serialize, Deserialize)]
pub struct SpanConfidences {
    /// Each training question's probabilities.
    pub queries: Vec<QuerySpanConfidences>,
}

/// The out-of-fold span probabilities of one training question.
#[derive(Debug, Serialize, Deserialize)]
pub struct QuerySpanConfidences {
    /// The data set the question comes from.
    pub dataset: String,
    /// The question's id in its data set.
    pub qid: String,
    /// Per snippet, per count candidate (in [`count_candidates`] order).
    pub confidences: Vec<Vec<f64>>,
}

pub(super) fn write_span_confidences(
    path: &Path,
    queries: &[TrainingQuery],
    out_of_fold: &[QueryConfidences],
) -> Result<(), TrainError> {
    let file = SpanConfidences {
        queries: queries
            .iter()
            .zip(out_of_fold)
            .map(|(q, per_snippet)| QuerySpanConfidences {
                dataset: q.dataset.clone(),
                qid: q.qid.clone(),
                confidences: per_snippet
                    .iter()
                    .map(|cs| cs.iter().map(|(_, p)| *p).collect())
                    .collect(),
            })
            .collect(),
    };
    let write_error = |source| TrainError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(write_error)?;
    }
    let text = serde_json::to_string(&file).map_err(|e| write_error(std::io::Error::other(e)))?;
    std::fs::write(path, text).map_err(write_error)
}

/// Reads the span probabilities written by [`train_count_spans`] for `queries`, checking that
/// they still match today's candidates.
pub fn read_span_confidences(
    path: &Path,
    queries: &[TrainingQuery],
    candidates: &[QueryCandidates],
) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
    let stale = |message: String| TrainError::SpanConfidences {
        path: path.to_path_buf(),
        message,
    };
    let unread =
        |source: Box<dyn std::error::Error + Send + Sync>| TrainError::SpanConfidencesUnread {
            path: path.to_path_buf(),
            source,
        };
    let text = std::fs::read_to_string(path).map_err(|e| unread(e.into()))?;
    let file: SpanConfidences = serde_json::from_str(&text).map_err(|e| unread(e.into()))?;
    let by_key: std::collections::HashMap<(&str, &str), &QuerySpanConfidences> = file
        .queries
        .iter()
        .map(|q| ((q.dataset.as_str(), q.qid.as_str()), q))
        .collect();
    queries
        .iter()
        .zip(candidates)
        .map(|(q, cands)| {
            let found = by_key
                .get(&(q.dataset.as_str(), q.qid.as_str()))
                .ok_or_else(|| stale(format!("no entry for {} query {}", q.dataset, q.qid)))?;
            let shapes_match = found.confidences.len() == cands.len()
                && found
                    .confidences
                    .iter()
                    .zip(cands)
                    .all(|(p, c)| p.len() == c.len());
            if !shapes_match {
                return Err(stale(format!(
                    "{} query {} has other candidates now",
                    q.dataset, q.qid
                )));
            }
            Ok(found.confidences.clone())
        })
        .collect()
}
