//! Instances: the things a count counts ("Swahili", "Amharic" for "languages spoken in Africa").
//!
//! Candidates come from rules, not a model: no labelled entity data can be had offline, and the
//! snippets' own typography marks most instances well — runs of capitalised words ("Jammu and
//! Kashmir"), quoted titles ("‘Hey Jude’") and items of comma lists. Dates, numbers, money and
//! the question's own words are dropped; names are normalised (case, possessive, leading stop
//! words) and merged when their normalised Levenshtein similarity is at least 0.9 (strsim).
//! Ranking uses the four scores of CoQEx (see [`InstanceScoring`]).

use std::collections::HashMap;
use std::ops::Range;
pub(crate) use tally_types::InstanceScoring;

use serde::{Deserialize, Serialize};

use super::question::{words, QuestionAnalysis};
use tally_text::calendar;
use tally_text::names::{is_headline_verb, is_stop_word, name_spans};
use tally_text::units::UnitTable;

/// Minimum normalised Levenshtein similarity for two names to be one instance.
pub const MERGE_SIMILARITY: f64 = 0.9;

/// One mention of an instance in a snippet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mention {
    /// The index of the snippet it is in.
    pub snippet: usize,
    /// Byte span in the snippet.
    pub span: Range<usize>,
    /// Next to a list comma or "and" ("Gujarat, Rajasthan and Punjab"): enumerations are where
    /// the things a count counts are named.
    #[serde(default)]
    pub in_list: bool,
    /// First word of a sentence, where capitals say nothing about names ("Welcome", "Dear").
    #[serde(default)]
    pub sentence_initial: bool,
}

impl Mention {
    /// A mention of `span` in `text`, with its position in the sentence read off the text.
    pub fn new(snippet: usize, text: &str, span: Range<usize>) -> Self {
        let before = &text[..span.start];
        let after = &text[span.end..];
        let in_list = after.trim_start().starts_with(',')
            || after.starts_with(" and ")
            || before.trim_end().ends_with(',')
            || before.ends_with(" and ");
        let opening = before.trim_end_matches([' ', '"', '“', '‘', '\'', '(']);
        let sentence_initial =
            opening.is_empty() || opening.ends_with(['.', '!', '?', '\n', ':', '|', '-', '…']);
        Self {
            snippet,
            span,
            in_list,
            sentence_initial,
        }
    }
}

/// An instance with its mentions and score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    /// The most frequent surface form.
    pub name: String,
    /// Normalised key used for merging.
    pub key: String,
    /// Every mention of the instance.
    pub mentions: Vec<Mention>,
    /// Its score under the chosen scoring; instances are ranked by it.
    pub score: f64,
    /// The learned scorer's probability that it is of the counted kind (`None` where it was
    /// not read: no scorer, or a name that could not be shown).
    #[serde(default)]
    pub likely: Option<f64>,
}

/// The normalised key of a name, or `None` when it is not an instance (dates, numbers, money,
/// bare function words, the question's own words).
fn normalise(name: &str, own_words: &[String]) -> Option<String> {
    if name
        .chars()
        .any(|c| c.is_ascii_digit() || "$€£¥%".contains(c))
    {
        return None;
    }
    let mut w: Vec<String> = words(&name.replace('’', "'"))
        .into_iter()
        .map(|w| {
            w.trim_end_matches("'s")
                .trim_end_matches("’s")
                .trim_end_matches(['\'', '’'])
                .to_string()
        })
        .filter(|w| !w.is_empty())
        .collect();
    while w.first().is_some_and(|x| is_stop_word(x)) {
        w.remove(0);
    }
    while w.last().is_some_and(|x| is_stop_word(x)) {
        w.pop();
    }
    if w.is_empty()
        || w.iter()
            .all(|x| is_stop_word(x) || calendar::is_month(x) || calendar::is_day(x))
    {
        return None;
    }
    let key = w.join(" ");
    // Names mostly made of the question's words ("Cracker Barrel Locations") are its subject.
    let from_question = w
        .iter()
        .filter(|x| own_words.contains(x) || is_headline_verb(x))
        .count();
    if 2 * from_question > w.len() {
        return None;
    }
    if key.chars().count() < 2 {
        return None;
    }
    Some(key)
}

