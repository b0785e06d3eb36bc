//! Whether an answer over a person's documents is sure enough to give (issue 86): the features
//! of the answer — which reading gave it, how the evidence's words meet the question's, how
//! many passages agree and how many disagree, the reader's confidence — into a logistic model
//! whose probability that the answer is right was fitted out of fold on the own-documents
//! collection's tuning half (`tally train trust`). Below the bound chosen there for a wrong
//! share of at most 3% of all questions, the answer is kept as the closest evidence and said
//! to be unsure: a count is declined with the number it would have given, a value is marked
//! not sure.
//!
//! Answers from the data sets (web snippets, the built-in corpus) are left as they are: their
//! abstention is the answer-support model trained on those sets, and this model has never seen
//! them.

use serde::{Deserialize, Serialize};

use crate::count::logistic::Logistic;
use tally_types::count::{Abstention, CountAnswer};
use tally_types::value::ValueAnswer;
use tally_types::{Certainty, CertaintyMeasure};

/// The count answer's features, in order.
pub const COUNT_FEATURES: [&str; 13] = [
    "aggregation",
    "table_reading",
    "list_reading",
    "line_reading",
    "clause_or_bound_reading",
    "support",
    "confidence",
    "agreeing_passages",
    "rival_counts",
    "counted_noun_in_evidence",
    "question_words_in_evidence",
    "asks_a_year",
    "count_magnitude",
];

/// The value answer's features, in order.
pub const VALUE_FEATURES: [&str; 10] = [
    "table_cell",
    "agreement",
    "observations",
    "differing",
    "apart",
    "best_weight",
    "question_words_in_evidence",
    "dimension_asked",
    "asks_a_year",
    "dimension_agrees",
];

/// One fitted gate: the model and the bound below which its answers are unsure.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gate {
    /// The features it was trained on, in order.
    pub features: Vec<String>,
    /// The fitted logistic regression.
    pub model: Logistic,
    /// Answers whose probability is below this are unsure.
    pub bound: f64,
    /// How it was trained and what it measured (data, out-of-fold figures).
    #[serde(default)]
    pub training: serde_json::Value,
}

/// The gates of count and value answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Trust {
    /// For count answers.
    pub count: Gate,
    /// For value answers.
    pub value: Gate,
}

/// The file of the shipped gates, embedded in the engine.
pub const TRUST_FILE: &str = "trust.json";

const SHIPPED: &str = include_str!("../data/trust.json");

impl Trust {
    /// The shipped gates; `None` when the embedded file holds none (never trained) or was
    /// trained on other features.
    pub fn shipped() -> Option<&'static Trust> {
        static SHIPPED_TRUST: std::sync::OnceLock<Option<Trust>> = std::sync::OnceLock::new();
        SHIPPED_TRUST
            .get_or_init(|| {
                let trust: Trust = serde_json::from_str(SHIPPED).ok()?;
                (trust.count.fits(&COUNT_FEATURES) && trust.value.fits(&VALUE_FEATURES))
                    .then_some(trust)
            })
            .as_ref()
    }
}

impl Gate {
    fn fits(&self, names: &[&str]) -> bool {
        self.features == names && self.model.has_features(names.len())
    }

    /// The probability that an answer with these features is right.
    pub fn probability(&self, features: &[f64]) -> f64 {
        self.model.probability(features)
    }
}

use tally_documents::snippet_index::is_document_passage;

/// Lower-case words of three letters or more.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_lowercase)
        .collect()
}

/// Words of a question that say what it is about (not its question words).
fn content_words(question: &str) -> Vec<String> {
    const FUNCTION: &[&str] = &[
        "how", "many", "much", "what", "which", "the", "are", "was", "were", "did", "does", "for",
        "and", "has", "have", "had", "its", "their", "there", "this", "that", "with", "from",
        "into", "total", "number", "all", "any", "who", "when", "where", "long", "tall", "high",
        "big", "large", "old", "can", "could", "will", "would", "may", "per",
    ];
    words(question)
        .into_iter()
        .filter(|w| !FUNCTION.contains(&w.as_str()))
        .collect()
}

