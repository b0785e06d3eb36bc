//! The operator's review of feedback: the queue (feedback not yet reviewed, what people said
//! grouped by question, with how many visitors say the same), decisions (stored with who and
//! when; accepting a count correction makes a verified answer), and the accepted judgments
//! exported as training data. No visitor id leaves the database: agreement is counted there.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::FromRow;
use tally_types::count::ALL_CORPORA;
use tally_types::request::question_key;
use tally_types::{
    Choice, CnpGroup, Decision, FeedbackPart, Opinion, QuestionKind, QueuedQuestion, Verdict,
    VerifiedRecord,
};

use crate::db::{Database, DbError};
use crate::refused::{Clash, Invalid, Missing};
use crate::verified::{self, Accepted};

#[derive(FromRow)]
struct OpinionRow {
    question: String,
    part: String,
    part_ref: Option<String>,
    verdict: String,
    corrected_value: Option<f64>,
    corrected_unit: Option<String>,
    moved_to: Option<String>,
    visitors: i64,
    rows: i64,
    feedback_ids: Vec<i64>,
    comments: Vec<String>,
    comment_count: i64,
    answer_id: i64,
    tally_count: Option<f64>,
    tally_unit: Option<String>,
    stated_in_snippets: Option<i64>,
    first_at: DateTime<Utc>,
    last_at: DateTime<Utc>,
}

/// What makes feedback rows one opinion: the same thing said about the same question.
const OPINION: &str =
    "lower(question), part, part_ref, verdict, corrected_value, corrected_unit, moved_to";

/// The question an answer's JSON was given to, whatever its kind: a value answer's question is
/// an object with its text (read first: `->>` would give that object as JSON text).
const QUESTION_OF_ANSWER: &str = "COALESCE(a.answer->'answer'->'question'->>'text', \
     a.answer->'answer'->>'question', a.answer->'answer'->>'query')";

/// Tally's count, or its value, in an answer's JSON; and the value's unit-table id.
const TALLY_COUNT_OF_ANSWER: &str = "COALESCE((a.answer->'answer'->>'count')::float8, \
     (a.answer->'answer'->>'value')::float8)";
const TALLY_UNIT_OF_ANSWER: &str = "a.answer->'answer'->>'unit_id'";

fn broken(e: tally_types::UnknownChoice) -> DbError {
    DbError::stored("a feedback's part or verdict", e)
}

/// A stored row's part, verdict and group names read into their types (the table's CHECKs
/// admit these names only; another is a broken database).
fn read_names(
    part: &str,
    verdict: &str,
    moved_to: Option<&str>,
) -> Result<(FeedbackPart, Verdict, Option<CnpGroup>), DbError> {
    Ok((
        FeedbackPart::choose(part).map_err(broken)?,
        Verdict::choose(verdict).map_err(broken)?,
        moved_to.map(CnpGroup::choose).transpose().map_err(broken)?,
    ))
}

impl TryFrom<OpinionRow> for (String, Opinion) {
    type Error = DbError;

    fn try_from(row: OpinionRow) -> Result<Self, DbError> {
        let (part, verdict, moved_to) =
            read_names(&row.part, &row.verdict, row.moved_to.as_deref())?;
        let opinion = Opinion {
            part,
            part_ref: row.part_ref,
            verdict,
            corrected_value: row.corrected_value,
            corrected_unit: row
                .corrected_unit
                .as_deref()
                .and_then(tally_text::units::choices::unit_choice),
            moved_to,
            visitors: row.visitors,
            rows: row.rows,
            feedback_ids: row.feedback_ids,
            comments: row.comments,
            comment_count: row.comment_count,
            answer_id: row.answer_id,
            tally_count: row.tally_count,
            tally_unit: row
                .tally_unit
                .as_deref()
                .and_then(tally_text::units::choices::unit_choice),
            stated_in_snippets: row.stated_in_snippets,
            first_at: row.first_at.to_rfc3339(),
            last_at: row.last_at.to_rfc3339(),
        };
        Ok((row.question, opinion))
    }
}

/// Which part of the review queue to list: `limit` opinions after the first `offset`, each with
/// at most `min(limit, ROWS_PER_OPINION)` of its feedback ids and comments (how many there are
/// in all comes with them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueuePage {
    /// How many opinions to list.
    pub limit: i64,
    /// How many opinions to skip first.
    pub offset: i64,
}

/// The most feedback ids and comments listed with one opinion (issue 70: 20,000 rows saying the
/// same made `limit=1` answer 57 MB).
pub const ROWS_PER_OPINION: i64 = 10;

