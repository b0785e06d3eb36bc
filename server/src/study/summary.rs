//! What is stored per task and response, and the tables of the published studies computed from
//! them: preference per explanation type, and annotator precision per explanation mode.

use super::store::SessionCounts;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tally_engine::count::metrics::ratio;
use tally_types::study::{ExplanationMode, JudgementRow, PreferenceRow, StudySummary, StudyTask};

use super::store::ResponseRow;

/// A count within this ratio of the gold count is correct (the relaxed precision of CoQEx).
pub(crate) const CORRECT_RATIO: f64 = 0.9;

/// A task as stored with its response: what was shown, and whether the shown count is correct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct TaskRecord {
    #[serde(flatten)]
    pub task: StudyTask,
    pub question_text: String,
    pub gold: Option<f64>,
    pub shown_count: Option<f64>,
    /// `None` without a gold count.
    pub count_correct: Option<bool>,
}

/// A participant's response as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ResponseRecord {
    /// `correct` / `wrong` (judgement) or `left` / `right` / `same` (preference).
    pub choice: String,
    /// Seconds from the server first showing the task to the response.
    pub seconds: Option<f64>,
    /// The seconds the participant's form reported, kept beside for comparison only (a client
    /// can send anything): never used by the summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_seconds: Option<f64>,
}

/// Whether `shown` counts as correct against `gold` (no count shown is never correct).
pub(crate) fn count_is_correct(shown: Option<f64>, gold: Option<f64>) -> Option<bool> {
    let gold = gold?;
    Some(shown.is_some_and(|shown| ratio(shown, gold) >= CORRECT_RATIO))
}

/// The summary tables of `study` from its stored responses.
pub(crate) fn summarize(
    study: &str,
    title: &str,
    modes: &[ExplanationMode],
    sessions: SessionCounts,
    rows: &[ResponseRow],
) -> StudySummary {
    let index_of: HashMap<ExplanationMode, usize> =
        modes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let mut preference: Vec<Tally> = vec![Tally::default(); modes.len()];
    let mut judgement: Vec<Tally> = vec![Tally::default(); modes.len()];
    let mut wins = vec![vec![0usize; modes.len()]; modes.len()];
    let mut responses = 0;
    for row in rows {
        let (Ok(task), Ok(response)) = (
            serde_json::from_value::<TaskRecord>(row.task.clone()),
            serde_json::from_value::<ResponseRecord>(row.response.clone()),
        ) else {
            tracing::warn!(
                "study response {}#{} is unreadable; left out of the summary",
                row.session_id,
                row.task_index
            );
            continue;
        };
        responses += 1;
        match task.task {
            StudyTask::Preference { left, right, .. } => {
                let (Some(&l), Some(&r)) = (index_of.get(&left), index_of.get(&right)) else {
                    continue;
                };
                for side in [l, r] {
                    preference[side].shown += 1;
                    preference[side].seconds.extend(response.seconds);
                }
                match response.choice.as_str() {
                    "left" => {
                        preference[l].hits += 1;
                        wins[l][r] += 1;
                    }
                    "right" => {
                        preference[r].hits += 1;
                        wins[r][l] += 1;
                    }
                    _ => {
                        preference[l].ties += 1;
                        preference[r].ties += 1;
                    }
                }
            }
            StudyTask::Judgement { mode, .. } => {
                let (Some(&m), Some(truth)) = (index_of.get(&mode), task.count_correct) else {
                    continue;
                };
                let said_correct = response.choice == "correct";
                let tally = &mut judgement[m];
                tally.shown += 1;
                tally.seconds.extend(response.seconds);
                if said_correct == truth {
                    tally.hits += 1;
                }
                if said_correct {
                    tally.accepted += 1;
                    if truth {
                        tally.accepted_right += 1;
                    }
                }
            }
        }
    }
    StudySummary {
        study: study.to_string(),
        title: title.to_string(),
        sessions_started: sessions.started,
        sessions_completed: sessions.completed,
        sessions_abandoned: sessions.abandoned,
        responses,
        preference: modes
            .iter()
            .zip(&preference)
            .map(|(mode, t)| PreferenceRow {
                mode: *mode,
                shown: t.shown,
                preferred: t.hits,
                ties: t.ties,
                preference_rate: share(t.hits, t.shown),
                median_seconds: median(&t.seconds),
            })
            .collect(),
        modes: modes.to_vec(),
        wins,
        judgement: modes
            .iter()
            .zip(&judgement)
            .map(|(mode, t)| JudgementRow {
                mode: *mode,
                judged: t.shown,
                agreeing: t.hits,
                precision: share(t.hits, t.shown),
                precision_of_accepted: share(t.accepted_right, t.accepted),
                median_seconds: median(&t.seconds),
            })
            .collect(),
    }
}

