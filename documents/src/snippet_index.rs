//! The snippet index (tantivy): BM25 over title and text, the stored text, the snippet id, the
//! corpus name, a document passage's typed record (JSON) and, for dataset snippets, the question
//! they were retrieved for.
//!
//! A question gets its snippets in one of two ways: the stored snippet set of a known dataset
//! question ("prefetched", as in the CoQEx demo), or BM25 top-k over the whole index.

use crate::crop_store::CropStore;
use crate::index_dir;
use crate::DocumentsError;
use std::path::Path;
use std::sync::Arc;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query, QueryParser, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, Value, STORED, STRING, TEXT};
use tantivy::{doc, Index, IndexReader, IndexWriter, TantivyDocument, Term};

use crate::corpus::datasets::{QuerySnippets, Snippet};
use crate::rarity::{inverse_document_frequency, WordRarity};
use tally_types::count::Retrieval;
use tally_types::request::question_key;

/// Writer memory budget: small corpora, one thread.
const WRITER_BYTES: usize = 64_000_000;
/// Most snippets a prefetched question can return.
const MAX_PREFETCHED: usize = 1000;
/// The largest k a search accepts; more is capped, not an error.
pub const MAX_K: usize = 1000;

/// The folder in an index's directory its crops of scanned pages are kept in.
const CROPS_FOLDER: &str = "crops";

struct Fields {
    id: Field,
    corpus: Field,
    question_key: Field,
    question: Field,
    title: Field,
    text: Field,
    /// `None` in an index written before records were kept (issue 71): its snippets read as
    /// running text until the corpus is ingested again.
    record: Option<Field>,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let fields = Fields {
        id: b.add_text_field("id", STRING | STORED),
        corpus: b.add_text_field("corpus", STRING | STORED),
        question_key: b.add_text_field("question_key", STRING | STORED),
        question: b.add_text_field("question", STORED),
        title: b.add_text_field("title", TEXT | STORED),
        text: b.add_text_field("text", TEXT | STORED),
        record: Some(b.add_text_field(RECORD_FIELD, STORED)),
    };
    (b.build(), fields)
}

/// The stored field of a passage's record.
const RECORD_FIELD: &str = "record";

/// The schema an index was written with, with the field names of [`schema`] (an index written
/// before the record field was added has none).
fn fields_of(schema: &Schema) -> Result<Fields, DocumentsError> {
    let field = |name: &str| schema.get_field(name).map_err(DocumentsError::Tantivy);
    Ok(Fields {
        id: field("id")?,
        corpus: field("corpus")?,
        question_key: field("question_key")?,
        question: field("question")?,
        title: field("title")?,
        text: field("text")?,
        record: schema.get_field(RECORD_FIELD).ok(),
    })
}

/// A snippet found by search, with its BM25 score.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The snippet found.
    pub snippet: Snippet,
    /// The corpus it was ingested under.
    pub corpus: String,
    /// Its BM25 score.
    pub score: f32,
}

/// A tantivy index of snippets.
pub struct SnippetIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    /// The crops of the scanned pages its passages were read from (issue 100).
    crops: CropStore,
}

/// Rarity is the inverse document frequency of a word in the snippets' text (tantivy's default
/// tokenizer lower-cases words and keeps their form).
impl WordRarity for SnippetIndex {
    fn rarity(&self, words: &[String]) -> Vec<f64> {
        let searcher = self.reader.searcher();
        let documents = searcher.num_docs();
        words
            .iter()
            .map(|word| {
                let term = Term::from_field_text(self.fields.text, word);
                // A failed read weighs the word as if no snippet held it.
                let holding = searcher.doc_freq(&term).unwrap_or(0);
                inverse_document_frequency(documents, holding)
            })
            .collect()
    }
}

impl SnippetIndex {
    /// The word of the snippets' text closest in spelling to `word` (lower case), when they do
    /// not hold `word` itself (see [`crate::spelling::closest_word`]).
    pub fn closest_word(&self, word: &str) -> Result<Option<String>, DocumentsError> {
        Ok(crate::spelling::closest_word(
            &self.reader.searcher(),
            self.fields.text,
            word,
        )?)
    }

    /// An index held in memory.
    pub fn in_memory() -> Result<Self, DocumentsError> {
        let (schema, fields) = schema();
        let (index, reader) = index_dir::in_memory(schema)?;
        Ok(Self {
            index,
            reader,
            fields,
            crops: CropStore::in_memory(),
        })
    }