/// Groups raw mentions into instances: same key, or keys at least [`MERGE_SIMILARITY`] alike.
pub fn merge(mentions: Vec<(String, String, Mention)>) -> Vec<Instance> {
    // (key, surface, mention) → instances, keys compared to each instance's first key.
    let mut instances: Vec<Instance> = Vec::new();
    let mut surfaces: Vec<HashMap<String, usize>> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for (key, surface, mention) in mentions {
        let slot = match by_key.get(&key) {
            Some(&i) => i,
            None => {
                let similar = instances.iter().position(|inst| {
                    strsim::normalized_levenshtein(&inst.key, &key) >= MERGE_SIMILARITY
                });
                let i = similar.unwrap_or_else(|| {
                    instances.push(Instance {
                        name: surface.clone(),
                        key: key.clone(),
                        mentions: Vec::new(),
                        score: 0.0,
                        likely: None,
                    });
                    surfaces.push(HashMap::new());
                    instances.len() - 1
                });
                by_key.insert(key.clone(), i);
                i
            }
        };
        *surfaces[slot].entry(surface).or_default() += 1;
        instances[slot].mentions.push(mention);
    }
    for (inst, forms) in instances.iter_mut().zip(surfaces) {
        if let Some((name, _)) = forms
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.len().cmp(&a.0.len())))
        {
            inst.name = name;
        }
    }
    instances
}

/// What the reader makes of an instance's name under the "which …" question: the probability of
/// its best answer span inside a mention of the name.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Reading {
    /// The best over all mentions.
    pub best: f64,
    /// Each snippet's best, summed over the snippets mentioning it and divided by all snippets
    /// (at most the instance's snippet frequency).
    pub summed: f64,
}

/// What ranking knows of each instance beyond its mentions.
pub struct Evidence<'a> {
    /// The instance's fit to the answer type in [0, 1].
    pub type_fit: &'a dyn Fn(&Instance) -> f64,
    /// The reader's reading of it; `None` where nothing was read (no reader loaded): the
    /// reader's scorings then fall back to the scoring they refine.
    pub reading: &'a dyn Fn(&Instance) -> Option<Reading>,
    /// The learned scorer's probability that it is an instance of the counted kind; `None`
    /// without a scorer: the learned scoring then falls back to type compatibility.
    pub learned: &'a dyn Fn(&Instance) -> Option<f64>,
}

/// An instance's share of the snippets: how many mention it, over all snippets.
pub fn snippet_frequency(inst: &Instance, snippets: usize) -> f64 {
    let mut seen: Vec<usize> = inst.mentions.iter().map(|m| m.snippet).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len() as f64 / snippets.max(1) as f64
}

/// Scores instances in place and sorts them best first.
///
/// `snippet_confidence[s]`: how confidently snippet `s` answers the count question (its best
/// count span's confidence, 0 without one); `best_snippet`: the snippet of the most confident
/// count span.
pub fn rank(
    instances: &mut [Instance],
    snippet_confidence: &[f64],
    best_snippet: Option<usize>,
    scoring: InstanceScoring,
    evidence: &Evidence,
) {
    let n = snippet_confidence.len().max(1) as f64;
    let compatibility = |inst: &Instance| {
        type_compatibility(
            type_compatibility_prior(inst, snippet_confidence.len()),
            (evidence.type_fit)(inst),
        )
    };
    for inst in instances.iter_mut() {
        let mut snippets: Vec<usize> = inst.mentions.iter().map(|m| m.snippet).collect();
        snippets.sort_unstable();
        snippets.dedup();
        let frequency = snippets.len() as f64 / n;
        // Every snippet counts a little, so that instances in snippets without a count still rank.
        let confidence: f64 = snippets
            .iter()
            .map(|&s| 0.1 + 0.9 * snippet_confidence.get(s).copied().unwrap_or(0.0))
            .sum::<f64>()
            / n;
        inst.score = match scoring {
            InstanceScoring::QaOnly => {
                if best_snippet.is_some_and(|b| snippets.contains(&b)) {
                    frequency
                } else {
                    0.0
                }
            }
            InstanceScoring::ContextFrequency => frequency,
            InstanceScoring::SummedConfidence => confidence,
            // Frequency (saturating at a quarter of the snippets) plus list mentions, times the
            // squared fit; names only ever seen opening a sentence are damped. Chosen on the NQ
            // dev set (the only snippet set with gold instances) over frequency × fit and
            // confidence-weighted variants.
            InstanceScoring::TypeCompatibility => compatibility(inst),
            // The paper's summed confidence, with the reader's spans of the name in place of
            // the snippet's count confidence.
            InstanceScoring::Reader => (evidence.reading)(inst).map_or(frequency, |r| r.summed),
            InstanceScoring::ReaderTypeCompatibility => match (evidence.reading)(inst) {
                Some(reading) => reader_weighted(compatibility(inst), reading),
                None => compatibility(inst),
            },
            // The probability from the candidate's type evidence (`membership`), calibrated.
            InstanceScoring::Learned => {
                (evidence.learned)(inst).unwrap_or_else(|| compatibility(inst))
            }
        };
    }
    instances.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.mentions.len().cmp(&a.mentions.len()))
            .then(a.key.cmp(&b.key))
    });
}

