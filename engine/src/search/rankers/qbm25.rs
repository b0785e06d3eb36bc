//! `qbm25` (QFinder): BM25 / max BM25 + α · 1[meets every constraint] · qs, computed exactly with
//! two index queries: BM25 top-k over all sentences (which also gives max BM25), and the top-k of
//! the formula among the sentences that meet the constraints (the text matches that have a
//! quantity under a compatible key, from the index's key postings, checked and scored from the
//! packed entries of the fast field); the merge of both is the exact top-k.

use tally_types::search::Hit;

use super::{QueryRead, SentenceRanker};
use crate::search::error::SearchError;
use crate::search::retrieve::{Candidate, FirstStage, Retrieval};

pub struct Qbm25;

impl SentenceRanker for Qbm25 {
    fn retrieve(&self, retrieval: &Retrieval<'_>) -> Result<Vec<Candidate>, SearchError> {
        let alpha = retrieval.alpha;
        let max_bm25 = retrieval.max_bm25;
        let stage = FirstStage {
            text: 1.0 / max_bm25,
            quantity: alpha,
        };
        let mut candidates = retrieval.meeting(stage)?;
        candidates.extend(retrieval.text_candidates());
        retrieval.score_from_fast_field(&mut candidates, stage);
        Ok(candidates)
    }

    fn score(&self, asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), SearchError> {
        for hit in hits {
            hit.score = hit.text_score_normalised + asked.alpha * asked.quantity_term(hit);
        }
        Ok(())
    }
}
