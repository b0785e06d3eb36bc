//! Feedback people give on answers (or on the app in general), stored in PostgreSQL.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::FromRow;
use uuid::Uuid;

use tally_types::feedback::MAX_CORRECTED_COUNT;
use tally_types::{Choice, CnpGroup, FeedbackPart, Verdict};

use crate::db::{Database, DbError};
use crate::refused::{Clash, InvalidFeedback, Missing};

/// Longest comment accepted, in characters (the table allows the same).
pub const MAX_COMMENT_CHARS: usize = 4000;

/// Feedback as submitted.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewFeedback {
    /// The answer it is about; none for feedback on the app in general.
    pub answer_id: Option<i64>,
    /// Which part of the answer it is about.
    pub part: FeedbackPart,
    /// Which one of that part in the answer (needed for all but the answer and general parts).
    pub part_ref: Option<String>,
    /// What the person says about the part.
    pub verdict: Verdict,
    /// The value the person says is right.
    pub corrected_value: Option<f64>,
    /// The unit of a corrected value ("£", "metre", "gbp": a symbol, name or unit id, stored as
    /// the unit table's id); none for a count.
    #[serde(default)]
    pub corrected_unit: Option<String>,
    /// The group a CNP is moved to, given exactly when the verdict is `moved`.
    pub moved_to: Option<CnpGroup>,
    /// The person's comment.
    pub comment: Option<String>,
    /// Chosen by the client once per submission; re-sending it returns the stored row.
    pub client_token: Option<Uuid>,
}

/// Feedback as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Feedback {
    /// The row's id.
    pub id: i64,
    /// The answer it is about; none for feedback on the app in general.
    pub answer_id: Option<i64>,
    /// Which part of the answer it is about.
    pub part: FeedbackPart,
    /// Which one of that part in the answer.
    pub part_ref: Option<String>,
    /// What the person said about the part.
    pub verdict: Verdict,
    /// The value the person said is right.
    pub corrected_value: Option<f64>,
    /// The unit-table id of a corrected value's unit.
    pub corrected_unit: Option<String>,
    /// The group a CNP was moved to.
    pub moved_to: Option<CnpGroup>,
    /// The person's comment.
    pub comment: Option<String>,
    /// The token the client chose for the submission.
    pub client_token: Option<Uuid>,
    /// When it was stored.
    pub created_at: DateTime<Utc>,
}

/// A feedback row as PostgreSQL gives it (the names as text), read into [`Feedback`] once.
#[derive(FromRow)]
struct FeedbackRow {
    id: i64,
    answer_id: Option<i64>,
    part: String,
    part_ref: Option<String>,
    verdict: String,
    corrected_value: Option<f64>,
    corrected_unit: Option<String>,
    moved_to: Option<String>,
    comment: Option<String>,
    client_token: Option<Uuid>,
    created_at: DateTime<Utc>,
}

impl TryFrom<FeedbackRow> for Feedback {
    type Error = DbError;

    fn try_from(row: FeedbackRow) -> Result<Self, DbError> {
        // The table's CHECK admits these names only; another is a broken database.
        let broken =
            |e: tally_types::UnknownChoice| DbError::stored(format!("feedback {}", row.id), e);
        Ok(Feedback {
            id: row.id,
            answer_id: row.answer_id,
            part: FeedbackPart::choose(&row.part).map_err(broken)?,
            part_ref: row.part_ref,
            verdict: Verdict::choose(&row.verdict).map_err(broken)?,
            corrected_value: row.corrected_value,
            corrected_unit: row.corrected_unit,
            moved_to: row
                .moved_to
                .as_deref()
                .map(CnpGroup::choose)
                .transpose()
                .map_err(broken)?,
            comment: row.comment,
            client_token: row.client_token,
            created_at: row.created_at,
        })
    }
}

impl NewFeedback {
    /// The submission with its free texts cleaned (see [`tally_types::request::clean_text`]).
    pub fn cleaned(mut self) -> Self {
        let clean = |text: Option<String>| text.map(|t| tally_types::request::clean_text(&t));
        self.part_ref = clean(self.part_ref);
        self.comment = clean(self.comment);
        self
    }

