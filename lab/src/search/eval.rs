//! Scoring rankers on judged sentences (the Qsearch text benchmark's format): index the union of
//! all judged sentences, run every query, and measure P@10, MRR@10 and NDCG@10 with binary
//! relevance; unjudged sentences count as not relevant, and every query counts (one without a
//! relevant sentence scores 0).

use std::collections::HashSet;
use tally_documents::DocumentsError;

use serde::Serialize;

use tally_documents::corpus::sentences::{parse_documents, parse_judged, JudgedQuery};
use tally_documents::corpus::Format;
use tally_documents::sentence_store::index::SentenceIndex;
use tally_encoder::Encoder;
use tally_engine::search::rank::search;
use tally_engine::search::settings::SearchSettings;
use tally_engine::EngineError;
use tally_types::Ranker;

/// Cut-off of every metric.
pub const CUTOFF: usize = 10;

/// Why a search evaluation failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchEvalError {
    /// The judged file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The judged file has no queries.
    #[error("{0} has no queries")]
    Empty(std::path::PathBuf),
    /// The judged file could not be parsed, or the sentence index failed.
    #[error(transparent)]
    Documents(#[from] DocumentsError),
    /// A search failed.
    #[error(transparent)]
    Search(#[from] EngineError),
}

/// The judged queries and the index of their sentences.
pub struct JudgedCollection {
    /// The judged queries.
    pub queries: Vec<JudgedQuery>,
    /// An in-memory index of their sentences.
    pub index: SentenceIndex,
}

impl JudgedCollection {
    /// Reads a judged file and indexes the union of its sentences (each judged sentence as one
    /// sentence, with the entity the file gives).
    pub fn load(path: &std::path::Path) -> Result<Self, SearchEvalError> {
        let text = std::fs::read_to_string(path).map_err(|source| SearchEvalError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let queries = parse_judged(&text, path)?;
        if queries.is_empty() {
            return Err(SearchEvalError::Empty(path.to_path_buf()));
        }
        let documents = parse_documents(&text, Format::Qsearch, "judged", path)?;
        let index = SentenceIndex::in_memory()?;
        index.add_unsplit(&documents)?;
        Ok(JudgedCollection { queries, index })
    }
}

/// Metrics of one ranker over all queries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankerScores {
    /// The ranker measured.
    pub ranker: Ranker,
    /// Queries scored.
    pub queries: usize,
    /// Mean precision at 10.
    #[serde(rename = "p@10")]
    pub precision: f64,
    /// Mean reciprocal rank at 10.
    #[serde(rename = "mrr@10")]
    pub mrr: f64,
    /// Mean NDCG at 10.
    #[serde(rename = "ndcg@10")]
    pub ndcg: f64,
}

/// One query's P@10, RR@10 and NDCG@10.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueryScores {
    /// Precision at 10.
    pub precision: f64,
    /// Reciprocal rank at 10.
    pub rr: f64,
    /// NDCG at 10.
    pub ndcg: f64,
}

impl RankerScores {
    /// The means of per-query scores.
    pub fn mean(ranker: Ranker, scores: &[QueryScores]) -> RankerScores {
        let n = scores.len().max(1) as f64;
        RankerScores {
            ranker,
            queries: scores.len(),
            precision: scores.iter().map(|s| s.precision).sum::<f64>() / n,
            mrr: scores.iter().map(|s| s.rr).sum::<f64>() / n,
            ndcg: scores.iter().map(|s| s.ndcg).sum::<f64>() / n,
        }
    }
}

/// Runs every query with `settings` and scores the ranked sentences.
pub fn evaluate(
    collection: &JudgedCollection,
    encoder: Option<&Encoder>,
    settings: &SearchSettings,
) -> Result<RankerScores, SearchEvalError> {
    Ok(RankerScores::mean(
        settings.ranker,
        &per_query(collection, encoder, settings)?,
    ))
}

/// Each query's scores with `settings`, in the collection's order.
pub fn per_query(
    collection: &JudgedCollection,
    encoder: Option<&Encoder>,
    settings: &SearchSettings,
) -> Result<Vec<QueryScores>, SearchEvalError> {
    let settings = SearchSettings {
        k: CUTOFF,
        ..settings.clone()
    };
    let mut scores = Vec::with_capacity(collection.queries.len());
    for query in &collection.queries {
        let relevant = relevant_sentences(query);
        let results = search(&collection.index, encoder, &query.query, &settings)?;
        let ranked: Vec<&str> = if settings.ranker == Ranker::Entity {
            results
                .entities
                .iter()
                .map(|e| e.evidence.text.as_str())
                .collect()
        } else {
            results.hits.iter().map(|h| h.text.as_str()).collect()
        };
        let gains: Vec<bool> = ranked
            .iter()
            .take(CUTOFF)
            .map(|s| relevant.contains(s))
            .collect();
        let (precision, rr, ndcg) = ranking_scores(&gains, relevant.len());
        scores.push(QueryScores {
            precision,
            rr,
            ndcg,
        });
    }
    Ok(scores)
}

/// The sentences judged relevant to `query`.
pub fn relevant_sentences(query: &JudgedQuery) -> HashSet<&str> {
    query
        .judged
        .iter()
        .filter(|j| j.relevant)
        .map(|j| j.sentence.as_str())
        .collect()
}

/// (P@10, RR@10, NDCG@10) of one ranking given as relevance flags, with `relevant` relevant
/// sentences in all.
pub fn ranking_scores(gains: &[bool], relevant: usize) -> (f64, f64, f64) {
    let top = &gains[..gains.len().min(CUTOFF)];
    let hits = top.iter().filter(|g| **g).count();
    let precision = hits as f64 / CUTOFF as f64;
    let rr = top
        .iter()
        .position(|g| *g)
        .map_or(0.0, |i| 1.0 / (i + 1) as f64);
    let discount = |i: usize| 1.0 / ((i + 2) as f64).log2();
    let dcg: f64 = top
        .iter()
        .enumerate()
        .filter(|(_, g)| **g)
        .map(|(i, _)| discount(i))
        .sum();
    let ideal: f64 = (0..relevant.min(CUTOFF)).map(discount).sum();
    let ndcg = if ideal > 0.0 { dcg / ideal } else { 0.0 };
    (precision, rr, ndcg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_scores_follow_their_definitions() {
        let (p, rr, ndcg) = ranking_scores(&[false, true, false, true], 2);
        assert!((p - 0.2).abs() < 1e-12);
        assert!((rr - 0.5).abs() < 1e-12);
        let dcg = 1.0 / 3f64.log2() + 1.0 / 5f64.log2();
        let ideal = 1.0 + 1.0 / 3f64.log2();
        assert!((ndcg - dcg / ideal).abs() < 1e-12);
        assert_eq!(ranking_scores(&[true; 10], 20), (1.0, 1.0, 1.0));
        assert_eq!(ranking_scores(&[false; 3], 0), (0.0, 0.0, 0.0));
    }
}
