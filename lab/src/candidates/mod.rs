//! Oracle recall of the candidate answers (issue 98): for each question with a number for
//! answer, whether the right number is among the candidates `tally_engine::candidates` makes
//! over the question's table as Tally reads it, and how many candidates there are.

mod bench;
pub mod boost;
mod collection;
pub mod ranker;
pub mod readers;
mod wtq;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;
use tally_engine::candidates::{candidates, Candidate, Operation, Program, Rows, Source};

pub use bench::{bench, BenchReport};
pub use collection::{read_collection, CollectionQuestion, Corpus};
pub use wtq::{numeric_questions, TableCache, WtqQuestion};

use crate::collection::Half;
use crate::statistics::quantile;

/// Which of WikiTableQuestions' questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Split {
    /// `random-split-1-dev.tsv`: what is reported.
    Dev,
    /// `random-split-1-train.tsv`: what is looked into while building.
    Train,
}

impl Split {
    fn file(self) -> &'static str {
        match self {
            Split::Dev => "random-split-1-dev.tsv",
            Split::Train => "random-split-1-train.tsv",
        }
    }
}

/// How a table is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Its cells as CSV.
    Csv,
    /// The HTML page Wikipedia wrote.
    Html,
}

/// Recall over one group of questions.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Group {
    /// Questions in the group.
    pub questions: usize,
    /// Questions whose answer is among the candidates.
    pub found: usize,
    /// Questions where no table was read.
    pub no_table: usize,
    /// The candidates of each question.
    #[serde(skip)]
    pub counts: Vec<usize>,
}

impl Group {
    /// Found over questions.
    pub fn recall(&self) -> f64 {
        self.found as f64 / self.questions.max(1) as f64
    }

    /// The candidates per question at quantile `q` (0.5 for the median).
    pub fn candidates_at(&self, q: f64) -> usize {
        let mut sorted: Vec<f64> = self.counts.iter().map(|n| *n as f64).collect();
        sorted.sort_by(f64::total_cmp);
        quantile(&sorted, q) as usize
    }
}

/// A question whose answer was not among its candidates.
#[derive(Debug, Clone, Serialize)]
pub struct Miss {
    /// The data set's id.
    pub id: String,
    /// The question.
    pub question: String,
    /// Its table.
    pub context: String,
    /// The right answer as written.
    pub answer: String,
    /// The candidates' count.
    pub candidates: usize,
}

/// The evaluation's figures.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// Recall per group ("all", "kind: count", "type: how many", …).
    pub groups: BTreeMap<String, Group>,
    /// Milliseconds to enumerate one question's candidates, per question.
    #[serde(skip)]
    pub millis: Vec<f64>,
    /// Questions missed, in order.
    pub misses: Vec<Miss>,
}

impl Report {
    fn tally(&mut self, groups: &[String], right: bool, no_table: bool, candidates: usize) {
        for name in groups {
            let group = self.groups.entry(name.clone()).or_default();
            group.questions += 1;
            group.found += usize::from(right);
            group.no_table += usize::from(no_table);
            group.counts.push(candidates);
        }
    }
}

/// Runs the candidates over a collection's questions, the whole collection one corpus; only
/// the tuning half's misses are kept (the test half is reported, never looked into).
pub fn evaluate_collection(corpus: &Corpus, questions: &[CollectionQuestion]) -> Report {
    let mut report = Report::default();
    for question in questions {
        let Some(answer) = question.answer else {
            continue;
        };
        let started = Instant::now();
        let found = candidates(&question.question, &corpus.tables, &corpus.passages);
        report.millis.push(started.elapsed().as_secs_f64() * 1000.0);
        let right = found
            .iter()
            .any(|c| is_answer(c, answer, &question.written));
        let half = question.half.name();
        let mut groups = vec![
            "all".to_string(),
            format!("half: {half}"),
            format!("{half}, kind: {}", question.kind),
        ];
        if let Some(format) = corpus.formats.get(&question.document) {
            groups.push(format!("{half}, format: {format}"));
        }
        if let Some(kind) = corpus.kinds.get(&question.document) {
            groups.push(format!("{half}, document: {kind}"));
        }
        report.tally(
            &groups,
            right,
            corpus.tables.tables().is_empty(),
            found.len(),
        );
        if !right && question.half == Half::Tuning {
            report.misses.push(Miss {
                id: question.kind.to_string(),
                question: question.question.clone(),
                context: question.document.clone(),
                answer: question.written.clone(),
                candidates: found.len(),
            });
        }
    }
    report
}

/// The table of the first question after the `i`-th (round the split) asked of another table;
/// `None` when every question is asked of the same one.
fn other_table(questions: &[WtqQuestion], i: usize) -> Option<&str> {
    let own = &questions[i].context;
    (1..questions.len())
        .map(|step| &questions[(i + step) % questions.len()].context)
        .find(|context| *context != own)
        .map(String::as_str)
}

