//! `tally eval candidates`: the candidates' oracle recall on WikiTableQuestions (issue 98);
//! `tally-lab train ranker` and `tally-lab eval tables`: the ranker that chooses among them
//! (issue 99).

use anyhow::{bail, Context};
use tally_engine::candidates::rank::{Ranker, Scorer};

use crate::cli::bench::BenchCandidatesArgs;
use crate::cli::{EvalCandidatesArgs, EvalTablesArgs, TrainRankerArgs};
use tally_lab::candidates::boost::Boosting;
use tally_lab::candidates::ranker::{self, Bounds, Training};
use tally_lab::candidates::{
    evaluate, evaluate_collection, numeric_questions, read_collection, Report, Split,
};
use tally_lab::collection::Half;
use tally_lab::statistics::{clopper_pearson_upper, quantile};

/// Runs `tally eval candidates`.
pub(crate) fn eval(args: &EvalCandidatesArgs) -> anyhow::Result<()> {
    if let Some(dir) = &args.collection {
        let (corpus, questions) = read_collection(dir)?;
        let report = evaluate_collection(&corpus, &questions);
        if !args.json {
            println!(
                "{}: {} tables, {} passages",
                dir.display(),
                corpus.tables.tables().len(),
                corpus.passages.len()
            );
        }
        return show(&report, args);
    }
    if args.misses > 0 && args.split == Split::Dev {
        bail!(
            "misses are printed for the train split only (--split train): the dev split measures"
        );
    }
    let mut questions = numeric_questions(&args.wtq, args.split)?;
    if let Some(limit) = args.limit {
        questions.truncate(limit);
    }
    let report = evaluate(&args.wtq, &questions, args.split, args.format, args.control)?;
    show(&report, args)
}

fn show(report: &Report, args: &EvalCandidatesArgs) -> anyhow::Result<()> {
    if args.json {
        println!("{}", serde_json::to_string_pretty(report)?);
        return Ok(());
    }
    print_report(report, args.misses);
    Ok(())
}

fn print_report(report: &Report, misses: usize) {
    println!(
        "oracle recall: the right answer among the candidates (questions whose answer is a number)"
    );
    println!(
        "{:<24} {:>9} {:>7} {:>8} {:>9} {:>9} {:>8}",
        "group", "questions", "found", "recall", "cand p50", "cand p95", "no table"
    );
    for (name, group) in &report.groups {
        println!(
            "{:<24} {:>9} {:>7} {:>7.1}% {:>9} {:>9} {:>8}",
            name,
            group.questions,
            group.found,
            100.0 * group.recall(),
            group.candidates_at(0.5),
            group.candidates_at(0.95),
            group.no_table
        );
    }
    let mut millis = report.millis.clone();
    millis.sort_by(f64::total_cmp);
    let at = |q: f64| quantile(&millis, q);
    println!(
        "enumeration per question: p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        at(0.5),
        at(0.95),
        at(1.0)
    );
    for miss in report.misses.iter().take(misses) {
        println!(
            "miss {} [{}] {} => {} ({} candidates)",
            miss.id, miss.context, miss.question, miss.answer, miss.candidates
        );
    }
}

/// Runs `tally bench candidates`.
pub(crate) fn bench(args: &BenchCandidatesArgs) -> anyhow::Result<()> {
    let report = tally_lab::candidates::bench(&args.wtq, args.split, args.tables, args.questions)?;
    let show = |name: &str, ms: &[f64], found: usize| {
        println!(
            "{name:<28} p50 {:>8.2} ms  p95 {:>8.2} ms  max {:>8.2} ms  recall {:>5.1}%",
            quantile(ms, 0.5),
            quantile(ms, 0.95),
            quantile(ms, 1.0),
            100.0 * found as f64 / report.questions.max(1) as f64
        );
    };
    println!(
        "candidates of {} questions over {} tables (WikiTableQuestions, read by Tally); the corpus made ready once in {:.0} ms",
        report.questions, report.tables, report.prepared_ms
    );
    show(
        "over the whole corpus",
        &report.corpus_ms,
        report.corpus_found,
    );
    show(
        "over its own table (peer)",
        &report.own_ms,
        report.own_found,
    );
    println!(
        "ratio of p50s: {:.1}x",
        quantile(&report.corpus_ms, 0.5) / quantile(&report.own_ms, 0.5).max(1e-9)
    );
    println!(
        "{:<28} p50 {:>8.2} ms  p95 {:>8.2} ms  max {:>8.2} ms  best right {:>5.1}%",
        "ranking them (issue 99)",
        quantile(&report.rank_ms, 0.5),
        quantile(&report.rank_ms, 0.95),
        quantile(&report.rank_ms, 1.0),
        100.0 * report.ranked_right as f64 / report.questions.max(1) as f64
    );
    println!(
        "ranking / enumeration, p50: {:.2}x",
        quantile(&report.rank_ms, 0.5) / quantile(&report.corpus_ms, 0.5).max(1e-9)
    );
    Ok(())
}

