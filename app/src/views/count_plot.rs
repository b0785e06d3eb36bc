//! The count plot: every snippet's chosen count at its value, sized by how likely it is and
//! coloured by its count phrase's class (CNP), the prediction a dashed line, with the colour
//! legend the study's pages show too.

use leptos::prelude::*;
use tally_types::count::{CnpClass, SnippetAnswer};

use crate::format::{likely, number};
use crate::views::plot::{Axis, AxisLine, ScaleNote, HEIGHT, WIDTH};
use crate::views::snippet_anchor;

/// Each CNP class as the plot and its legend say it.
const CNP_CLASSES: [(CnpClass, &str); 4] = [
    (CnpClass::Representative, "the answer's count phrase"),
    (CnpClass::Synonym, "synonym: counts the same thing"),
    (CnpClass::Subgroup, "subgroup: counts a part of it"),
    (
        CnpClass::Incomparable,
        "incomparable: counts something else",
    ),
];

/// What a chosen count phrase not used for the answer is called.
const UNUSED: &str = "too unlikely to count";

/// A chosen count phrase's class as the plot's labels say it (`None`: not used).
fn class_in_words(class: Option<CnpClass>) -> &'static str {
    CNP_CLASSES
        .iter()
        .find(|(c, _)| Some(*c) == class)
        .map_or(UNUSED, |(_, words)| words)
}

/// The style class of a chosen count phrase (`None`: not used).
pub(crate) fn cnp_style(class: Option<CnpClass>) -> String {
    format!("cnp-{}", class.map_or("unused", CnpClass::name))
}

/// A chosen count phrase on the count plot.
struct PlotPoint {
    snippet_id: String,
    text: String,
    count: f64,
    confidence: f64,
    /// Its CNP class when it was used for the answer.
    class: Option<CnpClass>,
}

/// Every snippet's chosen count at its value, sized by confidence and coloured by CNP class;
/// the prediction is the dashed line.
#[component]
pub(crate) fn CountPlot(snippets: Vec<SnippetAnswer>, prediction: Option<f64>) -> impl IntoView {
    let points: Vec<PlotPoint> = snippets
        .iter()
        .flat_map(|s| {
            s.spans
                .iter()
                .filter(|span| span.chosen)
                .map(move |span| PlotPoint {
                    snippet_id: s.id.clone(),
                    text: span.text.clone(),
                    count: span.count,
                    confidence: span.confidence,
                    class: span
                        .used
                        .then(|| span.cnp_class.unwrap_or(CnpClass::Incomparable)),
                })
        })
        .filter(|p| p.count.is_finite() && p.count > 0.0)
        .collect();
    if points.is_empty() {
        return view! { <p class="muted">"No snippet states a count to plot."</p> }.into_any();
    }
    // The scale always holds the answer, wherever the count phrases lie.
    let answer = prediction.filter(|p| p.is_finite() && *p > 0.0);
    let counts = || points.iter().map(|p| p.count).chain(answer);
    let axis = Axis::over(
        counts().fold(f64::INFINITY, f64::min),
        counts().fold(0.0, f64::max),
    );
    let circles = points
        .iter()
        .enumerate()
        .map(|(i, point)| {
            let PlotPoint {
                snippet_id: snippet,
                text,
                count,
                confidence,
                class,
            } = point;
            let cx = axis.x(*count);
            let cy = 30.0 + (i % 4) as f64 * 22.0;
            let r = 4.0 + 9.0 * confidence.clamp(0.0, 1.0);
            let label = format!(
                "{} — “{text}”, {}, {}",
                number(*count),
                likely(*confidence),
                class_in_words(*class)
            );
            let aria = label.clone();
            // The <g> makes the macro build an SVG <a>: rendered in the browser (after an answer
            // in place), an HTML <a> inside <svg> would be neither drawn nor followed.
            view! {
                <g>
                    <a href=format!("#{}", snippet_anchor(snippet)) target="_self" class="plot-point" aria-label=aria>
                        <circle cx=format!("{cx:.1}") cy=format!("{cy:.1}") r=format!("{r:.1}") class=cnp_style(*class)>
                            <title>{label}</title>
                        </circle>
                    </a>
                </g>
            }
        })
        .collect_view();
    let marker = prediction.filter(|p| *p > 0.0).map(|p| {
        let x = axis.x(p);
        view! {
            <line x1=format!("{x:.1}") x2=format!("{x:.1}") y1="12" y2="118" class="plot-prediction"/>
            <text x=format!("{x:.1}") y="10" text-anchor=crate::views::plot::label_anchor(x) class="plot-label plot-answer">{format!("answer {}", number(p))}</text>
        }
    });
    view! {
        <figure class="count-plot">
            <svg
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="group"
                aria-label="Candidate counts of the snippets, sized by how likely each is"
            >
                <AxisLine axis shown_in=|| (1.0, 0.0) label=number/>
                {marker}
                {circles}
            </svg>
            <figcaption>
                <ScaleNote axis/>
                <Legend/>
            </figcaption>
        </figure>
    }
    .into_any()
}

/// The colour legend for the marked snippets.
#[component]
pub fn Legend() -> impl IntoView {
    view! {
        <ul class="legend" aria-label="Colour legend">
            {CNP_CLASSES
                .iter()
                .map(|(class, text)| view! { <li><span class=format!("swatch {}", cnp_style(Some(*class)))></span>{*text}</li> })
                .collect_view()}
            <li><span class=format!("swatch {}", cnp_style(None))></span>{UNUSED}</li>
            <li><span class="swatch instance"></span>"instance"</li>
        </ul>
    }
}
