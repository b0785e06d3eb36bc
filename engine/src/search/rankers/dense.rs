//! `dense`: the qbm25 pool re-ranked by the encoder: 2 · cosine(query, sentence) + 0.2 ·
//! normalised BM25 + α · 1[meets] · qs (the QColBERT idea with Tally's encoder).

use tally_types::search::Hit;

use super::{qbm25::Qbm25, quantity_term, Asked, SentenceRanker};
use crate::encoder::cosine;
use crate::search::rank::SearchError;
use crate::search::retrieve::{Candidate, Retrieval};
use crate::Encoder;

/// Weights chosen by a grid search on the Qsearch dev queries (cosine alone, or with BM25 at
/// equal weight, ranked worse).
const COSINE_WEIGHT: f64 = 2.0;
const TEXT_WEIGHT: f64 = 0.2;

pub struct Dense<'a> {
    pub encoder: &'a Encoder,
}

impl SentenceRanker for Dense<'_> {
    fn reranks(&self) -> bool {
        true
    }

    fn retrieve(&self, retrieval: &Retrieval<'_>) -> Result<Vec<Candidate>, SearchError> {
        Qbm25.retrieve(retrieval)
    }

    fn score(&self, asked: &Asked<'_>, hits: &mut [Hit]) -> Result<(), SearchError> {
        // The query without its numbers: what is asked about, and in which unit.
        let mut query = asked.words.join(" ");
        for unit in asked
            .parsed
            .constraints
            .iter()
            .filter_map(|c| c.unit.as_ref())
        {
            query.push(' ');
            query.push_str(&unit.name);
        }
        let mut texts: Vec<&str> = vec![&query];
        texts.extend(hits.iter().map(|h| h.text.as_str()));
        let vectors = self.encoder.embed(&texts)?;
        for (hit, vector) in hits.iter_mut().zip(&vectors[1..]) {
            let similarity = f64::from(cosine(&vectors[0], vector));
            hit.score = COSINE_WEIGHT * similarity
                + TEXT_WEIGHT * hit.text_score_normalised
                + asked.alpha * quantity_term(hit);
        }
        Ok(())
    }
}
