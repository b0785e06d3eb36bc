//! Feedback forms. Each posts to the `send_feedback` server function: without JavaScript the
//! browser posts the form and comes back to the page; once hydrated it is sent in place and the
//! outcome (saved, already saved, or why it failed) is shown beside the buttons.

use leptos::form::ActionForm;
use leptos::prelude::*;

use tally_types::{CnpGroup, FeedbackPart, Verdict};

use crate::backend::SendFeedback;

/// Where feedback goes: the stored answer and its feedback key.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedbackTarget {
    pub answer_id: i64,
    pub key: String,
}

/// What a feedback form offers besides its verdict buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    None,
    /// A corrected count and a comment (feedback on the whole answer).
    Correction,
    /// A corrected value with its unit, and a comment (feedback on a whole value answer).
    ValueCorrection,
    /// Moving a CNP to another group.
    MoveGroup,
}

/// Verdict buttons (`(verdict, label)`) for one part of an answer.
#[component]
pub fn FeedbackForm(
    target: FeedbackTarget,
    part: FeedbackPart,
    #[prop(optional, into)] part_ref: Option<String>,
    verdicts: &'static [(Verdict, &'static str)],
    #[prop(default = Extra::None)] extra: Extra,
    /// The unit a value correction's field starts with (the answer's: "£", "m").
    #[prop(optional, into)]
    unit: String,
    /// Names the thing judged, for screen readers ("instance Javanese").
    #[prop(into)]
    about: String,
) -> impl IntoView {
    let action = ServerAction::<SendFeedback>::new();
    let outcome = move || {
        action.value().get().map(|result| match result {
            Ok(saved) if saved.created => {
                view! { <span class="fb-ok" role="status">{format!("Saved (#{})", saved.id)}</span> }
                    .into_any()
            }
            Ok(saved) => view! {
                <span class="fb-ok" role="status">{format!("Already saved (#{})", saved.id)}</span>
            }
            .into_any(),
            Err(e) => view! { <span class="fb-error" role="alert">{error_text(&e)}</span> }.into_any(),
        })
    };
    let pending = action.pending();
    view! {
        <ActionForm action=action attr:class="feedback" attr:aria-label=format!("Feedback on {about}")>
            <input type="hidden" name="form[answer_id]" value=target.answer_id.to_string()/>
            <input type="hidden" name="form[part]" value=part.name()/>
            <input type="hidden" name="form[part_ref]" value=part_ref.unwrap_or_default()/>
            <input type="hidden" name="form[key]" value=target.key/>
            {match extra {
                Extra::None => ().into_any(),
                Extra::Correction => view! {
                    <label class="fb-field">
                        "Corrected count "
                        <input type="number" name="form[corrected_value]" min="0" max=tally_types::feedback::MAX_CORRECTED_COUNT step="1" inputmode="numeric"/>
                    </label>
                    <label class="fb-field">
                        "Comment "
                        <input type="text" name="form[comment]" maxlength="4000"/>
                    </label>
                }
                .into_any(),
                Extra::ValueCorrection => view! {
                    <label class="fb-field">
                        "Right value "
                        <input type="text" name="form[corrected_value]" inputmode="decimal" size="8" pattern="-?[0-9][0-9,]*(\\.[0-9]+)?" title="a number, such as 95 or 4.50"/>
                    </label>
                    <label class="fb-field">
                        "Unit "
                        <input type="text" name="form[corrected_unit]" value=unit.clone() size="6" maxlength="100"/>
                    </label>
                    <label class="fb-field">
                        "Where it is stated "
                        <input type="text" name="form[comment]" maxlength="4000"/>
                    </label>
                }
                .into_any(),
                Extra::MoveGroup => view! {
                    <label class="fb-field">
                        "Belongs with "
                        <select name="form[moved_to]">
                            <option value="">"(this group)"</option>
                            {CnpGroup::ALL
                                .map(|group| view! { <option value=group.name()>{group.name()}</option> })
                                .collect_view()}
                        </select>
                    </label>
                }
                .into_any(),
            }}
            {verdicts
                .iter()
                .map(|(verdict, label)| {
                    view! {
                        <button
                            type="submit"
                            name="form[verdict]"
                            value=verdict.name()
                            class=format!("fb-{}", verdict.name())
                            disabled=move || pending.get()
                        >
                            {*label}
                        </button>
                    }
                })
                .collect_view()}
            {outcome}
        </ActionForm>
    }
}

/// The message of a server function error, without the framework's prefix.
pub fn error_text(error: &ServerFnError) -> String {
    match error {
        ServerFnError::ServerError(message) => message.clone(),
        ServerFnError::Request(_) => {
            "The server could not be reached; your feedback was not sent. Try again.".into()
        }
        other => other.to_string(),
    }
}
