//! Documents ingested into the indexes under a corpus name, a few hundred kilobytes at a time
//! with progress; the corpora listed with their sizes, and deleted.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use tally_types::documents::IngestProgress;

use super::datasets::QuerySnippets;
use super::documents::{check_corpus_name, sentence_documents, snippets_of, DocumentsError};
use crate::corpus::structure::without_crop_lines;
use crate::crop_store::document_crops;
use crate::sentence_store::index::{Document, SentenceIndex};
use crate::snippet_index::SnippetIndex;

/// An indexing step: at most this many sections or bytes of text; progress is reported after
/// each.
const BATCH_SECTIONS: usize = 500;
const BATCH_BYTES: usize = 256 * 1024;
/// A long document is indexed in sections of about this many bytes (cut between paragraphs), so
/// that one large file shows progress too.
pub(super) const SECTION_BYTES: usize = 64 * 1024;

/// Where ingested documents go: the snippet index, the sentence index, or both.
pub struct Indexes<'a> {
    /// The snippet index, when documents go into it.
    pub snippets: Option<&'a SnippetIndex>,
    /// The sentence index, when documents go into it.
    pub sentences: Option<&'a SentenceIndex>,
}

/// Adds `documents` under `corpus` to the indexes, a few hundred kilobytes at a time, telling
/// `on_progress` after each step. Only one step's sections, snippets and quantities are held at
/// once, so the memory it takes does not grow with a document (a 60 MB document on one line once
/// had all its 2.4 M quantities extracted in one step).
pub fn ingest(
    indexes: &Indexes<'_>,
    corpus: &str,
    documents: &[Document],
    on_progress: &mut dyn FnMut(&IngestProgress),
) -> Result<IngestProgress, DocumentsError> {
    ingest_until(indexes, corpus, documents, &|| false, on_progress)
}

/// [`ingest`], stopping with [`DocumentsError::Stopped`] before the next step once `stopped`
/// says so (the corpus was deleted, the server is shutting down): a step is at most
/// [`BATCH_BYTES`] of text, so that it stops within about a second however large the document
/// (issue 84: a delete waited over a minute for a batch of 500 large documents). What was
/// indexed before stays; the caller drops it.
pub fn ingest_until(
    indexes: &Indexes<'_>,
    corpus: &str,
    documents: &[Document],
    stopped: &dyn Fn() -> bool,
    on_progress: &mut dyn FnMut(&IngestProgress),
) -> Result<IngestProgress, DocumentsError> {
    check_corpus_name(corpus)?;
    let started = Instant::now();
    // A scan's crops are kept beside the snippet index, and its text indexed without them:
    // the indexes read the same sections of text as before crops were kept.
    let originals = documents;
    let documents: Vec<Cow<'_, Document>> = documents.iter().map(without_crops).collect();
    let mut progress = IngestProgress {
        documents: documents.len(),
        // In the stored text's bytes, crops and all, as the job that stored it counts them.
        bytes: originals.iter().map(|d| d.text.len()).sum(),
        ..IngestProgress::default()
    };
    on_progress(&progress);
    let mut batch = Batch::default();
    for (n, (document, original)) in documents.iter().zip(originals).enumerate() {
        if matches!(document, Cow::Owned(_)) {
            // The crop lines count as done with the document's first section.
            batch.bytes += original.text.len() - document.text.len();
            if indexes.snippets.is_some() {
                batch
                    .crops
                    .extend(document_crops(&original.text, &original.source));
            }
        }
        let mut sections = Sections::of(document).peekable();
        while let Some(section) = sections.next() {
            if stopped() {
                return Err(DocumentsError::Stopped);
            }
            batch.push(section);
            if batch.is_full() {
                // A document is done once its last section is.
                let done = if sections.peek().is_none() { n + 1 } else { n };
                batch.add_to(indexes, corpus, &mut progress)?;
                progress.documents_done = done;
                progress.seconds = started.elapsed().as_secs_f64();
                on_progress(&progress);
            }
        }
    }
    if !batch.is_empty() || progress.documents_done < documents.len() {
        if stopped() {
            return Err(DocumentsError::Stopped);
        }
        if !batch.is_empty() {
            batch.add_to(indexes, corpus, &mut progress)?;
        }
        progress.documents_done = documents.len();
        progress.seconds = started.elapsed().as_secs_f64();
        on_progress(&progress);
    }
    Ok(progress)
}

/// `document` without the crop lines of its scanned passages (the text the indexes read), or
/// itself when it has none.
fn without_crops(document: &Document) -> Cow<'_, Document> {
    match without_crop_lines(&document.text) {
        Cow::Borrowed(_) => Cow::Borrowed(document),
        Cow::Owned(text) => Cow::Owned(Document {
            id: document.id.clone(),
            text,
            source: document.source.clone(),
            entity: document.entity.clone(),
        }),
    }
}

/// One indexing step's sections: at most [`BATCH_SECTIONS`] of them, or [`BATCH_BYTES`] of
/// text (a section that is only white space is counted, not indexed).
#[derive(Default)]
struct Batch {
    sections: Vec<Document>,
    bytes: usize,
    /// The crops of the scanned pages of the documents whose sections these are.
    crops: Vec<(String, Arc<[u8]>)>,
}

impl Batch {
    fn push(&mut self, section: Document) {
        self.bytes += section.text.len();
        if !section.text.trim().is_empty() {
            self.sections.push(section);
        }
    }