/// Runs `tally-lab train ranker`: the ranker trained on the train split, written to `--out`.
pub(crate) fn train_ranker(args: &TrainRankerArgs) -> anyhow::Result<()> {
    let mut questions = numeric_questions(&args.wtq, Split::Train)?;
    if let Some(limit) = args.limit {
        questions.truncate(limit);
    }
    let mut examples = ranker::examples(
        &args.wtq,
        &questions,
        tally_lab::candidates::TableFormat::Csv,
    )?;
    for dir in &args.collection {
        let (corpus, questions) = read_collection(dir)?;
        warn_without_readers(dir, &corpus);
        let tuning: Vec<_> = questions
            .into_iter()
            .filter(|q| q.half == Half::Tuning)
            .collect();
        examples.extend(ranker::collection_examples(&corpus, &tuning));
    }
    let training = Training {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        collection_weight: args.collection_weight,
        boosting: Boosting {
            trees: args.trees,
            depth: args.depth,
            shrinkage: args.shrinkage,
            min_rows: args.min_rows,
            min_support: args.min_support,
            ..Boosting::default()
        },
    };
    let bounds = Bounds {
        tables_wrong: args.max_wrong,
        sure_wrong: args.sure_wrong,
    };
    let (model, held) = ranker::train_ranker(&examples, args.folds, bounds, training);
    let share = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    println!(
        "out of fold ({} folds by table or document): top-1 {:.1}% (in sample {:.1}%)",
        args.folds,
        share(held.top_right, held.questions),
        share(held.fitted, held.questions),
    );
    println!(
        "  WikiTableQuestions ({} questions): at the bound {:.3}, {:.1}% right, {:.1}% wrong",
        held.tables_questions,
        model.bound,
        share(held.right, held.tables_questions),
        share(held.wrong, held.tables_questions)
    );
    println!(
        "  collections' tuning halves ({} questions): sure from {:.3}, {} right, {} wrong \
         (95% upper bound on the wrong share {:.1}%)",
        held.documents_questions,
        model.sure_from,
        held.sure_right,
        held.sure_wrong,
        100.0 * clopper_pearson_upper(held.sure_wrong, held.sure_right + held.sure_wrong, 0.95)
    );
    println!(
        "trained on {} questions ({} with the answer among the candidates): {} weights, {} \
         trees, curve slope {:.3}, intercept {:.3}",
        examples.len(),
        examples
            .iter()
            .filter(|e| e.positive.iter().any(|p| *p))
            .count(),
        model.weights.len(),
        model.trees.len(),
        model.slope,
        model.intercept,
    );
    if let Some(curve) = model.several_documents {
        println!(
            "  over several documents: curve slope {:.3}, intercept {:.3}",
            curve.slope, curve.intercept
        );
    }
    println!(
        "  the collections' tuning halves out of fold: best candidate right for {} of {} \
         answerable ({:.1}%); given from each bound:",
        held.documents_top_right,
        held.documents_answerable,
        share(held.documents_top_right, held.documents_answerable)
    );
    for (bound, right, wrong) in &held.documents_at {
        println!(
            "    from {bound:.2}: {right} right, {wrong} wrong (95% upper bound {:.1}%)",
            100.0 * clopper_pearson_upper(*wrong, right + wrong, 0.95)
        );
    }
    for miss in held.misses.iter().take(args.misses) {
        println!("miss: {miss}");
    }
    if args.dry_run {
        return Ok(());
    }
    let json = serde_json::to_string(&model)?;
    std::fs::write(&args.out, json + "\n")
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("written to {}", args.out.display());
    Ok(())
}

