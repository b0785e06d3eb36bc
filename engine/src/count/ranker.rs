//! The candidate ranker: how likely a count candidate is the answer to the question.
//!
//! The span model reads one snippet at a time; much of the evidence for a count lies elsewhere:
//! whether its noun is the asked answer type, whether the words around it are the question's,
//! and above all whether other snippets state the same count. The ranker is a logistic
//! regression over those features and the span model's probability, trained on out-of-fold span
//! probabilities (`tally train count-spans`, see `train.rs`) with the paper's distant label: a
//! candidate within ±10% of the gold count is right. Its output is a calibrated probability, so
//! the span threshold and the confidence-weighted strategies of consolidation keep their meaning.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::candidates::CountCandidate;
use super::lexical::sentence_around;
pub use super::logistic::FitSettings;
use super::logistic::{read_model, write_model, Logistic};
use super::name_cache::NameCache;
use super::question::{words, QuestionAnalysis};
use tally_encoder::{cosine, EncoderError};
use tally_text::quantity::singular;

/// File name inside a span-model directory.
pub const RANKER_FILE: &str = "candidate_ranker.json";

/// The features, in order; a saved ranker lists them so that a stale file is refused.
pub const FEATURES: [&str; 24] = [
    "span_probability",
    "span_best_in_snippet",
    "noun_is_answer_type",
    "noun_shares_type_word",
    "bare_number",
    "noun_fit",
    "sentence_overlap",
    "nearby_overlap",
    "snippet_overlap",
    "entities_in_sentence",
    "agreement",
    "typed_agreement",
    "log_count",
    "small_count",
    "year_like",
    "approximate",
    "total_cue",
    "digits",
    "candidate_share",
    "snippet_rank",
    "agreement_of_best",
    "noun_fit_of_best",
    "fit_times_agreement",
    "entities_in_snippet",
];
const N: usize = FEATURES.len();
/// Index of `entities_in_snippet` in [`FEATURES`].
const ENTITIES_IN_SNIPPET: usize = N - 1;

/// One candidate's features.
pub type Features = [f64; N];

/// Relative distance under which two counts agree (the relaxed-precision rule of the paper).
const AGREE: f64 = 0.9;
/// Words on each side of a candidate that make up its neighbourhood.
const NEARBY_WORDS: usize = 10;

/// Why the candidate ranker could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum RankerError {
    /// The model file could not be read.
    #[error("cannot read candidate ranker {path}: {message}")]
    Load {
        /// The model file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// What a question's candidates are ranked with.
pub struct QueryEvidence<'a> {
    /// The analysed question.
    pub analysis: &'a QuestionAnalysis,
    /// The snippets, in retrieval order.
    pub texts: &'a [&'a str],
    /// Count candidates per snippet.
    pub candidates: &'a [Vec<CountCandidate>],
    /// Span-model probability of each candidate (same shape as `candidates`).
    pub span: &'a [Vec<f64>],
    /// Fit of each candidate noun to the answer type, in [0, 1] (encoder cosine); nouns missing
    /// here fit 0.
    pub noun_fit: &'a HashMap<String, f64>,
}

/// The question's entities, each as its singular words.
fn entity_words(analysis: &QuestionAnalysis) -> Vec<Vec<String>> {
    analysis
        .entities
        .iter()
        .map(|p| words(p).iter().map(|w| singular(w)).collect())
        .collect()
}

/// Share of the question's entities with a word in the snippet ("mccartney" for "paul
/// mccartney"); 1 when the question names none. `snippet_words` is sorted ([`word_set`]).
fn entity_share(entities: &[Vec<String>], snippet_words: &[String]) -> f64 {
    if entities.is_empty() {
        return 1.0;
    }
    entities
        .iter()
        .filter(|p| p.iter().any(|w| snippet_words.binary_search(w).is_ok()))
        .count() as f64
        / entities.len() as f64
}

/// The share of the question's entities that each snippet's text or, failing that, its source
/// names (a passage of a person's document says "the tower"; its title names the lighthouse).
pub fn entity_shares_with_sources(
    analysis: &QuestionAnalysis,
    texts: &[&str],
    sources: &[&str],
) -> Vec<f64> {
    let entities = entity_words(analysis);
    texts
        .iter()
        .enumerate()
        .map(|(s, text)| {
            let in_text = entity_share(&entities, &word_set(text));
            match sources.get(s) {
                Some(source) if in_text == 0.0 => {
                    entity_share(&entities, &word_set(&format!("{text} {source}")))
                }
                _ => in_text,
            }
        })
        .collect()
}

