//! The sentence index (tantivy): BM25 over the sentence text (English stemming), the stored
//! sentence with its quantities (for highlighting), and one multi-valued `u64` fast field holding
//! every quantity's packed comparison key and base-unit value ([`super::keys`]), so that
//! conditions filter and score inside the index.

pub use super::stored::StoredSentence;
use crate::index_dir;
use crate::DocumentsError;
use std::ops::Bound;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tantivy::query::{
    AllQuery, BooleanQuery, ConstScoreQuery, InvertedIndexRangeQuery, Occur, Query, TermQuery,
};
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, Value,
    STORED, STRING,
};
use tantivy::{Index, IndexReader, IndexWriter, Searcher, TantivyDocument, Term};

use super::conditions::Test;
use super::keys;
use super::observations::ObservationIndex;
use super::split::split_sentences;
use super::vectors::SentenceVectors;
use tally_text::quantity::extract_in_context;

/// The observation index's directory inside the sentence index's.
const OBSERVATIONS_DIR: &str = "observations";
/// The stored sentence vectors' file inside the sentence index's directory.
const VECTORS_FILE: &str = "sentence-vectors.bin";
/// Writer memory budget per thread.
const WRITER_BYTES_PER_THREAD: usize = 64_000_000;
/// Documents handed to the writer per extraction batch.
const BATCH: usize = 4096;

/// A document to index: split into sentences on the way in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// The document's id.
    pub id: String,
    /// The document's text.
    pub text: String,
    /// Where the document came from (a title, a URL, a file name); may be empty.
    #[serde(default)]
    pub source: String,
    /// The entity the document is about, when the corpus says (Qsearch's judged sentences do).
    #[serde(default)]
    pub entity: Option<String>,
}

/// The fields of the sentence index's schema.
#[derive(Clone, Copy)]
pub struct Fields {
    /// The sentence's id.
    pub id: Field,
    /// Where the sentence's document came from.
    pub source: Field,
    /// The corpus the sentence was ingested under (empty for sentences added without one).
    pub corpus: Field,
    /// The entity the sentence is about.
    pub entity: Field,
    /// The sentence's text, indexed for search.
    pub text: Field,
    /// The sentence's quantities, stored as JSON.
    pub quantities: Field,
    /// Each quantity's packed comparison key and base-unit value, as a fast field.
    pub packed: Field,
    /// Each quantity's comparison key, indexed: the sentences that can meet a condition are a
    /// posting list to intersect with the words', not a scan of every text match. `None` in an
    /// index written before there were keys: it is searched as then.
    pub key: Option<Field>,
    /// Whether the packed entries are terms too ([`Layout::Ranges`]).
    pub packed_indexed: bool,
}

/// The name of the fast field holding packed quantity entries.
pub const PACKED_FIELD: &str = "quantity";
/// A strict condition is searched as ranges of entries unless the words match fewer than
/// 1 / this of the sentences under its keys (then as the keys' postings): measured with
/// `tally bench search` (results are the same either way).
pub const RANGE_OVER_KEYS: u64 = 4;
/// The name of the indexed field holding each sentence's comparison keys.
const KEY_FIELD: &str = "quantity_key";

/// What an index holds for finding the sentences that can meet a condition, by the Tally
/// version that wrote it; each reads its older ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Nothing: every text match is checked.
    Plain,
    /// Each quantity's comparison key as a posting: the sentences with a compatible quantity.
    Keys,
    /// Keys, and the packed key|value entries as terms: a condition is a range of terms, so
    /// only the sentences with a quantity that meets it are checked (the new indexes').
    Ranges,
}

