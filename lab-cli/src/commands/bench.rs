//! `tally bench …`: speed figures printed by the binary itself, so they can be compared with a
//! peer tool in the same run (see `scripts/bench-quantulum.sh`).

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context};
use serde::Serialize;
use tally_lab::quantity::eval::read_gold;

use crate::cli::bench::BenchExtractionArgs;

#[derive(Debug, Serialize)]
struct ExtractionFigures {
    sentences: usize,
    unique_sentences: usize,
    seconds: f64,
    sentences_per_second: f64,
    megabytes_per_second: f64,
    quantities: usize,
    /// Seconds per megabyte for one text of each size: flat when extraction is linear.
    single_texts: Vec<SingleText>,
}

#[derive(Debug, Serialize)]
struct SingleText {
    bytes: usize,
    seconds_per_megabyte: f64,
}

/// `tally bench extraction`: runs on the calling thread only (one core). Times
/// `extract_in_context`, the reading that `eval extraction` scores.
pub(crate) fn extraction(args: &BenchExtractionArgs) -> anyhow::Result<()> {
    let unique = read_sentences(&args.sentences_from)?;
    if unique.is_empty() {
        bail!("{} holds no sentences", args.sentences_from.display());
    }
    let total = args.sentences.max(1);
    let sentences: Vec<&str> = unique
        .iter()
        .map(String::as_str)
        .cycle()
        .take(total)
        .collect();
    let bytes: usize = sentences.iter().map(|s| s.len()).sum();

    // Warm up (unit table, allocator), then time the whole stream.
    for s in &unique {
        black_box(tally_text::quantity::extract_in_context(s));
    }
    let started = Instant::now();
    let mut quantities = 0;
    for s in &sentences {
        quantities += black_box(tally_text::quantity::extract_in_context(s)).len();
    }
    let seconds = started.elapsed().as_secs_f64();

    let joined = unique.join(" ");
    let mut single_texts = Vec::new();
    for size in [1 << 10, 100 << 10, 10 << 20] {
        let text = text_of_size(&joined, size);
        let rounds = (4 << 20) / size + 1;
        let started = Instant::now();
        for _ in 0..rounds {
            black_box(tally_text::quantity::extract_in_context(&text));
        }
        let elapsed = started.elapsed().as_secs_f64();
        single_texts.push(SingleText {
            bytes: text.len(),
            seconds_per_megabyte: elapsed / (rounds as f64 * text.len() as f64 / 1e6),
        });
    }

    let figures = ExtractionFigures {
        sentences: total,
        unique_sentences: unique.len(),
        seconds,
        sentences_per_second: total as f64 / seconds,
        megabytes_per_second: bytes as f64 / 1e6 / seconds,
        quantities,
        single_texts,
    };
    if args.json {
        println!("{}", serde_json::to_string(&figures)?);
    } else {
        println!(
            "extraction, one core: {} sentences ({} unique) in {:.3} s = {:.0} sentences/s, {:.1} MB/s, {} quantities",
            figures.sentences,
            figures.unique_sentences,
            figures.seconds,
            figures.sentences_per_second,
            figures.megabytes_per_second,
            figures.quantities
        );
        for t in &figures.single_texts {
            println!(
                "single text of {:>9} bytes: {:.4} s per MB",
                t.bytes, t.seconds_per_megabyte
            );
        }
    }
    Ok(())
}

/// Sentences of a NewsQuant-format gold file, or the lines of a text file.
fn read_sentences(path: &Path) -> anyhow::Result<Vec<String>> {
    if path.extension().is_some_and(|e| e == "json") {
        let gold = read_gold(path)?;
        return Ok(gold.into_iter().map(|s| s.text).collect());
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read sentences from {}", path.display()))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

/// `source` repeated and cut (at a character boundary) to about `size` bytes.
fn text_of_size(source: &str, size: usize) -> String {
    let mut text = String::with_capacity(size + source.len());
    while text.len() < size {
        text.push_str(source);
        text.push(' ');
    }
    let mut cut = size;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    text
}
