//! The answer to a count question: the count, its CNP_rep and confidence, a plot of the candidate
//! counts, the CNP groups, the ranked instances and the snippets with their spans highlighted.
//! Plot points, group entries and instances link to the snippet they come from (`#snippet-…`),
//! so following one scrolls the snippet into view, with or without JavaScript. (`target="_self"`
//! leaves these in-page jumps to the browser: the app's router would treat them as navigations.)

use leptos::prelude::*;
use tally_types::{CnpGroup, FeedbackPart, Verdict};

use crate::format::{counted, duration_ms, likely, number, percent, Mark};
use crate::model::{Ask, Settings};
use crate::views::count_plot::{cnp_style, CountPlot};
use crate::views::doubt::{certainty_line, unsure_line, without_headline};
use crate::views::feedback::{answer_feedback, Extra, FeedbackForm, FeedbackTarget, JudgedAnswer};
use crate::views::scan_crop::ScanCrop;
use crate::views::story::{of_the_counted, rests_on};
use crate::views::{marked_text, snippet_anchor};
use tally_types::count::{
    Abstention, Cnp, CnpClass, CnpGroups, CountAnswer, CountSettings, CountSpan, RankedInstance,
    ResolvedSettings, Retrieval, SnippetAnswer, SnippetOrigin, SnippetSource, StageTiming,
};
use tally_types::Mode;

/// How many snippets say the answer, in words: "6 of 7 snippets that state a count say 180–229
/// languages" (the snippets whose chosen count counts the same thing as the answer).
fn support_in_words(snippets: &[SnippetAnswer], answer_type: &str) -> String {
    let stated: Vec<&CountSpan> = snippets
        .iter()
        .filter_map(|s| s.spans.iter().find(|span| span.chosen && span.used))
        .collect();
    let agreeing: Vec<f64> = stated
        .iter()
        .filter(|span| {
            matches!(
                span.cnp_class,
                Some(CnpClass::Representative) | Some(CnpClass::Synonym)
            )
        })
        .map(|span| span.count)
        .collect();
    let low = agreeing.iter().copied().fold(f64::INFINITY, f64::min);
    let high = agreeing.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut distinct = agreeing.clone();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    // Two or three counts are said each ("9 or 10"): a range would read as agreement on both.
    let said = match distinct.as_slice() {
        [] => {
            let verb = if stated.len() == 1 { "states" } else { "state" };
            return format!("{} that {verb} a count", counted(stated.len(), "snippet"));
        }
        [one] => number(*one),
        [a, b] => format!("{} or {}", number(*a), number(*b)),
        [a, b, c] => format!("{}, {} or {}", number(*a), number(*b), number(*c)),
        _ => format!("{}–{}", number(low), number(high)),
    };
    let of = match stated.len() {
        1 => "1 snippet that states a count says".to_string(),
        n => format!("{} of {n} snippets that state a count say", agreeing.len()),
    };
    format!("{of} {said} {answer_type}")
}

/// An abstention's reason, without the headline the page already shows; an answer stored
/// before reasons were typed shows its whole sentence.
fn reason_after_headline(reason: Option<&Abstention>, sentence: Option<&str>) -> String {
    match reason {
        Some(reason) => without_headline(&reason.reason()),
        None => without_headline(sentence.unwrap_or_default()),
    }
}

/// What a person can do when the corpus does not answer.
#[component]
pub fn WhatToTry() -> impl IntoView {
    // The web is suggested only where this server has a web search.
    let options = Resource::new(|| (), |_| crate::backend::question_box_options());
    let web = move || {
        Suspend::new(async move {
            options.await.ok().and_then(|o| o.web_search).map(
                |_| view! { <li id="try-web">"Take snippets from the web (in the settings)."</li> },
            )
        })
    };
    view! {
        <div class="what-to-try" id="what-to-try">
            <p>"What to try:"</p>
            <ul>
                <li>"Name what is counted or measured and of what: “how many moons does Mars have”, “how tall is the Eiffel Tower”."</li>
                <li>"Choose another corpus by the question box (\"Ask about\"), or add your own documents on the corpus pages."</li>
                <Suspense fallback=|| ()>{web}</Suspense>
            </ul>
        </div>
    }
}

