//! `tally value "QUESTION" [--json]`: one value with its evidence, from the quantities of the
//! sentence index (the default corpus when it is empty).

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context};
use tally_engine::value::{answer, parse_question, significant, ValueAnswer, ValueSettings};

use crate::cli::ValueArgs;
use tally_lab::cli::bench::BenchValueArgs;
use tally_setup::loading::open_sentence_index;

pub fn value(args: &ValueArgs) -> anyhow::Result<()> {
    answer_and_print(
        &args.question,
        &args.sentences.search_index,
        args.sentences.data.dir().as_deref(),
        args.json,
    )
}

/// Answers a value question over the sentence index at `search_index` (filled from `data` when
/// empty) and prints the answer, as JSON or for people. `tally ask` uses it for value questions.
pub fn answer_and_print(
    question: &str,
    search_index: &Path,
    data: Option<&Path>,
    json: bool,
) -> anyhow::Result<()> {
    if question.trim().is_empty() {
        bail!("the question is empty");
    }
    let started = Instant::now();
    let index = open_sentence_index(search_index, data)?;
    let opened = started.elapsed();
    let started = Instant::now();
    let found = answer(
        &parse_question(question),
        index.observations(),
        &ValueSettings::default(),
    )?;
    let answered = started.elapsed();
    if json {
        println!("{}", serde_json::to_string_pretty(&found)?);
        return Ok(());
    }
    print_answer(&found);
    println!(
        "  {} observations in {} sentences, opened in {:.0} ms; answered in {:.1} ms",
        index.observations().len(),
        index.len(),
        opened.as_secs_f64() * 1e3,
        answered.as_secs_f64() * 1e3
    );
    Ok(())
}

/// A value answer for people (`tally value`, `tally ask`).
pub fn print_answer(found: &ValueAnswer) {
    println!("{}", found.question.text);
    if let Some(cue) = &found.question.dimension_cue {
        println!(
            "  asks for a {} (“{cue}”)",
            found.question.dimension.as_deref().unwrap_or("value")
        );
    }
    match found.value {
        Some(v) => {
            println!(
                "  answer: {} {}{}",
                significant(v),
                found.unit.as_deref().unwrap_or(""),
                found
                    .representative
                    .as_deref()
                    .map(|r| format!(" (as written: “{r}”)"))
                    .unwrap_or_default()
            );
            let others: Vec<String> = found
                .units
                .iter()
                .skip(1)
                .map(|u| format!("{} {}", significant(u.convert(v)), u.unit))
                .collect();
            if !others.is_empty() {
                println!("  = {}", others.join(" = "));
            }
        }
        None => println!("  no answer"),
    }
    if let Some(why) = &found.not_sure {
        println!("  not sure: {why}");
    }
    if let Some(note) = &found.note {
        println!("  note: {note}");
    }
    for o in &found.observations {
        println!(
            "  [{:<7}] {:.2} “{}” — {}{}",
            o.group.name(),
            o.weight,
            o.surface,
            o.text,
            o.description
                .year
                .map(|y| format!(" ({y})"))
                .unwrap_or_default()
        );
    }
}

/// `tally bench value`: each question's latency over the sentence index's observations.
pub fn bench(args: &BenchValueArgs) -> anyhow::Result<()> {
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
    let pick = |p: f64| tally_lab::commands::bench::percentile(&times, p);
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