    /// The submission with its corrected value's unit read as the unit table's id; a unit the
    /// table does not know is refused with the reason. A unit without a value says nothing and
    /// is dropped.
    pub fn with_unit_read(mut self) -> Result<Self, InvalidFeedback> {
        if self.corrected_value.is_none() {
            self.corrected_unit = None;
        }
        if let Some(given) = self.corrected_unit.take() {
            let id = tally_text::units::choices::unit_named(&given).ok_or_else(|| {
                InvalidFeedback::UnknownUnit {
                    given: given.clone(),
                }
            })?;
            self.corrected_unit = Some(id);
        }
        Ok(self)
    }

    /// Checks that the parts of the submission fit together; the message says what is wrong.
    pub fn validate(&self) -> Result<(), InvalidFeedback> {
        let allowed = self.part.verdicts();
        if !allowed.contains(&self.verdict) {
            return Err(InvalidFeedback::VerdictNotForPart {
                verdict: self.verdict,
                part: self.part,
            });
        }
        if self.part != FeedbackPart::General && self.answer_id.is_none() {
            return Err(InvalidFeedback::NoAnswerId(self.part));
        }
        let needs_ref = self.part.needs_ref();
        match &self.part_ref {
            None if needs_ref => return Err(InvalidFeedback::NoPartRef(self.part)),
            Some(r) if r.trim().is_empty() || r.chars().count() > 200 => {
                return Err(InvalidFeedback::PartRefLength)
            }
            _ => {}
        }
        if (self.verdict == Verdict::Moved) != self.moved_to.is_some() {
            return Err(InvalidFeedback::MovedTo);
        }
        if self.corrected_unit.is_some() && self.corrected_value.is_none() {
            return Err(InvalidFeedback::UnitWithoutValue);
        }
        if let Some(value) = self.corrected_value {
            if self.verdict != Verdict::Wrong {
                return Err(InvalidFeedback::ValueWithoutWrong);
            }
            let is_count = self.corrected_unit.is_none();
            if !value.is_finite() {
                return Err(InvalidFeedback::NotFinite(value));
            }
            // A count is 0, 1, 2, … up to a bound that keeps it exact; a value has a unit.
            if is_count && (value < 0.0 || value.fract() != 0.0) {
                return Err(InvalidFeedback::NotACount(value));
            }
            if value.abs() > MAX_CORRECTED_COUNT {
                return Err(InvalidFeedback::TooLarge {
                    value,
                    max: MAX_CORRECTED_COUNT,
                });
            }
        }
        if let Some(comment) = &self.comment {
            if comment.chars().count() > MAX_COMMENT_CHARS {
                return Err(InvalidFeedback::CommentTooLong {
                    max: MAX_COMMENT_CHARS,
                });
            }
        }
        Ok(())
    }
}

const COLUMNS: &str =
    "id, answer_id, part, part_ref, verdict, corrected_value, corrected_unit, moved_to, comment, \
                       client_token, created_at";

