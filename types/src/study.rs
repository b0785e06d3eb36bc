//! The user-study mode's data, shared by the server (which plans tasks and stores responses) and
//! the pages (which show them): explanation modes, tasks, a participant's current task, and the
//! summary tables of a study.
//!
//! A study repeats the published CoQEx studies: participants judge whether a shown count is
//! correct given one explanation mode, and choose between two presentations of the same answer.

use serde::{Deserialize, Serialize};

use crate::CountAnswer;

/// How much of the evidence a presentation of a count answer shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum ExplanationMode {
    /// The count alone.
    Count,
    /// The count with its CNP_rep and the CNP groups.
    Cnps,
    /// The count with the ranked instances.
    Instances,
    /// The count with the snippets, their count spans highlighted.
    Snippets,
    /// Everything.
    All,
}

impl ExplanationMode {
    /// Every mode, in the order they are listed.
    pub const EVERY: [ExplanationMode; 5] = [
        ExplanationMode::Count,
        ExplanationMode::Cnps,
        ExplanationMode::Instances,
        ExplanationMode::Snippets,
        ExplanationMode::All,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub fn name(self) -> &'static str {
        match self {
            ExplanationMode::Count => "count",
            ExplanationMode::Cnps => "cnps",
            ExplanationMode::Instances => "instances",
            ExplanationMode::Snippets => "snippets",
            ExplanationMode::All => "all",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::EVERY.into_iter().find(|m| m.name() == name)
    }

    /// How the summary tables name the mode.
    pub fn label(self) -> &'static str {
        match self {
            ExplanationMode::Count => "bare count",
            ExplanationMode::Cnps => "+ CNPs",
            ExplanationMode::Instances => "+ instances",
            ExplanationMode::Snippets => "+ snippets",
            ExplanationMode::All => "all",
        }
    }

    /// Whether it shows the CNP_rep and the CNP groups.
    pub fn shows_cnps(self) -> bool {
        matches!(self, ExplanationMode::Cnps | ExplanationMode::All)
    }

    /// Whether it shows the ranked instances.
    pub fn shows_instances(self) -> bool {
        matches!(self, ExplanationMode::Instances | ExplanationMode::All)
    }

    /// Whether it shows the snippets.
    pub fn shows_snippets(self) -> bool {
        matches!(self, ExplanationMode::Snippets | ExplanationMode::All)
    }
}

/// One task of a participant's sequence, as planned when the session starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StudyTask {
    /// Is the shown count correct, given this one explanation mode?
    Judgement {
        /// The question, by its index in the study's questions.
        question: usize,
        /// The explanation mode shown.
        mode: ExplanationMode,
    },
    /// Which of two presentations of the same answer helps more?
    Preference {
        /// The question, by its index in the study's questions.
        question: usize,
        /// The presentation shown on the left.
        left: ExplanationMode,
        /// The presentation shown on the right.
        right: ExplanationMode,
    },
}

impl StudyTask {
    /// The task's kind: `judgement` or `preference`.
    pub fn kind(&self) -> &'static str {
        match self {
            StudyTask::Judgement { .. } => "judgement",
            StudyTask::Preference { .. } => "preference",
        }
    }

    /// The task's question, by its index in the study's questions.
    pub fn question(&self) -> usize {
        match self {
            StudyTask::Judgement { question, .. } | StudyTask::Preference { question, .. } => {
                *question
            }
        }
    }
}

/// The study page before a session: what the participant is asked to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyIntro {
    /// The study's id.
    pub id: String,
    /// The study's title.
    pub title: String,
    /// What the participant is asked to do.
    pub intro: String,
    /// How many tasks a session has.
    pub tasks: usize,
}

/// A participant's session as the task page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyPage {
    /// The session's id.
    pub session: String,
    /// The study's title.
    pub title: String,
    /// Tasks answered so far and in all.
    pub answered: usize,
    /// Tasks in all.
    pub total: usize,
    /// What the page shows now.
    pub step: StudyStep,
}

/// Where a participant's session is: a task to answer, or done.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StudyStep {
    /// The next task to answer.
    Task {
        /// The task's index in the session's sequence.
        index: usize,
        /// The question's text.
        question: String,
        /// The task as the page shows it.
        task: Box<TaskView>,
        /// When the task was shown (ms since the Unix epoch), sent back to time the response.
        shown_at_ms: i64,
    },
    /// Every task answered.
    Done {
        /// The code the participant gives to show the study was completed.
        completion_code: String,
    },
}

/// A task as the page shows it: its explanation modes and the count answer they present.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TaskView {
    /// Is the shown count correct, given this one explanation mode?
    Judgement {
        /// The explanation mode shown.
        mode: ExplanationMode,
        /// The count answer shown.
        answer: CountAnswer,
    },
    /// Which of two presentations of the same answer helps more?
    Preference {
        /// The presentation shown on the left.
        left: ExplanationMode,
        /// The presentation shown on the right.
        right: ExplanationMode,
        /// The count answer both present.
        answer: CountAnswer,
    },
}

/// A participant's response to one task, as the form posts it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyResponseForm {
    /// The session's id.
    pub session: String,
    /// The task's index in the session's sequence.
    pub index: usize,
    /// `correct` / `wrong` for a judgement; `left` / `right` / `same` for a preference.
    pub choice: String,
    /// When the task was shown (ms since the Unix epoch), as the page sent it.
    pub shown_at_ms: Option<i64>,
}

/// A study's results as the published studies tabulate them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct StudySummary {
    /// The study's id.
    pub study: String,
    /// The study's title.
    pub title: String,
    /// Sessions started.
    pub sessions_started: usize,
    /// Sessions with every task answered.
    pub sessions_completed: usize,
    /// Sessions neither completed nor active for a day: they take no more answers.
    #[serde(default)]
    pub sessions_abandoned: usize,
    /// Responses stored.
    pub responses: usize,
    /// Preference per explanation mode: how often it was preferred when shown in a pair.
    pub preference: Vec<PreferenceRow>,
    /// Head-to-head counts: `wins[i][j]` = times mode `modes[i]` was preferred over `modes[j]`.
    pub modes: Vec<ExplanationMode>,
    /// How often each mode was preferred over each other one, by `modes`' order.
    pub wins: Vec<Vec<usize>>,
    /// Annotator precision per explanation mode, against the gold counts.
    pub judgement: Vec<JudgementRow>,
}

/// How often one explanation mode was preferred when shown in a pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreferenceRow {
    /// The explanation mode.
    pub mode: ExplanationMode,
    /// Pairs in which the mode was shown.
    pub shown: usize,
    /// Pairs in which it was preferred.
    pub preferred: usize,
    /// Pairs judged the same.
    pub ties: usize,
    /// preferred / shown.
    pub preference_rate: Option<f64>,
    /// Median seconds spent on these pairs.
    pub median_seconds: Option<f64>,
}

/// How accurately annotators judged counts shown with one explanation mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgementRow {
    /// The explanation mode.
    pub mode: ExplanationMode,
    /// Judgements of counts with a known gold answer.
    pub judged: usize,
    /// Judgements agreeing with the gold answer (count correct ⇔ judged correct).
    pub agreeing: usize,
    /// agreeing / judged: the annotators' precision with this explanation.
    pub precision: Option<f64>,
    /// Of the counts judged correct, the share that really are.
    pub precision_of_accepted: Option<f64>,
    /// Median seconds spent on these judgements.
    pub median_seconds: Option<f64>,
}
