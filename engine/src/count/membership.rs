//! Type evidence for a candidate instance: what its passages say about it being one of the
//! counted kind, and what its own form says. People write members of a kind near the kind's name
//! ("the four official languages: German, French, Italian and Romansh", "moons such as Phobos",
//! "Phobos is the larger of the two moons"), in passages about the question's subject; units,
//! table headers and adverbs are never the things counted.

use super::instances::{snippet_frequency, type_compatibility_prior, Instance};
use super::question::{is_stop, words, QuestionAnalysis};

/// Words that tie a member to its kind between the two ("languages such as", "languages:",
/// "Romansh is one of the languages", "German and French are languages").
const CUES: &[&str] = &[
    "such as",
    "including",
    "include",
    "includes",
    "included",
    "namely",
    "like",
    ":",
    " are ",
    " were ",
    " is ",
    " was ",
    "one of",
    "and other",
    "among",
    " - ",
    "–",
    "—",
];

/// How far (in bytes) a kind's name may stand from a member it introduces.
const CUE_REACH: usize = 160;

/// The words that name the counted kind in a passage: the answer type's head noun, singular and
/// plural, and the answer type's own last word as asked.
#[derive(Debug, Clone)]
pub struct KindWords {
    forms: Vec<String>,
    /// The question's subject words (content words of its entities).
    subject: Vec<String>,
}

impl KindWords {
    /// The kind words of the analysed question.
    pub fn of(analysis: &QuestionAnalysis) -> Self {
        let mut forms = Vec::new();
        let head = analysis.head.trim().to_lowercase();
        if !head.is_empty() {
            forms.push(format!("{head}s"));
            forms.push(format!("{head}es"));
            if let Some(stem) = head.strip_suffix('y') {
                forms.push(format!("{stem}ies"));
            }
            forms.push(head);
        }
        if let Some(last) = words(&analysis.answer_type).pop() {
            forms.push(last);
        }
        forms.sort();
        forms.dedup();
        let subject = analysis
            .entities
            .iter()
            .flat_map(|e| words(e))
            .filter(|w| !is_stop(w) && w.chars().count() > 2)
            .collect();
        Self { forms, subject }
    }

    /// Byte offsets of the kind's names in `sentence`.
    fn positions(&self, sentence: &str) -> Vec<usize> {
        let mut at = Vec::new();
        let mut start = None;
        for (i, c) in sentence.char_indices().chain([(sentence.len(), ' ')]) {
            match (c.is_alphanumeric(), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    let word = sentence[s..i].to_lowercase();
                    if self.forms.contains(&word) {
                        at.push(s);
                    }
                    start = None;
                }
                _ => {}
            }
        }
        at
    }

    /// Whether `text` names the question's subject (true when the question names none).
    fn names_subject(&self, lower_text: &str) -> bool {
        self.subject.is_empty() || self.subject.iter().any(|w| lower_text.contains(w.as_str()))
    }
}

/// The sentence around `span` in `text`: from the previous sentence end or blank line to the
/// next. A list under a heading ("Members:\n- Ada Linn") is one sentence with its heading.
fn sentence_around(text: &str, start: usize, end: usize) -> (usize, usize) {
    let is_end = |s: &str| s.ends_with(['.', '!', '?']) || s.ends_with("\n\n");
    let mut from = 0;
    for (i, _) in text[..start].char_indices().rev() {
        if is_end(&text[..i]) && text[i..].starts_with([' ', '\n']) {
            from = i;
            break;
        }
    }
    let mut to = text.len();
    for (i, c) in text[end..].char_indices() {
        let at = end + i;
        if matches!(c, '.' | '!' | '?') && text[at + c.len_utf8()..].starts_with([' ', '\n'])
            || text[at..].starts_with("\n\n")
        {
            to = at;
            break;
        }
    }
    (from, to)
}

