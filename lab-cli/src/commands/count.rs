//! The count-question commands of the lab: `tally-lab train count-spans`, `tally-lab eval count
//! | cnp | instances` and `tally-lab bench count`.

use std::time::Instant;

use anyhow::{bail, Context};
use tally_documents::corpus::default_snippets::ingest_default;
use tally_documents::snippet_index::SnippetIndex;
use tally_engine::count::pipeline::carry_on;
use tally_engine::count::span_model::SpanModel;
use tally_engine::count::CountPipeline;
use tally_lab::count::eval::{
    evaluate_cnp, evaluate_counts, evaluate_instances, read_contexts, EvalRetrieval, InstanceReport,
};
use tally_lab::count::training::data::{load_training_queries, query_candidates};
use tally_lab::count::training::ranker::{train_candidate_ranker, AbstentionReport, RankerReport};
use tally_lab::count::training::reader::train_count_spans;
use tally_lab::count::training::settings::TrainSettings;
use tally_lab::count::training::span_confidences::read_span_confidences;
use tally_types::count::settings::ContextSettings;
use tally_types::CountAnswer;
use tally_types::CountSettings;

use tally_types::count::Stage;
use tally_types::InstanceScoring;

use super::judged_instances;
use crate::cli::bench::BenchCountArgs;
use crate::cli::{
    EvalCnpArgs, EvalCountArgs, EvalInstancesArgs, EvalRetrievalArg, TrainCountSpansArgs,
};
use tally_setup::loading::{encoder_of, load_pipeline, open_snippet_index};

