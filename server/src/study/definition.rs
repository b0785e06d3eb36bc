//! A study as a researcher defines it in a JSON file: its questions (with gold counts, so that
//! judgements can be scored), the explanation modes compared, and how many tasks of each kind a
//! participant gets. Two studies are built in: one on the Stresstest questions, for the dataset
//! corpus, and one on the embedded demo corpus.

use std::path::Path;

use serde::Deserialize;
use tally_types::study::ExplanationMode;

/// The study on Stresstest questions (gold counts from `stresstest.csv`).
const STRESSTEST_STUDY: &str = include_str!("../../../studies/coqex-stresstest.json");
/// The study on the embedded demo corpus.
const DEMO_STUDY: &str = include_str!("../../../studies/demo.json");

/// Most tasks of one kind a participant may be given.
const MAX_TASKS: usize = 200;

#[derive(Debug, thiserror::Error)]
pub enum StudyFileError {
    #[error("the study file {path} could not be read")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("the study file {path} is not a valid study")]
    Invalid {
        path: String,
        #[source]
        source: InvalidStudy,
    },
}

/// A user study as its file defines it: what participants read, the explanation modes compared
/// and the questions asked.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyDefinition {
    /// Stored with each session: responses of different studies never mix.
    pub id: String,
    /// The study's title, shown to participants.
    pub title: String,
    /// What participants read before they start.
    pub intro: String,
    #[serde(default = "every_mode")]
    /// The explanation modes compared.
    pub modes: Vec<ExplanationMode>,
    /// The questions asked, with their truth.
    pub questions: Vec<StudyQuestion>,
    /// Judgement tasks per participant (default: one per question).
    #[serde(default)]
    pub judgements: Option<usize>,
    /// Preference tasks per participant (default: one per question).
    #[serde(default)]
    pub preferences: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyQuestion {
    pub question: String,
    /// The correct count; judgements of questions without one are stored but not scored.
    #[serde(default)]
    pub gold: Option<f64>,
}

fn every_mode() -> Vec<ExplanationMode> {
    ExplanationMode::EVERY.to_vec()
}

/// Why a study's JSON is not a study: what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum InvalidStudy {
    /// Not JSON, or not of a study's shape (an unknown mode, a missing field).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// An empty `id` or `title`.
    #[error("`id` and `title` must not be empty")]
    Unnamed,
    /// No question.
    #[error("`questions` lists no question")]
    NoQuestion,
    /// An empty question.
    #[error("a question is empty (gold {gold:?})")]
    EmptyQuestion {
        /// The empty question's gold count.
        gold: Option<f64>,
    },
    /// A gold count that is not a number ≥ 0.
    #[error("the gold count of “{question}” must be a number ≥ 0")]
    BadGold {
        /// The question whose gold it is.
        question: String,
    },
    /// No explanation mode.
    #[error("`modes` lists no explanation mode")]
    NoMode,
    /// A mode named twice.
    #[error("`modes` names a mode twice")]
    ModeTwice,
    /// Preference tasks with fewer than two modes to compare.
    #[error("preference tasks need at least two modes")]
    OneModeToPrefer,
    /// Neither judgement nor preference tasks.
    #[error("the study has no task: `judgements` and `preferences` are both 0")]
    NoTask,
    /// More tasks of a kind than a session may hold.
    #[error("at most {MAX_TASKS} tasks of each kind")]
    TooManyTasks,
}

