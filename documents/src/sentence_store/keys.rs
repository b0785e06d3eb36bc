//! What a quantity (ordinals aside: a position is not an amount) can be compared with, and how it is packed into one `u64` fast-field value.
//!
//! Every quantity gets one or more *comparison keys*:
//! - `dim:<dimension>` for a unit of the table with a physical dimension (length, mass, time …);
//!   its value is converted to the dimension's base unit, so km and miles compare;
//! - `currency:<unit id>` for money: currencies never convert into each other;
//! - `count:<unit id>` for counted things the table knows ("people", "times");
//! - `noun:<word>` for each word of a unit the table does not know ("grand slams" → `noun:grand`,
//!   `noun:slam`), so that "5 grand slams" and "17 Grand Slam titles" meet;
//! - `per:<unit>` for compound units ("tons per year"), compared without conversion;
//! - `bare` for a number without a unit ("a capacity of 92,542").
//!
//! A query's constraint is compatible with its own keys, and a counted constraint ("80,000 people",
//! "5 grand slams") also with bare numbers, at a lower weight ([`BARE_WEIGHT`]).
//!
//! In the index, key and value share one `u64`: the key's 20-bit hash above the top 44 bits of the
//! order-preserving image of the value (relative precision about 2⁻³²), so that a sentence's
//! quantities are read from one fast-field column while filtering and scoring inside the index.

use tally_text::quantity::{singular, Constraint, NumberKind, Quantity, QuantityUnit, Value};
use tally_text::UnitTable;

/// Weight of a bare number's match to a counted constraint (a unit match weighs 1): the default
/// of [`SearchSettings::bare_weight`](super::SearchSettings::bare_weight).
pub const BARE_WEIGHT: f64 = 0.8;
const KEY_BITS: u32 = 20;
const VALUE_BITS: u32 = 64 - KEY_BITS;
/// Most noun words one quantity is filed under.
const MAX_NOUN_KEYS: usize = 3;

/// One comparable reading of a quantity: the key's hash and the value in the key's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    /// The comparison key's hash.
    pub key: u32,
    /// The value in the key's unit.
    pub value: f64,
}

/// The comparison keys of a unit (or of no unit).
pub fn unit_keys(unit: Option<&QuantityUnit>) -> Vec<String> {
    let Some(unit) = unit else {
        return vec!["bare".into()];
    };
    if let Some(per) = &unit.per {
        return vec![format!("per:{}/{}", unit.name, per.name)];
    }
    match (unit.dimension.as_deref(), unit.unit_id.as_deref()) {
        (Some("currency"), Some(id)) => vec![format!("currency:{id}")],
        (Some("count"), Some(id)) => vec![format!("count:{id}")],
        (Some(dimension), Some(_)) => vec![format!("dim:{dimension}")],
        _ => {
            let words: Vec<String> = unit
                .name
                .split_whitespace()
                .map(|w| singular(&w.to_lowercase()))
                .collect();
            let start = words.len().saturating_sub(MAX_NOUN_KEYS);
            words[start..].iter().map(|w| format!("noun:{w}")).collect()
        }
    }
}

/// The keys a constraint accepts, each with its weight (a bare number's is `bare_weight`).
pub fn constraint_keys(constraint: &Constraint, bare_weight: f64) -> Vec<(String, f64)> {
    let own = unit_keys(constraint.unit.as_ref());
    let counted = own
        .iter()
        .any(|k| k.starts_with("count:") || k.starts_with("noun:"));
    let mut keys: Vec<(String, f64)> = own.into_iter().map(|k| (k, 1.0)).collect();
    if counted {
        keys.push(("bare".into(), bare_weight));
    }
    keys
}

/// A value in the base unit of its unit's dimension (unchanged for counts, money and nouns).
pub fn to_base(value: f64, unit: Option<&QuantityUnit>) -> f64 {
    table_unit(unit).map_or(value, |u| u.to_base(value))
}

/// A base-unit value back in `unit`.
pub fn from_base(value: f64, unit: Option<&QuantityUnit>) -> f64 {
    table_unit(unit).map_or(value, |u| u.from_base(value))
}

/// The table unit that converts, for units with a physical dimension only.
fn table_unit(unit: Option<&QuantityUnit>) -> Option<&'static tally_text::Unit> {
    let unit = unit.filter(|u| u.per.is_none())?;
    if matches!(unit.dimension.as_deref(), Some("currency" | "count") | None) {
        return None;
    }
    UnitTable::builtin().get(unit.unit_id.as_deref()?)
}

