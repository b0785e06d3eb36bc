//! The sentence store Tally ships: the tantivy index of [`tally_documents::sentence_store::index`], its first
//! stage computed exactly inside the index ([`crate::search::retrieve`]: BM25 over the words,
//! conditions as ranges of packed quantity entries, qs scored from the fast field).

use std::collections::HashSet;
use tally_documents::DocumentsError;

use super::{FirstStage, FirstStageQuery, FirstStageResult, Retrieved, SentenceStore};
use crate::error::EngineError;
use crate::search::retrieve::{self, best_candidates, Candidate, Retrieval};
use tally_documents::sentence_store::index::{Document, IngestStats, SentenceIndex};
use tally_documents::sentence_store::vectors::SentenceVectors;

impl SentenceStore for SentenceIndex {
    fn first_stage(&self, query: &FirstStageQuery<'_>) -> Result<FirstStageResult, EngineError> {
        let searcher = self.searcher();
        // The words' index terms, once: the text query and the condition filter's choice read
        // them.
        let terms = self.terms(query.words);
        let (text_query, condition_filter) = match query.corpus {
            Some(corpus) => (
                self.text_query(&terms).map(|q| self.in_corpus(q, corpus)),
                self.in_corpus(
                    self.condition_filter(&searcher, &terms, query.tests),
                    corpus,
                ),
            ),
            None => (
                self.text_query(&terms),
                self.condition_filter(&searcher, &terms, query.tests),
            ),
        };
        let retrieval = Retrieval::new(
            &searcher,
            text_query.as_deref(),
            query.tests,
            condition_filter.as_ref(),
            query.n,
            query.alpha,
        )?;
        let stage = if query.tests.is_empty() {
            FirstStage::Text
        } else {
            query.stage
        };
        let candidates = match stage {
            FirstStage::Text => best_candidates(retrieval.text_candidates(), query.n),
            FirstStage::MeetingByText => best_candidates(
                retrieval.meeting(retrieve::LinearScore {
                    text: 1.0,
                    quantity: 0.0,
                })?,
                query.n,
            ),
            FirstStage::Qbm25 => best_candidates(qbm25(&retrieval)?, query.n),
            FirstStage::Qbm25AndOtherWords { extra } => {
                let mut pool = best_candidates(qbm25(&retrieval)?, query.n);
                let pooled: HashSet<_> = pool.iter().map(|c| c.address).collect();
                let stage = retrieve::LinearScore {
                    text: 0.0,
                    quantity: query.alpha,
                };
                let others = retrieval.meeting_without_words(stage, extra + pool.len())?;
                pool.extend(
                    others
                        .into_iter()
                        .filter(|c| !pooled.contains(&c.address))
                        .take(extra),
                );
                pool
            }
        };
        let candidates = candidates
            .iter()
            .map(|c| {
                Ok(Retrieved {
                    sentence: self.stored(&searcher, c.address)?,
                    bm25: c.bm25,
                })
            })
            .collect::<Result<Vec<_>, DocumentsError>>()?;
        Ok(FirstStageResult {
            max_bm25: retrieval.max_bm25,
            candidates,
        })
    }

    fn rarity(&self, words: &[String]) -> f64 {
        SentenceIndex::rarity(self, &self.searcher(), &self.terms(words))
    }

    fn len(&self) -> u64 {
        SentenceIndex::len(self)
    }

    fn add_in(&self, corpus: &str, documents: &[Document]) -> Result<IngestStats, DocumentsError> {
        SentenceIndex::add_in(self, corpus, documents)
    }

    fn add_unsplit_in(
        &self,
        corpus: &str,
        documents: &[Document],
    ) -> Result<IngestStats, DocumentsError> {
        SentenceIndex::add_unsplit_in(self, corpus, documents)
    }

    fn delete_corpus(&self, corpus: &str) -> Result<u64, DocumentsError> {
        SentenceIndex::delete_corpus(self, corpus)
    }

    fn corpus_sizes(&self) -> Result<Vec<(String, u64)>, DocumentsError> {
        SentenceIndex::corpus_sizes(self)
    }

    fn vectors(&self) -> Option<&SentenceVectors> {
        Some(SentenceIndex::vectors(self))
    }
}

/// qbm25's exact candidates: the top n of BM25 / max BM25 + α · qs among the text matches that
/// meet every test, and BM25's top n with the same score (qs from the fast field, 0 when a test
/// is missed); the merge of both holds the exact top n.
fn qbm25(retrieval: &Retrieval<'_>) -> Result<Vec<Candidate>, EngineError> {
    let stage = retrieve::LinearScore {
        text: 1.0 / retrieval.max_bm25,
        quantity: retrieval.alpha,
    };
    let mut candidates = retrieval.meeting(stage)?;
    candidates.extend(retrieval.text_candidates());
    retrieval.score_from_fast_field(&mut candidates, stage);
    Ok(candidates)
}
