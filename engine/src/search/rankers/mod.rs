//! The rankers of quantity search, one file each behind one trait (as tantivy's `collector/`):
//! each says how it retrieves its first-stage candidates and how it scores the hits.
//!
//! - [`bm25`]: text only.
//! - [`bm25_filter`]: BM25 over the sentences that meet every constraint (the others are dropped).
//! - [`qbm25`] (QFinder): BM25 / max BM25 + α · 1[meets every constraint] · qs, exact.
//! - [`dense`]: the qbm25 pool re-ranked by the encoder's cosine(query, sentence).
//! - [`entity`] (Qsearch): entities from the qbm25 pool, each with its evidence sentence.
//! - [`learned`]: the dense pool ordered by weights learned on judged queries.

mod bm25;
mod bm25_filter;
pub(crate) mod dense;
mod entity;
pub mod learned;
mod qbm25;

pub use dense::{encoder_query, WITHOUT_WORDS};

use tally_types::search::{EntityHit, Hit};
use tally_types::Ranker;

use super::settings::SearchSettings;
use super::store::FirstStage;
use crate::error::EngineError;
use tally_documents::sentence_store::vectors::SentenceVectors;
use tally_encoder::Encoder;
use tally_text::quantity::ParsedQuery;

/// What a ranker knows of the query when it scores hits.
pub struct QueryRead<'a> {
    /// The query as parsed into terms and constraints.
    pub parsed: &'a ParsedQuery,
    /// The words searched as text.
    pub words: &'a [String],
    /// Weight of the quantity score.
    pub alpha: f64,
    /// Whether conditions are read softly (then a hit's qs counts even when it misses one).
    pub soft: bool,
}

impl QueryRead<'_> {
    /// The quantity term of the score: 1[meets every constraint] · qs (QFinder), or qs with soft
    /// conditions.
    pub fn quantity_term(&self, hit: &Hit) -> f64 {
        if self.soft || hit.meets_all() {
            hit.quantity_score
        } else {
            0.0
        }
    }
}

/// One way of ranking sentences for a quantity query.
pub trait SentenceRanker {
    /// Whether it re-ranks a pool wider than the hits shown (then the `pool` setting applies).
    fn reranks(&self) -> bool {
        false
    }

    /// The first-stage candidates it asks the store for, for a query with constraints (a query
    /// without any is ranked by text alone, whatever the ranker).
    fn first_stage(&self) -> FirstStage;

    /// Whether conditions may be read softly (a filter keeps only what meets them).
    fn soft_conditions(&self) -> bool {
        true
    }

    /// Each hit's final score.
    fn score(&self, asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), EngineError>;

    /// Entity answers, for the rankers that give them (sorted hits in, best entity first out).
    fn entities(&self, _hits: &[Hit], _asked: &QueryRead<'_>, _k: usize) -> Vec<EntityHit> {
        Vec::new()
    }
}

/// The ranker chosen in `settings` (reading `stored` sentence vectors where it reads meaning);
/// `Err` when it needs the encoder and none is loaded.
pub fn ranker_for<'a>(
    settings: &SearchSettings,
    encoder: Option<&'a Encoder>,
    stored: Option<&'a SentenceVectors>,
) -> Result<Box<dyn SentenceRanker + 'a>, EngineError> {
    let choice = settings.ranker;
    Ok(match choice {
        Ranker::Bm25 => Box::new(bm25::Bm25),
        Ranker::Bm25Filter => Box::new(bm25_filter::Bm25Filter),
        Ranker::Qbm25 => Box::new(qbm25::Qbm25),
        Ranker::Dense => Box::new(dense::Dense {
            encoder: encoder.ok_or(EngineError::NeedsEncoder(choice.name()))?,
            stored,
            weights: settings.dense,
        }),
        Ranker::Entity => Box::new(entity::Entity),
        Ranker::Learned => Box::new(learned::Learned {
            encoder: encoder.ok_or(EngineError::NeedsEncoder(choice.name()))?,
            stored,
            weights: learned::LearnedWeights::shipped(),
        }),
    })
}
