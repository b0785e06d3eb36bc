//! `tally eval …`: the evaluation commands. Each prints the metrics of the paper it follows.

use std::path::Path;

use anyhow::Context;
use tally_lab::quantity::eval::{
    evaluate, evaluate_written, read_gold, read_predictions, tally_predictions, Class, Difference,
    ExtractionReport, GoldSentence, Half,
};
use tally_lab::quantity::{generated, generated_compound};

use tally_engine::value::ValueSettings;
use tally_lab::value::eval as value_eval;

use crate::cli::{EvalExtractionArgs, EvalValueArgs};

/// `tally eval extraction [--gold FILE [--half H] [--predictions FILE | --write-predictions
/// FILE] | --generated] [--json] [--errors]`; with neither `--gold` nor `--generated`, every set:
/// NewsQuant dev, the generated tests and the hand-written everyday sentences.
pub(crate) fn extraction(args: &EvalExtractionArgs) -> anyhow::Result<()> {
    match (&args.gold, args.generated) {
        (Some(gold), _) => gold_file(args, gold),
        (None, true) => generated(args),
        (None, false) => {
            gold_file(
                args,
                &args.data.join("quantities").join("newsquant_dev.json"),
            )?;
            println!();
            generated(args)?;
            println!();
            gold_file(args, &args.everyday)
        }
    }
}

/// Scores one gold file: the whole file, each fixed half, and each class per half.
fn gold_file(args: &EvalExtractionArgs, gold_path: &Path) -> anyhow::Result<()> {
    let mut gold = read_gold(gold_path)
        .with_context(|| format!("the gold file {} could not be used", gold_path.display()))?;
    let predictions = match &args.predictions {
        Some(path) => Some(read_predictions(path).context("the predictions could not be used")?),
        None => None,
    };
    let score = |gold: &[GoldSentence]| -> anyhow::Result<ExtractionReport> {
        match &predictions {
            Some(written) => Ok(evaluate_written(gold, written)?),
            None => Ok(evaluate(gold)),
        }
    };
    let half = match args.half.as_deref() {
        None => None,
        Some(name) => Some(
            Half::parse(name)
                .with_context(|| format!("unknown half `{name}` (choose tuning or held-out)"))?,
        ),
    };
    if let Some(half) = half {
        gold = half.select(&gold);
    }
    if let Some(path) = &args.write_predictions {
        let written = serde_json::to_string_pretty(&tally_predictions(&gold))?;
        std::fs::write(path, written)
            .with_context(|| format!("{} could not be written", path.display()))?;
    }
    let report = score(&gold)?;
    if args.errors {
        // Only tuning halves may be read to change the extractor's rules.
        let tuning = score(&Half::Tuning.select(&gold))?;
        print_differences(&tuning.differences);
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
        gold_path.display()
    );
    println!("{:<14} {:>6} {:>6} {:>6}", "", "P", "R", "F1");
    let mut rows = vec![("value", report.value), ("value+unit", report.value_unit)];
    if let Some(change) = report.value_change {
        rows.push(("value+change", change));
    }
    for (name, prf) in rows {
        println!("{name:<14} {:>6.1} {:>6.1} {:>6.1}", prf.p, prf.r, prf.f1);
    }
    if half.is_none() {
        // Only the tuning half may be looked at to change the extractor's rules; the held-out
        // half is for measuring.
        println!("F1 value / value+unit / value+change by fixed half, then by class:");
        let cell = |part: &[GoldSentence]| -> anyhow::Result<String> {
            let report = score(part)?;
            let change = report
                .value_change
                .map_or("–".to_string(), |c| format!("{:.1}", c.f1));
            Ok(format!(
                "{:>5.1} / {:>5.1} / {:>5} ({:>3})",
                report.value.f1,
                report.value_unit.f1,
                change,
                part.len()
            ))
        };
        println!("  {:<10} {:>28} {:>28}", "", "tuning", "held-out");
        let halves: Vec<Vec<GoldSentence>> = Half::ALL.iter().map(|h| h.select(&gold)).collect();
        println!(
            "  {:<10} {:>28} {:>28}",
            "all",
            cell(&halves[0])?,
            cell(&halves[1])?
        );
        for class in Class::ALL {
            let parts: Vec<Vec<GoldSentence>> =
                halves.iter().map(|part| class.select(part)).collect();
            if parts.iter().all(Vec::is_empty) {
                continue;
            }
            println!(
                "  {:<10} {:>28} {:>28}",
                class.name(),
                cell(&parts[0])?,
                cell(&parts[1])?
            );
        }
    }
    Ok(())
}

