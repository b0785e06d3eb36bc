//! Units known only from the context: a bare number that continues an earlier quantity of its
//! sentence ("68400 people … and 95800 who …", "3.9 million headsets, up from 2.4 million") takes
//! that quantity's unit. The earlier quantity must be close (at most [`MAX_WORDS_BETWEEN`] words
//! away, no sentence or clause end between), joined by a linking word, and of a similar size
//! (within a factor of [`MAX_RATIO`]), so "2 years" never lends its unit to "95800".

use super::{NumberKind, Quantity};

/// Words between the two quantities, at most.
pub(crate) const MAX_WORDS_BETWEEN: usize = 12;
/// How much larger one value may be than the other.
pub(crate) const MAX_RATIO: f64 = 20.0;
/// Words that join a quantity to the one it continues.
const LINKS: &[&str] = &[
    "from", "to", "and", "or", "versus", "vs", "against", "compared", "than", "while",
];

/// Gives bare cardinal numbers the unit of the earlier quantity they continue.
pub(crate) fn inherit_units(text: &str, quantities: &mut [Quantity]) {
    for i in 1..quantities.len() {
        let q = &quantities[i];
        if q.unit.is_some() || q.kind != NumberKind::Cardinal || looks_like_a_year(q) {
            continue;
        }
        let value = q.value.low().abs();
        let start = q.span.start;
        let mut lent = None;
        for j in (0..i).rev() {
            let earlier = &quantities[j];
            let Some(between) = text.get(earlier.span.end..start) else {
                break;
            };
            if between.contains(['.', ';', '!', '?', ':', '(', ')']) {
                break;
            }
            let words: Vec<String> = between
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            if words.len() > MAX_WORDS_BETWEEN {
                break;
            }
            let Some(unit) = &earlier.unit else {
                continue;
            };
            let other = earlier.value.low().abs();
            let similar =
                value > 0.0 && other > 0.0 && (value / other).max(other / value) <= MAX_RATIO;
            if similar && words.iter().any(|w| LINKS.contains(&w.as_str())) {
                lent = Some(unit.clone());
            }
            break;
        }
        if let Some(unit) = lent {
            quantities[i].unit = Some(unit);
        }
    }
}

/// A four-digit whole number between 1800 and 2100 ("in 2017"): a year, not a quantity to
/// give a unit.
fn looks_like_a_year(q: &Quantity) -> bool {
    let v = q.value.low();
    v.fract() == 0.0 && (1800.0..=2100.0).contains(&v)
}

#[cfg(test)]
mod tests {
    use crate::quantity::extract_in_context;

    fn units(text: &str) -> Vec<(f64, Option<String>)> {
        extract_in_context(text)
            .into_iter()
            .map(|q| (q.value.low(), q.unit.map(|u| u.name)))
            .collect()
    }

    #[test]
    fn a_bare_number_continuing_a_quantity_takes_its_unit() {
        let found =
            units("Sales rose to 3.9 million headsets, up from 2.4 million a year earlier.");
        assert_eq!(found[1], (2_400_000.0, Some("headset".into())), "{found:?}");
        let found = units("The club has 68400 members in the city and 95800 who live elsewhere.");
        assert_eq!(found[1].1.as_deref(), Some("member"), "{found:?}");
    }

    #[test]
    fn but_not_across_sentences_sizes_or_without_a_link() {
        // A different size: two years lend nothing to 95800.
        let found = units("They waited for two years and 95800 who did not.");
        assert!(
            found.iter().any(|(v, u)| *v == 95800.0 && u.is_none()),
            "{found:?}"
        );
        // A sentence ends between them.
        let found = units("It sold 300 cars. Another 250 were recalled.");
        assert!(
            found.iter().any(|(v, u)| *v == 250.0 && u.is_none()),
            "{found:?}"
        );
        // No linking word.
        let found = units("About 300 cars left; 250 stayed.");
        assert!(
            found.iter().any(|(v, u)| *v == 250.0 && u.is_none()),
            "{found:?}"
        );
    }
}