/// Sets the `entities_in_snippet` feature of each snippet's candidates to `shares[s]` where the
/// text alone named none (so that [`CandidateRanker::probability`] does not zero a passage whose
/// source names the subject).
pub fn credit_sources(rows: &mut [Vec<Features>], shares: &[f64]) {
    for (row, &share) in rows.iter_mut().zip(shares) {
        for x in row.iter_mut() {
            if x[ENTITIES_IN_SNIPPET] == 0.0 {
                x[ENTITIES_IN_SNIPPET] = share;
            }
        }
    }
}

/// Features of every candidate: `out[s][c]` for candidate `c` of snippet `s`.
pub fn features(e: &QueryEvidence) -> Vec<Vec<Features>> {
    let type_words = words(&e.analysis.answer_type_singular);
    let others: Vec<String> = e
        .analysis
        .terms
        .iter()
        .map(|t| singular(t))
        .filter(|t| !type_words.contains(t))
        .collect();
    let entities = entity_words(e.analysis);
    let typed = |c: &CountCandidate| noun_kind(c, e.analysis, &type_words) > 0;
    let with_candidates = e.candidates.iter().filter(|cs| !cs.is_empty()).count();
    let other_snippets = with_candidates.saturating_sub(1).max(1) as f64;
    let agreement = |s: usize, count: f64, only_typed: bool| -> f64 {
        let agreeing = e
            .candidates
            .iter()
            .enumerate()
            .filter(|&(t, cs)| {
                t != s
                    && cs
                        .iter()
                        .any(|o| agree(o.count, count) && (!only_typed || typed(o)))
            })
            .count();
        agreeing as f64 / other_snippets
    };

    let mut rows: Vec<Vec<Features>> = e
        .candidates
        .iter()
        .enumerate()
        .map(|(s, cs)| {
            let text = e.texts[s];
            let snippet_words = word_set(text);
            let best_span = e.span[s].iter().copied().fold(0.0, f64::max);
            let entities_in_snippet = entity_share(&entities, &snippet_words);
            cs.iter()
                .enumerate()
                .map(|(c, cand)| {
                    let sentence = word_set(sentence_around(text, cand.span.start));
                    let nearby = nearby_words(text, &cand.span);
                    let kind = noun_kind(cand, e.analysis, &type_words);
                    let span = e.span[s][c];
                    let before = words(&text[..cand.span.start]);
                    let before: Vec<&str> =
                        before.iter().rev().take(4).map(|w| w.as_str()).collect();
                    let phrase = words(&cand.text);
                    let has = |list: &[&str]| {
                        phrase.iter().any(|w| list.contains(&w.as_str()))
                            || before.iter().any(|w| list.contains(w))
                    };
                    let digits = text[cand.number_span.clone()]
                        .chars()
                        .next()
                        .is_some_and(|ch| ch.is_ascii_digit());
                    [
                        span,
                        f64::from(span > 0.0 && span >= best_span),
                        f64::from(kind == 2),
                        f64::from(kind == 1),
                        f64::from(cand.noun.is_empty()),
                        e.noun_fit.get(&cand.noun).copied().unwrap_or(0.0),
                        overlap(&others, &sentence),
                        overlap(&others, &nearby),
                        overlap(&others, &snippet_words),
                        if entities.is_empty() {
                            1.0
                        } else {
                            entities
                                .iter()
                                .filter(|p| p.iter().all(|w| sentence.contains(w)))
                                .count() as f64
                                / entities.len() as f64
                        },
                        agreement(s, cand.count, false),
                        agreement(s, cand.count, true),
                        ((1.0 + cand.count).ln() / 1e7f64.ln()).min(1.0),
                        f64::from(cand.count <= 2.0),
                        f64::from(digits && (1000.0..=2100.0).contains(&cand.count)),
                        f64::from(has(APPROXIMATE)),
                        f64::from(has(TOTAL)),
                        f64::from(digits),
                        1.0 / cs.len() as f64,
                        1.0 / (1.0 + s as f64 / 10.0),
                        0.0,
                        0.0,
                        0.0,
                        entities_in_snippet,
                    ]
                })
                .collect()
        })
        .collect();
    relative_to_the_question(&mut rows);
    rows
}

/// Fills the features that compare a candidate with the question's other candidates: consolidation
/// picks one count per question, so how a candidate stands among its rivals matters more than its
/// absolute agreement or fit.
fn relative_to_the_question(rows: &mut [Vec<Features>]) {
    let index = |name: &str| FEATURES.iter().position(|f| *f == name).unwrap_or(0);
    let (agreement, fit) = (index("typed_agreement"), index("noun_fit"));
    let best = |j: usize| -> f64 { rows.iter().flatten().map(|x| x[j]).fold(0.0, f64::max) };
    let (best_agreement, best_fit) = (best(agreement), best(fit));
    let share = |x: f64, best: f64| if best > 0.0 { x / best } else { 0.0 };
    let (of_best_agreement, of_best_fit, product) = (
        index("agreement_of_best"),
        index("noun_fit_of_best"),
        index("fit_times_agreement"),
    );
    for x in rows.iter_mut().flatten() {
        x[of_best_agreement] = share(x[agreement], best_agreement);
        x[of_best_fit] = share(x[fit], best_fit);
        x[product] = x[fit] * x[agreement];
    }
}

