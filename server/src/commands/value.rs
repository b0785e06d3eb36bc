//! `tally value "QUESTION" [--json]`: one value with its evidence, answered by the service
//! the web app answers with, as `tally ask --mode value` and `GET /api/value` answer it (issue
//! 86: one route — a table's cell, then the quantities of the sentence index).

use std::time::Instant;

use anyhow::bail;
use tally_engine::value::significant;
use tally_types::AnswerBody;
use tally_types::ValueAnswer;

use crate::answering::{unobserved, Answerer};
use crate::cli::ValueArgs;

/// `tally value QUESTION`: one value with its evidence, through the answering service.
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