/// Each sentence where the extractor and the gold differ, with what was missed and what was
/// extra (`--errors`).
fn print_differences(differences: &[Difference]) {
    for d in differences {
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

/// `tally eval extraction --generated [--collection FILE] [--seed N] [--json] [--errors]`: the
/// surface-form test generated from the unit collection. `--errors` lists the tuning half's
/// misses only: the held-out half is for scoring.
fn generated(args: &EvalExtractionArgs) -> anyhow::Result<()> {
    let units = generated::read_collection(&args.collection)
        .context("the unit collection could not be used")?;
    let sentences = generated::generate(&units, args.seed);
    let halves: Vec<generated::HalfScores> = Half::ALL
        .iter()
        .map(|&half| generated::score_half(&sentences, half))
        .collect();
    if args.errors {
        print_differences(&halves[0].all.differences);
    }
    if args.json {
        println!("{}", serde_json::to_string(&halves)?);
        return Ok(());
    }
    println!(
        "{} generated sentences from {} units of {} (seed {}); F1 value / value+unit (sentences)",
        sentences.len(),
        units.len(),
        args.collection.display(),
        args.seed
    );
    print_halves(
        [
            (halves[0].half, halves[0].units, &halves[0].all),
            (halves[1].half, halves[1].units, &halves[1].all),
        ],
        &[
            (
                "by surface kind",
                [&halves[0].per_kind, &halves[1].per_kind],
            ),
            (
                "by dimension",
                [&halves[0].per_dimension, &halves[1].per_dimension],
            ),
        ],
    );
    println!();
    compound_test(args)
}

/// The generated compound and currency test, per class and form.
fn compound_test(args: &EvalExtractionArgs) -> anyhow::Result<()> {
    let units = generated::read_collection(&args.collection)
        .context("the unit collection could not be used")?;
    let sentences = generated_compound::generate(&units, args.seed);
    let halves: Vec<generated_compound::CompoundScores> = Half::ALL
        .iter()
        .map(|&half| generated_compound::score_half(&sentences, half))
        .collect();
    if args.errors {
        print_differences(&halves[0].all.differences);
    }
    if args.json {
        println!("{}", serde_json::to_string(&halves)?);
        return Ok(());
    }
    println!(
        "{} generated compound and currency sentences (seed {}); F1 value / value+unit (sentences)",
        sentences.len(),
        args.seed
    );
    print_halves(
        [
            (halves[0].half, halves[0].units, &halves[0].all),
            (halves[1].half, halves[1].units, &halves[1].all),
        ],
        &[
            ("by class", [&halves[0].per_class, &halves[1].per_class]),
            ("by form", [&halves[0].per_form, &halves[1].per_form]),
        ],
    );
    Ok(())
}

/// A generated test's table: each half's head (name, units) and its "all" row, then each
/// grouping's rows, in the order the halves list them (a group one half lacks shows "–").
fn print_halves(
    halves: [(&str, usize, &ExtractionReport); 2],
    groupings: &[(&str, [&[generated::GroupScores]; 2])],
) {
    let cell = |r: &ExtractionReport| {
        format!(
            "{:>5.1} / {:>5.1} ({:>4})",
            r.value.f1, r.value_unit.f1, r.sentences
        )
    };
    let [(first, first_units, first_all), (second, second_units, second_all)] = halves;
    println!(
        "{:<18} {:>22} {:>22}",
        "",
        format!("{first} ({first_units} units)"),
        format!("{second} ({second_units} units)")
    );
    println!(
        "{:<18} {:>22} {:>22}",
        "all",
        cell(first_all),
        cell(second_all)
    );
    for (title, groups) in groupings {
        println!("{title}");
        let mut names: Vec<&str> = Vec::new();
        for g in groups.iter().flat_map(|half| half.iter()) {
            if !names.contains(&g.group.as_str()) {
                names.push(&g.group);
            }
        }
        for name in names {
            let of = |half: &[generated::GroupScores]| {
                half.iter()
                    .find(|g| g.group == name)
                    .map_or(format!("{:>22}", "–"), |g| cell(&g.report))
            };
            println!("  {name:<16} {:>22} {:>22}", of(groups[0]), of(groups[1]));
        }
    }
}

/// `tally eval value --judged FILE [--everyday FILE] [--json] [--errors]`: the questions built
/// from the judged file and the everyday questions written for the project, each on its two
/// halves, then every rule for drawing the value, chosen on the two tuning halves together.
pub(crate) fn value(args: &EvalValueArgs) -> anyhow::Result<()> {
    let qsearch = value_eval::build(&args.judged).context("the judged file could not be used")?;
    let everyday = match value_eval::build_written(&args.everyday) {
        Ok(set) => Some(set),
        Err(value_eval::ValueEvalError::Read { .. }) if !args.everyday.is_absolute() => {
            eprintln!(
                "(no everyday value questions at {}: run from the checkout's root or pass \
                 --everyday; the rule is then chosen on the judged file's tuning half alone)",
                args.everyday.display()
            );
            None
        }
        Err(e) => return Err(e).context("the everyday value questions could not be used"),
    };
    let settings = ValueSettings::default();
    if args.json {
        let (scores, _) = value_eval::evaluate(&qsearch.0, &qsearch.1, &settings)?;
        println!("{}", serde_json::to_string(&scores)?);
        return Ok(());
    }
    print_value_set(&args.judged, &qsearch, args.errors)?;
    if let Some(set) = &everyday {
        println!();
        print_value_set(&args.everyday, set, args.errors)?;
    }
    print_value_rules(&qsearch, everyday.as_ref())
}

/// One set of value questions: all, then each half, with the default rule (`--errors`: the
/// tuning half's questions with their answers).
fn print_value_set(
    path: &Path,
    (sentences, questions): &ValueSet,
    errors: bool,
) -> anyhow::Result<()> {
    let settings = ValueSettings::default();
    let (scores, answers) = value_eval::evaluate(sentences, questions, &settings)?;
    if errors {
        for (q, a) in questions.iter().zip(&answers) {
            if value_eval::half_of(q) != Half::Tuning {
                continue; // only the tuning half's questions are shown
            }
            let answered = a.value.map_or("no answer".to_string(), |v| {
                format!("{v} {}", a.unit.as_deref().unwrap_or(""))
            });
            println!(
                "{}\n    gold {} {}; answer {answered}; top: {}",
                q.question,
                q.gold,
                q.gold_unit.as_deref().unwrap_or(""),
                a.observations
                    .first()
                    .map_or("-".to_string(), |o| o.text.clone())
            );
        }
        println!();
    }
    println!(
        "{} value questions over {} observations in {} sentences ({})",
        scores.questions,
        scores.observations,
        sentences.len(),
        path.display()
    );
    let row = |name: &str, scores: &value_eval::ValueScores| {
        let c = &scores.consolidated;
        println!(
            "{name:<9} {:>4} questions  Exist@1 {:.3}  Exist@10 {:.3}  RP {:.1}  coverage {:.1}  P/C {:.1}",
            scores.questions, scores.exist_1, scores.exist_10, c.rp, c.coverage, c.pc
        );
    };
    row("all", &scores);
    // Rules are developed on the tuning half's questions only.
    for half in Half::ALL {
        let part: Vec<_> = questions
            .iter()
            .filter(|q| value_eval::half_of(q) == half)
            .cloned()
            .collect();
        let (scores, _) = value_eval::evaluate(sentences, &part, &settings)?;
        row(half.name(), &scores);
    }
    Ok(())
}

/// Sentences and the questions asked over them.
type ValueSet = (
    Vec<tally_documents::sentence_store::index::StoredSentence>,
    Vec<value_eval::GoldValueQuestion>,
);

/// Every rule for drawing the value on each set's halves; the rule with the best mean P/C on the
/// tuning halves is marked.
fn print_value_rules(qsearch: &ValueSet, everyday: Option<&ValueSet>) -> anyhow::Result<()> {
    let (q_rows, _) = value_eval::compare_rules(&qsearch.0, &qsearch.1)?;
    let e_rows = match everyday {
        Some((sentences, questions)) => Some(value_eval::compare_rules(sentences, questions)?.0),
        None => None,
    };
    let mut sets: Vec<&[value_eval::RuleRow]> = vec![&q_rows];
    if let Some(rows) = &e_rows {
        sets.push(rows);
    }
    let chosen = value_eval::choose_rule(&sets);
    let settings = ValueSettings::default();
    println!();
    println!(
        "{:<34} {:>18} {:>18} {:>18} {:>18}",
        "rule: P/C (RP, coverage)",
        "judged tuning",
        "judged held-out",
        "everyday tuning",
        "everyday held-out"
    );
    let cell = |s: &value_eval::ValueScores| {
        let c = &s.consolidated;
        format!("{:.1} ({:.1}, {:.1})", c.pc, c.rp, c.coverage)
    };
    for (i, r) in q_rows.iter().enumerate() {
        let mark = match (i == chosen, r.settings == settings) {
            (true, true) => "  chosen on tuning, the default",
            (true, false) => "  chosen on tuning",
            (false, true) => "  the default",
            (false, false) => "",
        };
        let (e_tuning, e_held_out) = e_rows
            .as_ref()
            .map_or(("–".to_string(), "–".to_string()), |rows| {
                (cell(&rows[i].tuning), cell(&rows[i].held_out))
            });
        println!(
            "{:<34} {:>18} {:>18} {:>18} {:>18}{mark}",
            value_eval::rule_name(&r.settings),
            cell(&r.tuning),
            cell(&r.held_out),
            e_tuning,
            e_held_out
        );
    }
    Ok(())
}