/// The schema of an index of `layout`.
fn schema(layout: Layout) -> (Schema, Fields) {
    let mut b = Schema::builder();
    let stemmed = TextOptions::default()
        .set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("en_stem")
                .set_index_option(IndexRecordOption::WithFreqs),
        )
        .set_stored();
    let packed = match layout {
        Layout::Ranges => NumericOptions::default().set_fast().set_indexed(),
        Layout::Plain | Layout::Keys => NumericOptions::default().set_fast(),
    };
    let fields = Fields {
        id: b.add_text_field("id", STORED),
        source: b.add_text_field("source", STORED),
        corpus: b.add_text_field("corpus", STRING | STORED),
        entity: b.add_text_field("entity", STORED),
        text: b.add_text_field("text", stemmed),
        quantities: b.add_text_field("quantities", STORED),
        packed: b.add_u64_field(PACKED_FIELD, packed),
        key: (layout != Layout::Plain)
            .then(|| b.add_u64_field(KEY_FIELD, NumericOptions::default().set_indexed())),
        packed_indexed: layout == Layout::Ranges,
    };
    (b.build(), fields)
}

impl Document {
    /// Documents `d0`, `d1`, … holding `texts`, from source "test" (the search tests').
    pub fn numbered(texts: &[&str]) -> Vec<Document> {
        texts
            .iter()
            .enumerate()
            .map(|(i, text)| Document {
                id: format!("d{i}"),
                text: text.to_string(),
                source: "test".into(),
                entity: None,
            })
            .collect()
    }
}

/// Figures of one ingestion.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct IngestStats {
    /// Documents ingested.
    pub documents: usize,
    /// Sentences they were split into.
    pub sentences: usize,
    /// Quantities extracted from them.
    pub quantities: usize,
    /// Seconds spent splitting and extracting.
    pub extraction_s: f64,
    /// Seconds spent in tantivy (adding and committing).
    pub indexing_s: f64,
}

/// A tantivy index of sentences with their quantities, and beside it their quantities as
/// observations for value questions ([`ObservationIndex`]), written and deleted with them.
pub struct SentenceIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    observations: ObservationIndex,
    /// Each sentence's encoder vector, filled by the engine's vector job (`tally_engine::search::vector_job`) after the text is indexed.
    vectors: SentenceVectors,
    /// Indexing threads; one keeps documents in the order they were added, so that equal
    /// scores rank the same way in every run (what an evaluation needs).
    threads: usize,
}

impl SentenceIndex {
    /// A new index in memory (tests, evaluation), indexed in order by one thread.
    pub fn in_memory() -> Result<Self, DocumentsError> {
        Self::in_memory_with(Layout::Ranges)
    }

    /// [`in_memory`](Self::in_memory), with quantity keys indexed or not (as versions before
    /// they were wrote an index: what the tests compare with).
    pub fn in_memory_with(layout: Layout) -> Result<Self, DocumentsError> {
        let (schema, fields) = schema(layout);
        let (index, reader) = index_dir::in_memory(schema)?;
        Ok(SentenceIndex {
            index,
            reader,
            fields,
            observations: ObservationIndex::in_memory()?,
            vectors: SentenceVectors::in_memory(),
            threads: 1,
        })
    }

    /// Opens the index in `dir`, creating it (and the directory) when there is none. The
    /// observations live in `dir/observations`; an index written before there were any has them
    /// described once, here. An index written before quantity keys were indexed is opened as it
    /// is (nothing is lost; its conditions are checked on every text match, as then).
    pub fn open_or_create(dir: &Path) -> Result<Self, DocumentsError> {
        Self::open_or_create_with(dir, Layout::Ranges)
    }

