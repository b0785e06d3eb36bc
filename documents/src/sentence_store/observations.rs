//! The sentence index's quantities as observations for value questions: one tantivy document
//! per described quantity ([`described_quantities`]), with the description's words for BM25 (Cao
//! et al.: a question is matched against what each number describes, not the whole sentence),
//! its dimension, its entity, the words its sentence mentions, and the observation itself stored.
//!
//! Kept on disk beside the sentences and written with them ([`super::SentenceIndex`] owns it),
//! so that a server answers value questions from its index at once, holds none of it on the
//! heap, and a deleted corpus takes its observations with it.

use crate::DocumentsError;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, STORED, STRING,
};
use tantivy::{Index, IndexReader, IndexWriter, TantivyDocument, Term};

use super::stored::StoredSentence;
use crate::index_dir;
use tally_text::quantity::description::{
    described_quantities, description_words, normalise, word_set, Description,
};
use tally_text::quantity::Quantity;

/// Writer memory budget: one thread keeps observations in the order they were added, so that
/// equal scores rank in corpus order.
const WRITER_BYTES: usize = 32_000_000;

/// One quantity of the corpus with its description and its sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// The sentence's id (`<document id>#<sentence number>`).
    pub sentence_id: String,
    /// The sentence's text.
    pub text: String,
    /// The entity the corpus files the sentence under.
    pub entity: Option<String>,
    /// The quantity, as extracted from the sentence.
    pub quantity: Quantity,
    /// What the quantity measures, as words.
    pub description: Description,
}

/// An observation with its BM25 score against a question's words.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredObservation {
    /// The BM25 score.
    pub score: f64,
    /// The observation.
    pub observation: Observation,
}

/// Which observations a question matches.
#[derive(Debug, Clone, Copy, Default)]
pub struct ObservationQuery<'a> {
    /// Matched against the descriptions by BM25, in matching form ([`normalise`]); an
    /// observation must match one.
    pub words: &'a [String],
    /// Only observations of this dimension.
    pub dimension: Option<&'a str>,
    /// Only observations of these entities (`None`: any).
    pub entities: Option<&'a [String]>,
    /// Words (matching form) that the sentence or its entity must each mention.
    pub mentioning: &'a [String],
    /// Only observations of this corpus (`None`: every corpus).
    pub corpus: Option<&'a str>,
}

#[derive(Clone, Copy)]
struct Fields {
    corpus: Field,
    described: Field,
    dimension: Field,
    entity: Field,
    mentioned: Field,
    record: Field,
}

/// Words already in matching form, split at white space only.
const WORDS_TOKENIZER: &str = "whitespace";

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let words = |record: IndexRecordOption| {
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(WORDS_TOKENIZER)
                .set_index_option(record),
        )
    };
    let fields = Fields {
        corpus: b.add_text_field("corpus", STRING),
        described: b.add_text_field("described", words(IndexRecordOption::WithFreqs)),
        dimension: b.add_text_field("dimension", STRING),
        entity: b.add_text_field("entity", STRING),
        mentioned: b.add_text_field("mentioned", words(IndexRecordOption::Basic)),
        record: b.add_text_field("record", STORED),
    };
    (b.build(), fields)
}

/// The observations of a sentence index.
pub struct ObservationIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
}

impl ObservationIndex {
    /// An empty index in memory.
    pub fn in_memory() -> Result<Self, DocumentsError> {
        let (schema, fields) = schema();
        let (index, reader) = index_dir::in_memory(schema)?;
        Ok(ObservationIndex {
            index,
            reader,
            fields,
        })
    }

    /// The index in `dir`, created when there is none.
    pub fn open_or_create(dir: &Path) -> Result<Self, DocumentsError> {
        let (schema, fields) = schema();
        let (index, reader) = index_dir::open_or_create(dir, schema)?;
        Ok(ObservationIndex {
            index,
            reader,
            fields,
        })
    }

    /// An index in memory of the observations of `sentences` (evaluation, tests).
    pub fn of_sentences(sentences: &[StoredSentence]) -> Result<Self, DocumentsError> {
        let index = ObservationIndex::in_memory()?;
        let writer = index.writer()?;
        for sentence in sentences {
            index.add(&writer, "", sentence)?;
        }
        index.commit(writer)?;
        Ok(index)
    }

    /// Number of observations.
    pub fn len(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// Whether the index holds no observations.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn writer(&self) -> Result<IndexWriter, DocumentsError> {
        Ok(self.index.writer_with_num_threads(1, WRITER_BYTES)?)
    }

    /// Adds the observations of `sentence` (of `corpus`) to `writer`.
    pub(crate) fn add(
        &self,
        writer: &IndexWriter,
        corpus: &str,
        sentence: &StoredSentence,
    ) -> Result<(), DocumentsError> {
        for doc in self.documents(corpus, sentence)? {
            writer.add_document(doc)?;
        }
        Ok(())
    }

