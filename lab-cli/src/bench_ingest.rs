//! `tally-lab bench ingest`: how fast documents are ingested, and what the indexes hold in
//! memory once they are.

use std::path::Path;

use crate::cli::bench::BenchIngestArgs;
use anyhow::Context;
use indicatif::ProgressBar;
use tally_documents::corpus::indexing::{self, Indexes};
use tally_documents::sentence_store::index::Document;
use tally_documents::sentence_store::split::split_sentences;
use tally_setup::loading::{open_sentences, open_snippets};

use crate::resident;
use crate::search::directory_megabytes;

/// The name the benchmark's documents are ingested under.
const BENCH_CORPUS: &str = "bench";

/// Snippets per benchmark document: a page of a few paragraphs, as people's documents are.
const BENCH_PARAGRAPHS: usize = 8;

/// `tally bench ingest`.
pub(crate) fn bench(args: &BenchIngestArgs) -> anyhow::Result<()> {
    if let Some(dir) = &args.resident_of {
        return resident::measure_here(dir, &args.models, args.then_delete.as_deref());
    }
    let empty = resident::empty_beside(&args.dir);
    let _ = std::fs::remove_dir_all(&empty);
    // The first child fills the empty indexes with the demo corpus; the second measures a
    // restart over them, as the run with the corpus is measured.
    resident::measure_in_child(&empty, &args.models, None)?;
    let before = resident::measure_in_child(&empty, &args.models, None)?.loaded;
    let _ = std::fs::remove_dir_all(&empty);
    let (documents, described) = bench_input(args)?;
    let _ = std::fs::remove_dir_all(&args.dir);
    let snippets = open_snippets(&args.dir.join("snippets"))?;
    let sentence_index = open_sentences(&args.dir.join("sentences"))?;
    let indexes = Indexes {
        snippets: Some(&snippets),
        sentences: Some(&sentence_index),
    };
    let bar = ProgressBar::new(documents.iter().map(|d| d.text.len() as u64).sum());
    let before_ingesting = resident::Resident::now();
    // The peak of the heap (anonymous memory) is sampled while ingesting: the kernel's peak
    // (`VmHWM`) also counts the index files mapped while segments merge, which it may evict.
    let sampler = resident::HeapSampler::start();
    let report = indexing::ingest(&indexes, BENCH_CORPUS, &documents, &mut |p| {
        bar.set_position(p.bytes_done as u64)
    })?;
    let peak_heap = sampler.stop();
    bar.finish_and_clear();
    // The documents and the open indexes were resident before; the peak is what ingesting added.
    let peak = resident::peak_mb();
    let before_heap = before_ingesting.anonymous_mb;
    let before_ingesting = before_ingesting.total_mb;
    let text_mb = documents.iter().map(|d| d.text.len()).sum::<usize>() as f64 / 1e6;
    let megabytes = directory_megabytes(&args.dir.join("snippets"))
        + directory_megabytes(&args.dir.join("sentences"));
    drop((snippets, sentence_index));
    // Snippets and sentences go under the corpus's name; `delete` removes both.
    let measured = resident::measure_in_child(&args.dir, &args.models, Some(BENCH_CORPUS))?;
    let loaded = measured.loaded;
    let deleted = measured
        .after_delete
        .context("the measuring process did not delete the corpus")?;
    let millions = report.sentences as f64 / 1e6;
    let per_million = (loaded.total_mb - before.total_mb) / millions.max(1e-9);
    let anonymous_per_million = (loaded.anonymous_mb - before.anonymous_mb) / millions.max(1e-9);
    let after_delete_change = (deleted.total_mb - before.total_mb) / before.total_mb.max(1e-9);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "documents": report.documents,
                "text_mb": text_mb,
                "resident_before_ingesting_mb": before_ingesting,
                "peak_while_ingesting_mb": peak,
                "heap_before_ingesting_mb": before_heap,
                "peak_heap_while_ingesting_mb": peak_heap,
                "snippets": report.snippets,
                "sentences": report.sentences,
                "quantities": report.quantities,
                "seconds": report.seconds,
                "sentences_per_second": report.sentences as f64 / report.seconds.max(1e-9),
                "disk_mb": megabytes,
                "cores": cores,
                "resident_before_mb": before,
                "resident_after_restart_mb": loaded,
                "resident_after_delete_mb": deleted,
                "resident_mb_per_million_sentences": per_million,
                "anonymous_mb_per_million_sentences": anonymous_per_million,
                "after_delete_change": after_delete_change,
            })
        );
    } else {
        println!(
            "{} documents ({described}), {text_mb:.1} MB of text, {cores} cores",
            report.documents,
        );
        println!(
            "peak resident memory while ingesting: {peak:.0} MB ({before_ingesting:.0} MB before \
             ingesting, the documents and open indexes; {:+.0} MB for ingesting, index files \
             mapped while merging included); peak heap {peak_heap:.0} MB ({before_heap:.0} MB \
             before, {:+.0} MB for ingesting)",
            peak - before_ingesting,
            peak_heap - before_heap
        );
        println!(
            "{} snippets, {} sentences, {} quantities in {:.1} s: {:.0} sentences/s; {megabytes:.0} MB on disk",
            report.snippets,
            report.sentences,
            report.quantities,
            report.seconds,
            report.sentences as f64 / report.seconds.max(1e-9)
        );
        println!(
            "resident memory of a server process (encoder loaded, count and value question answered): \
             {:.0} MB without the corpus, {:.0} MB after a restart with it ({:.0} MB per million \
             sentences; heap {:+.0} MB per million), {:.0} MB after deleting it ({:+.1}% of without)",
            before.total_mb,
            loaded.total_mb,
            per_million,
            anonymous_per_million,
            deleted.total_mb,
            100.0 * after_delete_change
        );
    }
    Ok(())
}

