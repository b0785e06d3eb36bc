//! Quantities in text: extraction ("more than 300 hp" → value 300, unit horsepower, condition >),
//! query parsing ("cars with more than 300 hp and under $50k" → terms and constraints) and the
//! evaluation against gold quantity annotations.
//!
//! The extractor is rule-based and linear: one tokenizer pass, then number readings at each
//! number token, units right after (or currency symbols right before) the number, conditions in
//! the few words before it, and a last pass that joins ranges ("between 50 and 60 km").
//!
//! **What is not a measurement** (dropped, see [`extract`] rules in `extract.rs`):
//! dates (a number next to a month name, `12/05/2020`, `2020-05-12`, decades such as `1990s`),
//! years (a bare four-digit 1200–2100 integer after a year cue such as "in", "since", "the", a
//! month, or with no unit or plural noun after it), times of day (`10:30`, `5pm`, `11 a.m.`),
//! phone numbers (digit groups such as `555-1234`, `(555) 123-4567`, `+44 20 7946 0958`), and
//! identifiers (digits glued to letters — `PS5`, `5G`, `COVID-19`, `F-150` — or written after a
//! capitalised name — `iPhone 11`, `Windows 10`, `Section 427` — unless a unit follows).
//! Ordinals ("22nd", "third") are returned with [`NumberKind::Ordinal`] so that callers can keep
//! them apart from counts.

mod ambiguous_units;
mod borrowed_units;
mod comparatives;
mod extract;
pub(crate) mod lexicon;
mod query;
mod tokens;

pub mod concept;
pub mod description;

use std::ops::Range;

use serde::{Deserialize, Serialize};

pub use extract::extract;

/// The quantities of a text with units known only from the context ("3.9 million headsets, up
/// from 2.4 million": the second is headsets too), for showing, indexing and scoring extraction.
/// Count candidates read numbers with [`extract`] instead: a count must be stated with its noun,
/// and lent units made the count evaluation worse (docs/experiments.md).
pub fn extract_in_context(text: &str) -> Vec<Quantity> {
    let mut quantities = extract(text);
    borrowed_units::inherit_units(text, &mut quantities);
    quantities
}
pub use extract::singular;
pub use lexicon::is_function_word;
pub use query::{parse_query, Condition, Constraint, ParsedQuery, QueryProblem};

/// A quantity's relation to its value: exact, approximate, a bound, or a change over time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Change {
    /// Exactly the value ("=").
    #[serde(rename = "=")]
    Equal,
    /// About the value ("~": "about 300", "nearly 5 km").
    #[serde(rename = "~")]
    Approx,
    /// More than the value (">").
    #[serde(rename = ">")]
    Above,
    /// The value or more (">=").
    #[serde(rename = ">=")]
    AtLeast,
    /// Less than the value ("<").
    #[serde(rename = "<")]
    Below,
    /// The value or less ("<=").
    #[serde(rename = "<=")]
    AtMost,
    /// A rise ("rose", "up").
    #[serde(rename = "up")]
    Up,
    /// A fall ("fell", "down").
    #[serde(rename = "down")]
    Down,
}

impl Change {
    /// The symbol used in gold files and in the API ("=", "~", ">", ">=", "<", "<=", "up", "down").
    pub fn symbol(self) -> &'static str {
        match self {
            Change::Equal => "=",
            Change::Approx => "~",
            Change::Above => ">",
            Change::AtLeast => ">=",
            Change::Below => "<",
            Change::AtMost => "<=",
            Change::Up => "up",
            Change::Down => "down",
        }
    }
}

/// One number, or a range as written ("from 5 to 10": `from` 5, `to` 10; order kept because
/// "fell from $2,415 to $2,315" is a movement, not an interval).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// One number.
    Single(f64),
    /// A range, in the order written.
    Range {
        /// The first number written.
        from: f64,
        /// The second number written.
        to: f64,
    },
}

impl Value {
    /// The number, or the smaller end of a range.
    pub fn low(self) -> f64 {
        match self {
            Value::Single(v) => v,
            Value::Range { from, to } => from.min(to),
        }
    }

