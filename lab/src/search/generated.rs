//! Generated quantity queries for training a ranker (the way QColBERT, QSPLADE and DeepQuant
//! are trained): a sentence's quantity becomes a condition query on its concept words ("capacity
//! more than 70000 people"), with a bound chosen so that the sentence meets it, written in one
//! of several wordings. Every query is read back by the query parser and kept only when the
//! parser reads the condition that was meant and the source sentence meets it; its sentences are
//! then labelled by the same condition test the index uses:
//!
//! - positive: the concept words around a quantity that meets the condition;
//! - [`NegativeKind::ConditionMissed`]: the concept words around a compatible quantity, none
//!   meeting it (same words, condition not met);
//! - [`NegativeKind::OtherUnit`]: the concept words around a quantity of another unit only;
//! - [`NegativeKind::OtherConcept`]: a compatible quantity that meets the condition, without the
//!   concept words.
//!
//! Sentences the caller excludes (the judged queries' sentences) are never read.

use std::collections::{HashMap, HashSet};

use super::token_vectors::Triple;
use tally_documents::sentence_store::conditions::{meeting_score, Test};
use tally_documents::sentence_store::keys::{entries, Entry};
use tally_documents::sentence_store::stored::StoredSentence;
use tally_engine::search::rank::search_words;
use tally_engine::search::rankers::encoder_query;
use tally_text::quantity::concept::concept_words;
use tally_text::quantity::description::{normalise, word_set};
use tally_text::quantity::{parse_query, Condition, NumberKind, Quantity, Value};
use tally_text::random::SplitMix64;

/// Why a sentence does not answer a generated query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NegativeKind {
    /// Its quantity is compatible but fails the query's condition.
    ConditionMissed,
    /// Its quantity is of another unit only.
    OtherUnit,
    /// Its quantity meets the condition, but the sentence is about another concept.
    OtherConcept,
}

/// A generated query with its labelled sentences (indexes into the sentences given).
#[derive(Debug, Clone)]
pub struct GeneratedQuery {
    /// The query's text.
    pub query: String,
    /// The quantity condition the query asks for.
    pub condition: Condition,
    /// The sentence it was made from (also among the positives).
    pub source: usize,
    /// Sentences that answer the query.
    pub positives: Vec<usize>,
    /// Sentences that do not, each with why.
    pub negatives: Vec<(usize, NegativeKind)>,
}

/// How many queries are generated, and from which draws.
#[derive(Debug, Clone, Copy)]
pub struct GeneratorSettings {
    /// Most queries made.
    pub queries: usize,
    /// Most negatives of each kind per query.
    pub negatives_per_kind: usize,
    /// Seed of the random draws.
    pub seed: u64,
}

impl Default for GeneratorSettings {
    fn default() -> Self {
        GeneratorSettings {
            queries: 20_000,
            negatives_per_kind: 4,
            seed: 62,
        }
    }
}

/// What became of the attempts, for the training log.
#[derive(Debug, Clone, Copy, Default)]
pub struct GeneratorCounts {
    /// Sentences read.
    pub sentences_read: usize,
    /// Quantities with a unit among them.
    pub quantities_with_units: usize,
    /// Queries attempted.
    pub attempted: usize,
    /// Read back with another condition, or the source failing it.
    pub rejected_by_parser: usize,
    /// Queries kept.
    pub kept: usize,
}

/// One quantity of a sentence that a query can be made from.
struct Reading {
    sentence: usize,
    quantity: Quantity,
    concept: Vec<String>,
}

/// The wordings of each condition: `{c}` the concept words, `{q}` the bound with its unit.
const WORDINGS: &[(Condition, &[&str])] = &[
    (
        Condition::Greater,
        &[
            "{c} more than {q}",
            "{c} of over {q}",
            "with {c} above {q}",
            "{c} greater than {q}",
            "{c} exceeding {q}",
        ],
    ),
    (
        Condition::AtLeast,
        &["{c} of at least {q}", "with {c} of at least {q}"],
    ),
    (
        Condition::Less,
        &[
            "{c} less than {q}",
            "{c} under {q}",
            "with {c} below {q}",
            "{c} smaller than {q}",
        ],
    ),
    (
        Condition::AtMost,
        &["{c} of at most {q}", "{c} of no more than {q}"],
    ),
    (
        Condition::Range,
        &["{c} between {q}", "with {c} between {q}"],
    ),
    (
        Condition::Approx,
        &["{c} of about {q}", "with {c} around {q}"],
    ),
];

