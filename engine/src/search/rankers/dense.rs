//! `dense`: the qbm25 pool re-ranked by the encoder: w_cos · cosine(query, sentence) + w_text ·
//! normalised BM25 + α · 1[meets] · qs (the QColBERT idea with Tally's encoder).

use tally_types::search::Hit;

use super::{QueryRead, SentenceRanker};
use crate::encoder::cosine;
use crate::quantity::ParsedQuery;
use crate::search::error::SearchError;
use crate::search::settings::DenseWeights;
use crate::search::store::FirstStage;
use crate::Encoder;

/// Characters of a sentence the encoder reads: a window around its first matched quantity. The
/// encoder's cost grows with the square of its input, and a sentence cut from text without
/// sentence ends runs to 1,000 bytes; judged sentences are shorter (at most 229 characters in
/// Qsearch's dev file), so they are read whole.
const WINDOW_CHARS: usize = 400;

/// The part of `hit`'s sentence that the encoder reads (see [`WINDOW_CHARS`]).
fn encoded_window(hit: &Hit) -> &str {
    let text = hit.text.as_str();
    let length = text.chars().count();
    if length <= WINDOW_CHARS {
        return text;
    }
    let centre = hit.matches.first().map_or(0, |m| (m.start + m.end) / 2);
    let start = centre
        .saturating_sub(WINDOW_CHARS / 2)
        .min(length - WINDOW_CHARS);
    let byte = |chars: usize| {
        text.char_indices()
            .nth(chars)
            .map_or(text.len(), |(i, _)| i)
    };
    &text[byte(start)..byte(start + WINDOW_CHARS)]
}

pub struct Dense<'a> {
    pub encoder: &'a Encoder,
    pub weights: DenseWeights,
}

impl SentenceRanker for Dense<'_> {
    fn reranks(&self) -> bool {
        true
    }

    fn first_stage(&self) -> FirstStage {
        FirstStage::Qbm25AndOtherWords {
            extra: WITHOUT_WORDS,
        }
    }

    fn score(&self, asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), SearchError> {
        let similarities = cosines(self.encoder, asked, hits)?;
        for (hit, similarity) in hits.iter_mut().zip(similarities) {
            hit.score = self.weights.cosine * similarity
                + self.weights.text * hit.text_score_normalised
                + asked.alpha * asked.quantity_term(hit);
        }
        Ok(())
    }
}

/// Sentences meeting every condition without the query's words added to the encoder's pool.
pub const WITHOUT_WORDS: usize = 30;

/// Each hit's cosine similarity to the query without its numbers (what is asked about, and in
/// which unit), as the encoder reads them.
pub(super) fn cosines(
    encoder: &Encoder,
    asked: &QueryRead<'_>,
    hits: &[Hit],
) -> Result<Vec<f64>, SearchError> {
    let query = encoder_query(asked.parsed, asked.words);
    let mut texts: Vec<&str> = vec![&query];
    texts.extend(hits.iter().map(encoded_window));
    let vectors = encoder.embed(&texts)?;
    Ok(vectors[1..]
        .iter()
        .map(|vector| f64::from(cosine(&vectors[0], vector)))
        .collect())
}

/// What an encoder reads of a query: its searched words and its constraints' unit names, no
/// numbers.
pub(crate) fn encoder_query(parsed: &ParsedQuery, words: &[String]) -> String {
    let mut query = words.join(" ");
    for unit in parsed.constraints.iter().filter_map(|c| c.unit.as_ref()) {
        query.push(' ');
        query.push_str(&unit.name);
    }
    query
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_types::search::QuantityMatch;

    fn hit(text: &str, matched: Option<(usize, usize)>) -> Hit {
        Hit {
            rank: 1,
            id: "s".into(),
            source: "test".into(),
            entity: None,
            text: text.into(),
            score: 0.0,
            text_score: 0.0,
            text_score_normalised: 0.0,
            quantity_score: 0.0,
            meets: Vec::new(),
            matches: matched
                .map(|(start, end)| QuantityMatch {
                    constraint: 0,
                    start,
                    end,
                    surface: String::new(),
                    converted: 0.0,
                    query_unit: None,
                })
                .into_iter()
                .collect(),
            also_in: Vec::new(),
        }
    }

    #[test]
    fn the_encoder_reads_a_long_sentence_around_its_matched_quantity() {
        let short = "The stadium holds 80,000 people.";
        assert_eq!(encoded_window(&hit(short, Some((18, 24)))), short);
        let long = format!("{}é 50 kg é{}", "a ".repeat(400), " b".repeat(400));
        let at = long.chars().position(|c| c == '5').unwrap();
        let around = hit(&long, Some((at, at + 5)));
        let window = encoded_window(&around);
        assert_eq!(window.chars().count(), WINDOW_CHARS);
        assert!(window.contains("é 50 kg é"), "{window}");
        // Without a match: the start; a match at the end: the last characters.
        assert!(encoded_window(&hit(&long, None)).starts_with("a a"));
        let end = long.chars().count();
        assert!(encoded_window(&hit(&long, Some((end - 1, end)))).ends_with(" b b"));
    }
}
