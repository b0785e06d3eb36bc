//! Which of a corpus's documents a question is about (issue 99): over a person's files the
//! candidates come from every document that shares a word with the question, and the one that
//! names its subject ("Elm Road School", "the Ironleaf AP-300") is where the answer usually
//! is. Each document's words (its name, its tables' context, headers and cells, its passages)
//! are read once per corpus; a question weighs each document by the rarer of its words the
//! document holds, and the ranker reads where a candidate's document stands among them.

use std::collections::{HashMap, HashSet};

use super::asked::Asked;
use super::corpus::TableCorpus;
use super::passages::DocumentPassage;
use super::plan::normalized;

/// The words of each document of a corpus.
#[derive(Debug, Clone, Default)]
pub struct DocumentWords {
    /// Each document's words, by its key ([`document_key`]).
    words: HashMap<String, HashSet<String>>,
    /// In how many documents each word is.
    frequency: HashMap<String, usize>,
}

/// Where a document stands for a question.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Standing {
    /// How many documents weigh more.
    pub(super) rank: usize,
    /// Its weight against the heaviest document's (1 for the heaviest).
    pub(super) share: f32,
    /// Its weight against all the question's words' (1 when it holds every one).
    pub(super) covers: f32,
}

/// A document's name without the passage it points at, the section of a long document, or its
/// extension: "club.csv#4", "club.csv/2#5" and "club.csv" are the document "club" (a passage's
/// snippet id and a table's document name the same file so).
pub fn document_key(name: &str) -> String {
    let name = tally_documents::snippet_index::document_of(name);
    match name.rsplit_once('.') {
        Some((stem, extension))
            if !stem.is_empty()
                && (1..=5).contains(&extension.len())
                && extension.bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            stem.to_string()
        }
        _ => name,
    }
}

impl DocumentWords {
    /// Reads the words of the documents of `tables` (not their unions: a union's candidates
    /// stand where its best member does) and of `passages`.
    pub fn new(tables: &TableCorpus, passages: &[DocumentPassage]) -> Self {
        let mut words: HashMap<String, HashSet<String>> = HashMap::new();
        let originals = &tables.tables()[..tables.originals()];
        for table in originals {
            add_words(&mut words, &table.document, &document_key(&table.document));
        }
        // The tables' words as the corpus read them once (headers, cells, context).
        for (word, holding) in tables.words() {
            for table in holding.iter().filter_map(|&t| originals.get(t)) {
                words
                    .entry(document_key(&table.document))
                    .or_default()
                    .insert(word.clone());
            }
        }
        for p in passages {
            add_words(&mut words, &p.document, &document_key(&p.document));
            add_words(&mut words, &p.document, &p.passage.context);
            add_words(&mut words, &p.document, &p.passage.text);
        }
        let mut frequency: HashMap<String, usize> = HashMap::new();
        for held in words.values() {
            for word in held {
                *frequency.entry(word.clone()).or_default() += 1;
            }
        }
        DocumentWords { words, frequency }
    }

    /// Whether the corpus holds several documents: the ranker weighs its features and
    /// calibrates its probability otherwise there than over one table.
    pub fn several(&self) -> bool {
        self.words.len() > 1
    }

    /// Where each document stands for `asked`, by its key.
    pub(super) fn standings(&self, asked: &Asked) -> HashMap<String, Standing> {
        let documents = self.words.len().max(1) as f32;
        let weight = |word: &str| {
            let holding = self.frequency.get(word).copied().unwrap_or(0) as f32;
            (1.0 + documents / holding.max(1.0)).ln()
        };
        let total: f32 = asked.words.iter().map(|w| weight(w)).sum();
        let weights: Vec<(&String, f32)> = self
            .words
            .iter()
            .map(|(key, held)| {
                let weight: f32 = asked
                    .words
                    .iter()
                    .filter(|w| held.contains(w.as_str()))
                    .map(|w| weight(w))
                    .sum();
                (key, weight)
            })
            .collect();
        let heaviest = weights.iter().map(|(_, w)| *w).fold(0.0f32, f32::max);
        // Heaviest first: a document's rank is how many weigh more (ties share a rank).
        let mut descending: Vec<f32> = weights.iter().map(|(_, w)| *w).collect();
        descending.sort_by(|a, b| b.total_cmp(a));
        weights
            .iter()
            .map(|(key, w)| {
                let rank = descending.partition_point(|other| other > w);
                let standing = Standing {
                    rank,
                    share: if heaviest > 0.0 { w / heaviest } else { 0.0 },
                    covers: if total > 0.0 { w / total } else { 0.0 },
                };
                ((*key).clone(), standing)
            })
            .collect()
    }
}

/// Adds the words of `text` to those of `document`.
fn add_words(words: &mut HashMap<String, HashSet<String>>, document: &str, text: &str) {
    let held = words.entry(document_key(document)).or_default();
    for word in normalized(text).split(' ').filter(|w| !w.is_empty()) {
        if !held.contains(word) {
            held.insert(word.to_string());
        }
    }
}

/// Where the document named `document` stands; a union of tables ("a, b") stands where its
/// best member does.
pub(super) fn standing_of(
    standings: &HashMap<String, Standing>,
    document: &str,
) -> Option<Standing> {
    if let Some(standing) = standings.get(&document_key(document)) {
        return Some(*standing);
    }
    document
        .split(", ")
        .filter_map(|member| standings.get(&document_key(member)).copied())
        .min_by_key(|s| s.rank)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_named_without_its_passage_or_extension() {
        assert_eq!(document_key("club.csv#4"), "club");
        assert_eq!(document_key("report.pdf/2#5"), "report");
        assert_eq!(document_key("club.csv"), "club");
        assert_eq!(
            document_key("77-copsley-primary-federation"),
            "77-copsley-primary-federation"
        );
        assert_eq!(
            document_key("report v2.final draft"),
            "report v2.final draft"
        );
    }

    #[test]
    fn the_document_holding_the_questions_rarer_words_stands_first() {
        use tally_documents::corpus::structure::Passage;
        let passage = |document: &str, text: &str| DocumentPassage {
            document: format!("{document}#1"),
            passage: Passage {
                text: text.to_string(),
                context: String::new(),
                record: None,
                crop: None,
            },
        };
        let passages = [
            passage("elm-road.md", "Elm Road School has 214 pupils."),
            passage("federation.md", "The federation's schools have 346 pupils."),
            passage("harriers.md", "The club had 120 members in 1961."),
        ];
        let words = DocumentWords::new(&TableCorpus::default(), &passages);
        let standings = words.standings(&Asked::of("how many pupils go to elm road school"));
        let elm = standing_of(&standings, "elm-road.md#1").expect("read");
        let federation = standing_of(&standings, "federation").expect("read");
        assert_eq!(elm.rank, 0);
        assert_eq!(elm.share, 1.0);
        assert_eq!(federation.rank, 1);
        assert!(federation.share < 0.5, "{federation:?}");
        assert_eq!(
            standing_of(&standings, "harriers").map(|s| s.covers),
            Some(0.0)
        );
    }
}