/// Generates queries from `sentences`, never reading those whose text is in `excluded`.
pub fn generate(
    sentences: &[StoredSentence],
    excluded: &HashSet<String>,
    settings: &GeneratorSettings,
) -> (Vec<GeneratedQuery>, GeneratorCounts) {
    let mut counts = GeneratorCounts::default();
    let readings = readings(sentences, excluded, &mut counts);
    let mut by_word: HashMap<&str, Vec<usize>> = HashMap::new();
    for (r, reading) in readings.iter().enumerate() {
        for word in &reading.concept {
            by_word.entry(word.as_str()).or_default().push(r);
        }
    }
    let words_of: Vec<HashSet<String>> = sentences
        .iter()
        .map(|s| {
            if excluded.contains(&s.text) {
                HashSet::new()
            } else {
                word_set(&s.text)
            }
        })
        .collect();
    let mut random = SplitMix64::new(settings.seed);
    let mut order: Vec<usize> = (0..readings.len()).collect();
    random.shuffle(&mut order);
    let mut used_sentences = HashSet::new();
    let mut queries = Vec::new();
    for r in order {
        if queries.len() >= settings.queries {
            break;
        }
        let reading = &readings[r];
        // One query per sentence: a corpus's long sentences would otherwise dominate.
        if !used_sentences.insert(reading.sentence) {
            continue;
        }
        counts.attempted += 1;
        let Some(query) = make_query(reading, &mut random) else {
            continue;
        };
        let Some(labelled) = label(
            query,
            reading,
            &readings,
            &by_word,
            &words_of,
            settings,
            &mut random,
        ) else {
            counts.rejected_by_parser += 1;
            continue;
        };
        queries.push(labelled);
    }
    counts.kept = queries.len();
    (queries, counts)
}

/// The quantities a query can be made from: a single positive value with a unit, and concept
/// words other than the unit's.
fn readings(
    sentences: &[StoredSentence],
    excluded: &HashSet<String>,
    counts: &mut GeneratorCounts,
) -> Vec<Reading> {
    let mut readings = Vec::new();
    for (i, sentence) in sentences.iter().enumerate() {
        if excluded.contains(&sentence.text) {
            continue;
        }
        counts.sentences_read += 1;
        for quantity in &sentence.quantities {
            let Some(unit) = &quantity.unit else {
                continue;
            };
            let positive = matches!(quantity.value, Value::Single(v) if v > 0.0 && v.is_finite());
            if !positive || quantity.kind == NumberKind::Ordinal || entries(quantity).is_empty() {
                continue;
            }
            counts.quantities_with_units += 1;
            let unit_words = word_set(&unit.surface);
            // Words written in lower case (a capitalised one names something; a query asks
            // for a kind of thing), nearest the quantity first.
            let mut near: Vec<(usize, String)> = concept_words(&sentence.text, quantity)
                .iter()
                .filter(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_lowercase()))
                .filter_map(|w| {
                    let distance = lower_case_distance(&sentence.text, w, quantity.span.start)?;
                    Some((distance, normalise(w)))
                })
                .filter(|(_, w)| !unit_words.contains(w))
                .collect();
            near.sort();
            let concept: Vec<String> = near.into_iter().map(|(_, w)| w).collect();
            if concept.is_empty() {
                continue;
            }
            readings.push(Reading {
                sentence: i,
                quantity: quantity.clone(),
                concept,
            });
        }
    }
    readings
}

/// Bytes from `at` to the nearest place `word` is written whole, in lower case, in `text`.
fn lower_case_distance(text: &str, word: &str, at: usize) -> Option<usize> {
    let is_word = |c: char| c.is_alphanumeric();
    text.match_indices(word)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
        .map(|(i, _)| i.abs_diff(at))
        .min()
}

