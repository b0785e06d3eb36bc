//! Search engines return snippets as HTML fragments (`<strong>` around matched words, entities
//! such as `&amp;`); the count pipeline reads plain text.

/// `fragment` without tags, with entities decoded and runs of white space as one space (read by
/// the same HTML reader as uploaded pages).
pub(crate) fn plain_text(fragment: &str) -> String {
    // A search result's few hundred characters are read long before the budget ends.
    let (_, text) = tally_documents::corpus::html_text::html_to_text(fragment).unwrap_or_default();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_go_entities_are_decoded_and_spaces_collapse() {
        assert_eq!(
            plain_text("Jupiter has <strong>95</strong> moons &amp; rings.\n  A &quot;gas&quot; giant&#39;s"),
            "Jupiter has 95 moons & rings. A \"gas\" giant's"
        );
        assert_eq!(plain_text("3 < 4 and <br/>5"), "3 < 4 and 5");
        assert_eq!(plain_text(""), "");
    }
}