/// The share of the question's content words the evidence holds (1 with none to look for).
fn words_in(question: &str, evidence: &str) -> f64 {
    let asked = content_words(question);
    if asked.is_empty() {
        return 1.0;
    }
    let held = words(evidence);
    // Four letters after a plural's `s`: "carry" meets "carries", "car" meets "cars".
    let stem = |w: &str| w.trim_end_matches('s').chars().take(4).collect::<String>();
    let held: Vec<String> = held.iter().map(|w| stem(w)).collect();
    asked.iter().filter(|w| held.contains(&stem(w))).count() as f64 / asked.len() as f64
}

fn asks_a_year(question: &str) -> f64 {
    let year = question
        .split(|c: char| !c.is_ascii_digit())
        .any(|d| d.len() == 4 && d.parse::<u32>().is_ok_and(|y| (1800..=2100).contains(&y)));
    f64::from(u8::from(year))
}

/// The features of a count answer over a person's documents; `None` when it gives no count or
/// rests on the data sets.
pub fn count_features(answer: &CountAnswer) -> Option<Vec<f64>> {
    let count = answer.count?;
    let aggregation = answer.aggregation.is_some();
    let evidence_id = answer
        .read_from
        .as_ref()
        .map(|r| r.snippet_id.clone())
        .or_else(|| answer.cnp_rep.as_ref().map(|c| c.snippet_id.clone()));
    let from_documents = aggregation || evidence_id.as_deref().is_some_and(is_document_passage);
    if !from_documents {
        return None;
    }
    let evidence = match (&answer.aggregation, &evidence_id) {
        (Some(a), _) => format!(
            "{} {} {}",
            a.table,
            a.header.join(" "),
            a.conditions.join(" ")
        ),
        (None, Some(id)) => answer
            .snippets
            .iter()
            .find(|s| &s.id == id)
            .map(|s| format!("{} {}", s.source, s.text))
            .unwrap_or_default(),
        (None, None) => String::new(),
    };
    let how = answer.read_from.as_ref().map_or("", |r| r.how.as_str());
    let chosen: Vec<f64> = answer
        .snippets
        .iter()
        .filter_map(|s| s.spans.iter().find(|c| c.chosen).map(|c| c.count))
        .collect();
    let agreeing = chosen.iter().filter(|c| (**c - count).abs() < 1e-9).count();
    let mut rivals: Vec<f64> = chosen
        .iter()
        .copied()
        .filter(|c| (c - count).abs() >= 1e-9)
        .collect();
    rivals.sort_by(f64::total_cmp);
    rivals.dedup();
    let head = answer.analysis.head.to_lowercase();
    let flag = |b: bool| f64::from(u8::from(b));
    Some(vec![
        flag(aggregation),
        flag(how.contains("table")),
        flag(how.contains("list")),
        flag(how.contains("line")),
        flag(how.contains("clause") || how.contains("given for")),
        answer.support.clamp(0.0, 1.0),
        answer.confidence.clamp(0.0, 1.0),
        (1.0 + agreeing as f64).ln(),
        (1.0 + rivals.len() as f64).ln(),
        flag(aggregation || (!head.is_empty() && words_in(&head, &evidence) > 0.0)),
        if aggregation {
            1.0
        } else {
            words_in(&answer.question, &evidence)
        },
        asks_a_year(&answer.question),
        (1.0 + count.abs()).ln(),
    ])
}

/// The features of a value answer over a person's documents; `None` when it gives no value or
/// rests on the data sets.
pub fn value_features(answer: &ValueAnswer) -> Option<Vec<f64>> {
    answer.value?;
    use tally_types::value::ObservationGroup;
    let first = answer.observations.first()?;
    let from_cell = first.sentence_id.starts_with("cell#");
    if !from_cell && !is_document_passage(&first.sentence_id) {
        return None;
    }
    let in_group = |group: ObservationGroup| {
        answer
            .observations
            .iter()
            .filter(|o| o.group == group)
            .count() as f64
    };
    let agreeing = answer
        .observations
        .iter()
        .find(|o| o.group == ObservationGroup::Agrees);
    let evidence = agreeing.map_or(String::new(), |o| {
        format!("{} {}", o.context.as_deref().unwrap_or_default(), o.text)
    });
    let best_weight = answer
        .observations
        .iter()
        .map(|o| o.weight)
        .fold(0.0, f64::max);
    Some(vec![
        f64::from(u8::from(from_cell)),
        answer.support().unwrap_or(0.0).clamp(0.0, 1.0),
        (1.0 + answer.observations.len() as f64).ln(),
        (1.0 + in_group(ObservationGroup::Differs)).ln(),
        (1.0 + in_group(ObservationGroup::Apart)).ln(),
        best_weight,
        words_in(&answer.question.text, &evidence),
        f64::from(u8::from(answer.question.dimension.is_some())),
        asks_a_year(&answer.question.text),
        f64::from(u8::from(agreeing.is_some_and(|o| {
            o.description.dimension.is_some()
                && o.description.dimension == answer.question.dimension
        }))),
    ])
}

