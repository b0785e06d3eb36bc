//! The tantivy store's first stage (`super::store`): candidate sentences from the index, by BM25
//! alone or by a score of BM25 and the quantity score among the sentences that meet every
//! constraint (with the query's words, or whatever they are).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, Occur, Query};
use tantivy::{DocAddress, DocId, Score, Searcher, SegmentReader};

use crate::error::EngineError;
use tally_documents::sentence_store::conditions::{self, Test};
use tally_documents::sentence_store::index::PACKED_FIELD;
use tally_documents::sentence_store::keys::{self, Entry};

/// Most packed entries read per sentence.
const MAX_ENTRIES: usize = 32;

/// A retrieved sentence before it is read from the document store.
pub(crate) struct Candidate {
    pub address: DocAddress,
    pub bm25: f64,
    /// The ranker's first-stage score (BM25, or the qbm25 formula).
    pub first_stage: f64,
}

/// What every ranker's first stage can draw on.
pub(crate) struct Retrieval<'a> {
    pub searcher: &'a Searcher,
    /// The query's words as a BM25 query (`None` when it has none).
    pub text_query: Option<&'a dyn Query>,
    pub tests: &'a [Test],
    /// The sentences to check against the tests (see
    /// [`SentenceIndex::condition_filter`](super::SentenceIndex::condition_filter)).
    pub condition_filter: &'a dyn Query,
    /// Candidates wanted.
    pub n: usize,
    /// BM25's top `n` over every sentence.
    pub text_top: Vec<(Score, DocAddress)>,
    /// The best BM25 of the query (1 without text matches): normalises text scores.
    pub max_bm25: f64,
    pub alpha: f64,
}

impl<'a> Retrieval<'a> {
    /// Runs BM25 top-`n` for the query's words.
    pub(crate) fn new(
        searcher: &'a Searcher,
        text_query: Option<&'a dyn Query>,
        tests: &'a [Test],
        condition_filter: &'a dyn Query,
        n: usize,
        alpha: f64,
    ) -> Result<Self, EngineError> {
        let text_top = match text_query {
            Some(q) => searcher.search(q, &TopDocs::with_limit(n).order_by_score())?,
            None => Vec::new(),
        };
        let max_bm25 = text_top
            .first()
            .map_or(1.0, |(s, _)| f64::from(*s).max(f64::MIN_POSITIVE));
        Ok(Retrieval {
            searcher,
            text_query,
            tests,
            condition_filter,
            n,
            text_top,
            max_bm25,
            alpha,
        })
    }

    /// BM25's top `n`, scored by BM25.
    pub(crate) fn text_candidates(&self) -> Vec<Candidate> {
        self.text_top
            .iter()
            .map(|(score, address)| Candidate {
                address: *address,
                bm25: f64::from(*score),
                first_stage: f64::from(*score),
            })
            .collect()
    }

    /// The top `n` sentences that meet every test by `stage`'s score, with their BM25: the text
    /// matches within the condition filter (or, without words, the filter's sentences), scored
    /// with the values read from the fast field.
    pub(crate) fn meeting(&self, stage: LinearScore) -> Result<Vec<Candidate>, EngineError> {
        match self.text_query {
            Some(text) => {
                let both = BooleanQuery::new(vec![
                    (Occur::Must, text.box_clone()),
                    (Occur::Must, self.condition_filter.box_clone()),
                ]);
                self.top_meeting(&both, stage, self.n)
            }
            None => self.top_meeting(self.condition_filter, stage, self.n),
        }
    }

    /// The top `n` sentences that meet every test by `stage`'s score, whatever their words
    /// (BM25 0): a sentence that answers in other words than the query's ("64GB of in-built
    /// storage" for "phones with 128 GB memory") is found for a re-ranker that reads meaning.
    pub(crate) fn meeting_without_words(
        &self,
        stage: LinearScore,
        n: usize,
    ) -> Result<Vec<Candidate>, EngineError> {
        self.top_meeting(self.condition_filter, stage, n)
    }

    /// The top `n` of `query`'s sentences that meet every test, by `stage`'s score of their
    /// BM25 (0 for the condition filter alone, whose score is 0) and the qs read from the fast
    /// field.
    fn top_meeting(
        &self,
        query: &dyn Query,
        stage: LinearScore,
        n: usize,
    ) -> Result<Vec<Candidate>, EngineError> {
        let tests = Arc::new(self.tests.to_vec());
        let collector = TopDocs::with_limit(n).tweak_score(move |segment: &SegmentReader| {
            let column = segment.fast_fields().u64(PACKED_FIELD).ok();
            let tests = Arc::clone(&tests);
            move |doc: DocId, bm25: Score| {
                let bm25 = f64::from(bm25);
                match meeting_score_at(&tests, column.as_ref(), doc) {
                    Some(qs) => (stage.score(bm25, qs), bm25),
                    // Below every meeting sentence; dropped after collection.
                    None => (f64::NEG_INFINITY, bm25),
                }
            }
        });
        Ok(self
            .searcher
            .search(query, &collector)?
            .into_iter()
            .filter(|((s, _), _)| s.is_finite())
            .map(|((_, bm25), address)| Candidate {
                address,
                bm25,
                first_stage: bm25,
            })
            .collect())
    }

    /// Sets each candidate's first-stage score by `stage`, with qs from the fast field alone (0
    /// when the sentence misses a constraint), so that only the sentences shown (or re-ranked)
    /// are read from the document store.
    pub(crate) fn score_from_fast_field(&self, candidates: &mut [Candidate], stage: LinearScore) {
        let mut columns: HashMap<u32, Option<Column<u64>>> = HashMap::new();
        for c in candidates {
            let column = columns.entry(c.address.segment_ord).or_insert_with(|| {
                self.searcher
                    .segment_reader(c.address.segment_ord)
                    .fast_fields()
                    .u64(PACKED_FIELD)
                    .ok()
            });
            let quantity =
                meeting_score_at(self.tests, column.as_ref(), c.address.doc_id).unwrap_or(0.0);
            c.first_stage = stage.score(c.bm25, quantity);
        }
    }
}

/// A first-stage score linear in a sentence's BM25 and its quantity score qs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LinearScore {
    /// Weight of BM25 (positive).
    pub text: f64,
    /// Weight of qs.
    pub quantity: f64,
}

impl LinearScore {
    pub(crate) fn score(&self, bm25: f64, qs: f64) -> f64 {
        self.text * bm25 + self.quantity * qs
    }
}

/// qs of the sentence `doc` when it meets every test (from its first [`MAX_ENTRIES`] packed
/// entries), `None` otherwise.
fn meeting_score_at(tests: &[Test], column: Option<&Column<u64>>, doc: DocId) -> Option<f64> {
    let mut buffer = [Entry { key: 0, value: 0.0 }; MAX_ENTRIES];
    let mut len = 0;
    if let Some(column) = column {
        for packed in column.values_for_doc(doc).take(MAX_ENTRIES) {
            buffer[len] = keys::unpack(packed);
            len += 1;
        }
    }
    conditions::meeting_score(tests, &buffer[..len])
}

/// The first `n` candidates by first-stage score, each sentence once.
pub(crate) fn best_candidates(mut candidates: Vec<Candidate>, n: usize) -> Vec<Candidate> {
    let mut seen = HashSet::new();
    candidates.retain(|c| seen.insert(c.address));
    candidates.sort_by(|a, b| b.first_stage.total_cmp(&a.first_stage));
    candidates.truncate(n);
    candidates
}
