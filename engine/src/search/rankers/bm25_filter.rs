//! `bm25-filter`: BM25 over the sentences that meet every constraint; the others are dropped.

use tally_types::search::Hit;

use super::{bm25::Bm25, QueryRead, SentenceRanker};
use crate::error::EngineError;
use crate::search::store::FirstStage;

pub(crate) struct Bm25Filter;

impl SentenceRanker for Bm25Filter {
    fn soft_conditions(&self) -> bool {
        false
    }

    fn first_stage(&self) -> FirstStage {
        FirstStage::MeetingByText
    }

    fn score(&self, asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), EngineError> {
        Bm25.score(asked, hits)
    }
}
