//! `tally value "QUESTION" [--json]`: one value with its evidence, answered by the service
//! the web app answers with, as `tally ask --mode value` and `GET /api/value` answer it (issue
//! 86: one route — a table's cell, then the quantities of the sentence index).

use std::time::Instant;

use anyhow::{bail, Context};
use tally_engine::value::{answer, parse_question, significant, ValueAnswer, ValueSettings};
use tally_types::AnswerBody;

use crate::answering::{unobserved, Answerer};
use crate::cli::ValueArgs;
use tally_lab::cli::bench::BenchValueArgs;
use tally_setup::loading::open_sentence_index;

pub async fn value(args: &ValueArgs) -> anyhow::Result<()> {
    let answerer = Answerer::new(1, 0);
    let checked = answerer.check(&args.asked())?;
    let started = Instant::now();
    super::service::load_for_values(&answerer, &args.models, &args.snippets, &args.search_index)
        .await?;
    let opened = started.elapsed();
    let started = Instant::now();
    let answered = answerer.answer_checked(&checked, unobserved()).await?;
    let took = started.elapsed();
    let AnswerBody::Value(found) = answered.answer else {
        bail!("the question was not answered as a value question");
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&found)?);
        return Ok(());
    }
    print_answer(&found);
    println!(
        "  loaded in {:.0} ms; answered in {:.1} ms",
        opened.as_secs_f64() * 1e3,
        took.as_secs_f64() * 1e3
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
    if let Some(certainty) = found.certainty {
        println!("  {}", certainty.sentence());
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