/// A count answer with its evidence and feedback forms.
#[component]
pub fn CountAnswerView(
    /// The count answer.
    view: CountAnswer,
    /// Where feedback on it goes; `None`: no feedback forms.
    target: Option<FeedbackTarget>,
) -> impl IntoView {
    let CountAnswer {
        question,
        analysis,
        count,
        support: _,
        certainty,
        abstention,
        abstention_reason,
        read_from,
        aggregation,
        cnp_rep,
        confidence,
        groups,
        instances,
        snippets,
        retrieval,
        origin,
        threshold_used,
        timings,
        settings,
        resolved,
    } = view;
    // Computed over a table's rows: the rows are the evidence (issue 74).
    if let Some(aggregation) = aggregation {
        return aggregation_answer(aggregation, count, certainty, abstention, target);
    }
    let settings_line = settings_summary(&settings, resolved.as_ref());
    let origin_line = origin.map(|origin| view! { <Origin origin question=question.clone()/> });
    let used = snippets
        .iter()
        .flat_map(|s| &s.spans)
        .filter(|s| s.used)
        .count();
    let abstention = (abstention.is_some() || abstention_reason.is_some())
        .then(|| reason_after_headline(abstention_reason.as_ref(), abstention.as_deref()));
    // A count read from a document's structure (a table cell, a list counted) tells that story
    // alone: the count phrases of other passages, their agreement and their plot are not its
    // evidence, so the page does not quote or plot them as if they were.
    let structured = read_from.is_some();
    let structured_passage = read_from.as_ref().map(|r| r.snippet_id.clone());
    let headline = count_headline(
        count,
        certainty,
        abstention.as_deref(),
        cnp_rep.as_ref().filter(|_| !structured),
        (!structured).then_some(snippets.as_slice()),
        &analysis.answer_type,
        retrieval,
    );
    let read_from_line = read_from.map(|reading| {
        view! {
            <p class="count-meta" id="read-from">
                {reading.how} " — " <a href=format!("#{}", snippet_anchor(&reading.snippet_id)) target="_self">"the passage"</a>
            </p>
        }
    });
    let answered = count.is_some();
    // Nothing answered, nothing to correct.
    let answer_feedback = target
        .clone()
        .map(|t| answer_feedback(t, answered, JudgedAnswer::Count));
    let has_snippets = !snippets.is_empty();
    let snippet_count = snippets.len();
    let plotted = snippets.clone();
    // One story: the passages the answer rests on first, the others folded below them.
    let (resting, others) = rests_on(snippets, structured_passage.as_deref());
    view! {
        <section class="count-answer" aria-labelledby="count-title">
            <h2 id="count-title" class="visually-hidden">"Count"</h2>
            {origin_line}
            <div class="count-head">
                <div>{headline} {read_from_line}</div>
                {answer_feedback}
            </div>
            // Without an answer, the page stays short: no plot of counts nobody should read.
            <Show when=move || has_snippets && answered && !structured>
                <CountPlot snippets=plotted.clone() prediction=count/>
            </Show>
            {if answered {
                // The groups weigh the count phrases against the consolidated count: a count read
                // from a document's structure is not theirs, so they would tell another story.
                let groups = (!structured).then(|| of_the_counted(groups, &analysis.head));
                answered_evidence(groups, instances, analysis.answer_type.clone(), target.clone(), resting, others)
            } else {
                // No answer: a short page, the evidence folded away, and what to try.
                let all: Vec<SnippetAnswer> = resting.into_iter().chain(others).collect();
                let n = all.len();
                view! {
                    <WhatToTry/>
                    <details class="closest-evidence">
                        <summary>{format!("The closest evidence: {}", counted(n, "snippet"))}</summary>
                        <Snippets snippets=all title="Snippets" id="snippets-title"/>
                    </details>
                }
                .into_any()
            }}
            <HowTallyGotThis snippets=snippet_count retrieval used threshold_used confidence structured timings settings_line/>
        </section>
    }
    .into_any()
}

