//! The answer to a value question: the value large with its unit and a unit switch (metres ↔
//! feet), the plot of the observations in the chosen unit, the groups of observations that agree
//! with the answer, differ from it or stand apart, and every observation's sentence with the
//! quantity highlighted and what it describes. Plot points and group entries link to the
//! sentence (`#observation-…`). The switch converts with the answer's own scale and offset per
//! unit: the engine is not in the browser.

use leptos::prelude::*;
use tally_types::{FeedbackPart, Verdict};

use crate::format::{counted, feet_and_inches, measured, money, percent, plural, Mark};
use crate::views::feedback::{answer_feedback, FeedbackForm, FeedbackTarget, JudgedAnswer};
use crate::views::marked_text;
use crate::views::plot::{Axis, AxisLine, ScaleNote, HEIGHT, WIDTH};
use crate::views::scan_crop::ScanCrop;
use tally_types::value::{
    ObservationGroup, UnitChoice, ValueAnswer, ValueObservation, ValueQuestion,
};

/// What each group means, for its heading and the legend.
fn group_label(group: ObservationGroup) -> &'static str {
    match group {
        ObservationGroup::Agrees => "agrees with the answer",
        ObservationGroup::Differs => "differs: another part, another thing, or an error",
        ObservationGroup::Apart => "apart: another kind of unit, or another year",
    }
}

/// HTML id of an observation's sentence.
fn observation_anchor(index: usize) -> String {
    format!("observation-{index}")
}

/// Which observation feedback is about: its sentence and where the quantity starts.
fn observation_ref(o: &ValueObservation) -> String {
    let id: String = o.sentence_id.chars().take(180).collect();
    format!("{id}@{}", o.start)
}

/// A value in the chosen unit (the answer's own when there is no switch), to three significant
/// figures, with the unit's symbol where it has one ("2.01 m", "26.2 mi"), else its name in the
/// singular for exactly one and the plural otherwise ("92,542 seats", "1 day"); a length under
/// 10 feet in feet and inches ("6 ft 7 in").
fn in_unit(value: f64, choice: Option<&UnitChoice>, own: Option<&str>) -> String {
    written(choice.map_or(value, |c| c.convert(value)), choice, own)
}

/// `value` of `answer` in the answer's own unit, written as its page writes it ("£38", "330 m"):
/// what one-line summaries (the history) say.
pub fn in_own_unit(answer: &ValueAnswer, value: f64) -> String {
    in_unit(value, answer.units.first(), answer.unit.as_deref())
}

/// A value already in the chosen unit, written as [`in_unit`] writes it.
fn written(value: f64, choice: Option<&UnitChoice>, own: Option<&str>) -> String {
    let name = choice.map(|c| c.unit.as_str()).or(own);
    if name == Some("foot") {
        if let Some(shown) = feet_and_inches(value) {
            return shown;
        }
    }
    if let Some(choice) = choice.filter(|c| c.currency) {
        return money(value, choice);
    }
    let shown = measured(value);
    if let Some(symbol) = choice.and_then(|c| c.symbol.as_deref()) {
        return format!("{shown} {symbol}");
    }
    match name {
        Some(name) if shown == "1" => format!("1 {name}"),
        Some(name) => format!("{shown} {}", plural(name)),
        None => shown,
    }
}

/// How many observations agree with the value, counted as the answer's support counts them
/// (issue 101: the page said "1 of 10" beside the reason's "1 of 5"): those not set apart.
fn agreement_line(observations: &[ValueObservation]) -> String {
    let agreeing = observations
        .iter()
        .filter(|o| o.group == ObservationGroup::Agrees)
        .count();
    let weighed = observations
        .iter()
        .filter(|o| o.group != ObservationGroup::Apart)
        .count();
    let apart = observations.len() - weighed;
    let mut line = format!("{agreeing} of {weighed} observations agree (within 10%)");
    if apart > 0 {
        line.push_str(&format!(
            "; {} set apart (another kind of unit or another year)",
            counted(apart, "other")
        ));
    }
    line
}

/// The value large; or "Not sure" with the reason and the closest evidence, not a large number
/// (issue 73); or that there is none.
fn value_headline(
    value: Option<f64>,
    not_sure: Option<String>,
    representative: Option<String>,
    show: impl Fn(f64) -> String + Copy + Send + Sync + 'static,
) -> AnyView {
    match (value, not_sure) {
        (Some(v), Some(why)) => view! {
            <p class="count-value none not-sure" id="value-value" data-not-sure="true">"Not sure"</p>
            <p class="count-meta" id="not-sure">{format!("The closest evidence points to {}, but {why}.", show(v))}</p>
            {representative.map(|rep| view! { <p class="count-rep">"Closest evidence: “" <span id="value-rep">{rep}</span> "”"</p> })}
        }
        .into_any(),
        (Some(v), None) => view! {
            <p class="count-value value-value" id="value-value">{move || show(v)}</p>
            {representative.map(|rep| view! { <p class="count-rep">"As written: “" <span id="value-rep">{rep}</span> "”"</p> })}
        }
        .into_any(),
        (None, _) => view! {
            <p class="count-value none" id="value-value">"No value found in this corpus"</p>
        }
        .into_any(),
    }
}