/// The fit of every candidate noun to the answer type: the encoder's cosine of the two phrases,
/// clamped to [0, 1] ("tracks" fits "songs" though the words differ).
pub fn noun_fits(
    names: &NameCache,
    analysis: &QuestionAnalysis,
    candidates: &[Vec<CountCandidate>],
) -> Result<HashMap<String, f64>, EncoderError> {
    let mut nouns: Vec<&str> = candidates
        .iter()
        .flatten()
        .map(|c| c.noun.as_str())
        .filter(|n| !n.is_empty())
        .collect();
    nouns.sort_unstable();
    nouns.dedup();
    if nouns.is_empty() || analysis.answer_type_singular.is_empty() {
        return Ok(HashMap::new());
    }
    let answer_type = names
        .embed(&[analysis.answer_type_singular.as_str()])?
        .pop()
        .unwrap_or_default();
    Ok(nouns
        .iter()
        .zip(names.embed(&nouns)?)
        .map(|(n, e)| {
            (
                n.to_string(),
                f64::from(cosine(&e, &answer_type)).clamp(0.0, 1.0),
            )
        })
        .collect())
}

const APPROXIMATE: &[&str] = &[
    "about",
    "around",
    "approximately",
    "roughly",
    "nearly",
    "almost",
    "estimated",
    "some",
    "over",
    "more",
    "less",
    "fewer",
    "least",
    "up",
];
const TOTAL: &[&str] = &["total", "altogether", "overall", "combined", "all"];

/// 2: the candidate's noun is the answer type's head; 1: it shares a word with the answer type;
/// 0: neither (or a bare number).
fn noun_kind(c: &CountCandidate, analysis: &QuestionAnalysis, type_words: &[String]) -> u8 {
    let noun: Vec<String> = words(&c.noun).iter().map(|w| singular(w)).collect();
    if noun.last().is_some_and(|h| *h == analysis.head) {
        2
    } else if noun.iter().any(|w| type_words.contains(w)) {
        1
    } else {
        0
    }
}

fn agree(a: f64, b: f64) -> bool {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    hi > 0.0 && lo / hi >= AGREE
}

fn word_set(text: &str) -> Vec<String> {
    let mut w: Vec<String> = words(text).iter().map(|w| singular(w)).collect();
    w.sort_unstable();
    w.dedup();
    w
}

/// The words within [`NEARBY_WORDS`] of a candidate, singular, sorted.
fn nearby_words(text: &str, span: &std::ops::Range<usize>) -> Vec<String> {
    let before = words(&text[..span.start]);
    let after = words(&text[span.end..]);
    let mut w: Vec<String> = before[before.len().saturating_sub(NEARBY_WORDS)..]
        .iter()
        .chain(after.iter().take(NEARBY_WORDS))
        .map(|w| singular(w))
        .collect();
    w.sort_unstable();
    w.dedup();
    w
}

/// Share of `terms` found in the sorted `set` (1 when there are no terms to find).
fn overlap(terms: &[String], set: &[String]) -> f64 {
    if terms.is_empty() {
        return 1.0;
    }
    terms
        .iter()
        .filter(|t| set.binary_search(t).is_ok())
        .count() as f64
        / terms.len() as f64
}

/// A trained ranker: a logistic regression over [`FEATURES`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CandidateRanker {
    /// The features it was trained on, in order.
    pub features: Vec<String>,
    /// The fitted logistic regression.
    #[serde(flatten)]
    pub model: Logistic,
    /// Free-form training record (data, cross-validation figures).
    #[serde(default)]
    pub training: serde_json::Value,
}

impl CandidateRanker {
    /// Fits the ranker on candidates' features and whether each was right.
    pub fn fit(rows: &[(Features, bool)], settings: &FitSettings) -> Self {
        Self {
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
            model: Logistic::fit(rows, settings),
            training: serde_json::Value::Null,
        }
    }

    /// The probability that a candidate with features `x` is right.
    /// A snippet that names none of the question's entities is about something else (Mars
    /// when the question asks about Jupiter): its counts get 0 whatever the weights say. The
    /// training sets' snippets were retrieved for their question, so the fit alone never
    /// learns this.
    pub fn probability(&self, x: &Features) -> f64 {
        if x[ENTITIES_IN_SNIPPET] == 0.0 {
            return 0.0;
        }
        self.model.probability(x)
    }

