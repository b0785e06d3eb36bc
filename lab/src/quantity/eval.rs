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
//!
//! Another extractor's output (CQE's, in `scripts/bench-cqe.sh`) is scored by the same code: its
//! predictions are written in the gold format and read by [`read_predictions`]; their unit names
//! are resolved through the same table.

use std::path::Path;

use serde::{Deserialize, Serialize};

use tally_text::hash::stable_hash;
use tally_text::quantity::singular;
use tally_text::quantity::{extract_in_context, Change, NumberKind, Quantity, Value};
use tally_text::UnitTable;

/// The two fixed halves of a gold file, by a stable hash of each sentence: the extractor's rules
/// are tuned on the tuning half only, and the held-out half shows whether they generalise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// The half the rules are tuned on.
    Tuning,
    /// The half that shows whether they generalise.
    HeldOut,
}

impl Half {
    /// Both halves, in report order.
    pub const ALL: [Half; 2] = [Half::Tuning, Half::HeldOut];

    /// The half's name ("tuning" or "held-out").
    pub const fn name(self) -> &'static str {
        match self {
            Half::Tuning => "tuning",
            Half::HeldOut => "held-out",
        }
    }

    /// The half with this name, if any.
    pub fn parse(name: &str) -> Option<Half> {
        Half::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The half a sentence belongs to: the one it names, else by a hash of its text.
    pub fn of(sentence: &GoldSentence) -> Half {
        if let Some(named) = sentence.half.as_deref().and_then(Half::parse) {
            return named;
        }
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

/// Why a gold quantity file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not in the gold format.
    #[error("{path} is not a gold quantity file: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// The file is not the JSON of a gold quantity file.
    #[error("{path} is not a gold quantity file")]
    Json {
        /// The file.
        path: String,
        /// What the JSON reader said.
        #[source]
        source: serde_json::Error,
    },
}

/// One sentence of a gold file in the NewsQuant format, with its quantities.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GoldSentence {
    /// The sentence.
    pub text: String,
    /// The quantities it states.
    pub quantities: Vec<GoldQuantity>,
    /// The class a hand-written sentence was written for ("currency", "range" …); a sentence
    /// without one is classed by its gold quantities ([`Class::of`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The half a hand-written collection puts the sentence in ("tuning" or "held-out"); without
    /// one, a hash of the text decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<String>,
}

/// The kinds of quantity issue 50 measures separately: money, a unit per another, ranges,
/// changes, written forms (superscripts, spelled decimals, "t"), and the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Money.
    Currency,
    /// A unit per another.
    Compound,
    /// A range of values.
    Range,
    /// A change of a value.
    Change,
    /// Written forms: superscripts, spelled decimals, "t".
    Forms,
    /// Everything else.
    Plain,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 6] = [
        Class::Currency,
        Class::Compound,
        Class::Range,
        Class::Change,
        Class::Forms,
        Class::Plain,
    ];

    /// The class's name in reports and gold files.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Currency => "currency",
            Class::Compound => "compound",
            Class::Range => "range",
            Class::Change => "change",
            Class::Forms => "forms",
            Class::Plain => "plain",
        }
    }

    /// The class with this name, if any.
    pub fn parse(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The classes of a gold sentence: the one it was written for, else those of its
    /// quantities (a range of money is both a range and currency); "plain" when none applies.
    pub fn of(sentence: &GoldSentence) -> Vec<Class> {
        if let Some(named) = sentence.class.as_deref().and_then(Class::parse) {
            return vec![named];
        }
        let table = UnitTable::builtin();
        let mut classes = Vec::new();
        for q in &sentence.quantities {
            let unit = q.normalized_unit.trim().to_lowercase();
            let numerator = unit.split(" per ").next().unwrap_or(&unit);
            let found = [
                (
                    Class::Currency,
                    table
                        .lookup(numerator)
                        .iter()
                        .any(|u| u.dimension == "currency"),
                ),
                (Class::Compound, unit.contains(" per ")),
                (
                    Class::Range,
                    matches!(gold_number(&q.value), Some(Number::Two(..))),
                ),
                (
                    Class::Change,
                    matches!(q.change.as_deref(), Some("up" | "down")),
                ),
            ];
            for (class, applies) in found {
                if applies && !classes.contains(&class) {
                    classes.push(class);
                }
            }
        }
        if classes.is_empty() {
            classes.push(Class::Plain);
        }
        classes.sort();
        classes
    }

    /// The sentences of this class, in file order.
    pub fn select(self, gold: &[GoldSentence]) -> Vec<GoldSentence> {
        gold.iter()
            .filter(|s| Class::of(s).contains(&self))
            .cloned()
            .collect()
    }
}

