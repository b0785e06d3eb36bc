//! Recent questions, from the database.

use leptos::prelude::*;

use crate::backend::recent_questions;
use crate::views::feedback::error_text;

#[component]
pub fn HistoryPage() -> impl IntoView {
    let items = Resource::new(|| (), |_| recent_questions(100));
    view! {
        <section class="history">
            <h1>"Recent questions"</h1>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match items.await {
                        Ok(items) if items.is_empty() => view! { <p class="muted">"No questions yet."</p> }.into_any(),
                        Ok(items) => view! {
                            <table class="history-table">
                                <thead><tr><th>"Asked"</th><th>"Question"</th><th>"Kind"</th><th>"Answer"</th><th>"Feedback"</th></tr></thead>
                                <tbody>
                                    {items
                                        .into_iter()
                                        .map(|item| view! {
                                            <tr>
                                                <td class="small">{item.asked_at}</td>
                                                <td><a href=item.url>{item.text}</a></td>
                                                <td>{item.kind}</td>
                                                <td>{item.summary}</td>
                                                <td>{item.feedback}</td>
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
