//! The visitor's recent questions, from the database; everyone's for the holder of the admin
//! token (`/history?token=…`).

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::backend::recent_questions;
use crate::views::feedback::error_text;

/// The page of recent questions.
#[component]
pub fn HistoryPage() -> impl IntoView {
    let query = use_query_map();
    let token = move || query.read().get("token").filter(|t| !t.is_empty());
    let items = Resource::new(token, |token| recent_questions(100, token));
    let scope = move || {
        if token().is_some() {
            "Every visitor's questions (admin view)."
        } else {
            "The questions you asked in this browser, newest first. Others cannot see them."
        }
    };
    view! {
        <crate::title::PageTitle text=crate::title::page_title("Recent questions")/>
        <section class="history">
            <h1>"Recent questions"</h1>
            <p class="muted history-scope">{scope}</p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match items.await {
                        Ok(items) if items.is_empty() => view! { <p class="muted">"No questions yet."</p> }.into_any(),
                        Ok(items) => view! {
                            <table class="history-table" tabindex="0">
                                <thead>
                                    <tr>
                                        <th class="col-asked">"Asked"</th>
                                        <th>"Question"</th>
                                        <th class="col-kind">"Kind"</th>
                                        <th class="col-corpus">"Asked over"</th>
                                        <th>"Answer"</th>
                                        <th class="col-feedback">"Feedback"</th>
                                    </tr>
                                </thead>
                                <tbody>
                                    {items
                                        .into_iter()
                                        .map(|item| view! {
                                            <tr>
                                                <td class="col-asked small" data-label="Asked">{item.asked_at}</td>
                                                <td data-label="Question"><a href=item.url>{item.text}</a></td>
                                                <td class="col-kind" data-label="Kind">{item.kind}</td>
                                                <td class="col-corpus" data-label="Asked over">{item.corpus.unwrap_or_else(|| "all corpora".to_string())}</td>
                                                <td data-label="Answer">{item.summary}</td>
                                                <td class="col-feedback" data-label="Feedback">{item.feedback}</td>
                                            </tr>
                                        })
                                        .collect_view()}
                                </tbody>
                            </table>
                        }
                        .into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}
