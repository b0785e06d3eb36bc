//! `tally eval own-documents`: count questions about a person's own documents, the open setting
//! the benchmarks' question-focused snippet sets do not measure (issue 47). The collection
//! (`tests/fixtures/own-documents`: documents written for the project from general knowledge, and
//! count questions about them, some the documents cannot answer) is ingested as an uploaded
//! corpus is, into a fresh snippet index that also holds the default corpus; each question is
//! answered twice, over the documents alone and with the default corpus as distractors, and
//! counted right, wrong or declined per half (tuning and test, fixed by a hash of the question).

use std::collections::BTreeMap;
use std::io::Write as _;

use serde::Serialize;
use std::sync::Arc;
use tally_documents::corpus::indexing::{self, Indexes};
use tally_documents::sentence_store::index::SentenceIndex;
use tally_lab::candidates::readers::{ReadersLine, ReadersLog};
use tally_lab::trust::{TrustLine, TrustLog};

use tally_answer::{Engines, HeldTables};
use tally_types::{AnswerBody, Mode};

use super::asked::Asking;
use super::own_document_instances::InstanceCheck;
use super::own_document_values::{judge, judge_as_sure, judge_records, Outcome};
use crate::cli::EvalOwnDocumentsArgs;
use tally_lab::collection::{
    read_collection_with, Collection, DocumentChoice, Half, OwnValueQuestion,
};
use tally_setup::loading::load_pipeline;

/// The corpus name the collection's documents are ingested under.
pub(crate) const CORPUS: &str = "own-documents";

/// Tallies of one half in one setting.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Tally {
    /// Questions asked.
    pub(crate) questions: usize,
    /// Questions the documents answer.
    pub(crate) answerable: usize,
    /// Answerable questions given the right answer.
    pub(crate) answerable_right: usize,
    /// Answerable questions given a wrong answer.
    pub(crate) answerable_wrong: usize,
    /// Answerable questions declined.
    pub(crate) answerable_declined: usize,
    /// Unanswerable questions declined.
    pub(crate) unanswerable_declined: usize,
    /// Unanswerable questions given an answer anyway.
    pub(crate) unanswerable_answered: usize,
}

impl Tally {
    fn add(&mut self, answerable: bool, outcome: Outcome) {
        self.questions += 1;
        match (answerable, outcome) {
            (true, Outcome::Right) => self.answerable_right += 1,
            (true, Outcome::Wrong) => self.answerable_wrong += 1,
            (true, Outcome::Declined) => self.answerable_declined += 1,
            (false, Outcome::Right | Outcome::Declined) => self.unanswerable_declined += 1,
            (false, Outcome::Wrong) => self.unanswerable_answered += 1,
        }
        if answerable {
            self.answerable += 1;
        }
    }

    /// Share of answerable questions answered right (the goal: at least 90%).
    pub(crate) fn answerable_right_share(&self) -> f64 {
        share(self.answerable_right, self.answerable)
    }

