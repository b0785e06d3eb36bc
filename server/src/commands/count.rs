//! A count answer printed for people (`tally ask`).

use tally_types::{CnpGroup, CountAnswer};

/// The count's probability of being right, as the page says it; "not sure" when a reading was
/// declined (issue 87).
fn print_certainty(a: &CountAnswer) {
    let Some(certainty) = a.certainty else {
        return;
    };
    match (a.count, certainty.reading) {
        (None, Some(reading)) => println!(
            "  not sure: closest reading {reading}, {}",
            certainty.sentence()
        ),
        _ => println!("  {}", certainty.sentence()),
    }
}

/// A count answer for people (`tally ask`).
pub(super) fn print_answer(a: &CountAnswer) {
    println!("{}", a.question);
    // Computed over a table's rows: the result, how, and the rows taken.
    if let Some(aggregation) = &a.aggregation {
        match a.count {
            Some(_) => println!("  {}", aggregation.headline()),
            None => println!("  {}", a.abstention.as_deref().unwrap_or("no result")),
        }
        print_certainty(a);
        println!("  {}", aggregation.explanation());
        for row in aggregation.rows.iter().filter(|r| r.taken) {
            println!("    {}", row.cells.join(" | "));
        }
        return;
    }
    match (a.count, &a.cnp_rep) {
        (Some(count), Some(rep)) => println!(
            "  count: {count} (\"{}\", agreement {:.0}%)",
            rep.text,
            100.0 * a.confidence
        ),
        (Some(count), None) => println!("  count: {count}"),
        _ => match &a.abstention {
            Some(reason) => println!("  {reason}"),
            None => println!("  no count found"),
        },
    }
    print_certainty(a);
    println!(
        "  {} snippets ({}), threshold used {:.1}, answer type \"{}\"",
        a.snippets.len(),
        a.retrieval.name(),
        a.threshold_used,
        a.analysis.answer_type
    );
    for (name, group) in [
        (CnpGroup::Synonyms.name(), &a.groups.synonyms),
        (CnpGroup::Subgroups.name(), &a.groups.subgroups),
        (CnpGroup::Incomparables.name(), &a.groups.incomparables),
    ] {
        if !group.is_empty() {
            let items: Vec<String> = group
                .iter()
                .take(6)
                .map(|c| format!("\"{}\" ({:.2})", c.text, c.confidence))
                .collect();
            println!("  {name}: {}", items.join(", "));
        }
    }
    if !a.instances.is_empty() {
        let items: Vec<String> = a
            .instances
            .iter()
            .take(10)
            .map(|i| format!("{} ({:.2})", i.name, i.score))
            .collect();
        println!("  instances: {}", items.join(", "));
    }
    let timings: Vec<String> = a
        .timings
        .iter()
        .map(|t| format!("{} {:.1} ms", t.stage, t.ms))
        .collect();
    println!("  timings: {}", timings.join(", "));
}
