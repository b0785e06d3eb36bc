//! Scoring the extractor against gold quantities in the NewsQuant format (the CQE evaluation
//! sets): a JSON array of `{"text", "quantities": [{"value", "normalized_unit", "change"?}]}`.
//!
//! Matching follows the CQE evaluation: per sentence, a predicted quantity matches a gold one when
//! the values are numerically equal (relative tolerance 1e-5; ranges match ranges end by end;
//! gold ranges are written "a-b"). Three scores are kept, each a one-to-one matching within the
//! sentence: value; value + unit; value + change. Ordinals and multipliers ("twice") are not
//! scored.
//!
//! Units are compared through Tally's unit table: the gold `normalized_unit` is looked up as a
//! unit name ("kilometre per hour", "pound sterling", "percentage"), and matches when it names the
//! predicted unit (or the count unit of a predicted noun). Gold units that are not in the table
//! (count nouns such as "heart transplant") are compared as singular lower-case strings; "-"
//! means no unit. Unlike the CQE script, a gold quantity is counted at most once for every score.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::extract::singular;
use super::{extract, Change, NumberKind, Quantity, Value};
use crate::text::hash::stable_hash;
use crate::UnitTable;

/// The two fixed halves of a gold file, by a stable hash of each sentence: the extractor's rules
/// are tuned on the tuning half only, and the held-out half shows whether they generalise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    Tuning,
    HeldOut,
}

impl Half {
    pub const ALL: [Half; 2] = [Half::Tuning, Half::HeldOut];

    pub const fn name(self) -> &'static str {
        match self {
            Half::Tuning => "tuning",
            Half::HeldOut => "held-out",
        }
    }

    pub fn parse(name: &str) -> Option<Half> {
        Half::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The half a sentence belongs to.
    pub fn of(sentence: &GoldSentence) -> Half {
        if stable_hash(&sentence.text).is_multiple_of(2) {
            Half::Tuning
        } else {
            Half::HeldOut
        }
    }

    /// The gold sentences of this half, in file order.
    pub fn select(self, gold: &[GoldSentence]) -> Vec<GoldSentence> {
        gold.iter()
            .filter(|s| Half::of(s) == self)
            .cloned()
            .collect()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("cannot read {path}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a gold quantity file: {message}")]
    Format { path: String, message: String },
}

#[derive(Debug, Clone, Deserialize)]
pub struct GoldSentence {
    pub text: String,
    pub quantities: Vec<GoldQuantity>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GoldQuantity {
    pub value: String,
    #[serde(default)]
    pub normalized_unit: String,
    #[serde(default)]
    pub change: Option<String>,
}

/// Precision, recall and F1 in percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prf {
    pub p: f64,
    pub r: f64,
    pub f1: f64,
}

impl Prf {
    fn from_counts(correct: usize, gold: usize, predicted: usize) -> Self {
        let p = if predicted == 0 {
            0.0
        } else {
            correct as f64 / predicted as f64
        };
        let r = if gold == 0 {
            0.0
        } else {
            correct as f64 / gold as f64
        };
        let f1 = if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        };
        let pct = |x: f64| (x * 1000.0).round() / 10.0;
        Prf {
            p: pct(p),
            r: pct(r),
            f1: pct(f1),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ExtractionReport {
    pub sentences: usize,
    pub value: Prf,
    pub value_unit: Prf,
    /// `None` when the gold file has no change annotations (the recognizers sets).
    pub value_change: Option<Prf>,
    #[serde(skip)]
    pub gold_quantities: usize,
    #[serde(skip)]
    pub predicted_quantities: usize,
    /// Sentences with a difference, for `--errors`.
    #[serde(skip)]
    pub differences: Vec<Difference>,
}

#[derive(Debug, Clone)]
pub struct Difference {
    pub text: String,
    /// Gold quantities not matched on value+unit, as "value unit change".
    pub missed: Vec<String>,
    /// Predicted quantities not matched on value+unit.
    pub spurious: Vec<String>,
}

pub fn read_gold(path: &Path) -> Result<Vec<GoldSentence>, EvalError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
        path: shown.clone(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| EvalError::Format {
        path: shown,
        message: e.to_string(),
    })
}

/// A gold or predicted value: one number or a range.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Number {
    One(f64),
    Two(f64, f64),
}

