//! `tally bench search`: the index's build, size and memory, and each ranker's latency over the
//! same queries in one run; the default ranker twice, encoding its pool and reading the vectors
//! stored at ingestion (issue 76).

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;
use tally_documents::sentence_store::stored::StoredSentence;
use tally_documents::sentence_store::vectors::SentenceVectors;
use tally_documents::sentence_store::Document;
use tally_documents::sentence_store::SentenceIndex;
use tally_engine::search::vector_job::{fill_vectors, vector_key, FillControl};
use tally_engine::search::{search as run_search, SearchSettings};
use tally_lab::search::generated::encoder_text;
use tally_text::random::SplitMix64;
use tally_types::Ranker;

use super::{directory_megabytes, synthetic};
use crate::cli::bench::BenchSearchArgs;
use tally_setup::loading::encoder_of;

#[derive(Debug, Serialize)]
struct LatencyFigures {
    ranker: &'static str,
    queries: usize,
    runs: usize,
    p50_ms: f64,
    p95_ms: f64,
    mean_ms: f64,
}

#[derive(Debug, Serialize)]
struct SearchBenchFigures {
    sentences: u64,
    real_sentences: usize,
    generated_sentences: usize,
    quantities: usize,
    ingest_seconds: f64,
    extraction_seconds: f64,
    tantivy_seconds: f64,
    sentences_per_second: f64,
    disk_megabytes: f64,
    disk_megabytes_per_million: f64,
    resident_megabytes_after_queries: f64,
    resident_growth_megabytes_per_million: f64,
    latency: Vec<LatencyFigures>,
    qbm25_to_bm25_p50: f64,
    slowest_qbm25: Vec<SlowQuery>,
    /// What the learned ranker's encoder costs apart (`None` without the encoder).
    encoder: Option<EncoderCost>,
    /// The vectors stored for the default ranker (`None` without the encoder).
    stored_vectors: Option<StoredVectorFigures>,
}

/// The sentence vectors as the index stores them (issue 76): the job's rate on the sentences
/// the queries pool, and the store's size with a vector for every sentence.
#[derive(Debug, Serialize)]
struct StoredVectorFigures {
    /// Sentences the job encoded: every sentence a bench query pools.
    encoded: usize,
    sentences_per_second: f64,
    /// The other sentences' vectors are stand-ins (random, never read by the timed queries:
    /// their pools are the encoded sentences), so that the store is as large as the index.
    stand_ins: usize,
    bytes_per_sentence: usize,
    file_megabytes: f64,
    /// Resident memory the store added.
    resident_growth_megabytes: f64,
    /// The default ranker's p50 encoding its pool over its p50 reading stored vectors.
    learned_p50_ratio: f64,
}

/// Stores the vector of every sentence the queries pool (by the job, as ingestion does) and a
/// stand-in for every other sentence.
fn store_vectors(
    index: &SentenceIndex,
    encoder: &tally_encoder::Encoder,
    queries: &[String],
) -> anyhow::Result<StoredVectorFigures> {
    let defaults = SearchSettings::for_ranker(Ranker::Learned);
    let settings = SearchSettings {
        k: defaults.pool + tally_engine::search::rankers::WITHOUT_WORDS,
        ..defaults
    };
    let mut pooled = HashSet::new();
    for query in queries {
        let results = run_search(index, Some(encoder), query, &settings)?;
        pooled.extend(results.hits.iter().map(|h| h.id.clone()));
    }
    let never = AtomicBool::new(false);
    let pooled_only = |sentence: &StoredSentence| pooled.contains(&sentence.id);
    let control = FillControl {
        only: Some(&pooled_only),
        ..FillControl::until(&never)
    };
    let report = fill_vectors(index, encoder, control, |_| {})?;
    let mut others = Vec::new();
    index.visit_sentences(|_, sentence| {
        let key = vector_key(&sentence);
        if !index.vectors().contains(encoder.name(), key) {
            others.push(key);
        }
        ControlFlow::Continue(())
    })?;
    others.sort_unstable();
    others.dedup();
    let mut random = SplitMix64::new(76);
    for keys in others.chunks(50_000) {
        let vectors: Vec<Vec<f32>> = keys
            .iter()
            .map(|_| {
                (0..encoder.dimension())
                    .map(|_| random.unit() as f32 - 0.5)
                    .collect()
            })
            .collect();
        index.vectors().insert(encoder.name(), keys, &vectors)?;
    }
    let file = index.vectors().path().map_or(0.0, |path| {
        std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6)
    });
    Ok(StoredVectorFigures {
        encoded: report.progress.encoded,
        sentences_per_second: report.progress.sentences_per_second,
        stand_ins: others.len(),
        bytes_per_sentence: SentenceVectors::bytes_per_sentence(encoder.dimension()),
        file_megabytes: file,
        resident_growth_megabytes: 0.0,
        learned_p50_ratio: 0.0,
    })
}

