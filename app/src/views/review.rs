//! The review page (admin token): `/admin/review` lists the feedback not yet reviewed, by
//! question, with how many visitors say the same, their comments, Tally's count and, for a
//! corrected count, how many snippets of the answer state it; accept or reject each. Below, the
//! verified answers (an accepted count answers its question first, on every server) with a
//! button to withdraw each. The forms post to the server, which redirects back here.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::backend::{admin_form_token, admin_review};
use crate::format::count_or_value;
use crate::format::number;
use crate::views::feedback::error_text;
use crate::views::login::{FormTokenField, LoginForm, LoginNeeded};
use tally_types::{Decision, Opinion, QueuedQuestion, Review, Verdict, VerifiedRecord};

/// The admin page for reviewing feedback and verified answers.
#[component]
pub fn ReviewPage() -> impl IntoView {
    let query = use_query_map();
    let token = move || query.read().get("token").unwrap_or_default();
    let error = move || query.read().get("error").filter(|e| !e.is_empty());
    let done = move || query.read().get("done").filter(|e| !e.is_empty());
    let page = move || {
        query
            .read()
            .get("page")
            .and_then(|p| p.parse::<u32>().ok())
            .unwrap_or(0)
    };
    let review = Resource::new(
        move || (token(), page()),
        |(token, page)| admin_review(token, page),
    );
    let form_token = Resource::new(|| (), |_| admin_form_token());
    view! {
        <crate::title::PageTitle text=crate::title::page_title("Review")/>
        <section class="admin review">
            <h1>"Review feedback"</h1>
            <LoginForm next="/admin/review".to_string()/>
            {move || error().map(|e| view! { <p class="error" role="alert" id="review-error">{e}</p> })}
            {move || done().map(|d| view! { <p class="notice" role="status" id="review-done">{d}</p> })}
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    let form_token = form_token.await.ok().flatten().unwrap_or_default();
                    match review.await {
                        Ok(Some(review)) => view! { <ReviewTables review token=token() form_token/> }.into_any(),
                        Ok(None) => view! { <LoginNeeded what="review feedback"/> }.into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn ReviewTables(review: Review, token: String, form_token: String) -> impl IntoView {
    let Review {
        queue,
        verified,
        page,
        more,
    } = review;
    let empty = queue.is_empty();
    // Pages of the queue keep the token of a page opened with one in its URL.
    let page_link = |to: u32| {
        let token = if token.is_empty() {
            String::new()
        } else {
            format!("token={}&", tally_types::request::encode(&token))
        };
        format!("/admin/review?{token}page={to}")
    };
    let earlier = (page > 0).then(|| page_link(page - 1));
    let later = more.then(|| page_link(page + 1));
    let current: Vec<VerifiedRecord> = verified
        .into_iter()
        .filter(|v| v.withdrawn_at.is_none())
        .collect();
    let no_verified = current.is_empty();
    view! {
        <h2>"Waiting for review"</h2>
        {empty.then(|| view! { <p class="muted" id="queue-empty">"Nothing to review."</p> })}
        <div id="review-queue">
            {queue.into_iter().map(|q| view! { <QueuedView queued=q token=token.clone() form_token=form_token.clone()/> }).collect_view()}
        </div>
        {(earlier.is_some() || later.is_some()).then(|| view! {
            <nav class="pages" aria-label="Pages of the queue" id="review-pages">
                {earlier.map(|href| view! { <a href=href rel="prev">"Earlier page"</a> " " })}
                {format!("Page {}", page + 1)}
                {later.map(|href| view! { " " <a href=href rel="next" id="review-next">"Next page"</a> })}
            </nav>
        })}
        <h2>"Verified answers"</h2>
        {no_verified.then(|| view! { <p class="muted">"No verified answers."</p> })}
        <ul class="verified-list" id="verified-list">
            {current.into_iter().map(|v| view! { <VerifiedItem record=v token=token.clone() form_token=form_token.clone()/> }).collect_view()}
        </ul>
    }
}

#[component]
fn QueuedView(queued: QueuedQuestion, token: String, form_token: String) -> impl IntoView {
    let QueuedQuestion {
        question,
        opinions,
        verified,
    } = queued;
    let href = format!("/?q={}", tally_types::request::encode(&question));
    view! {
        <article class="queued" data-question=question.clone()>
            <h3><a href=href>{question.clone()}</a></h3>
            {verified.map(|v| view! { <p class="muted small">{format!("Verified answer now: {}", count_or_value(v.count, v.unit.as_ref()))}</p> })}
            <table class="review-table" tabindex="0">
                <thead>
                    <tr><th>"What"</th><th>"Said"</th><th>"Visitors"</th><th>"Evidence"</th><th>"Comments"</th><th></th></tr>
                </thead>
                <tbody>
                    {opinions.into_iter().map(|o| view! { <OpinionRow opinion=o token=token.clone() form_token=form_token.clone()/> }).collect_view()}
                </tbody>
            </table>
        </article>
    }
}

/// What an opinion says, in words.
fn said(opinion: &Opinion) -> String {
    let verdict = match (opinion.verdict, opinion.corrected_value, opinion.moved_to) {
        (Verdict::Wrong, Some(value), _) => match &opinion.corrected_unit {
            Some(unit) => format!("wrong; the value is {}", count_or_value(value, Some(unit))),
            None => format!("wrong; the count is {}", number(value)),
        },
        (Verdict::Moved, _, Some(group)) => format!("belongs with the {}", group.name()),
        (verdict, _, _) => verdict.name().replace('_', " "),
    };
    match &opinion.part_ref {
        Some(which) => format!("{verdict} ({which})"),
        None => verdict,
    }
}

#[component]
fn OpinionRow(opinion: Opinion, token: String, form_token: String) -> impl IntoView {
    let id = opinion.feedback_ids.first().copied().unwrap_or_default();
    let what = match opinion.tally_count {
        Some(count) => format!(
            "{}: Tally said {}",
            opinion.part.name(),
            count_or_value(count, opinion.tally_unit.as_ref())
        ),
        None if opinion.part == tally_types::FeedbackPart::Answer => {
            "answer: Tally gave none".to_string()
        }
        None => opinion.part.name().to_string(),
    };
    let evidence = opinion.stated_in_snippets.map(|n| match n {
        0 => "nothing in the answer's evidence states it".to_string(),
        1 => "1 passage of the answer's evidence states it".to_string(),
        n => format!("{n} passages of the answer's evidence state it"),
    });
    let action = format!("/admin/review/{id}");
    // Accepting a count may carry the operator's note, shown with the verified answer to
    // everyone; a visitor's comment never is.
    let decide = move |decision: Decision, label: &'static str, class: &'static str| {
        let with_note = decision == Decision::Accepted;
        view! {
            <form method="post" action=action.clone() class="inline">
                <input type="hidden" name="decision" value=decision.name()/>
                <input type="hidden" name="token" value=token.clone()/>
                <FormTokenField form_token=form_token.clone()/>
                {with_note.then(|| view! {
                    <label class="small">"Note shown with the answer " <input type="text" name="note" maxlength="1000"/></label>
                })}
                <button type="submit" class=class>{label}</button>
            </form>
        }
    };
    let more_comments = opinion.comment_count - opinion.comments.len() as i64;
    let more_rows = opinion.rows - opinion.feedback_ids.len() as i64;
    view! {
        <tr data-feedback=id.to_string()>
            <td>{what}</td>
            <td>{said(&opinion)}</td>
            <td>
                {opinion.visitors}
                {(more_rows > 0).then(|| view! { <span class="muted small">{format!(" ({} rows)", number(opinion.rows as f64))}</span> })}
            </td>
            <td>{evidence}</td>
            <td>
                {opinion.comments.into_iter().map(|c| view! { <p class="small">{c}</p> }).collect_view()}
                {(more_comments > 0).then(|| view! { <p class="muted small">{format!("and {} more", number(more_comments as f64))}</p> })}
            </td>
            <td>
                {decide(Decision::Accepted, "Accept", "")}
                {decide(Decision::Rejected, "Reject", "secondary")}
            </td>
        </tr>
    }
}

#[component]
fn VerifiedItem(record: VerifiedRecord, token: String, form_token: String) -> impl IntoView {
    let action = format!("/admin/verified/{}/withdraw", record.answer.id);
    let date = record
        .answer
        .accepted_at
        .get(..10)
        .unwrap_or_default()
        .to_string();
    view! {
        <li data-verified=record.answer.id.to_string()>
            {format!(
                "{} — {} over {} (accepted by {} on {date})",
                record.question,
                count_or_value(record.answer.count, record.answer.unit.as_ref()),
                corpus_words(&record.answer.corpus),
                record.accepted_by
            )}
            <form method="post" action=action class="inline">
                <input type="hidden" name="token" value=token/>
                <FormTokenField form_token/>
                <button type="submit" class="secondary">"Withdraw"</button>
            </form>
        </li>
    }
}

/// The corpus a verified answer holds over, in words.
fn corpus_words(corpus: &str) -> String {
    if corpus == tally_types::count::ALL_CORPORA {
        "every corpus".to_string()
    } else {
        format!("the corpus {corpus}")
    }
}
