//! A verified answer (issue 87): the count or value the site's operator accepted from a
//! reader's judgment, shown first and labelled over the corpus it holds for, and said beside
//! Tally's own answer when the question is asked over all corpora.

use leptos::prelude::*;

use crate::format::count_or_value;

/// The count the site's operator accepted for this question, shown first and labelled; Tally's
/// own reading follows it.
#[component]
pub fn VerifiedView(
    /// The accepted answer.
    verified: tally_types::VerifiedAnswer,
) -> impl IntoView {
    let date = verified
        .accepted_at
        .get(..10)
        .unwrap_or(&verified.accepted_at)
        .to_string();
    let unit = verified.unit.as_ref();
    let what = if unit.is_some() { "value" } else { "count" };
    let from = match verified.tally_count {
        Some(own) if own == verified.count => format!("confirming Tally's own {what}"),
        Some(own) => format!("correcting Tally's {what} of {}", count_or_value(own, unit)),
        None => format!("where Tally gave no {what}"),
    };
    let shown = count_or_value(verified.count, unit);
    // A verified answer holds for the question over one corpus (issue 87).
    let holds_for = if verified.corpus == tally_types::count::ALL_CORPORA {
        "It holds for this question asked over all corpora.".to_string()
    } else {
        format!(
            "It holds for this question asked over the documents of “{}”.",
            verified.corpus
        )
    };
    view! {
        <section class="verified-answer" id="verified-answer" aria-labelledby="verified-title">
            <h2 id="verified-title" class="verified-label">"Verified answer"</h2>
            <p class="count-value" id="verified-count">{shown}</p>
            <p class="count-meta" id="verified-meta">
                {format!("Accepted by this site's operator on {date} from a reader's judgment, {from}.")}
            </p>
            <p class="count-meta scope-line" id="verified-scope">{holds_for}</p>
            {verified.note.map(|note| view! { <blockquote class="verified-note">{note}</blockquote> })}
            <p class="muted small">"Tally's own reading of the evidence follows."</p>
        </section>
    }
}

/// A reviewer's answer over one corpus, said when the question is asked over all corpora: the
/// verified value with a link to ask over that corpus. Tally's own answer stays the answer here
/// (the documents of other corpora may answer otherwise), but a correction is never silent.
#[component]
pub fn VerifiedElsewhere(
    /// The answer accepted over `verified.corpus`.
    verified: tally_types::VerifiedAnswer,
    /// The same question asked over that corpus.
    there: String,
) -> impl IntoView {
    let shown = count_or_value(verified.count, verified.unit.as_ref());
    let how = match verified.tally_count {
        Some(own) if own == verified.count => "confirming Tally's own answer there",
        Some(_) => "correcting Tally's answer there",
        None => "where Tally gave no answer",
    };
    view! {
        <p class="notice verified-elsewhere" id="verified-elsewhere" role="note">
            "A reviewer verified " <strong>{shown}</strong>
            {format!(" for this question asked over the documents of “{}”, {how} (", verified.corpus)}
            <a href=there id="verified-elsewhere-link">"ask there"</a>
            "). Over all corpora, Tally's own answer follows."
        </p>
    }
}
