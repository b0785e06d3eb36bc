//! The app's views, one concept per module.

pub mod admin;
pub mod api;
pub mod ask;
pub mod count;
pub mod count_plot;
pub mod doubt;
pub mod feedback;
pub mod history;
pub mod login;
pub mod plot;
pub mod records;
pub mod review;
pub mod scan_crop;
pub mod search;
pub mod story;
pub mod study;
pub mod value;
pub mod verified;

use leptos::prelude::*;

use crate::format::{highlight, Mark};

/// `text` with `marks` as `<mark>` elements (class and title from each mark).
pub fn marked_text(text: &str, marks: Vec<Mark>) -> impl IntoView {
    highlight(text, marks)
        .into_iter()
        .map(|piece| match piece.mark {
            Some(mark) => {
                view! { <mark class=mark.class title=mark.label>{piece.text}</mark> }.into_any()
            }
            None => piece.text.into_any(),
        })
        .collect_view()
}

/// HTML id of a snippet's article.
pub fn snippet_anchor(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("snippet-{safe}")
}
