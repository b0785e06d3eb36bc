//! The JSON API for a person reading it: every operation with its method, path, what it does and
//! its parameters, as the generated description gives them (issue 101: the header's "API" link
//! opened the raw JSON). The description itself stays one link away, for programs.

use leptos::prelude::*;

use crate::backend::api_operations;
use crate::model::ApiOperation;
use crate::views::feedback::error_text;

/// `/api-docs`: the API's operations.
#[component]
pub fn ApiPage() -> impl IntoView {
    let operations = Resource::new(|| (), |_| api_operations());
    view! {
        <crate::title::PageTitle text=crate::title::page_title("The JSON API")/>
        <section class="api-docs">
            <h1>"The JSON API"</h1>
            <p class="lead">
                "Everything the pages do, a program can ask for as JSON: the same answers, through the same limits. "
                "The machine-readable description (OpenAPI 3.1) is at "
                <a href="/api/openapi.json" rel="external" id="openapi-link">"/api/openapi.json"</a> "."
            </p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match operations.await {
                        Ok(list) => view! {
                            <ul class="api-operations" id="api-operations">
                                {list.into_iter().map(|o| view! { <Operation operation=o/> }).collect_view()}
                            </ul>
                        }
                        .into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// One operation: its method and path, what it does, and its parameters folded away.
#[component]
fn Operation(operation: ApiOperation) -> impl IntoView {
    let ApiOperation {
        method,
        path,
        summary,
        description,
        parameters,
    } = operation;
    let (shown_method, shown_path) = (method.clone(), path.clone());
    view! {
        <li class="api-operation" data-method=method data-path=path>
            <h2>
                <span class="api-method">{shown_method}</span> " " <code class="api-path">{shown_path}</code>
            </h2>
            <p class="api-summary">{summary}</p>
            <details>
                <summary>"Details"</summary>
                <p class="small">{description}</p>
                {(!parameters.is_empty()).then(|| view! {
                    <dl class="api-parameters small">
                        {parameters
                            .into_iter()
                            .map(|p| {
                                let how = format!("{}{}", p.place, if p.required { ", required" } else { "" });
                                view! {
                                    <dt><code>{p.name}</code> " " <span class="muted">{format!("({how})")}</span></dt>
                                    <dd>{p.description}</dd>
                                }
                            })
                            .collect_view()}
                    </dl>
                })}
            </details>
        </li>
    }
}
