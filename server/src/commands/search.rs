//! `tally search`: quantity-condition search from the command line.

use anyhow::bail;
use tally_engine::choices::SearchChoices;
use tally_engine::search::{search as run_search, SearchSettings};
use tally_types::SearchResults;

use crate::cli::{SearchArgs, SearchSettingsArgs};
use tally_setup::loading::{encoder_of, open_sentence_index};

/// Search settings from the command line (clap has read the choices' names).
pub fn search_settings(args: &SearchSettingsArgs) -> anyhow::Result<SearchSettings> {
    Ok(SearchChoices {
        ranker: args.ranker,
        alpha: args.alpha,
        k: args.k,
        sort: args.sort,
    }
    .settings()?)
}

/// `tally search "QUERY"`.
pub fn search(args: &SearchArgs) -> anyhow::Result<()> {
    if args.query.trim().is_empty() {
        bail!("the query is empty");
    }
    let settings = search_settings(&args.settings)?;
    let encoder = if settings.ranker.needs_encoder() {
        Some(encoder_of(&args.models)?.0)
    } else {
        None
    };
    let index = open_sentence_index(
        &args.sentences.search_index,
        args.sentences.data.dir().as_deref(),
    )?;
    let results = run_search(&index, encoder.as_deref(), &args.query, &settings)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&results)?);
    } else {
        print_results(&results);
    }
    Ok(())
}

/// Search results for people (`tally search`, `tally ask`).
pub fn print_results(results: &SearchResults) {
    println!("Query: {}", results.query);
    println!("  words: {}", results.understood.terms.join(", "));
    for c in &results.understood.constraints {
        println!(
            "  condition: {} (“{}”; {})",
            c.text, c.source, c.compared_as
        );
    }
    for note in &results.notes {
        println!("  note: {note}");
    }
    println!(
        "Ranker {} (α {}), {:.1} ms",
        results.ranker.name(),
        results.alpha,
        results.timings.total_ms
    );
    if !results.entities.is_empty() {
        for e in &results.entities {
            println!("{:>3}. {}  [{:.3}]", e.rank, e.entity, e.score);
            println!("       {}", highlighted(&e.evidence));
        }
        return;
    }
    for hit in &results.hits {
        let values: Vec<String> = hit
            .matches
            .iter()
            .map(|m| match &m.query_unit {
                Some(unit) => format!("{} = {} {unit}", m.surface, short(m.converted)),
                None => format!("{} = {}", m.surface, short(m.converted)),
            })
            .collect();
        println!(
            "{:>3}. [{:.3} | text {:.2} | quantity {:.2}] {}",
            hit.rank,
            hit.score,
            hit.text_score_normalised,
            hit.quantity_score,
            highlighted(hit)
        );
        if !values.is_empty() {
            println!("       {}", values.join("; "));
        }
        if !hit.also_in.is_empty() {
            println!("       also in {}", hit.also_in.join(", "));
        }
    }
}

/// The sentence with its matched quantities in ⟦brackets⟧.
fn highlighted(hit: &tally_types::search::results::Hit) -> String {
    let mut marks: Vec<(usize, usize)> = hit.matches.iter().map(|m| (m.start, m.end)).collect();
    marks.sort_unstable();
    marks.dedup();
    let mut out = String::new();
    for (i, c) in hit.text.chars().enumerate() {
        if marks.iter().any(|(s, _)| *s == i) {
            out.push('⟦');
        }
        if marks.iter().any(|(_, e)| *e == i) {
            out.push('⟧');
        }
        out.push(c);
    }
    if marks.iter().any(|(_, e)| *e == hit.text.chars().count()) {
        out.push('⟧');
    }
    out
}

fn short(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value:.3}")
    }
}
