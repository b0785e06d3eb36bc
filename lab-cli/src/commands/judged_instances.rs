//! The judged instance set of `tally eval instances` (issue 60): count questions from the data
//! sets' snippet sets and the own-documents collection, each with the candidate names a person
//! judged — an instance of the counted kind, a thing of the wrong kind, or no instance at all
//! (a unit, a role, a heading). Each question is answered as a user asks it (its stored snippets,
//! or the collection's documents alone), and the names the answer shows are scored: the
//! precision of the shown top 5 and how often nothing is shown.
//!
//! Halves are fixed by where a question comes from: Stresstest and LC-QuAD-count questions tune,
//! NQ dev questions are only reported, and the collection's questions keep the collection's
//! halves ([`Half::of`]).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use tally_documents::corpus::indexing::{self, Indexes};
use tally_documents::snippet_index::SnippetIndex;
use tally_engine::count::pipeline::carry_on;
use tally_engine::count::CountPipeline;
use tally_types::CountAnswer;
use tally_types::CountSettings;

use super::own_documents::CORPUS;
use tally_lab::collection::{read_collection, Half};

/// How many of an answer's instances a person reads as its proof.
pub(crate) const SHOWN: usize = 5;

/// Where a judged question and its evidence come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Source {
    /// Questions of the Stresstest count data set.
    Stresstest,
    /// Questions of the count LC-QuAD data set.
    Lcquad,
    /// Questions of Natural Questions' dev set.
    NqDev,
    /// Questions about the own-documents collection.
    OwnDocuments,
    /// Visitors' marks accepted in the review queue (`tally train instances --judgments`):
    /// training data.
    Feedback,
}

/// What a person made of a candidate name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Judgment {
    /// One of the things the question counts ("Romansh" for Switzerland's official languages).
    Instance,
    /// A thing, but of another kind or of another subject ("Zurich", "Dutch").
    WrongKind,
    /// No thing at all: a unit, a role, a heading, a word that only looks like a name.
    NotInstance,
}

/// One judged question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct JudgedQuestion {
    /// The question as asked.
    pub(crate) question: String,
    /// Where the question and its evidence come from.
    pub(crate) source: Source,
    /// Each candidate name (as the answer showed it) with its judgment.
    pub(crate) judged: BTreeMap<String, Judgment>,
}

impl JudgedQuestion {
    /// The fixed half: data-set questions by their set, the collection's by its hash.
    pub(crate) fn half(&self) -> Half {
        match self.source {
            Source::Stresstest | Source::Lcquad | Source::Feedback => Half::Tuning,
            Source::NqDev => Half::Test,
            Source::OwnDocuments => Half::of(&self.question),
        }
    }

    /// The judgment of a shown name: its own, or that of the judged name with the same words
    /// (case and punctuation aside); `None` when nobody judged it.
    pub(crate) fn judgment_of(&self, name: &str) -> Option<Judgment> {
        let key = name_key(name);
        self.judged
            .iter()
            .find(|(judged, _)| name_key(judged) == key)
            .map(|(_, j)| *j)
    }

    /// The settings a user asking this question would have: the collection's questions are
    /// asked of the documents alone.
    pub(crate) fn settings(&self, base: &CountSettings) -> CountSettings {
        let mut settings = base.clone();
        if self.source == Source::OwnDocuments {
            settings.corpus = Some(CORPUS.to_string());
        }
        settings
    }
}

