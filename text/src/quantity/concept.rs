//! The words that say what a quantity measures ("revenue", "capacity", "deliveries"): the content
//! words nearest to it in its clause, up to [`CONCEPT_WINDOW`] on each side. A plain rule, for
//! showing a person what Tally reads; punctuation that ends a clause (`.`, `;`, `:`, `,`) ends the
//! search on that side.

use super::lexicon::is_function_word;
use super::Quantity;

/// Content words looked for on each side of a quantity.
pub const CONCEPT_WINDOW: usize = 4;

/// The concept words of `quantity` in `text`, in text order, lower case, each once.
pub fn concept_words(text: &str, quantity: &Quantity) -> Vec<String> {
    let span = quantity.span.clone();
    let before = text.get(..span.start).unwrap_or_default();
    let after = text.get(span.end..).unwrap_or_default();
    let is_end = |c: char| matches!(c, '.' | ';' | ':' | ',' | '!' | '?');
    // Only the clause around the quantity is read, and only as far as the words needed.
    let mut words = nearest_words(
        before
            .rsplit(is_end)
            .next()
            .unwrap_or_default()
            .rsplit(not_in_word),
    );
    words.reverse();
    let after_words = nearest_words(
        after
            .split(is_end)
            .next()
            .unwrap_or_default()
            .split(not_in_word),
    );
    for word in after_words {
        if !words.contains(&word) {
            words.push(word);
        }
    }
    words
}

/// The words of the label a `Label: value` line gives `quantity` ("Apple juice 750ml: £3.10"
/// → apple, juice, ml), nearest last as read; none when the quantity does not follow a label's
/// colon. A receipt's item, an infobox's field and a spec sheet's line say what their number
/// is only there: the colon ends the clause [`concept_words`] reads.
pub fn label_words(text: &str, quantity: &Quantity) -> Vec<String> {
    let before = text
        .get(..quantity.span.start)
        .unwrap_or_default()
        .trim_end();
    let Some(label) = before.strip_suffix(':') else {
        return Vec::new();
    };
    let is_end = |c: char| matches!(c, '.' | ';' | ':' | '!' | '?' | '|');
    let mut words = nearest_words(
        label
            .rsplit(is_end)
            .next()
            .unwrap_or_default()
            .rsplit(not_in_word),
    );
    words.reverse();
    words
}

fn not_in_word(c: char) -> bool {
    !(c.is_alphabetic() || c == '\'' || c == '-')
}

/// The first [`CONCEPT_WINDOW`] content words of `pieces` (nearest first), lower case, each once.
fn nearest_words<'a>(pieces: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut words: Vec<String> = Vec::with_capacity(CONCEPT_WINDOW);
    for piece in pieces {
        let word = piece.trim_matches(|c| c == '\'' || c == '-').to_lowercase();
        if word.chars().count() > 1 && !is_function_word(&word) && !words.contains(&word) {
            words.push(word);
            if words.len() == CONCEPT_WINDOW {
                break;
            }
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::extract;

    fn concepts(text: &str) -> Vec<Vec<String>> {
        extract(text)
            .iter()
            .map(|q| concept_words(text, q))
            .collect()
    }

    #[test]
    fn a_label_before_a_colon_says_what_its_number_is() {
        let labels = |text: &str| -> Vec<Vec<String>> {
            extract(text).iter().map(|q| label_words(text, q)).collect()
        };
        assert_eq!(
            labels("Rye crackers: £1.85"),
            vec![vec!["rye".to_string(), "crackers".to_string()]]
        );
        assert_eq!(
            labels("Junior, Annual fee: £95")[0],
            ["junior", "annual", "fee"]
        );
        // Only the label's own line, and only before a colon.
        assert_eq!(labels("Paid in full. Card: £26.80")[0], ["card"]);
        assert!(labels("The fee is £95 a year")[0].is_empty());
    }

    #[test]
    fn the_words_around_a_quantity_in_its_clause() {
        assert_eq!(
            concepts("Apple's revenue in the quarter rose to $89.5 billion, the company said."),
            vec![vec!["apple's", "revenue", "quarter", "rose"]]
        );
        assert_eq!(
            concepts("The stadium has a capacity of 90,000 seats."),
            vec![vec!["stadium", "capacity"]]
        );
        // Each quantity keeps to its own clause.
        let two = concepts("Tesla delivered 499,550 cars in 2020; Ford sold 1.9 million trucks.");
        assert!(
            two[0].contains(&"tesla".to_string()) && !two[0].contains(&"ford".to_string()),
            "{two:?}"
        );
    }
}
