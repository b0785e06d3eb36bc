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
    let mut words: Vec<String> = clause_words(before, true)
        .into_iter()
        .take(CONCEPT_WINDOW)
        .collect();
    words.reverse();
    for word in clause_words(after, false).into_iter().take(CONCEPT_WINDOW) {
        if !words.contains(&word) {
            words.push(word);
        }
    }
    words
}

/// The content words of `text` nearest to its end (`backwards`) or its start, up to the first
/// clause-ending mark.
fn clause_words(text: &str, backwards: bool) -> Vec<String> {
    let is_end = |c: char| matches!(c, '.' | ';' | ':' | ',' | '!' | '?');
    let clause = if backwards {
        text.rsplit(is_end).next().unwrap_or_default()
    } else {
        text.split(is_end).next().unwrap_or_default()
    };
    let mut words: Vec<String> = clause
        .split(|c: char| !(c.is_alphabetic() || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '-').to_lowercase())
        .filter(|w| w.chars().count() > 1 && !is_function_word(w))
        .collect();
    if backwards {
        words.reverse();
    }
    let mut seen = Vec::new();
    words.retain(|w| {
        let new = !seen.contains(w);
        seen.push(w.clone());
        new
    });
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
