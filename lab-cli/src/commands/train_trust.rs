//! `tally train trust`: the answer gates fitted on the evaluations' features files (tuning half
//! only) and written where the engine embeds them; prints what each gate measured out of fold.

use crate::cli::TrainTrustArgs;
use tally_lab::trust::{read_lines, save, train, GateFigures, WRONG_SHARE};

/// Trains both gates and writes them to `args.out`.
pub(crate) fn train_trust(args: &TrainTrustArgs) -> anyhow::Result<()> {
    let lines = read_lines(&args.features)?;
    let (trust, figures) = train(&lines)?;
    println!(
        "{} lines read; gates fitted on the tuning half, bound for at most {:.0}% of all questions wrong (out of fold, 5 folds by document)",
        lines.len(),
        100.0 * WRONG_SHARE
    );
    println!(
        "{:<6} {:>9} {:>11} {:>6} {:>7} {:>11} {:>11} {:>8} {:>6}",
        "kind",
        "questions",
        "given/right",
        "gated",
        "bound",
        "kept right",
        "kept wrong",
        "logloss",
        "ECE"
    );
    for (kind, f) in ["count", "value"].iter().zip(&figures) {
        print_row(kind, f);
    }
    save(&trust, &args.out)?;
    println!("written to {}", args.out.display());
    Ok(())
}

fn print_row(kind: &str, f: &GateFigures) {
    let share = |n: usize| 100.0 * n as f64 / f.questions.max(1) as f64;
    println!(
        "{kind:<6} {:>9} {:>5}/{:<5} {:>6} {:>7.3} {:>5} {:>4.1}% {:>5} {:>4.1}% {:>8.3} {:>6.3}",
        f.questions,
        f.given,
        f.given_right,
        f.gated,
        f.bound,
        f.kept_right,
        share(f.kept_right),
        f.kept_wrong,
        share(f.kept_wrong),
        f.log_loss,
        f.ece
    );
}
