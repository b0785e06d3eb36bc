//! `qbm25` (QFinder): BM25 / max BM25 + α · 1[meets every constraint] · qs, computed exactly by
//! the store's first stage ([`FirstStage::Qbm25`]; in the tantivy index: BM25 top-k over all
//! sentences, which also gives max BM25, and the top-k of the formula among the text matches
//! that meet the constraints, scored from the packed entries of the fast field; the merge of
//! both is the exact top-k).

use tally_types::search::Hit;

use super::{QueryRead, SentenceRanker};
use crate::error::EngineError;
use crate::search::store::FirstStage;

pub(crate) struct Qbm25;

impl SentenceRanker for Qbm25 {
    fn first_stage(&self) -> FirstStage {
        FirstStage::Qbm25
    }

    fn score(&self, asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), EngineError> {
        for hit in hits {
            hit.score = hit.text_score_normalised + asked.alpha * asked.quantity_term(hit);
        }
        Ok(())
    }
}