/// A query for `reading` (its text and the condition meant), or `None` when its unit cannot be
/// written back.
fn make_query(reading: &Reading, random: &mut SplitMix64) -> Option<(String, Condition)> {
    let Value::Single(value) = reading.quantity.value else {
        return None;
    };
    let unit = reading.quantity.unit.as_ref()?;
    let (condition, wordings) = *random.pick(WORDINGS);
    let wording = *random.pick(wordings);
    let factor = [0.5, 0.7, 0.9][random.below(3)];
    let number = |x: f64| format_number(round_two_digits(x));
    let bound = match condition {
        Condition::Greater | Condition::AtLeast => number(value * factor),
        Condition::Less | Condition::AtMost => number(value / factor),
        Condition::Range => format!("{} and {}", number(value * factor), number(value / factor)),
        _ => number(value),
    };
    let surface = unit.surface.trim();
    let symbol_first = !surface.chars().any(char::is_alphabetic);
    let with_unit = if symbol_first {
        match condition {
            Condition::Range => format!(
                "{surface}{} and {surface}{}",
                number(value * factor),
                number(value / factor)
            ),
            _ => format!("{surface}{bound}"),
        }
    } else {
        format!("{bound} {surface}")
    };
    // The concept words nearest the quantity come first in a query people write.
    let take = 1 + random.below(2).min(reading.concept.len() - 1);
    let concept = reading.concept[..take].join(" ");
    let text = wording.replace("{c}", &concept).replace("{q}", &with_unit);
    Some((text, condition))
}

/// The query read back and its sentences labelled; `None` when the parser does not read the
/// condition meant or the source sentence fails it.
fn label(
    (query, condition): (String, Condition),
    reading: &Reading,
    readings: &[Reading],
    by_word: &HashMap<&str, Vec<usize>>,
    words_of: &[HashSet<String>],
    settings: &GeneratorSettings,
    random: &mut SplitMix64,
) -> Option<GeneratedQuery> {
    let parsed = parse_query(&query);
    let [constraint] = parsed.constraints.as_slice() else {
        return None;
    };
    if constraint.condition != condition {
        return None;
    }
    let test = Test::new(constraint, 1.0);
    let tests = std::slice::from_ref(&test);
    let meets = |q: &Quantity| meeting_score(tests, &entries(q)).is_some();
    let compatible = |q: &Quantity| {
        entries(q)
            .iter()
            .any(|e: &Entry| test.keys.iter().any(|(k, _)| *k == e.key))
    };
    if !meets(&reading.quantity) {
        return None;
    }
    let concept: Vec<&String> = reading
        .concept
        .iter()
        .filter(|w| query.contains(w.as_str()))
        .collect();
    let first = concept.first()?;
    // Per sentence: whether a quantity with the concept words meets, or is compatible.
    let mut with_words: HashMap<usize, (bool, bool)> = HashMap::new();
    for &r in by_word.get(first.as_str()).into_iter().flatten() {
        let other = &readings[r];
        if !concept.iter().all(|w| other.concept.contains(w)) {
            continue;
        }
        let state = with_words.entry(other.sentence).or_default();
        state.0 |= meets(&other.quantity);
        state.1 |= compatible(&other.quantity);
    }
    let mut positives: Vec<usize> = with_words
        .iter()
        .filter(|(_, (met, _))| *met)
        .map(|(s, _)| *s)
        .collect();
    positives.sort_unstable();
    let mut missed: Vec<usize> = with_words
        .iter()
        .filter(|(_, (met, compatible))| !met && *compatible)
        .map(|(s, _)| *s)
        .collect();
    let mut other_unit: Vec<usize> = with_words
        .iter()
        .filter(|(_, (met, compatible))| !met && !compatible)
        .map(|(s, _)| *s)
        .collect();
    missed.sort_unstable();
    other_unit.sort_unstable();
    let n = settings.negatives_per_kind;
    let mut negatives: Vec<(usize, NegativeKind)> = Vec::new();
    for (kind, mut found) in [
        (NegativeKind::OtherUnit, other_unit),
        (NegativeKind::ConditionMissed, missed),
    ] {
        random.shuffle(&mut found);
        negatives.extend(found.into_iter().take(n).map(|s| (s, kind)));
    }
    // Other concepts: meeting quantities in sentences without the concept words, drawn at random.
    let mut tries = 0;
    let mut other_concept = 0;
    while other_concept < n && tries < 50 * n {
        tries += 1;
        let other = random.pick(readings);
        let lacks_words = concept
            .iter()
            .any(|w| !words_of[other.sentence].contains(w.as_str()));
        let taken = negatives.iter().any(|(s, _)| *s == other.sentence);
        if lacks_words && !taken && meets(&other.quantity) {
            negatives.push((other.sentence, NegativeKind::OtherConcept));
            other_concept += 1;
        }
    }
    Some(GeneratedQuery {
        query,
        condition,
        source: reading.sentence,
        positives,
        negatives,
    })
}

