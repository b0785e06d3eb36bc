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
    pub const EVERY: [ExplanationMode; 5] = [
        ExplanationMode::Count,
        ExplanationMode::Cnps,
        ExplanationMode::Instances,
        ExplanationMode::Snippets,
        ExplanationMode::All,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ExplanationMode::Count => "count",
            ExplanationMode::Cnps => "cnps",
            ExplanationMode::Instances => "instances",
            ExplanationMode::Snippets => "snippets",
            ExplanationMode::All => "all",
        }
    }

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

    pub fn shows_cnps(self) -> bool {
        matches!(self, ExplanationMode::Cnps | ExplanationMode::All)
    }

    pub fn shows_instances(self) -> bool {
        matches!(self, ExplanationMode::Instances | ExplanationMode::All)
    }

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
        question: usize,
        mode: ExplanationMode,
    },
    /// Which of two presentations of the same answer helps more?
    Preference {
        question: usize,
        left: ExplanationMode,
        right: ExplanationMode,
    },
}

impl StudyTask {
    pub fn kind(&self) -> &'static str {
        match self {
            StudyTask::Judgement { .. } => "judgement",
            StudyTask::Preference { .. } => "preference",
        }
    }

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
    pub id: String,
    pub title: String,
    pub intro: String,
    pub tasks: usize,
}

/// A participant's session as the task page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyPage {
    pub session: String,
    pub title: String,
    /// Tasks answered so far and in all.
    pub answered: usize,
    pub total: usize,
    pub step: StudyStep,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StudyStep {
    /// The next task to answer.
    Task {
        index: usize,
        question: String,
        task: Box<TaskView>,
        /// When the task was shown (ms since the Unix epoch), sent back to time the response.
        shown_at_ms: i64,
    },
    /// Every task answered.
    Done { completion_code: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TaskView {
    Judgement {
        mode: ExplanationMode,
        answer: CountAnswer,
    },
    Preference {
        left: ExplanationMode,
        right: ExplanationMode,
        answer: CountAnswer,
    },
}

/// A participant's response to one task, as the form posts it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyResponseForm {
    pub session: String,
    pub index: usize,
    /// `correct` / `wrong` for a judgement; `left` / `right` / `same` for a preference.
    pub choice: String,
    pub shown_at_ms: Option<i64>,
}

/// A study's results as the published studies tabulate them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct StudySummary {
    pub study: String,
    pub title: String,
    pub sessions_started: usize,
    pub sessions_completed: usize,
    /// Sessions neither completed nor active for a day: they take no more answers.
    #[serde(default)]
    pub sessions_abandoned: usize,
    pub responses: usize,
    /// Preference per explanation mode: how often it was preferred when shown in a pair.
    pub preference: Vec<PreferenceRow>,
    /// Head-to-head counts: `wins[i][j]` = times mode `modes[i]` was preferred over `modes[j]`.
    pub modes: Vec<ExplanationMode>,
    pub wins: Vec<Vec<usize>>,
    /// Annotator precision per explanation mode, against the gold counts.
    pub judgement: Vec<JudgementRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreferenceRow {
    pub mode: ExplanationMode,
    /// Pairs in which the mode was shown.
    pub shown: usize,
    pub preferred: usize,
    pub ties: usize,
    /// preferred / shown.
    pub preference_rate: Option<f64>,
    /// Median seconds spent on these pairs.
    pub median_seconds: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgementRow {
    pub mode: ExplanationMode,
    /// Judgements of counts with a known gold answer.
    pub judged: usize,
    /// Judgements agreeing with the gold answer (count correct ⇔ judged correct).
    pub agreeing: usize,
    /// agreeing / judged: the annotators' precision with this explanation.
    pub precision: Option<f64>,
    /// Of the counts judged correct, the share that really are.
    pub precision_of_accepted: Option<f64>,
    pub median_seconds: Option<f64>,
}