    /// Reads `candidate_ranker.json` from a span-model directory.
    pub fn load(dir: &Path) -> Result<Self, RankerError> {
        let path = dir.join(RANKER_FILE);
        read_model(&path, &FEATURES, |r: &Self| (&r.features, &r.model)).map_err(|e| {
            RankerError::Load {
                path,
                message: e.to_string(),
            }
        })
    }

    /// Writes `candidate_ranker.json` into `dir`.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        write_model(self, dir, RANKER_FILE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::candidates::count_candidates;
    use crate::count::question::analyse;

    fn evidence_features(question: &str, texts: &[&str]) -> Vec<Vec<Features>> {
        let analysis = analyse(question);
        let candidates: Vec<Vec<CountCandidate>> =
            texts.iter().map(|t| count_candidates(t)).collect();
        let span: Vec<Vec<f64>> = candidates.iter().map(|cs| vec![0.0; cs.len()]).collect();
        features(&QueryEvidence {
            analysis: &analysis,
            texts,
            candidates: &candidates,
            span: &span,
            noun_fit: &HashMap::new(),
        })
    }

    fn feature(x: &Features, name: &str) -> f64 {
        x[FEATURES.iter().position(|f| *f == name).unwrap()]
    }

    #[test]
    fn a_passage_whose_title_names_the_subject_is_not_zeroed() {
        let question = "how many steps does the Calder Point Lighthouse have";
        let texts = [
            "The tower has 212 steps.",
            "The Calder Point Lighthouse has 212 steps.",
        ];
        let mut rows = evidence_features(question, &texts);
        assert_eq!(feature(&rows[0][0], "entities_in_snippet"), 0.0);
        let analysis = analyse(question);
        // Without sources, the text alone decides; with them, the title counts.
        assert_eq!(
            entity_shares_with_sources(&analysis, &texts, &[]),
            vec![0.0, 1.0]
        );
        let shares =
            entity_shares_with_sources(&analysis, &texts, &["Calder Point Lighthouse", "notes"]);
        assert_eq!(shares, vec![1.0, 1.0]);
        credit_sources(&mut rows, &shares);
        assert_eq!(feature(&rows[0][0], "entities_in_snippet"), 1.0);
        assert_eq!(feature(&rows[1][0], "entities_in_snippet"), 1.0);
    }

    #[test]
    fn agreement_counts_other_snippets_stating_the_same_count() {
        let f = evidence_features(
            "how many songs did paul mccartney write for the beatles",
            &[
                "Paul McCartney wrote 71 songs for the Beatles.",
                "He is credited with 70 songs.",
                "The band toured 12 countries.",
            ],
        );
        // 71 agrees with 70 (within 10%), not with 12.
        assert_eq!(feature(&f[0][0], "agreement"), 0.5);
        assert_eq!(feature(&f[0][0], "typed_agreement"), 0.5);
        assert_eq!(feature(&f[2][0], "agreement"), 0.0);
        assert_eq!(feature(&f[0][0], "noun_is_answer_type"), 1.0);
        assert_eq!(feature(&f[2][0], "noun_is_answer_type"), 0.0);
        assert_eq!(feature(&f[0][0], "entities_in_sentence"), 1.0);
        // "He is credited with 70 songs." names neither McCartney nor the Beatles.
        assert_eq!(feature(&f[1][0], "entities_in_snippet"), 0.0);
        assert_eq!(feature(&f[0][0], "entities_in_snippet"), 1.0);
    }

    #[test]
    fn fitted_ranker_separates_and_round_trips() {
        // Right candidates have the answer type and agreement; wrong ones neither.
        let mut rows = Vec::new();
        for i in 0..200 {
            let mut x = [0.0; N];
            let right = i % 3 == 0;
            x[2] = f64::from(right);
            x[10] = if right { 0.6 } else { 0.1 } + (i % 7) as f64 * 0.01;
            x[ENTITIES_IN_SNIPPET] = 1.0;
            rows.push((x, right));
        }
        let ranker = CandidateRanker::fit(&rows, &FitSettings::default());
        let (right, wrong) = (&rows[0].0, &rows[1].0);
        assert!(
            ranker.probability(right) > 0.8,
            "{}",
            ranker.probability(right)
        );
        assert!(
            ranker.probability(wrong) < 0.2,
            "{}",
            ranker.probability(wrong)
        );

        let dir = std::env::temp_dir().join(format!("tally-ranker-{}", std::process::id()));
        ranker.save(&dir).unwrap();
        let loaded = CandidateRanker::load(&dir).unwrap();
        assert!((loaded.probability(right) - ranker.probability(right)).abs() < 1e-12);
        std::fs::remove_dir_all(&dir).ok();

        // A snippet naming none of the question's entities supports nothing.
        let mut off_topic = *right;
        off_topic[ENTITIES_IN_SNIPPET] = 0.0;
        assert_eq!(ranker.probability(&off_topic), 0.0);
    }
}
