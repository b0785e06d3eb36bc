//! BM25 over the descriptions of every quantity in a set of sentences (Cao et al.: matching a
//! question against what each number describes, not against whole sentences).

use std::collections::HashMap;

use super::{describe, Description, ValueQuestion};
use crate::quantity::lexicon::is_function_word;
use crate::quantity::{singular, Quantity};
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

/// Every word of the entity's name (without a parenthesised qualifier such as "(footballer)")
/// is among the question's words.
fn entity_named(entity: &str, asked: &std::collections::HashSet<String>) -> bool {
    let name = entity.split('(').next().unwrap_or(entity);
    let mut words = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(normalise)
        .filter(|w| !is_function_word(w))
        .peekable();
    words.peek().is_some() && words.all(|w| asked.contains(&w))
}

fn normalise(word: &str) -> String {
    singular(&word.to_lowercase())
}

impl DescriptionIndex {
    pub fn build(sentences: &[StoredSentence]) -> DescriptionIndex {
        let mut observed = Vec::new();
        for (i, sentence) in sentences.iter().enumerate() {
            for quantity in &sentence.quantities {
                if quantity.kind != crate::quantity::NumberKind::Cardinal || quantity.overflow {
                    continue;
                }
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
            let words = o.description.words();
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
        let asked: std::collections::HashSet<String> = question
            .text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(normalise)
            .collect();
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
