//! `bm25`: the query's words only; quantities are shown but do not rank.

use tally_types::search::Hit;

use super::{QueryRead, SentenceRanker};
use crate::error::EngineError;
use crate::search::store::FirstStage;

pub(crate) struct Bm25;

impl SentenceRanker for Bm25 {
    fn first_stage(&self) -> FirstStage {
        FirstStage::Text
    }

    fn score(&self, _asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), EngineError> {
        for hit in hits {
            hit.score = hit.text_score;
        }
        Ok(())
    }
}
