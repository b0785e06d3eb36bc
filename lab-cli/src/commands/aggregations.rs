//! `tally eval aggregations`: questions that count, add up, average or compare a table's rows
//! under a condition (issue 74), over the collection in `tests/fixtures/aggregations` (tables
//! in CSV, Markdown and HTML written for the project, with questions written before any
//! aggregation code was tuned, some unanswerable). Each question is asked as the home page asks
//! it over an uploaded corpus, through the one answer decision: an aggregation when the records
//! decide one, else the count pipeline (a count question) or the value reader; right, wrong and
//! declined per operation and half (the `half` field), and how each answer was reached.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde::Deserialize;
use tally_answer::{Engines, HeldTables};
use tally_documents::corpus::indexing::{self, Indexes};
use tally_types::count::Retrieval;
use tally_types::{AnswerBody, Mode};

use super::asked::Asking;
use crate::cli::EvalAggregationsArgs;
use tally_lab::candidates::readers::{ReadersLine, ReadersLog};
use tally_lab::collection::read_documents_dir;
use tally_lab::trust::{TrustLine, TrustLog};
use tally_setup::loading::load_pipeline;

/// The corpus name the collection is ingested under.
const CORPUS: &str = "aggregations";

/// One question of the collection.
#[derive(Debug, Clone, Deserialize)]
struct AggregationCase {
    question: String,
    /// count, sum, average, largest, smallest, or none (unanswerable).
    operation: String,
    answer: Option<f64>,
    /// The chosen row's name, for largest and smallest.
    name: Option<String>,
    document: String,
    half: String,
}

/// How a question was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Route {
    Aggregation,
    Stated,
    Value,
    Search,
}

impl Route {
    fn name(self) -> &'static str {
        match self {
            Route::Aggregation => "records",
            Route::Stated => "count reader",
            Route::Value => "value reader",
            Route::Search => "search",
        }
    }
}

/// What a question got: a number (and a name), or nothing.
struct Given {
    value: Option<f64>,
    name: Option<String>,
    route: Route,
    note: String,
}

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    right: usize,
    wrong: usize,
    declined: usize,
}