/// The encoder's share of the learned ranker, measured apart: what a store holding each
/// sentence's vector from ingestion (docs/scale.md) would leave per query, and what it would
/// add per sentence ingested.
#[derive(Debug, Serialize)]
struct EncoderCost {
    /// Encoding the query alone, p50 / p95 over the queries and runs.
    query_p50_ms: f64,
    query_p95_ms: f64,
    /// Encoding sentences of the index in batches, as ingestion would.
    sentences_encoded: usize,
    sentences_per_second: f64,
}

#[derive(Debug, Serialize)]
struct SlowQuery {
    query: String,
    qbm25_ms: f64,
    bm25_ms: f64,
}

/// `tally bench search`.
pub(crate) fn bench(args: &BenchSearchArgs) -> anyhow::Result<()> {
    let dir = args
        .index
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("target/bench-search-index"));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .with_context(|| format!("could not clear {}", dir.display()))?;
    }
    let data = args.data.dir();
    let real = synthetic::real_documents(data.as_deref())?;
    let index = SentenceIndex::open_or_create(&dir)?;
    let started = Instant::now();
    let mut stats = index.add(&real)?;
    let real_sentences = stats.sentences;
    let target = args.sentences.max(real_sentences);
    let mut generator = synthetic::Generator::new(42);
    let mut generated = 0;
    while real_sentences + generated < target {
        let n = (target - real_sentences - generated).min(200_000);
        let documents: Vec<Document> = (0..n).map(|i| generator.document(generated + i)).collect();
        let more = index.add_unsplit(&documents)?;
        generated += more.sentences;
        stats.sentences += more.sentences;
        stats.quantities += more.quantities;
        stats.extraction_s += more.extraction_s;
        stats.indexing_s += more.indexing_s;
    }
    let ingest_seconds = started.elapsed().as_secs_f64();
    drop(index);

    let resident_before = crate::resident::Resident::now().total_mb;
    let index = SentenceIndex::open_or_create(&dir)?;
    let queries = synthetic::bench_queries(data.as_deref());
    let mut latency = Vec::new();
    // Per ranker, each query's p50 over the runs.
    let mut per_query_p50: Vec<Vec<f64>> = Vec::new();
    // Entity answers come from the same first stage as qbm25, over its larger pool, and read
    // their pool's sentences from the store.
    // The default ranker reads its pool with the encoder: timed last, beside the others.
    let encoder = match encoder_of(&args.models) {
        Ok((encoder, _)) => Some(encoder),
        Err(e) => {
            eprintln!("the learned ranker is not timed: {e:#}");
            None
        }
    };
    let mut rankers = vec![Ranker::Bm25, Ranker::Qbm25, Ranker::Entity];
    if encoder.is_some() {
        rankers.push(Ranker::Learned);
    }
    for ranker in rankers {
        let (figures, own_p50) =
            time_ranker(&index, encoder.as_deref(), &queries, ranker, args.runs)?;
        latency.push(figures);
        per_query_p50.push(own_p50);
    }
    let encoder_cost = match &encoder {
        Some(encoder) => Some(encoder_cost(encoder, &queries, &real, args.runs.max(1))?),
        None => None,
    };
    let resident_after = crate::resident::Resident::now().total_mb;
    let millions = index.len() as f64 / 1e6;
    let disk = directory_megabytes(&dir);
    // The default ranker again, reading vectors stored at ingestion.
    let stored_vectors = match &encoder {
        Some(encoder) => {
            let mut stored = store_vectors(&index, encoder, &queries)?;
            let (mut figures, _) =
                time_ranker(&index, Some(encoder), &queries, Ranker::Learned, args.runs)?;
            figures.ranker = "learned, stored vectors";
            let encoding = latency.iter().find(|l| l.ranker == Ranker::Learned.name());
            stored.learned_p50_ratio = encoding.map_or(f64::NAN, |l| l.p50_ms) / figures.p50_ms;
            latency.push(figures);
            stored.resident_growth_megabytes =
                crate::resident::Resident::now().total_mb - resident_after;
            Some(stored)
        }
        None => None,
    };
    let figures = SearchBenchFigures {
        sentences: index.len(),
        real_sentences,
        generated_sentences: generated,
        quantities: stats.quantities,
        ingest_seconds,
        extraction_seconds: stats.extraction_s,
        tantivy_seconds: stats.indexing_s,
        sentences_per_second: stats.sentences as f64 / ingest_seconds,
        disk_megabytes: disk,
        disk_megabytes_per_million: disk / millions,
        resident_megabytes_after_queries: resident_after,
        resident_growth_megabytes_per_million: (resident_after - resident_before) / millions,
        qbm25_to_bm25_p50: latency[1].p50_ms / latency[0].p50_ms,
        latency,
        slowest_qbm25: slowest(&queries, &per_query_p50[1], &per_query_p50[0], 5),
        encoder: encoder_cost,
        stored_vectors,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&figures)?);
    } else {
        print_search_bench(&figures);
    }
    Ok(())
}

