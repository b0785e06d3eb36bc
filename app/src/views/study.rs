//! The user-study pages: the invitation (`/study`), a participant's tasks one at a time
//! (`/study/s/{session}`), and the researcher's summary tables (`/study/summary?token=…`).
//! Every step is a plain form, so a study runs without JavaScript too.

use leptos::form::ActionForm;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::backend::{
    get_study_intro, get_study_page, get_study_summary, AnswerStudyTask, StartStudy,
};
use crate::format::{counted, number, percent};
use tally_types::count::{Cnp, CountAnswer};

use crate::model::encode;
use crate::views::count::snippet_marks;
use crate::views::count_plot::Legend;
use crate::views::feedback::error_text;
use crate::views::marked_text;
use tally_types::study::{ExplanationMode, StudyPage, StudyStep, StudySummary, TaskView};

/// Instances and snippets shown in a presentation: enough to judge, few enough to read.
const SHOWN_INSTANCES: usize = 10;
const SHOWN_SNIPPETS: usize = 5;

/// The study's introduction page.
#[component]
pub fn StudyHomePage() -> impl IntoView {
    let intro = Resource::new(|| (), |_| get_study_intro());
    let start = ServerAction::<StartStudy>::new();
    view! {
        <crate::title::PageTitle text=crate::title::page_title("User study")/>
        <section class="study">
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match intro.await {
                        Ok(intro) => view! {
                            <h1>{intro.title}</h1>
                            <p class="study-intro">{intro.intro}</p>
                            <p class="muted">
                                {format!("{} short tasks. You stay anonymous: the session gets a random id, and nothing about you is stored.", intro.tasks)}
                            </p>
                            <ActionForm action=start attr:class="study-start">
                                <button type="submit" id="start-study">"Start the study"</button>
                            </ActionForm>
                            {move || start.value().get().and_then(Result::err).map(|e| {
                                view! { <p class="error" role="alert">{error_text(&e)}</p> }
                            })}
                        }
                        .into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// A study session's page: its progress and next task.
#[component]
pub fn StudySessionPage() -> impl IntoView {
    let params = use_params_map();
    let session = move || params.read().get("session").unwrap_or_default();
    let respond = ServerAction::<AnswerStudyTask>::new();
    // Re-read after every response: the page moves on to the next task in place.
    let page = Resource::new(
        move || (session(), respond.version().get()),
        |(session, _)| get_study_page(session),
    );
    view! {
        <crate::title::PageTitle text=crate::title::page_title("Study task")/>
        <section class="study">
            <Transition fallback=|| view! { <p>"Loading the task…"</p> }>
                {move || Suspend::new(async move {
                    match page.await {
                        Ok(page) => view! { <SessionView page respond/> }.into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn SessionView(page: StudyPage, respond: ServerAction<AnswerStudyTask>) -> impl IntoView {
    let StudyPage {
        session,
        title,
        answered,
        total,
        step,
    } = page;
    let progress = view! {
        <p class="study-progress">
            <label>
                {format!("Task {} of {total} ", (answered + 1).min(total))}
                <progress id="study-progress" max=total.to_string() value=answered.to_string()></progress>
            </label>
        </p>
    };
    // After a choice the next task replaces this one in place: focus moves to its question,
    // instead of dropping to the page's body (the first task keeps the page's own order).
    let heading = NodeRef::<leptos::html::H2>::new();
    if answered > 0 {
        Effect::new(move |_| {
            if let Some(h) = heading.get() {
                let _ = h.focus();
            }
        });
    }
    let body = match step {
        StudyStep::Done { completion_code } => view! {
            <div class="study-done" role="status">
                <h2>"Thank you: every task is done."</h2>
                <p>"Your completion code:"</p>
                <p class="completion-code" id="completion-code">{completion_code.clone()}</p>
                <CopyButton text=completion_code/>
                <p class="muted" id="completion-where">
                    "Copy it (one click on the code selects it) and paste it where the study that sent you here asks for it, for example the survey or recruiting page. It shows that you finished; it says nothing about you."
                </p>
            </div>
        }
        .into_any(),
        StudyStep::Task {
            index,
            question,
            task,
            shown_at_ms,
        } => {
            let hidden = view! {
                <input type="hidden" name="form[session]" value=session.clone()/>
                <input type="hidden" name="form[index]" value=index.to_string()/>
                <input type="hidden" name="form[shown_at_ms]" value=shown_at_ms.to_string()/>
            };
            let pending = respond.pending();
            let error = move || {
                respond.value().get().and_then(Result::err).map(|e| {
                    view! { <p class="error" role="alert">{error_text(&e)}</p> }
                })
            };
            let choice = move |value: &'static str, label: &'static str| {
                view! {
                    <button type="submit" name="form[choice]" value=value id=format!("choice-{value}") disabled=move || pending.get()>
                        {label}
                    </button>
                }
            };
            match *task {
                // The choices come first, next to the question: the evidence below can run
                // long, and a participant should not scroll past it to answer.
                TaskView::Judgement { mode, answer } => view! {
                    <h2 class="study-question" tabindex="-1" node_ref=heading>{format!("“{question}”")}</h2>
                    <p class="muted">"Tally's answer is below. Is the count correct?"</p>
                    <ActionForm action=respond attr:class="study-choices" attr:aria-label="Is the count correct?">
                        {hidden}
                        {choice("correct", "The count is correct")}
                        {choice("wrong", "The count is wrong")}
                    </ActionForm>
                    {error}
                    <Presentation mode answer heading="Tally's answer".to_string()/>
                }
                .into_any(),
                TaskView::Preference { left, right, answer } => view! {
                    <h2 class="study-question" tabindex="-1" node_ref=heading>{format!("“{question}”")}</h2>
                    <p class="muted">"Two presentations of the same answer, below. Which helps you more to decide whether the count is right?"</p>
                    <ActionForm action=respond attr:class="study-choices" attr:aria-label="Which presentation helps more?">
                        {hidden}
                        {choice("left", "A helps more")}
                        {choice("same", "No difference")}
                        {choice("right", "B helps more")}
                    </ActionForm>
                    {error}
                    <div class="study-pair">
                        <Presentation mode=left answer=answer.clone() heading="A".to_string()/>
                        <Presentation mode=right answer heading="B".to_string()/>
                    </div>
                }
                .into_any(),
            }
        }
    };
    view! {
        <h1>{title}</h1>
        {progress}
        {body}
    }
}

/// A count answer shown with one explanation mode's evidence, without links or feedback (two
/// presentations may share a page).
#[component]
fn Presentation(mode: ExplanationMode, answer: CountAnswer, heading: String) -> impl IntoView {
    let count = match answer.count {
        Some(count) => number(count),
        None => "no count found".into(),
    };
    let cnps = mode.shows_cnps().then(|| {
        let rep = answer.cnp_rep.clone().map(|rep| {
            view! { <p class="count-rep">{format!("Answer phrase: “{}”", rep.text)}</p> }
        });
        let group = |title: &'static str, cnps: Vec<Cnp>| {
            view! {
                <div class="study-group">
                    <h4>{format!("{title} ({})", cnps.len())}</h4>
                    <ul>
                        {cnps
                            .into_iter()
                            .map(|c| view! { <li>{c.text}<span class="muted">{format!(" · {}", number(c.count))}</span></li> })
                            .collect_view()}
                    </ul>
                </div>
            }
        };
        let groups = answer.groups.clone();
        view! {
            <div class="study-part" data-part="cnps">
                {rep}
                {group("Synonyms: count the same thing", groups.synonyms)}
                {group("Subgroups: count a part of it", groups.subgroups)}
                {group("Incomparables: count something else", groups.incomparables)}
            </div>
        }
    });
    let instances = mode.shows_instances().then(|| {
        let shown: Vec<_> = answer
            .instances
            .iter()
            .take(SHOWN_INSTANCES)
            .cloned()
            .collect();
        view! {
            <div class="study-part" data-part="instances">
                <h4>"Instances found"</h4>
                {if shown.is_empty() {
                    view! { <p class="muted">"None found."</p> }.into_any()
                } else {
                    view! {
                        <ol>
                            {shown
                                .into_iter()
                                .map(|i| view! { <li>{i.name}<span class="muted">{format!(" · {:.2}", i.score)}</span></li> })
                                .collect_view()}
                        </ol>
                    }
                    .into_any()
                }}
            </div>
        }
    });
    let snippets = mode.shows_snippets().then(|| {
        // The snippets whose counts were used come first.
        let mut shown: Vec<_> = answer.snippets.clone();
        shown.sort_by_key(|s| !s.spans.iter().any(|span| span.used));
        shown.truncate(SHOWN_SNIPPETS);
        view! {
            <div class="study-part" data-part="snippets">
                <h4>"Snippets"</h4>
                <Legend/>
                {shown
                    .into_iter()
                    .map(|snippet| {
                        let pieces = marked_text(&snippet.text, snippet_marks(&snippet));
                        view! { <blockquote class="snippet"><p>{pieces}</p><footer class="muted small">{snippet.source}</footer></blockquote> }
                    })
                    .collect_view()}
            </div>
        }
    });
    view! {
        <article class="presentation" data-mode=mode.name()>
            <h3>{heading}</h3>
            <p class="count-value study-count">{count}</p>
            {cnps}
            {instances}
            {snippets}
        </article>
    }
}

/// The admin page of the study's results.
#[component]
pub fn StudySummaryPage() -> impl IntoView {
    let query = use_query_map();
    let token = move || query.read().get("token").unwrap_or_default();
    let summary = Resource::new(token, get_study_summary);
    view! {
        <crate::title::PageTitle text=crate::title::page_title("Study results")/>
        <section class="study">
            <h1>"Study results"</h1>
            <crate::views::login::LoginForm next="/study/summary".to_string()/>
            {move || query.read().get("error").filter(|e| !e.is_empty()).map(|e| view! { <p class="error" role="alert" id="login-error">{e}</p> })}
            <Suspense fallback=|| view! { <p>"Computing…"</p> }>
                {move || Suspend::new(async move {
                    match summary.await {
                        Ok(Some(summary)) => view! { <SummaryTables summary token=token()/> }.into_any(),
                        Ok(None) => view! { <crate::views::login::LoginNeeded what="see the study's results"/> }.into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn SummaryTables(summary: StudySummary, token: String) -> impl IntoView {
    let rate = |r: Option<f64>| r.map(percent).unwrap_or_else(|| "–".into());
    let seconds = |s: Option<f64>| s.map(|s| format!("{s:.1} s")).unwrap_or_else(|| "–".into());
    // With the login cookie the link needs no token.
    let export = |format: &str| match token.as_str() {
        "" => format!("/study/export?format={format}"),
        token => format!("/study/export?format={format}&token={}", encode(token)),
    };
    let modes = summary.modes.clone();
    view! {
        <h2>{summary.title}</h2>
        <p id="study-counts">
            {format!(
                "{} started, {} completed{}, {}.",
                counted(summary.sessions_started, "session"),
                summary.sessions_completed,
                // Sessions left for a day, said only when there are some.
                match summary.sessions_abandoned {
                    0 => String::new(),
                    n => format!(", {n} abandoned"),
                },
                counted(summary.responses, "response")
            )}
            " Export: " <a href=export("csv") id="export-csv" rel="external" download>"CSV"</a> " · " <a href=export("json") id="export-json" rel="external" download>"JSON"</a>
        </p>
        <h3>"Preference per explanation type"</h3>
        <table class="study-table" id="preference-table" tabindex="0">
            <thead><tr><th>"Explanation"</th><th>"Shown in pairs"</th><th>"Preferred"</th><th>"No difference"</th><th>"Preference rate"</th><th>"Median time"</th></tr></thead>
            <tbody>
                {summary.preference.into_iter().map(|row| view! {
                    <tr><th scope="row">{row.mode.label()}</th><td>{row.shown}</td><td>{row.preferred}</td><td>{row.ties}</td><td>{rate(row.preference_rate)}</td><td>{seconds(row.median_seconds)}</td></tr>
                }).collect_view()}
            </tbody>
        </table>
        <h3>"Head to head"</h3>
        <p class="muted small">"Times the row's explanation was preferred over the column's."</p>
        <table class="study-table" id="head-to-head" tabindex="0">
            <thead><tr><th></th>{modes.iter().map(|m| view! { <th scope="col">{m.label()}</th> }).collect_view()}</tr></thead>
            <tbody>
                {modes.iter().zip(summary.wins).map(|(m, wins)| view! {
                    <tr><th scope="row">{m.label()}</th>{wins.into_iter().map(|w| view! { <td>{w}</td> }).collect_view()}</tr>
                }).collect_view()}
            </tbody>
        </table>
        <h3>"Annotator precision per explanation mode"</h3>
        <p class="muted small">"Precision: judgements that agree with the gold count (a count within 10% of it is correct). Accepted: of the counts judged correct, the share that are."</p>
        <table class="study-table" id="judgement-table" tabindex="0">
            <thead><tr><th>"Explanation"</th><th>"Judged"</th><th>"Agreeing"</th><th>"Precision"</th><th>"Accepted correct"</th><th>"Median time"</th></tr></thead>
            <tbody>
                {summary.judgement.into_iter().map(|row| view! {
                    <tr><th scope="row">{row.mode.label()}</th><td>{row.judged}</td><td>{row.agreeing}</td><td>{rate(row.precision)}</td><td>{rate(row.precision_of_accepted)}</td><td>{seconds(row.median_seconds)}</td></tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// Copies `text` to the clipboard (in the browser; without JavaScript the code stays selectable
/// with one click) and says so.
#[component]
fn CopyButton(text: String) -> impl IntoView {
    let copied = RwSignal::new(false);
    let copy = move |_| {
        #[cfg(feature = "hydrate")]
        {
            let _ = window().navigator().clipboard().write_text(&text);
            copied.set(true);
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = &text;
    };
    view! {
        <button type="button" id="copy-completion-code" on:click=copy>
            {move || if copied.get() { "Copied" } else { "Copy the code" }}
        </button>
    }
}