/// The evidence under a count given: its groups (`None`: none to show), its instances, the
/// passages it rests on, then the others folded.
fn answered_evidence(
    groups: Option<CnpGroups>,
    instances: Vec<RankedInstance>,
    answer_type: String,
    target: Option<FeedbackTarget>,
    resting: Vec<SnippetAnswer>,
    others: Vec<SnippetAnswer>,
) -> AnyView {
    let groups = groups.map(|groups| view! { <Groups groups target=target.clone()/> });
    let n_others = others.len();
    view! {
        {groups}
        <Instances instances kind=answer_type target/>
        <Snippets snippets=resting title="The evidence" id="snippets-title"/>
        {(n_others > 0).then(|| view! {
            <details class="other-passages" id="other-passages">
                <summary>{format!("Other passages found: {n_others}")}</summary>
                <Snippets snippets=others title="Other passages" id="others-title"/>
            </details>
        })}
    }
    .into_any()
}

/// An answer computed over a table's rows: its result and rows, and the feedback form.
fn aggregation_answer(
    aggregation: tally_types::count::Aggregation,
    count: Option<f64>,
    certainty: Option<tally_types::Certainty>,
    abstention: Option<String>,
    target: Option<FeedbackTarget>,
) -> AnyView {
    // A sum or an average is corrected as a value with its unit, a count as a count.
    let judged = match aggregation.operation {
        tally_types::count::Operation::Count => JudgedAnswer::Count,
        _ => JudgedAnswer::Value {
            unit: aggregation.unit.clone().unwrap_or_default(),
        },
    };
    let answer_feedback = target.map(|t| answer_feedback(t, count.is_some(), judged));
    let title = aggregation.operation.title();
    view! {
        <section class="count-answer" aria-labelledby="count-title">
            <h2 id="count-title" class="answer-operation" data-operation=aggregation.operation.name()>{title}</h2>
            <div class="count-head">
                <div><super::records::AggregationView aggregation answered=count.is_some() certainty abstention/></div>
                {answer_feedback}
            </div>
        </section>
    }
    .into_any()
}

/// The answer's first lines: the count with the phrase that states it best, or why there is none.
/// `abstention`: why there is no count, after the headline.
fn count_headline(
    count: Option<f64>,
    certainty: Option<tally_types::Certainty>,
    abstention: Option<&str>,
    cnp_rep: Option<&Cnp>,
    // The snippets whose count phrases are the evidence (none: a structured reading is).
    weighed: Option<&[SnippetAnswer]>,
    answer_type: &str,
    retrieval: Retrieval,
) -> AnyView {
    let snippets = weighed.unwrap_or_default();
    match count {
        Some(count) => view! {
            <p class="count-value" id="count-value">{number(count)}</p>
            <p class="count-rep">
                {cnp_rep.as_ref().map(|rep| {
                    view! {
                        "“" <a href=format!("#{}", snippet_anchor(&rep.snippet_id)) target="_self" id="cnp-rep">{rep.text.clone()}</a> "”"
                    }
                })}
            </p>
            {weighed.map(|snippets| view! {
                <p class="count-meta" id="count-support">{support_in_words(snippets, answer_type)}</p>
            })}
            {certainty_line(certainty, true)}
        }
        .into_any(),
        // Declined with a reading: the same "Not sure" a value answer says (issue 87).
        None if abstention.is_some() && certainty.is_some_and(|c| c.reading.is_some()) => view! {
            <p class="count-value none not-sure" id="count-value" data-not-sure="true">"Not sure"</p>
            <p class="count-meta" id="abstention">{abstention.map(str::to_string)}</p>
            {unsure_line(certainty, abstention)}
            <p class="count-rep">
                {cnp_rep.as_ref().map(|rep| {
                    view! {
                        "Closest evidence: “" <a href=format!("#{}", snippet_anchor(&rep.snippet_id)) target="_self" id="cnp-rep">{rep.text.clone()}</a> "”"
                    }
                })}
            </p>
        }
        .into_any(),
        None if abstention.is_some() => view! {
            <p class="count-value none" id="count-value">{Abstention::HEADLINE}</p>
            // The reason, without the headline said again.
            <p class="count-meta" id="abstention">{abstention.map(str::to_string)}</p>
            <p class="count-rep">
                {cnp_rep.as_ref().map(|rep| {
                    view! {
                        "Closest evidence: “" <a href=format!("#{}", snippet_anchor(&rep.snippet_id)) target="_self" id="cnp-rep">{rep.text.clone()}</a> "”"
                    }
                })}
            </p>
        }
        .into_any(),
        None => view! {
            <p class="count-value none" id="count-value">"No count found"</p>
            <p class="count-meta">
                {match snippets.len() {
                    1 => format!("The one snippet ({}) states no usable count of {}.", retrieval.in_words(), answer_type),
                    n => format!("None of the {n} snippets ({}) states a usable count of {}.", retrieval.in_words(), answer_type),
                }}
            </p>
        }
        .into_any(),
    }
}