    fn is_full(&self) -> bool {
        self.sections.len() >= BATCH_SECTIONS || self.bytes >= BATCH_BYTES
    }

    fn is_empty(&self) -> bool {
        self.sections.is_empty() && self.bytes == 0
    }

    /// Indexes the step's sections and empties it.
    fn add_to(
        &mut self,
        indexes: &Indexes<'_>,
        corpus: &str,
        progress: &mut IngestProgress,
    ) -> Result<(), DocumentsError> {
        let sections = std::mem::take(&mut self.sections);
        if let Some(index) = indexes.snippets {
            let set = QuerySnippets {
                qid: String::new(),
                question: String::new(),
                snippets: sections.iter().flat_map(snippets_of).collect(),
            };
            progress.snippets += index.add(corpus, std::slice::from_ref(&set))?;
            index.add_crops(corpus, &std::mem::take(&mut self.crops))?;
        }
        if let Some(index) = indexes.sentences {
            let sentences: Vec<Document> = sections.iter().flat_map(sentence_documents).collect();
            let stats = index.add_unsplit_in(corpus, &sentences)?;
            progress.sentences += stats.sentences;
            progress.quantities += stats.quantities;
        }
        progress.bytes_done += std::mem::take(&mut self.bytes);
        Ok(())
    }
}

/// A document as it is indexed: whole when it is short, else in sections of at most
/// [`SECTION_BYTES`] (ids `{id}/{n}`), cut after the last paragraph break that fits, else the
/// last sentence end, else the last space (a document on one line is cut too). The sections
/// are consecutive pieces of the text: together they are the whole text, byte for byte.
pub(super) struct Sections<'a> {
    document: &'a Document,
    start: usize,
    made: usize,
}

impl<'a> Sections<'a> {
    pub(super) fn of(document: &'a Document) -> Self {
        Sections {
            document,
            start: 0,
            made: 0,
        }
    }
}

impl Iterator for Sections<'_> {
    type Item = Document;

    fn next(&mut self) -> Option<Document> {
        let text = &self.document.text;
        if self.start >= text.len() {
            return None;
        }
        let end = self.start + section_length(&text[self.start..]);
        let whole = self.made == 0 && end == text.len();
        self.made += 1;
        let piece = &text[self.start..end];
        self.start = end;
        Some(Document {
            id: if whole {
                self.document.id.clone()
            } else {
                format!("{}/{}", self.document.id, self.made)
            },
            text: piece.to_string(),
            source: self.document.source.clone(),
            entity: self.document.entity.clone(),
        })
    }
}

/// How many bytes of `rest` the next section takes (see [`Sections`]); more than none unless
/// `rest` is empty.
fn section_length(rest: &str) -> usize {
    if rest.len() <= SECTION_BYTES {
        return rest.len();
    }
    let mut limit = SECTION_BYTES;
    while !rest.is_char_boundary(limit) {
        limit -= 1;
    }
    let window = &rest[..limit];
    let after_break = window.rfind("\n\n").map(|i| i + 2);
    let after_sentence = || {
        [". ", "! ", "? ", ".\n", "!\n", "?\n"]
            .iter()
            .filter_map(|end| window.rfind(end).map(|i| i + end.len()))
            .max()
    };
    let after_space = || {
        window
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map(|(i, c)| i + c.len_utf8())
    };
    after_break
        .or_else(after_sentence)
        .or_else(after_space)
        .filter(|&cut| cut > 0)
        .unwrap_or(limit)
}

/// A corpus and its size in each index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CorpusSize {
    /// The corpus's name.
    pub name: String,
    /// Its snippets in the snippet index.
    pub snippets: u64,
    /// Its sentences in the sentence index.
    pub sentences: u64,
}

/// Every named corpus of the two indexes, sorted by name.
pub fn corpora(indexes: &Indexes<'_>) -> Result<Vec<CorpusSize>, DocumentsError> {
    let mut snippet_sizes = Vec::new();
    if let Some(index) = indexes.snippets {
        snippet_sizes = index.corpus_sizes()?;
    }
    let mut sentence_sizes = Vec::new();
    if let Some(index) = indexes.sentences {
        sentence_sizes = index.corpus_sizes()?;
    }
    let mut sizes: std::collections::BTreeMap<String, CorpusSize> = Default::default();
    for (name, n) in snippet_sizes {
        sizes
            .entry(name.clone())
            .or_insert_with(|| empty(name))
            .snippets = n;
    }
    for (name, n) in sentence_sizes
        .into_iter()
        .filter(|(name, _)| !name.is_empty())
    {
        sizes
            .entry(name.clone())
            .or_insert_with(|| empty(name))
            .sentences = n;
    }
    Ok(sizes.into_values().collect())
}

fn empty(name: String) -> CorpusSize {
    CorpusSize {
        name,
        snippets: 0,
        sentences: 0,
    }
}

/// Deletes `corpus` from both indexes; what it held. A corpus that is in neither is an error.
pub fn delete(indexes: &Indexes<'_>, corpus: &str) -> Result<CorpusSize, DocumentsError> {
    let mut deleted = empty(corpus.to_string());
    if let Some(index) = indexes.snippets {
        deleted.snippets = index.delete_corpus(corpus)?;
    }
    if let Some(index) = indexes.sentences {
        deleted.sentences = index.delete_corpus(corpus)?;
    }
    if deleted.snippets == 0 && deleted.sentences == 0 {
        return Err(DocumentsError::NoCorpus {
            name: corpus.to_string(),
        });
    }
    Ok(deleted)
}