/// How many pieces of an answer's evidence state the corrected value (issue 87: a value the
/// evidence stated was said to be stated by no snippet, since only count phrases were looked
/// at): the count answer's snippets with a count phrase of it, the value answer's observations
/// of it and an aggregation's result, each within 0.5% (a value's evidence is written rounded).
const STATED_IN_EVIDENCE: &str = "(SELECT sum(jsonb_array_length(jsonb_path_query_array(a.answer, ev.path, \
       jsonb_build_object('lo', f.corrected_value - abs(f.corrected_value) * 0.005, \
                          'hi', f.corrected_value + abs(f.corrected_value) * 0.005))))::bigint \
     FROM (VALUES \
       ('$.answer.snippets[*] ? (exists (@.spans[*] ? (@.count >= $lo && @.count <= $hi)))'::jsonpath), \
       ('$.answer.observations[*] ? (@.value >= $lo && @.value <= $hi)'::jsonpath), \
       ('$.answer.aggregation ? (@.value >= $lo && @.value <= $hi)'::jsonpath)) AS ev (path))";

/// The feedback on answers not yet reviewed, grouped by question (its normalised wording),
/// the questions with the most visitors first; one page of opinions (see [`QueuePage`]).
pub async fn queue(db: &Database, page: QueuePage) -> Result<Vec<QueuedQuestion>, DbError> {
    let pool = db.pool().await?;
    // Each row numbered within its opinion (and its comments apart), so that only the first few
    // are aggregated, however many say the same.
    let rows: Vec<OpinionRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT min(question) AS question, part, part_ref, verdict, corrected_value, \
           corrected_unit, moved_to, \
           count(DISTINCT COALESCE(visitor::text, 'row ' || id)) AS visitors, \
           count(*) AS rows, \
           COALESCE(array_agg(id ORDER BY id) FILTER (WHERE nth <= $3), '{{}}') AS feedback_ids, \
           COALESCE(array_agg(comment ORDER BY id) \
             FILTER (WHERE comment IS NOT NULL AND comment_nth <= $3), '{{}}') AS comments, \
           count(comment) AS comment_count, \
           (array_agg(answer_id ORDER BY id DESC))[1] AS answer_id, \
           (array_agg(tally_count ORDER BY id DESC))[1] AS tally_count, \
           (array_agg(tally_unit ORDER BY id DESC))[1] AS tally_unit, \
           (array_agg(stated ORDER BY id DESC))[1] AS stated_in_snippets, \
           min(created_at) AS first_at, max(created_at) AS last_at \
         FROM (SELECT q.*, \
                 row_number() OVER (PARTITION BY {OPINION} ORDER BY id) AS nth, \
                 row_number() OVER (PARTITION BY {OPINION}, comment IS NULL ORDER BY id) \
                   AS comment_nth \
               FROM (SELECT f.id, f.part, f.part_ref, f.verdict, f.corrected_value, \
                       f.corrected_unit, f.moved_to, f.visitor, f.comment, f.answer_id, \
                       f.created_at, COALESCE({QUESTION_OF_ANSWER}, '') AS question, \
                       {TALLY_COUNT_OF_ANSWER} AS tally_count, \
                       {TALLY_UNIT_OF_ANSWER} AS tally_unit, \
                       CASE WHEN f.corrected_value IS NULL THEN NULL ELSE {STATED_IN_EVIDENCE} END \
                         AS stated \
                     FROM feedback f JOIN answers a ON a.id = f.answer_id \
                     WHERE f.part <> 'general' \
                       AND NOT EXISTS (SELECT 1 FROM feedback_reviews r \
                                       WHERE r.feedback_id = f.id)) q) p \
         GROUP BY {OPINION} \
         ORDER BY visitors DESC, max(id) DESC LIMIT $1 OFFSET $2"
    )))
    .bind(page.limit)
    .bind(page.offset)
    .bind(page.limit.min(ROWS_PER_OPINION))
    .fetch_all(pool)
    .await?;
    let mut questions: Vec<QueuedQuestion> = Vec::new();
    for row in rows {
        let (question, opinion) = row.try_into()?;
        let key = question_key(&question);
        match questions
            .iter_mut()
            .find(|q| question_key(&q.question) == key)
        {
            Some(queued) => queued.opinions.push(opinion),
            None => questions.push(QueuedQuestion {
                question,
                opinions: vec![opinion],
                verified: None,
            }),
        }
    }
    let asked: Vec<&str> = questions.iter().map(|q| q.question.as_str()).collect();
    let mut current = verified::current_of(db, &asked).await?;
    for queued in &mut questions {
        queued.verified = current.remove(&question_key(&queued.question));
    }
    Ok(questions)
}