    /// [`open_or_create`](Self::open_or_create), creating a new index with or without keys.
    pub fn open_or_create_with(dir: &Path, layout: Layout) -> Result<Self, DocumentsError> {
        let existing = index_dir::open_existing(dir)?;
        let known = existing.and_then(|(index, reader)| {
            [Layout::Ranges, Layout::Keys, Layout::Plain]
                .into_iter()
                .map(schema)
                .find(|(schema, _)| *schema == index.schema())
                .map(|(_, fields)| (index, reader, fields))
        });
        let (index, reader, fields) = match known {
            Some(opened) => opened,
            // None there (created now), or another schema (explained as another version's).
            None => {
                let (new_schema, new_fields) = schema(layout);
                let (index, reader) = index_dir::open_or_create(dir, new_schema)?;
                (index, reader, new_fields)
            }
        };
        let index = SentenceIndex {
            index,
            reader,
            fields,
            observations: ObservationIndex::open_or_create(&dir.join(OBSERVATIONS_DIR))?,
            vectors: SentenceVectors::open(&dir.join(VECTORS_FILE))?,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
        };
        if index.observations.is_empty() && !index.is_empty() {
            index.describe_all()?;
        }
        Ok(index)
    }

    /// The observations of the sentences' quantities, for value questions.
    pub fn observations(&self) -> &ObservationIndex {
        &self.observations
    }

    /// The sentences' stored vectors (for the rankers that read meaning).
    pub fn vectors(&self) -> &SentenceVectors {
        &self.vectors
    }

