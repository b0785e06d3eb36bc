//! `tally eval feedback`: what judged answers teach, by simulation over a data set's questions
//! (see `tally_lab::count::feedback`). The questions are answered once from their stored
//! snippet sets; every setting (the share judged, the share of adversarial judgments, how the
//! operator reviews) is replayed over the same random draws of judged questions.

use anyhow::Context;
use tally_documents::corpus::datasets::{read_aliases, read_gold_instances};
use tally_documents::corpus::default_snippets::ingest_default;
use tally_documents::snippet_index::SnippetIndex;
use tally_engine::count::answer_support::SupportRule;
use tally_engine::count::instance_scorer::InstanceScorer;
use tally_engine::count::metrics::{ratio, relevance, InstanceScores};
use tally_engine::count::CountPipeline;
use tally_lab::count::eval::{replay_counts, EvalRetrieval, ReplayedQuestion};
use tally_lab::count::feedback::{judged_in_draw, simulate, FeedbackFigures, Operator, Visitors};
use tally_lab::count::instance_feedback::{simulate_instances, Candidate, InstanceQuestion, SHOWN};
use tally_types::CountSettings;
use tally_types::{FeedbackPart, Verdict};

use crate::cli::EvalFeedbackArgs;
use crate::commands::judged_instances::judged_index;
use crate::commands::train_instances::{candidate_rows, chosen_penalty, tuning_questions};
use tally_setup::loading::load_pipeline;
use tally_store::review::Judgment;

/// The shares of answers judged (the 10, 30 and 50%).
const JUDGED_SHARES: [f64; 3] = [0.1, 0.3, 0.5];
/// The shares of judgments that are adversarial.
const ADVERSARIAL_SHARES: [f64; 2] = [0.0, 0.2];

