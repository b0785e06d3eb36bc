//! `dense`: the qbm25 pool re-ranked by the encoder: w_cos · cosine(query, sentence) + w_text ·
//! normalised BM25 + α · 1[meets] · qs (the QColBERT idea with Tally's encoder).

use tally_types::search::Hit;

use super::{qbm25::Qbm25, Asked, SentenceRanker};
use crate::encoder::cosine;
use crate::search::error::SearchError;
use crate::search::retrieve::{Candidate, Retrieval};
use crate::search::settings::DenseWeights;
use crate::Encoder;

pub struct Dense<'a> {
    pub encoder: &'a Encoder,
    pub weights: DenseWeights,
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
            hit.score = self.weights.cosine * similarity
                + self.weights.text * hit.text_score_normalised
                + asked.alpha * asked.quantity_term(hit);
        }
        Ok(())
    }
}
