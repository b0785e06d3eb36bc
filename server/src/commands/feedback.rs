//! `tally eval feedback`: what judged answers teach, by simulation over a data set's questions
//! (see `tally_engine::count::feedback`). The questions are answered once from their stored
//! snippet sets; every setting (the share judged, the share of adversarial judgments, how the
//! operator reviews) is replayed over the same random draws of judged questions.

use anyhow::Context;
use tally_engine::count::eval::{replay_counts, EvalRetrieval};
use tally_engine::count::feedback::{simulate, FeedbackFigures, Operator, Visitors};
use tally_engine::count::snippet_index::SnippetIndex;

use crate::cli::{data_dir_or_default, EvalFeedbackArgs};
use crate::loading::load_pipeline;
use tally_engine::corpus::default_snippets::ingest_default;

/// The shares of answers judged (the 10, 30 and 50%).
const JUDGED_SHARES: [f64; 3] = [0.1, 0.3, 0.5];
/// The shares of judgments that are adversarial.
const ADVERSARIAL_SHARES: [f64; 2] = [0.0, 0.2];

pub fn eval(args: &EvalFeedbackArgs) -> anyhow::Result<()> {
    let (snippets, gold) = args.files()?;
    let pipeline = load_pipeline(&args.models)?;
    // The default corpus weighs question words by rarity, as when a person asks.
    let index = SnippetIndex::in_memory()?;
    ingest_default(&index, data_dir_or_default(&args.data).as_deref())?;
    let (settings, questions) = replay_counts(
        &pipeline,
        &snippets,
        &gold,
        &args.settings.0,
        EvalRetrieval::Stored,
        &index,
    )
    .context("the snippet or gold file could not be used")?;
    let shipped = pipeline.support_rule(settings.scorer);
    if !args.json {
        println!(
            "{} questions with a gold count ({}); {} draws per setting; P/C (RP / coverage) \
             pooled over the draws",
            questions.len(),
            snippets.display(),
            args.draws
        );
        println!(
            "{:>6} {:>6} {:<16} {:>9} {:>9} {:>22} {:>22} {:>9}",
            "judged",
            "advers",
            "operator",
            "judgments",
            "acc.wrong",
            "judged: before → after",
            "unjudged: before → after",
            "installed"
        );
    }
    for judged_share in JUDGED_SHARES {
        for adversarial_share in ADVERSARIAL_SHARES {
            for operator in Operator::ALL {
                let visitors = Visitors {
                    judged_share,
                    adversarial_share,
                };
                let figures = simulate(
                    &questions, &settings, shipped, visitors, operator, args.draws, args.seed,
                );
                if args.json {
                    println!("{}", serde_json::to_string(&figures)?);
                } else {
                    print_row(&figures);
                }
            }
        }
    }
    Ok(())
}

fn print_row(f: &FeedbackFigures) {
    let pc = |s: &tally_engine::count::metrics::CountScores| format!("{:.1}", s.pc);
    println!(
        "{:>5.0}% {:>5.0}% {:<16} {:>9} {:>9} {:>22} {:>22} {:>6}/{}",
        100.0 * f.visitors.judged_share,
        100.0 * f.visitors.adversarial_share,
        f.operator.name(),
        f.judgments,
        format!("{}/{}", f.accepted_wrong, f.accepted),
        format!("{} → {}", pc(&f.judged_before), pc(&f.judged_after)),
        format!("{} → {}", pc(&f.unjudged_before), pc(&f.unjudged_after)),
        f.installed,
        f.draws
    );
}
