//! `tally eval value`: value questions built from a Qsearch-format judged file, answered over
//! all its sentences, scored by Exist@1, Exist@10 and the count metrics of the consolidated
//! answer.
//!
//! How a question is built (the same rule for any judged file): for each relevant judged
//! sentence with an entity, the query's words without its condition ("Stadium with capacity of
//! more than 80000 people" → "stadium capacity people") + " of " + the entity, and " in <unit>"
//! when the condition names a unit of the table. The gold value is the sentence's quantity that
//! meets the condition (the first of the condition's kind when none meets it), read as value
//! questions read it ("2 hours, 17 minutes" is one duration); sentences with no
//! quantity of that kind give no question.

use std::path::Path;

use serde::Serialize;

use tally_documents::corpus::sentences::parse_judged;
use tally_documents::sentence_store::index::StoredSentence;
use tally_documents::sentence_store::observations::ObservationIndex;
use tally_documents::DocumentsError;
use tally_engine::count::metrics::{count_scores, CountScores};
use tally_engine::value::{answer, parse_question, ValueRule, ValueSettings};
use tally_text::quantity::{extract_in_context, parse_query, Quantity};
use tally_text::UnitTable;
use tally_types::ValueAnswer;

/// Why a value evaluation failed.
#[derive(Debug, thiserror::Error)]
pub enum ValueEvalError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not a judged-queries file (the documents' parse of it, naming the file).
    #[error(transparent)]
    Judged(#[from] DocumentsError),
    /// The file is not a list of written questions.
    #[error(
        "{path} could not be read as questions: not the JSON expected (a list of written \
         questions)"
    )]
    Written {
        /// The file.
        path: String,
        /// What the JSON parser found.
        source: serde_json::Error,
    },
    /// A written question names a half there is not.
    #[error(
        "{path} could not be read as questions: question {question} has no half called `{half}`"
    )]
    NoSuchHalf {
        /// The file.
        path: String,
        /// The question's number, from 1.
        question: usize,
        /// The half it names.
        half: String,
    },
    /// The file yields no value question.
    #[error(
        "{file} yields no value question (no relevant sentence with an entity and a quantity)"
    )]
    Empty {
        /// The file, as shown.
        file: String,
    },
}

/// A built question with its gold value.
#[derive(Debug, Clone, Serialize)]
pub struct GoldValueQuestion {
    /// The judged query it was built from.
    pub query: String,
    /// The value question.
    pub question: String,
    /// The gold value.
    pub gold: f64,
    /// Table unit id of the gold value (none for counted nouns or bare numbers).
    pub gold_unit: Option<String>,
    /// The judged sentence the gold value comes from.
    pub sentence: String,
    /// The half a written collection puts the question in; without one, a hash of its query
    /// decides ([`half_of`]).
    #[serde(skip)]
    pub half: Option<crate::quantity::eval::Half>,
}

/// The value figures of a set of questions.
#[derive(Debug, Clone, Serialize)]
pub struct ValueScores {
    /// Questions asked.
    pub questions: usize,
    /// Observations in the index.
    pub observations: usize,
    /// Share of questions whose first observation is right.
    #[serde(rename = "exist@1")]
    pub exist_1: f64,
    /// Share of questions with a right observation among the first 10.
    #[serde(rename = "exist@10")]
    pub exist_10: f64,
    /// The consolidated value's figures.
    pub consolidated: CountScores,
}

/// The judged sentences (each once) and the questions built from them.
pub fn build(path: &Path) -> Result<(Vec<StoredSentence>, Vec<GoldValueQuestion>), ValueEvalError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| ValueEvalError::Read {
        path: shown.clone(),
        source,
    })?;
    let queries = parse_judged(&text, path)?;
    let mut sentences: Vec<StoredSentence> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut questions = Vec::new();
    for query in &queries {
        let parsed = parse_query(&query.query);
        let constraint = parsed.constraints.first();
        for judged in &query.judged {
            let read = extract_in_context(&judged.sentence);
            if seen.insert(judged.sentence.clone()) {
                sentences.push(StoredSentence {
                    id: format!("judged#{}", sentences.len()),
                    text: judged.sentence.clone(),
                    source: "judged".into(),
                    entity: judged.entity.clone(),
                    quantities: read.clone(),
                });
            }
            let (true, Some(entity), Some(constraint)) =
                (judged.relevant, judged.entity.as_deref(), constraint)
            else {
                continue;
            };
            let wanted_dimension = constraint.unit.as_ref().and_then(|u| u.dimension.clone());
            // The sentence's quantities as value questions read them (durations in parts joined).
            let quantities =
                tally_text::quantity::description::join_durations(&judged.sentence, read);
            let of_kind: Vec<&Quantity> = quantities
                .iter()
                .filter(|q| q.kind == tally_text::quantity::NumberKind::Cardinal)
                .filter(|q| q.unit.as_ref().and_then(|u| u.dimension.clone()) == wanted_dimension)
                .collect();
            let in_constraint_unit = |q: &Quantity| -> Option<f64> {
                let v = q.value.low();
                match (
                    q.unit.as_ref().and_then(|u| u.unit_id.as_deref()),
                    constraint.unit.as_ref().and_then(|u| u.unit_id.as_deref()),
                ) {
                    (Some(from), Some(to)) => UnitTable::builtin().convert_ids(v, from, to),
                    _ => Some(v),
                }
            };
            let gold = of_kind
                .iter()
                .find(|q| in_constraint_unit(q).is_some_and(|v| constraint.accepts(v)))
                .or(of_kind.first());
            let Some(gold) = gold else {
                continue;
            };
            let unit_suffix = constraint
                .unit
                .as_ref()
                .filter(|u| u.unit_id.is_some() && u.dimension.as_deref() != Some("count"))
                .map(|u| format!(" in {}", u.name))
                .unwrap_or_default();
            questions.push(GoldValueQuestion {
                query: query.query.clone(),
                question: format!("{} of {entity}{unit_suffix}", parsed.terms.join(" ")),
                gold: (gold.value.low() + gold.value.high()) / 2.0,
                gold_unit: gold.unit.as_ref().and_then(|u| u.unit_id.clone()),
                sentence: judged.sentence.clone(),
                half: None,
            });
        }
    }
    if questions.is_empty() {
        return Err(ValueEvalError::Empty { file: shown });
    }
    Ok((sentences, questions))
}