/// The type-compatibility score: its prior ([`type_compatibility_prior`]) times the squared fit
/// to the answer type (the fit clamped to [0, 1], so the prior bounds the score).
pub fn type_compatibility(prior: f64, fit: f64) -> f64 {
    let fit = fit.clamp(0.0, 1.0);
    prior * fit * fit
}

/// Type compatibility weighted by the reader's best reading of the name, with a floor of 0.1 (as
/// in summed confidence): a name the reader passes over still ranks by its type compatibility,
/// below the names it reads as answers. At most `type_compatibility`.
pub fn reader_weighted(type_compatibility: f64, reading: Reading) -> f64 {
    type_compatibility * (0.1 + 0.9 * reading.best.clamp(0.0, 1.0))
}

/// The type-compatibility score of an instance before its fit to the answer type: its snippet
/// frequency (saturating at a quarter of the snippets) plus its share of list mentions, damped
/// for names only ever seen opening a sentence. The score is this times the squared fit (≤ 1),
/// so this bounds it: the pipeline embeds only the names that can still reach the top.
pub fn type_compatibility_prior(inst: &Instance, snippets: usize) -> f64 {
    let n = snippets.max(1) as f64;
    let frequency = snippet_frequency(inst, snippets);
    let listed = inst.mentions.iter().filter(|m| m.in_list).count() as f64 / n;
    let only_initial = inst.mentions.iter().all(|m| m.sentence_initial);
    let damping = if only_initial { 0.3 } else { 1.0 };
    ((4.0 * frequency).min(1.0) + 4.0 * listed) * damping
}

/// The question's own words and its answer type's forms: the question's subject ("Africa", "the
/// Beatles") and answer type ("languages") are not instances of the answer.
fn question_own_words(analysis: &QuestionAnalysis) -> Vec<String> {
    let mut own = words(&analysis.question);
    own.extend(words(&analysis.answer_type));
    own.extend(words(&analysis.answer_type_singular));
    own
}

/// What an instance's form says before any passage is read: a unit ("GB", "GHz"), a lone adverb
/// ("Together") or a lone capitalised label is no thing that is counted.
pub fn never_an_instance(name: &str) -> bool {
    let units = UnitTable::builtin();
    let trimmed = name.trim();
    let is_unit = |s: &str| !units.lookup_symbol(s).is_empty();
    let parts: Vec<&str> = trimmed.split_whitespace().collect();
    let lone_adverb = parts.len() == 1 && trimmed.to_lowercase().ends_with("ly");
    is_unit(trimmed) || parts.first().is_some_and(|p| is_unit(p)) || lone_adverb
}