/// Says when a collection lacks what the readers answered: its questions are then ranked
/// without the readers' features.
fn warn_without_readers(dir: &std::path::Path, corpus: &tally_lab::candidates::Corpus) {
    if !corpus.readers_logged {
        eprintln!(
            "warning: {} has no readers.jsonl: its questions are ranked without what the \
             readers answered (write it with `tally-lab eval own-documents --documents-only \
             --readers-answers FILE` or `tally-lab eval aggregations --readers-answers FILE`)",
            dir.display()
        );
    }
}

/// `tally-lab eval tables`: the ranker's answers, right, wrong and declined, per question type
/// on WikiTableQuestions or per half, kind and format on a collection.
pub(crate) fn eval_tables(args: &EvalTablesArgs) -> anyhow::Result<()> {
    let loaded;
    let scorer = match &args.model {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let model: Ranker = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a candidate ranker", path.display()))?;
            loaded = Scorer::new(model);
            &loaded
        }
        None => Scorer::shipped(),
    };
    let (examples, bound) = match &args.collection {
        Some(dir) => {
            let (corpus, questions) = read_collection(dir)?;
            warn_without_readers(dir, &corpus);
            let examples = ranker::collection_examples(&corpus, &questions);
            (examples, scorer.ranker.sure_from)
        }
        None => {
            let mut questions = numeric_questions(&args.wtq, args.split)?;
            if let Some(limit) = args.limit {
                questions.truncate(limit);
            }
            let examples = ranker::examples(&args.wtq, &questions, args.format)?;
            (examples, scorer.ranker.bound)
        }
    };
    let report = ranker::evaluate(&examples, scorer, bound);
    // A collection's calibration is measured on its test half: the model and its curves were
    // fitted on the tuning half.
    let calibration = match &args.collection {
        Some(_) => {
            let test: Vec<ranker::Example> = examples
                .into_iter()
                .filter(|e| e.origin == ranker::Origin::Collection(Half::Test))
                .collect();
            ranker::evaluate(&test, scorer, bound)
        }
        None => report.clone(),
    };
    if args.json {
        // The groups over every question; the calibration as the text prints it.
        let json = serde_json::json!({
            "groups": report.groups,
            "ece": calibration.ece,
            "reliability": calibration.reliability,
            "sure_right_share": calibration.sure_right_share,
            "calibration_over": if args.collection.is_some() { "test half" } else { "all" },
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    match &args.collection {
        Some(dir) => println!(
            "the candidate ranker on {} (each question over all its documents); given as sure \
             when the calibrated probability is at least {bound:.3}",
            dir.display()
        ),
        None => println!(
            "the candidate ranker on WikiTableQuestions {:?} (questions with a number for \
             answer, each over its own table); given when the calibrated probability is at \
             least {bound:.3}",
            args.split
        ),
    }
    println!(
        "{:<36} {:>9} {:>10} {:>8} {:>8} {:>9} {:>10} {:>11}",
        "group",
        "questions",
        "answerable",
        "right %",
        "wrong %",
        "declined",
        "top-1 %",
        "reachable %"
    );
    for (name, t) in &report.groups {
        let share = |n: usize| 100.0 * n as f64 / t.questions.max(1) as f64;
        // Right, top-1 and reachable as shares of the answerable questions (the goals),
        // wrong ones of all.
        let of_answerable = |n: usize| 100.0 * n as f64 / t.answerable.max(1) as f64;
        println!(
            "{:<36} {:>9} {:>10} {:>7.1}% {:>7.1}% {:>9} {:>9.1}% {:>10.1}%",
            name,
            t.questions,
            t.answerable,
            of_answerable(t.right),
            share(t.wrong),
            t.questions - t.right - t.wrong,
            of_answerable(t.top_right),
            of_answerable(t.reachable)
        );
    }
    println!(
        "calibration{}: ECE {:.3}; among answers given, {:.1}% right",
        if args.collection.is_some() {
            " (test half)"
        } else {
            ""
        },
        calibration.ece,
        100.0 * calibration.sure_right_share
    );
    println!("reliability (questions, mean probability, share right):");
    for (n, mean, right) in &calibration.reliability {
        println!("  {n:>5}  {mean:.3}  {right:.3}");
    }
    Ok(())
}
