//! Answering with storage, shared by the JSON API and the web pages (through the app's
//! [`Backend`]): rate limit, answer, store the question and answer, report where.

use std::sync::Arc;
use std::time::Instant;

use axum::http::StatusCode;
use tally_app::backend::{Asker, Backend, BoxFuture, Failure};
use tally_types::documents::{CorpusRow, IngestJob};

use crate::admin_token::CORPUS_PAGES;
use tally_app::model::{Answered, AskOptions, FeedbackForm, FeedbackSaved, HistoryItem};
use tally_app::status::SystemStatus;
use tally_types::request::{Ask, Settings};
use tally_types::study::{StudyIntro, StudyPage, StudyResponseForm, StudySummary};
use tally_types::{Answer, Mode, StoredAnswer, VerifiedAnswer};
use uuid::Uuid;

use crate::answering::{summary_of, unobserved, AnswerError, Checked, StageObserver};
use crate::error::{ApiError, HttpError};
use crate::http::health;
use crate::http::preferences::visitor_id;
use crate::state::AppState;
use crate::study::StudyError;
use tally_store::answers::{self, AnsweredFrom, HistoryOf};
use tally_store::feedback::{self, NewFeedback};
use tally_types::{Choice, CnpGroup};

/// What an answer was computed from, for its key: the corpora, or the web snippet set it used
/// (or the web search's failure, for a corpus answer given instead).
fn answered_from(corpus_version: String, answer: &Answer) -> AnsweredFrom {
    match answer.snippet_origin() {
        None => AnsweredFrom::Corpora {
            version: corpus_version,
        },
        Some(origin) => match (&origin.failure, origin.set_id) {
            (Some(_), _) => AnsweredFrom::CorporaForTheWeb {
                version: corpus_version,
            },
            (None, Some(id)) => AnsweredFrom::WebSnippetSet { id },
            (None, None) => AnsweredFrom::WebSnippets {
                fetched_at: origin.fetched_at.clone().unwrap_or_default(),
            },
        },
    }
}

/// Takes one answer from the asker's allowance (`--rate-limit`), or says how long to wait.
/// Every answering route passes here: counts, searches and value questions alike.
pub(crate) fn admit(state: &AppState, asker: &Asker) -> Result<(), AnswerError> {
    state
        .limiter
        .check(asker.address)
        .map_err(|wait| AnswerError::RateLimited(wait.as_secs().max(1)))
}

/// Why feedback was not stored (the allowance is the server's, so this is its error, not the
/// store's): the sender's allowance is used up, or the store refused it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FeedbackRefused {
    /// The sender's allowance is used up; seconds until it may send again.
    #[error("too much feedback from your address; try again in {0} s")]
    RateLimited(u64),
    /// The store refused it.
    #[error(transparent)]
    Store(#[from] tally_store::db::DbError),
}

impl HttpError for FeedbackRefused {
    fn status(&self) -> StatusCode {
        match self {
            FeedbackRefused::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            FeedbackRefused::Store(e) => e.status(),
        }
    }

    fn public_message(&self) -> String {
        match self {
            FeedbackRefused::Store(e) => e.public_message(),
            other => other.to_string(),
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            FeedbackRefused::RateLimited(seconds) => Some(*seconds),
            FeedbackRefused::Store(_) => None,
        }
    }
}

impl From<FeedbackRefused> for ApiError {
    fn from(error: FeedbackRefused) -> Self {
        ApiError::of(&error)
    }
}

/// Stores feedback within the sender's allowance (`--feedback-limit`, counted apart from answers):
/// the one way in for the API and the page's forms.
pub(crate) async fn store_feedback(
    state: &AppState,
    new: NewFeedback,
    asker: &Asker,
) -> Result<(feedback::Feedback, bool), FeedbackRefused> {
    state
        .feedback_limiter
        .check(asker.address)
        .map_err(|wait| FeedbackRefused::RateLimited(wait.as_secs().max(1)))?;
    let db = state.db.clone();
    let visitor = feedback_visitor(asker);
    Ok(
        tally_store::db::write_to_end(async move { feedback::insert(&db, &new, visitor).await })
            .await?,
    )
}

/// Whom feedback counts as from: the visitor cookie, else the sender's address (issue 70: each
/// request without the cookie counted as a new visitor, so one address made "200 visitors"
/// agree). The address is stored only as an id derived from it (name-based, as a visitor id).
fn feedback_visitor(asker: &Asker) -> Option<Uuid> {
    asker.visitor.as_deref().and_then(visitor_id).or_else(|| {
        asker
            .address
            .map(|address| Uuid::new_v5(&ADDRESS_VISITORS, address.to_string().as_bytes()))
    })
}