/// A value question written for the project from general knowledge
/// (`tests/fixtures/everyday-values.json`): its answer and unit, its half, and sentences that
/// state the answer, other things about the subject, or an outlier (rounded, wrong or of another
/// year).
#[derive(Debug, Clone, serde::Deserialize)]
struct WrittenQuestion {
    question: String,
    answer: f64,
    /// A unit name of the table ("metre"), or a counted noun ("seat").
    unit: String,
    half: String,
    sentences: Vec<WrittenSentence>,
}

#[derive(Debug, Clone, serde::Deserialize)]
struct WrittenSentence {
    text: String,
}

/// The written questions and every one of their sentences (each question is answered over all
/// of them, so the others' sentences are distractors).
pub fn build_written(
    path: &Path,
) -> Result<(Vec<StoredSentence>, Vec<GoldValueQuestion>), ValueEvalError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| ValueEvalError::Read {
        path: shown.clone(),
        source,
    })?;
    let written: Vec<WrittenQuestion> =
        serde_json::from_str(&text).map_err(|source| ValueEvalError::Written {
            path: shown.clone(),
            source,
        })?;
    let mut sentences = Vec::new();
    let mut questions = Vec::new();
    for (i, q) in written.into_iter().enumerate() {
        let half = crate::quantity::eval::Half::parse(&q.half).ok_or_else(|| {
            ValueEvalError::NoSuchHalf {
                path: shown.clone(),
                question: i + 1,
                half: q.half.clone(),
            }
        })?;
        for (j, s) in q.sentences.iter().enumerate() {
            sentences.push(StoredSentence {
                id: format!("everyday-{i}#{j}"),
                text: s.text.clone(),
                source: "everyday".into(),
                entity: None,
                quantities: extract_in_context(&s.text),
            });
        }
        questions.push(GoldValueQuestion {
            query: q.question.clone(),
            gold_unit: UnitTable::builtin()
                .lookup(&q.unit)
                .first()
                .map(|u| u.id.clone()),
            question: q.question,
            gold: q.answer,
            sentence: q
                .sentences
                .first()
                .map(|s| s.text.clone())
                .unwrap_or_default(),
            half: Some(half),
        });
    }
    if questions.is_empty() {
        return Err(ValueEvalError::Empty { file: shown });
    }
    Ok((sentences, questions))
}

/// The two fixed halves of the questions, by a stable hash of their query (all questions of a
/// query in one half): rules are developed looking at the tuning half only.
pub fn half_of(question: &GoldValueQuestion) -> crate::quantity::eval::Half {
    use crate::quantity::eval::Half;
    if let Some(written) = question.half {
        return written;
    }
    if tally_text::hash::stable_hash(&question.query).is_multiple_of(2) {
        Half::Tuning
    } else {
        Half::HeldOut
    }
}

/// A value in the answer's unit, in the gold's unit.
fn to_gold_unit(value: f64, unit_id: Option<&str>, gold_unit: Option<&str>) -> Option<f64> {
    match (unit_id, gold_unit) {
        (Some(from), Some(to)) => UnitTable::builtin().convert_ids(value, from, to),
        (None, None) => Some(value),
        _ => None,
    }
}

fn near(a: f64, gold: f64) -> bool {
    (a - gold).abs() <= 0.02 * gold.abs().max(f64::EPSILON)
}