/// How the answer was computed: the evidence weighed, and each stage's time.
#[component]
fn HowTallyGotThis(
    snippets: usize,
    retrieval: Retrieval,
    used: usize,
    threshold_used: f64,
    confidence: f64,
    /// Read from a document's structure rather than weighed from count phrases.
    structured: bool,
    timings: Vec<StageTiming>,
    settings_line: String,
) -> impl IntoView {
    let weighed = if structured {
        format!(
            "{} ({}); the count was read from the document's structure (the passage named above), not weighed from count phrases.",
            counted(snippets, "snippet"),
            retrieval.in_words()
        )
    } else {
        format!(
            "{} ({}); {used} count phrases likely enough to count (the reader's threshold was {threshold_used:.1}), weighed by how likely each is; {} of that weight agrees with the answer.",
            counted(snippets, "snippet"),
            retrieval.in_words(),
            percent(confidence)
        )
    };
    view! {
    <details class="timings how">
        <summary>"How Tally got this"</summary>
        <p class="muted" id="settings-used">{settings_line}</p>
        <p class="muted">{weighed}</p>
        <table tabindex="0">
            <tbody>
                {timings
                    .into_iter()
                    .map(|t| view! { <tr><th scope="row">{t.stage.name()}</th><td>{duration_ms(t.ms)}</td></tr> })
                    .collect_view()}
            </tbody>
        </table>
    </details>
    }
}

/// The settings an answer was computed with, as the page says them: those changed from the
/// defaults, then what Tally decided for itself ([`ResolvedSettings`]) where it differs.
fn settings_summary(settings: &CountSettings, resolved: Option<&ResolvedSettings>) -> String {
    let changed = settings.changed();
    let mut said = if changed.is_empty() {
        "Settings: the defaults.".to_string()
    } else {
        let pairs: Vec<String> = changed.iter().map(|(n, v)| format!("{n} {v}")).collect();
        format!("Settings changed: {}.", pairs.join(", "))
    };
    for note in resolved.map(|r| settings.notes(r)).unwrap_or_default() {
        said.push(' ');
        said.push_str(&note);
    }
    said
}

