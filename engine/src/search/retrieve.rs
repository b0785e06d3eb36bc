//! The first stage of a search: candidate sentences from the index, by BM25 alone or by a score
//! of BM25 and the quantity score among the sentences that meet every constraint.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use tantivy::collector::TopDocs;
use tantivy::query::Query;
use tantivy::{DocAddress, DocId, Score, Searcher, SegmentReader};

use super::conditions::{self, Test};
use super::error::SearchError;
use super::filter::{ConditionFilter, MAX_ENTRIES};
use super::index::PACKED_FIELD;
use super::keys::{self, Entry};

/// A retrieved sentence before it is read from the document store.
pub struct Candidate {
    pub address: DocAddress,
    pub bm25: f64,
    /// The ranker's first-stage score (BM25, or the qbm25 formula).
    pub first_stage: f64,
}

/// What every ranker's first stage can draw on.
pub struct Retrieval<'a> {
    pub searcher: &'a Searcher,
    /// The query's words as a BM25 query (`None` when it has none).
    pub text_query: Option<&'a dyn Query>,
    pub tests: &'a [Test],
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
    pub fn new(
        searcher: &'a Searcher,
        text_query: Option<&'a dyn Query>,
        tests: &'a [Test],
        n: usize,
        alpha: f64,
    ) -> Result<Self, SearchError> {
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
            n,
            text_top,
            max_bm25,
            alpha,
        })
    }

    /// BM25's top `n`, scored by BM25.
    pub fn text_candidates(&self) -> Vec<Candidate> {
        self.text_top
            .iter()
            .map(|(score, address)| Candidate {
                address: *address,
                bm25: f64::from(*score),
                first_stage: f64::from(*score),
            })
            .collect()
    }

    /// The top `n` sentences that meet every test, by `score(bm25, qs)`, with their BM25: the
    /// text matches scored with the conditions checked on the fly from the fast field
    /// (tantivy's collector visits every text match), or, without words, a scan of the condition
    /// filter.
    pub fn meeting(
        &self,
        score: impl Fn(f64, f64) -> f64 + Send + Sync + Copy + 'static,
    ) -> Result<Vec<Candidate>, SearchError> {
        let tests = Arc::new(self.tests.to_vec());
        let collector = TopDocs::with_limit(self.n).tweak_score(move |segment: &SegmentReader| {
            let column = segment.fast_fields().u64(PACKED_FIELD).ok();
            let tests = Arc::clone(&tests);
            move |doc: DocId, bm25: Score| {
                let mut buffer = [Entry { key: 0, value: 0.0 }; MAX_ENTRIES];
                let mut len = 0;
                if let Some(column) = &column {
                    for packed in column.values_for_doc(doc).take(MAX_ENTRIES) {
                        buffer[len] = keys::unpack(packed);
                        len += 1;
                    }
                }
                let bm25 = f64::from(bm25);
                match conditions::meeting_score(&tests, &buffer[..len]) {
                    Some(qs) => (score(bm25, qs), bm25),
                    // Below every meeting sentence; dropped after collection.
                    None => (f64::NEG_INFINITY, bm25),
                }
            }
        });
        let top = match self.text_query {
            Some(query) => self.searcher.search(query, &collector)?,
            None => self
                .searcher
                .search(&ConditionFilter::new(self.tests), &collector)?,
        };
        Ok(top
            .into_iter()
            .filter(|((s, _), _)| s.is_finite())
            .map(|((_, bm25), address)| Candidate {
                address,
                bm25,
                first_stage: bm25,
            })
            .collect())
    }

    /// Sets each candidate's first-stage score to `score(bm25, qs)`, with qs from the fast field
    /// alone (0 when the sentence misses a constraint), so that only the sentences shown (or
    /// re-ranked) are read from the document store.
    pub fn score_from_fast_field(
        &self,
        candidates: &mut [Candidate],
        score: impl Fn(f64, f64) -> f64,
    ) {
        let mut columns: HashMap<u32, Option<tantivy::columnar::Column<u64>>> = HashMap::new();
        for c in candidates {
            let column = columns.entry(c.address.segment_ord).or_insert_with(|| {
                self.searcher
                    .segment_reader(c.address.segment_ord)
                    .fast_fields()
                    .u64(PACKED_FIELD)
                    .ok()
            });
            let entries: Vec<Entry> = column
                .as_ref()
                .map(|col| {
                    col.values_for_doc(c.address.doc_id)
                        .map(keys::unpack)
                        .collect()
                })
                .unwrap_or_default();
            let quantity = conditions::meeting_score(self.tests, &entries).unwrap_or(0.0);
            c.first_stage = score(c.bm25, quantity);
        }
    }
}

/// The first `n` candidates by first-stage score, each sentence once.
pub fn best_candidates(mut candidates: Vec<Candidate>, n: usize) -> Vec<Candidate> {
    let mut seen = HashSet::new();
    candidates.retain(|c| seen.insert(c.address));
    candidates.sort_by(|a, b| b.first_stage.total_cmp(&a.first_stage));
    candidates.truncate(n);
    candidates
}
