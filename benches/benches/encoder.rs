//! Sentence-encoder throughput on CPU: sentences per second for batches of 1, 8 and 64 short
//! sentences. Needs the model (scripts/setup.sh); `TALLY_MODELS` points elsewhere.
//!
//!     cargo bench -p tally-benches --bench encoder

// `criterion_group!` writes an undocumented `pub fn`: the workspace's `missing_docs` is for
// libraries, not for this bench.
#![allow(missing_docs)]

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tally_encoder::device::Device;
use tally_encoder::{Encoder, ModelDir};

const SENTENCES: [&str; 8] = [
    "How many languages are spoken in Indonesia?",
    "John Lennon wrote 73 songs credited to Lennon-McCartney.",
    "There are about 700 living languages spoken in Indonesia.",
    "The BMW i8 costs about 138k Euros in Germany.",
    "Hawaii has eight main islands.",
    "Phones with a battery above 4000 mAh.",
    "The stadium has a capacity of 92,542.",
    "Companies with revenue between 1 and 5 billion dollars.",
];

fn encoder_throughput(c: &mut Criterion) {
    let models = std::env::var_os("TALLY_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models"));
    let dir = match ModelDir::resolve("all-MiniLM-L6-v2", &models) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("encoder benchmark skipped: {e}");
            return;
        }
    };
    let encoder = Encoder::load(&dir, Device::Cpu).expect("the model loads");

    let mut group = c.benchmark_group("encoder_cpu");
    for batch in [1usize, 8, 64] {
        let texts: Vec<&str> = SENTENCES.iter().cycle().take(batch).copied().collect();
        group.throughput(Throughput::Elements(batch as u64));
        group.bench_with_input(BenchmarkId::new("sentences", batch), &texts, |b, texts| {
            b.iter(|| encoder.embed(texts).expect("embedding works"))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = encoder_throughput
}
criterion_main!(benches);