/// Count questions ask how many; the rest ask a value.
fn kind_of(question: &str) -> &'static str {
    let q = question.to_lowercase();
    if q.contains("how many") || q.contains("number of") {
        "count"
    } else {
        "value"
    }
}

/// The question's type by its opening words.
pub(crate) fn type_of(question: &str) -> &'static str {
    let q = question.to_lowercase();
    if q.contains("how many") {
        "how many"
    } else if q.contains("difference") || q.contains(" more ") || q.contains(" less ") {
        "difference"
    } else if q.contains("number of") {
        "number of"
    } else if q.contains("year") || q.starts_with("when") {
        "a year"
    } else if q.contains("total") || q.contains("average") || q.contains("sum") {
        "total or average"
    } else if q.starts_with("what") || q.starts_with("which") {
        "what / which"
    } else {
        "other"
    }
}

/// The operation a question asks for, read from the first reading that gives its gold answer
/// (WikiTableQuestions gives no program, so a spurious reading can stand in): the issue's
/// question types — a count with a condition, a total, an average, a difference, the largest
/// or smallest value, a cell.
pub(crate) fn reads_as(found: &[Candidate], positive: &[bool]) -> &'static str {
    let first = found
        .iter()
        .zip(positive)
        .filter(|(_, p)| **p)
        .find_map(|(c, _)| c.readings.first());
    let Some(reading) = first else {
        return "reads as: not among the candidates";
    };
    let program = match &reading.source {
        Source::Table { program, .. } => program,
        Source::Passage { .. } => return "reads as: a passage",
    };
    let plan = match program {
        Program::Difference(..) => return "reads as: a difference",
        Program::Total(..) => return "reads as: a total of two cells",
        Program::One(plan) => plan,
    };
    match plan.operation {
        Operation::Count | Operation::CountDistinct(_) if plan.rows == Rows::All => {
            "reads as: a count of all rows"
        }
        Operation::Count | Operation::CountDistinct(_) => "reads as: a count with a condition",
        Operation::Sum(_) => "reads as: a total",
        Operation::Average(_) => "reads as: an average",
        Operation::Largest(_) | Operation::Smallest(_) | Operation::Range(_) => {
            "reads as: the largest or smallest"
        }
        Operation::LargestGroup(_) | Operation::MostCommon(_) => "reads as: the most common",
        Operation::Cell { .. } => "reads as: a cell",
    }
}

/// Whether a candidate is the written answer: equal to a millionth, or rounded to the
/// decimals the answer is written with ("125.17" for 125.1667).
pub(crate) fn is_answer(candidate: &Candidate, answer: f64, written: &str) -> bool {
    let decimals = written.split_once('.').map_or(0, |(_, after)| {
        after.chars().take_while(char::is_ascii_digit).count()
    });
    let exact = (candidate.value - answer).abs() <= 1e-6 * answer.abs().max(1.0);
    let rounded = decimals > 0
        && (candidate.value - answer).abs() <= 0.5 * 10f64.powi(-(decimals as i32)) + 1e-9;
    exact || rounded
}

/// Runs the candidates over the questions, reading each table in `format`.
/// With `control`, each question is asked of the next different table among the questions
/// (chance level). Misses are kept only for the train split: the dev split is not looked into.
pub fn evaluate(
    dir: &Path,
    questions: &[WtqQuestion],
    split: Split,
    format: TableFormat,
    control: bool,
) -> anyhow::Result<Report> {
    let mut cache = TableCache::default();
    let mut report = Report::default();
    let format_name = match format {
        TableFormat::Csv => "format: csv",
        TableFormat::Html => "format: html",
    };
    for (i, question) in questions.iter().enumerate() {
        let context = if control {
            other_table(questions, i).ok_or_else(|| {
                anyhow::anyhow!("--control needs questions over at least two tables")
            })?
        } else {
            &question.context
        };
        let tables = cache.tables(dir, context, format)?;
        let started = Instant::now();
        let found = candidates(&question.utterance, tables, &[]);
        report.millis.push(started.elapsed().as_secs_f64() * 1000.0);
        let right = found
            .iter()
            .any(|c| is_answer(c, question.answer, &question.written));
        let groups = [
            "all".to_string(),
            format!("kind: {}", kind_of(&question.utterance)),
            format!("type: {}", type_of(&question.utterance)),
            format_name.to_string(),
        ];
        report.tally(&groups, right, tables.tables().is_empty(), found.len());
        if !right && split == Split::Train {
            report.misses.push(Miss {
                id: question.id.clone(),
                question: question.utterance.clone(),
                context: context.to_string(),
                answer: question.written.clone(),
                candidates: found.len(),
            });
        }
    }
    Ok(report)
}