fn gold_number(value: &str) -> Option<Number> {
    let value = value.trim();
    // "1.0-1.5" is a range; "-5" and "1E-3" are not.
    if !value.contains(['E', 'e']) {
        if let Some(dash) = value[1.min(value.len())..].find('-') {
            let split = dash + 1;
            let a = value[..split].trim().parse().ok()?;
            let b = value[split + 1..].trim().parse().ok()?;
            return Some(Number::Two(a, b));
        }
    }
    value.parse().ok().map(Number::One)
}

fn predicted_number(q: &Quantity) -> Number {
    match q.value {
        Value::Single(v) => Number::One(v),
        Value::Range { from, to } => Number::Two(from, to),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-8 + 1e-5 * b.abs()
}

fn values_match(gold: Number, predicted: Number) -> bool {
    match (gold, predicted) {
        (Number::One(g), Number::One(p)) => close(p, g),
        (Number::Two(g1, g2), Number::Two(p1, p2)) => close(p1, g1) && close(p2, g2),
        _ => false,
    }
}

/// The change symbols of the gold files.
fn change_symbol(change: Change) -> &'static str {
    match change {
        Change::Equal => "=",
        Change::Approx => "~",
        Change::Above | Change::AtLeast => ">",
        Change::Below | Change::AtMost => "<",
        Change::Up => "up",
        Change::Down => "down",
    }
}

fn units_match(gold: &str, q: &Quantity) -> bool {
    let gold = gold.trim().to_lowercase();
    let Some(unit) = &q.unit else {
        return gold == "-" || gold.is_empty();
    };
    if gold == "-" || gold.is_empty() {
        return false;
    }
    let table = UnitTable::builtin();
    let (numerator, denominator) = match gold.split_once(" per ") {
        Some((n, d)) if unit.per.is_some() => (n.to_string(), Some(d.to_string())),
        _ => (gold.clone(), None),
    };
    let names_unit = |name: &str, id: Option<&str>, shown: &str| {
        let Some(id) = id else {
            return singular_phrase(name) == singular_phrase(shown);
        };
        let resolved = table.lookup(name);
        if resolved.is_empty() {
            singular_phrase(name) == singular_phrase(shown)
        } else {
            resolved.iter().any(|u| u.id == id)
        }
    };
    let own_name = unit.name.split(" per ").next().unwrap_or(&unit.name);
    let numerator_ok = names_unit(&numerator, unit.unit_id.as_deref(), own_name)
        || singular_phrase(&numerator) == singular_phrase(own_name);
    let denominator_ok = match (&denominator, &unit.per) {
        (None, None) => true,
        (Some(d), Some(per)) => {
            names_unit(d, per.unit_id.as_deref(), &per.name)
                || singular_phrase(d) == singular_phrase(&per.name)
        }
        (None, Some(_)) => false,
        (Some(_), None) => false,
    };
    numerator_ok && denominator_ok
}

fn singular_phrase(phrase: &str) -> String {
    let mut words: Vec<String> = phrase.split_whitespace().map(str::to_lowercase).collect();
    if let Some(last) = words.last_mut() {
        *last = singular(last);
    }
    words.join(" ")
}

/// One-to-one greedy matching; returns the matched predicted index for each gold quantity.
fn matching(
    gold: &[GoldQuantity],
    predicted: &[Quantity],
    accept: impl Fn(&GoldQuantity, &Quantity) -> bool,
) -> Vec<Option<usize>> {
    let mut used = vec![false; predicted.len()];
    gold.iter()
        .map(|g| {
            let gv = gold_number(&g.value)?;
            let found = predicted.iter().enumerate().position(|(i, p)| {
                !used[i] && values_match(gv, predicted_number(p)) && accept(g, p)
            });
            if let Some(i) = found {
                used[i] = true;
            }
            found
        })
        .collect()
}

