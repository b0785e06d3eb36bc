//! `tally value "QUESTION" [--json]`: one value with its evidence, from the quantities of the
//! sentence index (the default corpus when it is empty).

use std::time::Instant;

use anyhow::bail;
use tally_engine::value::{
    answer, parse_question, DescriptionIndex, ObservationGroup, ValueSettings,
};

use super::search::open_search_index;
use crate::cli::{data_dir_or_default, ValueArgs};

pub fn value(args: &ValueArgs) -> anyhow::Result<()> {
    if args.question.trim().is_empty() {
        bail!("the question is empty");
    }
    let index = open_search_index(
        &args.sentences.search_index,
        data_dir_or_default(&args.sentences.data).as_deref(),
    )?;
    let started = Instant::now();
    let sentences = index.all_sentences()?;
    let descriptions = DescriptionIndex::build(&sentences);
    let built = started.elapsed();
    let started = Instant::now();
    let question = parse_question(&args.question);
    let found = answer(
        &question,
        &descriptions,
        &sentences,
        &ValueSettings::default(),
    );
    let answered = started.elapsed();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&found)?);
        return Ok(());
    }
    println!("{}", found.question.text);
    if let Some(cue) = &found.question.dimension_cue {
        println!(
            "  asks for a {} (“{cue}”)",
            found.question.dimension.as_deref().unwrap_or("value")
        );
    }
    match found.value {
        Some(v) => println!(
            "  answer: {} {}{}",
            round(v),
            found.unit.as_deref().unwrap_or(""),
            found
                .representative
                .as_deref()
                .map(|r| format!(" (as written: “{r}”)"))
                .unwrap_or_default()
        ),
        None => println!("  no answer"),
    }
    if let Some(note) = &found.note {
        println!("  note: {note}");
    }
    for o in &found.observations {
        let group = match o.group {
            ObservationGroup::Agrees => "agrees",
            ObservationGroup::Differs => "differs",
            ObservationGroup::Apart => "apart",
        };
        println!(
            "  [{group:<7}] {:.2} “{}” — {}{}",
            o.weight,
            o.surface,
            o.text,
            o.description
                .year
                .map(|y| format!(" ({y})"))
                .unwrap_or_default()
        );
    }
    println!(
        "  {} observations in {} sentences described in {:.0} ms; answered in {:.1} ms",
        descriptions.len(),
        sentences.len(),
        built.as_secs_f64() * 1e3,
        answered.as_secs_f64() * 1e3
    );
    Ok(())
}

/// Four significant digits, as a person reads a measurement.
fn round(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return v.to_string();
    }
    let digits = 4 - (v.abs().log10().floor() as i32 + 1);
    let factor = 10f64.powi(digits.max(0));
    format!("{}", (v * factor).round() / factor)
}
