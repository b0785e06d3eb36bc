//! The job that fills a sentence index's stored vectors ([`tally_documents::sentence_store::vectors`]). It runs after the
//! text is indexed: searches answer meanwhile, and the rankers encode the pooled sentences that
//! have no vector yet.
//!
//! The job scans the index. It counts each corpus's sentences and those with a vector, and
//! encodes the sentences without one in batches, appending each batch to the store. Stopped or
//! crashed, it starts again from the store: what was written stays. Vectors of sentences no
//! longer in the index (a deleted or replaced corpus) are dropped after a scan.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use tally_documents::DocumentsError;

use serde::Serialize;

use super::rankers::dense::vector_text;
use tally_documents::sentence_store::index::SentenceIndex;
use tally_documents::sentence_store::stored::StoredSentence;
use tally_documents::sentence_store::vectors::SentenceVectors;
use tally_encoder::{Encoder, EncoderError};

/// Sentences encoded per batch: a stop waits for one batch (about a quarter of a second on 2
/// cores).
const BATCH: usize = 32;
/// Sentences without a vector collected per scan: bounds the job's memory on a large index; the
/// next scan collects the next ones.
const PER_SCAN: usize = 50_000;

/// Why the job stopped short.
#[derive(Debug, thiserror::Error)]
pub enum VectorJobError {
    /// The sentence index failed.
    #[error(transparent)]
    Index(#[from] DocumentsError),
    /// The sentence encoder failed.
    #[error("the sentence vectors could not be encoded")]
    Encoder(#[from] EncoderError),
}

/// One corpus's sentences, and how many of them have a stored vector.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CorpusVectors {
    /// How many sentences the corpus has.
    pub sentences: u64,
    /// How many of them have a stored vector.
    pub with_vectors: u64,
}

/// Where the job stands.
#[derive(Debug, Clone, Default, Serialize)]
pub struct VectorProgress {
    /// Per corpus name (the unnamed corpus as "").
    pub corpora: BTreeMap<String, CorpusVectors>,
    /// Sentences encoded by this run so far.
    pub encoded: usize,
    /// Their rate.
    pub sentences_per_second: f64,
}

impl VectorProgress {
    /// Sentences of every corpus, and those with a vector.
    pub fn totals(&self) -> CorpusVectors {
        self.corpora
            .values()
            .fold(CorpusVectors::default(), |t, c| CorpusVectors {
                sentences: t.sentences + c.sentences,
                with_vectors: t.with_vectors + c.with_vectors,
            })
    }
}

/// What a run of the job did.
#[derive(Debug, Clone, Serialize)]
pub struct FillReport {
    /// Where the job stood when the run ended.
    pub progress: VectorProgress,
    /// Vectors of sentences no longer indexed, dropped.
    pub dropped: usize,
    /// How long the run took, in seconds.
    pub seconds: f64,
    /// Stopped by its caller before every sentence had a vector.
    pub stopped: bool,
}

/// A sentence to encode: the text its vector encodes, and the corpora that hold it.
struct Pending {
    key: u64,
    text: String,
    corpora: Vec<String>,
}

/// One scan of the index.
struct Scan {
    progress: VectorProgress,
    pending: Vec<Pending>,
    /// Whether every sentence without a vector is in `pending`.
    complete: bool,
    live: HashSet<u64>,
}

/// How a run of the job is steered.
#[derive(Clone, Copy)]
pub struct FillControl<'a> {
    /// Raised to stop the run after its current batch (what it wrote stays).
    pub stop: &'a AtomicBool,
    /// Whether the vectors of sentences no longer indexed are dropped after a complete scan.
    /// Not while a corpus is being indexed again: its unchanged sentences come back.
    pub drop_dead: bool,
    /// Only the sentences this accepts are encoded (a benchmark's); all when `None`.
    pub only: Option<&'a dyn Fn(&StoredSentence) -> bool>,
}

impl<'a> FillControl<'a> {
    /// Every sentence, dead vectors dropped, until `stop` is raised.
    pub fn until(stop: &'a AtomicBool) -> Self {
        FillControl {
            stop,
            drop_dead: true,
            only: None,
        }
    }
}

/// The key of a stored sentence's vector: of the text its vector encodes.
pub fn vector_key(sentence: &StoredSentence) -> u64 {
    SentenceVectors::key_of(vector_text(sentence))
}