/// `tally train count-spans --data DIR --out DIR [--ranker-only]`: the span head (with
/// cross-validation), then the candidate ranker on the head's out-of-fold probabilities.
pub(crate) fn train(args: &TrainCountSpansArgs) -> anyhow::Result<()> {
    if args.folds < 2 {
        bail!("cross-validation needs at least 2 folds");
    }
    let (encoder, encoder_dir) = encoder_of(&args.models)?;
    let queries = load_training_queries(&args.data)?;
    if args.negatives_per_positive.is_nan() || args.negatives_per_positive <= 0.0 {
        bail!("--negatives-per-positive must be above 0");
    }
    let settings = TrainSettings {
        epochs: args.epochs,
        folds: args.folds,
        tuned_layers: args.tuned_layers,
        negatives_per_positive: args.negatives_per_positive,
        silver_per_query: args.silver_per_query,
        silver_names_per_query: args.silver_names_per_query,
        context_chars: args.models.reader_context_chars(),
        ..TrainSettings::default()
    };
    eprintln!(
        "training on {} queries with {} on {}",
        queries.len(),
        encoder.name(),
        encoder.device_name()
    );
    let progress = |line: &str| eprintln!("  {line}");
    let started = Instant::now();
    let span_report = if args.ranker_only {
        None
    } else {
        Some(train_count_spans(
            encoder.clone(),
            &encoder_dir,
            &queries,
            &args.out,
            &args.span_confidences,
            &settings,
            &progress,
        )?)
    };
    let candidates = query_candidates(&queries);
    let span = read_span_confidences(&args.span_confidences, &queries, &candidates)?;
    let ranker_report = train_candidate_ranker(
        &encoder,
        &queries,
        &candidates,
        &span,
        &settings,
        &args.out,
        &progress,
    )?;
    if args.json {
        let report = serde_json::json!({"span_head": span_report, "ranker": ranker_report});
        println!("{report}");
        return Ok(());
    }
    println!(
        "trained in {:.1} s; written to {}",
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    if let Some(r) = &span_report {
        println!(
            "span head: {} windows ({} with an answer), encoding {:.1} s, training {:.1} s",
            r.windows, r.positive_windows, r.encode_seconds, r.train_seconds
        );
    }
    println!(
        "candidate ranker: {} candidates ({} right), {:.1} s; best cross-validated setting {} at threshold {:.1}",
        ranker_report.candidates,
        ranker_report.positives,
        ranker_report.seconds,
        ranker_report.best_strategy,
        ranker_report.best_threshold
    );
    println!(
        "cross-validated ({}-fold by query), threshold {:.1}:",
        args.folds, ranker_report.best_threshold
    );
    let key = format!("{:.1}", ranker_report.best_threshold);
    println!(
        "{:<14} {:<8} {:<16} {:>6} {:>6} {:>6} {:>6}",
        "data set", "scorer", "strategy", "RP", "Cov", "P/C", "Prox"
    );
    for (dataset, scorers) in &ranker_report.cross_validation {
        for (scorer, strategies) in scorers {
            for (strategy, thresholds) in strategies {
                if let Some(s) = thresholds.get(&key) {
                    println!(
                        "{dataset:<14} {scorer:<8} {strategy:<16} {:>6.1} {:>6.1} {:>6.1} {:>6.3}",
                        s.rp, s.coverage, s.pc, s.proximity
                    );
                }
            }
        }
    }
    print_abstention(&ranker_report.abstention);
    print_calibration(&ranker_report);
    print_trained_instances(args)
}

/// The instance figures of the reader just trained (its readings for the reader's scorings), on
/// the NQ dev instance annotations (the
/// only snippet set with gold instances; never trained on) when they are in the data
/// directory. The reader was trained without these questions, so every row is out of sample
/// for the reader; the scoring is chosen by cross-validation by query, as `tally eval
/// instances` does.
fn print_trained_instances(args: &TrainCountSpansArgs) -> anyhow::Result<()> {
    let nq = args.data.join("natural_questions_dev");
    let files = [
        nq.join("natural_questions_dev_bing_v1.json"),
        nq.join("natural_questions_dev_instances.csv"),
        nq.join("aliases.csv"),
    ];
    if !files.iter().all(|f| f.is_file()) {
        println!(
            "instances: no NQ dev instance annotations under {}",
            nq.display()
        );
        return Ok(());
    }
    // The count reader as shipped; names read by the reader just trained.
    let pipeline = load_pipeline(&args.models)?;
    let (encoder, _) = encoder_of(&args.models)?;
    let trained = SpanModel::load(encoder, &args.out)
        .context("the reader just trained could not be loaded")?
        .with_context_chars(args.models.reader_context_chars())
        .with_weights(args.models.reader_weights)?;
    let pipeline = pipeline.with_name_reader(trained);
    let report = evaluate_instances(
        &pipeline,
        &files[0],
        &files[1],
        &files[2],
        &CountSettings::default(),
        &InstanceScoring::ALL,
    )
    .context("the NQ dev instance files could not be used")?;
    println!("instances with this reader (NQ dev instance annotations):");
    print_instance_table(&report);
    Ok(())
}

/// The abstention rule chosen by nested cross-validation, with its curve.
fn print_abstention(abstention: &AbstentionReport) {
    println!(
        "abstention (nested cross-validation): support = best confidence, folds chose {:?}; \
         support = answer-support model, folds chose {:?}",
        abstention.fold_choices, abstention.model_fold_choices
    );
    println!(
        "{:<14} {:>22} {:>22} {:>22}",
        "data set", "never RP/Cov/P/C", "best confidence", "support model"
    );
    let figures = |s: &tally_engine::count::metrics::CountScores| {
        format!("{:.1} / {:.1} / {:.1}", s.rp, s.coverage, s.pc)
    };
    for (dataset, without) in &abstention.without {
        if let (Some(with), Some(model)) = (
            abstention.with.get(dataset),
            abstention.with_model.get(dataset),
        ) {
            println!(
                "{dataset:<14} {:>22} {:>22} {:>22}",
                figures(without),
                figures(with),
                figures(model)
            );
        }
    }
    if let Some(first) = abstention.curve.first() {
        println!("abstention curve (out of fold, the kept rule): P/C (answered) per group");
        let groups: Vec<&String> = first.by_group.keys().collect();
        let header: Vec<String> = groups.iter().map(|g| format!("{g:>16}")).collect();
        println!("{:>6} {}", "t", header.join(" "));
        for point in &abstention.curve {
            let cells: Vec<String> = groups
                .iter()
                .map(|g| {
                    let s = &point.by_group[*g];
                    format!("{:>16}", format!("{:.1} ({})", s.pc, s.answered))
                })
                .collect();
            println!("{:>6.2} {}", point.abstain_below, cells.join(" "));
        }
    }
    println!(
        "kept: {}, abstaining below {:.2}",
        if abstention.model.is_some() {
            "the support model (answer_support.json)"
        } else {
            "the best confidence (the support model did not beat it by 1 mean P/C point)"
        },
        abstention.abstain_below
    );
}

/// How well the scorers' probabilities are calibrated, out of fold.
fn print_calibration(ranker_report: &RankerReport) {
    for (scorer, table) in &ranker_report.calibration {
        println!(
            "calibration of {scorer} (out of fold, {} candidates): ECE {:.3}, Brier {:.3}",
            table.predictions, table.ece, table.brier
        );
        println!("  bin        n   predicted observed");
        for bin in table.bins.iter().filter(|b| b.count > 0) {
            println!(
                "  {:.1}–{:.1} {:>6}   {:.3}     {:.3}",
                bin.low, bin.high, bin.count, bin.predicted, bin.observed
            );
        }
    }
}

/// `tally eval count --snippets FILE --gold FILE [--strategy S] [--json]`.
pub(crate) fn eval_count(args: &EvalCountArgs) -> anyhow::Result<()> {
    let settings = args.settings.0.clone();
    let pipeline = load_pipeline(&args.models)?;
    // The default corpus: searched in the open regimes, and in every regime the measure of how
    // rare a question's words are (as when a person asks the server). The stored regime holds
    // it in memory, so that evaluations running side by side do not share a directory.
    let data = args.data.dir();
    let index = match args.retrieval {
        EvalRetrievalArg::Stored => {
            let index = SnippetIndex::in_memory()?;
            ingest_default(&index, data.as_deref())?;
            index
        }
        EvalRetrievalArg::Open | EvalRetrievalArg::OffCorpus => {
            open_snippet_index(&args.index, data.as_deref())?
        }
    };
    let retrieval = match args.retrieval {
        EvalRetrievalArg::Stored => EvalRetrieval::Stored,
        EvalRetrievalArg::Open => EvalRetrieval::Open(&index),
        EvalRetrievalArg::OffCorpus => EvalRetrieval::OffCorpus(&index),
    };
    let report = evaluate_counts(
        &pipeline,
        &args.snippets,
        &args.gold,
        &settings,
        retrieval,
        &index,
    )
    .context("the snippet or gold file could not be used")?;
    let chosen = report
        .strategies
        .get(settings.strategy.name())
        .context("no figures for the chosen strategy")?;
    if args.json {
        let mut figures = serde_json::to_value(chosen)?;
        figures["abstention_curve"] = serde_json::to_value(&report.abstention_curve)?;
        println!("{figures}");
        return Ok(());
    }
    println!(
        "{} queries with a gold count, scorer {}, threshold {:.1} (relaxed to ≥{} counts), snippets: {}",
        chosen.queries,
        report.scorer,
        settings.threshold,
        settings.min_counts,
        match args.retrieval {
            EvalRetrievalArg::Stored => "each question's own set".to_string(),
            EvalRetrievalArg::Open => format!("BM25 top {} over the default corpus", settings.snippets),
            EvalRetrievalArg::OffCorpus => format!(
                "BM25 top {} over the default corpus without the question's own",
                settings.snippets
            ),
        }
    );
    // "Wrong": questions given a count outside RP's ratio 0.9, over all questions.
    println!(
        "{:<16} {:>8} {:>6} {:>6} {:>6} {:>9} {:>7}",
        "strategy", "answered", "RP", "Cov", "P/C", "Proximity", "wrong%"
    );
    for (name, s) in &report.strategies {
        println!(
            "{name:<16} {:>8} {:>6.1} {:>6.1} {:>6.1} {:>9.3} {:>7.1}",
            s.answered,
            s.rp,
            s.coverage,
            s.pc,
            s.proximity,
            s.coverage * (100.0 - s.rp) / 100.0
        );
    }
    println!(
        "abstention curve ({}, answering from support ≥ t; the setting is {:.2}):",
        settings.strategy.name(),
        settings.abstain_below
    );
    println!(
        "{:>6} {:>8} {:>6} {:>6} {:>6}",
        "t", "answered", "RP", "Cov", "P/C"
    );
    for point in &report.abstention_curve {
        let s = &point.scores;
        println!(
            "{:>6.2} {:>8} {:>6.1} {:>6.1} {:>6.1}",
            point.abstain_below, s.answered, s.rp, s.coverage, s.pc
        );
    }
    Ok(())
}

/// `tally eval cnp --contexts FILE [--json]`.
pub(crate) fn eval_cnp(args: &EvalCnpArgs) -> anyhow::Result<()> {
    let (encoder, _) = encoder_of(&args.models)?;
    let rows = read_contexts(&args.contexts).context("the contexts file could not be used")?;
    // θ comes with the count settings' flags (read and checked as everywhere else).
    let settings = ContextSettings {
        incomparable_cosine: args.min_cosine,
        larger_synonym_cosine: args.larger_synonyms.then_some(0.5),
        ..args.settings.0.context
    };
    let report = evaluate_cnp(&rows, &encoder, &settings)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    let changed = args.settings.0.changed();
    println!(
        "{} queries, {} annotated candidates, settings: {}",
        report.queries,
        report.candidates,
        if changed.is_empty() {
            "the defaults".to_string()
        } else {
            changed
                .iter()
                .map(|(n, v)| format!("{n} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    println!("{:<14} {:>8} {:>9}", "class", "members", "accuracy");
    for (name, c) in [
        ("synonyms", &report.synonyms),
        ("subgroups", &report.subgroups),
        ("incomparables", &report.incomparables),
    ] {
        println!("{name:<14} {:>8} {:>9.1}", c.members, c.accuracy);
    }
    Ok(())
}

/// `tally eval instances [--snippets FILE --gold FILE --aliases FILE] [--json] [--judged FILE]
/// [--candidates N]`.
pub(crate) fn eval_instances(args: &EvalInstancesArgs) -> anyhow::Result<()> {
    let settings = args.settings.0.clone();
    let pipeline = load_pipeline(&args.models)?;
    if let Some(n) = args.candidates {
        let (questions, answers) = judged_answers(args, &pipeline, n)?;
        return judged_instances::print_candidates(&questions, &answers);
    }
    let (snippets, gold, aliases) = args.gold_files()?;
    // The JSON line gives the chosen scoring alone: only that one is computed (the reader's
    // scorings read every sentence naming a candidate, 5× the time of the others).
    let scorings = if args.json {
        vec![settings.instances]
    } else {
        InstanceScoring::ALL.to_vec()
    };
    let report = evaluate_instances(&pipeline, &snippets, &gold, &aliases, &settings, &scorings)
        .context("the snippet, gold or alias file could not be used")?;
    if args.json {
        let chosen = report
            .scorings
            .get(settings.instances.name())
            .context("no figures for the chosen scoring")?;
        println!("{}", serde_json::to_string(chosen)?);
        return Ok(());
    }
    print_instance_table(&report);
    let (questions, answers) = judged_answers(args, &pipeline, settings.max_instances)?;
    judged_instances::print_figures(&judged_instances::figures(&questions, &answers));
    Ok(())
}

/// The judged questions answered as a user asks them, each showing at most `max_instances`.
fn judged_answers(
    args: &EvalInstancesArgs,
    pipeline: &CountPipeline,
    max_instances: usize,
) -> anyhow::Result<(Vec<judged_instances::JudgedQuestion>, Vec<CountAnswer>)> {
    let questions = judged_instances::read_judged(&args.judged)?;
    let data = args.data.dir();
    let index = judged_instances::judged_index(&args.work, data.as_deref(), &args.collection)?;
    let mut settings = args.settings.0.clone();
    settings.max_instances = max_instances;
    let answers = judged_instances::answer_all(pipeline, &index, &questions, &settings)?;
    Ok((questions, answers))
}

/// Each scoring's instance figures, the cross-validated choice last, and what the folds chose.
fn print_instance_table(report: &InstanceReport) {
    println!(
        "{:<26} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
        "scoring", "queries", "MAP@1", "MAP@5", "MAP@10", "AR@1", "AR@5", "AR@10", "Hit@10", "MRR"
    );
    let cv_name = "chosen by 5-fold CV".to_string();
    for (name, s) in report
        .scorings
        .iter()
        .chain([(&cv_name, &report.cross_validated)])
    {
        println!(
            "{name:<26} {:>7} {:>6.1} {:>6.1} {:>6.1} {:>6.1} {:>6.1} {:>6.1} {:>6.1} {:>6.3}",
            s.queries, s.map1, s.map5, s.map10, s.ar1, s.ar5, s.ar10, s.hit10, s.mrr
        );
    }
    println!(
        "(the folds chose: {}; the other rows are in-sample on this file)",
        report.fold_choices.join(", ")
    );
}

/// `tally bench count`: end-to-end latency of one question, p50/p95 and the mean stage split,
/// as for a question never seen before (the name cache is emptied before every run), then with
/// its names cached; and the throughput of different stored questions answered several at once.
pub(crate) fn bench(args: &BenchCountArgs) -> anyhow::Result<()> {
    let settings = args.settings.0.clone();
    let index = open_snippet_index(&args.corpus.index, args.corpus.data_dir().as_deref())?;
    let pipeline = load_pipeline(&args.models)?;
    // One warm-up run: first-call allocations are not what a served question pays.
    let warm = pipeline.answer_from_index(&index, &args.question, &settings, &mut carry_on)?;
    let mut fresh = Vec::new();
    let mut cached = Vec::new();
    let mut stages: Vec<(Stage, f64)> = warm.timings.iter().map(|t| (t.stage, 0.0)).collect();
    for _ in 0..args.runs.max(1) {
        pipeline.forget_names();
        let started = Instant::now();
        let answer =
            pipeline.answer_from_index(&index, &args.question, &settings, &mut carry_on)?;
        fresh.push(started.elapsed().as_secs_f64() * 1e3);
        for (slot, t) in stages.iter_mut().zip(&answer.timings) {
            slot.1 += t.ms;
        }
        let started = Instant::now();
        pipeline.answer_from_index(&index, &args.question, &settings, &mut carry_on)?;
        cached.push(started.elapsed().as_secs_f64() * 1e3);
    }
    let runs = fresh.len() as f64;
    fresh.sort_by(f64::total_cmp);
    cached.sort_by(f64::total_cmp);
    let pick = |sorted: &[f64], p: f64| tally_lab::statistics::percentile(sorted, p);
    let (p50, p95) = (pick(&fresh, 0.5), pick(&fresh, 0.95));
    let cached_p50 = pick(&cached, 0.5);
    let throughput = if args.questions > 0 {
        let questions = index.questions(args.questions)?;
        pipeline.forget_names();
        Some(throughput(
            &pipeline,
            &index,
            &questions,
            &settings,
            args.concurrent.max(1),
        )?)
    } else {
        None
    };
    let with_count = warm.snippets.iter().filter(|s| !s.spans.is_empty()).count();
    if args.json {
        let split: serde_json::Map<String, serde_json::Value> = stages
            .iter()
            .map(|(s, ms)| (s.name().to_string(), serde_json::json!(ms / runs)))
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "question": args.question, "runs": fresh.len(), "snippets": warm.snippets.len(),
                "snippets_with_count": with_count, "p50_ms": p50, "p95_ms": p95, "stages_ms": split,
                "cached_names_p50_ms": cached_p50,
                "scorer": warm.settings.scorer.name(),
                "throughput": throughput.as_ref().map(|t| serde_json::json!({
                    "questions": t.questions, "concurrent": t.concurrent,
                    "questions_per_second": t.per_second, "p50_ms": t.p50_ms,
                })),
            })
        );
        return Ok(());
    }
    println!(
        "\"{}\": {} snippets ({} with a count candidate), {} runs, scorer {}",
        args.question,
        warm.snippets.len(),
        with_count,
        fresh.len(),
        warm.settings.scorer.name(),
    );
    println!("  end to end, names not cached: p50 {p50:.1} ms, p95 {p95:.1} ms");
    for (stage, ms) in &stages {
        println!("  {:<18} {:>8.1} ms", stage.name(), ms / runs);
    }
    println!("  end to end, names cached: p50 {cached_p50:.1} ms");
    if let Some(t) = throughput {
        println!(
            "  {} different stored questions, {} at once: {:.2} questions/s (p50 {:.0} ms each)",
            t.questions, t.concurrent, t.per_second, t.p50_ms
        );
    }
    Ok(())
}

/// What answering many questions at once gave.
struct Throughput {
    questions: usize,
    concurrent: usize,
    per_second: f64,
    p50_ms: f64,
}

/// Answers `questions` (each once, in `concurrent` threads taking the next unanswered one).
fn throughput(
    pipeline: &CountPipeline,
    index: &SnippetIndex,
    questions: &[String],
    settings: &CountSettings,
    concurrent: usize,
) -> anyhow::Result<Throughput> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    let latencies = std::thread::scope(|scope| -> anyhow::Result<Vec<f64>> {
        let workers: Vec<_> = (0..concurrent)
            .map(|_| {
                scope.spawn(|| -> anyhow::Result<Vec<f64>> {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(question) = questions.get(i) else {
                            return Ok(mine);
                        };
                        let t = Instant::now();
                        pipeline.answer_from_index(index, question, settings, &mut carry_on)?;
                        mine.push(t.elapsed().as_secs_f64() * 1e3);
                    }
                })
            })
            .collect();
        let mut all = Vec::new();
        for worker in workers {
            match worker.join() {
                Ok(latencies) => all.extend(latencies?),
                Err(_) => anyhow::bail!("a benchmark thread panicked"),
            }
        }
        Ok(all)
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let mut sorted = latencies;
    sorted.sort_by(f64::total_cmp);
    Ok(Throughput {
        questions: sorted.len(),
        concurrent,
        per_second: sorted.len() as f64 / seconds.max(f64::EPSILON),
        p50_ms: if sorted.is_empty() {
            0.0
        } else {
            tally_lab::statistics::percentile(&sorted, 0.5)
        },
    })
}
