//! Count candidates: every count-modified noun phrase in a text ("73 songs", "estimated 700
//! languages", "nine Osmond siblings"), read with the quantity extractor so that Tally has one
//! number parser. ExtractCount ([`extract_count`]) turns a predicted span into its count.
//!
//! Not counts: fractions and other values in (0, 1), ordinals, multipliers, ranges, years and dates
//! (dropped by the extractor), and measurements with a unit of the unit table other than plain
//! counting units ("$5 million", "40 km", "12%", "30 years old").

use std::ops::Range;

use serde::{Deserialize, Serialize};

use tally_text::quantity::{extract, NumberKind, Quantity, Value};

/// A count-modified noun phrase found in a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountCandidate {
    /// Byte span of the whole phrase: modifiers ("estimated", "over"), number and noun phrase.
    pub span: Range<usize>,
    /// Byte span of the number alone ("700", "nine million").
    pub number_span: Range<usize>,
    /// The count, a whole number.
    pub count: f64,
    /// The counted noun phrase in singular form ("song", "Osmond sibling"); empty for a bare number.
    pub noun: String,
    /// The phrase as written.
    pub text: String,
}

/// Words that qualify a count and belong to its phrase ("estimated 700 languages").
const COUNT_MODIFIERS: &[&str] = &[
    "estimated",
    "more",
    "less",
    "fewer",
    "approximately",
    "about",
    "around",
    "roughly",
    "some",
    "over",
    "nearly",
    "almost",
    "just",
    "than",
    "least",
    "total",
    "only",
    "exactly",
    "all",
];

/// Every count candidate in `text`, in text order.
pub fn count_candidates(text: &str) -> Vec<CountCandidate> {
    extract(text)
        .into_iter()
        .filter_map(|q| candidate_from(text, &q))
        .collect()
}

/// ExtractCount: the count a predicted answer span stands for — the first count-like quantity in
/// it ("17", "1,200", "seventeen", "a dozen", "1.5 million", "9 million people").
pub fn extract_count(span_text: &str) -> Option<f64> {
    count_candidates(span_text).first().map(|c| c.count)
}

fn candidate_from(text: &str, quantity: &Quantity) -> Option<CountCandidate> {
    if quantity.kind != NumberKind::Cardinal || quantity.overflow {
        return None;
    }
    let Value::Single(value) = quantity.value else {
        return None;
    };
    // Counts are whole and positive; 0.5 is a fraction, not a count.
    if !(1.0..=1e13).contains(&value) {
        return None;
    }
    let noun = match &quantity.unit {
        None => String::new(),
        Some(unit) if unit.per.is_some() => return None,
        Some(unit) => match unit.dimension.as_deref() {
            None => unit.name.clone(),
            // Counting units of the table ("dozen", "times") are counts too.
            Some("count") => unit.name.clone(),
            Some(_) => return None,
        },
    };
    let number_end = quantity
        .unit
        .as_ref()
        .and_then(|u| text[quantity.span.clone()].rfind(&u.surface))
        .map(|i| quantity.span.start + i)
        .unwrap_or(quantity.span.end)
        .max(quantity.span.start);
    let start = modifiers_start(text, quantity.span.start);
    let span = start..quantity.span.end;
    Some(CountCandidate {
        text: text[span.clone()].to_string(),
        span,
        number_span: quantity.span.start..trim_end(text, quantity.span.start, number_end),
        count: value.round(),
        noun,
    })
}

/// Moves a phrase start back over up to two count modifiers ("more than", "estimated").
fn modifiers_start(text: &str, start: usize) -> usize {
    let mut start = start;
    for _ in 0..2 {
        let before = text[..start].trim_end();
        let word_start = before
            .rfind(|c: char| !c.is_alphanumeric())
            .map(|i| i + before[i..].chars().next().map_or(1, char::len_utf8))
            .unwrap_or(0);
        let word = before[word_start..].to_ascii_lowercase();
        if word.is_empty() || !COUNT_MODIFIERS.contains(&word.as_str()) {
            break;
        }
        start = word_start;
    }
    start
}

fn trim_end(text: &str, start: usize, end: usize) -> usize {
    start + text[start..end].trim_end().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(text: &str) -> Vec<(f64, String)> {
        count_candidates(text)
            .into_iter()
            .map(|c| (c.count, c.noun))
            .collect()
    }

    #[test]
    fn count_phrases_with_their_nouns() {
        assert_eq!(
            counts("Macca wrote 71 songs as the main composer."),
            vec![(71.0, "song".to_string())]
        );
        let c = count_candidates("an estimated 700 languages are spoken");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].count, 700.0);
        assert_eq!(c[0].text, "estimated 700 languages");
        assert_eq!(
            count_candidates("Its nine million people have been teetering")[0].count,
            9_000_000.0
        );
    }

    #[test]
    fn money_measurements_dates_and_fractions_are_not_counts() {
        assert!(counts("It cost $5 million and weighs 40 kg.").is_empty());
        assert!(counts("In 1991, the government collapsed.").is_empty());
        assert!(counts("Half of them, 0.5 of the total, came on 12 May.").is_empty());
        assert!(counts("He finished third.").is_empty());
    }

    #[test]
    fn extract_count_reads_spans() {
        assert_eq!(extract_count("17"), Some(17.0));
        assert_eq!(extract_count("1,200"), Some(1200.0));
        assert_eq!(extract_count("seventeen"), Some(17.0));
        assert_eq!(extract_count("a dozen eggs"), Some(12.0));
        assert_eq!(extract_count("1.5 million"), Some(1_500_000.0));
        assert_eq!(extract_count("9 million people"), Some(9_000_000.0));
        assert_eq!(extract_count("no number here"), None);
    }
}