/// What the ranker's encoder reads of a query (its words and unit names, no numbers).
pub fn encoder_text(query: &str) -> String {
    let parsed = parse_query(query);
    encoder_query(&parsed, &search_words(&parsed))
}

/// Training triples for the token vectors: each query's encoder text, its source sentence, and
/// its negatives that differ in words or unit (a missed condition is the quantity score's to
/// tell, not the words').
pub fn triples(queries: &[GeneratedQuery], sentences: &[StoredSentence]) -> Vec<Triple> {
    queries
        .iter()
        .map(|q| Triple {
            query: encoder_text(&q.query),
            positive: sentences[q.source].text.clone(),
            negatives: q
                .negatives
                .iter()
                .filter(|(_, kind)| *kind != NegativeKind::ConditionMissed)
                .map(|(s, _)| sentences[*s].text.clone())
                .collect(),
        })
        .collect()
}

/// `x` rounded to two significant digits.
fn round_two_digits(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let magnitude = 10f64.powi(x.abs().log10().floor() as i32 - 1);
    (x / magnitude).round() * magnitude
}

/// A number as a person writes it in a query ("80000", "2.5", "0.35").
fn format_number(x: f64) -> String {
    if x >= 1.0 && x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        let text = format!("{x:.4}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_text::quantity::extract_in_context;

    fn stored(texts: &[&str]) -> Vec<StoredSentence> {
        texts
            .iter()
            .enumerate()
            .map(|(i, text)| StoredSentence {
                id: format!("s{i}"),
                text: text.to_string(),
                source: "test".into(),
                entity: None,
                quantities: extract_in_context(text),
            })
            .collect()
    }

    const SENTENCES: &[&str] = &[
        "The Alpha Arena has a capacity of 95,000 people.",
        "The Beta Arena has a capacity of 40,000 people.",
        "The Gamma Arena has a capacity of 82,500 people.",
        "The Delta hall has a capacity of 12,000 people.",
        "The river bridge has a length of 1,200 metres.",
        "The harbour bridge has a length of 3 km.",
        "The old bridge has a length of 400 feet.",
        "The Orion phone has a battery of 5000 mAh.",
        "The Vega phone has a battery of 3000 mAh.",
        "The Lyra phone costs $450 and has a battery of 4500 mAh.",
        "The Nova phone costs $250.",
        "The company reported revenue of $3 billion in 2019.",
        "The rival reported revenue of $800 million in 2019.",
    ];

    #[test]
    fn every_label_is_the_condition_test_read_again() {
        let sentences = stored(SENTENCES);
        let (queries, counts) =
            generate(&sentences, &HashSet::new(), &GeneratorSettings::default());
        assert!(queries.len() >= 8, "{counts:?} {queries:?}");
        for generated in &queries {
            let parsed = parse_query(&generated.query);
            assert_eq!(parsed.constraints.len(), 1, "{}", generated.query);
            let constraint = &parsed.constraints[0];
            assert_eq!(constraint.condition, generated.condition);
            let test = Test::new(constraint, 1.0);
            let meets = |s: usize| {
                sentences[s]
                    .quantities
                    .iter()
                    .any(|q| meeting_score(std::slice::from_ref(&test), &entries(q)).is_some())
            };
            assert!(generated.positives.contains(&generated.source));
            for &p in &generated.positives {
                assert!(meets(p), "{} ⊭ {}", sentences[p].text, generated.query);
            }
            for &(n, kind) in &generated.negatives {
                assert!(!generated.positives.contains(&n), "{}", generated.query);
                match kind {
                    NegativeKind::ConditionMissed | NegativeKind::OtherUnit => {
                        assert!(!meets(n), "{} ⊨ {}", sentences[n].text, generated.query)
                    }
                    NegativeKind::OtherConcept => assert!(meets(n)),
                }
            }
        }
        // The arenas' query finds the other arenas by their words and condition.
        let mut conditions: Vec<_> = queries.iter().map(|q| q.condition).collect();
        conditions.dedup();
        assert!(conditions.len() >= 3, "{conditions:?}");
        assert!(
            queries.iter().any(|q| q
                .negatives
                .iter()
                .any(|(_, k)| *k == NegativeKind::ConditionMissed)),
            "{queries:?}"
        );
    }

    #[test]
    fn excluded_sentences_are_never_read() {
        let sentences = stored(SENTENCES);
        let excluded: HashSet<String> = SENTENCES[..4].iter().map(|s| s.to_string()).collect();
        let (queries, _) = generate(&sentences, &excluded, &GeneratorSettings::default());
        assert!(!queries.is_empty());
        for generated in &queries {
            let used = std::iter::once(generated.source)
                .chain(generated.positives.iter().copied())
                .chain(generated.negatives.iter().map(|(s, _)| *s));
            for s in used {
                assert!(s >= 4, "{} used", sentences[s].text);
            }
        }
    }

    /// On the real files: the Qsearch dev sentences, mixed into the sentences given, are never
    /// read once excluded, while NewsQuant's give queries whose labels the parser confirms.
    #[test]
    fn no_qsearch_sentence_is_read_from_the_real_files() {
        use tally_documents::corpus::sentences::{parse_judged, read_documents};
        use tally_documents::corpus::Format;
        use tally_documents::sentence_store::index::sentences_of;
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
        let judged = std::fs::read_to_string(data.join("qsearch/qsearch_text_dev.jsonl"))
            .expect("the Qsearch dev file is in ../shared/data");
        let excluded: HashSet<String> =
            parse_judged(&judged, std::path::Path::new("qsearch_text_dev.jsonl"))
                .unwrap()
                .into_iter()
                .flat_map(|q| q.judged.into_iter().map(|j| j.sentence))
                .collect();
        let news = read_documents(
            &data.join("quantities/newsquant_dev.json"),
            Format::NewsQuant,
        )
        .expect("NewsQuant is in ../shared/data");
        let mut sentences: Vec<StoredSentence> = news.iter().flat_map(sentences_of).collect();
        let first_excluded = sentences.len();
        sentences.extend(stored(
            &excluded.iter().map(String::as_str).collect::<Vec<_>>(),
        ));
        let (queries, counts) = generate(&sentences, &excluded, &GeneratorSettings::default());
        assert!(queries.len() >= 40, "{counts:?}");
        assert_eq!(counts.sentences_read, first_excluded);
        for generated in &queries {
            let used = std::iter::once(generated.source)
                .chain(generated.positives.iter().copied())
                .chain(generated.negatives.iter().map(|(s, _)| *s));
            for s in used {
                assert!(s < first_excluded, "{} read", sentences[s].text);
            }
        }
    }

    #[test]
    fn bounds_are_written_as_people_write_them() {
        assert_eq!(round_two_digits(82_500.0 * 0.7), 58_000.0);
        assert_eq!(format_number(58_000.0), "58000");
        assert_eq!(format_number(0.35), "0.35");
        assert_eq!(format_number(2.5), "2.5");
    }
}
