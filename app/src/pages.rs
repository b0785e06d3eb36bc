//! Pages of the app.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::backend::get_status;
use crate::status::SystemStatus;
use crate::views::ask::AskPage;
use tally_types::WebSearchState;

/// Home: the question box and its answer; before a question, a link to what the server has
/// loaded (a host's concern, not a visitor's: it has a page of its own).
#[component]
pub fn HomePage() -> impl IntoView {
    let query = use_query_map();
    let asked = move || !query.read().get("q").unwrap_or_default().trim().is_empty();
    let title = move || match query.read().get("q").filter(|q| !q.trim().is_empty()) {
        Some(q) => crate::title::page_title(q.trim()),
        None => crate::title::HOME_TITLE.to_string(),
    };
    view! {
        <crate::title::PageTitle text=title/>
        <AskPage/>
        <Show when=move || !asked()>
            <p class="muted small status-link">
                <a href="/status" id="status-link">"System status"</a>
                ": the models, data and database this server has loaded."
            </p>
        </Show>
    }
}

/// `/status`: what the server has really loaded, re-checked on demand.
#[component]
pub fn StatusPage() -> impl IntoView {
    view! {
        <crate::title::PageTitle text=crate::title::page_title("System status")/>
        <StatusPanel/>
    }
}

/// What the server has really loaded, re-checked on demand.
#[component]
fn StatusPanel() -> impl IntoView {
    let rechecks = RwSignal::new(0u32);
    let status = Resource::new(move || rechecks.get(), |_| get_status());
    // Effects run only in the browser: this marks the panel once the WASM app has taken over.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    view! {
        <section
            class="status-panel"
            aria-labelledby="status-title"
            data-hydrated=move || if hydrated.get() { "true" } else { "false" }
        >
            <div class="status-head">
                <h1 id="status-title">"System status"</h1>
                <button
                    id="recheck"
                    type="button"
                    on:click=move |_| rechecks.update(|n| *n += 1)
                >
                    "Check again"
                </button>
            </div>
            <Transition fallback=|| view! { <p>"Checking…"</p> }>
                {move || Suspend::new(async move {
                    match status.await {
                        Ok(status) => view! { <StatusView status/> }.into_any(),
                        Err(e) => {
                            view! { <p class="error">{format!("Cannot read the status: {e}")}</p> }
                                .into_any()
                        }
                    }
                })}
            </Transition>
            <p id="recheck-count" class="muted">
                {move || match rechecks.get() {
                    0 => "Checked when the page loaded.".to_string(),
                    1 => "Re-checked 1 time.".to_string(),
                    n => format!("Re-checked {n} times."),
                }}
            </p>
        </section>
    }
    .into_any()
}

#[component]
fn StatusView(status: SystemStatus) -> impl IntoView {
    let encoder = status.encoder;
    let encoder_text = if encoder.loaded {
        format!(
            "{} · {} dimensions · {}",
            encoder.model.unwrap_or_default(),
            encoder.dimension.unwrap_or_default(),
            encoder.device.unwrap_or_default()
        )
    } else {
        format!(
            "not loaded: {}",
            encoder.error.unwrap_or_else(|| "unknown error".into())
        )
    };
    let database_text = if status.database.connected {
        "connected: answers and feedback are saved".to_string()
    } else {
        format!(
            "not connected: feedback cannot be saved ({})",
            status.database.error.unwrap_or_default()
        )
    };
    let corpora = status.corpora;
    let data_dir = status.data_dir;
    let web_search = status.web_search.map(|web| {
        let text = match (web.state, &web.last_error) {
            (WebSearchState::Failing, Some(e)) => format!(
                "{} at {}: failing, {e} (last search {}); count questions fall back to the local corpus",
                web.provider,
                web.endpoint,
                web.last_at.clone().unwrap_or_default()
            ),
            (WebSearchState::Ok, _) => format!(
                "{} at {}: working ({} searches, {} failed)",
                web.provider, web.endpoint, web.searches, web.failures
            ),
            _ => format!("{} at {}: not used yet", web.provider, web.endpoint),
        };
        let class = if web.state == WebSearchState::Failing {
            "bad"
        } else {
            "ok"
        };
        view! {
            <dt>"Web search"</dt>
            <dd id="status-web-search" class=class data-state=web.state.name()>{text}</dd>
        }
    });
    view! {
        <dl class="status-list" data-status=status.status.name()>
            <dt>"Encoder"</dt>
            <dd id="status-encoder" class=if encoder.loaded { "ok" } else { "bad" }>{encoder_text}</dd>
            <dt>"Database"</dt>
            <dd id="status-database" class=if status.database.connected { "ok" } else { "bad" }>
                {database_text}
            </dd>
            <dt>"Answering"</dt>
            <dd id="status-answering" class=if status.answering.ready { "ok" } else { "bad" }>
                {match (status.answering.ready, status.answering.error) {
                    (true, _) => "ready".to_string(),
                    (false, Some(e)) => format!("unavailable: {e}"),
                    (false, None) => "loading the corpus and models…".to_string(),
                }}
            </dd>
            {web_search}
            <dt>"Corpora"</dt>
            <dd id="status-corpora">
                {if corpora.is_empty() {
                    match data_dir {
                        Some(dir) => format!("none found in {dir}"),
                        None => "no data directory set (TALLY_DATA)".to_string(),
                    }
                    .into_any()
                } else {
                    view! {
                        <ul>
                            {corpora
                                .into_iter()
                                .map(|c| {
                                    view! {
                                        <li>
                                            <strong>{c.name}</strong>
                                            " — "
                                            {c.description}
                                            <span class="muted">{format!(" ({})", human_bytes(c.bytes))}</span>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                        .into_any()
                }}
            </dd>
            <dt>"Version"</dt>
            <dd>{status.version}</dd>
            <dt>"Checked at"</dt>
            <dd id="status-checked-at">{status.checked_at}</dd>
        </dl>
    }
}

/// The page for an unknown address, answered with status 404.
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(http::StatusCode::NOT_FOUND);
        }
    }
    view! {
        <crate::title::PageTitle text=crate::title::page_title("Page not found")/>
        <section class="not-found">
            <h1>"Page not found"</h1>
            <p><a href="/">"Back to the question box"</a></p>
        </section>
    }
}

/// "1.2 MB"-style sizes for people.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KB", "MB", "GB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::human_bytes;

    #[test]
    fn human_bytes_uses_decimal_units() {
        assert_eq!(human_bytes(999), "999 B");
        assert_eq!(human_bytes(1_500), "1.5 KB");
        assert_eq!(human_bytes(83_506_384), "83.5 MB");
    }
}
