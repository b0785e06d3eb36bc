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

use serde::{Deserialize, Serialize};

use super::question::{words, QuestionAnalysis};

/// Minimum normalised Levenshtein similarity for two names to be one instance.
pub const MERGE_SIMILARITY: f64 = 0.9;

/// How instances are ranked (all scores in [0, 1]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum InstanceScoring {
    /// Only the instances of the snippet holding the single most confident count span.
    QaOnly,
    /// Share of snippets mentioning the instance.
    ContextFrequency,
    /// Summed confidence of the snippets mentioning it, over all snippets.
    SummedConfidence,
    /// How well the instance fits the answer type (encoder cosine of the instance and the answer
    /// type, in place of an NLI model), weighted by how many snippets mention it.
    #[default]
    TypeCompatibility,
}

impl InstanceScoring {
    pub const ALL: [InstanceScoring; 4] = [
        InstanceScoring::QaOnly,
        InstanceScoring::ContextFrequency,
        InstanceScoring::SummedConfidence,
        InstanceScoring::TypeCompatibility,
    ];

    pub fn name(self) -> &'static str {
        match self {
            InstanceScoring::QaOnly => "qa-only",
            InstanceScoring::ContextFrequency => "context-frequency",
            InstanceScoring::SummedConfidence => "summed-confidence",
            InstanceScoring::TypeCompatibility => "type-compatibility",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// One mention of an instance in a snippet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mention {
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
    pub mentions: Vec<Mention>,
    pub score: f64,
}

/// Raw candidate spans of one snippet, before normalisation.
pub fn instance_spans(text: &str) -> Vec<Range<usize>> {
    let mut spans = capitalised_runs(text);
    spans.extend(quoted_titles(text));
    spans.extend(list_items(text));
    spans.sort_by_key(|s| (s.start, s.end));
    spans.dedup();
    spans
}

/// Word tokens with byte spans.
fn word_spans(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let inside = c.is_alphanumeric() || c == '\'' || c == '’' || c == '-' || c == '&';
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..text.len());
    }
    out
}

fn is_capitalised(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// Lower-case words allowed inside a name ("Jammu and Kashmir", "Bank of India").
fn is_name_joiner(word: &str) -> bool {
    matches!(
        word,
        "of" | "and" | "de" | "the" | "&" | "da" | "del" | "la" | "von" | "van"
    )
}

/// Runs of capitalised words, possibly joined by "of", "and" …; a capitalised word right after a
/// sentence end stands alone only if it is not a common function word.
fn capitalised_runs(text: &str) -> Vec<Range<usize>> {
    let spans = word_spans(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < spans.len() {
        let word = &text[spans[i].clone()];
        if !is_capitalised(word) {
            i += 1;
            continue;
        }
        let mut j = i;
        loop {
            // Extend over joiners only when a capitalised word follows and no punctuation is
            // between.
            let next = j + 1;
            if next < spans.len() && glued(text, &spans[j], &spans[next]) {
                let w = &text[spans[next].clone()];
                // Headline case ("States Have A Cracker Barrel") is not one name.
                if is_capitalised(w) && !is_stop_word(&w.to_lowercase()) && !is_headline_verb(w) {
                    j = next;
                    continue;
                }
                if is_name_joiner(w)
                    && next + 1 < spans.len()
                    && glued(text, &spans[next], &spans[next + 1])
                    && is_capitalised(&text[spans[next + 1].clone()])
                {
                    j = next + 1;
                    continue;
                }
            }
            break;
        }
        let mut first = i;
        // Sentence-initial function words are not part of names ("The Beatles" keeps "The" out
        // too: normalisation drops it anyway).
        while first <= j && is_stop_word(&text[spans[first].clone()].to_lowercase()) {
            first += 1;
        }
        if first <= j {
            out.push(spans[first].start..spans[j].end);
        }
        i = j + 1;
    }
    out
}

/// Capitalised verbs that mark a headline rather than a name.
fn is_headline_verb(word: &str) -> bool {
    matches!(
        word.to_lowercase().as_str(),
        "have"
            | "has"
            | "had"
            | "does"
            | "do"
            | "did"
            | "be"
            | "can"
            | "will"
            | "get"
            | "got"
            | "make"
            | "makes"
            | "find"
            | "see"
            | "read"
            | "more"
            | "many"
            | "much"
            | "how"
    )
}

/// Only spaces between two words.
fn glued(text: &str, a: &Range<usize>, b: &Range<usize>) -> bool {
    text[a.end..b.start].chars().all(|c| c == ' ')
}

/// Short texts between quotes: ‘Yesterday’, “Hey Jude”, "Let It Be".
fn quoted_titles(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (open, close) in [('‘', '’'), ('“', '”'), ('"', '"')] {
        let mut rest = 0;
        while let Some(a) = text[rest..].find(open) {
            let start = rest + a + open.len_utf8();
            let Some(b) = text[start..].find(close) else {
                break;
            };
            let end = start + b;
            let inner = &text[start..end];
            let n = inner.split_whitespace().count();
            if (1..=8).contains(&n) && !inner.contains('\n') {
                out.push(start..end);
            }
            rest = end + close.len_utf8();
        }
    }
    out
}

/// Items of comma lists with at least three items of at most three words ("Arabic, Swahili,
/// Hausa and Yoruba").
fn list_items(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for sentence_start in sentence_starts(text) {
        let end = text[sentence_start..]
            .find(['.', ';', ':', '\n'])
            .map_or(text.len(), |e| sentence_start + e);
        let sentence = &text[sentence_start..end];
        let mut items: Vec<Range<usize>> = Vec::new();
        let mut at = sentence_start;
        for part in sentence.split(',') {
            let part_start = at;
            at += part.len() + 1;
            // "… Hausa and Yoruba": the last item may carry "and"/"or".
            for piece in split_and(part) {
                let trimmed = piece.1.trim();
                let offset = part_start + piece.0 + (piece.1.len() - piece.1.trim_start().len());
                let n = trimmed.split_whitespace().count();
                if (1..=3).contains(&n) {
                    items.push(offset..offset + trimmed.len());
                }
            }
        }
        if items.len() >= 3 {
            out.extend(items);
        }
    }
    out
}

fn split_and(part: &str) -> Vec<(usize, &str)> {
    for joiner in [" and ", " or "] {
        if let Some(i) = part.find(joiner) {
            return vec![
                (0, &part[..i]),
                (i + joiner.len(), &part[i + joiner.len()..]),
            ];
        }
    }
    vec![(0, part)]
}

fn sentence_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | ';' | ':' | '\n') && i + 1 < text.len() {
            starts.push(i + 1);
        }
    }
    starts
}