/// Stores feedback left by `visitor` (the visitor cookie, when there is one). Returns the row
/// and whether it was created now (`false` when the same `client_token` was stored before).
pub async fn insert(
    db: &Database,
    new: &NewFeedback,
    visitor: Option<Uuid>,
) -> Result<(Feedback, bool), DbError> {
    let new = &new.clone().cleaned().with_unit_read()?;
    new.validate()?;
    let pool = db.pool().await?;
    let inserted: Option<FeedbackRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO feedback (answer_id, part, part_ref, verdict, corrected_value, moved_to, \
         comment, client_token, visitor, corrected_unit) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
         ON CONFLICT (client_token) DO NOTHING RETURNING {COLUMNS}"
    )))
    .bind(new.answer_id)
    .bind(new.part.name())
    .bind(new.part_ref.as_deref())
    .bind(new.verdict.name())
    .bind(new.corrected_value)
    .bind(new.moved_to.map(CnpGroup::name))
    .bind(new.comment.as_deref())
    .bind(new.client_token)
    .bind(visitor)
    .bind(new.corrected_unit.as_deref())
    .fetch_optional(pool)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(ref d) if d.is_foreign_key_violation() => {
            Missing::Answer(new.answer_id.unwrap_or_default()).into()
        }
        other => DbError::from(other),
    })?;
    if let Some(row) = inserted {
        return Ok((row.try_into()?, true));
    }
    // The token was stored before. The earlier row is given back only to whoever could have
    // written it: the same visitor, or a sender who sent exactly what it says (so it learns
    // nothing it did not know). Anyone else learns only that the token is taken (issue 57: a
    // second visitor with the first one's token got the first one's comment back).
    let (existing, stored_by): (FeedbackRow, Option<Uuid>) = {
        let row: FeedbackRowBy = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS}, visitor FROM feedback WHERE client_token = $1"
        )))
        .bind(new.client_token)
        .fetch_one(pool)
        .await?;
        (row.row, row.visitor)
    };
    let existing: Feedback = existing.try_into()?;
    let same_visitor = visitor.is_some() && stored_by == visitor;
    if same_visitor || existing.says_the_same_as(new) {
        return Ok((existing, false));
    }
    Err(Clash::ClientTokenReused.into())
}

/// A stored row with the visitor who left it (never shown to anyone).
#[derive(FromRow)]
struct FeedbackRowBy {
    #[sqlx(flatten)]
    row: FeedbackRow,
    visitor: Option<Uuid>,
}

impl Feedback {
    /// Whether this row holds exactly what `new` submits.
    fn says_the_same_as(&self, new: &NewFeedback) -> bool {
        self.answer_id == new.answer_id
            && self.part == new.part
            && self.part_ref == new.part_ref
            && self.verdict == new.verdict
            && self.corrected_value == new.corrected_value
            && self.corrected_unit == new.corrected_unit
            && self.moved_to == new.moved_to
            && self.comment == new.comment
    }
}

/// How many feedback rows give one verdict on one kind of part: what anyone may see of the
/// feedback (the rows, with their comments, are the admin's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct VerdictCount {
    /// The kind of part.
    pub part: FeedbackPart,
    /// The verdict given on it.
    pub verdict: Verdict,
    /// How many feedback rows give it.
    pub count: i64,
}

/// What anyone may see of the feedback: how many rows, by part and verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct FeedbackSummary {
    /// How many feedback rows there are.
    pub total: i64,
    /// How many give each verdict on each kind of part.
    pub counts: Vec<VerdictCount>,
}

/// The feedback counted: in all, and by part and verdict.
pub async fn summary(db: &Database) -> Result<FeedbackSummary, DbError> {
    let counts = counts(db).await?;
    Ok(FeedbackSummary {
        total: counts.iter().map(|c| c.count).sum(),
        counts,
    })
}

/// The feedback counted by part and verdict.
pub async fn counts(db: &Database) -> Result<Vec<VerdictCount>, DbError> {
    let pool = db.pool().await?;
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT part, verdict, count(*) FROM feedback GROUP BY part, verdict ORDER BY part, verdict",
    )
    .fetch_all(pool)
    .await?;
    let broken = |e: tally_types::UnknownChoice| DbError::stored("a feedback's verdict", e);
    rows.into_iter()
        .map(|(part, verdict, count)| {
            Ok(VerdictCount {
                part: FeedbackPart::choose(&part).map_err(broken)?,
                verdict: Verdict::choose(&verdict).map_err(broken)?,
                count,
            })
        })
        .collect()
}

/// One stored feedback row.
pub async fn get(db: &Database, id: i64) -> Result<Option<Feedback>, DbError> {
    let pool = db.pool().await?;
    let row: Option<FeedbackRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM feedback WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await?;
    row.map(Feedback::try_from).transpose()
}

