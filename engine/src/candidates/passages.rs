//! Candidates from what a corpus says outside its tables (issue 98): the numbers stated in the
//! passages that share the most words with the question (running text, `Label: value` lines,
//! definitions), and the items of its lists and the names of a table's column counted.

use tally_documents::corpus::structure::{Passage, Record};

use super::mention::cue_words;
use super::plan::{normalized, numbers_in};
use super::{PassageReading, Source};

/// How many passages a question's numbers are read from (those sharing the most words).
pub const MAX_PASSAGES: usize = 12;

/// A passage of one document.
#[derive(Debug, Clone)]
pub struct DocumentPassage {
    /// The document's name.
    pub document: String,
    /// The passage.
    pub passage: Passage,
}

/// Words that say nothing of what a passage is about.
const COMMON: &[&str] = &[
    "how", "many", "much", "what", "which", "the", "of", "in", "on", "at", "to", "for", "and",
    "or", "is", "are", "was", "were", "did", "do", "does", "a", "an", "by", "with", "there",
    "number", "total", "it", "its", "be", "been", "has", "have", "had", "that", "this", "from",
];

/// The numbers of the passages that share the most words with `question`, each with the
/// passage it was read from, the passages sharing most first.
pub fn passage_readings(question: &str, passages: &[DocumentPassage]) -> Vec<(f64, Source)> {
    let mut asked: Vec<String> = normalized(question)
        .split(' ')
        .filter(|w| w.len() > 2 && !COMMON.contains(w))
        .map(str::to_string)
        .collect();
    // "How heavy" shares a word with "Weight: 3.6 kg".
    asked.extend(cue_words(question).into_iter().map(str::to_string));
    let mut scored: Vec<(usize, usize)> = passages
        .iter()
        .enumerate()
        .filter(|(_, p)| !matches!(p.passage.record.as_deref(), Some(Record::TableRow { .. })))
        .map(|(i, p)| {
            let words = format!(
                " {} {} ",
                normalized(&p.passage.context),
                normalized(&p.passage.text)
            );
            let shared = asked
                .iter()
                .filter(|w| words.contains(&format!(" {w} ")))
                .count();
            (shared, i)
        })
        .filter(|(shared, _)| *shared > 0)
        .collect();
    scored.sort_by_key(|(shared, i)| (std::cmp::Reverse(*shared), *i));
    let mut readings = Vec::new();
    for (_, i) in scored.into_iter().take(MAX_PASSAGES) {
        let p = &passages[i];
        let source = |what| Source::Passage {
            document: p.document.clone(),
            context: p.passage.context.clone(),
            text: p.passage.text.clone(),
            what,
        };
        match p.passage.record.as_deref() {
            Some(Record::List { items, .. }) => {
                readings.push((items.len() as f64, source(PassageReading::Items)));
            }
            Some(Record::RowNames { names, .. }) => {
                readings.push((names.len() as f64, source(PassageReading::Items)));
            }
            _ => {}
        }
        for n in numbers_in(&p.passage.text) {
            readings.push((n, source(PassageReading::Stated)));
        }
        for n in super::mention::number_words(
            &normalized(&p.passage.text).split(' ').collect::<Vec<_>>(),
        ) {
            readings.push((n, source(PassageReading::Stated)));
        }
    }
    readings
}