/// The namespace of the ids that stand for an address's feedback without a visitor cookie.
const ADDRESS_VISITORS: Uuid = Uuid::from_u128(0x5f0e_8a3c_91d2_4b6e_a7c4_3e2d_1b0a_9f87);

/// Answers a value question (`GET /api/value`) within the asker's allowance.
pub(crate) async fn answer_value(
    state: &AppState,
    question: &str,
    corpus: Option<String>,
    asker: &Asker,
) -> Result<tally_types::ValueAnswer, AnswerError> {
    // The question is checked before it uses up any allowance, as a count question is.
    let checked = state.answerer.check_value(question, corpus)?;
    admit(state, asker)?;
    state.answerer.value(&checked).await
}

/// Answers a checked question and stores it with its answer, telling `on_stage` about each
/// stage as it finishes (`unobserved()` when nobody follows the progress).
pub(crate) async fn answer_and_store(
    state: &AppState,
    checked: &Checked,
    asker: &Asker,
    on_stage: StageObserver,
) -> Result<StoredAnswer, AnswerError> {
    // Questions that cannot be answered were refused before: they did not use up the asker's
    // allowance.
    admit(state, asker)?;
    let started = Instant::now();
    let answer = state.answerer.answer_checked(checked, on_stage).await?;
    let latency_ms = started.elapsed().as_secs_f64() * 1e3;
    let ask = &checked.ask;
    // Stored and keyed under what the answer's kind is computed from (see `Settings::computing`).
    let settings_json = serde_json::json!({
        "mode": ask.mode,
        "settings": ask.settings.computing(answer.kind),
    });
    let asked = answers::Asking {
        question: ask.q.clone(),
        kind: answer.kind.name(),
        key: answers::AnswerKey::new(
            &ask.q,
            ask.mode,
            &settings_json,
            &answered_from(state.answerer.corpus_version(), &answer),
        ),
        settings: settings_json,
        visitor: asker.visitor.as_deref().and_then(visitor_id),
        latency_ms,
    };
    // The storing task builds the answer's JSON only when no equal answer is stored yet; it
    // shares the answer instead of copying it (an answer is ~24 KB of JSON, and most requests
    // find theirs stored).
    let answer = Arc::new(answer);
    let record = {
        let answer = Arc::clone(&answer);
        move || {
            serde_json::json!({
                "kind": answer.kind,
                "kind_reason": answer.kind_reason,
                "summary": summary_of(&answer.answer),
                "answer": answer.answer,
            })
        }
    };
    let db = state.db.clone();
    let stored =
        tally_store::db::write_to_end(
            async move { answers::store_answer(&db, &asked, record).await },
        )
        .await;
    let (ids, not_stored) = match stored {
        Ok(ids) => (Some(ids), None),
        Err(e) => (None, Some(e.public_message())),
    };
    // The storing task has finished and dropped its share.
    let answer = Arc::try_unwrap(answer).unwrap_or_else(|shared| (*shared).clone());
    // A database that could not store the answer is not asked again (its timeout once is enough).
    let verified = match ids {
        Some(_) => verified_for(state, ask, &answer).await,
        None => None,
    };
    Ok(StoredAnswer {
        question_id: ids.map(|i| i.question_id),
        answer_id: ids.map(|i| i.answer_id),
        not_stored,
        verified,
        answer,
    })
}

/// The count or value the operator accepted for a count or value question over the corpus
/// asked (over all corpora without one of its own: the newest over one corpus), read from the
/// database at every answer (so every server of a cluster gives it as soon
/// as it is accepted); none when the database cannot be reached (Tally's own answer is still
/// given).
async fn verified_for(
    state: &AppState,
    ask: &tally_types::request::Ask,
    answer: &Answer,
) -> Option<VerifiedAnswer> {
    use tally_types::QuestionKind;
    if !matches!(answer.kind, QuestionKind::Count | QuestionKind::Value) {
        return None;
    }
    let corpus = tally_store::verified::corpus_of(&ask.settings.count);
    let here = tally_store::verified::current(&state.db, &ask.q, corpus)
        .await
        .inspect_err(|e| {
            tracing::warn!(
                "verified answers not read: {}",
                tally_types::error::Causes(e)
            )
        })
        .ok()
        .flatten();
    if here.is_some() || corpus != tally_types::count::ALL_CORPORA {
        return here;
    }
    // Asked over all corpora, a reviewer's answer over one of them is said too (the page shows
    // it as that corpus's, beside Tally's own answer), so a correction is never silent.
    tally_store::verified::current_of(&state.db, &[&ask.q])
        .await
        .ok()
        .and_then(|newest| newest.into_values().next())
}

