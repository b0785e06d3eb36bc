//! Instances read by the reader, as CoQEx explains a count: the question rewritten "how many X"
//! → "which X" is read by the trained span reader over the sentences that mention candidate
//! names, and each name gets the probability of the reader's best answer span inside it.
//!
//! Names still come from the rules of [`super::instances`] (spans have to be turned into names
//! somehow, and the rules' names are the ones the other scorings rank); the reader says which of
//! them the rewritten question points at.

use std::collections::HashMap;

use super::instances::{Instance, Reading};
use super::span_model::{passages_around, span_probability, SpanModel};
use crate::error::SpanModelError;

/// Reads `instances` under `which_question`: every sentence of `texts` that mentions one of them
/// is read once (cut to the reader's context around the mentions), and each instance gets its
/// best span probability and its per-snippet best summed over all snippets.
pub(super) fn read_instances(
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
    let read = model.scores(which_question, &passages)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::instances::find_instances;
    use crate::count::question::analyse;
    use crate::count::span_model::builtin_name_dir;

    /// The shipped name reader, asked "which …", reads the listed members as answer spans and
    /// passes over the sentence's other names (made-up places, so nothing is remembered). The
    /// count reader, never trained on names, read them all near 0 (about 1e-12).
    #[test]
    fn a_listed_name_is_read_as_an_answer_span() {
        let model = SpanModel::load(
            tally_encoder::Encoder::provisioned_minilm()
                .expect("the MiniLM is provisioned (scripts/setup.sh)"),
            &builtin_name_dir(),
        )
        .expect("the shipped name reader loads");
        let text = "Tourism in Velmora grew again. The Velmora archipelago has four inhabited \
                    islands: Tessa, Brann, Oskel and Lume, Mayor Dana Holt said.";
        let analysis = analyse("how many inhabited islands does velmora have");
        let instances = find_instances(&[text], &analysis);
        let names: Vec<&Instance> = instances.iter().collect();
        let readings = read_instances(&model, &analysis.which_question, &[text], &names)
            .expect("the reader reads");
        let best = |key: &str| readings.get(key).map_or(0.0, |r| r.best);
        let listed = ["tessa", "brann", "oskel", "lume"];
        let others: Vec<(&str, f64)> = instances
            .iter()
            .map(|i| i.key.as_str())
            // "Oskel and Lume" (one capitalised run) holds listed names: neither side.
            .filter(|k| !listed.iter().any(|l| k.contains(l)))
            .map(|k| (k, best(k)))
            .collect();
        assert!(
            others.iter().any(|(k, _)| k.contains("dana holt")),
            "{others:?}"
        );
        let weakest_listed = listed.iter().map(|k| best(k)).fold(f64::MAX, f64::min);
        let strongest_other = others.iter().map(|(_, b)| *b).fold(0.0, f64::max);
        assert!(
            weakest_listed > strongest_other,
            "listed {weakest_listed:.4} vs others {others:?}"
        );
        // The reader points at the list: its best reading is a listed name, and a clear one.
        let strongest_listed = listed.iter().map(|k| best(k)).fold(0.0, f64::max);
        assert!(strongest_listed > 0.1, "{readings:?}");
    }
}
