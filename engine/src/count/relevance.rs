//! Whether a passage is about the question's subject (issue 47).
//!
//! The benchmarks' snippet sets were gathered for one question each, so every snippet is about
//! it. A question answered from a whole corpus (a person's own documents, a question the corpus
//! was not gathered for) gets BM25's top passages, many about other things that merely share a
//! word; their counts must not become the answer. A passage's relevance is the share of the
//! question's subject words (the content words besides the counted noun) that it or its source
//! (a title, a file name) contains, each word weighted by its rarity in the corpus: naming
//! "Marrowby" says far more than naming "museum".

use super::question::{is_stop, QuestionAnalysis};
use tally_documents::corpus::datasets::Snippet;
use tally_text::quantity::singular;

pub(crate) use tally_documents::rarity::WordRarity;

/// The question's subject words (singular, lower case) with their weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Subject {
    words: Vec<(String, f64)>,
}

impl Subject {
    /// The words of the question's entities, weighed by `rarity`. A question without entities
    /// ("how many bones are in the body") has an empty subject, which every passage is about.
    pub fn of(analysis: &QuestionAnalysis, rarity: &dyn WordRarity) -> Self {
        let mut unique: Vec<String> = Vec::new();
        let words = analysis
            .entities
            .iter()
            .flat_map(|phrase| plain_words(phrase));
        // A number ("in 2019") says when or which, not what the passage is about.
        for w in words.filter(|w| !is_stop(w) && !w.chars().all(|c| c.is_ascii_digit())) {
            if !unique.contains(&w) {
                unique.push(w);
            }
        }
        // The corpus holds words as written; a question's singular may be rarer than its plural.
        let forms: Vec<String> = unique.iter().map(|w| singular(w)).collect();
        let weights_as_asked = rarity.rarity(&unique);
        let weights_singular = rarity.rarity(&forms);
        Self {
            words: forms
                .into_iter()
                .zip(weights_as_asked.into_iter().zip(weights_singular))
                .map(|(w, (a, s))| (w, a.min(s).max(0.0)))
                .collect(),
        }
    }

    /// Whether there are no subject words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The subject in words, for sentences shown to people ("marrowby museum art").
    pub fn describe(&self) -> String {
        self.words
            .iter()
            .map(|(w, _)| w.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The share of the subject's weight that `text` or `source` names, in [0, 1]; 1 for an
    /// empty subject.
    pub fn relevance(&self, text: &str, source: &str) -> f64 {
        let total: f64 = self.words.iter().map(|(_, weight)| weight).sum();
        if self.words.is_empty() || total <= 0.0 {
            return 1.0;
        }
        let mut present: Vec<String> = plain_words(text)
            .chain(plain_words(source))
            .map(|w| singular(&w))
            .collect();
        present.sort_unstable();
        present.dedup();
        let named: f64 = self
            .words
            .iter()
            .filter(|(w, _)| present.binary_search(w).is_ok())
            .map(|(_, weight)| weight)
            .sum();
        named / total
    }

    /// Which snippets are about the subject: relevance of their text and source at least `min`.
    pub fn related(&self, snippets: &[Snippet], min: f64) -> Vec<bool> {
        snippets
            .iter()
            .map(|s| self.relevance(&s.text, &s.source) >= min - 1e-9)
            .collect()
    }
}

/// Lower-case alphanumeric words ("09-seward-hospital.txt" → "09", "seward", "hospital", "txt").
fn plain_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::question::analyse;
    use tally_documents::rarity::{inverse_document_frequency, SameRarity};

    /// Rarity read from a table: words not in it are common (weight 0.1).
    struct Table(&'static [(&'static str, f64)]);

    impl WordRarity for Table {
        fn rarity(&self, words: &[String]) -> Vec<f64> {
            words
                .iter()
                .map(|w| {
                    self.0
                        .iter()
                        .find(|(t, _)| t == w)
                        .map_or(0.1, |(_, weight)| *weight)
                })
                .collect()
        }
    }

    #[test]
    fn a_passage_naming_the_rare_subject_word_is_about_the_question() {
        let analysis = analyse("how many paintings does the Marrowby Museum of Art own");
        let subject = Subject::of(&analysis, &Table(&[("marrowby", 5.0), ("museum", 1.0)]));
        assert!(!subject.is_empty());
        let own = subject.relevance("The Marrowby owns 340 paintings.", "");
        let other = subject.relevance("The city museum of art owns 90 paintings.", "");
        assert!(own > 0.7, "{own}");
        assert!(other < 0.3, "{other}");
        // A paragraph that names only "the museum" is about it when its source names the rest.
        let titled = subject.relevance("The museum lends 25 a year.", "01-marrowby-museum.txt");
        assert!(titled > 0.7, "{titled}");
        let snippet = |text: &str| Snippet {
            id: String::new(),
            text: text.to_string(),
            source: String::new(),
            answers: Vec::new(),
            record: None,
        };
        assert_eq!(
            subject.related(
                &[
                    snippet("The Marrowby owns 340 paintings."),
                    snippet("A museum.")
                ],
                0.5
            ),
            vec![true, false]
        );
    }

    #[test]
    fn a_question_without_a_subject_finds_every_passage_related() {
        let analysis = analyse("how many bones");
        let subject = Subject::of(&analysis, &SameRarity);
        assert!(subject.is_empty(), "{subject:?}");
        assert_eq!(subject.relevance("Nothing at all.", ""), 1.0);
    }

    #[test]
    fn rarer_words_weigh_more() {
        assert!(inverse_document_frequency(10_000, 2) > inverse_document_frequency(10_000, 900));
        assert!(inverse_document_frequency(10_000, 10_000) > 0.0);
    }
}
