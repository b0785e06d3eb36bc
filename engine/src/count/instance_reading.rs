//! Instances read by the reader, as CoQEx explains a count: the question rewritten "how many X"
//! → "which X" is read by the trained span reader over the sentences that mention candidate
//! names, and each name gets the probability of the reader's best answer span inside it.
//!
//! Names still come from the rules of [`super::instances`] (spans have to be turned into names
//! somehow, and the rules' names are the ones the other scorings rank); the reader says which of
//! them the rewritten question points at.

use std::collections::HashMap;

use super::instances::{Instance, Reading};
use super::span_model::{passages_around, span_probability, SpanModel, SpanModelError};

/// Reads `instances` under `which_question`: every sentence of `texts` that mentions one of them
/// is read once (cut to the reader's context around the mentions), and each instance gets its
/// best span probability and its per-snippet best summed over all snippets.
pub fn read_instances(
    model: &SpanModel,
    which_question: &str,
    texts: &[&str],
    instances: &[&Instance],
) -> Result<HashMap<String, Reading>, SpanModelError> {
    let mut spans = vec![Vec::new(); texts.len()];
    for inst in instances {
        for m in &inst.mentions {
            if let Some(spans) = spans.get_mut(m.snippet) {
                spans.push(m.span.clone());
            }
        }
    }
    let passages = passages_around(texts, &spans, model.context_chars());
    let read = model.score(which_question, &passages)?;
    let mut windows_of: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, (window, _)) in read.iter().enumerate() {
        windows_of.entry(window.snippet).or_default().push(i);
    }
    let n = texts.len().max(1) as f64;
    let mut readings = HashMap::new();
    for inst in instances {
        // The best probability per snippet: a name near a window's edge is read in two windows.
        let mut per_snippet: HashMap<usize, f64> = HashMap::new();
        for m in &inst.mentions {
            let best = windows_of
                .get(&m.snippet)
                .into_iter()
                .flatten()
                .filter_map(|&i| span_probability(&read[i].0, &read[i].1, &m.span))
                .fold(0.0f32, f32::max);
            let slot = per_snippet.entry(m.snippet).or_insert(0.0);
            *slot = slot.max(f64::from(best));
        }
        readings.insert(
            inst.key.clone(),
            Reading {
                best: per_snippet.values().copied().fold(0.0, f64::max),
                summed: per_snippet.values().sum::<f64>() / n,
            },
        );
    }
    Ok(readings)
}
