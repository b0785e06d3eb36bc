//! `dense`: the qbm25 pool re-ranked by the encoder: w_cos · cosine(query, sentence) + w_text ·
//! normalised BM25 + α · 1[meets] · qs (the QColBERT idea with Tally's encoder).

use tally_types::search::Hit;

use super::{QueryRead, SentenceRanker};
use crate::error::EngineError;
use crate::search::settings::DenseWeights;
use crate::search::store::FirstStage;
use tally_documents::sentence_store::stored::StoredSentence;
use tally_documents::sentence_store::vectors::SentenceVectors;
use tally_encoder::cosine;
use tally_encoder::Encoder;
use tally_text::quantity::ParsedQuery;

/// Characters of a sentence the encoder reads: a window around its first matched quantity. The
/// encoder's cost grows with the square of its input, and a sentence cut from text without
/// sentence ends runs to 1,000 bytes; judged sentences are shorter (at most 229 characters in
/// Qsearch's dev file), so they are read whole.
const WINDOW_CHARS: usize = 400;

/// The part of `hit`'s sentence that the encoder reads (see [`WINDOW_CHARS`]).
fn encoded_window(hit: &Hit) -> &str {
    let centre = hit.matches.first().map_or(0, |m| (m.start + m.end) / 2);
    window_around(&hit.text, centre)
}

/// The part of a stored sentence that its stored vector encodes: the whole sentence when it is
/// short (as judged sentences are), else the window around its first quantity. A query reads a
/// stored vector only when it would encode the same text (vectors are keyed by the text), so a
/// long sentence whose match is another quantity is encoded at query time, as before.
pub(crate) fn vector_text(sentence: &StoredSentence) -> &str {
    let text = sentence.text.as_str();
    let centre = sentence.quantities.first().map_or(0, |q| {
        let start = text.get(..q.span.start).map_or(0, |s| s.chars().count());
        let length = text.get(q.span.clone()).map_or(0, |s| s.chars().count());
        start + length / 2
    });
    window_around(text, centre)
}

/// At most [`WINDOW_CHARS`] characters of `text` around character `centre`.
fn window_around(text: &str, centre: usize) -> &str {
    let length = text.chars().count();
    if length <= WINDOW_CHARS {
        return text;
    }
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

pub(crate) struct Dense<'a> {
    pub encoder: &'a Encoder,
    /// The sentences' vectors stored at ingestion, when the store keeps them.
    pub stored: Option<&'a SentenceVectors>,
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

    fn score(&self, asked: &QueryRead<'_>, hits: &mut [Hit]) -> Result<(), EngineError> {
        let similarities = cosines(self.encoder, self.stored, asked, hits)?;
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
/// which unit), as the encoder reads them. The query is encoded; a hit's sentence is read from
/// `stored` vectors when they hold it, and encoded with the others missing there otherwise.
pub(super) fn cosines(
    encoder: &Encoder,
    stored: Option<&SentenceVectors>,
    asked: &QueryRead<'_>,
    hits: &[Hit],
) -> Result<Vec<f64>, EngineError> {
    let query = encoder_query(asked.parsed, asked.words);
    let windows: Vec<&str> = hits.iter().map(encoded_window).collect();
    let keys: Vec<u64> = windows.iter().map(|w| SentenceVectors::key_of(w)).collect();
    let held = |key: &u64| stored.is_some_and(|s| s.contains(encoder.name(), *key));
    // The query and the sentences without a stored vector, in one batch (without stored vectors,
    // the batch the ranker always read).
    let mut missing: Vec<usize> = (0..hits.len()).filter(|&i| !held(&keys[i])).collect();
    let mut texts: Vec<&str> = vec![&query];
    texts.extend(missing.iter().map(|&i| windows[i]));
    let mut vectors = encoder.embed(&texts)?;
    let query_vector = vectors.remove(0);
    let mut similarities = match stored {
        Some(stored) => stored.cosines(encoder.name(), &query_vector, &keys),
        None => vec![None; hits.len()],
    };
    for (i, vector) in missing.iter().zip(&vectors) {
        similarities[*i] = Some(cosine(&query_vector, vector));
    }
    // A vector dropped since it was looked up (its corpus deleted meanwhile): encoded now.
    missing = (0..hits.len())
        .filter(|&i| similarities[i].is_none())
        .collect();
    if !missing.is_empty() {
        let late: Vec<&str> = missing.iter().map(|&i| windows[i]).collect();
        for (i, vector) in missing.iter().zip(encoder.embed(&late)?) {
            similarities[*i] = Some(cosine(&query_vector, &vector));
        }
    }
    Ok(similarities
        .into_iter()
        .map(|s| f64::from(s.unwrap_or(0.0)))
        .collect())
}

/// What an encoder reads of a query: its searched words and its constraints' unit names, no
/// numbers.
pub fn encoder_query(parsed: &ParsedQuery, words: &[String]) -> String {
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