    /// The number, or the larger end of a range.
    pub fn high(self) -> f64 {
        match self {
            Value::Single(v) => v,
            Value::Range { from, to } => from.max(to),
        }
    }

    /// Whether every number is finite.
    pub fn is_finite(self) -> bool {
        self.low().is_finite() && self.high().is_finite()
    }
}

/// How a number was used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NumberKind {
    /// A count or measurement: "73 songs", "5 km".
    Cardinal,
    /// "3/4", "a third", "half".
    Fraction,
    /// "twice", "thrice".
    Multiplier,
    /// "22nd", "third": a position, never a count.
    Ordinal,
}

/// The unit of a quantity: a unit of Tally's table (possibly "per" something) or the noun the
/// number counts ("73 songs" → `song`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuantityUnit {
    /// As written ("km/h", "US $", "heart transplants").
    pub surface: String,
    /// Normalised name: the table's canonical name ("kilometre per hour", "dollar per barrel") or
    /// the singular noun phrase ("heart transplant").
    pub name: String,
    /// Unit-table id of the unit (or of the numerator of a compound); `None` for plain nouns.
    pub unit_id: Option<String>,
    /// The unit's dimension ("length", "currency", "count" …); `None` for plain nouns.
    pub dimension: Option<String>,
    /// The "per" part of a compound ("per barrel", "a month").
    pub per: Option<PerUnit>,
}

impl QuantityUnit {
    /// The unit as a person reads it beside a number: a currency's symbol ("£"), else the unit
    /// as written ("kg"); none for a counted noun or a word outside the unit table.
    pub fn shown(&self) -> Option<String> {
        let id = self.unit_id.as_deref()?;
        if self.dimension.as_deref() == Some("count") {
            return None;
        }
        Some(match id {
            "gbp" => "£".into(),
            "usd" => "$".into(),
            "eur" => "€".into(),
            _ => self.surface.trim().to_string(),
        })
    }
}

/// The denominator of a compound unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PerUnit {
    /// Normalised name of the denominator ("barrel", "month").
    pub name: String,
    /// Unit-table id of the denominator; `None` for plain nouns.
    pub unit_id: Option<String>,
}

/// A quantity found in text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quantity {
    /// Byte span of the value with its unit (and currency symbol), without condition words.
    pub span: Range<usize>,
    /// The number, or the range, as written.
    pub value: Value,
    /// The unit or counted noun; `None` for a bare number.
    pub unit: Option<QuantityUnit>,
    /// Exact, approximate, a bound, or a change.
    pub change: Change,
    /// How the number is used: count, fraction, multiplier or ordinal.
    pub kind: NumberKind,
    /// The value does not fit a 64-bit float ("1e999"): `value` is infinite, not a wrong number.
    pub overflow: bool,
}

impl Quantity {
    /// The value in the base unit of its dimension (metres, kilograms …), when the unit is in the
    /// table and is not a compound; otherwise the value itself.
    pub fn base_value(&self) -> Value {
        let table = crate::units::UnitTable::builtin();
        let unit = self
            .unit
            .as_ref()
            .filter(|u| u.per.is_none())
            .and_then(|u| u.unit_id.as_deref())
            .and_then(|id| table.get(id));
        match (unit, self.value) {
            (Some(unit), Value::Single(v)) => Value::Single(unit.to_base(v)),
            (Some(unit), Value::Range { from, to }) => Value::Range {
                from: unit.to_base(from),
                to: unit.to_base(to),
            },
            (None, value) => value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> Option<String> {
        extract(text).first()?.unit.as_ref()?.shown()
    }

    #[test]
    fn a_unit_is_shown_as_a_person_reads_it() {
        assert_eq!(shown("it cost £4.50").as_deref(), Some("£"));
        assert_eq!(shown("a walk of 12 km").as_deref(), Some("km"));
        assert_eq!(shown("12 ships sailed"), None);
    }
}