fn failure(status: StatusCode, message: impl Into<String>) -> Failure {
    Failure {
        status: status.as_u16(),
        message: message.into(),
    }
}

/// The idempotency token of a feedback form: the same answer, part and verdict sent twice make
/// one row.
fn feedback_token(form: &FeedbackForm) -> Uuid {
    let name = serde_json::json!({
        "key": form.key,
        "answer_id": form.answer_id,
        "part": form.part,
        "part_ref": form.part_ref.as_deref().unwrap_or(""),
        "verdict": form.verdict,
    });
    Uuid::new_v5(&Uuid::NAMESPACE_URL, name.to_string().as_bytes())
}

/// A feedback form's field that does not read.
#[derive(Debug, thiserror::Error)]
enum FormError {
    #[error(transparent)]
    UnknownGroup(#[from] tally_types::choice::UnknownChoice),
    #[error("the corrected count or value must be a number, not “{given}”")]
    NotANumber {
        /// The text as given.
        given: String,
    },
}

/// Parses a form's text into the stored feedback; empty fields count as absent.
fn new_feedback(form: &FeedbackForm) -> Result<NewFeedback, FormError> {
    fn given(value: &Option<String>) -> Option<&str> {
        value.as_deref().map(str::trim).filter(|v| !v.is_empty())
    }
    let moved_to = given(&form.moved_to).map(CnpGroup::choose).transpose()?;
    // "1,280" as people write it.
    let corrected_value = given(&form.corrected_value)
        .map(|v| {
            v.replace(',', "")
                .parse::<f64>()
                .map_err(|_| FormError::NotANumber {
                    given: v.to_string(),
                })
        })
        .transpose()?;
    Ok(NewFeedback {
        answer_id: Some(form.answer_id),
        part: form.part,
        part_ref: given(&form.part_ref).map(String::from),
        verdict: form.verdict,
        corrected_value,
        corrected_unit: given(&form.corrected_unit).map(String::from),
        moved_to,
        comment: given(&form.comment).map(String::from),
        client_token: Some(feedback_token(form)),
    })
}

/// Opinions (a page) and verified answers the review page lists at most.
const REVIEW_LIMIT: i64 = 50;

/// The server's side of the app.
pub(crate) struct ServerBackend {
    pub state: AppState,
}

impl Backend for ServerBackend {
    fn status(&self) -> BoxFuture<SystemStatus> {
        let state = self.state.clone();
        // The page's status is the admin's when its login cookie is.
        let token = self.token_or_login(String::new());
        let audience = health::audience_of(&state, Some(token.as_str()));
        Box::pin(async move { health::current_status(&state, audience).await })
    }

    fn answer(&self, ask: Ask, asker: Asker) -> BoxFuture<Result<Answered, Failure>> {
        let state = self.state.clone();
        Box::pin(async move {
            let checked = state.answerer.check(&ask).map_err(|e| e.failure())?;
            let stored = answer_and_store(&state, &checked, &asker, unobserved())
                .await
                .map_err(|e| e.failure())?;
            Ok(to_page(checked.ask, stored))
        })
    }

    fn feedback(
        &self,
        form: FeedbackForm,
        asker: Asker,
    ) -> BoxFuture<Result<FeedbackSaved, Failure>> {
        let state = self.state.clone();
        Box::pin(async move {
            let new =
                new_feedback(&form).map_err(|e| failure(StatusCode::BAD_REQUEST, e.to_string()))?;
            let (row, created) = store_feedback(&state, new, &asker)
                .await
                .map_err(|e| e.failure())?;
            Ok(FeedbackSaved {
                id: row.id,
                created,
            })
        })
    }

    fn history(
        &self,
        limit: i64,
        visitor: Option<String>,
        token: Option<String>,
    ) -> BoxFuture<Result<Vec<HistoryItem>, Failure>> {
        let state = self.state.clone();
        Box::pin(async move {
            let Some(of) = history_of(&state, visitor.as_deref(), token.as_deref())
                .map_err(|e| e.failure())?
            else {
                return Ok(Vec::new());
            };
            let rows = answers::recent_questions(&state.db, of, limit.clamp(1, 500))
                .await
                .map_err(|e| e.failure())?;
            Ok(rows.into_iter().map(history_item).collect())
        })
    }