#[derive(Debug, Clone, Default)]
struct Tally {
    shown: usize,
    hits: usize,
    ties: usize,
    accepted: usize,
    accepted_right: usize,
    seconds: Vec<f64>,
}

fn share(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ExplanationMode::*;

    fn row(task: StudyTask, shown: Option<f64>, gold: f64, choice: &str, s: f64) -> ResponseRow {
        let record = TaskRecord {
            task,
            question_text: "how many".into(),
            gold: Some(gold),
            shown_count: shown,
            count_correct: count_is_correct(shown, Some(gold)),
        };
        ResponseRow {
            session_id: uuid::Uuid::nil(),
            task_index: 0,
            task_kind: "x".into(),
            task: serde_json::to_value(record).unwrap(),
            response: serde_json::to_value(ResponseRecord {
                choice: choice.into(),
                seconds: Some(s),
                client_seconds: None,
            })
            .unwrap(),
            answered_at: chrono::Utc::now(),
            session_completed: true,
        }
    }

    fn judge(mode: ExplanationMode) -> StudyTask {
        StudyTask::Judgement { question: 0, mode }
    }

    fn pair(left: ExplanationMode, right: ExplanationMode) -> StudyTask {
        StudyTask::Preference {
            question: 0,
            left,
            right,
        }
    }

    #[test]
    fn correctness_is_relaxed_to_ten_percent() {
        assert_eq!(count_is_correct(Some(170.0), Some(180.0)), Some(true));
        assert_eq!(count_is_correct(Some(150.0), Some(180.0)), Some(false));
        assert_eq!(count_is_correct(None, Some(180.0)), Some(false));
        assert_eq!(count_is_correct(Some(5.0), None), None);
    }

    #[test]
    fn tables_count_preferences_and_agreeing_judgements() {
        let modes = [Count, Cnps, All];
        let rows = vec![
            // Judgements with CNPs: a right count accepted, a wrong count rejected → 2/2.
            row(judge(Cnps), Some(180.0), 180.0, "correct", 10.0),
            row(judge(Cnps), Some(20.0), 180.0, "wrong", 20.0),
            // Bare count: a wrong count accepted → 0/1, accepted-correct 0/1.
            row(judge(Count), Some(20.0), 180.0, "correct", 4.0),
            // Preferences: All beats Count twice (once on each side), Cnps ties with All.
            row(pair(All, Count), None, 1.0, "left", 8.0),
            row(pair(Count, All), None, 1.0, "right", 6.0),
            row(pair(Cnps, All), None, 1.0, "same", 5.0),
        ];
        let sessions = SessionCounts {
            started: 4,
            completed: 2,
            abandoned: 1,
        };
        let s = summarize("s", "t", &modes, sessions, &rows);
        assert_eq!(s.responses, 6);
        assert_eq!(
            (
                s.sessions_started,
                s.sessions_completed,
                s.sessions_abandoned
            ),
            (4, 2, 1)
        );
        let cnps = &s.judgement[1];
        assert_eq!((cnps.judged, cnps.agreeing), (2, 2));
        assert_eq!(cnps.precision, Some(1.0));
        assert_eq!(cnps.precision_of_accepted, Some(1.0));
        assert_eq!(cnps.median_seconds, Some(15.0));
        let bare = &s.judgement[0];
        assert_eq!((bare.judged, bare.agreeing), (1, 0));
        assert_eq!(bare.precision_of_accepted, Some(0.0));
        assert_eq!(s.judgement[2].precision, None);
        let all = &s.preference[2];
        assert_eq!((all.shown, all.preferred, all.ties), (3, 2, 1));
        assert_eq!(s.preference[0].preference_rate, Some(0.0));
        assert_eq!(s.wins[2][0], 2);
        assert_eq!(s.wins[0][2], 0);
    }
}