/// One gold quantity of a sentence.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GoldQuantity {
    /// Its value as written in the gold file.
    pub value: String,
    /// Its normalised unit; empty when it has none.
    #[serde(default)]
    pub normalized_unit: String,
    /// Its change ("up", "down" …), if any.
    #[serde(default)]
    pub change: Option<String>,
}

/// Precision, recall and F1 in percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prf {
    /// Precision.
    pub p: f64,
    /// Recall.
    pub r: f64,
    /// F1.
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

/// The extraction figures of a set of gold sentences.
#[derive(Debug, Clone, Serialize)]
pub struct ExtractionReport {
    /// Sentences scored.
    pub sentences: usize,
    /// Scores on the value alone.
    pub value: Prf,
    /// Scores on value and unit.
    pub value_unit: Prf,
    /// `None` when the gold file has no change annotations (the recognizers sets).
    pub value_change: Option<Prf>,
    /// Gold quantities in all.
    #[serde(skip)]
    pub gold_quantities: usize,
    /// Predicted quantities in all.
    #[serde(skip)]
    pub predicted_quantities: usize,
    /// Sentences with a difference, for `--errors`.
    #[serde(skip)]
    pub differences: Vec<Difference>,
}

/// A sentence where the extractor and the gold differ.
#[derive(Debug, Clone)]
pub struct Difference {
    /// The sentence.
    pub text: String,
    /// Gold quantities not matched on value+unit, as "value unit change".
    pub missed: Vec<String>,
    /// Predicted quantities not matched on value+unit.
    pub spurious: Vec<String>,
}

