//! `tally-lab bench value`: each value question's latency over the sentence index.

use std::time::Instant;

use crate::cli::bench::BenchValueArgs;
use anyhow::Context;
use tally_engine::value::{answer, parse_question, ValueSettings};
use tally_setup::loading::open_sentence_index;

/// `tally bench value`: each question's latency over the sentence index's observations.
pub(crate) fn bench(args: &BenchValueArgs) -> anyhow::Result<()> {
    let data = args
        .sentences
        .data
        .dir()
        .context("the data directory is needed for the benchmark's questions (--data)")?;
    let index = open_sentence_index(&args.sentences.search_index, Some(&data))?;
    let judged = data.join(tally_documents::corpus::catalogue::QSEARCH.path);
    let (_, questions) = tally_lab::value::eval::build(&judged)
        .context("the benchmark's questions could not be built")?;
    let settings = ValueSettings::default();
    let mut times = Vec::with_capacity(questions.len() * args.runs.max(1));
    for _ in 0..args.runs.max(1) {
        for q in &questions {
            let t = Instant::now();
            let question = parse_question(&q.question);
            std::hint::black_box(answer(&question, index.observations(), &settings)?);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    let pick = |p: f64| tally_lab::statistics::percentile(&times, p);
    let figures = serde_json::json!({
        "sentences": index.len(),
        "observations": index.observations().len(),
        "questions": questions.len(),
        "runs": args.runs.max(1),
        "p50_ms": pick(0.5),
        "p95_ms": pick(0.95),
    });
    if args.json {
        println!("{figures}");
    } else {
        println!(
            "value questions over {} sentences ({} observations): {} questions × {} runs, p50 {:.3} ms, p95 {:.3} ms",
            index.len(),
            index.observations().len(),
            questions.len(),
            args.runs.max(1),
            pick(0.5),
            pick(0.95)
        );
    }
    Ok(())
}