    /// Opens the index in `dir`, creating it (and the directory) when there is none. An index
    /// written before records were kept opens as it is, its snippets without records.
    pub fn open_or_create(dir: &Path) -> Result<Self, DocumentsError> {
        if let Some((index, reader)) = index_dir::open_existing(dir)? {
            let fields = fields_of(&index.schema())?;
            return Ok(Self {
                index,
                reader,
                fields,
                crops: CropStore::in_dir(&dir.join(CROPS_FOLDER)),
            });
        }
        let (schema, fields) = schema();
        let (index, reader) = index_dir::open_or_create(dir, schema)?;
        Ok(Self {
            index,
            reader,
            fields,
            crops: CropStore::in_dir(&dir.join(CROPS_FOLDER)),
        })
    }

    /// Number of snippets stored.
    pub fn len(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// Whether the index holds no snippets.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds snippet sets under `corpus` and commits. Snippets without a question are stored for
    /// BM25 search only. Returns the number added.
    pub fn add(&self, corpus: &str, sets: &[QuerySnippets]) -> Result<usize, DocumentsError> {
        let mut writer: IndexWriter = self.index.writer_with_num_threads(1, WRITER_BYTES)?;
        let f = &self.fields;
        let mut added = 0;
        for set in sets {
            let key = question_key(&set.question);
            for snippet in &set.snippets {
                let mut document = doc!(
                    f.id => snippet.id.as_str(),
                    f.corpus => corpus,
                    f.question_key => key.as_str(),
                    f.question => set.question.as_str(),
                    f.title => snippet.source.as_str(),
                    f.text => snippet.text.as_str(),
                );
                if let (Some(field), Some(record)) = (f.record, &snippet.record) {
                    if let Ok(json) = serde_json::to_string(record) {
                        document.add_text(field, json);
                    }
                }
                writer.add_document(document)?;
                added += 1;
            }
        }
        writer.commit()?;
        self.reader.reload()?;
        Ok(added)
    }

    /// The snippets a count question is answered from, and how they were found: the stored
    /// snippet set of a dataset question (`prefetched`), otherwise BM25's top `k` (`bm25`); from
    /// `corpus` only when one is given.
    pub fn snippets_for(
        &self,
        question: &str,
        k: usize,
        corpus: Option<&str>,
    ) -> Result<(Vec<Snippet>, Retrieval), DocumentsError> {
        let prefetched = self.prefetched_in(question, corpus)?;
        self.snippets_after(question, k, corpus, prefetched)
    }

    /// [`snippets_for`](Self::snippets_for) once the question's stored snippet set is read
    /// (`prefetched`, from `corpus`; empty when it has none): the set itself, or BM25's top
    /// `k` without asking for the set again.
    pub fn snippets_after(
        &self,
        question: &str,
        k: usize,
        corpus: Option<&str>,
        prefetched: Vec<Snippet>,
    ) -> Result<(Vec<Snippet>, Retrieval), DocumentsError> {
        if !prefetched.is_empty() {
            return Ok((prefetched, Retrieval::Prefetched));
        }
        let found = self.search_in(question, k, corpus)?;
        Ok((
            found.into_iter().map(|h| h.snippet).collect(),
            Retrieval::Bm25,
        ))
    }

    /// The stored snippet set of a known question, in id order; empty when the question is not
    /// a dataset question.
    pub fn prefetched(&self, question: &str) -> Result<Vec<Snippet>, DocumentsError> {
        self.prefetched_in(question, None)
    }

    /// [`prefetched`](Self::prefetched), from `corpus` only when one is given.
    pub fn prefetched_in(
        &self,
        question: &str,
        corpus: Option<&str>,
    ) -> Result<Vec<Snippet>, DocumentsError> {
        let key = question_key(question);
        if key.is_empty() {
            return Ok(Vec::new());
        }
        let searcher = self.reader.searcher();
        let query = self.in_corpus(
            Box::new(TermQuery::new(
                Term::from_field_text(self.fields.question_key, &key),
                IndexRecordOption::Basic,
            )),
            corpus,
        );
        let docs = searcher.search(
            &query,
            &TopDocs::with_limit(MAX_PREFETCHED).order_by_score(),
        )?;
        let mut hits = docs
            .into_iter()
            .map(|(score, address)| self.hit(&searcher.doc(address)?, score))
            .collect::<Result<Vec<_>, DocumentsError>>()?;
        // Dataset order ("…_0", "…_1", …), so answers are reproducible.
        hits.sort_by_key(|h| snippet_order(&h.snippet.id));
        Ok(hits.into_iter().map(|h| h.snippet).collect())
    }

    /// BM25 top-`k` snippets over title and text (k capped at [`MAX_K`]).
    pub fn search(&self, question: &str, k: usize) -> Result<Vec<Hit>, DocumentsError> {
        self.search_in(question, k, None)
    }

    /// [`search`](Self::search), in `corpus` only when one is given.
    pub fn search_in(
        &self,
        question: &str,
        k: usize,
        corpus: Option<&str>,
    ) -> Result<Vec<Hit>, DocumentsError> {
        let k = k.clamp(1, MAX_K);
        let searcher = self.reader.searcher();
        let parser = QueryParser::for_index(&self.index, vec![self.fields.title, self.fields.text]);
        // Words only: the user's punctuation is not query syntax.
        let (query, _errors) = parser.parse_query_lenient(&question_key(question));
        let query = self.in_corpus(query, corpus);
        let docs = searcher.search(&query, &TopDocs::with_limit(k).order_by_score())?;
        docs.into_iter()
            .map(|(score, address)| self.hit(&searcher.doc(address)?, score))
            .collect()
    }

    /// `query`, restricted to `corpus` when one is given (the corpus term only filters; it adds
    /// nothing to the score).
    fn in_corpus(&self, query: Box<dyn Query>, corpus: Option<&str>) -> Box<dyn Query> {
        match corpus {
            None => query,
            Some(corpus) => {
                let filter = TermQuery::new(
                    Term::from_field_text(self.fields.corpus, corpus),
                    IndexRecordOption::Basic,
                );
                Box::new(BooleanQuery::new(vec![
                    (Occur::Must, query),
                    (
                        Occur::Must,
                        Box::new(ConstScoreQuery::new(Box::new(filter), 0.0)),
                    ),
                ]))
            }
        }
    }

    /// The snippets of `corpus` that carry a table row's record, in document order (at most
    /// [`MAX_RECORD_SNIPPETS`]): the rows the records' aggregations are computed over.
    pub fn table_rows_in(&self, corpus: &str) -> Result<Vec<Snippet>, DocumentsError> {
        let mut snippets = self.snippets_in(corpus, MAX_RECORD_SNIPPETS)?;
        snippets.retain(|snippet| {
            matches!(
                snippet.record.as_deref(),
                Some(crate::corpus::structure::Record::TableRow { .. })
            )
        });
        Ok(snippets)
    }

    /// Every passage of `corpus` when it holds a person's documents, in document order (at most
    /// [`MAX_RECORD_SNIPPETS`]); none for a data set's corpus (the built-in one), whose
    /// snippets are no document's passages.
    pub fn document_passages_in(&self, corpus: &str) -> Result<Vec<Snippet>, DocumentsError> {
        let first = self.snippets_in(corpus, 1)?;
        if !first.iter().any(|s| is_document_passage(&s.id)) {
            return Ok(Vec::new());
        }
        self.snippets_in(corpus, MAX_RECORD_SNIPPETS)
    }

    /// At most `limit` snippets of `corpus`, in document order.
    fn snippets_in(&self, corpus: &str, limit: usize) -> Result<Vec<Snippet>, DocumentsError> {
        let searcher = self.reader.searcher();
        let query = TermQuery::new(
            Term::from_field_text(self.fields.corpus, corpus),
            IndexRecordOption::Basic,
        );
        let docs = searcher.search(&query, &TopDocs::with_limit(limit).order_by_score())?;
        let mut snippets = Vec::new();
        for (_, address) in docs {
            snippets.push(self.hit(&searcher.doc(address)?, 0.0)?.snippet);
        }
        snippets.sort_by_cached_key(|s| document_order(&s.id));
        Ok(snippets)
    }

    /// The names of the corpora in the index, sorted.
    pub fn corpora(&self) -> Result<Vec<String>, DocumentsError> {
        Ok(self
            .corpus_sizes()?
            .into_iter()
            .map(|(name, _)| name)
            .collect())
    }

    /// Snippets per corpus, sorted by name.
    pub fn corpus_sizes(&self) -> Result<Vec<(String, u64)>, DocumentsError> {
        Ok(crate::index_dir::term_counts(
            &self.reader.searcher(),
            self.fields.corpus,
        )?)
    }

    /// Keeps the crops of scanned pages `crops` (key and PNG, [`crate::crop_store`]) under
    /// `corpus`, beside its snippets.
    pub fn add_crops(
        &self,
        corpus: &str,
        crops: &[(String, Arc<[u8]>)],
    ) -> Result<(), DocumentsError> {
        self.crops.add(corpus, crops).map_err(DocumentsError::Crops)
    }

    /// The crop of a scanned page filed under `key` ([`crate::crop_store::crop_key`]), if one
    /// is kept.
    pub fn crop(&self, key: &str) -> Result<Option<Arc<[u8]>>, DocumentsError> {
        self.crops.get(key).map_err(DocumentsError::Crops)
    }

    /// Removes every snippet of `corpus`, and its crops; returns how many snippets there were.
    pub fn delete_corpus(&self, corpus: &str) -> Result<u64, DocumentsError> {
        self.crops
            .delete_corpus(corpus)
            .map_err(DocumentsError::Crops)?;
        let term = Term::from_field_text(self.fields.corpus, corpus);
        let count = self.reader.searcher().search(
            &TermQuery::new(term.clone(), IndexRecordOption::Basic),
            &tantivy::collector::Count,
        )? as u64;
        if count > 0 {
            let mut writer: IndexWriter = self.index.writer_with_num_threads(1, WRITER_BYTES)?;
            writer.delete_term(term);
            writer.commit()?;
            self.reader.reload()?;
        }
        Ok(count)
    }

    /// Distinct dataset questions in the index (for example questions in the UI).
    pub fn questions(&self, limit: usize) -> Result<Vec<String>, DocumentsError> {
        let searcher = self.reader.searcher();
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for segment in searcher.segment_readers() {
            let store = segment
                .get_store_reader(64)
                .map_err(|e| DocumentsError::Tantivy(e.into()))?;
            for doc_id in 0..segment.max_doc() {
                let doc: TantivyDocument = store.get(doc_id)?;
                let q = text_of(&doc, self.fields.question);
                if !q.is_empty() && seen.insert(q.clone()) {
                    out.push(q);
                    if out.len() >= limit {
                        return Ok(out);
                    }
                }
            }
        }
        Ok(out)
    }

    fn hit(&self, doc: &TantivyDocument, score: f32) -> Result<Hit, DocumentsError> {
        let f = &self.fields;
        Ok(Hit {
            snippet: Snippet {
                id: text_of(doc, f.id),
                text: text_of(doc, f.text),
                source: text_of(doc, f.title),
                answers: Vec::new(),
                record: f
                    .record
                    .map(|field| text_of(doc, field))
                    .and_then(|json| serde_json::from_str(&json).ok())
                    .map(std::sync::Arc::new),
            },
            corpus: text_of(doc, f.corpus),
            score,
        })
    }
}

fn text_of(doc: &TantivyDocument, field: Field) -> String {
    doc.get_first(field)
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_string()
}

/// Sort key of a snippet id: numeric suffix after the last '_' first, then the id.
/// The most snippets of one corpus read for its tables.
pub const MAX_RECORD_SNIPPETS: usize = 200_000;

/// A document's snippet id in reading order: "{document}#{n}" or "{document}/{section}#{n}" →
/// (document, section, n).
fn document_order(id: &str) -> (String, u64, u64) {
    let (head, n) = id.rsplit_once('#').unwrap_or((id, "0"));
    let (document, section) = match head.rsplit_once('/') {
        Some((document, section)) if section.bytes().all(|b| b.is_ascii_digit()) => {
            (document, section.parse().unwrap_or(0))
        }
        _ => (head, 0),
    };
    (document.to_string(), section, n.parse().unwrap_or(0))
}

/// Whether a snippet or sentence id names a passage of a person's document (`file#n`); the
/// data sets' ids (`1_0`, `web3_2`, `d17`) have no `#`.
pub fn is_document_passage(id: &str) -> bool {
    id.contains('#')
}

/// The document a snippet id belongs to ("report.csv#12" → "report.csv").
pub fn document_of(id: &str) -> String {
    document_order(id).0
}

fn snippet_order(id: &str) -> (u64, String) {
    let n = id
        .rsplit_once('_')
        .and_then(|(_, n)| n.parse().ok())
        .unwrap_or(u64::MAX);
    (n, id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(question: &str, texts: &[&str]) -> QuerySnippets {
        QuerySnippets {
            qid: "q".into(),
            question: question.into(),
            snippets: texts
                .iter()
                .enumerate()
                .map(|(i, t)| Snippet {
                    id: format!("q_{i}"),
                    text: t.to_string(),
                    source: String::new(),
                    answers: Vec::new(),
                    record: None,
                })
                .collect(),
        }
    }

    #[test]
    fn retrieval_can_keep_to_one_corpus() {
        let index = SnippetIndex::in_memory().unwrap();
        let question = "How many moons does Mars have?";
        index
            .add("alpha", &[set(question, &["Mars has two moons."])])
            .unwrap();
        index
            .add(
                "beta",
                &[set(
                    question,
                    &["Two small moons orbit Mars.", "Mars is red."],
                )],
            )
            .unwrap();
        assert_eq!(index.corpora().unwrap(), ["alpha", "beta"]);
        assert_eq!(index.prefetched(question).unwrap().len(), 3);
        let alpha = index.prefetched_in(question, Some("alpha")).unwrap();
        assert_eq!(alpha.len(), 1);
        assert_eq!(alpha[0].text, "Mars has two moons.");
        assert!(index
            .prefetched_in(question, Some("gamma"))
            .unwrap()
            .is_empty());
        let hits = index.search_in("moons of mars", 10, Some("beta")).unwrap();
        assert_eq!(hits.len(), 2);
        assert!(hits.iter().all(|h| h.corpus == "beta"));
        // The filter does not change the ranking within the corpus.
        let all: Vec<String> = index
            .search("moons of mars", 10)
            .unwrap()
            .into_iter()
            .filter(|h| h.corpus == "beta")
            .map(|h| h.snippet.text)
            .collect();
        let beta: Vec<String> = hits.into_iter().map(|h| h.snippet.text).collect();
        assert_eq!(all, beta);
    }

    #[test]
    fn a_stored_set_read_once_is_not_asked_for_again() {
        let index = SnippetIndex::in_memory().unwrap();
        let question = "How many moons does Mars have?";
        index
            .add("alpha", &[set(question, &["Mars has two moons."])])
            .unwrap();
        let stored = index.prefetched_in(question, Some("alpha")).unwrap();
        let (snippets, retrieval) = index
            .snippets_after(question, 10, Some("alpha"), stored.clone())
            .unwrap();
        assert_eq!((snippets, retrieval), (stored, Retrieval::Prefetched));
        // Known to have none: BM25 over the corpus, the same as `snippets_for` finds.
        let (found, retrieval) = index
            .snippets_after("moons of mars", 10, Some("alpha"), Vec::new())
            .unwrap();
        assert_eq!(retrieval, Retrieval::Bm25);
        assert_eq!(
            found,
            index
                .snippets_for("moons of mars", 10, Some("alpha"))
                .unwrap()
                .0
        );
    }

    #[test]
    fn prefetched_and_bm25() {
        let index = SnippetIndex::in_memory().unwrap();
        index
            .add(
                "test",
                &[
                    set(
                        "How many moons does Mars have?",
                        &["Mars has two moons.", "Phobos is larger."],
                    ),
                    set("", &["Jupiter has 95 known moons.", "Bananas are yellow."]),
                ],
            )
            .unwrap();
        assert_eq!(index.len(), 4);
        let pre = index.prefetched("how many moons does mars have").unwrap();
        assert_eq!(pre.len(), 2);
        assert_eq!(pre[0].text, "Mars has two moons.");
        assert!(index.prefetched("unknown question").unwrap().is_empty());
        let hits = index.search("moons of Jupiter?", 10).unwrap();
        assert_eq!(hits[0].snippet.text, "Jupiter has 95 known moons.");
        assert!(hits.iter().all(|h| !h.snippet.text.contains("Bananas")));
        // Query syntax in user input is not an error.
        assert!(index.search("moons AND (\"", usize::MAX).is_ok());
        assert_eq!(
            index.questions(10).unwrap(),
            vec!["How many moons does Mars have?".to_string()]
        );
    }
}