/// Whether the line holding `start` is a table's header: cells split by `|` or tabs, no digits.
fn in_header_line(text: &str, start: usize) -> bool {
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let to = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[from..to];
    (line.matches('|').count() >= 2 || line.contains('\t'))
        && !line.chars().any(|c| c.is_ascii_digit())
}

/// The evidence of one instance, as the learned scorer reads it (see [`FEATURES`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Membership {
    /// Share of its mentions in a sentence naming the kind.
    pub kind_sentence: f64,
    /// 1 when a mention is tied to the kind's name by a cue ("such as", ":", "one of").
    pub cue: f64,
    /// Share of its mentions in passages naming the question's subject.
    pub subject: f64,
    /// 1 when a mention sits in a table's header row.
    pub header: f64,
    /// Share of its mentions that label a value ("Weight: 180 g", "Population | 3300").
    pub label: f64,
    /// 1 when a mention follows a count of the kind in its sentence ("the two moons, Phobos
    /// and Deimos", "four official languages: German, …").
    pub counted: f64,
    /// Snippets with a mention tied to the kind by a cue, a third each (at most 1).
    pub cue_snippets: f64,
}

impl Membership {
    /// Reads the instance's mentions in `texts`.
    pub fn of(inst: &Instance, texts: &[&str], kind: &KindWords) -> Self {
        let mut out = Membership::default();
        let n = inst.mentions.len().max(1) as f64;
        let mut tied_in: Vec<usize> = Vec::new();
        // Whether each snippet seen names the subject, read once per snippet.
        let mut about: Vec<(usize, bool)> = Vec::new();
        for m in &inst.mentions {
            let Some(text) = texts.get(m.snippet) else {
                continue;
            };
            if m.span.end > text.len() {
                continue;
            }
            let (from, to) = sentence_around(text, m.span.start, m.span.end);
            let sentence = &text[from..to];
            let (start, end) = (m.span.start - from, m.span.end - from);
            let kinds = kind.positions(sentence);
            if !kinds.is_empty() {
                out.kind_sentence += 1.0 / n;
            }
            let tied = kinds.iter().any(|&k| {
                let between = if k < start {
                    sentence.get(k..start)
                } else {
                    sentence.get(end.min(k)..k)
                };
                between.is_some_and(|b| {
                    let b = b.to_lowercase();
                    b.len() <= CUE_REACH && CUES.iter().any(|c| b.contains(c))
                })
            });
            if tied {
                out.cue = 1.0;
                if !tied_in.contains(&m.snippet) {
                    tied_in.push(m.snippet);
                }
            }
            if kinds
                .iter()
                .any(|&k| k < start && start - k <= CUE_REACH && counted_before(&sentence[..k]))
            {
                out.counted = 1.0;
            }
            let names_subject = match about.iter().find(|(s, _)| *s == m.snippet) {
                Some(&(_, about)) => about,
                None => {
                    let about_it = kind.names_subject(&text.to_lowercase());
                    about.push((m.snippet, about_it));
                    about_it
                }
            };
            if names_subject {
                out.subject += 1.0 / n;
            }
            if in_header_line(text, m.span.start) {
                out.header = 1.0;
            }
            let after = text[m.span.end..].trim_start_matches([' ', '\t']);
            if after.starts_with([':', '|', '=']) {
                out.label += 1.0 / n;
            }
        }
        out.cue_snippets = (tied_in.len() as f64 / 3.0).min(1.0);
        out
    }
}

/// Count words a kind's name may follow ("the two moons", "four official languages").
const COUNT_WORDS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "both", "several",
];