#[component]
fn Groups(groups: CnpGroups, target: Option<FeedbackTarget>) -> impl IntoView {
    let group = move |group: CnpGroup,
                      title: &'static str,
                      explain: &'static str,
                      cnps: Vec<Cnp>| {
        let target = target.clone();
        let id = group.name();
        view! {
            <section class=format!("cnp-group group-{id}") aria-labelledby=format!("group-{id}")>
                <h3 id=format!("group-{id}")>{title} <span class="muted">{format!(" ({})", cnps.len())}</span></h3>
                <p class="muted small">{explain}</p>
                <ul>
                    {cnps
                        .into_iter()
                        .enumerate()
                        .map(|(i, cnp)| {
                            let feedback = target.clone().map(|target| {
                                view! {
                                    <details class="judge">
                                    <summary>"Judge"</summary>
                                    <FeedbackForm
                                        target
                                        part=FeedbackPart::Cnp
                                        part_ref=format!("{id}:{}", cnp.snippet_id)
                                        verdicts=&[(Verdict::Correct, "Right group"), (Verdict::Moved, "Move")]
                                        extra=Extra::MoveGroup
                                        about=format!("the count phrase {}", cnp.text)
                                    />
                                    </details>
                                }
                            });
                            view! {
                                <li id=format!("{id}-{i}")>
                                    <a href=format!("#{}", snippet_anchor(&cnp.snippet_id)) target="_self">{cnp.text.clone()}</a>
                                    <span class="muted">{format!(" · {} · {}", number(cnp.count), likely(cnp.confidence))}</span>
                                    {feedback}
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            </section>
        }
    };
    // Only the groups that hold count phrases are shown.
    let shown = |kind, title, explain, cnps: Vec<Cnp>| {
        (!cnps.is_empty()).then(|| group(kind, title, explain, cnps))
    };
    view! {
        <div class="cnp-groups">
            {shown(CnpGroup::Synonyms, "Synonyms", "Count the same thing as the answer.", groups.synonyms)}
            {shown(CnpGroup::Subgroups, "Subgroups", "Count a part of it.", groups.subgroups)}
            {shown(CnpGroup::Incomparables, "Incomparables", "Count something else.", groups.incomparables)}
        </div>
    }
}

#[component]
fn Instances(
    instances: Vec<RankedInstance>,
    kind: String,
    target: Option<FeedbackTarget>,
) -> impl IntoView {
    // Names unlikely to be of the counted kind are not shown: saying so is the honest answer.
    if instances.is_empty() {
        let kind = if kind.trim().is_empty() {
            "the things counted".to_string()
        } else {
            kind
        };
        return view! { <p class="muted">{format!("No names of {kind} found in the evidence.")}</p> }
            .into_any();
    }
    view! {
        <section class="instances" aria-labelledby="instances-title">
            <h3 id="instances-title">"Instances"</h3>
            <ol>
                {instances
                    .into_iter()
                    .map(|instance| {
                        let first = instance.snippets.first().cloned();
                        let feedback = target.clone().map(|target| {
                            view! {
                                <FeedbackForm
                                    target
                                    part=FeedbackPart::Instance
                                    part_ref=instance.name.clone()
                                    verdicts=&[(Verdict::Relevant, "Relevant"), (Verdict::NotRelevant, "Not relevant")]
                                    about=format!("instance {}", instance.name)
                                />
                            }
                        });
                        view! {
                            <li class="instance-item">
                                {match first {
                                    Some(s) => view! { <a href=format!("#{}", snippet_anchor(&s)) target="_self">{instance.name.clone()}</a> }.into_any(),
                                    None => view! { <span>{instance.name.clone()}</span> }.into_any(),
                                }}
                                <meter min="0" max="1" value=instance.score.to_string() title=format!("score {:.2}", instance.score)></meter>
                                <span class="muted">{format!("{:.2} · {}", instance.score, counted(instance.snippets.len(), "snippet"))}</span>
                                {feedback}
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
    .into_any()
}

/// Where the snippets came from: the web search and its stored set, or why the web failed and
/// the local corpus answered instead.
#[component]
fn Origin(origin: SnippetOrigin, question: String) -> impl IntoView {
    let provider = origin.provider.clone().unwrap_or_default();
    let fetched = origin.fetched_at.clone().unwrap_or_default();
    // The set's link answers from exactly these snippets again.
    let set = match origin.set_id {
        Some(id) => {
            let again = Ask {
                q: question,
                mode: Mode::Count,
                settings: Settings {
                    snippet_source: SnippetSource::Web,
                    snippet_set: Some(id),
                    ..Settings::default()
                },
            };
            view! { " (" <a href=again.url() id="snippet-set">{format!("snippet set {id}")}</a> ")" }
                .into_any()
        }
        None => " (not stored: the database is unavailable)".into_any(),
    };
    match (origin.source, origin.failure) {
        (_, Some(failure)) => view! {
            <p class="snippet-origin failed" id="snippet-origin" role="status">
                {format!("The web search ({provider}) {failure}. Answered from the local corpus instead.")}
            </p>
        }
        .into_any(),
        (SnippetSource::Web, None) => {
            let when = if origin.reused { "fetched earlier, at" } else { "fetched" };
            view! {
                <p class="snippet-origin" id="snippet-origin">
                    {format!("Web snippets from {provider}, {when} {fetched}")}
                    {set}
                    "."
                </p>
            }
            .into_any()
        }
        (SnippetSource::Corpus, None) => view! {
            <p class="snippet-origin" id="snippet-origin">"Snippets from the local corpus."</p>
        }
        .into_any(),
    }
}

/// The passages `snippets` under a heading (`id`: the heading's HTML id).
#[component]
fn Snippets(snippets: Vec<SnippetAnswer>, title: &'static str, id: &'static str) -> impl IntoView {
    view! {
        <section class="snippets" aria-labelledby=id>
            <h3 id=id>{title}</h3>
            {snippets
                .into_iter()
                .map(|snippet| {
                    let pieces = marked_text(&snippet.text, snippet_marks(&snippet));
                    view! {
                        <article class="snippet" id=snippet_anchor(&snippet.id) tabindex="-1">
                            <p>{pieces}</p>
                            {match snippet.link.clone() {
                                Some(link) => view! {
                                    <p class="snippet-source muted small">
                                        <a href=link.url.clone() rel="noopener noreferrer" target="_blank" class="snippet-link">{link.title.clone()}</a>
                                        {link.published.map(|date| format!(" · {date}"))}
                                        " · " {link.url.clone()}
                                    </p>
                                }
                                .into_any(),
                                None => view! {
                                    <p class="snippet-source muted small">{snippet.source.clone()} " · " {snippet.id.clone()}</p>
                                }
                                .into_any(),
                            }}
                            <ScanCrop source=snippet.source.clone() text=snippet.text.clone()/>
                        </article>
                    }
                })
                .collect_view()}
        </section>
    }
}

/// A snippet's highlights: its count spans, coloured by CNP class (or as unused), and its
/// instance mentions.
pub fn snippet_marks(snippet: &SnippetAnswer) -> Vec<Mark> {
    let spans = snippet.spans.iter().map(|span| {
        let class = format!("count {}", cnp_style(span.cnp_class.filter(|_| span.used)));
        Mark {
            start: span.start,
            end: span.end,
            class,
            label: format!("count {} ({})", number(span.count), likely(span.confidence)),
        }
    });
    let instances = snippet.instances.iter().map(|m| Mark {
        start: m.start,
        end: m.end,
        class: "instance".into(),
        label: format!("instance {}", m.instance),
    });
    spans.chain(instances).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snippet(count: f64, class: CnpClass) -> SnippetAnswer {
        SnippetAnswer {
            id: format!("s{count}"),
            source: "test".into(),
            text: String::new(),
            spans: vec![CountSpan {
                start: 0,
                end: 0,
                text: String::new(),
                count,
                confidence: 0.9,
                chosen: true,
                used: true,
                cnp_class: Some(class),
            }],
            instances: Vec::new(),
            link: None,
        }
    }

    #[test]
    fn support_is_said_in_snippets_and_counts_not_percentages() {
        let snippets = [
            snippet(229.0, CnpClass::Representative),
            snippet(180.0, CnpClass::Synonym),
            snippet(17.0, CnpClass::Subgroup),
        ];
        assert_eq!(
            support_in_words(&snippets, "songs"),
            "2 of 3 snippets that state a count say 180 or 229 songs"
        );
        assert_eq!(
            support_in_words(&snippets[..1], "songs"),
            "1 snippet that states a count says 229 songs"
        );
        assert_eq!(
            support_in_words(&snippets[2..], "songs"),
            "1 snippet that states a count"
        );
    }
}