    /// The documents of the observations of `sentence` (of `corpus`).
    pub(crate) fn documents(
        &self,
        corpus: &str,
        sentence: &StoredSentence,
    ) -> Result<Vec<TantivyDocument>, DocumentsError> {
        let observed = described_quantities(
            &sentence.text,
            &sentence.quantities,
            sentence.entity.as_deref(),
        );
        if observed.is_empty() {
            return Ok(Vec::new());
        }
        let f = self.fields;
        let mut mentioned: Vec<String> = word_set(&sentence.text).into_iter().collect();
        if let Some(entity) = &sentence.entity {
            mentioned.extend(word_set(entity));
        }
        mentioned.sort();
        mentioned.dedup();
        let mentioned = mentioned.join(" ");
        let mut documents = Vec::with_capacity(observed.len());
        for (quantity, description) in observed {
            let mut doc = TantivyDocument::default();
            doc.add_text(f.corpus, corpus);
            let words: Vec<String> = description_words(&description)
                .iter()
                .map(|w| normalise(w))
                .collect();
            doc.add_text(f.described, words.join(" "));
            if let Some(dimension) = &description.dimension {
                doc.add_text(f.dimension, dimension);
            }
            if let Some(entity) = &sentence.entity {
                doc.add_text(f.entity, entity);
            }
            doc.add_text(f.mentioned, &mentioned);
            let observation = Observation {
                sentence_id: sentence.id.clone(),
                text: sentence.text.clone(),
                entity: sentence.entity.clone(),
                quantity,
                description,
            };
            let record = serde_json::to_string(&observation).map_err(DocumentsError::Unwritable)?;
            doc.add_text(f.record, record);
            documents.push(doc);
        }
        Ok(documents)
    }

    pub(crate) fn commit(&self, mut writer: IndexWriter) -> Result<(), DocumentsError> {
        writer.commit()?;
        writer.wait_merging_threads()?;
        self.reader.reload()?;
        Ok(())
    }

    /// Removes the observations of `corpus`.
    pub(crate) fn delete_corpus(&self, corpus: &str) -> Result<(), DocumentsError> {
        let writer = self.writer()?;
        writer.delete_term(Term::from_field_text(self.fields.corpus, corpus));
        self.commit(writer)
    }

    /// The entities observations are filed under (possibly some whose observations were all
    /// deleted), each once.
    pub fn entities(&self) -> Result<Vec<String>, DocumentsError> {
        let searcher = self.reader.searcher();
        let mut names = std::collections::BTreeSet::new();
        for segment in searcher.segment_readers() {
            let terms = segment.inverted_index(self.fields.entity)?;
            let mut stream = terms
                .terms()
                .stream()
                .map_err(tantivy::TantivyError::from)?;
            while stream.advance() {
                names.insert(String::from_utf8_lossy(stream.key()).into_owned());
            }
        }
        Ok(names.into_iter().collect())
    }

    /// How many observations match `query`.
    pub fn count(&self, query: &ObservationQuery) -> Result<usize, DocumentsError> {
        match self.query(query) {
            Some(q) => Ok(self.reader.searcher().search(&q, &Count)?),
            None => Ok(0),
        }
    }

