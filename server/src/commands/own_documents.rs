//! `tally eval own-documents`: count questions about a person's own documents, the open setting
//! the benchmarks' question-focused snippet sets do not measure (issue 47). The collection
//! (`tests/fixtures/own-documents`: documents written for the project from general knowledge, and
//! count questions about them, some the documents cannot answer) is ingested as an uploaded
//! corpus is, into a fresh snippet index that also holds the default corpus; each question is
//! answered twice, over the documents alone and with the default corpus as distractors, and
//! counted right, wrong or declined per half (tuning and test, fixed by a hash of the question).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use tally_engine::corpus::documents::{self, Indexes};
use tally_engine::search::index::Document;

use super::count::{count_settings, load_pipeline};
use super::own_document_instances::InstanceCheck;
use crate::cli::{data_dir_or_default, EvalOwnDocumentsArgs};

/// The corpus name the collection's documents are ingested under.
const CORPUS: &str = "own-documents";

/// One question of the collection: its count, or `None` when the documents do not say.
#[derive(Debug, Clone, Deserialize)]
pub struct OwnQuestion {
    pub question: String,
    pub answer: Option<f64>,
    /// The document it is about (its file name without `.txt`).
    pub document: String,
    /// How the count is written: digits, spelled, list, several (one of several counts in a
    /// sentence), none (unanswerable).
    pub form: String,
}

/// Which half a question belongs to: fixed by a hash of its text (FNV-1a), never by its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Half {
    Tuning,
    Test,
}

impl Half {
    pub fn of(question: &str) -> Half {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in question.trim().to_lowercase().bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        if hash.is_multiple_of(2) {
            Half::Tuning
        } else {
            Half::Test
        }
    }

    fn name(self) -> &'static str {
        match self {
            Half::Tuning => "tuning",
            Half::Test => "test",
        }
    }
}

/// What became of one question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// The right count, or a decline where the documents do not say.
    Right,
    /// A count that is not the answer (any count, where the documents do not say).
    Wrong,
    /// "No reliable answer" where the documents say.
    Declined,
}

/// Tallies of one half in one setting.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Tally {
    pub questions: usize,
    pub answerable: usize,
    pub answerable_right: usize,
    pub answerable_wrong: usize,
    pub answerable_declined: usize,
    pub unanswerable_declined: usize,
    pub unanswerable_answered: usize,
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
    pub fn answerable_right_share(&self) -> f64 {
        share(self.answerable_right, self.answerable)
    }

    /// Share of all questions given a wrong count (the goal: at most 5%).
    pub fn wrong_share(&self) -> f64 {
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

/// The collection in `dir`: its documents (`documents/*.txt`) and questions (`questions.jsonl`).
pub fn read_collection(dir: &Path) -> anyhow::Result<(Vec<Document>, Vec<OwnQuestion>)> {
    let documents_dir = dir.join("documents");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&documents_dir)
        .with_context(|| format!("cannot read {}", documents_dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    let mut documents = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        documents.extend(documents::read(
            &text,
            tally_engine::corpus::format::Format::Text,
            name,
        )?);
    }
    let questions_path = dir.join("questions.jsonl");
    let text = std::fs::read_to_string(&questions_path)
        .with_context(|| format!("cannot read {}", questions_path.display()))?;
    let mut questions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let question: OwnQuestion = serde_json::from_str(line)
            .with_context(|| format!("{}, line {}", questions_path.display(), n + 1))?;
        if !documents.iter().any(|d| d.id == question.document) {
            anyhow::bail!(
                "{}, line {}: no document `{}`",
                questions_path.display(),
                n + 1,
                question.document
            );
        }
        questions.push(question);
    }
    Ok((documents, questions))
}

/// `tally eval own-documents`.
pub fn eval(args: &EvalOwnDocumentsArgs) -> anyhow::Result<()> {
    let (docs, questions) = read_collection(&args.dir)?;
    let data = data_dir_or_default(&args.data);
    let index_dir = args.work.join("snippets");
    let _ = std::fs::remove_dir_all(&index_dir);
    // The default corpus first (the distractors), then the documents under their own name.
    let snippets = crate::loading::open_snippet_index(&index_dir, data.as_deref())?;
    let indexes = Indexes {
        snippets: Some(&snippets),
        sentences: None,
    };
    documents::ingest(&indexes, CORPUS, &docs, &mut |_| {})?;
    let pipeline = load_pipeline(&args.models)?;
    let base = count_settings(&args.settings)?;
    let mut tallies: BTreeMap<(&'static str, Half), Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut instances = InstanceCheck::read(&args.dir)?;
    for (setting, corpus) in [("documents", Some(CORPUS)), ("with distractors", None)] {
        let mut settings = base.clone();
        settings.corpus = corpus.map(str::to_string);
        for q in &questions {
            let answer = pipeline.answer_from_index(&snippets, &q.question, &settings)?;
            let outcome = match (answer.count, q.answer) {
                (None, None) => Outcome::Right,
                (None, Some(_)) => Outcome::Declined,
                (Some(_), None) => Outcome::Wrong,
                (Some(given), Some(gold)) if (given - gold).abs() < 1e-9 => Outcome::Right,
                (Some(_), Some(_)) => Outcome::Wrong,
            };
            if corpus.is_some() {
                instances.add(&q.question, &answer.instances);
            }
            let half = Half::of(&q.question);
            tallies
                .entry((setting, half))
                .or_default()
                .add(q.answer.is_some(), outcome);
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
    if args.json {
        return print_json(&tallies);
    }
    println!(
        "{} documents, {} questions ({} answerable); halves fixed by a hash of the question",
        docs.len(),
        questions.len(),
        questions.iter().filter(|q| q.answer.is_some()).count()
    );
    println!(
        "{:<18} {:<7} {:>9} {:>22} {:>10} {:>12} {:>22} {:>8}",
        "setting",
        "half",
        "questions",
        "answerable right",
        "declined",
        "wrong count",
        "unanswerable declined",
        "wrong %"
    );
    for ((setting, half), t) in &tallies {
        println!(
            "{:<18} {:<7} {:>9} {:>14}/{:<3} {:>5.1}% {:>10} {:>12} {:>17}/{:<3} {:>1} {:>7.1}%",
            setting,
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

/// The tallies as one JSON array (`--json`).
fn print_json(tallies: &BTreeMap<(&'static str, Half), Tally>) -> anyhow::Result<()> {
    let rows: Vec<_> = tallies
        .iter()
        .map(|((setting, half), t)| {
            serde_json::json!({
                "setting": setting,
                "half": half.name(),
                "tally": t,
                "answerable_right": t.answerable_right_share(),
                "wrong": t.wrong_share(),
            })
        })
        .collect();
    println!("{}", serde_json::to_string_pretty(&rows)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_collection_is_read_and_split_in_two_fixed_halves() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/own-documents");
        let (docs, questions) = read_collection(&dir).unwrap();
        assert!(docs.len() >= 30, "{}", docs.len());
        assert!(questions.len() >= 150, "{}", questions.len());
        let unanswerable = questions.iter().filter(|q| q.answer.is_none()).count();
        assert!(unanswerable >= 30, "{unanswerable}");
        let tuning = questions
            .iter()
            .filter(|q| Half::of(&q.question) == Half::Tuning)
            .count();
        let share = tuning as f64 / questions.len() as f64;
        assert!(
            (0.35..0.65).contains(&share),
            "{tuning} of {}",
            questions.len()
        );
        // The half is the question's, whatever its case or surrounding space.
        assert_eq!(Half::of("How many moons "), Half::of("how many moons"));
    }
}
