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
    /// The stored answer's id.
    pub answer_id: i64,
    /// The answer's feedback key.
    pub key: String,
}

/// What a feedback form offers besides its verdict buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// Nothing besides the verdict buttons.
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
    /// Where the feedback goes.
    target: FeedbackTarget,
    /// The part of the answer judged.
    part: FeedbackPart,
    /// Which item of that part, when it has several.
    #[prop(optional, into)]
    part_ref: Option<String>,
    /// The verdict buttons, each with its label.
    verdicts: &'static [(Verdict, &'static str)],
    /// What the form offers besides its verdict buttons.
    #[prop(default = Extra::None)]
    extra: Extra,
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
                view! {
                    <span class="fb-ok" role="status">
                        {format!("Saved (#{}). Thank you: a reviewer reads each correction before it changes the answer.", saved.id)}
                    </span>
                }
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

/// What a whole-answer feedback form judges: a count, or a value (its correction's unit field
/// starting as `unit`, the answer's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JudgedAnswer {
    /// A count.
    Count,
    /// A value.
    Value {
        /// The unit the correction's field starts with.
        unit: String,
    },
}

/// Verdict buttons: each verdict with its label.
type Buttons = &'static [(Verdict, &'static str)];

/// How a whole-answer form reads for one kind of answer.
struct FormWords {
    noun: &'static str,
    extra: Extra,
    /// The buttons under an answer.
    answered: Buttons,
    /// The button of a page without one.
    missing: Buttons,
}

impl JudgedAnswer {
    fn words(&self) -> FormWords {
        match self {
            JudgedAnswer::Count => FormWords {
                noun: "count",
                extra: Extra::Correction,
                answered: &[(Verdict::Correct, "Correct"), (Verdict::Wrong, "Wrong")],
                missing: &[(Verdict::Wrong, "Send the right count")],
            },
            JudgedAnswer::Value { .. } => FormWords {
                noun: "value",
                extra: Extra::ValueCorrection,
                answered: &[
                    (Verdict::Correct, "Correct"),
                    (Verdict::Wrong, "Wrong: the right value"),
                ],
                missing: &[(Verdict::Wrong, "Send the right value")],
            },
        }
    }
}

/// Correct / Wrong on a whole count or value answer, with the right one; without an answer,
/// "I know the answer" with the right one and where it is stated, so that a person can teach
/// what Tally could not find (issue 73).
pub fn answer_feedback(target: FeedbackTarget, answered: bool, judged: JudgedAnswer) -> AnyView {
    let FormWords {
        noun,
        extra,
        answered: verdicts,
        missing,
    } = judged.words();
    let unit = match judged {
        JudgedAnswer::Value { unit } => unit,
        JudgedAnswer::Count => String::new(),
    };
    if answered {
        view! {
            <FeedbackForm target part=FeedbackPart::Answer verdicts extra unit about=format!("the {noun}")/>
        }
        .into_any()
    } else {
        view! {
            <div class="know-answer" id="know-answer">
                <p class="small">"I know the answer:"</p>
                <FeedbackForm target part=FeedbackPart::Answer verdicts=missing extra unit about=format!("the missing {noun}")/>
            </div>
        }
        .into_any()
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
