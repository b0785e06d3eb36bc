//! The question box with its mode switch and settings, example questions, and the answer.

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

#[cfg(not(feature = "hydrate"))]
use crate::backend::answer_question;
use crate::backend::question_box_options;
use crate::format::duration_ms;
use tally_types::count::{Stage, StageTiming};
use tally_types::{Answer, AnswerBody, Choice, Mode, SnippetSource, SortOrder, StoredAnswer};

use crate::model::{
    Answered, Ask, Settings, ALL_CORPORA, GONE_CORPUS, MAX_QUESTION_CHARS, MODES, RANKERS, SORTS,
};
use crate::views::count::CountAnswerView;
use crate::views::feedback::{error_text, FeedbackTarget};
use crate::views::search::SearchAnswerView;
use crate::views::value::ValueAnswerView;
use crate::views::verified::{VerifiedElsewhere, VerifiedView};
use tally_types::count::{Control, CountSettings, COUNT_SETTINGS};

/// The question as the URL gives it, and what is wrong with the URL's settings.
fn current_ask() -> Memo<(Ask, Vec<String>)> {
    let query = use_query_map();
    Memo::new(move |_| {
        let map = query.read();
        Ask::from_params(|name| map.get(name))
    })
}

/// The home page: the question box and the answer to the question asked.
#[component]
pub fn AskPage() -> impl IntoView {
    let ask = current_ask();
    // Stages of the answer being computed, as they finish (filled in the browser only).
    let stages = RwSignal::new(Vec::<StageTiming>::new());
    let answer = Resource::new(
        move || ask.get(),
        move |(ask, problems)| async move {
            if ask.q.trim().is_empty() {
                return Ok(None);
            }
            if !problems.is_empty() {
                return Err(ServerFnError::new(problems.join("; ")));
            }
            #[cfg(feature = "hydrate")]
            return crate::progress::answer_with_progress(ask, stages)
                .await
                .map(Some);
            #[cfg(not(feature = "hydrate"))]
            answer_question(ask).await.map(Some)
        },
    );
    let working = move || {
        view! {
            <div class="working" role="status" aria-live="polite">
                <p>"Answering…"</p>
                <ol class="answer-progress">
                    {move || {
                        stages
                            .get()
                            .into_iter()
                            .map(|t| view! { <li>"✓ " {t.stage.name()} " " <span class="muted">{duration_ms(t.ms)}</span></li> })
                            .collect_view()
                    }}
                    // The stage under way, once the answer streams its stages (a count question).
                    {move || {
                        stages.with(|done| {
                            let finished: Vec<Stage> = done.iter().map(|t| t.stage).collect();
                            (!done.is_empty())
                                .then(|| Stage::under_way(&finished))
                                .flatten()
                                .map(|next| view! { <li class="under-way">{format!("… {}", next.doing())}</li> })
                        })
                    }}
                </ol>
            </div>
        }
    };
    let asked = move || !ask.read().0.q.trim().is_empty();
    view! {
        <section class="ask">
            <Show when=move || !asked()>
                <h1>"Tally"</h1>
                <p class="lead">
                    "Ask how many of something there are, how large something is, or for things whose quantities meet a condition."
                </p>
                <p class="own-documents" id="own-documents">
                    "Tally answers from your own documents too (PDF, Word, PowerPoint, Excel, OpenDocument, e-mail, EPUB, HTML, Markdown, CSV, scans): "
                    <a href="/admin" id="upload-invite">"upload them on the corpus pages"</a>
                    " (an operator's sign-in), then choose their corpus by the question box."
                </p>
            </Show>
            // The answer page's heading: the question (the box shows it too).
            <Show when=asked>
                <h1 class="visually-hidden" id="answer-title">{move || ask.read().0.q.clone()}</h1>
            </Show>
            // Sent before anything the server waits for, so that a page opened by its URL says
            // at once what it is doing (see `AnsweringNow`).
            <Show when=asked>
                <AnsweringNow ask=ask.get_untracked().0/>
            </Show>
            <QuestionBox ask=Signal::derive(move || ask.get().0)/>
            <CorpusBanner ask=Signal::derive(move || ask.get().0)/>
            <Show when=move || !asked()>
                <ExampleQuestions/>
            </Show>
        </section>
        <Show when=asked>
            <Suspense fallback=working>
                {move || Suspend::new(async move {
                    match answer.await {
                        Ok(Some(answered)) => view! { <AnswerView answered/> }.into_any(),
                        Ok(None) => ().into_any(),
                        Err(e) => view! { <p class="error" id="answer-error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </Show>
    }
    .into_any()
}

/// The corpus being asked, when one is chosen (after "Ask about these documents"), with the
/// way back to every corpus: above the answer and on the home page, not only by the question
/// box. A corpus no longer held (deleted since, or never on this server) is said to be gone,
/// here and when the server forgot the one asked last ([`GONE_CORPUS`]).
#[component]
fn CorpusBanner(ask: Signal<Ask>) -> impl IntoView {
    let query = use_query_map();
    let options = Resource::new(|| (), |_| question_box_options());
    move || {
        let ask = ask.get();
        let Some(corpus) = ask.settings.count.corpus.clone() else {
            // The home page says what it will ask (an answer says its scope itself).
            let gone = query.read().get(GONE_CORPUS);
            return ask.q.trim().is_empty().then(|| {
                let sentence = match gone {
                    Some(gone) => format!(
                        "The corpus “{gone}” you asked last is no longer here (it was deleted), so Tally asks all corpora. Choose another by the question box."
                    ),
                    None => "Asking all corpora. Choose one by the question box to ask only its documents."
                        .to_string(),
                };
                view! {
                    <p class="corpus-banner" id="corpus-banner" data-corpus=ALL_CORPORA>{sentence}</p>
                }
                .into_any()
            });
        };
        let mut everywhere = ask.clone();
        everywhere.settings.count.corpus = None;
        // Named explicitly, so that the server forgets the corpus it remembered for the home page.
        let href = if ask.q.trim().is_empty() {
            format!("/?corpus={ALL_CORPORA}")
        } else {
            format!("{}&corpus={ALL_CORPORA}", everywhere.url())
        };
        let held = {
            let (corpus, href) = (corpus.clone(), href.clone());
            move |held: bool| {
                let what = if held {
                    view! { "Asking about the documents of " <strong>{corpus.clone()}</strong> ". " }
                        .into_any()
                } else {
                    view! {
                        "There is no corpus " <strong>{corpus.clone()}</strong>
                        " here: it was deleted, or never uploaded to this server. "
                    }
                    .into_any()
                };
                view! {
                    <p class="corpus-banner" id="corpus-banner" data-corpus=corpus.clone() data-held=held.to_string()>
                        {what}
                        <a href=href.clone() id="all-corpora" rel="external">"Ask all corpora instead"</a>
                    </p>
                }
            }
        };
        let shown = held.clone();
        Some(
            view! {
                <Suspense fallback=move || held(true)>
                    {move || {
                        let (corpus, shown) = (corpus.clone(), shown.clone());
                        Suspend::new(async move {
                            // Unknown while the server loads its corpora: taken as held.
                            let listed = options.await.map(|o| o.corpora).unwrap_or_default();
                            shown(listed.is_empty() || listed.contains(&corpus))
                        })
                    }}
                </Suspense>
            }
            .into_any(),
        )
    }
}

/// What the server's page says while it computes the answer below: the question, the kind
/// asked for and the stages to come. The server streams the page in order and waits for the
/// answer, so this is the part a visitor sees for the seconds a new count question takes. The
/// style sheet hides it once the answer is in the page, or once the app runs (which shows the
/// stages live instead).
#[component]
fn AnsweringNow(ask: Ask) -> impl IntoView {
    let as_kind = match ask.mode.chosen_kind() {
        Some(kind) => format!(" as a {} question", kind.name()),
        None => String::new(),
    };
    let counting = matches!(ask.mode, Mode::Count | Mode::Auto);
    view! {
        <div class="answering-now" id="answering-now" role="status">
            <p>{format!("Answering “{}”{as_kind}…", ask.q.trim())}</p>
            {counting.then(|| view! {
                <p class="muted small">"A count question never asked before takes a few seconds:"</p>
                <ol class="answer-progress">
                    {Stage::PROGRESS.iter().map(|s| view! { <li>{s.doing()}</li> }).collect_view()}
                </ol>
            })}
        </div>
    }
}

/// Navigates to the submitted question's URL (only the settings that differ from the defaults)
/// instead of reloading the page.
#[cfg(feature = "hydrate")]
fn submit_in_place(ev: leptos::ev::SubmitEvent, navigate: &impl Fn(&str, NavigateOptions)) {
    use wasm_bindgen::JsCast;
    let Some(form) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlFormElement>().ok())
    else {
        return;
    };
    let Ok(data) = web_sys::FormData::new_with_form(&form) else {
        return;
    };
    ev.prevent_default();
    let (ask, _) = Ask::from_params(|name| data.get(name).as_string());
    navigate(&ask.url(), NavigateOptions::default());
}

/// On the server the form is never submitted.
#[cfg(not(feature = "hydrate"))]
fn submit_in_place(_: leptos::ev::SubmitEvent, _: &impl Fn(&str, NavigateOptions)) {}

/// A `<select>` of `options`, `chosen` selected; each option's value and label is its name.
fn select<T: Choice>(name: &'static str, options: &[T], chosen: T) -> impl IntoView {
    let names = options.iter().map(|o| o.choice_name()).collect();
    select_named(name, names, chosen.choice_name())
}

/// A `<select>` of the names `options`, `chosen` selected.
fn select_named(name: &'static str, options: Vec<&'static str>, chosen: &str) -> impl IntoView {
    view! {
        <select name=name id=format!("setting-{name}")>
            {options
                .into_iter()
                .map(|label| view! { <option value=label selected=label == chosen>{label}</option> })
                .collect_view()}
        </select>
    }
}

/// The count settings' controls, one per [`COUNT_SETTINGS`] entry, showing `count`; the corpus
/// is chosen by the question box instead ([`QuestionBox`]), where a person with files looks.
fn count_controls(count: &CountSettings) -> impl IntoView {
    COUNT_SETTINGS
        .iter()
        .filter(|setting| !matches!(setting.control, Control::Corpus))
        .map(|setting| {
            let value = (setting.write)(count);
            let control = match setting.control {
                Control::Number { min, max, step } => view! {
                    <input type="number" name=setting.name id=format!("setting-{}", setting.name)
                        min=min.to_string() max=max.to_string() step=step.to_string() value=value/>
                }
                .into_any(),
                Control::Choice { offered, .. } => {
                    select_named(setting.name, offered(), &value).into_any()
                }
                // Filtered out above: the question box offers it.
                Control::Corpus => ().into_any(),
            };
            view! { <label>{format!("{} ", setting.label)} {control}</label> }
        })
        .collect_view()
}

/// The count settings' defaults, as the panel's note says them (by their URL names).
fn count_defaults() -> String {
    let defaults = CountSettings::default();
    COUNT_SETTINGS
        .iter()
        .map(|s| format!("{} {}", s.name, (s.write)(&defaults)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[component]
fn QuestionBox(ask: Signal<Ask>) -> impl IntoView {
    let navigate = use_navigate();
    let current = ask.get_untracked();
    let settings = current.settings.clone();
    let defaults = Settings::default();
    let sorts: Vec<SortOrder> = SORTS.iter().map(|(sort, _)| *sort).collect();
    view! {
        // Without JavaScript a plain GET form; once hydrated, the page moves to the question's
        // URL in place (and the answer streams in with its progress).
        <form
            class="question-box"
            method="get"
            action="/"
            role="search"
            on:submit=move |ev| submit_in_place(ev, &navigate)
        >
            <label for="q" class="visually-hidden">"Your question"</label>
            <div class="question-row">
                <input
                    id="q"
                    name="q"
                    type="search"
                    maxlength=MAX_QUESTION_CHARS.to_string()
                    placeholder="how many languages are spoken in Indonesia?"
                    // The attribute for the server's page, the property once the app runs.
                    value=current.q.clone()
                    prop:value=move || ask.get().q
                />
                <button type="submit">"Ask"</button>
            </div>
            <div class="corpus-choice">
                <label for="setting-corpus">"Ask about "</label>
                <CorpusSelect chosen=settings.count.corpus.clone().unwrap_or_else(|| ALL_CORPORA.into())/>
            </div>
            <fieldset class="modes">
                <legend class="visually-hidden">"Kind of question"</legend>
                {MODES
                    .iter()
                    .map(|(value, label)| {
                        view! {
                            <label>
                                <input type="radio" name="mode" value=value.name() checked=current.mode == *value prop:checked=move || ask.get().mode == *value/>
                                {*label}
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
            <details class="settings" id="settings">
                <summary>"Settings"</summary>
                <div class="settings-grid">
                    <fieldset>
                        <legend>"Count questions"</legend>
                        {count_controls(&settings.count)}
                        <SnippetSourceSelect chosen=settings.snippet_source/>
                    </fieldset>
                    <fieldset>
                        <legend>"Quantity search"</legend>
                        <label>"Ranker " {select("ranker", &RANKERS, settings.ranker)}</label>
                        <label>"α (quantity weight) " <input type="number" name="alpha" min="0" max="10" step="0.1" value=settings.alpha.to_string()/></label>
                        <label>"Results " <input type="number" name="k" min="1" max="100" value=settings.k.to_string()/></label>
                        <label>"Sort " {select("sort", &sorts, settings.sort)}</label>
                    </fieldset>
                </div>
                <p class="muted small">
                    {format!(
                        "Defaults (the best measured): {}; ranker {}, α {}.",
                        count_defaults(), defaults.ranker.name(), defaults.alpha
                    )}
                    " " <a href="/?reset-settings" rel="external" id="reset-settings">"Reset"</a>
                </p>
            </details>
        </form>
    }
    .into_any()
}

/// The corpora of the snippet index to choose from (count questions), "all" first.
#[component]
fn CorpusSelect(chosen: String) -> impl IntoView {
    let examples = Resource::new(|| (), |_| question_box_options());
    let options = move |names: Vec<String>, chosen: String| {
        let mut all = vec![ALL_CORPORA.to_string()];
        all.extend(names);
        if !all.contains(&chosen) {
            all.push(chosen.clone());
        }
        view! {
            <select name="corpus" id="setting-corpus">
                {all
                    .into_iter()
                    .map(|name| {
                        let selected = name == chosen;
                        let label = if name == ALL_CORPORA {
                            "all corpora".to_string()
                        } else {
                            name.clone()
                        };
                        view! { <option value=name.clone() selected=selected>{label}</option> }
                    })
                    .collect_view()}
            </select>
        }
    };
    let fallback_chosen = chosen.clone();
    view! {
        <Suspense fallback=move || options(Vec::new(), fallback_chosen.clone())>
            {move || {
                let chosen = chosen.clone();
                Suspend::new(async move {
                    let names = examples.await.map(|e| e.corpora).unwrap_or_default();
                    options(names, chosen)
                })
            }}
        </Suspense>
    }
}

/// "Snippets: corpus / web", offered when the server has a web search configured.
#[component]
fn SnippetSourceSelect(chosen: SnippetSource) -> impl IntoView {
    let examples = Resource::new(|| (), |_| question_box_options());
    view! {
        <Suspense fallback=|| ()>
            {move || {
                Suspend::new(async move {
                    let provider = examples.await.ok().and_then(|e| e.web_search);
                    provider.map(|provider| {
                        view! {
                            <label>
                                "Snippets from "
                                <select name="snippet_source" id="setting-snippet-source">
                                    {SnippetSource::ALL
                                        .into_iter()
                                        .map(|source| {
                                            let label = match source {
                                                SnippetSource::Corpus => "the corpus".to_string(),
                                                SnippetSource::Web => format!("the web ({provider})"),
                                            };
                                            view! {
                                                <option value=source.name() selected=source == chosen>{label}</option>
                                            }
                                        })
                                        .collect_view()}
                                </select>
                            </label>
                        }
                    })
                })
            }}
        </Suspense>
    }
}

#[component]
fn ExampleQuestions() -> impl IntoView {
    let examples = Resource::new(|| (), |_| question_box_options());
    let list = |title: &'static str, id: &'static str, questions: Vec<String>| {
        view! {
            <div class="examples-list">
                <h2>{title}</h2>
                <ul id=id>
                    {questions
                        .into_iter()
                        .map(|q| {
                            let href = Ask { q: q.clone(), mode: Mode::Auto, settings: Settings::default() }.url();
                            view! { <li><a href=href>{q}</a></li> }
                        })
                        .collect_view()}
                </ul>
            </div>
        }
    };
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match examples.await {
                    Ok(examples) => view! {
                        <div class="examples">
                            {list("Count questions", "examples-count", examples.count)}
                            {list("Value questions", "examples-value", examples.value)}
                            {list("Quantity conditions", "examples-quantity", examples.quantity)}
                        </div>
                    }
                    .into_any(),
                    Err(_) => ().into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn AnswerView(answered: Answered) -> impl IntoView {
    let Answered {
        ask,
        feedback_key,
        stored:
            StoredAnswer {
                answer_id,
                not_stored,
                verified,
                answer:
                    Answer {
                        kind,
                        kind_reason,
                        chosen_by_user,
                        answer: body,
                        scope,
                        did_you_mean,
                    },
                ..
            },
    } = answered;
    // A verified answer over the corpus asked answers first; one over another corpus (asked over
    // all corpora) is said beside Tally's own answer.
    let asked_corpus = ask
        .settings
        .count
        .corpus
        .clone()
        .unwrap_or_else(|| ALL_CORPORA.to_string());
    let (verified_here, verified_elsewhere) = match verified {
        Some(v) if v.corpus == asked_corpus => (Some(v), None),
        other => (None, other),
    };
    let corrected = verified_here
        .as_ref()
        .is_some_and(|v| v.tally_count != Some(v.count));
    let target = answer_id.map(|answer_id| FeedbackTarget {
        answer_id,
        key: feedback_key,
    });
    let other_modes = MODES
        .iter()
        .map(|(mode, _)| *mode)
        .filter(|m| *m != Mode::Auto && *m != Mode::from(kind))
        .filter_map(|m| Some((m, m.chosen_kind()?)))
        .map(|(m, as_kind)| view! { " " <a href=ask.with_mode(m).share_url(as_kind) class="mode-switch" data-mode=m.name()>{format!("answer as {}", m.name())}</a> })
        .collect_view();
    let how = if chosen_by_user {
        format!("Answered as a {} question, as you chose.", kind.name())
    } else {
        format!("Answered as a {} question: {kind_reason}.", kind.name())
    };
    // The unit a value answer is shown in: chosen on the page, carried by the share link.
    let unit = RwSignal::new(ask.settings.unit.clone());
    let share = {
        let ask = ask.clone();
        Signal::derive(move || ask.with_unit(unit.get()).share_url(kind))
    };
    view! {
        <div class="answer" data-kind=kind.name() data-answer-id=answer_id.map(|id| id.to_string())>
            {did_you_mean.map(|suggested| {
                let again = Ask { q: suggested.clone(), ..ask.clone() }.url();
                view! {
                    <p class="did-you-mean" id="did-you-mean">
                        "Did you mean " <a href=again id="did-you-mean-link">{suggested}</a> "?"
                    </p>
                }
            })}
            {scope.map(|scope| view! {
                <p class="scope-line" id="answer-scope" data-corpus=scope.corpus.clone().unwrap_or_else(|| ALL_CORPORA.to_string())>{scope.sentence()}</p>
            })}
            <p class="kind-note" id="kind-note">
                {how} <span class="muted small">" Not right?"{other_modes}</span>
            </p>
            {not_stored.map(|why| view! { <p class="notice" role="status">{format!("This answer was not saved, so feedback is off: {why}")}</p> })}
            {verified_elsewhere.map(|verified| {
                let mut there = ask.clone();
                there.settings.count.corpus = Some(verified.corpus.clone());
                view! { <VerifiedElsewhere verified there=there.url()/> }
            })}
            {verified_here.map(|verified| view! { <VerifiedView verified/> })}
            <div class=if corrected { "own-answer corrected" } else { "own-answer" } id="own-answer">
                {corrected.then(|| view! {
                    <h2 class="corrected-label" id="corrected-label">"Tally's own answer, corrected by the reviewer above"</h2>
                })}
                {match body {
                    AnswerBody::Count(view) => view! { <CountAnswerView view=*view target/> }.into_any(),
                    AnswerBody::Value(view) => view! { <ValueAnswerView view=*view target unit/> }.into_any(),
                    AnswerBody::Search(view) => view! { <SearchAnswerView view=*view ask=ask.clone() kind target/> }.into_any(),
                }}
            </div>
            <p class="muted small share">"Share this answer: " <a href=share id="share-link">{share}</a></p>
        </div>
    }
}
