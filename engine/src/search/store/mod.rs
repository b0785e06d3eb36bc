//! The seam between quantity search and the index that holds the sentences: one trait,
//! [`SentenceStore`], one file per engine (as the rankers, `super::rankers`). [`tantivy`] is
//! the index Tally ships (in the server's process); an engine that holds the sentences of a
//! corpus past one machine (OpenSearch's nested quantities, Vespa's `sameElement`, Qdrant's
//! payload filters: docs/scale.md) is one more file implementing the trait.
//!
//! A store answers the first stage of a search — which sentences a ranker re-scores — and
//! keeps corpora; the rankers' second stage and the presentation need nothing of it.

mod tantivy;

use crate::error::EngineError;
use tally_documents::sentence_store::conditions::Test;
use tally_documents::sentence_store::stored::StoredSentence;
use tally_documents::sentence_store::vectors::SentenceVectors;
use tally_documents::sentence_store::{Document, IngestStats};
use tally_documents::DocumentsError;

/// Which candidates a ranker's first stage asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FirstStage {
    /// BM25's top n over the words.
    Text,
    /// The top n that meet every test, by BM25 (the others are never candidates).
    MeetingByText,
    /// qbm25's exact top n: BM25 / max BM25 + α · qs among the sentences that meet every test,
    /// merged with BM25's top n (qs 0 for those that miss one).
    Qbm25,
    /// [`FirstStage::Qbm25`]'s n, then the best `extra` that meet every test by α · qs whatever
    /// their words (for a re-ranker that reads meaning).
    Qbm25AndOtherWords {
        /// How many more sentences are taken by α · qs alone.
        extra: usize,
    },
}

/// One query's first stage.
#[derive(Debug, Clone, Copy)]
pub struct FirstStageQuery<'a> {
    /// The words searched as text.
    pub words: &'a [String],
    /// The query's conditions (none: text only, whatever the stage).
    pub tests: &'a [Test],
    /// Candidates wanted (the stage's `extra` come on top).
    pub n: usize,
    /// Weight of qs.
    pub alpha: f64,
    /// How the candidates are chosen.
    pub stage: FirstStage,
    /// The corpus whose sentences are searched (`None`: every corpus's).
    pub corpus: Option<&'a str>,
}

/// A candidate sentence with its BM25 for the query's words (0 without a text match).
#[derive(Debug, Clone)]
pub struct Retrieved {
    /// The sentence.
    pub sentence: StoredSentence,
    /// Its BM25 for the query's words.
    pub bm25: f64,
}

/// The candidates of a first stage, best first, each sentence once.
#[derive(Debug, Clone)]
pub struct FirstStageResult {
    /// The best BM25 of the query over the whole store (1 without text matches): normalises
    /// text scores.
    pub max_bm25: f64,
    /// The candidates, best first.
    pub candidates: Vec<Retrieved>,
}

/// A store of sentences with their quantities that quantity search ranks.
pub trait SentenceStore: Send + Sync {
    /// The candidates of one query's first stage.
    fn first_stage(&self, query: &FirstStageQuery<'_>) -> Result<FirstStageResult, EngineError>;

    /// How rare `words` are here: the mean of their BM25 idf over the idf of a word in one
    /// sentence, in [0, 1] (0 without words); α's balance reads it.
    fn rarity(&self, words: &[String]) -> f64;

    /// Sentences held.
    fn len(&self) -> u64;

    /// Whether no sentence is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Splits documents into sentences, extracts their quantities and stores them under
    /// `corpus`.
    fn add_in(&self, corpus: &str, documents: &[Document]) -> Result<IngestStats, DocumentsError>;

    /// Stores each document as one sentence (judged files, whose sentences are given), under
    /// `corpus`.
    fn add_unsplit_in(
        &self,
        corpus: &str,
        documents: &[Document],
    ) -> Result<IngestStats, DocumentsError>;

    /// Removes a corpus's sentences; returns how many there were.
    fn delete_corpus(&self, corpus: &str) -> Result<u64, DocumentsError>;

    /// Each corpus with its number of sentences.
    fn corpus_sizes(&self) -> Result<Vec<(String, u64)>, DocumentsError>;

    /// The sentences' vectors stored at ingestion, when the store keeps them (the rankers that
    /// read meaning encode the others).
    fn vectors(&self) -> Option<&SentenceVectors> {
        None
    }
}

#[cfg(test)]
mod tests {
    //! A second store, a plain scan, written as an engine past one machine would be: only the
    //! trait. Searches through it and through the tantivy index find the same sentences meeting
    //! a condition, so a new engine is one file and `search` does not change.

    use std::sync::Mutex;

    use super::*;
    use crate::search::{search, SearchSettings};
    use tally_documents::sentence_store::conditions::meeting_score;
    use tally_documents::sentence_store::index::{sentences_of, SentenceIndex};
    use tally_documents::sentence_store::keys::entries;
    use tally_text::quantity::description::word_set;
    use tally_types::Ranker;

    /// Sentences in a vector; text score = how many of the query's words a sentence holds.
    #[derive(Default)]
    struct ScanStore {
        sentences: Mutex<Vec<(String, StoredSentence)>>,
    }

    impl ScanStore {
        fn word_score(sentence: &StoredSentence, words: &[String]) -> f64 {
            let held = word_set(&sentence.text);
            words.iter().filter(|w| held.contains(w.as_str())).count() as f64
        }
    }