/// Declines a count answer over a person's documents that rests on a number OCR was unsure of,
/// or that the shipped gate finds unsure, keeping the count it would have given in the
/// sentence and in its [`Certainty`]; returns its probability (`None` when no gate applies).
pub fn check_count(answer: &mut CountAnswer) -> Option<f64> {
    let gated = Trust::shipped()
        .and_then(|trust| Some((&trust.count, count_features(answer)?)))
        .map(|(gate, features)| Certainty {
            probability: gate.probability(&features),
            bound: gate.bound,
            measure: CertaintyMeasure::Documents,
            reading: answer.count,
        });
    if let Some(certainty) = gated {
        answer.certainty = Some(certainty);
    }
    if decline_unsure_count(answer) {
        return gated.map(|c| c.probability);
    }
    let certainty = gated?;
    if !certainty.is_sure() {
        let count = answer.count.take().unwrap_or_default();
        answer.abstention = Some(format!(
            "{}: the closest reading gives {}, {}.",
            Abstention::HEADLINE,
            crate::value::significant(count),
            certainty.sentence()
        ));
    }
    Some(certainty.probability)
}

/// Declines a count that rests on a number OCR read with low confidence (issue 89), keeping the
/// count it would have given and where, so that a person can check the page; says whether it
/// did.
fn decline_unsure_count(answer: &mut CountAnswer) -> bool {
    let Some(place) = crate::ocr_doubt::count_rests_on_unsure(answer) else {
        return false;
    };
    let count = answer.count.take().unwrap_or_default();
    answer.abstention = Some(format!(
        "{}: the closest reading gives {}, but OCR read a number it rests on with low \
         confidence ({}); check the page.",
        Abstention::HEADLINE,
        crate::value::significant(count),
        crate::ocr_doubt::ocr_part(&place)
    ));
    true
}

/// Marks a value answer over a person's documents not sure when the shipped gate finds it
/// unsure; returns its probability (`None` when no gate applies).
pub fn check_value(answer: &mut ValueAnswer) -> Option<f64> {
    if let Some(place) = crate::ocr_doubt::value_rests_on_unsure(answer) {
        answer.not_sure.get_or_insert_with(|| {
            format!(
                "OCR read the number it rests on with low confidence ({}): check the page",
                crate::ocr_doubt::ocr_part(&place)
            )
        });
    }
    let gate = &Trust::shipped()?.value;
    let features = value_features(answer)?;
    let certainty = Certainty {
        probability: gate.probability(&features),
        bound: gate.bound,
        measure: CertaintyMeasure::Documents,
        reading: answer.value,
    };
    answer.certainty = Some(certainty);
    if !certainty.is_sure() && answer.not_sure.is_none() {
        answer.not_sure = Some(format!("it is {}", certainty.sentence()));
    }
    Some(certainty.probability)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_gates_load_with_a_bound_each() {
        let trust = Trust::shipped().expect("engine/data/trust.json holds both gates");
        for gate in [&trust.count, &trust.value] {
            assert!(gate.bound > 0.0 && gate.bound < 1.0, "{}", gate.bound);
        }
        // An answer with no features (from the data sets) is never gated.
        let answer = CountAnswer {
            count: Some(3.0),
            ..crate::records::no_such_column_answer(
                "how many",
                &Default::default(),
                &tally_documents::tables::TableSchema {
                    document: String::new(),
                    context: String::new(),
                    columns: Vec::new(),
                    rows: 0,
                },
                "x",
            )
        };
        assert_eq!(count_features(&answer), None);
    }

    #[test]
    fn the_evidence_words_are_counted_against_the_question() {
        assert_eq!(
            words_in(
                "how many cars can the ferry carry",
                "The ferry carries 40 cars"
            ),
            1.0
        );
        assert!(
            words_in(
                "how many plots are on the site",
                "The society has 212 members"
            ) < 0.5
        );
        assert_eq!(asks_a_year("how many members in 2021"), 1.0);
        assert_eq!(asks_a_year("how many members"), 0.0);
    }
}