/// A value answer with its evidence and feedback forms.
#[component]
pub fn ValueAnswerView(
    /// The value answer.
    view: ValueAnswer,
    /// Where feedback goes; `None`: no feedback forms.
    target: Option<FeedbackTarget>,

    /// The unit it is shown in, by id (`None`: the answer's own); the unit switch sets it.
    unit: RwSignal<Option<String>>,
) -> impl IntoView {
    let ValueAnswer {
        question,
        value,
        unit: own_unit,
        unit_id: _,
        representative,
        note,
        observations,
        units,
        not_sure,
        certainty,
    } = view;
    let units = StoredValue::new(units);
    // The chosen unit, as an index into `units` (0, the answer's own, for none or an unknown one).
    let chosen = Memo::new(move |_| {
        unit.with(|id| {
            units.with_value(|all| {
                id.as_ref()
                    .and_then(|id| all.iter().position(|c| &c.unit_id == id))
                    .unwrap_or(0)
            })
        })
    });
    let own_unit = StoredValue::new(own_unit);
    let show = move |v: f64| {
        units.with_value(|all| {
            own_unit.with_value(|own| in_unit(v, all.get(chosen.get()), own.as_deref()))
        })
    };
    // The plot's ticks: round in the chosen unit, written as the value is.
    let shown_in = move || {
        units.with_value(|all| {
            all.get(chosen.get())
                .map_or((1.0, 0.0), |c| (c.scale, c.offset))
        })
    };
    let tick_label = move |v: f64| {
        units.with_value(|all| {
            own_unit.with_value(|own| written(v, all.get(chosen.get()), own.as_deref()))
        })
    };
    let asked = asked_for(&question);
    let sure = value.is_some() && not_sure.is_none();
    let not_sure_reason = not_sure.clone();
    let headline = value_headline(value, not_sure, representative, show);
    let certainty = if sure {
        crate::views::doubt::certainty_line(certainty, true)
    } else {
        crate::views::doubt::unsure_line(certainty, not_sure_reason.as_deref())
    };
    let switch = units
        .with_value(|all| all.len() > 1)
        .then(|| view! { <UnitSwitch units chosen unit/> });
    // The unit a correction starts in: the answer's, as it is written after a number.
    let unit_hint = units.with_value(|all| {
        all.first()
            .map(|own| own.symbol.clone().unwrap_or_else(|| own.unit.clone()))
            .unwrap_or_default()
    });
    let answer_feedback = target.clone().map(|target| {
        answer_feedback(
            target,
            value.is_some(),
            JudgedAnswer::Value { unit: unit_hint },
        )
    });
    let meta = value.map(|_| agreement_line(&observations));
    let plotted = observations.clone();
    let grouped = observations.clone();
    view! {
        <section class="count-answer value-answer" aria-labelledby="value-title">
            <h2 id="value-title" class="visually-hidden">"Value"</h2>
            <div class="count-head">
                <div>
                    {headline}
                    {certainty}
                    {switch}
                    {asked.map(|a| view! { <p class="count-meta">{a}</p> })}
                    {meta.map(|m| view! { <p class="count-meta">{m}</p> })}
                    {note.map(|n| view! { <p class="count-meta" id="value-note">{n}</p> })}
                </div>
                {answer_feedback}
            </div>
            {if observations.is_empty() {
                // Nothing observed: no empty plot, groups or evidence, but what to try.
                view! { <crate::views::count::WhatToTry/> }.into_any()
            } else {
                view! {
                    <ValuePlot observations=plotted answer=value sure show shown_in tick_label/>
                    <Groups observations=grouped/>
                    <Evidence observations target/>
                }
                .into_any()
            }}
        </section>
    }
}

/// What the question asks for, in words ("Asks for a length (“tall”), in 2019").
fn asked_for(question: &ValueQuestion) -> Option<String> {
    question.dimension_cue.as_ref().map(|cue| {
        format!(
            "Asks for a {} (“{cue}”){}",
            question.dimension.as_deref().unwrap_or("value"),
            question
                .year
                .map(|y| format!(", in {y}"))
                .unwrap_or_default()
        )
    })
}

