//! `tally eval …`: the evaluation commands. Each prints the metrics of the paper it follows.

use anyhow::Context;
use tally_engine::quantity::eval::{evaluate, read_gold};

use crate::cli::EvalExtractionArgs;

/// `tally eval extraction --gold FILE [--json] [--errors]`.
pub fn extraction(args: &EvalExtractionArgs) -> anyhow::Result<()> {
    let gold = read_gold(&args.gold).context("the gold file could not be used")?;
    let report = evaluate(&gold);
    if args.errors {
        for d in &report.differences {
            println!("{}", d.text);
            for m in &d.missed {
                println!("    missed   {m}");
            }
            for s in &d.spurious {
                println!("    extra    {s}");
            }
        }
        println!();
    }
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    println!(
        "{} sentences, {} gold quantities, {} extracted ({})",
        report.sentences,
        report.gold_quantities,
        report.predicted_quantities,
        args.gold.display()
    );
    println!("{:<14} {:>6} {:>6} {:>6}", "", "P", "R", "F1");
    let mut rows = vec![("value", report.value), ("value+unit", report.value_unit)];
    if let Some(change) = report.value_change {
        rows.push(("value+change", change));
    }
    for (name, prf) in rows {
        println!("{name:<14} {:>6.1} {:>6.1} {:>6.1}", prf.p, prf.r, prf.f1);
    }
    Ok(())
}
