//! `tally-lab bench candidates` (issue 98): the candidates of WikiTableQuestions' dev questions
//! over one corpus of many tables, timed against the same questions over their own table alone
//! (the peer in the same run), with the oracle recall of both; and the ranking of the corpus's
//! candidates by the shipped ranker (issue 99: the features and the scores, after the
//! enumeration), with the share of questions its best candidate answers rightly.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use tally_engine::candidates::rank::{best, features, Scorer};
use tally_engine::candidates::{candidates, DocumentWords, TableCorpus};

use super::{is_answer, numeric_questions, Split, TableCache, TableFormat};

/// What the benchmark measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// Tables in the corpus.
    pub tables: usize,
    /// Milliseconds to make the corpus ready (once, as a server would at load).
    pub prepared_ms: f64,
    /// Questions timed.
    pub questions: usize,
    /// Milliseconds per question over the corpus, sorted.
    pub corpus_ms: Vec<f64>,
    /// Milliseconds per question over its own table, sorted.
    pub own_ms: Vec<f64>,
    /// Questions whose answer was among the candidates over the corpus.
    pub corpus_found: usize,
    /// Questions whose answer was among the candidates over their own table.
    pub own_found: usize,
    /// Milliseconds per question to rank the candidates over the corpus (features and scores),
    /// sorted.
    pub rank_ms: Vec<f64>,
    /// Questions whose best-ranked candidate over the corpus is the answer.
    pub ranked_right: usize,
}

/// Times the first `questions` questions of `split` over a corpus of `tables` tables.
pub fn bench(
    dir: &Path,
    split: Split,
    tables: usize,
    questions: usize,
) -> anyhow::Result<BenchReport> {
    let mut asked = numeric_questions(dir, split)?;
    asked.truncate(questions);
    let mut contexts: Vec<String> = Vec::new();
    for q in &asked {
        if !contexts.contains(&q.context) {
            contexts.push(q.context.clone());
        }
    }
    // Other tables, in the data set's order, until the corpus is full.
    let csv = dir.join("csv");
    let mut folders: Vec<_> = std::fs::read_dir(&csv)
        .with_context(|| format!("cannot read {}", csv.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    folders.sort();
    'fill: for folder in folders {
        let mut files: Vec<_> = std::fs::read_dir(&folder)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "csv"))
            .collect();
        files.sort_by_key(|p| {
            p.file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<u32>().ok())
        });
        for file in files {
            if contexts.len() >= tables {
                break 'fill;
            }
            let context = file
                .strip_prefix(dir)
                .map(|p| p.to_string_lossy().to_string())
                .unwrap_or_default();
            if !contexts.contains(&context) {
                contexts.push(context);
            }
        }
    }
    // In the data set's order, so that ties between tables favour none of the questions'.
    contexts.sort();
    let mut cache = TableCache::default();
    let mut corpus = Vec::new();
    for context in &contexts {
        corpus.extend(
            cache
                .tables(dir, context, TableFormat::Csv)?
                .tables()
                .iter()
                .cloned(),
        );
    }
    let started = Instant::now();
    let corpus = TableCorpus::new(corpus);
    let documents = DocumentWords::new(&corpus, &[]);
    let prepared_ms = started.elapsed().as_secs_f64() * 1e3;
    let mut report = BenchReport {
        prepared_ms,
        tables: corpus.tables().len(),
        questions: asked.len(),
        corpus_ms: Vec::new(),
        own_ms: Vec::new(),
        corpus_found: 0,
        own_found: 0,
        rank_ms: Vec::new(),
        ranked_right: 0,
    };
    let scorer = Scorer::shipped();
    for q in &asked {
        let own = cache.tables(dir, &q.context, TableFormat::Csv)?.clone();
        let started = Instant::now();
        let over_own = candidates(&q.utterance, &own, &[]);
        report.own_ms.push(started.elapsed().as_secs_f64() * 1e3);
        let started = Instant::now();
        let over_corpus = candidates(&q.utterance, &corpus, &[]);
        report.corpus_ms.push(started.elapsed().as_secs_f64() * 1e3);
        let found = |c: &[tally_engine::candidates::Candidate]| {
            c.iter().any(|c| is_answer(c, q.answer, &q.written))
        };
        report.own_found += usize::from(found(&over_own));
        report.corpus_found += usize::from(found(&over_corpus));
        let started = Instant::now();
        let probabilities = scorer.probabilities(&features(
            &q.utterance,
            &corpus,
            &documents,
            &over_corpus,
            None,
        ));
        let top = best(&probabilities);
        report.rank_ms.push(started.elapsed().as_secs_f64() * 1e3);
        report.ranked_right += usize::from(
            top.is_some_and(|(at, _)| is_answer(&over_corpus[at], q.answer, &q.written)),
        );
    }
    report.rank_ms.sort_by(f64::total_cmp);
    report.corpus_ms.sort_by(f64::total_cmp);
    report.own_ms.sort_by(f64::total_cmp);
    Ok(report)
}
