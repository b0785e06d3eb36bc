//! User-study mode: a study file, anonymous participant sessions with planned tasks, responses in
//! PostgreSQL, and the researcher's summary and export behind an admin token.

pub(crate) mod definition;
pub(crate) mod export;
pub(crate) mod plan;
pub mod store;
pub(crate) mod summary;

use std::net::IpAddr;

use crate::rate_limit::RateLimiter;
use std::time::{SystemTime, UNIX_EPOCH};

use tally_types::request::Settings;
use tally_types::study::{
    StudyIntro, StudyPage, StudyResponseForm, StudyStep, StudySummary, StudyTask, TaskView,
};
use tally_types::{AnswerBody, CountAnswer, Mode};
use uuid::Uuid;

pub use definition::StudyDefinition;

use crate::admin_token::{AdminToken, Forbidden};
use crate::answering::{AnswerError, Answerer};
use summary::{count_is_correct, ResponseRecord, TaskRecord};
use tally_store::db::{Database, DbError};

/// Longest time on one task that is still recorded; longer means the participant left.
const MAX_TASK_SECONDS: f64 = 3600.0;

/// Why a study request did not go through.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// A response to a task other than the session's current one.
    #[error("task {asked} is not the current task; this session is at task {current}")]
    OutOfTurn {
        /// The task the response is to.
        asked: usize,
        /// The session's current task.
        current: usize,
    },
    /// A response to a task the session does not have.
    #[error("task {asked} does not exist; this session has {tasks} tasks")]
    NoSuchTask {
        /// The task the response is to.
        asked: usize,
        /// How many tasks the session has.
        tasks: usize,
    },
    /// A choice that is not an answer to the task's kind.
    #[error("`{choice}` is not an answer to a {kind} task ({})", allowed.join(", "))]
    NotAChoice {
        /// The choice given.
        choice: String,
        /// The task's kind.
        kind: &'static str,
        /// The choices the task takes.
        allowed: &'static [&'static str],
    },
    /// A session id that is not a UUID.
    #[error("`{given}` is not a study session id")]
    NotASessionId {
        /// The id as given.
        given: String,
    },
    /// No session with this id.
    #[error("there is no study session {0}")]
    NoSession(Uuid),
    /// A session of a study this server no longer runs.
    #[error("session {session} belongs to the study `{study}`, which this server no longer runs")]
    OtherStudy {
        /// The session's id.
        session: Uuid,
        /// The study it belongs to.
        study: String,
    },
    /// A session's task names a question the study's file no longer has.
    #[error("the session's task names a question the study lacks")]
    NoSuchQuestion,
    #[error(transparent)]
    /// The admin token was missing or wrong.
    Forbidden(#[from] Forbidden),
    #[error(transparent)]
    /// The answering service refused or failed.
    Answer(#[from] AnswerError),
    #[error(transparent)]
    /// The database refused or failed.
    Db(#[from] DbError),
    /// The session was abandoned: it takes no more answers.
    #[error("this study session was left for more than {} hours and has ended; start a new one at /study", store::ABANDONED_AFTER_HOURS)]
    Abandoned,
    /// A response could not be written as the JSON it is stored as (a defect, not the
    /// request's).
    #[error("the study's response could not be written for storing")]
    Record(#[source] serde_json::Error),
    /// Too many sessions started from one address; wait this many seconds.
    #[error("too many study sessions started from your address; try again in {0} s")]
    TooManyStarts(u64),
    /// A task's count question was answered as another kind (a defect of the study's file).
    #[error("the study's count question `{question}` got no count answer")]
    NotACount {
        /// The question.
        question: String,
    },
}

/// Study sessions one address may start per minute: a participant needs one, a class at one
/// address a few; a script starting hundreds would only inflate "sessions started".
pub const STARTS_PER_MINUTE: u32 = 10;

/// The study being served, the token that opens its results, the database its sessions and
/// responses are stored in, and the answerer that shows participants Tally's answers.
pub struct StudyService {
    /// The study served.
    pub definition: StudyDefinition,
    admin_token: AdminToken,
    db: Database,
    answerer: Answerer,
    starts: RateLimiter,
}

impl StudyService {
    /// The study service for `definition`, its results opened by `admin_token`.
    pub fn new(
        definition: StudyDefinition,
        admin_token: AdminToken,
        db: Database,
        answerer: Answerer,
    ) -> Self {
        StudyService {
            definition,
            admin_token,
            db,
            answerer,
            starts: RateLimiter::new(STARTS_PER_MINUTE),
        }
    }

    /// Whether the study's results can be opened at all (an admin token is configured).
    pub fn has_admin_token(&self) -> bool {
        self.admin_token.is_set()
    }

    /// Checks the researcher's token.
    pub fn authorize(&self, token: Option<&str>) -> Result<(), StudyError> {
        self.admin_token
            .check(token, "study results")
            .map_err(StudyError::Forbidden)
    }

    /// What the study's first page shows.
    pub fn intro(&self) -> StudyIntro {
        StudyIntro {
            id: self.definition.id.clone(),
            title: self.definition.title.clone(),
            intro: self.definition.intro.clone(),
            tasks: self.definition.task_count(),
        }
    }

    /// Starts an anonymous session with its planned tasks, for a participant at `client`.
    pub async fn start(&self, client: Option<IpAddr>) -> Result<Uuid, StudyError> {
        self.starts
            .check(client)
            .map_err(|wait| StudyError::TooManyStarts(wait.as_secs().max(1)))?;
        let session = Uuid::new_v4();
        let tasks = plan::plan_tasks(&self.definition, session);
        store::create_session(&self.db, session, &self.definition.id, &tasks).await?;
        Ok(session)
    }

    /// A session's progress and its next task (answering its question if needed), or its
    /// completion code once every task is answered.
    pub async fn page(&self, session: &str) -> Result<StudyPage, StudyError> {
        let session = self.session(session).await?;
        if session.abandoned {
            return Err(StudyError::Abandoned);
        }
        let total = session.tasks.len();
        let answered = session.answered.len().min(total);
        let step = match session.next_task() {
            None => {
                let code = match &session.completion_code {
                    Some(code) => code.clone(),
                    None => store::complete(&self.db, session.id, &completion_code()).await?,
                };
                StudyStep::Done {
                    completion_code: code,
                }
            }
            Some(index) => {
                store::mark_shown(&self.db, session.id, index).await?;
                let task = session.tasks[index].clone();
                let question = self.question_text(&task)?;
                let answer = self.count_view(&question).await?;
                let task = match task {
                    StudyTask::Judgement { mode, .. } => TaskView::Judgement { mode, answer },
                    StudyTask::Preference { left, right, .. } => TaskView::Preference {
                        left,
                        right,
                        answer,
                    },
                };
                StudyStep::Task {
                    index,
                    question,
                    task: Box::new(task),
                    shown_at_ms: now_ms(),
                }
            }
        };
        Ok(StudyPage {
            session: session.id.to_string(),
            title: self.definition.title.clone(),
            answered,
            total,
            step,
        })
    }

    /// Stores a response to the session's current task with what was shown, timed by the
    /// server; a second response to an answered task is ignored, one to a later task refused.
    pub async fn respond(&self, form: &StudyResponseForm) -> Result<(), StudyError> {
        let session = self.session(&form.session).await?;
        if session.abandoned {
            return Err(StudyError::Abandoned);
        }
        if session.answered.contains(&form.index) {
            return Ok(());
        }
        if let Some(current) = session.next_task().filter(|&i| i != form.index) {
            return Err(StudyError::OutOfTurn {
                asked: form.index,
                current,
            });
        }
        let task = session
            .tasks
            .get(form.index)
            .cloned()
            .ok_or(StudyError::NoSuchTask {
                asked: form.index,
                tasks: session.tasks.len(),
            })?;
        let allowed: &'static [&'static str] = match task {
            StudyTask::Judgement { .. } => &["correct", "wrong"],
            StudyTask::Preference { .. } => &["left", "right", "same"],
        };
        if !allowed.contains(&form.choice.as_str()) {
            return Err(StudyError::NotAChoice {
                choice: form.choice.clone(),
                kind: task.kind(),
                allowed,
            });
        }
        let question_text = self.question_text(&task)?;
        let gold = self.definition.questions[task.question()].gold;
        let shown_count = self.count_view(&question_text).await?.count;
        let record = TaskRecord {
            task: task.clone(),
            question_text,
            gold,
            shown_count,
            count_correct: count_is_correct(shown_count, gold),
        };
        let plausible = |s: &f64| (0.0..=MAX_TASK_SECONDS).contains(s);
        let seconds = session
            .shown
            .filter(|(index, _)| *index == form.index)
            .map(|(_, at)| (chrono::Utc::now() - at).num_milliseconds() as f64 / 1000.0)
            .filter(plausible);
        let client_seconds = form
            .shown_at_ms
            .map(|shown| (now_ms() - shown) as f64 / 1000.0)
            .filter(plausible);
        let response = ResponseRecord {
            choice: form.choice.clone(),
            seconds,
            client_seconds,
        };
        let (task_json, response_json) = (
            serde_json::to_value(&record).map_err(StudyError::Record)?,
            serde_json::to_value(&response).map_err(StudyError::Record)?,
        );
        let db = self.db.clone();
        let (id, index, kind) = (session.id, form.index, task.kind());
        tally_store::db::write_to_end(async move {
            store::insert_response(&db, id, index, kind, &task_json, &response_json).await
        })
        .await?;
        Ok(())
    }

    /// The summary tables, for the token holder.
    pub async fn summary(&self, token: Option<&str>) -> Result<StudySummary, StudyError> {
        self.authorize(token)?;
        let id = &self.definition.id;
        let rows = store::responses(&self.db, id).await?;
        let sessions = store::session_counts(&self.db, id).await?;
        Ok(summary::summarize(
            id,
            &self.definition.title,
            &self.definition.modes,
            sessions,
            &rows,
        ))
    }

    /// A session of this study, or why there is none.
    async fn session(&self, id: &str) -> Result<store::Session, StudyError> {
        let uuid = Uuid::parse_str(id.trim()).map_err(|_| StudyError::NotASessionId {
            given: id.to_string(),
        })?;
        let session = store::load_session(&self.db, uuid)
            .await?
            .ok_or(StudyError::NoSession(uuid))?;
        if session.study != self.definition.id {
            return Err(StudyError::OtherStudy {
                session: uuid,
                study: session.study,
            });
        }
        Ok(session)
    }

    fn question_text(&self, task: &StudyTask) -> Result<String, StudyError> {
        self.definition
            .questions
            .get(task.question())
            .map(|q| q.question.clone())
            .ok_or(StudyError::NoSuchQuestion)
    }

    /// Tally's count answer with the default settings (cached after the first participant).
    async fn count_view(&self, question: &str) -> Result<CountAnswer, StudyError> {
        let answer = self
            .answerer
            .answer(question, Mode::Count, &Settings::default())
            .await?;
        let AnswerBody::Count(count) = answer.answer else {
            return Err(StudyError::NotACount {
                question: question.to_string(),
            });
        };
        Ok(*count)
    }
}

/// A code the participant hands back to show they finished (e.g. on a crowdsourcing site).
fn completion_code() -> String {
    let hex = Uuid::new_v4().simple().to_string().to_uppercase();
    format!("TALLY-{}-{}", &hex[..4], &hex[4..8])
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Compares tokens without an early exit on the first differing byte.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_need_the_right_token() {
        let open = StudyService::new(
            StudyDefinition::builtin(false),
            AdminToken::new(Some("s3cret".into()), None),
            Database::new("not a database URL"),
            Answerer::new(1, 1),
        );
        assert!(open.authorize(Some("s3cret")).is_ok());
        assert!(open
            .authorize(Some("guess"))
            .unwrap_err()
            .to_string()
            .contains("wrong"));
        assert!(open.authorize(None).is_err());
        let closed = StudyService::new(
            StudyDefinition::builtin(false),
            AdminToken::new(Some("  ".into()), None),
            Database::new("not a database URL"),
            Answerer::new(1, 1),
        );
        assert!(closed
            .authorize(Some("  "))
            .unwrap_err()
            .to_string()
            .contains("TALLY_ADMIN_TOKEN"));
    }

    #[test]
    fn completion_codes_look_alike_and_differ() {
        let (a, b) = (completion_code(), completion_code());
        assert_eq!(a.len(), "TALLY-XXXX-XXXX".len());
        assert!(a.starts_with("TALLY-"));
        assert_ne!(a, b);
    }
}