    fn corpora(&self, token: String) -> BoxFuture<Result<Vec<CorpusRow>, Failure>> {
        let token = self.token_or_login(token);
        let state = self.state.clone();
        Box::pin(async move {
            state
                .admin
                .check(Some(&token), CORPUS_PAGES)
                .map_err(|e| e.failure())?;
            state
                .ingest
                .corpora(&state.answerer)
                .await
                .map_err(|e| e.failure())
        })
    }

    fn corpus_documents(
        &self,
        token: String,
        corpus: String,
    ) -> BoxFuture<Result<Vec<tally_types::documents::DocumentEntry>, Failure>> {
        let token = self.token_or_login(token);
        let state = self.state.clone();
        Box::pin(async move {
            state
                .admin
                .check(Some(&token), CORPUS_PAGES)
                .map_err(|e| e.failure())?;
            tally_store::corpora::documents_of(&state.db, &corpus)
                .await
                .map_err(|e| e.failure())
        })
    }

    fn api_operations(&self) -> Vec<tally_app::model::ApiOperation> {
        crate::http::openapi::operations()
    }

    fn form_token(&self) -> Option<String> {
        let cookie = tally_app::backend::request_cookie(tally_app::model::ADMIN_COOKIE)?;
        // Only a login that holds gets one.
        self.state.admin.token_of_login(&cookie).ok().flatten()?;
        self.state.admin.form_token(&cookie)
    }

    fn review(&self, token: String, page: u32) -> BoxFuture<Result<tally_types::Review, Failure>> {
        let token = self.token_or_login(token);
        let state = self.state.clone();
        Box::pin(async move {
            state
                .admin
                .check(Some(&token), crate::admin_token::REVIEW_PAGE)
                .map_err(|e| e.failure())?;
            // One opinion more than the page shows says whether another page follows.
            let asked = tally_store::review::QueuePage {
                limit: REVIEW_LIMIT + 1,
                offset: REVIEW_LIMIT * i64::from(page),
            };
            let mut queue = tally_store::review::queue(&state.db, asked)
                .await
                .map_err(|e| e.failure())?;
            let opinions: usize = queue.iter().map(|q| q.opinions.len()).sum();
            let more = opinions > REVIEW_LIMIT as usize;
            if more {
                if let Some(last) = queue.last_mut() {
                    last.opinions.pop();
                    if last.opinions.is_empty() {
                        queue.pop();
                    }
                }
            }
            let verified = tally_store::verified::list(&state.db, REVIEW_LIMIT)
                .await
                .map_err(|e| e.failure())?;
            Ok(tally_types::Review {
                queue,
                verified,
                page,
                more,
            })
        })
    }

    fn ingest_job(&self, token: String, id: String) -> BoxFuture<Result<IngestJob, Failure>> {
        let token = self.token_or_login(token);
        let state = self.state.clone();
        Box::pin(async move {
            state
                .admin
                .check(Some(&token), CORPUS_PAGES)
                .map_err(|e| e.failure())?;
            state.ingest.job(&id).await.map_err(|e| e.failure())
        })
    }

    fn ask_options(&self) -> BoxFuture<AskOptions> {
        let answerer = &self.state.answerer;
        let examples = answerer.example_questions();
        let options = AskOptions {
            count: examples.count,
            value: examples.value,
            quantity: examples.quantity,
            corpora: answerer.corpora(),
            web_search: answerer.web().map(|w| w.search.provider().to_string()),
        };
        Box::pin(async move { options })
    }

    fn study_intro(&self) -> BoxFuture<Result<StudyIntro, Failure>> {
        let intro = self.state.study.intro();
        Box::pin(async move { Ok(intro) })
    }

    fn start_study(&self, asker: Asker) -> BoxFuture<Result<String, Failure>> {
        let study = self.state.study.clone();
        Box::pin(async move {
            let session = study.start(asker.address).await.map_err(|e| e.failure())?;
            Ok(session.to_string())
        })
    }

    fn study_page(&self, session: String) -> BoxFuture<Result<StudyPage, Failure>> {
        let study = self.state.study.clone();
        Box::pin(async move { study.page(&session).await.map_err(|e| e.failure()) })
    }

    fn answer_study(&self, form: StudyResponseForm) -> BoxFuture<Result<(), Failure>> {
        let study = self.state.study.clone();
        Box::pin(async move { study.respond(&form).await.map_err(|e| e.failure()) })
    }

