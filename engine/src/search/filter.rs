//! The condition filter as a tantivy query: a sentence matches when its packed quantity entries
//! meet every constraint.
//!
//! Used alone, for queries that are all conditions ("more than 5 kg"): it scans the column once.
//! With words to match, the search checks the conditions while scoring the text matches instead
//! (see `rank.rs`), which visits only sentences that share a word with the query.

use std::sync::Arc;

use tantivy::columnar::Column;
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SeekDangerResult, SegmentReader, TantivyError, TERMINATED};

use super::conditions::{self, Test};
use super::index::PACKED_FIELD;
use super::keys::{self, Entry};

/// Most packed entries read per sentence.
pub(crate) const MAX_ENTRIES: usize = 32;

/// Matches the sentences whose quantities meet every test; scores 0.
#[derive(Debug, Clone)]
pub(crate) struct ConditionFilter {
    tests: Arc<Vec<Test>>,
}

impl ConditionFilter {
    pub(crate) fn new(tests: &[Test]) -> Self {
        ConditionFilter {
            tests: Arc::new(tests.to_vec()),
        }
    }
}

impl Query for ConditionFilter {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(ConditionWeight {
            tests: Arc::clone(&self.tests),
        }))
    }
}

struct ConditionWeight {
    tests: Arc<Vec<Test>>,
}

impl Weight for ConditionWeight {
    fn scorer(&self, reader: &SegmentReader, _boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let column = reader.fast_fields().u64(PACKED_FIELD).ok();
        let mut scorer = ConditionScorer {
            tests: Arc::clone(&self.tests),
            column,
            max_doc: reader.max_doc(),
            doc: 0,
        };
        scorer.doc = scorer.next_match(0);
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let checker = ConditionScorer {
            tests: Arc::clone(&self.tests),
            column: reader.fast_fields().u64(PACKED_FIELD).ok(),
            max_doc: reader.max_doc(),
            doc,
        };
        if checker.meets(doc) {
            Ok(Explanation::new("meets every quantity condition", 0.0))
        } else {
            Err(TantivyError::InvalidArgument(format!(
                "document {doc} does not meet the quantity conditions"
            )))
        }
    }
}

struct ConditionScorer {
    tests: Arc<Vec<Test>>,
    column: Option<Column<u64>>,
    max_doc: DocId,
    doc: DocId,
}

impl ConditionScorer {
    fn meets(&self, doc: DocId) -> bool {
        let Some(column) = &self.column else {
            return false;
        };
        let mut buffer = [Entry { key: 0, value: 0.0 }; MAX_ENTRIES];
        let mut len = 0;
        for packed in column.values_for_doc(doc).take(MAX_ENTRIES) {
            buffer[len] = keys::unpack(packed);
            len += 1;
        }
        conditions::meeting_score(&self.tests, &buffer[..len]).is_some()
    }

    /// The first matching document at or after `from`.
    fn next_match(&self, from: DocId) -> DocId {
        (from..self.max_doc)
            .find(|&d| self.meets(d))
            .unwrap_or(TERMINATED)
    }
}

impl DocSet for ConditionScorer {
    fn advance(&mut self) -> DocId {
        if self.doc != TERMINATED {
            self.doc = self.next_match(self.doc + 1);
        }
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc != TERMINATED && self.doc < target {
            self.doc = self.next_match(target);
        }
        self.doc
    }

    fn seek_danger(&mut self, target: DocId) -> SeekDangerResult {
        if target >= self.max_doc {
            return SeekDangerResult::SeekLowerBound(TERMINATED);
        }
        if self.meets(target) {
            self.doc = target;
            SeekDangerResult::Found
        } else {
            SeekDangerResult::SeekLowerBound(target + 1)
        }
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.max_doc
    }

    /// Checking is dearer than reading postings: let the text lead an intersection.
    fn cost(&self) -> u64 {
        u64::from(self.max_doc) * 10
    }
}

impl Scorer for ConditionScorer {
    fn score(&mut self) -> Score {
        0.0
    }
}