/// The benchmark's documents and how they are described: one long line, or the data sets'
/// paragraphs repeated until they hold the sentences asked for.
fn bench_input(args: &BenchIngestArgs) -> anyhow::Result<(Vec<Document>, String)> {
    let input = match args.one_line_mb {
        Some(megabytes) => (
            vec![one_line_document(megabytes)],
            "one document on one line".to_string(),
        ),
        None => {
            let data = args.data.dir();
            let paragraphs = bench_paragraphs(data.as_deref())?;
            let documents = bench_documents(&paragraphs, args.sentences);
            let described = format!(
                "{} distinct paragraphs of the data sets' web snippets, repeated",
                paragraphs.len()
            );
            (documents, described)
        }
    };
    Ok(input)
}

/// Documents of [`BENCH_PARAGRAPHS`] paragraphs each, taken in turn from `paragraphs`, until
/// they hold `sentences` sentences.
fn bench_documents(paragraphs: &[(String, usize)], sentences: usize) -> Vec<Document> {
    let mut documents = Vec::new();
    let mut held = 0;
    let mut next = 0;
    while held < sentences && !paragraphs.is_empty() {
        let mut text = Vec::with_capacity(BENCH_PARAGRAPHS);
        for _ in 0..BENCH_PARAGRAPHS {
            let (paragraph, count) = &paragraphs[next % paragraphs.len()];
            next += 1;
            text.push(paragraph.as_str());
            held += count;
        }
        documents.push(Document {
            id: format!("bench-{}", documents.len()),
            text: text.join("\n\n"),
            source: "bench".into(),
            entity: None,
        });
    }
    documents
}

/// One document of `megabytes` MB on a single line, a quantity every few words.
fn one_line_document(megabytes: u32) -> Document {
    let bytes = megabytes as usize * 1_000_000;
    let mut text = String::with_capacity(bytes + 64);
    let mut n = 0u64;
    while text.len() < bytes {
        n += 1;
        if n > 1 {
            text.push(' ');
        }
        text.push_str(&format!("widget{n} weighs {} kg", n % 997 + 1));
    }
    Document {
        id: "one-line".into(),
        text,
        source: "bench".into(),
        entity: None,
    }
}

/// The data sets' web snippets with their sentence counts (the demo corpus without them).
fn bench_paragraphs(data: Option<&Path>) -> anyhow::Result<Vec<(String, usize)>> {
    use tally_documents::corpus::catalogue::{LCQUAD_COUNT, NQ_COUNT, STRESSTEST};
    let mut texts = Vec::new();
    for set in [STRESSTEST, NQ_COUNT, LCQUAD_COUNT] {
        let Some(path) = data.map(|d| d.join(set.path)).filter(|p| p.is_file()) else {
            continue;
        };
        for query in tally_documents::corpus::datasets::read_squad(&path)? {
            texts.extend(query.snippets.into_iter().map(|s| s.text));
        }
    }
    if texts.is_empty() {
        texts = tally_documents::corpus::sentences::parse_documents(
            tally_documents::corpus::sentences::DEMO_DOCUMENTS,
            tally_documents::corpus::Format::Jsonl,
            "demo",
            std::path::Path::new("demo_quantities.jsonl"),
        )
        .context("the demo documents could not be parsed")?
        .into_iter()
        .map(|d| d.text)
        .collect();
    }
    let paragraphs: Vec<(String, usize)> = texts
        .into_iter()
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty())
        .map(|t| {
            let count = split_sentences(&t).len().max(1);
            (t, count)
        })
        .collect();
    anyhow::ensure!(!paragraphs.is_empty(), "no text to ingest");
    Ok(paragraphs)
}