    fn study_summary(&self, token: String) -> BoxFuture<Result<StudySummary, Failure>> {
        let token = self.token_or_login(token);
        let study = self.state.study.clone();
        Box::pin(async move { study.summary(Some(&token)).await.map_err(|e| e.failure()) })
    }
}

impl ServerBackend {
    /// `token`, or when the page gave none, the one the request's login cookie stands for.
    fn token_or_login(&self, token: String) -> String {
        if !token.trim().is_empty() {
            return token;
        }
        // A forged cookie is counted as a wrong token there; the page then asks for the token.
        tally_app::backend::request_cookie(tally_app::model::ADMIN_COOKIE)
            .and_then(|cookie| {
                let token = self.state.admin.token_of_login(&cookie);
                token.ok().flatten().map(str::to_string)
            })
            .unwrap_or_default()
    }
}

/// Whose history a request may read: everyone's with the admin token (a wrong token is
/// refused), else the visitor's own; `None` when it has no visitor id (nothing to list).
pub(crate) fn history_of(
    state: &AppState,
    visitor: Option<&str>,
    token: Option<&str>,
) -> Result<Option<HistoryOf>, StudyError> {
    if token.is_some() {
        state.study.authorize(token)?;
        return Ok(Some(HistoryOf::Everyone));
    }
    Ok(visitor.and_then(visitor_id).map(HistoryOf::Visitor))
}

/// A stored question as the history page lists it, with the URL that asks it again.
fn history_item(row: answers::RecentQuestion) -> HistoryItem {
    // Stored before modes were typed, or by hand: an unknown name reads as detection.
    let mode = row.settings["mode"]
        .as_str()
        .and_then(Mode::parse)
        .unwrap_or_default();
    let settings: Settings =
        serde_json::from_value(row.settings["settings"].clone()).unwrap_or_default();
    let corpus = settings.count.corpus.clone();
    let url = Ask {
        q: row.text.clone(),
        mode,
        settings,
    }
    .url();
    HistoryItem {
        corpus,
        question_id: row.question_id,
        text: row.text,
        kind: row.kind,
        asked_at: row.asked_at.format("%Y-%m-%d %H:%M UTC").to_string(),
        summary: row.summary.unwrap_or_else(|| "(not answered)".into()),
        feedback: row.feedback,
        url,
    }
}

/// The page's view of a stored answer: the engine's answer with where it is stored.
pub(crate) fn to_page(ask: Ask, stored: StoredAnswer) -> Answered {
    Answered {
        ask,
        feedback_key: Uuid::new_v4().to_string(),
        stored,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_types::{FeedbackPart, Verdict};

    fn form(verdict: Verdict) -> FeedbackForm {
        FeedbackForm {
            answer_id: 7,
            part: FeedbackPart::Instance,
            part_ref: Some("Javanese".into()),
            verdict,
            corrected_value: Some(String::new()),
            corrected_unit: Some(" ".into()),
            moved_to: Some(String::new()),
            comment: Some("  ".into()),
            key: "k1".into(),
        }
    }

    #[test]
    fn forms_become_feedback_with_a_stable_token() {
        let new = new_feedback(&form(Verdict::Relevant)).unwrap();
        assert_eq!(new.part, FeedbackPart::Instance);
        assert_eq!(new.verdict, Verdict::Relevant);
        assert_eq!(new.corrected_value, None);
        assert_eq!(new.comment, None);
        assert_eq!(new.validate(), Ok(()));
        // Same form, same token; another verdict or answer key, another token.
        assert_eq!(
            new.client_token,
            new_feedback(&form(Verdict::Relevant)).unwrap().client_token
        );
        assert_ne!(
            new.client_token,
            new_feedback(&form(Verdict::NotRelevant))
                .unwrap()
                .client_token
        );
        let mut other = form(Verdict::Relevant);
        other.key = "k2".into();
        assert_ne!(new.client_token, new_feedback(&other).unwrap().client_token);
    }

    #[test]
    fn bad_form_values_are_explained() {
        // A form's part and verdict are read by name where the form arrives.
        let sent = serde_json::json!({
            "answer_id": 7, "part": "instance", "part_ref": "Javanese", "verdict": "maybe",
            "corrected_value": null, "moved_to": null, "comment": null, "key": "k1"
        });
        let e = serde_json::from_value::<FeedbackForm>(sent).unwrap_err();
        assert!(e.to_string().contains("unknown variant `maybe`"), "{e}");
        let mut f = form(Verdict::Moved);
        f.moved_to = Some("elsewhere".into());
        assert_eq!(
            new_feedback(&f).unwrap_err().to_string(),
            "unknown group `elsewhere` (synonyms, subgroups, incomparables)"
        );
        let mut f = form(Verdict::Wrong);
        f.part = FeedbackPart::Answer;
        f.corrected_value = Some("seven".into());
        assert!(new_feedback(&f)
            .unwrap_err()
            .to_string()
            .contains("must be a number"));
    }
}