/// `tally bench search`'s figures for people.
fn print_search_bench(f: &SearchBenchFigures) {
    println!(
        "indexed {} sentences ({} real, {} generated; {} quantities) in {:.1} s: {:.0} sentences/s \
         (splitting+extraction {:.1} s, tantivy {:.1} s)",
        f.sentences, f.real_sentences, f.generated_sentences, f.quantities, f.ingest_seconds,
        f.sentences_per_second, f.extraction_seconds, f.tantivy_seconds
    );
    println!(
        "disk {:.0} MB ({:.0} MB per million sentences); resident {:.0} MB after queries \
         (+{:.0} MB per million sentences for the open index)",
        f.disk_megabytes,
        f.disk_megabytes_per_million,
        f.resident_megabytes_after_queries,
        f.resident_growth_megabytes_per_million
    );
    for l in &f.latency {
        println!(
            "{:<6} {} queries × {} runs: p50 {:.2} ms, p95 {:.2} ms, mean {:.2} ms",
            l.ranker, l.queries, l.runs, l.p50_ms, l.p95_ms, l.mean_ms
        );
    }
    println!("qbm25 / bm25 p50: {:.2}×", f.qbm25_to_bm25_p50);
    if let Some(e) = &f.encoder {
        println!(
            "the learned ranker's encoder apart: the query alone p50 {:.2} ms, p95 {:.2} ms; {} \
             sentences encoded at {:.0} sentences/s ({:.1} h per million)",
            e.query_p50_ms,
            e.query_p95_ms,
            e.sentences_encoded,
            e.sentences_per_second,
            1e6 / e.sentences_per_second / 3600.0
        );
    }
    if let Some(v) = &f.stored_vectors {
        println!(
            "stored vectors: the job encoded the {} pooled sentences at {:.0} sentences/s ({:.1} h \
             per million), {} stand-ins for the others; {} bytes per sentence, {:.0} MB on disk, \
             +{:.0} MB resident; the default ranker {:.1}× faster at p50 reading them",
            v.encoded,
            v.sentences_per_second,
            1e6 / v.sentences_per_second.max(1e-9) / 3600.0,
            v.stand_ins,
            v.bytes_per_sentence,
            v.file_megabytes,
            v.resident_growth_megabytes,
            v.learned_p50_ratio
        );
    }
    println!("slowest qbm25 queries (p50 over the runs; bm25 on the same query):");
    for s in &f.slowest_qbm25 {
        println!(
            "  {:>7.2} ms (bm25 {:.2} ms)  {}",
            s.qbm25_ms, s.bm25_ms, s.query
        );
    }
}