    /// Share of all questions given a wrong count (the goal: at most 5%).
    pub(crate) fn wrong_share(&self) -> f64 {
        share(
            self.answerable_wrong + self.unanswerable_answered,
            self.questions,
        )
    }
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Tallies by setting, kind of document (`all` for every kind) and half.
type Tallies = BTreeMap<(&'static str, String, Half), Tally>;

/// Tallies one question's outcome under its kind of document and under every kind.
fn tally_outcome(
    tallies: &mut Tallies,
    setting: &'static str,
    kind: &str,
    half: Half,
    answerable: bool,
    outcome: Outcome,
) {
    for kind in [kind.to_string(), ALL_KINDS.to_string()] {
        tallies
            .entry((setting, kind, half))
            .or_default()
            .add(answerable, outcome);
    }
}

/// The two settings every question is answered in: the documents alone, and with the default
/// corpus as distractors.
const SETTINGS: [(&str, Option<&str>); 2] =
    [("documents", Some(CORPUS)), ("with distractors", None)];

/// `tally eval own-documents`.
pub(crate) fn eval(args: &EvalOwnDocumentsArgs) -> anyhow::Result<()> {
    let choice = match (&args.documents, args.originals) {
        (Some(dir), false) => DocumentChoice::From(dir.clone()),
        (Some(dir), true) => DocumentChoice::OriginalsOf(dir.clone()),
        (None, _) => DocumentChoice::All,
    };
    let collection = read_collection_with(&args.dir, &choice)?;
    // Over the documents alone, the default corpus is not needed.
    let data = args.data.dir().filter(|_| !args.documents_only);
    let _ = std::fs::remove_dir_all(&args.work);
    // The default corpus first (the distractors), then the documents under their own name.
    let snippets =
        tally_setup::loading::open_snippet_index(&args.work.join("snippets"), data.as_deref())?;
    let with_distractors =
        tally_setup::loading::open_sentence_index(&args.work.join("sentences"), data.as_deref())?;
    let alone = SentenceIndex::open_or_create(&args.work.join("sentences-alone"))?;
    indexing::ingest(
        &Indexes {
            snippets: Some(&snippets),
            sentences: Some(&with_distractors),
        },
        CORPUS,
        &collection.documents,
        &mut |_| {},
    )?;
    indexing::ingest(
        &Indexes {
            snippets: None,
            sentences: Some(&alone),
        },
        CORPUS,
        &collection.documents,
        &mut |_| {},
    )?;
    let mut misses = Vec::new();
    // The tables as a server reads them back from its snippet index.
    let records = HeldTables::default();
    let snippets = Arc::new(snippets);
    let pipeline = Arc::new(load_pipeline(&args.models)?);
    let engines_over = |sentences: SentenceIndex| -> anyhow::Result<Engines> {
        Ok(Engines {
            corpora_at_load: snippets.corpora()?,
            snippets: Arc::clone(&snippets),
            pipeline: Arc::clone(&pipeline),
            sentences,
            encoder: None,
            examples: Default::default(),
        })
    };
    let alone = engines_over(alone)?;
    let with_distractors = engines_over(with_distractors)?;
    if let Some(path) = &args.readers_answers {
        write_readers(path, &collection, &with_distractors, &records)?;
    }
    let mut instances = InstanceCheck::read(&args.dir)?;
    let asking = Asking {
        engines: &with_distractors,
        records: &records,
        records_first: true,
        ranked: !args.without_ranker,
    };
    let counts = count_tallies(args, &collection, &asking, &mut instances, &mut misses)?;
    let values = value_tallies(
        args,
        &collection,
        &records,
        [
            ("documents", &alone),
            ("with distractors", &with_distractors),
        ],
        &mut misses,
    )?;
    if args.json {
        return print_json(&counts, &values);
    }
    println!(
        "{} documents, {} count questions ({} answerable), {} value questions ({} answerable); \
         halves fixed by a hash of the question",
        collection.documents.len(),
        collection.questions.len(),
        collection
            .questions
            .iter()
            .filter(|q| q.answer.is_some())
            .count(),
        collection.values.len(),
        collection
            .values
            .iter()
            .filter(|q| q.answer.is_some())
            .count(),
    );
    println!("\ncount questions");
    print_table(&counts);
    println!("\nvalue questions");
    print_table(&values);
    instances.print();
    if !misses.is_empty() {
        println!(
            "\nnot right ({}):",
            if args.show_test {
                "both halves"
            } else {
                "tuning half only; --show-test for the test half"
            }
        );
        for miss in misses {
            println!("  {miss}");
        }
    }
    Ok(())
}

/// Answers every value question in each setting, as the home page asks it (the records first);
/// tallies them and notes the misses.
fn value_tallies(
    args: &EvalOwnDocumentsArgs,
    collection: &Collection,
    records: &HeldTables,
    settings: [(&'static str, &Engines); 2],
    misses: &mut Vec<String>,
) -> anyhow::Result<Tallies> {
    let mut values = Tallies::new();
    let mut trust_log = TrustLog::open(args.trust_features.as_deref())?;
    let mut supports = args
        .value_supports
        .as_ref()
        .map(|path| std::fs::File::create(path).map(std::io::BufWriter::new))
        .transpose()?;
    for (setting, engines) in settings {
        if args.documents_only && setting != "documents" {
            continue;
        }
        // The documents alone keep to their corpus; with distractors, every corpus is read.
        let corpus = (setting == "documents").then_some(CORPUS);
        for q in &collection.values {
            // Asked as the home page asks it, through the one decision: the tables in scope
            // first (issues 74 and 86), then the kind detected.
            let asking = Asking {
                engines,
                records,
                records_first: true,
                ranked: !args.without_ranker,
            };
            let answer = asking.ungated(&q.question, Mode::Auto, &corpus_settings(corpus))?;
            let (outcome, given) = judged_value(
                args,
                setting,
                q,
                answer.answer,
                &mut trust_log,
                &mut supports,
            )?;
            let half = Half::of(&q.question);
            let kind = collection.kind_of(&q.document);
            tally_outcome(
                &mut values,
                setting,
                kind,
                half,
                q.answer.is_some(),
                outcome,
            );
            if outcome != Outcome::Right && (args.show_test || half == Half::Tuning) {
                misses.push(format!(
                    "[value, {setting}, {}] {} — gold {}, given {given}",
                    half.name(),
                    q.question,
                    q.answer.as_deref().unwrap_or("none"),
                ));
            }
        }
    }
    Ok(values)
}

/// A value question's answer judged against its gold, logged for the trust gates (and the
/// value reader's supports) before the gates check it: the outcome and what was given.
fn judged_value(
    args: &EvalOwnDocumentsArgs,
    setting: &str,
    q: &OwnValueQuestion,
    answer: AnswerBody,
    trust_log: &mut TrustLog,
    supports: &mut Option<std::io::BufWriter<std::fs::File>>,
) -> anyhow::Result<(Outcome, String)> {
    // The outcome and what was given, from the records or the value reader.
    let line = |kind: &str, given: bool, right: bool, features| TrustLine {
        kind: kind.into(),
        setting: format!("own-documents/{setting}"),
        half: Half::of(&q.question).name().into(),
        document: q.document.clone(),
        question: q.question.clone(),
        given,
        right,
        features,
    };
    let judged = match answer {
        AnswerBody::Count(mut counted) => {
            let right = judge_records(&counted, q.answer.as_deref());
            trust_log.write(&line(
                "count",
                counted.count.is_some(),
                right == Outcome::Right,
                tally_engine::trust::count_features(&counted),
            ))?;
            if !args.without_trust {
                tally_engine::trust::check_count(&mut counted);
            }
            let given = counted.count.map_or("nothing".into(), |v| v.to_string());
            let by = match counted.retrieval {
                tally_types::count::Retrieval::Records => "over the records",
                _ => "by the count reader",
            };
            (
                judge_records(&counted, q.answer.as_deref()),
                format!("{given} {by}"),
            )
        }
        AnswerBody::Value(mut answer) => {
            if let (Some(line), Some(out)) = (support_line(setting, q, &answer), supports.as_mut())
            {
                writeln!(out, "{line}")?;
            }
            let as_given = judge(&answer, q.answer.as_deref());
            trust_log.write(&line(
                "value",
                answer.value.is_some() && answer.not_sure.is_none(),
                as_given == Outcome::Right,
                tally_engine::trust::value_features(&answer),
            ))?;
            if !args.without_trust {
                tally_engine::trust::check_value(&mut answer);
            }
            (
                judge(&answer, q.answer.as_deref()),
                answer.value.map_or_else(
                    || format!("no answer ({})", answer.note.as_deref().unwrap_or("")),
                    |v| format!("{v} {}", answer.unit.as_deref().unwrap_or_default()),
                ),
            )
        }
        // A search gives sentences, no value.
        AnswerBody::Search(_) => (
            match q.answer {
                Some(_) => Outcome::Declined,
                None => Outcome::Right,
            },
            "no answer (answered as a search)".to_string(),
        ),
    };
    Ok(judged)
}

/// A line of the value-support file (`--value-supports`): a value's support and whether it
/// would be right given as sure.
fn support_line(
    setting: &str,
    q: &OwnValueQuestion,
    answer: &tally_types::ValueAnswer,
) -> Option<serde_json::Value> {
    Some(serde_json::json!({
        "setting": setting,
        "half": Half::of(&q.question).name(),
        "question": q.question,
        "support": answer.support()?,
        "right": judge_as_sure(answer, q.answer.as_deref()) == Outcome::Right,
    }))
}

/// Writes what the readers answer to each count and value question over the collection alone,
/// asked as the home page asks (the kind detected, the records first) with the ranker off.
fn write_readers(
    path: &std::path::Path,
    collection: &Collection,
    engines: &Engines,
    records: &HeldTables,
) -> anyhow::Result<()> {
    let asking = Asking {
        engines,
        records,
        records_first: true,
        ranked: false,
    };
    let settings = corpus_settings(Some(CORPUS));
    let mut log = ReadersLog::create(path)?;
    let questions = collection.questions.iter().map(|q| &q.question);
    for question in questions.chain(collection.values.iter().map(|q| &q.question)) {
        let answer = asking.ungated(question, Mode::Auto, &settings)?;
        log.write(&ReadersLine::of(question, &answer.answer))?;
    }
    Ok(log.finish()?)
}

/// The name of the rows that hold every kind of document.
const ALL_KINDS: &str = "all";

/// The count settings of a question asked over `corpus` (every corpus when `None`).
fn corpus_settings(corpus: Option<&str>) -> tally_types::CountSettings {
    tally_types::CountSettings {
        corpus: corpus.map(str::to_string),
        ..Default::default()
    }
}

/// Answers every count question in both settings; tallies them, notes the instances and the
/// misses.
fn count_tallies(
    args: &EvalOwnDocumentsArgs,
    collection: &Collection,
    asking: &Asking<'_>,
    instances: &mut InstanceCheck,
    misses: &mut Vec<String>,
) -> anyhow::Result<Tallies> {
    let base = args.settings.0.clone();
    let mut tallies = Tallies::new();
    let mut trust_log = TrustLog::open(args.trust_features.as_deref())?;
    for (setting, corpus) in SETTINGS {
        if args.documents_only && corpus.is_none() {
            continue;
        }
        let mut settings = base.clone();
        settings.corpus = corpus.map(str::to_string);
        for q in &collection.questions {
            // Asked as a count question, through the one decision: the tables in scope first
            // (issues 74 and 86), then the count pipeline.
            let AnswerBody::Count(answer) =
                asking.ungated(&q.question, Mode::Count, &settings)?.answer
            else {
                anyhow::bail!(
                    "the count question “{}” was not answered as a count",
                    q.question
                );
            };
            let mut answer = *answer;
            let outcome_of = |count: Option<f64>| match (count, q.answer) {
                (None, None) => Outcome::Right,
                (None, Some(_)) => Outcome::Declined,
                (Some(_), None) => Outcome::Wrong,
                (Some(given), Some(gold)) if (given - gold).abs() < 1e-9 => Outcome::Right,
                (Some(_), Some(_)) => Outcome::Wrong,
            };
            // The gate's features and label from the answer as the readers gave it.
            let features = tally_engine::trust::count_features(&answer);
            let given = outcome_of(answer.count);
            trust_log.write(&TrustLine {
                kind: "count".into(),
                setting: format!("own-documents/{setting}"),
                half: Half::of(&q.question).name().into(),
                document: q.document.clone(),
                question: q.question.clone(),
                given: answer.count.is_some(),
                right: given == Outcome::Right,
                features,
            })?;
            if !args.without_trust {
                tally_engine::trust::check_count(&mut answer);
            }
            let outcome = outcome_of(answer.count);
            if corpus.is_some() {
                instances.add(&q.question, &answer.instances);
            }
            let half = Half::of(&q.question);
            let kind = collection.kind_of(&q.document);
            tally_outcome(
                &mut tallies,
                setting,
                kind,
                half,
                q.answer.is_some(),
                outcome,
            );
            if outcome != Outcome::Right && (args.show_test || half == Half::Tuning) {
                misses.push(format!(
                    "[{setting}, {}] {} — gold {}, given {}",
                    half.name(),
                    q.question,
                    q.answer.map_or("none".to_string(), |a| a.to_string()),
                    answer.count.map_or_else(
                        || match &answer.cnp_rep {
                            Some(closest) => format!(
                                "no answer (closest “{}”, support {:.2})",
                                closest.text, answer.support
                            ),
                            None => "no answer (no count taken)".to_string(),
                        },
                        |c| format!("{c} (support {:.2})", answer.support)
                    )
                ));
            }
        }
    }
    Ok(tallies)
}

/// One row per setting, kind and half.
fn print_table(tallies: &Tallies) {
    println!(
        "{:<18} {:<11} {:<7} {:>9} {:>22} {:>10} {:>12} {:>22} {:>8}",
        "setting",
        "kind",
        "half",
        "questions",
        "answerable right",
        "declined",
        "wrong",
        "unanswerable declined",
        "wrong %"
    );
    for ((setting, kind, half), t) in tallies {
        println!(
            "{:<18} {:<11} {:<7} {:>9} {:>14}/{:<3} {:>5.1}% {:>10} {:>12} {:>17}/{:<3} {:>1} {:>7.1}%",
            setting,
            kind,
            half.name(),
            t.questions,
            t.answerable_right,
            t.answerable,
            100.0 * t.answerable_right_share(),
            t.answerable_declined,
            t.answerable_wrong,
            t.unanswerable_declined,
            t.questions - t.answerable,
            "",
            100.0 * t.wrong_share()
        );
    }
}

/// The tallies as JSON (`--json`): count and value rows.
fn print_json(counts: &Tallies, values: &Tallies) -> anyhow::Result<()> {
    let rows = |tallies: &Tallies| -> Vec<serde_json::Value> {
        tallies
            .iter()
            .map(|((setting, kind, half), t)| {
                serde_json::json!({
                    "setting": setting,
                    "kind": kind,
                    "half": half.name(),
                    "tally": t,
                    "answerable_right": t.answerable_right_share(),
                    "wrong": t.wrong_share(),
                })
            })
            .collect()
    };
    let all = serde_json::json!({ "count": rows(counts), "value": rows(values) });
    println!("{}", serde_json::to_string_pretty(&all)?);
    Ok(())
}