/// A name's words, lower-cased: the key judged and shown names are matched by.
fn name_key(name: &str) -> String {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The instance marks of accepted judgments (`GET /api/admin/judgments`), one judged question
/// per question asked: relevant is an instance, not relevant none.
pub(crate) fn from_feedback(judgments: &[tally_store::review::Judgment]) -> Vec<JudgedQuestion> {
    use tally_types::{FeedbackPart, Verdict};
    let mut questions: Vec<JudgedQuestion> = Vec::new();
    for j in judgments
        .iter()
        .filter(|j| j.part == FeedbackPart::Instance)
    {
        let (Some(name), Some(judgment)) = (
            j.part_ref.clone(),
            match j.verdict {
                Verdict::Relevant => Some(Judgment::Instance),
                Verdict::NotRelevant => Some(Judgment::NotInstance),
                _ => None,
            },
        ) else {
            continue;
        };
        let key = tally_types::request::question_key(&j.question);
        let at = questions
            .iter()
            .position(|q| tally_types::request::question_key(&q.question) == key);
        let question = match at {
            Some(at) => &mut questions[at],
            None => {
                questions.push(JudgedQuestion {
                    question: j.question.clone(),
                    source: Source::Feedback,
                    judged: BTreeMap::new(),
                });
                questions.last_mut().expect("just pushed")
            }
        };
        question.judged.insert(name, judgment);
    }
    questions
}

/// Reads the judged set (one [`JudgedQuestion`] per line).
pub(crate) fn read_judged(path: &Path) -> anyhow::Result<Vec<JudgedQuestion>> {
    tally_lab::collection::read_json_lines(path)
}

/// A fresh snippet index holding the default corpus (the data sets' snippet sets) and the
/// own-documents collection under its corpus name, built in `work`.
pub(crate) fn judged_index(
    work: &Path,
    data: Option<&Path>,
    collection_dir: &Path,
) -> anyhow::Result<SnippetIndex> {
    let collection = read_collection(collection_dir)?;
    let _ = std::fs::remove_dir_all(work);
    let index = tally_setup::loading::open_snippet_index(&work.join("snippets"), data)?;
    indexing::ingest(
        &Indexes {
            snippets: Some(&index),
            sentences: None,
        },
        CORPUS,
        &collection.documents,
        &mut |_| {},
    )?;
    Ok(index)
}

/// Answers each judged question as a user would ask it.
pub(crate) fn answer_all(
    pipeline: &CountPipeline,
    index: &SnippetIndex,
    questions: &[JudgedQuestion],
    settings: &CountSettings,
) -> anyhow::Result<Vec<CountAnswer>> {
    questions
        .iter()
        .map(|q| {
            pipeline
                .answer_from_index(index, &q.question, &q.settings(settings), &mut carry_on)
                .with_context(|| format!("answering “{}”", q.question))
        })
        .collect()
}

/// The judged set's figures for one half.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct ShownFigures {
    /// Questions of the half.
    pub(crate) questions: usize,
    /// Questions given a count.
    pub(crate) answered: usize,
    /// Answered questions showing at least one name.
    pub(crate) answered_showing: usize,
    /// Questions showing no name at all.
    pub(crate) nothing_shown: usize,
    /// Names shown (at most [`SHOWN`] a question).
    pub(crate) shown: usize,
    /// Shown names judged instances of the counted kind.
    pub(crate) shown_instances: usize,
    /// Shown names judged of the wrong kind / no instance / not judged (counted as not
    /// instances).
    pub(crate) shown_wrong_kind: usize,
    /// Shown names judged no instance.
    pub(crate) shown_not_instance: usize,
    /// Shown names nobody judged.
    pub(crate) shown_unjudged: usize,
    /// Judged instances, at most [`SHOWN`] a question, and how many of them are shown.
    pub(crate) instances_known: usize,
    /// Of those judged instances, how many are shown.
    pub(crate) instances_shown: usize,
}

impl ShownFigures {
    /// Adds one question's answer.
    pub(crate) fn add(&mut self, question: &JudgedQuestion, answer: &CountAnswer) {
        self.questions += 1;
        let shown: Vec<&str> = answer
            .instances
            .iter()
            .take(SHOWN)
            .map(|i| i.name.as_str())
            .collect();
        if answer.count.is_some() {
            self.answered += 1;
            if !shown.is_empty() {
                self.answered_showing += 1;
            }
        }
        if shown.is_empty() {
            self.nothing_shown += 1;
        }
        self.shown += shown.len();
        let mut instances_here = 0;
        for name in &shown {
            match question.judgment_of(name) {
                Some(Judgment::Instance) => instances_here += 1,
                Some(Judgment::WrongKind) => self.shown_wrong_kind += 1,
                Some(Judgment::NotInstance) => self.shown_not_instance += 1,
                None => self.shown_unjudged += 1,
            }
        }
        self.shown_instances += instances_here;
        let known = question
            .judged
            .values()
            .filter(|j| **j == Judgment::Instance)
            .count()
            .min(SHOWN);
        self.instances_known += known;
        self.instances_shown += instances_here.min(known);
    }

    /// Share of the shown names that are instances of the counted kind.
    pub(crate) fn precision(&self) -> f64 {
        ratio(self.shown_instances, self.shown)
    }