/// One ranker's latency over the queries (a warm-up pass, then `runs` timed passes), and each
/// query's p50 over the runs.
fn time_ranker(
    index: &SentenceIndex,
    encoder: Option<&tally_encoder::Encoder>,
    queries: &[String],
    ranker: Ranker,
    runs: usize,
) -> anyhow::Result<(LatencyFigures, Vec<f64>)> {
    let settings = SearchSettings {
        ranker,
        ..SearchSettings::default()
    };
    for q in queries {
        run_search(index, encoder, q, &settings)?;
    }
    let runs = runs.max(1);
    let mut times = Vec::new();
    let mut per_query = vec![Vec::new(); queries.len()];
    for _ in 0..runs {
        for (q, own) in queries.iter().zip(&mut per_query) {
            let t = Instant::now();
            std::hint::black_box(run_search(index, encoder, q, &settings)?);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            times.push(ms);
            own.push(ms);
        }
    }
    times.sort_by(f64::total_cmp);
    let own_p50 = per_query
        .iter_mut()
        .map(|own| {
            own.sort_by(f64::total_cmp);
            tally_lab::statistics::percentile(own, 0.5)
        })
        .collect();
    let pick = |p: f64| tally_lab::statistics::percentile(&times, p);
    let figures = LatencyFigures {
        ranker: ranker.name(),
        queries: queries.len(),
        runs,
        p50_ms: pick(0.5),
        p95_ms: pick(0.95),
        mean_ms: times.iter().sum::<f64>() / times.len() as f64,
    };
    Ok((figures, own_p50))
}

/// Sentences encoded to measure the encoder's rate at ingestion.
const ENCODED_FOR_RATE: usize = 2000;

/// The encoder's cost on the queries alone and on the first [`ENCODED_FOR_RATE`] real
/// sentences.
fn encoder_cost(
    encoder: &tally_encoder::Encoder,
    queries: &[String],
    real: &[Document],
    runs: usize,
) -> anyhow::Result<EncoderCost> {
    let texts: Vec<String> = queries.iter().map(|q| encoder_text(q)).collect();
    let mut times = Vec::new();
    for _ in 0..runs {
        for text in &texts {
            let t = Instant::now();
            std::hint::black_box(encoder.embed_one(text)?);
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    let sentences: Vec<String> = real
        .iter()
        .flat_map(tally_documents::sentence_store::index::sentences_of)
        .take(ENCODED_FOR_RATE)
        .map(|s| s.text)
        .collect();
    let t = Instant::now();
    std::hint::black_box(encoder.embed(&sentences)?);
    Ok(EncoderCost {
        query_p50_ms: tally_lab::statistics::percentile(&times, 0.5),
        query_p95_ms: tally_lab::statistics::percentile(&times, 0.95),
        sentences_encoded: sentences.len(),
        sentences_per_second: sentences.len() as f64 / t.elapsed().as_secs_f64(),
    })
}

/// The `n` queries on which qbm25 is slowest.
fn slowest(queries: &[String], qbm25: &[f64], bm25: &[f64], n: usize) -> Vec<SlowQuery> {
    let mut order: Vec<usize> = (0..queries.len()).collect();
    order.sort_by(|&a, &b| qbm25[b].total_cmp(&qbm25[a]));
    order
        .into_iter()
        .take(n)
        .map(|i| SlowQuery {
            query: queries[i].clone(),
            qbm25_ms: qbm25[i],
            bm25_ms: bm25[i],
        })
        .collect()
}
