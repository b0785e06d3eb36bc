//! `tally eval candidates`: the candidates' oracle recall on WikiTableQuestions (issue 98).

use anyhow::bail;

use crate::candidates::{
    evaluate, evaluate_collection, numeric_questions, quantile, read_collection, Report, Split,
};
use crate::cli::bench::BenchCandidatesArgs;
use crate::cli::EvalCandidatesArgs;

/// Runs `tally eval candidates`.
pub fn eval(args: &EvalCandidatesArgs) -> anyhow::Result<()> {
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
pub fn bench(args: &BenchCandidatesArgs) -> anyhow::Result<()> {
    let report = crate::candidates::bench(&args.wtq, args.split, args.tables, args.questions)?;
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
    Ok(())
}