    /// The observations matching `query`, best first (equal scores in corpus order), from the
    /// `offset`-th on, at most `limit`.
    pub fn ranked(
        &self,
        query: &ObservationQuery,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<ScoredObservation>, DocumentsError> {
        let Some(q) = self.query(query) else {
            return Ok(Vec::new());
        };
        if limit == 0 {
            return Ok(Vec::new());
        }
        let searcher = self.reader.searcher();
        let top = TopDocs::with_limit(limit)
            .and_offset(offset)
            .order_by_score();
        let mut scored = Vec::new();
        for (score, address) in searcher.search(&q, &top)? {
            let doc: TantivyDocument = searcher.doc(address)?;
            let record = doc
                .get_first(self.fields.record)
                .and_then(|v| v.as_str())
                .unwrap_or_default();
            let observation =
                serde_json::from_str(record).map_err(|source| DocumentsError::Stored {
                    doc_id: address.doc_id,
                    source,
                })?;
            scored.push(ScoredObservation {
                score: f64::from(score),
                observation,
            });
        }
        Ok(scored)
    }

    /// The tantivy query of `query`; `None` when nothing can match. Only the words score: the
    /// other conditions filter at score 0.
    fn query(&self, query: &ObservationQuery) -> Option<BooleanQuery> {
        let f = self.fields;
        let term = |field: Field, text: &str, record: IndexRecordOption| -> Box<dyn Query> {
            Box::new(TermQuery::new(Term::from_field_text(field, text), record))
        };
        let filter = |q: Box<dyn Query>| -> (Occur, Box<dyn Query>) {
            (Occur::Must, Box::new(ConstScoreQuery::new(q, 0.0)))
        };
        let mut words: Vec<&str> = query.words.iter().map(String::as_str).collect();
        words.sort_unstable();
        words.dedup();
        words.retain(|w| !w.is_empty());
        if words.is_empty() {
            return None;
        }
        let scored: Vec<(Occur, Box<dyn Query>)> = words
            .into_iter()
            .map(|w| {
                (
                    Occur::Should,
                    term(f.described, w, IndexRecordOption::WithFreqs),
                )
            })
            .collect();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> =
            vec![(Occur::Must, Box::new(BooleanQuery::new(scored)))];
        if let Some(corpus) = query.corpus {
            clauses.push(filter(term(f.corpus, corpus, IndexRecordOption::Basic)));
        }
        if let Some(dimension) = query.dimension {
            clauses.push(filter(term(
                f.dimension,
                dimension,
                IndexRecordOption::Basic,
            )));
        }
        if let Some(entities) = query.entities {
            if entities.is_empty() {
                return None;
            }
            let any: Vec<(Occur, Box<dyn Query>)> = entities
                .iter()
                .map(|e| (Occur::Should, term(f.entity, e, IndexRecordOption::Basic)))
                .collect();
            clauses.push(filter(Box::new(BooleanQuery::new(any))));
        }
        for word in query.mentioning {
            clauses.push(filter(term(f.mentioned, word, IndexRecordOption::Basic)));
        }
        Some(BooleanQuery::new(clauses))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sentence_store::index::{Document, SentenceIndex};

    fn document(id: &str, text: &str) -> Document {
        Document {
            id: id.into(),
            text: text.into(),
            source: "test".into(),
            entity: None,
        }
    }

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn observations_are_written_kept_and_deleted_with_their_sentences() {
        let dir = tempfile::tempdir().unwrap();
        {
            let index = SentenceIndex::open_or_create(dir.path()).unwrap();
            index
                .add_in(
                    "towers",
                    &[document("eiffel", "The Eiffel Tower is 330 metres tall.")],
                )
                .unwrap();
            index
                .add_in(
                    "rivers",
                    &[document("danube", "The Danube is 2,850 km long.")],
                )
                .unwrap();
            assert_eq!(index.observations().len(), 2);
        }
        // A restart reads them from disk: nothing is described again.
        let index = SentenceIndex::open_or_create(dir.path()).unwrap();
        let observations = index.observations();
        let tall = ObservationQuery {
            words: &words("tall tower"),
            dimension: Some("length"),
            ..ObservationQuery::default()
        };
        let found = observations.ranked(&tall, 0, 10).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].observation.sentence_id, "eiffel#0");
        assert_eq!(found[0].observation.quantity.value.low(), 330.0);
        // Filters: another dimension, a word the sentence does not mention.
        let heavy = ObservationQuery {
            dimension: Some("mass"),
            ..tall
        };
        assert_eq!(observations.count(&heavy).unwrap(), 0);
        let mentioning = words("paris");
        let in_paris = ObservationQuery {
            mentioning: &mentioning,
            ..tall
        };
        assert_eq!(observations.count(&in_paris).unwrap(), 0);
        // A question about one corpus reads only that corpus's quantities.
        let in_towers = ObservationQuery {
            corpus: Some("towers"),
            ..tall
        };
        assert_eq!(observations.count(&in_towers).unwrap(), 1);
        let elsewhere = ObservationQuery {
            corpus: Some("bridges"),
            ..tall
        };
        assert_eq!(observations.count(&elsewhere).unwrap(), 0);
        index.delete_corpus("towers").unwrap();
        assert_eq!(index.observations().len(), 1);
        assert_eq!(observations.count(&tall).unwrap(), 0);
    }

    #[test]
    fn an_index_written_before_observations_gets_them_once_on_opening() {
        let dir = tempfile::tempdir().unwrap();
        {
            let index = SentenceIndex::open_or_create(dir.path()).unwrap();
            index
                .add_in("towers", &[document("eiffel", "It is 330 metres tall.")])
                .unwrap();
        }
        // As an earlier version left it: sentences, no observations.
        std::fs::remove_dir_all(dir.path().join("observations")).unwrap();
        let index = SentenceIndex::open_or_create(dir.path()).unwrap();
        assert_eq!(index.observations().len(), 1);
        // Under the sentence's corpus: deleting the corpus takes them.
        index.delete_corpus("towers").unwrap();
        assert!(index.observations().is_empty());
    }

    #[test]
    fn equal_scores_rank_in_corpus_order_and_pages_continue() {
        let sentences: Vec<StoredSentence> = (0..5)
            .map(|i| {
                let text = format!("The crate weighs {} kg.", 10 + i);
                StoredSentence {
                    id: format!("crate#{i}"),
                    quantities: tally_text::quantity::extract_in_context(&text),
                    text,
                    source: "test".into(),
                    entity: None,
                }
            })
            .collect();
        let index = ObservationIndex::of_sentences(&sentences).unwrap();
        let query = ObservationQuery {
            words: &words("crate weigh"),
            ..ObservationQuery::default()
        };
        let ids = |offset, limit| -> Vec<String> {
            index
                .ranked(&query, offset, limit)
                .unwrap()
                .into_iter()
                .map(|s| s.observation.sentence_id)
                .collect()
        };
        assert_eq!(ids(0, 3), ["crate#0", "crate#1", "crate#2"]);
        assert_eq!(ids(3, 3), ["crate#3", "crate#4"]);
    }
}