/// The entries of a quantity: each key with the value (both ends of a range).
pub fn entries(quantity: &Quantity) -> Vec<Entry> {
    if quantity.kind == NumberKind::Ordinal || quantity.overflow {
        return Vec::new();
    }
    let values = match quantity.value {
        Value::Single(v) => vec![v],
        Value::Range { from, to } => vec![from, to],
    };
    let unit = quantity.unit.as_ref();
    unit_keys(unit)
        .iter()
        .flat_map(|k| {
            values.iter().map(move |&v| Entry {
                key: key_hash(k),
                value: to_base(v, unit),
            })
        })
        .filter(|e| e.value.is_finite())
        .collect()
}

/// FNV-1a of the key, folded to `KEY_BITS`: stable across builds and platforms.
pub fn key_hash(key: &str) -> u32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    ((hash ^ (hash >> 32)) & ((1 << KEY_BITS) - 1)) as u32
}

/// The order-preserving `u64` image of an `f64`.
fn sortable(value: f64) -> u64 {
    let bits = value.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

fn unsortable(image: u64) -> f64 {
    let bits = if image >> 63 == 1 {
        image & !(1 << 63)
    } else {
        !image
    };
    f64::from_bits(bits)
}

/// Packs an entry into one `u64`: equal keys sort by value.
/// The packed entries of `key` whose values may lie in [`low`, `high`] (either may be
/// infinite): a range one step wider than the packing on each side, within the key, so that
/// every entry with a value in the interval is inside it whatever the rounding.
pub fn packed_range(key: u32, low: f64, high: f64) -> (u64, u64) {
    let first = u64::from(key) << VALUE_BITS;
    let last = first | ((1 << VALUE_BITS) - 1);
    let at = |value: f64| pack(Entry { key, value });
    (
        at(low).saturating_sub(1).max(first),
        at(high).saturating_add(1).min(last),
    )
}

/// Packs an entry into one `u64` that sorts by key, then by value (read back by [`unpack`]).
pub fn pack(entry: Entry) -> u64 {
    (u64::from(entry.key) << VALUE_BITS) | (sortable(entry.value) >> KEY_BITS)
}

/// Unpacks a `u64` written by [`pack`]; the value keeps its top 32 mantissa bits.
pub fn unpack(packed: u64) -> Entry {
    let value_bits = packed & ((1 << VALUE_BITS) - 1);
    Entry {
        key: (packed >> VALUE_BITS) as u32,
        value: unsortable(value_bits << KEY_BITS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_text::quantity::extract;

    fn keys(text: &str) -> Vec<String> {
        let q = &extract(text)[0];
        unit_keys(q.unit.as_ref())
    }

    #[test]
    fn units_get_the_keys_they_compare_by() {
        assert_eq!(keys("26.2 miles"), vec!["dim:length"]);
        assert_eq!(keys("$5 billion"), vec!["currency:usd"]);
        assert_eq!(keys("€5"), vec!["currency:eur"]);
        assert_eq!(keys("a capacity of 92,542"), vec!["bare"]);
        assert_eq!(keys("17 grand slams"), vec!["noun:grand", "noun:slam"]);
    }

    #[test]
    fn packing_keeps_order_and_value() {
        let key = key_hash("dim:length");
        let values = [-1e9, -3.5, 0.0, 1e-6, 42.195, 42_195.0, 1e12];
        let packed: Vec<u64> = values
            .iter()
            .map(|&value| pack(Entry { key, value }))
            .collect();
        assert!(packed.windows(2).all(|w| w[0] < w[1]));
        for (&v, &p) in values.iter().zip(&packed) {
            let back = unpack(p);
            assert_eq!(back.key, key);
            assert!(
                (back.value - v).abs() <= 1e-9 * v.abs().max(1e-9),
                "{v} → {back:?}"
            );
        }
    }

    #[test]
    fn miles_and_kilometres_share_a_base_unit() {
        let miles = &extract("26.2 miles")[0];
        let km = &extract("42.2 km")[0];
        let (m, k) = (entries(miles)[0], entries(km)[0]);
        assert_eq!(m.key, k.key);
        assert!((m.value - k.value).abs() < 50.0, "{m:?} {k:?}");
    }
}
