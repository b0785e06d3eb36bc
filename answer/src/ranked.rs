//! The learned choice among every candidate answer (issue 99): over a person's documents, the
//! candidates of the tables and passages in scope (cells, rows under conditions, lists, stated
//! numbers) are scored by the shipped ranker, and the best one is given when its calibrated
//! probability reaches the one bound every page shows (`Ranker::sure_from`, chosen so that a 95%
//! upper bound on the wrong share of sure answers over the collections' tuning halves is 3%).
//! Below it the readers' answer follows, as before.

use tally_documents::corpus::structure::{Passage, Record};
use tally_documents::snippet_index::SnippetIndex;
use tally_documents::tables::RecordTable;
use tally_documents::DocumentsError;
use tally_engine::candidates::rank::{best, features, ReadersAnswer, Scorer};
use tally_engine::candidates::{
    candidates, Candidate, DocumentPassage, DocumentWords, Source, TableCorpus,
};
use tally_types::count::answer::{CountAnswer, StructuredReading};
use tally_types::{Certainty, CertaintyMeasure, CountSettings};

/// A scope's tables and passages, read once for every question asked of it.
#[derive(Debug, Default)]
pub struct CandidateCorpus {
    /// The tables, with those sharing their columns read as one.
    pub tables: TableCorpus,
    /// The passages that are no table's row, each named by its snippet id.
    pub passages: Vec<DocumentPassage>,
    /// Each document's words: which documents a question is about.
    pub documents: DocumentWords,
}

impl CandidateCorpus {
    /// The tables given and the passages of `corpora` in `index` (none for a data set's corpus).
    pub fn read(
        tables: Vec<RecordTable>,
        index: &SnippetIndex,
        corpora: &[String],
    ) -> Result<Self, DocumentsError> {
        let mut passages = Vec::new();
        for corpus in corpora {
            for snippet in index.document_passages_in(corpus)? {
                if matches!(snippet.record.as_deref(), Some(Record::TableRow { .. })) {
                    continue;
                }
                passages.push(DocumentPassage {
                    // The snippet's id names the passage the evidence links to.
                    document: snippet.id,
                    passage: Passage {
                        text: snippet.text,
                        context: snippet.source,
                        record: snippet.record,
                        crop: None,
                    },
                });
            }
        }
        let tables = TableCorpus::new(tables);
        Ok(CandidateCorpus {
            documents: DocumentWords::new(&tables, &passages),
            tables,
            passages,
        })
    }
}

/// The ranker's best candidate for a question, and how likely it is right.
#[derive(Debug, Clone)]
pub struct Ranked {
    /// The candidate.
    pub candidate: Candidate,
    /// The calibrated probability that it is right.
    pub probability: f64,
    /// The bound from which it is given as sure.
    pub bound: f64,
}

impl Ranked {
    /// Whether it is given as sure.
    pub fn is_sure(&self) -> bool {
        self.probability >= self.bound
    }
}

/// The best of `question`'s candidates over `corpus` by `scorer` (the decision asks the
/// shipped one), weighed against what the readers answered; `None` without candidates.
pub fn rank(
    question: &str,
    corpus: &CandidateCorpus,
    scorer: &Scorer,
    readers: Option<ReadersAnswer>,
) -> Option<Ranked> {
    let found = candidates(question, &corpus.tables, &corpus.passages);
    let features = features(question, &corpus.tables, &corpus.documents, &found, readers);
    let (at, p) = best(&scorer.probabilities(&features))?;
    // The first reading is the one shown as the evidence.
    let shown = features.get(at)?.first()?;
    Some(Ranked {
        probability: scorer.calibrated(p, corpus.documents.several(), shown),
        candidate: found.into_iter().nth(at)?,
        bound: scorer.ranker.sure_from,
    })
}

/// The answer the ranker gives as sure: its value, the reading that computed it as the
/// evidence, and its probability as the certainty.
pub fn ranked_answer(
    question: &str,
    settings: &CountSettings,
    corpus: &CandidateCorpus,
    ranked: &Ranked,
) -> CountAnswer {
    let mut answer = tally_engine::records::empty_answer(question, settings);
    let value = ranked.candidate.value;
    answer.count = Some(value);
    answer.support = ranked.probability;
    answer.confidence = ranked.probability;
    answer.certainty = Some(Certainty {
        probability: ranked.probability,
        bound: ranked.bound,
        measure: CertaintyMeasure::Ranker,
        reading: Some(value),
    });
    answer.read_from = ranked
        .candidate
        .readings
        .first()
        .map(|reading| StructuredReading {
            snippet_id: evidence_id(corpus, &reading.source),
            how: match &reading.source {
                Source::Table { table, .. } => {
                    let read = corpus.tables.tables().get(*table);
                    let (document, context) =
                        read.map_or(("", ""), |t| (t.document.as_str(), t.context.as_str()));
                    format!("{} (table “{context}” of {document})", reading.described)
                }
                Source::Passage { .. } => reading.described.clone(),
            },
        });
    answer
}

/// The id of the passage a reading rests on: the passage's snippet, or the table's document.
fn evidence_id(corpus: &CandidateCorpus, source: &Source) -> String {
    match source {
        Source::Passage { document, .. } => document.clone(),
        Source::Table { table, .. } => corpus
            .tables
            .tables()
            .get(*table)
            .map(|t| format!("{}#table", t.document))
            .unwrap_or_default(),
    }
}