/// `tally eval aggregations`: answers the collection's questions and prints right, wrong and declined per operation and half.
pub(crate) fn eval(args: &EvalAggregationsArgs) -> anyhow::Result<()> {
    let cases = read_cases(&args.dir.join("questions.jsonl"))?;
    let documents = read_documents_dir(&args.dir.join("documents"))?;
    let _ = std::fs::remove_dir_all(&args.work);
    // From the home page, the default corpus is there too (the distractors).
    let data = args.data.dir().filter(|_| args.all_corpora);
    let snippets =
        tally_setup::loading::open_snippet_index(&args.work.join("snippets"), data.as_deref())?;
    let sentences =
        tally_setup::loading::open_sentence_index(&args.work.join("sentences"), data.as_deref())?;
    indexing::ingest(
        &Indexes {
            snippets: Some(&snippets),
            sentences: Some(&sentences),
        },
        CORPUS,
        &documents,
        &mut |_| {},
    )?;
    // The tables as a server reads them back from its snippet index.
    let records = HeldTables::default();
    let engines = Engines {
        corpora_at_load: snippets.corpora()?,
        snippets: std::sync::Arc::new(snippets),
        pipeline: std::sync::Arc::new(load_pipeline(&args.models)?),
        sentences,
        encoder: None,
        examples: Default::default(),
    };
    let asking = Asking {
        engines: &engines,
        records: &records,
        records_first: !args.without_records,
        ranked: !args.without_ranker,
    };
    let mut settings = args.settings.0.clone();
    settings.corpus = (!args.all_corpora).then(|| CORPUS.to_string());

    let mut tallies: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut routes: BTreeMap<(String, &'static str), usize> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut trust_log = TrustLog::open(args.trust_features.as_deref())?;
    if let Some(path) = &args.readers_answers {
        write_readers(path, &cases, &asking)?;
    }
    for case in &cases {
        let answered = answer_case(args, case, &settings, &asking)?;
        trust_log.write(&TrustLine {
            kind: answered.kind.into(),
            setting: format!(
                "aggregations/{}",
                if args.all_corpora {
                    "all corpora"
                } else {
                    "corpus"
                }
            ),
            half: case.half.clone(),
            document: case.document.clone(),
            question: case.question.clone(),
            given: answered.raw.value.is_some(),
            right: judge(case, &answered.raw) == Outcome::Right,
            features: answered.features,
        })?;
        let given = answered.given;
        let outcome = judge(case, &given);
        for operation in [case.operation.clone(), "all".to_string()] {
            let tally = tallies
                .entry((case.half.clone(), operation.clone()))
                .or_default();
            match outcome {
                Outcome::Right => tally.right += 1,
                Outcome::Wrong => tally.wrong += 1,
                Outcome::Declined => tally.declined += 1,
            }
        }
        *routes
            .entry((case.half.clone(), given.route.name()))
            .or_default() += 1;
        if outcome != Outcome::Right && (args.show_test || case.half == "tuning") {
            misses.push(format!(
                "[{}, {}] {} ({}) — gold {}{}, given {}{} by the {}: {}",
                case.half,
                case.operation,
                case.question,
                case.document,
                case.answer.map_or("none".into(), |a| a.to_string()),
                case.name
                    .as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default(),
                given.value.map_or("nothing".into(), |v| format!("{v}")),
                given
                    .name
                    .as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default(),
                given.route.name(),
                given.note
            ));
        }
    }
    println!(
        "{} documents, {} questions ({} unanswerable); halves fixed by the collection; asked {}",
        documents.len(),
        cases.len(),
        cases.iter().filter(|c| c.answer.is_none()).count(),
        if args.all_corpora {
            "over all corpora (no corpus chosen, the default corpus beside)"
        } else {
            "over the collection's corpus"
        }
    );
    print_report(&tallies, &routes, &misses, args.show_test);
    Ok(())
}

/// Writes what the readers answer to each question over the collection's corpus, asked as the
/// home page asks (the kind detected) with the ranker off.
fn write_readers(
    path: &Path,
    cases: &[AggregationCase],
    asking: &Asking<'_>,
) -> anyhow::Result<()> {
    // As the home page asks: the records first, the default reading settings.
    let asking = Asking {
        records_first: true,
        ranked: false,
        ..*asking
    };
    let settings = tally_types::CountSettings {
        corpus: Some(CORPUS.to_string()),
        ..Default::default()
    };
    let mut log = ReadersLog::create(path)?;
    for case in cases {
        let answer = asking.ungated(&case.question, Mode::Auto, &settings)?;
        log.write(&ReadersLine::of(&case.question, &answer.answer))?;
    }
    Ok(log.finish()?)
}

/// The figures per half and operation, how the questions were answered, and the misses.
fn print_report(
    tallies: &BTreeMap<(String, String), Tally>,
    routes: &BTreeMap<(String, &'static str), usize>,
    misses: &[String],
    show_test: bool,
) {
    println!(
        "\n{:<6} {:<10} {:>5} {:>6} {:>6} {:>9} {:>8} {:>8}",
        "half", "operation", "asked", "right", "wrong", "declined", "right%", "wrong%"
    );
    for ((half, operation), t) in tallies {
        let asked = t.right + t.wrong + t.declined;
        println!(
            "{half:<6} {operation:<10} {asked:>5} {:>6} {:>6} {:>9} {:>7.1}% {:>7.1}%",
            t.right,
            t.wrong,
            t.declined,
            100.0 * t.right as f64 / asked.max(1) as f64,
            100.0 * t.wrong as f64 / asked.max(1) as f64,
        );
    }
    println!("\nanswered by");
    for ((half, route), n) in routes {
        println!("  {half:<6} {route:<13} {n}");
    }
    if !misses.is_empty() {
        println!(
            "\nnot right ({}):",
            if show_test {
                "both halves"
            } else {
                "tuning half only; --show-test for the test half"
            }
        );
        for miss in misses {
            println!("  {miss}");
        }
    }
}

/// A question asked as the home page asks it (the kind detected), through the one decision:
/// the answer as the readers gave it, then as the gates let it through (unless
/// `--without-trust`).
fn answer_case(
    args: &EvalAggregationsArgs,
    case: &AggregationCase,
    settings: &tally_types::CountSettings,
    asking: &Asking<'_>,
) -> anyhow::Result<Answered> {
    let mut answer = asking.ungated(&case.question, Mode::Auto, settings)?.answer;
    let (raw, kind, features) = match &answer {
        AnswerBody::Count(count) => (
            given_count(count),
            "count",
            tally_engine::trust::count_features(count),
        ),
        AnswerBody::Value(value) => (
            given_value(value),
            "value",
            tally_engine::trust::value_features(value),
        ),
        AnswerBody::Search(_) => (given_nothing(), "search", None),
    };
    if !args.without_trust {
        tally_answer::gate(&mut answer);
    }
    let given = match &answer {
        AnswerBody::Count(count) => given_count(count),
        AnswerBody::Value(value) => given_value(value),
        AnswerBody::Search(_) => given_nothing(),
    };
    Ok(Answered {
        raw,
        given,
        kind,
        features,
    })
}

/// A question's answer as the readers gave it and as the gates let it through, with the
/// gate's features.
struct Answered {
    raw: Given,
    given: Given,
    kind: &'static str,
    features: Option<Vec<f64>>,
}

/// A count: from the records when they decided it, else read by the count reader.
fn given_count(answer: &tally_types::count::CountAnswer) -> Given {
    let route = match answer.retrieval {
        Retrieval::Records => Route::Aggregation,
        _ => Route::Stated,
    };
    let note = match &answer.aggregation {
        Some(a) if answer.count.is_some() => a.explanation(),
        _ => answer.abstention.clone().unwrap_or_default(),
    };
    Given {
        value: answer.count,
        name: answer.aggregation.as_ref().and_then(|a| a.name.clone()),
        route,
        note,
    }
}

/// A value the page gives as the answer: one it is not sure of is not given.
fn given_value(answer: &tally_types::value::ValueAnswer) -> Given {
    Given {
        value: answer.value.filter(|_| answer.not_sure.is_none()),
        name: None,
        route: Route::Value,
        note: answer
            .not_sure
            .clone()
            .or_else(|| answer.note.clone())
            .unwrap_or_default(),
    }
}

/// A search's sentences give no number.
fn given_nothing() -> Given {
    Given {
        value: None,
        name: None,
        route: Route::Search,
        note: "answered as a search".to_string(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Right,
    Wrong,
    Declined,
}

/// A count is right when equal, a number within 1%, a chosen row when its name is the gold's
/// too; an unanswerable question is right when nothing is answered.
fn judge(case: &AggregationCase, given: &Given) -> Outcome {
    let (Some(gold), Some(value)) = (case.answer, given.value) else {
        return match (case.answer, given.value) {
            (None, None) => Outcome::Right,
            (Some(_), None) => Outcome::Declined,
            _ => Outcome::Wrong,
        };
    };
    let close = (value - gold).abs() <= 0.01 * gold.abs().max(1e-9);
    let named = match &case.name {
        Some(name) => given
            .name
            .as_deref()
            .is_some_and(|n| n.trim().eq_ignore_ascii_case(name.trim())),
        None => true,
    };
    if close && named {
        Outcome::Right
    } else {
        Outcome::Wrong
    }
}

fn read_cases(path: &Path) -> anyhow::Result<Vec<AggregationCase>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(n, line)| {
            serde_json::from_str(line)
                .with_context(|| format!("{}: line {} is not a question", path.display(), n + 1))
        })
        .collect()
}