    impl SentenceStore for ScanStore {
        fn first_stage(
            &self,
            query: &FirstStageQuery<'_>,
        ) -> Result<FirstStageResult, EngineError> {
            let sentences = self.sentences.lock().unwrap();
            let mut scored: Vec<(f64, Retrieved)> = Vec::new();
            let max = sentences
                .iter()
                .map(|(_, s)| Self::word_score(s, query.words))
                .fold(0.0, f64::max)
                .max(1.0);
            for (_, sentence) in sentences.iter() {
                let bm25 = Self::word_score(sentence, query.words);
                let all: Vec<_> = sentence.quantities.iter().flat_map(entries).collect();
                let qs = meeting_score(query.tests, &all);
                let score = match (query.stage, qs) {
                    (_, _) if query.tests.is_empty() => bm25,
                    (FirstStage::Text, _) => bm25,
                    (FirstStage::MeetingByText, Some(_)) => bm25,
                    (FirstStage::MeetingByText, None) => continue,
                    (_, qs) => bm25 / max + query.alpha * qs.unwrap_or(0.0),
                };
                if bm25 > 0.0 || qs.is_some() {
                    let retrieved = Retrieved {
                        sentence: sentence.clone(),
                        bm25,
                    };
                    scored.push((score, retrieved));
                }
            }
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            scored.truncate(query.n);
            Ok(FirstStageResult {
                max_bm25: max,
                candidates: scored.into_iter().map(|(_, r)| r).collect(),
            })
        }

        fn rarity(&self, _words: &[String]) -> f64 {
            0.5
        }

        fn len(&self) -> u64 {
            self.sentences.lock().unwrap().len() as u64
        }

        fn add_in(
            &self,
            corpus: &str,
            documents: &[Document],
        ) -> Result<IngestStats, DocumentsError> {
            let mut sentences = self.sentences.lock().unwrap();
            let mut stats = IngestStats::default();
            for document in documents {
                for sentence in sentences_of(document) {
                    stats.sentences += 1;
                    stats.quantities += sentence.quantities.len();
                    sentences.push((corpus.to_string(), sentence));
                }
            }
            Ok(stats)
        }

        fn add_unsplit_in(
            &self,
            corpus: &str,
            documents: &[Document],
        ) -> Result<IngestStats, DocumentsError> {
            self.add_in(corpus, documents)
        }

        fn delete_corpus(&self, corpus: &str) -> Result<u64, DocumentsError> {
            let mut sentences = self.sentences.lock().unwrap();
            let before = sentences.len();
            sentences.retain(|(c, _)| c != corpus);
            Ok((before - sentences.len()) as u64)
        }

        fn corpus_sizes(&self) -> Result<Vec<(String, u64)>, DocumentsError> {
            let sentences = self.sentences.lock().unwrap();
            let mut sizes: Vec<(String, u64)> = Vec::new();
            for (corpus, _) in sentences.iter() {
                match sizes.iter_mut().find(|(c, _)| c == corpus) {
                    Some((_, n)) => *n += 1,
                    None => sizes.push((corpus.clone(), 1)),
                }
            }
            Ok(sizes)
        }
    }

    fn documents() -> Vec<Document> {
        Document::numbered(&[
            "The Alpha Arena has a capacity of 95,000 people.",
            "The Beta Arena has a capacity of 40,000 people.",
            "The Gamma Arena, opened in 1990, has a capacity of 82,500.",
            "The travel bag weighs 7 kg when empty.",
            "The camping bag weighs 12 kg when empty.",
            "The old bridge is 1,200 metres long.",
            "The river bridge spans 3 km.",
        ])
    }

    /// The texts of the hits that meet every condition, sorted.
    fn meeting(store: &dyn SentenceStore, query: &str, ranker: Ranker) -> Vec<String> {
        let settings = SearchSettings {
            ranker,
            ..SearchSettings::default()
        };
        let results = search(store, None, query, &settings).unwrap();
        let mut texts: Vec<String> = results
            .hits
            .into_iter()
            .filter(|h| h.meets_all())
            .map(|h| h.text)
            .collect();
        texts.sort();
        texts
    }

    #[test]
    fn another_engine_is_one_implementation_of_the_trait() {
        let scan = ScanStore::default();
        let tantivy = SentenceIndex::in_memory().unwrap();
        for store in [&scan as &dyn SentenceStore, &tantivy] {
            let stats = store.add_in("mine", &documents()).unwrap();
            assert_eq!(stats.sentences, 7);
            assert_eq!(store.len(), 7);
        }
        for (query, expected) in [
            ("arena with a capacity of more than 80000 people", 2),
            ("bags heavier than 10 kg", 1),
            ("bridge longer than 2000 m", 1),
        ] {
            for ranker in [Ranker::Qbm25, Ranker::Bm25Filter, Ranker::Entity] {
                let found = meeting(&scan, query, ranker);
                assert_eq!(found.len(), expected, "{query} {ranker:?}: {found:?}");
                assert_eq!(
                    found,
                    meeting(&tantivy, query, ranker),
                    "{query} {ranker:?}"
                );
            }
        }
        for store in [&scan as &dyn SentenceStore, &tantivy] {
            assert_eq!(store.corpus_sizes().unwrap(), vec![("mine".to_string(), 7)]);
            assert_eq!(store.delete_corpus("mine").unwrap(), 7);
            assert!(store.is_empty());
        }
    }
}
