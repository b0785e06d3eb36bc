//! The page's `<title>`: the one way pages set it, escaped by construction.
//!
//! `leptos_meta` writes a title's text into the server-rendered `<head>` as it is, so a question
//! in the title (`/?q=…</title><meta http-equiv="refresh" …>`) would become markup. Every page
//! sets its title through [`PageTitle`], whose formatter escapes the text on the server; in the
//! browser the title is set as `document.title`, which is text already.

use leptos::prelude::*;

/// The home page's title; every other page's is [`page_title`].
pub const HOME_TITLE: &str = "Tally: counts and quantities, with evidence";

/// A page's `<title>`: what it is, then the app.
pub fn page_title(page: &str) -> String {
    format!("{page} — Tally")
}

/// The title's text as it goes into the document: escaped for HTML on the server (the text of a
/// `<title>` element is parsed up to the next `</title>`), unchanged in the browser.
pub fn title_text(text: String) -> String {
    #[cfg(feature = "ssr")]
    {
        html_escape::encode_text(&text).into_owned()
    }
    #[cfg(not(feature = "ssr"))]
    {
        text
    }
}

/// Sets the page's `<title>` to `text`, which may hold visitor text (the question).
#[component]
pub fn PageTitle(
    /// The title's text.
    #[prop(into)]
    text: leptos::text_prop::TextProp,
) -> impl IntoView {
    // `leptos_meta::Title` is called here only: every title passes the escaping formatter.
    view! { <leptos_meta::Title text formatter=title_text/> }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    #[test]
    fn markup_in_a_title_stays_text() {
        let question = r#"how many moons </title><meta http-equiv="refresh" content="0;url=https://example.org/">"#;
        let text = title_text(page_title(question));
        assert!(!text.contains('<'), "{text}");
        assert!(
            text.starts_with("how many moons &lt;/title&gt;&lt;meta"),
            "{text}"
        );
    }
}