/// `tally eval feedback`: simulates visitors' judgments and an operator's review, and prints the figures of each setting.
pub(crate) fn eval(args: &EvalFeedbackArgs) -> anyhow::Result<()> {
    let (snippets, gold) = args.files()?;
    let pipeline = load_pipeline(&args.models)?;
    // The default corpus weighs question words by rarity, as when a person asks.
    let index = SnippetIndex::in_memory()?;
    ingest_default(&index, args.data.dir().as_deref())?;
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
    if let Some(path) = &args.write_judgments {
        write_judgments(path, &questions, &settings, shipped, args.seed)?;
    }
    if !args.json {
        println!(
            "{} questions with a gold count ({}); {} draws per setting; P/C (RP / coverage) \
             pooled over the draws",
            questions.len(),
            snippets.display(),
            args.draws
        );
        println!(
            "{:>6} {:>6} {:<16} {:>9} {:>9} {:>22} {:>32} {:>9}",
            "judged",
            "advers",
            "operator",
            "judgments",
            "acc.wrong",
            "judged: before → after",
            "unjudged: before → refit → after",
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
    eval_instances(args, &pipeline)
}

/// The instance half: NQ dev's questions with gold instances, their names marked by visitors,
/// the instance scorer refitted on its tuning rows and the marks.
fn eval_instances(args: &EvalFeedbackArgs, pipeline: &CountPipeline) -> anyhow::Result<()> {
    let data = args.data.dir();
    let index = judged_index(&args.work, data.as_deref(), &args.collection)?;
    let base = &args.settings.0;
    let tuning_questions = tuning_questions(&args.judged)?;
    let rows = candidate_rows(pipeline, &index, &tuning_questions, base)?;
    let (l2, _, _) = chosen_penalty(&rows, tuning_questions.len(), false)?;
    let tuning: Vec<(Vec<f64>, bool)> = rows
        .into_iter()
        .filter_map(|r| r.instance.map(|y| (r.features, y)))
        .collect();
    let shipped = InstanceScorer::builtin().context("the built-in instance scorer")?;
    let nq = data
        .context("no data directory: the instance simulation reads NQ dev's gold instances")?
        .join("coqex/natural_questions_dev");
    let gold = read_gold_instances(&nq.join("natural_questions_dev_instances.csv"))?;
    let aliases = read_aliases(&nq.join("aliases.csv"))?;
    let mut questions = Vec::new();
    for g in &gold {
        let gold_aliases: Vec<Vec<String>> = g
            .instances
            .iter()
            .map(|i| aliases.get(i).cloned().unwrap_or_else(|| vec![i.clone()]))
            .collect();
        let candidates = pipeline.instance_candidates(&index, &g.query, base)?;
        let names: Vec<String> = candidates.iter().map(|(i, _)| i.name.clone()).collect();
        let relevant = relevance(&names, &gold_aliases);
        questions.push(InstanceQuestion {
            candidates: candidates
                .into_iter()
                .zip(relevant)
                .map(|((_, features), gold)| Candidate { features, gold })
                .collect(),
            gold_instances: g.instances.len(),
        });
    }
    if !args.json {
        println!(
            "\ninstances: {} NQ dev questions with gold instances; visitors mark the top {SHOWN} \
             names; MRR / Hit@10 on the questions nobody judged, pooled over {} draws",
            questions.len(),
            args.draws
        );
        println!(
            "{:>6} {:>6} {:>11} {:>15} {:>15} {:>15} {:>15} {:>9}",
            "judged",
            "advers",
            "wrong marks",
            "shipped",
            "shipped learned",
            "retrained",
            "installed",
            "installed"
        );
    }
    for judged_share in JUDGED_SHARES {
        for adversarial_share in ADVERSARIAL_SHARES {
            let visitors = Visitors {
                judged_share,
                adversarial_share,
            };
            let f = simulate_instances(
                &questions,
                &tuning,
                &shipped.model,
                l2,
                visitors,
                args.draws,
                args.seed,
            );
            if args.json {
                println!("{}", serde_json::to_string(&f)?);
                continue;
            }
            let both = |s: &InstanceScores| format!("{:.3} / {:.1}", s.mrr, s.hit10);
            println!(
                "{:>5.0}% {:>5.0}% {:>11} {:>15} {:>15} {:>15} {:>15} {:>6}/{}",
                100.0 * judged_share,
                100.0 * adversarial_share,
                format!("{}/{}", f.wrong_marks, f.marks),
                both(&f.unjudged_shipped),
                both(&f.unjudged_shipped_learned),
                both(&f.unjudged_retrained),
                both(&f.unjudged_installed),
                f.installed,
                f.draws
            );
        }
    }
    Ok(())
}

/// The honest judgments of the answers judged in the first draw at 30%, in the export's format
/// (`GET /api/admin/judgments`): what `tally train support --judgments` reads.
fn write_judgments(
    path: &std::path::Path,
    questions: &[ReplayedQuestion],
    settings: &CountSettings,
    shipped: SupportRule,
    seed: u64,
) -> anyhow::Result<()> {
    let (judged, _) = judged_in_draw(questions.len(), 0.3, seed, 0);
    let mut lines = String::new();
    for q in judged {
        let question = &questions[q];
        let Some(count) = question.predict(settings, shipped).count else {
            continue;
        };
        let right = ratio(count, question.gold) >= 0.9;
        let judgment = Judgment {
            question: question.question.clone(),
            part: FeedbackPart::Answer,
            part_ref: None,
            verdict: if right {
                Verdict::Correct
            } else {
                Verdict::Wrong
            },
            corrected_value: (!right).then_some(question.gold),
            moved_to: None,
            tally_count: Some(count),
        };
        lines.push_str(&serde_json::to_string(&judgment)?);
        lines.push('\n');
    }
    std::fs::write(path, lines).with_context(|| format!("cannot write {}", path.display()))
}

fn print_row(f: &FeedbackFigures) {
    let pc = |s: &tally_engine::count::metrics::CountScores| format!("{:.1}", s.pc);
    println!(
        "{:>5.0}% {:>5.0}% {:<16} {:>9} {:>9} {:>22} {:>32} {:>6}/{}",
        100.0 * f.visitors.judged_share,
        100.0 * f.visitors.adversarial_share,
        f.operator.name(),
        f.judgments,
        format!("{}/{}", f.accepted_wrong, f.accepted),
        format!("{} → {}", pc(&f.judged_before), pc(&f.judged_after)),
        format!(
            "{} → {} → {}",
            pc(&f.unjudged_before),
            pc(&f.unjudged_retrained),
            pc(&f.unjudged_after)
        ),
        f.installed,
        f.draws
    );
}