fn scan(
    index: &SentenceIndex,
    encoder: &str,
    wanted: &dyn Fn(&StoredSentence) -> bool,
) -> Result<Scan, DocumentsError> {
    let vectors = index.vectors();
    let mut progress = VectorProgress::default();
    let mut pending: Vec<Pending> = Vec::new();
    let mut pending_at: HashMap<u64, usize> = HashMap::new();
    let mut complete = true;
    let mut live = HashSet::new();
    index.visit_sentences(|corpus, sentence| {
        let text = vector_text(&sentence);
        let key = SentenceVectors::key_of(text);
        live.insert(key);
        // One allocation per corpus, not per sentence.
        if !progress.corpora.contains_key(corpus) {
            progress
                .corpora
                .insert(corpus.to_string(), CorpusVectors::default());
        }
        let counts = progress.corpora.get_mut(corpus).expect("inserted above");
        counts.sentences += 1;
        if vectors.contains(encoder, key) {
            counts.with_vectors += 1;
            return ControlFlow::Continue(());
        }
        if !wanted(&sentence) {
            return ControlFlow::Continue(());
        }
        if let Some(&at) = pending_at.get(&key) {
            pending[at].corpora.push(corpus.to_string());
        } else if pending.len() < PER_SCAN {
            pending_at.insert(key, pending.len());
            pending.push(Pending {
                key,
                text: text.to_string(),
                corpora: vec![corpus.to_string()],
            });
        } else {
            complete = false;
        }
        ControlFlow::Continue(())
    })?;
    Ok(Scan {
        progress,
        pending,
        complete,
        live,
    })
}

/// Encodes and stores the vector of every sentence of `index` that has none, calling
/// `on_progress` after the scan and after each batch; returns early (`stopped`) once
/// `control.stop` is raised.
pub fn fill_vectors(
    index: &SentenceIndex,
    encoder: &Encoder,
    control: FillControl<'_>,
    mut on_progress: impl FnMut(&VectorProgress),
) -> Result<FillReport, VectorJobError> {
    let started = Instant::now();
    let mut encoded = 0;
    let mut dropped = 0;
    let every = |_: &StoredSentence| true;
    let wanted = control.only.unwrap_or(&every);
    loop {
        let Scan {
            mut progress,
            pending,
            complete,
            live,
        } = scan(index, encoder.name(), wanted)?;
        if complete && control.drop_dead {
            dropped += index
                .vectors()
                .retain(&live)
                .map_err(DocumentsError::from)?;
        }
        progress.encoded = encoded;
        on_progress(&progress);
        for batch in pending.chunks(BATCH) {
            if control.stop.load(Ordering::Relaxed) {
                return Ok(report(progress, dropped, started, true));
            }
            let texts: Vec<&str> = batch.iter().map(|p| p.text.as_str()).collect();
            let vectors = encoder.embed(&texts)?;
            let keys: Vec<u64> = batch.iter().map(|p| p.key).collect();
            index
                .vectors()
                .insert(encoder.name(), &keys, &vectors)
                .map_err(DocumentsError::from)?;
            for corpus in batch.iter().flat_map(|p| &p.corpora) {
                progress
                    .corpora
                    .entry(corpus.clone())
                    .or_default()
                    .with_vectors += 1;
            }
            encoded += batch.len();
            progress.encoded = encoded;
            progress.sentences_per_second = encoded as f64 / started.elapsed().as_secs_f64();
            on_progress(&progress);
        }
        if complete {
            return Ok(report(progress, dropped, started, false));
        }
    }
}