/// Answers every question over all sentences and scores the answers.
pub fn evaluate(
    sentences: &[StoredSentence],
    questions: &[GoldValueQuestion],
    settings: &ValueSettings,
) -> Result<(ValueScores, Vec<ValueAnswer>), DocumentsError> {
    let index = ObservationIndex::of_sentences(sentences)?;
    let mut answers = Vec::with_capacity(questions.len());
    let (mut exist_1, mut exist_10) = (0, 0);
    let mut pairs = Vec::with_capacity(questions.len());
    for q in questions {
        let a = answer(&parse_question(&q.question), &index, settings)?;
        let gold_unit = q.gold_unit.as_deref();
        let hits: Vec<bool> = a
            .observations
            .iter()
            .map(|o| {
                o.value
                    .and_then(|v| to_gold_unit(v, a.unit_id.as_deref(), gold_unit))
                    .is_some_and(|v| near(v, q.gold))
            })
            .collect();
        exist_1 += usize::from(hits.first() == Some(&true));
        exist_10 += usize::from(hits.iter().take(10).any(|&h| h));
        let predicted = a
            .value
            .and_then(|v| to_gold_unit(v, a.unit_id.as_deref(), gold_unit))
            .or(a.value.map(|_| f64::NAN));
        // An answer in a unit that cannot be compared counts as answered and wrong.
        pairs.push((predicted.map(|p| if p.is_nan() { 0.0 } else { p }), q.gold));
        answers.push(a);
    }
    let n = questions.len().max(1) as f64;
    Ok((
        ValueScores {
            questions: questions.len(),
            observations: index.len() as usize,
            exist_1: exist_1 as f64 / n,
            exist_10: exist_10 as f64 / n,
            consolidated: count_scores(&pairs),
        },
        answers,
    ))
}

/// The rules `tally eval value` compares: the median of the first 5 or 10 usable observations,
/// the agreeing majority among them by weight, never contested or contested by a rival group
/// with 100%, 80% or 60% of its support, and the group said by the most sentences.
pub fn rule_grid() -> Vec<ValueSettings> {
    let base = ValueSettings::default();
    let mut grid = Vec::new();
    for consolidate in [5, 10] {
        grid.push(ValueSettings {
            rule: ValueRule::Median,
            consolidate,
            ..base.clone()
        });
        // Before the weighted majorities, so that a tie goes to counting independent sentences.
        grid.push(ValueSettings {
            rule: ValueRule::Agreement,
            consolidate,
            ..base.clone()
        });
        for contested in [f64::INFINITY, 1.0, 0.8, 0.6] {
            grid.push(ValueSettings {
                rule: ValueRule::Majority { contested },
                consolidate,
                ..base.clone()
            });
        }
    }
    grid
}

/// A rule in words: "median of 5", "majority of 10, contested at 80%".
pub fn rule_name(settings: &ValueSettings) -> String {
    let n = settings.consolidate;
    match settings.rule {
        ValueRule::Median => format!("median of {n}"),
        ValueRule::Agreement => format!("most sentences of {n}"),
        ValueRule::Majority { contested } if contested.is_infinite() => {
            format!("majority of {n}")
        }
        ValueRule::Majority { contested } => {
            format!("majority of {n}, contested at {:.0}%", 100.0 * contested)
        }
    }
}

/// One rule's figures on each half.
#[derive(Debug, Clone)]
pub struct RuleRow {
    /// The rule's settings.
    pub settings: ValueSettings,
    /// Its figures on the tuning half.
    pub tuning: ValueScores,
    /// Its figures on the held-out half.
    pub held_out: ValueScores,
}

/// Every rule of [`rule_grid`] on both halves, and the index of the one the tuning half chooses
/// (best P/C; the earlier in the grid on a tie).
pub fn compare_rules(
    sentences: &[StoredSentence],
    questions: &[GoldValueQuestion],
) -> Result<(Vec<RuleRow>, usize), DocumentsError> {
    use crate::quantity::eval::Half;
    let part = |half: Half| -> Vec<GoldValueQuestion> {
        questions
            .iter()
            .filter(|q| half_of(q) == half)
            .cloned()
            .collect()
    };
    let (tuning, held_out) = (part(Half::Tuning), part(Half::HeldOut));
    let mut rows = Vec::new();
    for settings in rule_grid() {
        let (on_tuning, _) = evaluate(sentences, &tuning, &settings)?;
        let (on_held_out, _) = evaluate(sentences, &held_out, &settings)?;
        rows.push(RuleRow {
            settings,
            tuning: on_tuning,
            held_out: on_held_out,
        });
    }
    let chosen = choose_rule(&[&rows]);
    Ok((rows, chosen))
}

/// The rule with the best mean tuning-half P/C over several question sets (each set's rows in
/// [`rule_grid`]'s order); the earlier in the grid on a tie.
pub fn choose_rule(sets: &[&[RuleRow]]) -> usize {
    let mean = |i: usize| {
        sets.iter()
            .map(|rows| rows[i].tuning.consolidated.pc)
            .sum::<f64>()
            / sets.len().max(1) as f64
    };
    let rules = sets.first().map_or(0, |rows| rows.len());
    let mut chosen = 0;
    for i in 1..rules {
        if mean(i) > mean(chosen) {
            chosen = i;
        }
    }
    chosen
}
