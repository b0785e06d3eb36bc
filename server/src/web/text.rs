//! Search engines return snippets as HTML fragments (`<strong>` around matched words, entities
//! such as `&amp;`); the count pipeline reads plain text.

/// `fragment` without tags, with entities decoded and runs of white space as one space.
pub fn plain_text(fragment: &str) -> String {
    let mut without_tags = String::with_capacity(fragment.len());
    let mut in_tag = false;
    let mut chars = fragment.chars().peekable();
    while let Some(c) = chars.next() {
        // A tag starts with `<` and a letter, `/` or `!`; a lone `<` ("3 < 4") is text.
        let opens_tag = c == '<'
            && chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!'));
        match c {
            _ if opens_tag => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => without_tags.push(c),
            _ => {}
        }
    }
    let decoded = html_escape::decode_html_entities(&without_tags);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
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
