//! BM25 over the descriptions of every quantity in a set of sentences (Cao et al.: matching a
//! question against what each number describes, not against whole sentences).

use std::collections::HashMap;

use super::{describe, normalise, raw_words, word_set, Description, ValueQuestion};
use crate::quantity::lexicon::is_function_word;
use crate::quantity::Quantity;
use crate::search::index::StoredSentence;

/// BM25's usual constants (Robertson et al.), not tuned here.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// One quantity of the corpus with its description.
#[derive(Debug, Clone)]
pub struct Observed {
    /// Index of its sentence in the slice the index was built from.
    pub sentence: usize,
    pub quantity: Quantity,
    pub description: Description,
}

/// A description index over the quantities of some sentences.
pub struct DescriptionIndex {
    observed: Vec<Observed>,
    postings: HashMap<String, Vec<(usize, u32)>>,
    lengths: Vec<f64>,
    mean_length: f64,
}

/// An observation and its retrieval score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranked {
    pub observed: usize,
    pub score: f64,
}

/// "2 hours, 17 minutes and 1 second" is one duration of 2.28 hours, not three observations:
/// consecutive durations in smaller and smaller units, joined by nothing but a comma or "and",
/// become one quantity in the first one's unit.
pub(crate) fn join_durations(text: &str, quantities: Vec<Quantity>) -> Vec<Quantity> {
    use crate::quantity::Value;
    let table = crate::UnitTable::builtin();
    let time_unit = |q: &Quantity| {
        q.unit
            .as_ref()
            .filter(|u| u.per.is_none())
            .and_then(|u| u.unit_id.as_deref())
            .and_then(|id| table.get(id))
            .filter(|u| u.dimension == "time")
    };
    let mut joined: Vec<Quantity> = Vec::with_capacity(quantities.len());
    // The factor of the smallest unit joined into each kept quantity so far.
    let mut smallest: Vec<Option<f64>> = Vec::with_capacity(quantities.len());
    for q in quantities {
        let unit = time_unit(&q);
        if let (Some(last), Some(Some(below)), Some(unit), Value::Single(part)) =
            (joined.last_mut(), smallest.last_mut(), unit, q.value)
        {
            let gap = text.get(last.span.end..q.span.start).unwrap_or("x");
            let joinable = gap
                .split(|c: char| c.is_whitespace() || c == ',')
                .all(|w| w.is_empty() || w == "and");
            let first_unit = time_unit(last);
            if let (true, true, Some(first_unit), Value::Single(total)) =
                (joinable, unit.factor < *below, first_unit, last.value)
            {
                if let Ok(added) = table.convert(part, unit, first_unit) {
                    last.value = Value::Single(total + added);
                    last.span.end = q.span.end;
                    *below = unit.factor;
                    continue;
                }
            }
        }
        smallest.push(unit.map(|u| u.factor));
        joined.push(q);
    }
    joined
}

/// Every word of the entity's name (without a parenthesised qualifier such as "(footballer)")
/// is among the question's words.
fn entity_named(entity: &str, asked: &std::collections::HashSet<String>) -> bool {
    let name = entity.split('(').next().unwrap_or(entity);
    let mut words = raw_words(name)
        .map(normalise)
        .filter(|w| !is_function_word(w))
        .peekable();
    words.peek().is_some() && words.all(|w| asked.contains(&w))
}

impl DescriptionIndex {
    pub fn build(sentences: &[StoredSentence]) -> DescriptionIndex {
        let mut observed = Vec::new();
        for (i, sentence) in sentences.iter().enumerate() {
            let cardinals: Vec<Quantity> = sentence
                .quantities
                .iter()
                .filter(|q| q.kind == crate::quantity::NumberKind::Cardinal && !q.overflow)
                .cloned()
                .collect();
            for quantity in &join_durations(&sentence.text, cardinals) {
                observed.push(Observed {
                    sentence: i,
                    description: describe(&sentence.text, quantity, sentence.entity.as_deref()),
                    quantity: quantity.clone(),
                });
            }
        }
        let mut postings: HashMap<String, Vec<(usize, u32)>> = HashMap::new();
        let mut lengths = Vec::with_capacity(observed.len());
        for (id, o) in observed.iter().enumerate() {
            let words = super::description_words(&o.description);
            lengths.push(words.len() as f64);
            let mut counts: HashMap<String, u32> = HashMap::new();
            for word in words {
                *counts.entry(normalise(&word)).or_default() += 1;
            }
            for (word, tf) in counts {
                postings.entry(word).or_default().push((id, tf));
            }
        }
        let mean_length = lengths.iter().sum::<f64>() / lengths.len().max(1) as f64;
        DescriptionIndex {
            observed,
            postings,
            lengths,
            mean_length,
        }
    }

    pub fn observed(&self, id: usize) -> &Observed {
        &self.observed[id]
    }

    pub fn len(&self) -> usize {
        self.observed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.observed.is_empty()
    }

    /// The `limit` best observations for the question (score > 0), of the question's dimension
    /// when it implies one; ties in order of the corpus.
    pub fn rank(&self, question: &ValueQuestion, limit: usize) -> Vec<Ranked> {
        let n = self.observed.len() as f64;
        let mut scores: HashMap<usize, f64> = HashMap::new();
        let mut seen = std::collections::HashSet::new();
        for word in &question.words {
            let word = normalise(word);
            if !seen.insert(word.clone()) {
                continue;
            }
            let Some(list) = self.postings.get(&word) else {
                continue;
            };
            let df = list.len() as f64;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            for &(id, tf) in list {
                let tf = tf as f64;
                let norm = K1 * (1.0 - B + B * self.lengths[id] / self.mean_length.max(1.0));
                *scores.entry(id).or_default() += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        let mut ranked: Vec<Ranked> = scores
            .into_iter()
            .filter(|(id, _)| match &question.dimension {
                Some(d) => self.observed[*id].description.dimension.as_deref() == Some(d),
                None => true,
            })
            .map(|(observed, score)| Ranked { observed, score })
            .collect();
        // A question that names an entity of the corpus ("… of Wembley Stadium") is about that
        // entity: observations of other entities go, however well their other words match.
        // (All the question's words: "Big Ben" keeps its "big".)
        let asked = word_set(&question.text);
        let named = |id: usize| {
            self.observed[id]
                .description
                .entity
                .as_deref()
                .is_some_and(|entity| entity_named(entity, &asked))
        };
        if ranked.iter().any(|r| named(r.observed)) {
            ranked.retain(|r| named(r.observed));
        }
        ranked.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.observed.cmp(&b.observed))
        });
        ranked.truncate(limit);
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::{extract_in_context, Value};

    #[test]
    fn a_duration_written_in_parts_is_one_observation() {
        let text = "Keitany completed it in 2 hours, 17 minutes and 1 second on Sunday.";
        let cardinals: Vec<Quantity> = extract_in_context(text)
            .into_iter()
            .filter(|q| q.kind == crate::quantity::NumberKind::Cardinal)
            .collect();
        let joined = join_durations(text, cardinals);
        assert_eq!(joined.len(), 1, "{joined:?}");
        let Value::Single(hours) = joined[0].value else {
            panic!("one value")
        };
        assert!((hours - (2.0 + 17.0 / 60.0 + 1.0 / 3600.0)).abs() < 1e-9);
        assert_eq!(
            &text[joined[0].span.clone()],
            "2 hours, 17 minutes and 1 second"
        );
        // Listed durations in growing units, or other words between, stay apart.
        let text = "It took 5 minutes, then 2 hours.";
        let cardinals = extract_in_context(text);
        assert_eq!(join_durations(text, cardinals).len(), 2);
    }
}