    /// Calls `visit` with each stored sentence and the corpus it was ingested under, in index
    /// order, until `visit` says to stop.
    pub fn visit_sentences(
        &self,
        mut visit: impl FnMut(&str, StoredSentence) -> std::ops::ControlFlow<()>,
    ) -> Result<(), DocumentsError> {
        let searcher = self.searcher();
        for (segment, reader) in searcher.segment_readers().iter().enumerate() {
            for doc in reader.doc_ids_alive() {
                let stored: TantivyDocument =
                    searcher.doc(tantivy::DocAddress::new(segment as u32, doc))?;
                let corpus = text_of(&stored, self.fields.corpus);
                if visit(&corpus, self.sentence_of(&stored, doc)?).is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Adds the observations of every stored sentence, one at a time.
    fn describe_all(&self) -> Result<(), DocumentsError> {
        let searcher = self.searcher();
        let writer = self.observations.writer()?;
        for (segment, reader) in searcher.segment_readers().iter().enumerate() {
            for doc in reader.doc_ids_alive() {
                let stored: TantivyDocument =
                    searcher.doc(tantivy::DocAddress::new(segment as u32, doc))?;
                let corpus = text_of(&stored, self.fields.corpus);
                let sentence = self.sentence_of(&stored, doc)?;
                self.observations.add(&writer, &corpus, &sentence)?;
            }
        }
        self.observations.commit(writer)
    }

    /// Number of sentences.
    pub fn len(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// Whether the index holds no sentences.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Splits, extracts and indexes `documents`, then commits.
    pub fn add(&self, documents: &[Document]) -> Result<IngestStats, DocumentsError> {
        self.add_in("", documents)
    }

    /// [`add`](Self::add) under the name `corpus`, which [`delete_corpus`](Self::delete_corpus)
    /// removes again.
    pub fn add_in(
        &self,
        corpus: &str,
        documents: &[Document],
    ) -> Result<IngestStats, DocumentsError> {
        self.add_with(corpus, documents, sentences_of)
    }

    /// Indexes each document as one sentence (corpora that are sentences already), then commits.
    pub fn add_unsplit(&self, documents: &[Document]) -> Result<IngestStats, DocumentsError> {
        self.add_unsplit_in("", documents)
    }

    /// [`add_unsplit`](Self::add_unsplit) under the name `corpus`.
    pub fn add_unsplit_in(
        &self,
        corpus: &str,
        documents: &[Document],
    ) -> Result<IngestStats, DocumentsError> {
        self.add_with(corpus, documents, |d| {
            vec![sentence_of(d, d.id.clone(), &d.text)]
        })
    }

    /// Removes every sentence of `corpus`; returns how many there were.
    pub fn delete_corpus(&self, corpus: &str) -> Result<u64, DocumentsError> {
        let term = Term::from_field_text(self.fields.corpus, corpus);
        let searcher = self.reader.searcher();
        let count = searcher.search(
            &TermQuery::new(term.clone(), IndexRecordOption::Basic),
            &tantivy::collector::Count,
        )? as u64;
        if count > 0 {
            let mut writer: IndexWriter = self
                .index
                .writer_with_num_threads(1, WRITER_BYTES_PER_THREAD)?;
            writer.delete_term(term);
            writer.commit()?;
            self.reader.reload()?;
            self.observations.delete_corpus(corpus)?;
        }
        Ok(count)
    }

    /// Sentences per corpus name (the unnamed corpus as ""), sorted by name.
    pub fn corpus_sizes(&self) -> Result<Vec<(String, u64)>, DocumentsError> {
        Ok(crate::index_dir::term_counts(
            &self.reader.searcher(),
            self.fields.corpus,
        )?)
    }

    fn add_with(
        &self,
        corpus: &str,
        documents: &[Document],
        split: impl Fn(&Document) -> Vec<StoredSentence> + Sync,
    ) -> Result<IngestStats, DocumentsError> {
        let threads = self.threads;
        let mut writer: IndexWriter = self
            .index
            .writer_with_num_threads(threads, threads * WRITER_BYTES_PER_THREAD)?;
        let observations = self.observations.writer()?;
        let mut stats = IngestStats {
            documents: documents.len(),
            ..IngestStats::default()
        };
        for batch in documents.chunks(BATCH) {
            let started = std::time::Instant::now();
            // Each sentence with its observations' documents, described on every core.
            let described = extract_parallel(batch, &|document: &Document| {
                split(document)
                    .into_iter()
                    .map(|sentence| {
                        let observed = self.observations.documents(corpus, &sentence);
                        (sentence, observed)
                    })
                    .collect()
            });
            stats.extraction_s += started.elapsed().as_secs_f64();
            let started = std::time::Instant::now();
            for (sentence, observed) in described {
                stats.sentences += 1;
                stats.quantities += sentence.quantities.len();
                writer.add_document(self.document(corpus, &sentence))?;
                for doc in observed? {
                    observations.add_document(doc)?;
                }
            }
            stats.indexing_s += started.elapsed().as_secs_f64();
        }
        let started = std::time::Instant::now();
        writer.commit()?;
        writer.wait_merging_threads()?;
        self.reader.reload()?;
        self.observations.commit(observations)?;
        stats.indexing_s += started.elapsed().as_secs_f64();
        Ok(stats)
    }

    fn document(&self, corpus: &str, sentence: &StoredSentence) -> TantivyDocument {
        let f = self.fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.id, &sentence.id);
        doc.add_text(f.source, &sentence.source);
        doc.add_text(f.corpus, corpus);
        if let Some(entity) = &sentence.entity {
            doc.add_text(f.entity, entity);
        }
        doc.add_text(f.text, &sentence.text);
        doc.add_text(
            f.quantities,
            serde_json::to_string(&sentence.quantities).unwrap_or_else(|_| "[]".into()),
        );
        let mut keys_seen = Vec::new();
        for entry in sentence.quantities.iter().flat_map(keys::entries) {
            doc.add_u64(f.packed, keys::pack(entry));
            if let Some(key_field) = f.key {
                if !keys_seen.contains(&entry.key) {
                    keys_seen.push(entry.key);
                    doc.add_u64(key_field, u64::from(entry.key));
                }
            }
        }
        doc
    }

    /// Every stored sentence, in index order (value questions read all descriptions).
    pub fn all_sentences(&self) -> Result<Vec<StoredSentence>, DocumentsError> {
        let searcher = self.searcher();
        let mut sentences = Vec::new();
        for (segment, reader) in searcher.segment_readers().iter().enumerate() {
            for doc in reader.doc_ids_alive() {
                let address = tantivy::DocAddress::new(segment as u32, doc);
                sentences.push(self.stored(&searcher, address)?);
            }
        }
        Ok(sentences)
    }

    /// A searcher over the index, as its reader last loaded it.
    pub fn searcher(&self) -> tantivy::Searcher {
        self.reader.searcher()
    }

    /// The stored sentence at `address`.
    pub fn stored(
        &self,
        searcher: &tantivy::Searcher,
        address: tantivy::DocAddress,
    ) -> Result<StoredSentence, DocumentsError> {
        let doc: TantivyDocument = searcher.doc(address)?;
        self.sentence_of(&doc, address.doc_id)
    }

    /// The sentence a stored document (number `doc_id`, for errors) holds.
    fn sentence_of(
        &self,
        doc: &TantivyDocument,
        doc_id: u32,
    ) -> Result<StoredSentence, DocumentsError> {
        let f = self.fields;
        let quantities = serde_json::from_str(&text_of(doc, f.quantities))
            .map_err(|source| DocumentsError::Stored { doc_id, source })?;
        let entity = text_of(doc, f.entity);
        Ok(StoredSentence {
            id: text_of(doc, f.id),
            text: text_of(doc, f.text),
            source: text_of(doc, f.source),
            entity: (!entity.is_empty()).then_some(entity),
            quantities,
        })
    }

    /// How rare the words' `terms` are here: the mean of their BM25 idf over the idf of a word
    /// in one sentence, in [0, 1] (0 without words).
    pub fn rarity(&self, searcher: &Searcher, terms: &[Term]) -> f64 {
        let n = searcher.num_docs() as f64;
        let idf = |df: f64| (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        let most = idf(1.0);
        if terms.is_empty() || most <= 0.0 {
            return 0.0;
        }
        let total: f64 = terms
            .iter()
            .map(|t| searcher.doc_freq(t).map_or(1.0, |df| (df as f64).max(1.0)))
            .map(|df| (idf(df) / most).clamp(0.0, 1.0))
            .sum();
        total / terms.len() as f64
    }

    /// `query` kept to the sentences of `corpus`, its scores unchanged (the corpus matches
    /// with 0).
    pub fn in_corpus(&self, query: Box<dyn Query>, corpus: &str) -> Box<dyn Query> {
        let corpus = TermQuery::new(
            Term::from_field_text(self.fields.corpus, corpus),
            IndexRecordOption::Basic,
        );
        Box::new(BooleanQuery::new(vec![
            (Occur::Must, query),
            (
                Occur::Must,
                Box::new(ConstScoreQuery::new(Box::new(corpus), 0.0)),
            ),
        ]))
    }

    /// The BM25 query of the words' `terms` ([`SentenceIndex::terms`]), `None` without any.
    pub fn text_query(&self, terms: &[Term]) -> Option<Box<dyn Query>> {
        if terms.is_empty() {
            return None;
        }
        let clauses = terms
            .iter()
            .map(|t| {
                let q: Box<dyn Query> =
                    Box::new(TermQuery::new(t.clone(), IndexRecordOption::WithFreqs));
                (Occur::Should, q)
            })
            .collect();
        Some(Box::new(BooleanQuery::new(clauses)))
    }

    /// The sentences a search checks against `tests`: for each test, those with an entry in the
    /// ranges that meet it, or those with a quantity under one of its keys (see the choice below);
    /// every sentence that meets the tests is among them, so results do not change. Every
    /// sentence in an index without keys. Scored 0, so that the text query (of the words'
    /// `terms`) it is intersected with keeps its BM25.
    pub fn condition_filter(
        &self,
        searcher: &Searcher,
        terms: &[Term],
        tests: &[Test],
    ) -> Box<dyn Query> {
        let Some(key_field) = self.fields.key else {
            return Box::new(ConstScoreQuery::new(Box::new(AllQuery), 0.0));
        };
        let packed = self.fields.packed;
        let df = |term: &Term| searcher.doc_freq(term).unwrap_or(0);
        // At most this many text matches (none: no words, every sentence is one).
        let text_matches: Option<u64> = (!terms.is_empty()).then(|| terms.iter().map(df).sum());
        let per_test = tests
            .iter()
            .map(|test| {
                // With the entries as terms, a strict test is the ranges of entries that meet
                // it (a superset by a step of the packing, checked exactly when scored); a soft
                // one gives credit to any compatible value, so its keys' postings.
                // A range gathers every entry in it before the search begins, while the keys'
                // postings are only sought where the words match: with few text matches next to
                // the keys' postings, those are cheaper.
                let key_postings: u64 = test
                    .keys
                    .iter()
                    .map(|&(key, _)| df(&Term::from_field_u64(key_field, u64::from(key))))
                    .sum();
                let few_matches =
                    text_matches.is_some_and(|n| n.saturating_mul(RANGE_OVER_KEYS) < key_postings);
                let ranges = (self.fields.packed_indexed && test.soft <= 0.0 && !few_matches)
                    .then(|| test.intervals());
                let any_key: Vec<(Occur, Box<dyn Query>)> = test
                    .keys
                    .iter()
                    .flat_map(|&(key, _)| match &ranges {
                        Some(intervals) => intervals
                            .iter()
                            .map(|&(low, high)| {
                                let (low, high) = keys::packed_range(key, low, high);
                                let q: Box<dyn Query> = Box::new(InvertedIndexRangeQuery::new(
                                    Bound::Included(Term::from_field_u64(packed, low)),
                                    Bound::Included(Term::from_field_u64(packed, high)),
                                ));
                                (Occur::Should, q)
                            })
                            .collect::<Vec<_>>(),
                        None => {
                            let term = Term::from_field_u64(key_field, u64::from(key));
                            let q: Box<dyn Query> =
                                Box::new(TermQuery::new(term, IndexRecordOption::Basic));
                            vec![(Occur::Should, q)]
                        }
                    })
                    .collect();
                let q: Box<dyn Query> = Box::new(ConstScoreQuery::new(
                    Box::new(BooleanQuery::new(any_key)),
                    0.0,
                ));
                (Occur::Must, q)
            })
            .collect();
        Box::new(BooleanQuery::new(per_test))
    }

    /// The index terms of some words, each once (stemmed as the index is).
    pub fn terms(&self, words: &[String]) -> Vec<Term> {
        let Ok(mut analyzer) = self.index.tokenizer_for_field(self.fields.text) else {
            return Vec::new();
        };
        let mut terms: Vec<Term> = Vec::new();
        for word in words {
            let mut stream = analyzer.token_stream(word);
            while let Some(token) = stream.next() {
                let term = Term::from_field_text(self.fields.text, &token.text);
                if !terms.contains(&term) {
                    terms.push(term);
                }
            }
        }
        terms
    }
}

/// A stored text field's first value ("" when it has none).
fn text_of(doc: &TantivyDocument, field: Field) -> String {
    doc.get_first(field)
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_string()
}

/// Splitting and extraction over the cores, in document order.
fn extract_parallel<T: Send>(
    documents: &[Document],
    split: &(impl Fn(&Document) -> Vec<T> + Sync),
) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = documents.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = documents
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().flat_map(split).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// The sentences of a document with their quantities.
pub fn sentences_of(document: &Document) -> Vec<StoredSentence> {
    split_sentences(&document.text)
        .into_iter()
        .enumerate()
        .map(|(n, range)| {
            sentence_of(
                document,
                format!("{}#{n}", document.id),
                &document.text[range],
            )
        })
        .collect()
}

fn sentence_of(document: &Document, id: String, text: &str) -> StoredSentence {
    StoredSentence {
        id,
        quantities: extract_in_context(text),
        text: text.to_string(),
        source: document.source.clone(),
        entity: document.entity.clone(),
    }
}
