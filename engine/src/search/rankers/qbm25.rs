//! `qbm25` (QFinder): BM25 / max BM25 + α · 1[meets every constraint] · qs, computed exactly with
//! two index queries: BM25 top-k over all sentences (which also gives max BM25), and the top-k of
//! the formula among the sentences that meet the constraints (a fast-field filter inside
//! tantivy, scored from the packed entries); the merge of both is the exact top-k.

use tally_types::search::Hit;

use super::{Asked, SentenceRanker};
use crate::search::error::SearchError;
use crate::search::retrieve::{Candidate, Retrieval};

pub struct Qbm25;

impl SentenceRanker for Qbm25 {
    fn retrieve(&self, retrieval: &Retrieval<'_>) -> Result<Vec<Candidate>, SearchError> {
        let alpha = retrieval.alpha;
        let max_bm25 = retrieval.max_bm25;
        let mut candidates = retrieval.meeting(move |bm25, qs| bm25 / max_bm25 + alpha * qs)?;
        candidates.extend(retrieval.text_candidates());
        retrieval.score_from_fast_field(&mut candidates, |bm25, qs| bm25 / max_bm25 + alpha * qs);
        Ok(candidates)
    }

    fn score(&self, asked: &Asked<'_>, hits: &mut [Hit]) -> Result<(), SearchError> {
        for hit in hits {
            hit.score = hit.text_score_normalised + asked.alpha * asked.quantity_term(hit);
        }
        Ok(())
    }
}