/// Buttons that show the value in each unit it may be shown in; the pressed one is `chosen`.
#[component]
fn UnitSwitch(
    units: StoredValue<Vec<UnitChoice>>,
    chosen: Memo<usize>,
    unit: RwSignal<Option<String>>,
) -> impl IntoView {
    let buttons = units.with_value(|all| {
        all.iter()
            .enumerate()
            .map(|(i, choice)| {
                let name = choice.unit.clone();
                // The first choice is the answer's own unit: the link then names none.
                let id = (i > 0).then(|| choice.unit_id.clone());
                view! {
                    <button
                        type="button"
                        class="unit-choice"
                        data-unit=choice.unit_id.clone()
                        aria-pressed=move || (chosen.get() == i).to_string()
                        on:click=move |_| unit.set(id.clone())
                    >
                        {name}
                    </button>
                }
            })
            .collect_view()
    });
    view! { <div class="unit-switch" role="group" aria-label="Show the value in">{buttons}</div> }
}

/// Each observation with a value at that value, sized by its retrieval weight and coloured by
/// its group; the answer is the dashed line. Labels are in the chosen unit (an affine change of
/// unit moves no point).
#[component]
fn ValuePlot(
    observations: Vec<ValueObservation>,
    answer: Option<f64>,
    /// Whether the answer is given; a "Not sure" one is drawn as the closest reading.
    sure: bool,
    /// A value in the answer's unit, written in the chosen one.
    show: impl Fn(f64) -> String + Copy + Send + Sync + 'static,
    /// The chosen unit's `(scale, offset)` from the answer's, and a value in it, written.
    shown_in: impl Fn() -> (f64, f64) + Copy + Send + Sync + 'static,
    tick_label: impl Fn(f64) -> String + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let points: Vec<(usize, f64, &ValueObservation)> = observations
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.value.filter(|v| v.is_finite()).map(|v| (i, v, o)))
        .collect();
    if points.is_empty() {
        return view! { <p class="muted">"No observation converts to the answer's unit to plot."</p> }
            .into_any();
    }
    // The scale always holds the answer.
    let values = || {
        points
            .iter()
            .map(|p| p.1)
            .chain(answer.filter(|a| a.is_finite()))
    };
    let axis = Axis::over(
        values().fold(f64::INFINITY, f64::min),
        values().fold(f64::NEG_INFINITY, f64::max),
    );
    let circles = points
        .iter()
        .map(|(i, v, o)| {
            let (i, v) = (*i, *v);
            let cx = axis.x(v);
            let cy = 30.0 + (i % 4) as f64 * 22.0;
            let r = 4.0 + 9.0 * o.weight.clamp(0.0, 1.0);
            let group = o.group.name();
            let surface = o.surface.clone();
            let weight = o.weight;
            let label = move || {
                format!(
                    "{} — “{surface}”, weight {}, {group}",
                    show(v),
                    percent(weight)
                )
            };
            let aria = label.clone();
            // The <g> makes the macro build an SVG <a> (see the count plot).
            view! {
                <g>
                    <a href=format!("#{}", observation_anchor(i)) target="_self" class="plot-point" aria-label=aria>
                        <circle cx=format!("{cx:.1}") cy=format!("{cy:.1}") r=format!("{r:.1}") class=format!("obs-{group}")>
                            <title>{label}</title>
                        </circle>
                    </a>
                </g>
            }
        })
        .collect_view();
    let marker = answer.map(|a| {
        let x = axis.x(a);
        view! {
            <line x1=format!("{x:.1}") x2=format!("{x:.1}") y1="12" y2="118" class="plot-prediction"/>
            <text x=format!("{x:.1}") y="10" text-anchor=crate::views::plot::label_anchor(x) class="plot-label plot-answer" id="plot-answer">{move || format!("{} {}", if sure { "answer" } else { "closest reading" }, show(a))}</text>
        }
    });
    view! {
        <figure class="count-plot">
            <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="group" aria-label="Observed values, sized by retrieval weight">
                <AxisLine axis shown_in label=tick_label/>
                {marker}
                {circles}
            </svg>
            <figcaption>
                <ScaleNote axis/>
                <ul class="legend" aria-label="Colour legend">
                    {ObservationGroup::ALL
                        .iter()
                        .map(|g| view! { <li><span class=format!("swatch obs-{}", g.name())></span>{group_label(*g)}</li> })
                        .collect_view()}
                </ul>
            </figcaption>
        </figure>
    }
    .into_any()
}

