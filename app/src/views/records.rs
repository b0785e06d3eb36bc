//! A count, sum, average, largest or smallest computed over a table's rows (issue 74): the
//! result, the conditions read, and the table with the rows taken and those left out, so a
//! person checks the computation row by row.

use leptos::prelude::*;
use tally_types::count::{Abstention, Aggregation};

use tally_types::documents::{row_crop_source, ROW_CELLS_SEPARATOR};

use crate::views::scan_crop::crop_address;

/// The result and its table.
#[component]
pub fn AggregationView(
    /// The computation and its table.
    aggregation: Aggregation,
    /// Whether the result is given as the answer.
    answered: bool,
    /// How sure Tally is of the result.
    certainty: Option<tally_types::Certainty>,
    /// Why no answer is given, when none is.
    abstention: Option<String>,
) -> impl IntoView {
    // Declined with a result computed: "Not sure", as every kind says it (issue 87).
    let unsure = !answered && certainty.is_some_and(|c| c.reading.is_some());
    let headline = if answered {
        aggregation.headline()
    } else if unsure {
        "Not sure".to_string()
    } else {
        Abstention::HEADLINE.to_string()
    };
    let abstention = abstention.map(|why| crate::views::doubt::without_headline(&why));
    let explanation = aggregation.explanation();
    let conditions = (!aggregation.conditions.is_empty()).then(|| {
        view! {
            <p class="count-meta" id="aggregation-conditions">
                {format!("Condition read: {}", aggregation.conditions.join(" and "))}
            </p>
        }
    });
    let shown = aggregation.rows.len();
    let more = (shown < aggregation.rows_total).then(|| {
        view! {
            <p class="muted small">{format!("The first {shown} of {} rows are shown.", aggregation.rows_total)}</p>
        }
    });
    let header = aggregation.header.clone();
    let rows = aggregation.rows.clone();
    let document = aggregation.document.clone();
    view! {
        <p class="count-value" class:not-sure=unsure id="count-value" data-not-sure=unsure.then_some("true")>{headline}</p>
        <p class="count-meta" id="aggregation-explanation">{explanation}</p>
        {abstention.map(|why| view! { <p class="count-meta" id="abstention">{why}</p> })}
        {crate::views::doubt::certainty_line(certainty, answered)}
        {conditions}
        // Focusable: a box that scrolls on a phone must scroll from the keyboard too.
        <div class="table-scroll" tabindex="0" role="region" aria-label="The table's rows">
            <table class="aggregation-rows" id="aggregation-rows">
                <caption class="visually-hidden">"The table's rows: taken, or left out"</caption>
                <thead>
                    <tr>
                        <th scope="col">"taken"</th>
                        {header.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}
                        <th scope="col">"where"</th>
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|row| {
                            let class = if row.taken { "row-taken" } else { "row-left-out" };
                            // A row read by OCR shows the lines of the page it was read from.
                            let crop = row.place.as_deref().and_then(|place| {
                                crop_address(
                                    &row_crop_source(&document, place),
                                    &row.cells.join(ROW_CELLS_SEPARATOR),
                                )
                            });
                            view! {
                                <tr class=class>
                                    <td>{if row.taken { "yes" } else { "no" }}</td>
                                    {row.cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                                    <td>
                                        {row.place.unwrap_or_default()}
                                        {crop.map(|address| view! {
                                            <img class="scan-crop-row" src=address alt="The row as scanned" loading="lazy"/>
                                        })}
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
        {more}
    }
}