/// Reads a gold file in the NewsQuant format.
pub fn read_gold(path: &Path) -> Result<Vec<GoldSentence>, EvalError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
        path: shown.clone(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| EvalError::Json {
        path: shown,
        source,
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

/// A predicted quantity as the scorer sees it: Tally's own, or one read from a predictions file.
#[derive(Debug, Clone)]
pub struct Predicted {
    number: Number,
    unit: Option<PredictedUnit>,
    change: String,
    /// The text it was read from, when known (for `--errors`).
    surface: Option<String>,
}

#[derive(Debug, Clone)]
struct PredictedUnit {
    /// The unit's name without its "per" part.
    name: String,
    id: Option<String>,
    per: Option<(String, Option<String>)>,
}

impl Predicted {
    fn of_tally(text: &str, q: &Quantity) -> Self {
        let unit = q.unit.as_ref().map(|u| PredictedUnit {
            // A compound's name may repeat its "per" part; a unit such as "kilometre per hour"
            // keeps its whole name.
            name: match u.per {
                Some(_) => u.name.split(" per ").next().unwrap_or(&u.name).to_string(),
                None => u.name.clone(),
            },
            id: u.unit_id.clone(),
            per: u.per.as_ref().map(|p| (p.name.clone(), p.unit_id.clone())),
        });
        Predicted {
            number: match q.value {
                Value::Single(v) => Number::One(v),
                Value::Range { from, to } => Number::Two(from, to),
            },
            unit,
            change: change_symbol(q.change).to_string(),
            surface: text.get(q.span.clone()).map(str::to_string),
        }
    }

    /// A quantity written in the gold format by another extractor; its unit name is resolved
    /// through Tally's table (whole, else as "numerator per denominator").
    fn of_written(q: &GoldQuantity) -> Option<Self> {
        let table = UnitTable::builtin();
        let id_of = |name: &str| table.lookup(name).first().map(|u| u.id.clone());
        let name = q.normalized_unit.trim().to_lowercase();
        let unit = if name.is_empty() || name == "-" {
            None
        } else if let (None, Some((n, d))) = (id_of(&name), name.split_once(" per ")) {
            Some(PredictedUnit {
                name: n.to_string(),
                id: id_of(n),
                per: Some((d.to_string(), id_of(d))),
            })
        } else {
            Some(PredictedUnit {
                id: id_of(&name),
                name,
                per: None,
            })
        };
        Some(Predicted {
            number: gold_number(&q.value)?,
            unit,
            change: q.change.clone().unwrap_or_else(|| "=".to_string()),
            surface: None,
        })
    }
}

impl Predicted {
    /// In the gold format, as another extractor's predictions are written.
    fn to_written(&self) -> GoldQuantity {
        let value = match self.number {
            Number::One(v) => format!("{v}"),
            Number::Two(from, to) => format!("{from}-{to}"),
        };
        let normalized_unit = self
            .unit
            .as_ref()
            .map_or("-".to_string(), |u| match &u.per {
                Some((per, _)) => format!("{} per {per}", u.name),
                None => u.name.clone(),
            });
        GoldQuantity {
            value,
            normalized_unit,
            change: Some(self.change.clone()),
        }
    }
}

/// Tally's predictions for the gold sentences, written in the gold format (what `--predictions`
/// reads), so that Tally can be scored by exactly the path another extractor is.
pub fn tally_predictions(gold: &[GoldSentence]) -> Vec<GoldSentence> {
    gold.iter()
        .map(|s| GoldSentence {
            text: s.text.clone(),
            class: None,
            half: None,
            quantities: tally_predicted(&s.text)
                .iter()
                .map(Predicted::to_written)
                .collect(),
        })
        .collect()
}

fn tally_predicted(text: &str) -> Vec<Predicted> {
    extract_in_context(text)
        .iter()
        .filter(|q| matches!(q.kind, NumberKind::Cardinal | NumberKind::Fraction))
        .map(|q| Predicted::of_tally(text, q))
        .collect()
}

fn units_match(gold: &str, predicted: &Predicted) -> bool {
    let gold = gold.trim().to_lowercase();
    let Some(unit) = &predicted.unit else {
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
        let same_phrase = singular_phrase(name) == singular_phrase(shown);
        let Some(id) = id else {
            return same_phrase;
        };
        let resolved = table.lookup(name);
        same_phrase || resolved.iter().any(|u| u.id == id)
    };
    let numerator_ok = names_unit(&numerator, unit.id.as_deref(), &unit.name);
    let denominator_ok = match (&denominator, &unit.per) {
        (None, None) => true,
        (Some(d), Some((per_name, per_id))) => names_unit(d, per_id.as_deref(), per_name),
        (None, Some(_)) | (Some(_), None) => false,
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
    predicted: &[Predicted],
    accept: impl Fn(&GoldQuantity, &Predicted) -> bool,
) -> Vec<Option<usize>> {
    let mut used = vec![false; predicted.len()];
    gold.iter()
        .map(|g| {
            let gv = gold_number(&g.value)?;
            let found = predicted
                .iter()
                .enumerate()
                .position(|(i, p)| !used[i] && values_match(gv, p.number) && accept(g, p));
            if let Some(i) = found {
                used[i] = true;
            }
            found
        })
        .collect()
}

/// Runs the extractor over every gold sentence and scores it.
pub fn evaluate(gold: &[GoldSentence]) -> ExtractionReport {
    score(gold, tally_predicted)
}

/// Predictions of another extractor, in the gold format, by sentence text.
pub type WrittenPredictions = std::collections::HashMap<String, Vec<Predicted>>;

/// Reads another extractor's predictions (a file in the gold format). Values that are not
/// numbers are left out, as the gold's are.
pub fn read_predictions(path: &Path) -> Result<WrittenPredictions, EvalError> {
    Ok(written(&read_gold(path)?))
}

fn written(sentences: &[GoldSentence]) -> WrittenPredictions {
    sentences
        .iter()
        .map(|s| {
            let found = s
                .quantities
                .iter()
                .filter_map(Predicted::of_written)
                .collect();
            (s.text.clone(), found)
        })
        .collect()
}

/// Scores another extractor's predictions against the gold, by the same rules as Tally's.
/// Every gold sentence must have an entry (an empty list when nothing was found).
pub fn evaluate_written(
    gold: &[GoldSentence],
    predictions: &WrittenPredictions,
) -> Result<ExtractionReport, EvalError> {
    if let Some(missing) = gold.iter().find(|s| !predictions.contains_key(&s.text)) {
        return Err(EvalError::Format {
            path: "the predictions".to_string(),
            message: format!("no entry for the gold sentence {:?}", missing.text),
        });
    }
    Ok(score(gold, |text| {
        predictions.get(text).cloned().unwrap_or_default()
    }))
}

fn score(gold: &[GoldSentence], predict: impl Fn(&str) -> Vec<Predicted>) -> ExtractionReport {
    let has_change = gold
        .iter()
        .flat_map(|s| &s.quantities)
        .any(|q| q.change.is_some());
    let (mut n_gold, mut n_pred) = (0, 0);
    let (mut ok_value, mut ok_unit, mut ok_change) = (0, 0, 0);
    let mut differences = Vec::new();
    for sentence in gold {
        let predicted = predict(&sentence.text);
        n_gold += sentence.quantities.len();
        n_pred += predicted.len();
        let by_value = matching(&sentence.quantities, &predicted, |_, _| true);
        let by_unit = matching(&sentence.quantities, &predicted, |g, p| {
            units_match(&g.normalized_unit, p)
        });
        let by_change = matching(&sentence.quantities, &predicted, |g, p| {
            g.change.as_deref().unwrap_or("=") == p.change
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
            .map(|(_, q)| describe(q))
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

fn describe(q: &Predicted) -> String {
    let written = q.to_written();
    let surface = q
        .surface
        .as_deref()
        .map(|s| format!(" «{s}»"))
        .unwrap_or_default();
    format!(
        "{} [{}] {}{surface}",
        written.value, written.normalized_unit, q.change
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

    #[test]
    fn written_predictions_are_scored_by_the_same_rules() {
        let gold: Vec<GoldSentence> = serde_json::from_str(
            r#"[{"text": "It costs $5 and runs at 7 km/h.",
                 "quantities": [{"value": "5", "normalized_unit": "dollar", "change": "="},
                                {"value": "7", "normalized_unit": "kilometre per hour", "change": "="}]},
                {"text": "Sales rose 3%.",
                 "quantities": [{"value": "3", "normalized_unit": "percentage", "change": "up"}]}]"#,
        )
        .unwrap();
        // The gold read as predictions scores 100 on everything.
        let report = evaluate_written(&gold, &written(&gold)).unwrap();
        assert_eq!(report.value_unit.f1, 100.0);
        assert_eq!(report.value_change.map(|c| c.f1), Some(100.0));
        // Another name of the same unit matches; a wrong unit or change does not.
        let other: Vec<GoldSentence> = serde_json::from_str(
            r#"[{"text": "It costs $5 and runs at 7 km/h.",
                 "quantities": [{"value": "5", "normalized_unit": "US dollar", "change": "="},
                                {"value": "7", "normalized_unit": "metre", "change": "="}]},
                {"text": "Sales rose 3%.",
                 "quantities": [{"value": "3", "normalized_unit": "percent", "change": "="}]}]"#,
        )
        .unwrap();
        let report = evaluate_written(&gold, &written(&other)).unwrap();
        assert_eq!(report.value.f1, 100.0);
        assert_eq!((report.value_unit.p, report.value_unit.r), (66.7, 66.7));
        assert_eq!(report.value_change.map(|c| c.r), Some(66.7));
        // A sentence without an entry is an error, not a zero.
        assert!(evaluate_written(&gold, &WrittenPredictions::new()).is_err());
    }
}