/// The observations by group, each linking to its sentence.
#[component]
fn Groups(observations: Vec<ValueObservation>) -> impl IntoView {
    let groups = ObservationGroup::ALL
        .iter()
        .map(|group| {
            let members: Vec<(usize, &ValueObservation)> = observations
                .iter()
                .enumerate()
                .filter(|(_, o)| o.group == *group)
                .collect();
            let items = members
                .iter()
                .map(|(i, o)| {
                    let year = o.description.year.map(|y| format!(" ({y})")).unwrap_or_default();
                    let about = o.description.entity.clone().unwrap_or_default();
                    view! {
                        <li>
                            <a href=format!("#{}", observation_anchor(*i)) target="_self">{o.surface.clone()}</a>
                            <span class="muted small">{format!("{year} {about}")}</span>
                        </li>
                    }
                })
                .collect_view();
            let empty = members.is_empty();
            view! {
                <div class=format!("cnp-group obs-group-{}", group.name()) data-group=group.name()>
                    <h3>{format!("{} ({})", capitalised(group_label(*group)), members.len())}</h3>
                    {if empty {
                        view! { <p class="muted small">"none"</p> }.into_any()
                    } else {
                        view! { <ul>{items}</ul> }.into_any()
                    }}
                </div>
            }
        })
        .collect_view();
    view! { <div class="cnp-groups">{groups}</div> }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Every observation's sentence with the quantity highlighted, what it describes, and feedback.
#[component]
fn Evidence(observations: Vec<ValueObservation>, target: Option<FeedbackTarget>) -> impl IntoView {
    let items = observations
        .into_iter()
        .enumerate()
        .map(|(i, o)| {
            let mark = Mark {
                start: o.start,
                end: o.end,
                class: format!("count obs-{}", o.group.name()),
                label: format!("{} ({})", o.surface, o.group.name()),
            };
            let pieces = marked_text(&o.text, vec![mark]);
            let d = &o.description;
            // The document's title is said once: by where the sentence is, when that starts
            // with it (issue 101: "PELLINGHURST … · PELLINGHURST … · page 1").
            let entity = d.entity.clone().filter(|entity| {
                !o.context
                    .as_deref()
                    .is_some_and(|context| context.starts_with(entity.as_str()))
            });
            let described = [
                entity,
                (!d.concept.is_empty()).then(|| d.concept.join(" ")),
                d.year.map(|y| y.to_string()),
                d.unit.clone(),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ");
            let feedback = target.clone().map(|target| {
                view! {
                    <FeedbackForm
                        target
                        part=FeedbackPart::Observation
                        part_ref=observation_ref(&o)
                        verdicts=&[(Verdict::Relevant, "Relevant"), (Verdict::NotRelevant, "Not relevant")]
                        about=format!("observation {}", o.surface)
                    />
                }
            });
            view! {
                <article class="snippet observation" id=observation_anchor(i) tabindex="-1" data-group=o.group.name()>
                    <p>{pieces}</p>
                    <p class="snippet-source muted small">
                        {[
                            (!described.is_empty()).then(|| format!("describes: {described}")),
                            Some(format!("weight {}", percent(o.weight))),
                            Some(o.sentence_id.clone()),
                            o.context.clone().map(|context| format!("in {context}")),
                        ]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join(" · ")}
                    </p>
                    {o.context.clone().map(|source| view! { <ScanCrop source text=o.text.clone()/> })}
                    {feedback}
                </article>
            }
        })
        .collect_view();
    view! {
        <section class="snippets" aria-labelledby="evidence-title">
            <h3 id="evidence-title">"Evidence"</h3>
            {items}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_with_symbols_where_people_use_them() {
        let choice = |unit: &str, symbol: Option<&str>, scale: f64| UnitChoice {
            unit: unit.into(),
            unit_id: unit.into(),
            symbol: symbol.map(str::to_string),
            currency: false,
            scale,
            offset: 0.0,
        };
        let metre = choice("metre", Some("m"), 1.0);
        assert_eq!(in_unit(2.007, Some(&metre), Some("metre")), "2.01 m");
        let foot = choice("foot", Some("ft"), 3.28084);
        assert_eq!(in_unit(2.007, Some(&foot), Some("metre")), "6 ft 7 in");
        let day = choice("day", None, 1.0);
        assert_eq!(in_unit(3.0, Some(&day), Some("day")), "3 days");
        // Counted nouns have no unit switch: their name, in the plural.
        assert_eq!(in_unit(92542.0, None, Some("seat")), "92,542 seats");
        // Money as people write it (issue 73: "320 pound sterlings").
        let pound = UnitChoice {
            currency: true,
            ..choice("pound sterling", Some("£"), 1.0)
        };
        assert_eq!(in_unit(320.0, Some(&pound), Some("pound sterling")), "£320");
        assert_eq!(in_unit(4.5, Some(&pound), None), "£4.50");
        assert_eq!(in_unit(1250.0, Some(&pound), None), "£1,250");
        let franc = UnitChoice {
            currency: true,
            ..choice("swiss franc", Some("CHF"), 1.0)
        };
        assert_eq!(in_unit(12.0, Some(&franc), None), "CHF 12");
    }
}
