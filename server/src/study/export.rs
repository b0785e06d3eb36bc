//! A study's responses for analysis elsewhere: JSON with everything stored, or CSV with one
//! flat row per response.

use serde::Serialize;
use tally_types::study::StudyTask;

use super::store::ResponseRow;
use super::summary::{ResponseRecord, TaskRecord};

/// The JSON export.
#[derive(Debug, Serialize)]
pub(crate) struct JsonExport<'a> {
    pub study: &'a str,
    pub exported_at: String,
    pub sessions_started: usize,
    pub sessions_completed: usize,
    pub sessions_abandoned: usize,
    pub responses: &'a [ResponseRow],
}

/// One CSV row.
#[derive(Debug, Serialize)]
struct CsvRow {
    session_id: String,
    session_completed: bool,
    task_index: i32,
    task_kind: String,
    question: String,
    gold: Option<f64>,
    shown_count: Option<f64>,
    count_correct: Option<bool>,
    /// The judged presentation's mode (judgements).
    mode: Option<&'static str>,
    /// The two presentations (preferences).
    left: Option<&'static str>,
    right: Option<&'static str>,
    choice: String,
    /// The mode chosen in a preference, empty for "no difference".
    preferred_mode: Option<&'static str>,
    /// Whether a judgement agrees with the gold count.
    agrees_with_gold: Option<bool>,
    seconds: Option<f64>,
    answered_at: String,
}

/// Why the CSV export could not be written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CsvError {
    #[error(transparent)]
    Row(#[from] csv::Error),
    #[error("the CSV could not be flushed")]
    Flush(#[source] std::io::Error),
    #[error(transparent)]
    NotText(#[from] std::string::FromUtf8Error),
}

/// The CSV export: a header and one row per readable response.
pub(crate) fn to_csv(rows: &[ResponseRow]) -> Result<String, CsvError> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        let task: Option<TaskRecord> = serde_json::from_value(row.task.clone()).ok();
        let response: Option<ResponseRecord> = serde_json::from_value(row.response.clone()).ok();
        let (Some(task), Some(response)) = (task, response) else {
            continue;
        };
        let (mode, left, right, preferred_mode, agrees) = match task.task {
            StudyTask::Judgement { mode, .. } => (
                Some(mode.name()),
                None,
                None,
                None,
                task.count_correct
                    .map(|truth| truth == (response.choice == "correct")),
            ),
            StudyTask::Preference { left, right, .. } => {
                let preferred = match response.choice.as_str() {
                    "left" => Some(left.name()),
                    "right" => Some(right.name()),
                    _ => None,
                };
                (None, Some(left.name()), Some(right.name()), preferred, None)
            }
        };
        writer.serialize(CsvRow {
            session_id: row.session_id.to_string(),
            session_completed: row.session_completed,
            task_index: row.task_index,
            task_kind: row.task_kind.clone(),
            question: task.question_text,
            gold: task.gold,
            shown_count: task.shown_count,
            count_correct: task.count_correct,
            mode,
            left,
            right,
            choice: response.choice,
            preferred_mode,
            agrees_with_gold: agrees,
            seconds: response.seconds,
            answered_at: row.answered_at.to_rfc3339(),
        })?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| CsvError::Flush(e.into_error()))?;
    Ok(String::from_utf8(bytes)?)
}