fn is_stop_word(word: &str) -> bool {
    matches!(
        word,
        "a" | "an"
            | "the"
            | "this"
            | "that"
            | "these"
            | "those"
            | "in"
            | "on"
            | "at"
            | "of"
            | "for"
            | "to"
            | "and"
            | "or"
            | "but"
            | "it"
            | "its"
            | "he"
            | "she"
            | "they"
            | "we"
            | "i"
            | "you"
            | "his"
            | "her"
            | "their"
            | "our"
            | "my"
            | "there"
            | "here"
            | "what"
            | "which"
            | "who"
            | "when"
            | "where"
            | "how"
            | "why"
            | "is"
            | "are"
            | "was"
            | "were"
            | "as"
            | "by"
            | "with"
            | "from"
            | "if"
            | "so"
            | "also"
            | "all"
            | "some"
            | "many"
            | "most"
            | "more"
            | "one"
            | "no"
            | "not"
            | "yes"
            | "each"
            | "every"
            | "both"
            | "other"
            | "such"
            | "after"
            | "before"
            | "during"
            | "since"
            | "while"
            | "today"
            | "however"
            | "although"
            | "though"
            | "yet"
            | "then"
            | "now"
    )
}

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

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
            .all(|x| is_stop_word(x) || MONTHS.contains(&x.as_str()))
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

/// Scores instances in place and sorts them best first.
///
/// `snippet_confidence[s]`: how confidently snippet `s` answers the count question (its best
/// count span's confidence, 0 without one); `type_fit(i)`: the instance's fit to the answer
/// type in [0, 1]; `best_snippet`: the snippet of the most confident count span.
pub fn rank(
    instances: &mut [Instance],
    snippet_confidence: &[f64],
    best_snippet: Option<usize>,
    scoring: InstanceScoring,
    type_fit: &dyn Fn(&Instance) -> f64,
) {
    let n = snippet_confidence.len().max(1) as f64;
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
            InstanceScoring::TypeCompatibility => {
                let fit = type_fit(inst).clamp(0.0, 1.0);
                type_compatibility_prior(inst, snippet_confidence.len()) * fit * fit
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

/// The type-compatibility score of an instance before its fit to the answer type: its snippet
/// frequency (saturating at a quarter of the snippets) plus its share of list mentions, damped
/// for names only ever seen opening a sentence. The score is this times the squared fit (≤ 1),
/// so this bounds it: the pipeline embeds only the names that can still reach the top.
pub fn type_compatibility_prior(inst: &Instance, snippets: usize) -> f64 {
    let n = snippets.max(1) as f64;
    let mut seen: Vec<usize> = inst.mentions.iter().map(|m| m.snippet).collect();
    seen.sort_unstable();
    seen.dedup();
    let frequency = seen.len() as f64 / n;
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

/// Finds, normalises and merges the instances of a question's snippets (not yet scored).
pub fn find_instances(snippets: &[&str], analysis: &QuestionAnalysis) -> Vec<Instance> {
    // Computed once per question, not once per candidate name.
    let own_words = question_own_words(analysis);
    let mut mentions = Vec::new();
    for (s, text) in snippets.iter().enumerate() {
        for span in instance_spans(text) {
            let surface = text[span.clone()].trim();
            let surface = surface
                .strip_suffix("'s")
                .or_else(|| surface.strip_suffix("’s"))
                .unwrap_or(surface)
                .to_string();
            if let Some(key) = normalise(&surface, &own_words) {
                mentions.push((key, surface, Mention::new(s, text, span)));
            }
        }
    }
    merge(mentions)
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
        };
        let conf = [0.9, 0.0, 0.0, 0.2];
        let mut inst = vec![mk("rare", &[0]), mk("common", &[1, 2, 3])];
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::ContextFrequency,
            &|_| 1.0,
        );
        assert_eq!(inst[0].key, "common");
        assert!((inst[0].score - 0.75).abs() < 1e-9);
        rank(&mut inst, &conf, Some(0), InstanceScoring::QaOnly, &|_| 1.0);
        assert_eq!(inst[0].key, "rare");
        assert_eq!(inst[1].score, 0.0);
        rank(
            &mut inst,
            &conf,
            Some(0),
            InstanceScoring::TypeCompatibility,
            &|i| {
                if i.key == "rare" {
                    0.1
                } else {
                    1.0
                }
            },
        );
        assert_eq!(inst[0].key, "common");
    }
}