/// Runs the extractor over every gold sentence and scores it.
pub fn evaluate(gold: &[GoldSentence]) -> ExtractionReport {
    let has_change = gold
        .iter()
        .flat_map(|s| &s.quantities)
        .any(|q| q.change.is_some());
    let (mut n_gold, mut n_pred) = (0, 0);
    let (mut ok_value, mut ok_unit, mut ok_change) = (0, 0, 0);
    let mut differences = Vec::new();
    for sentence in gold {
        let predicted: Vec<Quantity> = extract(&sentence.text)
            .into_iter()
            .filter(|q| matches!(q.kind, NumberKind::Cardinal | NumberKind::Fraction))
            .collect();
        n_gold += sentence.quantities.len();
        n_pred += predicted.len();
        let by_value = matching(&sentence.quantities, &predicted, |_, _| true);
        let by_unit = matching(&sentence.quantities, &predicted, |g, p| {
            units_match(&g.normalized_unit, p)
        });
        let by_change = matching(&sentence.quantities, &predicted, |g, p| {
            g.change.as_deref().unwrap_or("=") == change_symbol(p.change)
        });
        ok_value += by_value.iter().flatten().count();
        ok_unit += by_unit.iter().flatten().count();
        ok_change += by_change.iter().flatten().count();

        let missed: Vec<String> = sentence
            .quantities
            .iter()
            .zip(&by_unit)
            .zip(&by_change)
            .filter(|((_, u), c)| u.is_none() || (has_change && c.is_none()))
            .map(|((g, _), _)| {
                format!(
                    "{} [{}] {}",
                    g.value,
                    g.normalized_unit,
                    g.change.as_deref().unwrap_or("")
                )
            })
            .collect();
        let matched: Vec<usize> = by_unit.iter().flatten().copied().collect();
        let matched_change: Vec<usize> = by_change.iter().flatten().copied().collect();
        let spurious: Vec<String> = predicted
            .iter()
            .enumerate()
            .filter(|(i, _)| !matched.contains(i) || (has_change && !matched_change.contains(i)))
            .map(|(_, q)| describe(&sentence.text, q))
            .collect();
        if !missed.is_empty() || !spurious.is_empty() {
            differences.push(Difference {
                text: sentence.text.clone(),
                missed,
                spurious,
            });
        }
    }
    ExtractionReport {
        sentences: gold.len(),
        value: Prf::from_counts(ok_value, n_gold, n_pred),
        value_unit: Prf::from_counts(ok_unit, n_gold, n_pred),
        value_change: has_change.then(|| Prf::from_counts(ok_change, n_gold, n_pred)),
        gold_quantities: n_gold,
        predicted_quantities: n_pred,
        differences,
    }
}

fn describe(text: &str, q: &Quantity) -> String {
    let value = match q.value {
        Value::Single(v) => format!("{v}"),
        Value::Range { from, to } => format!("{from}-{to}"),
    };
    let unit = q.unit.as_ref().map_or("-".to_string(), |u| u.name.clone());
    format!(
        "{value} [{unit}] {} «{}»",
        change_symbol(q.change),
        text.get(q.span.clone()).unwrap_or("")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_values_and_ranges_parse_like_the_cqe_script() {
        assert_eq!(gold_number("6.0"), Some(Number::One(6.0)));
        assert_eq!(gold_number("-5"), Some(Number::One(-5.0)));
        assert_eq!(gold_number("1.0-1.5"), Some(Number::Two(1.0, 1.5)));
        assert_eq!(gold_number("1E-3"), Some(Number::One(0.001)));
    }

    #[test]
    fn scores_count_each_gold_quantity_once() {
        let gold: Vec<GoldSentence> = serde_json::from_str(
            r#"[{"text": "It costs $5 and weighs 5 kg.",
                 "quantities": [{"value": "5", "normalized_unit": "dollar", "change": "="},
                                {"value": "7", "normalized_unit": "kilogram", "change": "="}]}]"#,
        )
        .unwrap();
        let report = evaluate(&gold);
        // Two predictions (5 dollar, 5 kg), two gold (5 dollar, 7 kg): one match.
        assert_eq!(
            report.value,
            Prf {
                p: 50.0,
                r: 50.0,
                f1: 50.0
            }
        );
        assert_eq!(
            report.value_unit,
            Prf {
                p: 50.0,
                r: 50.0,
                f1: 50.0
            }
        );
    }
}
