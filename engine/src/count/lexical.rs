//! The non-neural baseline (and fallback when no span model is available): a count candidate is
//! as confident as its noun matches the question's answer type and its sentence mentions the
//! question's other terms.

use super::candidates::CountCandidate;
use super::question::{words, QuestionAnalysis};
use tally_text::quantity::singular;

/// Confidence in [0, 1] of `candidate` (found in `text`) answering the analysed question.
pub fn lexical_confidence(
    analysis: &QuestionAnalysis,
    text: &str,
    candidate: &CountCandidate,
) -> f64 {
    let noun_words: Vec<String> = words(&candidate.noun).iter().map(|w| singular(w)).collect();
    let type_words: Vec<String> = words(&analysis.answer_type_singular);
    let noun_match = if noun_words.last().is_some_and(|h| *h == analysis.head) {
        1.0
    } else if noun_words.iter().any(|w| type_words.contains(w)) {
        0.6
    } else if noun_words.is_empty() {
        0.3
    } else {
        0.0
    };
    let sentence = sentence_around(text, candidate.span.start);
    let sentence_words: Vec<String> = words(sentence).iter().map(|w| singular(w)).collect();
    let others: Vec<String> = analysis
        .terms
        .iter()
        .map(|t| singular(t))
        .filter(|t| !type_words.contains(t))
        .collect();
    let overlap = if others.is_empty() {
        1.0
    } else {
        others.iter().filter(|t| sentence_words.contains(t)).count() as f64 / others.len() as f64
    };
    0.6 * noun_match + 0.4 * overlap
}

/// The sentence of `text` around byte `at` (split at ". ", "! ", "? " and line breaks).
pub fn sentence_around(text: &str, at: usize) -> &str {
    let at = at.min(text.len());
    let is_end = |w: &[u8]| matches!(w, [b'.' | b'!' | b'?', b' '] | [b'\n', _]);
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut end = text.len();
    for i in 0..bytes.len().saturating_sub(1) {
        if is_end(&bytes[i..i + 2]) {
            if i < at {
                start = i + 2;
            } else {
                end = i + 1;
                break;
            }
        }
    }
    let start = start.min(end);
    text.get(start..end).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::candidates::count_candidates;
    use crate::count::question::analyse;

    #[test]
    fn matching_noun_and_context_score_higher() {
        let a = analyse("how many songs did paul mccartney write for the beatles");
        let text = "McCartney wrote 71 songs for the Beatles. The band toured 12 countries.";
        let c = count_candidates(text);
        assert_eq!(c.len(), 2);
        let songs = lexical_confidence(&a, text, &c[0]);
        let countries = lexical_confidence(&a, text, &c[1]);
        assert!(songs >= 0.8, "{songs}");
        assert!(countries < 0.3, "{countries}");
    }

    #[test]
    fn sentences() {
        let t = "One. Two three! Four";
        assert_eq!(sentence_around(t, 0), "One.");
        assert_eq!(sentence_around(t, 6), "Two three!");
        assert_eq!(sentence_around(t, 18), "Four");
    }
}