/// The operator's decision on one feedback row.
#[derive(Debug, Clone, serde::Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct NewDecision {
    /// Whether the feedback is accepted or rejected.
    pub decision: Decision,
    /// Who decides (a name the operator gives; "operator" when none).
    #[serde(default)]
    #[cfg_attr(feature = "json-schema", schemars(length(max = 100)))]
    pub reviewer: Option<String>,
    /// What the operator writes with an accepted count, shown with the verified answer to
    /// everyone who asks (none by default: a visitor's comment is never copied there).
    #[serde(default)]
    #[cfg_attr(feature = "json-schema", schemars(length(max = 1000)))]
    pub note: Option<String>,
}

/// The longest note an operator writes with a verified answer, in characters.
pub const MAX_NOTE_CHARS: usize = 1000;

impl NewDecision {
    /// The reviewer's name, cleaned ("operator" when none is given).
    pub fn reviewer(&self) -> Result<String, DbError> {
        reviewer_name(self.reviewer.as_deref())
    }

    /// The operator's note, cleaned; `None` when empty.
    pub fn note(&self) -> Result<Option<String>, DbError> {
        let note = given_text(self.note.as_deref());
        if note
            .as_ref()
            .is_some_and(|n| n.chars().count() > MAX_NOTE_CHARS)
        {
            return Err(Invalid::NoteTooLong {
                max: MAX_NOTE_CHARS,
            }
            .into());
        }
        Ok(note)
    }
}

/// A reviewer's name as given, cleaned: 1 to 100 characters ("operator" when none is given).
pub fn reviewer_name(given: Option<&str>) -> Result<String, DbError> {
    let name = given_text(given).unwrap_or_else(|| "operator".to_string());
    if name.chars().count() > 100 {
        return Err(Invalid::ReviewerTooLong.into());
    }
    Ok(name)
}

/// An operator's free text as given, cleaned and trimmed; `None` when nothing is left.
fn given_text(given: Option<&str>) -> Option<String> {
    given
        .map(tally_types::request::clean_text)
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty())
}

/// What a decision did: the rows it decided (every pending row saying the same about the same
/// question), and the verified answer an accepted count made.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Decided {
    /// The decision taken.
    pub decision: Decision,
    /// The feedback rows it decided.
    pub feedback_ids: Vec<i64>,
    /// The verified answer an accepted count made.
    pub verified: Option<VerifiedRecord>,
}

#[derive(FromRow)]
struct Judged {
    id: i64,
    answer_id: Option<i64>,
    part: String,
    part_ref: Option<String>,
    verdict: String,
    corrected_value: Option<f64>,
    corrected_unit: Option<String>,
    moved_to: Option<String>,
    question: Option<String>,
    kind: Option<String>,
    tally_count: Option<f64>,
    tally_unit: Option<String>,
    corpus: Option<String>,
}

/// Feedback rows with the question and Tally's count of the answer they judge, then `rest`
/// (joins, conditions).
fn judged_rows(rest: &str) -> String {
    format!(
        "SELECT f.id, f.answer_id, f.part, f.part_ref, f.verdict, f.corrected_value, \
         f.corrected_unit, f.moved_to, {QUESTION_OF_ANSWER} AS question, \
         a.answer->>'kind' AS kind, {TALLY_COUNT_OF_ANSWER} AS tally_count, \
         {TALLY_UNIT_OF_ANSWER} AS tally_unit, \
         (SELECT q.settings->'settings'->'count'->>'corpus' FROM questions q \
          WHERE q.answer_id = a.id ORDER BY q.id LIMIT 1) AS corpus \
         FROM feedback f LEFT JOIN answers a ON a.id = f.answer_id {rest}"
    )
}

