//! Quantity search results: the query as understood, sort links, ranked sentences with the
//! matched quantity highlighted and converted, text and quantity score bars; entities with their
//! evidence in entity mode.

use leptos::prelude::*;
use tally_types::{FeedbackPart, QuestionKind, Verdict};

use crate::format::{duration_ms, number, Mark};
use tally_types::search::{ConstraintView, Hit, SearchResults};
use tally_types::Ranker;

use crate::model::{Ask, SORTS};
use crate::views::feedback::{FeedbackForm, FeedbackTarget};
use crate::views::marked_text;

/// Search results with their marked snippets and sort links.
#[component]
pub fn SearchAnswerView(
    /// The search results.
    view: SearchResults,
    /// The question as asked.
    ask: Ask,
    /// Quantity or plain search: the sort links carry that kind's settings.
    kind: QuestionKind,
    /// Where feedback goes; `None`: no feedback forms.
    target: Option<FeedbackTarget>,
) -> impl IntoView {
    let SearchResults {
        query: _,
        understood,
        ranker,
        sort,
        alpha,
        notes,
        hits,
        entities,
        timings,
        k: _,
    } = view;
    let constraints = understood.constraints.clone();
    let understood_view = view! {
        <div class="understood" id="understood">
            <h2 class="visually-hidden">"Query as understood"</h2>
            <p>
                <span class="muted">"Understood as: "</span>
                {understood.terms.iter().map(|t| view! { <span class="term">{t.clone()}</span> }).collect_view()}
                {understood
                    .constraints
                    .iter()
                    .map(|c| view! { <span class="constraint" title=c.compared_as.clone()>{c.text.clone()}</span> })
                    .collect_view()}
            </p>
            {(!understood.constraints.is_empty()).then(|| view! {
                <p class="muted small">
                    {understood.constraints.iter().map(|c| format!("“{}” compared as {}", c.source, c.compared_as)).collect::<Vec<_>>().join("; ")}
                    ". Edit the question above to change it."
                </p>
            })}
            {notes.into_iter().map(|n| view! { <p class="notice" role="status">{n}</p> }).collect_view()}
        </div>
    };
    let sort_links = SORTS
        .iter()
        .map(|(value, label)| {
            let current = *value == sort;
            view! {
                <a
                    href=ask.with_sort(*value).share_url(kind)
                    class=if current { "sort current" } else { "sort" }
                    aria-current=if current { Some("true") } else { None }
                    data-sort=value.name()
                >
                    {*label}
                </a>
            }
        })
        .collect_view();
    let results = if ranker == Ranker::Entity && !entities.is_empty() {
        view! {
            <ol class="entities" id="results">
                {entities
                    .into_iter()
                    .map(|e| {
                        view! {
                            <li class="entity-hit">
                                <p class="entity-name">{e.entity.clone()}</p>
                                <Scores text=e.context_score text_label="context match" quantity=e.quantity_score/>
                                <HitBody hit=e.evidence.clone() constraints=constraints.clone() target=target.clone()/>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        }
        .into_any()
    } else if hits.is_empty() {
        view! { <p class="muted" id="results">"No sentence matches."</p> }.into_any()
    } else {
        view! {
            <ol class="hits" id="results">
                {hits
                    .into_iter()
                    .map(|hit| {
                        view! {
                            <li class="hit">
                                <Scores text=hit.text_score_normalised text_label="text" quantity=hit.quantity_score/>
                                <HitBody hit constraints=constraints.clone() target=target.clone()/>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        }
        .into_any()
    };
    view! {
        <section class="search-answer">
            {understood_view}
            <nav class="sorts" aria-label="Sort results">
                <span class="muted">"Sort: "</span>
                {sort_links}
                <span class="muted small">{format!(" · ranker {}, α = {alpha}", ranker.name())}</span>
            </nav>
            {results}
            <p class="muted small">
                {format!(
                    "Parsed in {}, retrieved in {}, re-ranked in {}; {} in all.",
                    duration_ms(timings.parse_ms),
                    duration_ms(timings.retrieve_ms),
                    duration_ms(timings.rerank_ms),
                    duration_ms(timings.total_ms)
                )}
            </p>
        </section>
    }
    .into_any()
}

#[component]
fn Scores(text: f64, text_label: &'static str, quantity: f64) -> impl IntoView {
    view! {
        <div class="scores">
            <label>
                {text_label}
                <meter min="0" max="1" value=format!("{:.3}", text.clamp(0.0, 1.0))></meter>
                <span class="small">{format!("{text:.2}")}</span>
            </label>
            <label>
                "quantity"
                <meter min="0" max="1" value=format!("{:.3}", quantity.clamp(0.0, 1.0))></meter>
                <span class="small">{format!("{quantity:.2}")}</span>
            </label>
        </div>
    }
}

#[component]
fn HitBody(
    hit: Hit,
    constraints: Vec<ConstraintView>,
    target: Option<FeedbackTarget>,
) -> impl IntoView {
    let marks = hit
        .matches
        .iter()
        .map(|m| Mark {
            start: m.start,
            end: m.end,
            class: "quantity".into(),
            label: constraints
                .get(m.constraint)
                .map(|c| format!("meets {}", c.text))
                .unwrap_or_default(),
        })
        .collect();
    let pieces = marked_text(&hit.text, marks);
    let converted = hit
        .matches
        .iter()
        .map(|m| {
            let unit = m.query_unit.clone().unwrap_or_default();
            format!("{} = {} {unit}", m.surface, number(m.converted))
        })
        .collect::<Vec<_>>();
    let meets = hit
        .meets
        .iter()
        .enumerate()
        .map(|(i, ok)| {
            let text = constraints
                .get(i)
                .map(|c| c.text.clone())
                .unwrap_or_default();
            view! {
                <span class=if *ok { "meets yes" } else { "meets no" }>
                    {if *ok { "✓ " } else { "✗ " }}{text}
                </span>
            }
        })
        .collect_view();
    let feedback = target.map(|target| {
        view! {
            <FeedbackForm
                target
                part=FeedbackPart::SearchResult
                part_ref=hit.id.clone()
                verdicts=&[(Verdict::Relevant, "Relevant"), (Verdict::NotRelevant, "Not relevant")]
                about=format!("result {}", hit.rank)
            />
        }
    });
    view! {
        <p class="hit-text">{pieces}</p>
        <p class="hit-meta small">
            {meets}
            {(!converted.is_empty()).then(|| view! { <span class="converted">{converted.join("; ")}</span> })}
            <span class="muted">{format!(" {} · {}", hit.source, hit.entity.clone().unwrap_or_default())}</span>
            {(!hit.also_in.is_empty()).then(|| view! {
                <span class="muted also-in">{format!(" · also in {}", hit.also_in.join(", "))}</span>
            })}
        </p>
        {feedback}
    }
}