impl StudyDefinition {
    /// Reads and checks a study file.
    pub fn from_file(path: &Path) -> Result<Self, StudyFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| StudyFileError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text).map_err(|source| StudyFileError::Invalid {
            path: path.display().to_string(),
            source,
        })
    }

    /// The built-in study for the corpus that is loaded: Stresstest when the datasets are.
    pub fn builtin(datasets_loaded: bool) -> Self {
        let text = if datasets_loaded {
            STRESSTEST_STUDY
        } else {
            DEMO_STUDY
        };
        Self::parse(text).expect("the built-in studies are valid (checked by a unit test)")
    }

    /// Parses and checks a study's JSON.
    pub fn parse(text: &str) -> Result<Self, InvalidStudy> {
        let study: StudyDefinition = serde_json::from_str(text)?;
        study.check()?;
        Ok(study)
    }

    fn check(&self) -> Result<(), InvalidStudy> {
        if self.id.trim().is_empty() || self.title.trim().is_empty() {
            return Err(InvalidStudy::Unnamed);
        }
        if self.questions.is_empty() {
            return Err(InvalidStudy::NoQuestion);
        }
        if let Some(q) = self.questions.iter().find(|q| q.question.trim().is_empty()) {
            return Err(InvalidStudy::EmptyQuestion { gold: q.gold });
        }
        if let Some(q) = self
            .questions
            .iter()
            .find(|q| q.gold.is_some_and(|g| !g.is_finite() || g < 0.0))
        {
            return Err(InvalidStudy::BadGold {
                question: q.question.clone(),
            });
        }
        if self.modes.is_empty() {
            return Err(InvalidStudy::NoMode);
        }
        let mut modes = self.modes.clone();
        modes.sort();
        modes.dedup();
        if modes.len() != self.modes.len() {
            return Err(InvalidStudy::ModeTwice);
        }
        if self.preference_tasks() > 0 && self.modes.len() < 2 {
            return Err(InvalidStudy::OneModeToPrefer);
        }
        let (j, p) = (self.judgement_tasks(), self.preference_tasks());
        if j + p == 0 {
            return Err(InvalidStudy::NoTask);
        }
        if j > MAX_TASKS || p > MAX_TASKS {
            return Err(InvalidStudy::TooManyTasks);
        }
        Ok(())
    }

    /// How many judgement tasks a session holds.
    pub fn judgement_tasks(&self) -> usize {
        self.judgements.unwrap_or(self.questions.len())
    }

    /// How many preference tasks a session holds.
    pub fn preference_tasks(&self) -> usize {
        self.preferences.unwrap_or(self.questions.len())
    }

    /// How many tasks a session holds in all.
    pub fn task_count(&self) -> usize {
        self.judgement_tasks() + self.preference_tasks()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_studies_are_valid() {
        let stress = StudyDefinition::builtin(true);
        assert_eq!(stress.id, "coqex-stresstest");
        assert_eq!(stress.modes.len(), 5);
        assert!(stress.questions.iter().all(|q| q.gold.is_some()));
        let demo = StudyDefinition::builtin(false);
        assert_eq!(demo.task_count(), 2 * demo.questions.len());
    }

    #[test]
    fn bad_studies_are_explained() {
        let bad = |json: &str| StudyDefinition::parse(json).unwrap_err().to_string();
        let base = r#""id":"s","title":"t","intro":"""#;
        assert!(bad(&format!(r#"{{{base},"questions":[]}}"#)).contains("no question"));
        assert!(bad(&format!(
            r#"{{{base},"questions":[{{"question":"how many","gold":-1}}]}}"#
        ))
        .contains("≥ 0"));
        assert!(bad(&format!(
            r#"{{{base},"modes":["count"],"questions":[{{"question":"how many"}}]}}"#
        ))
        .contains("two modes"));
        assert!(bad(&format!(
            r#"{{{base},"modes":["count","count"],"questions":[{{"question":"how many"}}]}}"#
        ))
        .contains("twice"));
        assert!(bad(&format!(
            r#"{{{base},"modes":["count","pictures"],"questions":[{{"question":"how many"}}]}}"#
        ))
        .contains("unknown variant"));
        assert!(bad(&format!(
            r#"{{{base},"questions":[{{"question":"q"}}],"judgements":0,"preferences":0}}"#
        ))
        .contains("no task"));
        let ok = StudyDefinition::parse(&format!(
            r#"{{{base},"modes":["count"],"preferences":0,"questions":[{{"question":"q"}}]}}"#
        ))
        .unwrap();
        assert_eq!(ok.task_count(), 1);
    }
}