/// Decides on feedback row `id` and on every pending row that says the same about the same
/// question. Accepting a count correction ("wrong", with the right count) or a "correct" on a
/// count makes that count the question's verified answer, replacing an earlier one.
pub async fn decide(db: &Database, id: i64, new: &NewDecision) -> Result<Decided, DbError> {
    let reviewer = new.reviewer()?;
    let note = new.note()?;
    let pool = db.pool().await?;
    let mut tx = pool.begin().await?;
    let row: Option<Judged> = sqlx::query_as(sqlx::AssertSqlSafe(judged_rows(
        "WHERE f.id = $1 FOR UPDATE OF f",
    )))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let row = row.ok_or(Missing::Feedback(id))?;
    let reviewed: Option<String> =
        sqlx::query_scalar("SELECT decision FROM feedback_reviews WHERE feedback_id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some(decision) = reviewed {
        return Err(Clash::ReviewedBefore {
            feedback: id,
            decision,
        }
        .into());
    }
    let (Some(answer_id), Some(question)) = (row.answer_id, row.question.clone()) else {
        return Err(Invalid::NothingToReview(id).into());
    };
    // The pending rows saying the same thing about the same question.
    let same: Vec<Judged> = sqlx::query_as(sqlx::AssertSqlSafe(judged_rows(
        "WHERE f.part = $1 AND f.part_ref IS NOT DISTINCT FROM $2 AND f.verdict = $3 \
           AND f.corrected_value IS NOT DISTINCT FROM $4 AND f.moved_to IS NOT DISTINCT FROM $5 \
           AND f.corrected_unit IS NOT DISTINCT FROM $6 \
           AND NOT EXISTS (SELECT 1 FROM feedback_reviews r WHERE r.feedback_id = f.id)",
    )))
    .bind(&row.part)
    .bind(&row.part_ref)
    .bind(&row.verdict)
    .bind(row.corrected_value)
    .bind(&row.moved_to)
    .bind(&row.corrected_unit)
    .fetch_all(&mut *tx)
    .await?;
    let key = question_key(&question);
    let feedback_ids: Vec<i64> = same
        .iter()
        .filter(|r| r.question.as_deref().map(question_key) == Some(key.clone()))
        .map(|r| r.id)
        .collect();
    sqlx::query(
        "INSERT INTO feedback_reviews (feedback_id, decision, reviewed_by) \
         SELECT unnest($1::bigint[]), $2, $3",
    )
    .bind(&feedback_ids)
    .bind(new.decision.name())
    .bind(&reviewer)
    .execute(&mut *tx)
    .await?;
    let verified = match (new.decision, verified_answer(&row)) {
        (Decision::Accepted, Some((count, unit))) => Some(
            verified::replace(
                &mut tx,
                &Accepted {
                    question: &question,
                    count,
                    unit,
                    feedback_id: row.id,
                    answer_id,
                    tally_count: row.tally_count,
                    note: note.as_deref(),
                    corpus: row.corpus.as_deref().unwrap_or(ALL_CORPORA),
                    by: &reviewer,
                },
            )
            .await?,
        ),
        _ => None,
    };
    tx.commit().await?;
    Ok(Decided {
        decision: new.decision,
        feedback_ids,
        verified,
    })
}

/// The count, or the value with its unit, that a judgment of a whole count or value answer
/// asserts: the correction, or Tally's own answer called correct.
fn verified_answer(row: &Judged) -> Option<(f64, Option<&str>)> {
    let kind = row.kind.as_deref();
    let counted = kind == Some(QuestionKind::Count.name());
    let valued = kind == Some(QuestionKind::Value.name());
    if row.part != FeedbackPart::Answer.name() || !(counted || valued) {
        return None;
    }
    let (value, unit) = match Verdict::parse(&row.verdict)? {
        Verdict::Wrong => (row.corrected_value?, row.corrected_unit.as_deref()),
        Verdict::Correct => (row.tally_count?, row.tally_unit.as_deref()),
        _ => return None,
    };
    // A count has no unit; a value has one (a plain number corrects it in Tally's unit).
    match (counted, unit) {
        (true, _) => Some((value, None)),
        (false, Some(unit)) => Some((value, Some(unit))),
        (false, None) => Some((value, row.tally_unit.as_deref())).filter(|(_, u)| u.is_some()),
    }
}

/// One accepted judgment as training data: what `GET /api/admin/judgments` exports and
/// `tally train … --judgments` reads (one JSON object per line).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Judgment {
    /// The question the judged answer answered.
    pub question: String,
    /// Which part of the answer was judged.
    pub part: FeedbackPart,
    /// Which one of that part in the answer.
    pub part_ref: Option<String>,
    /// What the person said about the part.
    pub verdict: Verdict,
    /// The value the person said is right.
    pub corrected_value: Option<f64>,
    /// The group a CNP was moved to.
    pub moved_to: Option<CnpGroup>,
    /// Tally's count in the answer judged.
    pub tally_count: Option<f64>,
}

/// Every accepted judgment of an answer, oldest first.
pub async fn accepted_judgments(db: &Database) -> Result<Vec<Judgment>, DbError> {
    let pool = db.pool().await?;
    let rows: Vec<Judged> = sqlx::query_as(sqlx::AssertSqlSafe(judged_rows(
        "JOIN feedback_reviews r ON r.feedback_id = f.id \
         WHERE r.decision = 'accepted' AND f.answer_id IS NOT NULL ORDER BY f.id",
    )))
    .fetch_all(pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            let (part, verdict, moved_to) =
                read_names(&row.part, &row.verdict, row.moved_to.as_deref())?;
            Ok(Judgment {
                question: row.question.unwrap_or_default(),
                part,
                part_ref: row.part_ref,
                verdict,
                corrected_value: row.corrected_value,
                moved_to,
                tally_count: row.tally_count,
            })
        })
        .collect()
}