/// The most recent feedback, newest first.
pub async fn recent(db: &Database, limit: i64) -> Result<Vec<Feedback>, DbError> {
    let pool = db.pool().await?;
    let rows: Vec<FeedbackRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM feedback ORDER BY id DESC LIMIT $1"
    )))
    .bind(limit)
    .fetch_all(pool)
    .await?;
    rows.into_iter().map(Feedback::try_from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn general(verdict: Verdict) -> NewFeedback {
        NewFeedback {
            answer_id: None,
            part: FeedbackPart::General,
            part_ref: None,
            verdict,
            corrected_value: None,
            corrected_unit: None,
            moved_to: None,
            comment: None,
            client_token: None,
        }
    }

    #[test]
    fn general_feedback_needs_no_answer() {
        assert_eq!(general(Verdict::Correct).validate(), Ok(()));
    }

    #[test]
    fn verdict_must_fit_the_part() {
        let err = general(Verdict::Relevant)
            .validate()
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not apply to part `general`"), "{err}");
    }

    #[test]
    fn parts_of_an_answer_need_the_answer_and_which_part() {
        let mut f = general(Verdict::Relevant);
        f.part = FeedbackPart::Instance;
        assert!(f.validate().unwrap_err().to_string().contains("answer_id"));
        f.answer_id = Some(3);
        assert!(f.validate().unwrap_err().to_string().contains("part_ref"));
        f.part_ref = Some("instance-2".into());
        assert_eq!(f.validate(), Ok(()));
    }

    #[test]
    fn moved_cnp_needs_a_group_and_corrections_need_wrong() {
        let mut f = general(Verdict::Moved);
        f.part = FeedbackPart::Cnp;
        f.answer_id = Some(1);
        f.part_ref = Some("cnp-1".into());
        assert!(f.validate().unwrap_err().to_string().contains("moved_to"));
        f.moved_to = Some(CnpGroup::Subgroups);
        assert_eq!(f.validate(), Ok(()));

        let mut g = general(Verdict::Correct);
        g.corrected_value = Some(12.0);
        assert!(g.validate().unwrap_err().to_string().contains("wrong"));
        g.verdict = Verdict::Wrong;
        for bad in [-5.0, 2.5] {
            g.corrected_value = Some(bad);
            let err = g.validate().unwrap_err().to_string();
            assert!(err.contains("whole number of 0 or more"), "{bad}: {err}");
        }
        g.corrected_value = Some(f64::NAN);
        assert!(g.validate().unwrap_err().to_string().contains("finite"));
        for good in [0.0, 7.0] {
            g.corrected_value = Some(good);
            assert_eq!(g.validate(), Ok(()));
        }
        // A value has a unit: any finite number, read as the unit table's.
        g.corrected_value = Some(324.5);
        g.corrected_unit = Some("m".into());
        let g = g.with_unit_read().unwrap();
        assert_eq!(g.corrected_unit.as_deref(), Some("metre"));
        assert_eq!(g.validate(), Ok(()));
        let mut h = g.clone();
        h.corrected_unit = Some("furlongzz".into());
        assert!(h.with_unit_read().is_err());
        h = g;
        h.corrected_value = None;
        assert!(h
            .validate()
            .unwrap_err()
            .to_string()
            .contains("corrected_unit"));
        assert_eq!(h.with_unit_read().unwrap().corrected_unit, None);
    }

    #[test]
    fn free_texts_lose_nul_and_control_characters() {
        let mut f = general(Verdict::Wrong);
        f.comment = Some("bad\0 answer\u{1b}[0m".into());
        f.part_ref = Some("\0cnp-1".into());
        let f = f.cleaned();
        assert_eq!(f.comment.as_deref(), Some("bad answer[0m"));
        assert_eq!(f.part_ref.as_deref(), Some("cnp-1"));
    }

    #[test]
    fn unknown_fields_and_values_are_rejected() {
        let err = serde_json::from_str::<NewFeedback>(r#"{"part":"general","verdict":"meh"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown variant `meh`"), "{err}");
        assert!(serde_json::from_str::<NewFeedback>(
            r#"{"part":"general","verdict":"correct","answr_id":1}"#
        )
        .is_err());
    }
}
