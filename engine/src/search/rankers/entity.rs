//! `entity` (Qsearch): quantity facts (entity, quantity, context) from the qbm25 pool; facts that
//! fail the condition are dropped; entities ranked by their best fact's score (normalised BM25 of
//! its sentence, the context match, + α · qs), each with its evidence sentence.

use std::collections::HashMap;

use tally_types::search::{EntityHit, Hit};

use super::{qbm25::Qbm25, QueryRead, SentenceRanker};
use crate::error::EngineError;
use crate::search::store::FirstStage;
use tally_text::names::name_spans;
use tally_text::offsets::char_offset;

pub(crate) struct Entity;

impl SentenceRanker for Entity {
    fn reranks(&self) -> bool {
        true
    }

    fn first_stage(&self) -> FirstStage {
        FirstStage::Qbm25
    }

    fn score(&self, asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), EngineError> {
        Qbm25.score(asked, hits)
    }

    fn entities(&self, hits: &[Hit], asked: &QueryRead<'_>, k: usize) -> Vec<EntityHit> {
        entity_answers(hits, asked, k)
    }
}

/// Entity mode: one answer per entity, from its best fact.
fn entity_answers(hits: &[Hit], asked: &QueryRead<'_>, k: usize) -> Vec<EntityHit> {
    let constrained = !asked.parsed.constraints.is_empty();
    let mut best: HashMap<String, EntityHit> = HashMap::new();
    for hit in hits {
        if constrained && !hit.meets_all() {
            continue;
        }
        let Some(entity) = entity_of(hit) else {
            continue;
        };
        let context_score = hit.score - asked.alpha * asked.quantity_term(hit);
        let answer = EntityHit {
            rank: 0,
            score: hit.score,
            context_score,
            quantity_score: hit.quantity_score,
            evidence: hit.clone(),
            entity: entity.clone(),
        };
        let key = entity.to_lowercase();
        match best.get(&key) {
            Some(existing) if existing.score >= answer.score => {}
            _ => {
                best.insert(key, answer);
            }
        }
    }
    let mut answers: Vec<EntityHit> = best.into_values().collect();
    // Ties by name, so that equal scores rank the same way in every run.
    answers.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.entity.cmp(&b.entity))
    });
    answers.truncate(k);
    for (i, answer) in answers.iter_mut().enumerate() {
        answer.rank = i + 1;
    }
    answers
}

/// The entity of a fact: the corpus's entity for the sentence, else the sentence's subject — the
/// first entity-like span (capitalised run, quoted title) before the matched quantity, or the
/// first one after it.
fn entity_of(hit: &Hit) -> Option<String> {
    if let Some(entity) = &hit.entity {
        return Some(entity.clone());
    }
    let anchor = hit.matches.first().map_or(0, |m| m.start);
    let text = &hit.text;
    let spans: Vec<_> = name_spans(text)
        .into_iter()
        .map(|r| (char_offset(text, r.start), char_offset(text, r.end), r))
        .filter(|(s, e, _)| hit.matches.iter().all(|m| *e <= m.start || *s >= m.end))
        .collect();
    spans
        .iter()
        .find(|(_, e, _)| *e <= anchor)
        .or_else(|| spans.first())
        .map(|(_, _, r)| text[r.clone()].trim_start_matches("The ").to_string())
}