    /// Share of answered questions that show at least one name.
    pub(crate) fn showing_share(&self) -> f64 {
        ratio(self.answered_showing, self.answered)
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The figures of each half.
pub(crate) fn figures(
    questions: &[JudgedQuestion],
    answers: &[CountAnswer],
) -> BTreeMap<Half, ShownFigures> {
    let mut halves: BTreeMap<Half, ShownFigures> = BTreeMap::new();
    for (q, a) in questions.iter().zip(answers) {
        halves.entry(q.half()).or_default().add(q, a);
    }
    halves
}

/// The judged set's table.
pub(crate) fn print_figures(halves: &BTreeMap<Half, ShownFigures>) {
    println!(
        "\njudged instance set (shown = the answer's top {SHOWN}; unjudged names count as not instances)"
    );
    println!(
        "{:<7} {:>9} {:>8} {:>14} {:>8} {:>6} {:>10} {:>10} {:>6} {:>9} {:>14}",
        "half",
        "questions",
        "answered",
        "showing names",
        "nothing",
        "shown",
        "precision",
        "wrong kind",
        "not",
        "unjudged",
        "instances shown"
    );
    for (half, f) in halves {
        println!(
            "{:<7} {:>9} {:>8} {:>8} ({:>3.0}%) {:>8} {:>6} {:>10.3} {:>10} {:>6} {:>9} {:>10}/{:<3}",
            half.name(),
            f.questions,
            f.answered,
            f.answered_showing,
            100.0 * f.showing_share(),
            f.nothing_shown,
            f.shown,
            f.precision(),
            f.shown_wrong_kind,
            f.shown_not_instance,
            f.shown_unjudged,
            f.instances_shown,
            f.instances_known
        );
    }
}

/// One candidate name to judge, with where the answer found it.
#[derive(Debug, Serialize)]
struct Candidate {
    name: String,
    context: String,
}

/// The candidates of one question, to be judged (`--candidates N`).
#[derive(Debug, Serialize)]
struct ToJudge<'a> {
    question: &'a str,
    source: Source,
    half: &'static str,
    answer_type: &'a str,
    candidates: Vec<Candidate>,
}

/// Prints each question's candidate names with a stretch of text around their first mention,
/// one JSON object a line, for a person to judge.
pub(crate) fn print_candidates(
    questions: &[JudgedQuestion],
    answers: &[CountAnswer],
) -> anyhow::Result<()> {
    for (q, a) in questions.iter().zip(answers) {
        let candidates = a
            .instances
            .iter()
            .map(|inst| Candidate {
                name: inst.name.clone(),
                context: first_mention(a, &inst.name).unwrap_or_default(),
            })
            .collect();
        let line = ToJudge {
            question: &q.question,
            source: q.source,
            half: q.half().name(),
            answer_type: &a.analysis.answer_type,
            candidates,
        };
        println!("{}", serde_json::to_string(&line)?);
    }
    Ok(())
}

/// Up to 120 characters either side of the name's first mention in the answer's snippets.
fn first_mention(answer: &CountAnswer, name: &str) -> Option<String> {
    answer.snippets.iter().find_map(|s| {
        let mark = s.instances.iter().find(|m| m.instance == name)?;
        let chars: Vec<char> = s.text.chars().collect();
        let from = mark.start.saturating_sub(120);
        let to = (mark.end + 120).min(chars.len());
        Some(
            chars[from..to]
                .iter()
                .collect::<String>()
                .replace('\n', " "),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(source: Source, names: &[(&str, Judgment)]) -> JudgedQuestion {
        JudgedQuestion {
            question: "how many official languages does switzerland have".to_string(),
            source,
            judged: names.iter().map(|(n, j)| (n.to_string(), *j)).collect(),
        }
    }

    #[test]
    fn accepted_instance_marks_become_judged_questions_for_training() {
        use tally_store::review::Judgment as Accepted;
        use tally_types::{FeedbackPart, Verdict};
        let mark = |question: &str, name: &str, verdict| Accepted {
            question: question.into(),
            part: FeedbackPart::Instance,
            part_ref: Some(name.into()),
            verdict,
            corrected_value: None,
            moved_to: None,
            tally_count: None,
        };
        let mut count = mark("how many moons does mars have", "", Verdict::Correct);
        count.part = FeedbackPart::Answer;
        count.part_ref = None;
        let questions = from_feedback(&[
            mark("how many moons does mars have", "Phobos", Verdict::Relevant),
            mark(
                "How many moons does Mars have?",
                "Olympus Mons",
                Verdict::NotRelevant,
            ),
            mark("how many moons does jupiter have", "Io", Verdict::Relevant),
            count,
        ]);
        assert_eq!(questions.len(), 2, "one per question, whatever its wording");
        let mars = &questions[0];
        assert_eq!(mars.half(), Half::Tuning, "feedback is training data");
        assert_eq!(mars.judgment_of("phobos"), Some(Judgment::Instance));
        assert_eq!(
            mars.judgment_of("Olympus Mons"),
            Some(Judgment::NotInstance)
        );
        assert_eq!(questions[1].judgment_of("Io"), Some(Judgment::Instance));
    }

    #[test]
    fn names_match_their_judgment_by_words_and_halves_follow_the_source() {
        let q = judged(
            Source::Stresstest,
            &[
                ("Romansh", Judgment::Instance),
                ("Zurich", Judgment::WrongKind),
            ],
        );
        assert_eq!(q.judgment_of("romansh"), Some(Judgment::Instance));
        assert_eq!(q.judgment_of("Zurich,"), Some(Judgment::WrongKind));
        assert_eq!(q.judgment_of("Geneva"), None);
        assert_eq!(q.half(), Half::Tuning);
        assert_eq!(judged(Source::NqDev, &[]).half(), Half::Test);
    }
}
