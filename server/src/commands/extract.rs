//! `tally extract "TEXT" [--json]`: the quantities Tally reads in a text (or in each line of
//! standard input), with value, unit, dimension, change, span and concept words.

use std::io::BufRead;

use anyhow::{bail, Context};
use serde::Serialize;
use tally_text::offsets::char_offset;
use tally_text::quantity::concept::concept_words;
use tally_text::quantity::{extract_in_context, Quantity, Value};

use crate::cli::ExtractArgs;

/// A quantity as `tally extract` shows it.
#[derive(Debug, Serialize)]
struct Found {
    /// As written.
    surface: String,
    /// Character offsets in the text.
    start: usize,
    end: usize,
    value: Value,
    unit: Option<String>,
    dimension: Option<String>,
    change: &'static str,
    concept: Vec<String>,
}

#[derive(Debug, Serialize)]
struct Document {
    text: String,
    quantities: Vec<Found>,
}

/// `tally extract [TEXT]`: the quantities Tally reads in a text, or in each line of standard input.
pub fn extract_command(args: &ExtractArgs) -> anyhow::Result<()> {
    let texts: Vec<String> = match args.text.as_deref() {
        Some("-") | None => std::io::stdin()
            .lock()
            .lines()
            .collect::<Result<_, _>>()
            .context("standard input could not be read")?,
        Some(text) => vec![text.to_string()],
    };
    if texts.iter().all(|t| t.trim().is_empty()) {
        bail!("give a text to read quantities from (an argument, or lines on standard input)");
    }
    for text in texts.iter().filter(|t| !t.trim().is_empty()) {
        let document = Document {
            text: text.clone(),
            quantities: extract_in_context(text)
                .iter()
                .map(|q| found(text, q))
                .collect(),
        };
        if args.json {
            println!("{}", serde_json::to_string(&document)?);
        } else {
            print(&document);
        }
    }
    Ok(())
}

fn found(text: &str, quantity: &Quantity) -> Found {
    let unit = quantity.unit.as_ref();
    Found {
        surface: text[quantity.span.clone()].to_string(),
        start: char_offset(text, quantity.span.start),
        end: char_offset(text, quantity.span.end),
        value: quantity.value,
        // The name already ends with its "per" part ("dollar per barrel").
        unit: unit.map(|u| u.name.clone()),
        dimension: unit.and_then(|u| u.dimension.clone()),
        change: quantity.change.symbol(),
        concept: concept_words(text, quantity),
    }
}

fn print(document: &Document) {
    println!("{}", document.text);
    if document.quantities.is_empty() {
        println!("  no quantity found");
    }
    for (i, q) in document.quantities.iter().enumerate() {
        let value = match q.value {
            Value::Single(v) => v.to_string(),
            Value::Range { from, to } => format!("{from} to {to}"),
        };
        println!(
            "  {}. “{}” [{}..{}]: {} {}{}, change {}{}",
            i + 1,
            q.surface,
            q.start,
            q.end,
            value,
            q.unit.as_deref().unwrap_or("(no unit)"),
            q.dimension
                .as_deref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default(),
            q.change,
            if q.concept.is_empty() {
                String::new()
            } else {
                format!("; about: {}", q.concept.join(", "))
            }
        );
    }
}