/// Finds, normalises and merges the instances of a question's snippets (not yet scored).
pub fn find_instances(snippets: &[&str], analysis: &QuestionAnalysis) -> Vec<Instance> {
    // Computed once per question, not once per candidate name.
    let own_words = question_own_words(analysis);
    let mut mentions = Vec::new();
    for (s, text) in snippets.iter().enumerate() {
        for span in name_spans(text)
            .into_iter()
            .flat_map(|span| separate(text, span))
        {
            let surface = text[span.clone()].trim();
            let surface = surface
                .strip_suffix("'s")
                .or_else(|| surface.strip_suffix("’s"))
                .unwrap_or(surface)
                .to_string();
            if never_an_instance(&surface) {
                continue;
            }
            if let Some(key) = normalise(&surface, &own_words) {
                mentions.push((key, surface, Mention::new(s, text, span)));
            }
        }
    }
    merge(mentions)
}

/// A name span as the names it holds: without a role in brackets after it ("Ben Osei (bass)" →
/// "Ben Osei"), and two names joined by "and" apart when either has several words ("Priya Nandan
/// and Luis Ortega"); "Jammu and Kashmir" stays one.
fn separate(text: &str, span: Range<usize>) -> Vec<Range<usize>> {
    let mut span = span;
    let surface = &text[span.clone()];
    if let Some(open) = surface.rfind(" (") {
        let inside = &surface[open + 2..];
        if inside.ends_with(')') && inside.starts_with(char::is_lowercase) {
            span = span.start..span.start + open;
        }
    }
    let surface = &text[span.clone()];
    if let Some(at) = surface.find(" and ") {
        let (left, right) = (&surface[..at], &surface[at + 5..]);
        let capitalised = |part: &str| part.starts_with(char::is_uppercase);
        let several = |part: &str| part.split_whitespace().count() >= 2;
        if capitalised(left)
            && capitalised(right.trim_start_matches("The "))
            && (several(left) || several(right))
        {
            return vec![span.start..span.start + at, span.start + at + 5..span.end];
        }
    }
    vec![span]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::question::analyse;

    fn names(text: &str, question: &str) -> Vec<String> {
        let a = analyse(question);
        find_instances(&[text], &a)
            .into_iter()
            .map(|i| i.name)
            .collect()
    }

    #[test]
    fn capitalised_names_quotes_and_lists() {
        let found = names(
            "Tracks like ‘Blackbird’, ‘Yesterday’ and ‘Hey Jude’ were written by Paul McCartney \
             for The Beatles in March 1968.",
            "how many songs did john lennon write for the beatles",
        );
        for expected in ["Blackbird", "Yesterday", "Hey Jude", "Paul McCartney"] {
            assert!(
                found.contains(&expected.to_string()),
                "{expected} in {found:?}"
            );
        }
        // The question's own subject, dates and months are not instances.
        assert!(!found
            .iter()
            .any(|f| f.contains("Beatles") || f.contains("March")));
    }

    #[test]
    fn names_with_joiners_and_lists_of_lower_case_items() {
        let found = names(
            "States bordering Pakistan are Gujarat, Rajasthan, Punjab and Jammu and Kashmir.",
            "how many states in india have an international border",
        );
        for expected in ["Gujarat", "Rajasthan", "Punjab", "Jammu and Kashmir"] {
            assert!(
                found.contains(&expected.to_string()),
                "{expected} in {found:?}"
            );
        }
    }

    #[test]
    fn units_and_adverbs_are_never_instances() {
        for name in ["GB", "GHz", "GB RAM", "Finally"] {
            assert!(never_an_instance(name), "{name}");
        }
        for name in ["Romansh", "Ada Linn", "Tallow Creek"] {
            assert!(!never_an_instance(name), "{name}");
        }
    }

    #[test]
    fn roles_in_brackets_and_joined_names_come_apart() {
        let found = names(
            "Glassmoor are Ada Linn (vocals), Ben Osei (bass) and Tomas Reyes. Albums: Tidewater, \
             Low Lanterns and The Salt Road. Founded by Priya Nandan and Luis Ortega in Jammu and \
             Kashmir.",
            "how many members does glassmoor have",
        );
        for expected in [
            "Ada Linn",
            "Ben Osei",
            "Low Lanterns",
            "The Salt Road",
            "Priya Nandan",
            "Luis Ortega",
            "Jammu and Kashmir",
        ] {
            assert!(
                found.contains(&expected.to_string()),
                "{expected} in {found:?}"
            );
        }
        assert!(
            !found
                .iter()
                .any(|f| f.contains('(') || f.contains(" and L")),
            "{found:?}"
        );
    }

    #[test]
    fn merging_by_similarity_and_possessives() {
        let a = analyse("how many states border china");
        let found = find_instances(
            &[
                "Arunachal Pradesh's border is long.",
                "The Arunachal Pradesh border and the Arunachal Pradsh one.",
            ],
            &a,
        );
        let arunachal: Vec<&Instance> = found
            .iter()
            .filter(|i| i.key.starts_with("arunachal"))
            .collect();
        assert_eq!(arunachal.len(), 1, "{found:?}");
        assert_eq!(arunachal[0].mentions.len(), 3);
        assert_eq!(arunachal[0].name, "Arunachal Pradesh");
        // One letter apart in a short name is more than 10% of it: kept apart.
        assert!(strsim::normalized_levenshtein("glasgow", "glasgw") < MERGE_SIMILARITY);
    }

    #[test]
    fn mentions_know_lists_and_sentence_openings() {
        let text = "Welcome to India. States bordering Pakistan are Gujarat, Rajasthan and Punjab.";
        let at = |name: &str| {
            let start = text.find(name).unwrap();
            Mention::new(0, text, start..start + name.len())
        };
        assert!(at("Welcome").sentence_initial && !at("Welcome").in_list);
        assert!(at("States").sentence_initial);
        assert!(!at("India").sentence_initial && !at("India").in_list);
        for item in ["Gujarat", "Rajasthan", "Punjab"] {
            assert!(at(item).in_list && !at(item).sentence_initial, "{item}");
        }
    }

    #[test]
    fn ranking_strategies() {
        let mk = |key: &str, snippets: &[usize]| Instance {
            name: key.to_string(),
            key: key.to_string(),
            mentions: snippets
                .iter()
                .map(|&s| Mention {
                    snippet: s,
                    span: 0..1,
                    in_list: false,
                    sentence_initial: false,
                })
                .collect(),
            score: 0.0,
            likely: None,
        };
        let conf = [0.9, 0.0, 0.0, 0.2];
        let mut inst = vec![mk("rare", &[0]), mk("common", &[1, 2, 3])];
        let fits_all = Evidence {
            type_fit: &|_| 1.0,
            reading: &|_| None,
            learned: &|_| None,
        };
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::ContextFrequency,
            &fits_all,
        );
        assert_eq!(inst[0].key, "common");
        assert!((inst[0].score - 0.75).abs() < 1e-9);
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::QaOnly,
            &fits_all,
        );
        assert_eq!(inst[0].key, "rare");
        assert_eq!(inst[1].score, 0.0);
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::TypeCompatibility,
            &Evidence {
                type_fit: &|i| if i.key == "rare" { 0.1 } else { 1.0 },
                reading: &|_| None,
                learned: &|_| None,
            },
        );
        assert_eq!(inst[0].key, "common");
        let common_alone = inst[0].score;
        // The reader reads "rare" as the answer and passes over "common": its scorings say so,
        // and type compatibility weighted by the reading keeps a floor for a name not read.
        let read_rare = Evidence {
            type_fit: &|_| 1.0,
            learned: &|_| None,
            reading: &|i| {
                Some(if i.key == "rare" {
                    Reading {
                        best: 0.8,
                        summed: 0.2,
                    }
                } else {
                    Reading::default()
                })
            },
        };
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::Reader,
            &read_rare,
        );
        assert_eq!(inst[0].key, "rare");
        assert!((inst[0].score - 0.2).abs() < 1e-9);
        assert_eq!(inst[1].score, 0.0);
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::ReaderTypeCompatibility,
            &read_rare,
        );
        let common = inst.iter().find(|i| i.key == "common").unwrap();
        assert!((common.score - 0.1 * common_alone).abs() < 1e-9);
        // Without a reader, its scorings are the scorings they refine.
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::ReaderTypeCompatibility,
            &fits_all,
        );
        let common = inst.iter().find(|i| i.key == "common").unwrap();
        assert!((common.score - common_alone).abs() < 1e-9);
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::Reader,
            &fits_all,
        );
        assert_eq!(inst[0].key, "common");
        assert!((inst[0].score - 0.75).abs() < 1e-9);
    }
}