/// Whether the words before a kind's name end in a count, up to two modifiers before it ("four
/// official", "26", "the two").
fn counted_before(before: &str) -> bool {
    before.split_whitespace().rev().take(3).any(|w| {
        let w = w
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        COUNT_WORDS.contains(&w.as_str())
            || (!w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
    })
}

/// The learned scorer's features, in order (the model file names them).
pub const FEATURES: &[&str] = &[
    "prior",
    "fit",
    "kind-sentence",
    "cue",
    "subject",
    "frequency",
    "listed",
    "initial-only",
    "lower-case",
    "words",
    "header",
    "label",
    "counted",
    "cue-snippets",
    "fit-of-best",
    "prior-of-best",
];

/// What the encoder made of an instance, beside its question's best.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Seen {
    /// Its fit to the answer type.
    pub fit: f64,

    /// The best fit of its question's names.
    pub best_fit: f64,
    /// The best type-compatibility prior of its question's names.
    pub best_prior: f64,
}

/// The feature vector of an instance ([`FEATURES`]).
pub fn features(
    inst: &Instance,
    snippets: usize,
    seen: &Seen,
    membership: &Membership,
) -> Vec<f64> {
    let n = snippets.max(1) as f64;
    let listed = inst.mentions.iter().filter(|m| m.in_list).count() as f64 / n;
    let only_initial = inst.mentions.iter().all(|m| m.sentence_initial);
    let lower = inst.name.chars().next().is_some_and(char::is_lowercase);
    let name_words = inst.name.split_whitespace().count().min(5) as f64 / 5.0;
    let prior = type_compatibility_prior(inst, snippets);
    let share = |part: f64, best: f64| if best > 0.0 { part / best } else { 0.0 };
    vec![
        prior.min(4.0),
        seen.fit,
        membership.kind_sentence,
        membership.cue,
        membership.subject,
        (4.0 * snippet_frequency(inst, snippets)).min(1.0),
        (4.0 * listed).min(1.0),
        f64::from(u8::from(only_initial)),
        f64::from(u8::from(lower)),
        name_words,
        membership.header,
        membership.label,
        membership.counted,
        membership.cue_snippets,
        share(seen.fit, seen.best_fit),
        share(prior, seen.best_prior),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::instances::find_instances;
    use crate::count::question::analyse;

    fn evidence(text: &str, question: &str, name: &str) -> Membership {
        let a = analyse(question);
        let found = find_instances(&[text], &a);
        let inst = found
            .iter()
            .find(|i| i.name == name)
            .unwrap_or_else(|| panic!("{name} in {found:?}"));
        Membership::of(inst, &[text], &KindWords::of(&a))
    }

    #[test]
    fn members_named_beside_their_kind_are_tied_to_it() {
        let q = "how many official languages does switzerland have";
        let text = "Switzerland has four official languages: German, French, Italian and \
                    Romansh. Its largest cities are Zurich, Geneva and Basel.";
        let romansh = evidence(text, q, "Romansh");
        assert_eq!(
            (romansh.kind_sentence, romansh.cue, romansh.subject),
            (1.0, 1.0, 1.0)
        );
        assert_eq!(romansh.counted, 1.0);
        let zurich = evidence(text, q, "Zurich");
        assert_eq!((zurich.kind_sentence, zurich.cue), (0.0, 0.0));
        // Belgium's languages are tied to "languages" but not said of Switzerland.
        let belgian = evidence(
            "Belgium has three official languages: Dutch, French and German.",
            q,
            "Dutch",
        );
        assert_eq!((belgian.cue, belgian.subject), (1.0, 0.0));
        // "Phobos is the larger of the two moons".
        let phobos = evidence(
            "Phobos, with a 13-mile radius, is the larger of the two moons of Mars.",
            "how many moons does mars have",
            "Phobos",
        );
        assert_eq!(phobos.cue, 1.0);
    }

    #[test]
    fn table_headers_are_marked() {
        let table = "Ward | Population | Polling stations\nNorth Halden | 4100 | 3";
        let header = evidence(
            table,
            "how many wards does the Halden district have",
            "Population",
        );
        assert_eq!(header.header, 1.0);
        let row = evidence(
            table,
            "how many wards does the Halden district have",
            "North Halden",
        );
        assert_eq!(row.header, 0.0);
    }
}