fn report(progress: VectorProgress, dropped: usize, started: Instant, stopped: bool) -> FillReport {
    FillReport {
        progress,
        dropped,
        seconds: started.elapsed().as_secs_f64(),
        stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{search, SearchSettings};
    use tally_documents::sentence_store::Document;
    use tally_types::Ranker;

    const ARENAS: &[&str] = &[
        "The Alpha Arena has a capacity of 95,000 people.",
        "The Beta Arena has a capacity of 40,000 people.",
        "The Gamma Arena, opened in 1990, has a capacity of 82,500.",
    ];
    const BAGS: &[&str] = &[
        "The travel bag weighs 7 kg when empty.",
        "The camping bag weighs 12 kg when empty.",
    ];

    #[test]
    fn the_job_fills_every_sentence_then_the_ranker_reads_the_stored_vectors_alone() {
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let dir = tempfile::tempdir().unwrap();
        let index = SentenceIndex::open_or_create(dir.path()).unwrap();
        index
            .add_unsplit_in("arenas", &Document::numbered(ARENAS))
            .unwrap();
        index
            .add_unsplit_in("bags", &Document::numbered(BAGS))
            .unwrap();
        let query = "stadiums with a capacity above 80000";
        let settings = SearchSettings::for_ranker(Ranker::Learned);
        let encoded = search(&index, Some(&encoder), query, &settings).unwrap();

        let never = AtomicBool::new(false);
        let mut reports = 0;
        let report = fill_vectors(&index, &encoder, FillControl::until(&never), |_| {
            reports += 1
        })
        .unwrap();
        assert_eq!(report.progress.encoded, 5);
        assert!(reports >= 2, "after the scan and after the batch");
        assert_eq!(
            report.progress.corpora["arenas"],
            CorpusVectors {
                sentences: 3,
                with_vectors: 3
            }
        );
        assert_eq!(index.vectors().len(), 5);

        // Read back from the file by a new opening; each equals the encoder's within 8 bits.
        drop(index);
        let index = SentenceIndex::open_or_create(dir.path()).unwrap();
        let key = SentenceVectors::key_of(ARENAS[0]); // short: the whole sentence is encoded
        let stored = index.vectors().vector(encoder.name(), key).unwrap();
        let fresh = encoder.embed_one(ARENAS[0]).unwrap();
        assert!(tally_encoder::cosine(&stored, &fresh) > 0.999);

        // The same ranking from the stored vectors, and scores within quantisation.
        let read = search(&index, Some(&encoder), query, &settings).unwrap();
        let ids = |r: &tally_types::SearchResults| {
            r.hits.iter().map(|h| h.id.clone()).collect::<Vec<_>>()
        };
        assert_eq!(ids(&read), ids(&encoded));
        for (a, b) in read.hits.iter().zip(&encoded.hits) {
            assert!(
                (a.score - b.score).abs() < 0.01,
                "{} vs {}",
                a.score,
                b.score
            );
        }

        // A second run has nothing to encode.
        let again = fill_vectors(&index, &encoder, FillControl::until(&never), |_| {}).unwrap();
        assert_eq!((again.progress.encoded, again.dropped), (0, 0));
    }

    #[test]
    fn a_deleted_corpus_loses_its_vectors_and_a_replaced_one_keeps_its_unchanged_sentences() {
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let index = SentenceIndex::in_memory().unwrap();
        index
            .add_unsplit_in("arenas", &Document::numbered(ARENAS))
            .unwrap();
        index
            .add_unsplit_in("bags", &Document::numbered(BAGS))
            .unwrap();
        let never = AtomicBool::new(false);
        fill_vectors(&index, &encoder, FillControl::until(&never), |_| {}).unwrap();

        index.delete_corpus("bags").unwrap();
        let after_delete =
            fill_vectors(&index, &encoder, FillControl::until(&never), |_| {}).unwrap();
        assert_eq!(
            (after_delete.progress.encoded, after_delete.dropped),
            (0, 2)
        );
        assert_eq!(index.vectors().len(), 3);
        assert!(!after_delete.progress.corpora.contains_key("bags"));

        // Replaced: one sentence changed, two kept.
        index.delete_corpus("arenas").unwrap();
        let mut replaced = ARENAS.to_vec();
        replaced[1] = "The Beta Arena has a capacity of 41,000 people.";
        index
            .add_unsplit_in("arenas", &Document::numbered(&replaced))
            .unwrap();
        let after_replace =
            fill_vectors(&index, &encoder, FillControl::until(&never), |_| {}).unwrap();
        assert_eq!(
            (after_replace.progress.encoded, after_replace.dropped),
            (1, 1)
        );
        assert_eq!(index.vectors().len(), 3);
    }

    #[test]
    fn a_stopped_job_leaves_what_it_wrote_and_the_next_run_goes_on() {
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let index = SentenceIndex::in_memory().unwrap();
        let many: Vec<String> = (0..(BATCH + 5))
            .map(|i| format!("Bridge number {i} is {} metres long.", 100 + i))
            .collect();
        let texts: Vec<&str> = many.iter().map(String::as_str).collect();
        index
            .add_unsplit_in("bridges", &Document::numbered(&texts))
            .unwrap();
        let query = "bridges longer than 120 metres";
        let settings = SearchSettings::for_ranker(Ranker::Learned);
        let encoded = search(&index, Some(&encoder), query, &settings).unwrap();
        let stop = AtomicBool::new(false);
        let first = fill_vectors(&index, &encoder, FillControl::until(&stop), |progress| {
            if progress.encoded > 0 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
        assert!(first.stopped);
        assert_eq!(index.vectors().len(), BATCH);
        // Meanwhile a search reads the vectors there are and encodes the others: the same
        // sentences, each scored within the 8 bits (these near-twins may swap places).
        let halfway = search(&index, Some(&encoder), query, &settings).unwrap();
        let scores = |r: &tally_types::SearchResults| {
            r.hits
                .iter()
                .map(|h| (h.id.clone(), h.score))
                .collect::<HashMap<_, _>>()
        };
        let (before, meanwhile) = (scores(&encoded), scores(&halfway));
        assert_eq!(
            before.keys().collect::<HashSet<_>>(),
            meanwhile.keys().collect::<HashSet<_>>()
        );
        for (id, score) in &before {
            assert!((score - meanwhile[id]).abs() < 0.01, "{id}: {score}");
        }
        let never = AtomicBool::new(false);
        let second = fill_vectors(&index, &encoder, FillControl::until(&never), |_| {}).unwrap();
        assert_eq!(second.progress.encoded, 5);
        assert_eq!(second.progress.totals().with_vectors, (BATCH + 5) as u64);
    }
}
