//! Scoring a sentence's quantities against a query's constraints: which constraints it meets and
//! its quantity score qs (method.md, QFinder), computed from the index entries alone.
//!
//! Φ per condition, with v the query value and x the sentence's value in the same unit:
//! `=`/`≈`: exp(−|v − x| / |v|) (the relative form); `>`/`≥`: v / x when met (the closer to the
//! bound, the higher); `<`/`≤`: x / v when met; ranges and negations: 1 when met. An exact number
//! in a query is met within ±5%, as "about" is: text rounds.
//!
//! A sentence meets a constraint when one of its compatible entries does; its qs is the mean over
//! the constraints of the best weighted Φ among those entries. The method averages over all the
//! sentence's quantities instead; taking the best one keeps a sentence that also mentions, say, its
//! date or a price from being punished for it.

use serde::{Deserialize, Serialize};

use super::keys::{self, Entry};
use tally_text::quantity::Condition;
use tally_text::quantity::Constraint;

/// Relative tolerance for `=` and `≈`.
pub const TOLERANCE: f64 = 0.05;

/// A constraint ready to test entries: its compatible keys and its bounds in base units.
#[derive(Debug, Clone)]
pub struct Test {
    /// The constraint's condition (`=`, `<`, a range …).
    pub condition: Condition,
    /// The constraint's value in base units (a range's low end).
    pub value: f64,
    /// A range's high end in base units; `value` for other conditions.
    pub high: f64,
    /// (key hash, weight).
    pub keys: Vec<(u32, f64)>,
    /// Credit for a compatible value that misses the condition (0: none, the strict reading).
    pub soft: f64,
}

/// How fast soft credit falls with the relative distance to the condition: a value 10% short
/// of "more than v" keeps exp(−0.5) ≈ 0.61 of it.
pub const SOFT_DECAY: f64 = 5.0;

impl Test {
    /// `bare_weight`: the weight of a bare number's match to a counted constraint.
    pub fn new(constraint: &Constraint, bare_weight: f64) -> Self {
        let unit = constraint.unit.as_ref();
        let value = keys::to_base(constraint.value, unit);
        Test {
            condition: constraint.condition,
            value,
            high: constraint.high.map_or(value, |h| keys::to_base(h, unit)),
            keys: keys::constraint_keys(constraint, bare_weight)
                .iter()
                .map(|(k, w)| (keys::key_hash(k), *w))
                .collect(),
            soft: 0.0,
        }
    }

    /// The same test reading the condition softly (DeepQuant's idea that the comparator a query
    /// states is uncertain): a compatible value that misses it earns `soft` · exp(−5 · its
    /// relative distance to the accepted values) instead of nothing. Negations stay strict.
    pub fn with_softness(mut self, soft: f64) -> Self {
        self.soft = soft;
        self
    }

    /// What a compatible value `x` earns: Φ when it meets the condition, soft credit when it
    /// misses it and the test is soft, `None` otherwise.
    pub fn credit(&self, x: f64) -> Option<f64> {
        if self.meets(x) {
            return Some(self.phi(x));
        }
        if self.soft <= 0.0 {
            return None;
        }
        let (v, h) = (self.value, self.high);
        let scale = v.abs().max(f64::MIN_POSITIVE);
        let distance = match self.condition {
            Condition::Equal | Condition::Approx => (x - v).abs() - TOLERANCE * v.abs(),
            Condition::Less | Condition::AtMost => x - v,
            Condition::Greater | Condition::AtLeast => v - x,
            Condition::Range if x < v => v - x,
            Condition::Range => x - h,
            Condition::NotEqual | Condition::Outside => return None,
        };
        Some(self.soft * (-SOFT_DECAY * distance.max(0.0) / scale).exp())
    }

    /// The intervals of values that meet the condition, as (low, high) with infinite ends
    /// where it is open; [`Test::meets`] decides at the ends.
    pub fn intervals(&self) -> Vec<(f64, f64)> {
        let (v, h) = (self.value, self.high);
        let tolerance = TOLERANCE * v.abs();
        let (below, above) = (f64::NEG_INFINITY, f64::INFINITY);
        match self.condition {
            Condition::Equal | Condition::Approx => vec![(v - tolerance, v + tolerance)],
            Condition::Less | Condition::AtMost => vec![(below, v)],
            Condition::Greater | Condition::AtLeast => vec![(v, above)],
            Condition::Range => vec![(v, h)],
            Condition::NotEqual => vec![(below, v - tolerance), (v + tolerance, above)],
            Condition::Outside => vec![(below, v), (h, above)],
        }
    }

    /// Whether `x` meets the condition.
    pub fn meets(&self, x: f64) -> bool {
        let (v, h) = (self.value, self.high);
        let near = (x - v).abs() <= TOLERANCE * v.abs();
        match self.condition {
            Condition::Equal | Condition::Approx => near,
            Condition::Less => x < v,
            Condition::AtMost => x <= v,
            Condition::Greater => x > v,
            Condition::AtLeast => x >= v,
            Condition::Range => v <= x && x <= h,
            Condition::NotEqual => !near,
            Condition::Outside => x < v || x > h,
        }
    }

    /// Φ(v, x), 0 when the condition is not met.
    pub fn phi(&self, x: f64) -> f64 {
        if !self.meets(x) {
            return 0.0;
        }
        let v = self.value;
        let ratio = |a: f64, b: f64| {
            if b == 0.0 {
                1.0
            } else {
                (a / b).clamp(0.0, 1.0)
            }
        };
        match self.condition {
            Condition::Equal | Condition::Approx => {
                (-(v - x).abs() / v.abs().max(f64::MIN_POSITIVE)).exp()
            }
            Condition::Greater | Condition::AtLeast => ratio(v, x),
            Condition::Less | Condition::AtMost => ratio(x, v),
            Condition::Range | Condition::NotEqual | Condition::Outside => 1.0,
        }
    }
}

/// How a sentence's quantities fare against the constraints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuantityScore {
    /// qs in [0, 1].
    pub score: f64,
    /// Per constraint: the index of the best entry that meets it, if any.
    pub best: Vec<Option<usize>>,
}

impl QuantityScore {
    /// Whether every constraint is met.
    pub fn meets_all(&self) -> bool {
        !self.best.is_empty() && self.best.iter().all(Option::is_some)
    }
}

/// qs when every test is met by a compatible entry (or, for a soft test, has one), `None`
/// otherwise; allocation-free, for the inner loop of scoring inside the index.
pub fn meeting_score(tests: &[Test], entries: &[Entry]) -> Option<f64> {
    if tests.is_empty() {
        return None;
    }
    let mut total = 0.0;
    for test in tests {
        let mut best: Option<f64> = None;
        for entry in entries {
            let Some(&(_, weight)) = test.keys.iter().find(|(k, _)| *k == entry.key) else {
                continue;
            };
            if let Some(credit) = test.credit(entry.value) {
                let credit = weight * credit;
                best = Some(best.map_or(credit, |b: f64| b.max(credit)));
            }
        }
        total += best?;
    }
    Some(total / tests.len() as f64)
}

/// Scores entries against tests.
pub fn score(tests: &[Test], entries: &[Entry]) -> QuantityScore {
    let mut total = 0.0;
    let mut best = Vec::with_capacity(tests.len());
    for test in tests {
        // The best meeting entry (what the hit shows as matched), and the best credit (soft
        // credit included).
        let mut top: Option<(usize, f64)> = None;
        let mut credit = 0.0f64;
        for (i, entry) in entries.iter().enumerate() {
            let Some(&(_, weight)) = test.keys.iter().find(|(k, _)| *k == entry.key) else {
                continue;
            };
            credit = credit.max(weight * test.credit(entry.value).unwrap_or(0.0));
            if !test.meets(entry.value) {
                continue;
            }
            let phi = weight * test.phi(entry.value);
            if top.is_none_or(|(_, p)| phi > p) {
                top = Some((i, phi));
            }
        }
        total += credit;
        best.push(top.map(|(i, _)| i));
    }
    QuantityScore {
        score: if tests.is_empty() {
            0.0
        } else {
            total / tests.len() as f64
        },
        best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_text::quantity::{extract, parse_query};

    fn scored(query: &str, sentence: &str) -> QuantityScore {
        let tests: Vec<Test> = parse_query(query)
            .constraints
            .iter()
            .map(|c| Test::new(c, keys::BARE_WEIGHT))
            .collect();
        let entries: Vec<Entry> = extract(sentence).iter().flat_map(keys::entries).collect();
        score(&tests, &entries)
    }

    #[test]
    fn units_convert_within_a_dimension() {
        assert!(scored("marathons longer than 40 km", "a race of 26.2 miles").meets_all());
        assert!(!scored("races longer than 50 km", "a race of 26.2 miles").meets_all());
    }

    #[test]
    fn currencies_never_convert() {
        assert!(scored("stadiums costing over $1 billion", "it cost $1.5 billion").meets_all());
        assert!(!scored("stadiums costing over $1 billion", "it cost £1.5 billion").meets_all());
    }

    #[test]
    fn counted_constraints_accept_bare_numbers_at_a_lower_weight() {
        let bare = scored("capacity of more than 80000 people", "a capacity of 92,542");
        let unit = scored(
            "capacity of more than 80000 people",
            "it holds 92,542 people",
        );
        assert!(bare.meets_all() && unit.meets_all());
        assert!(bare.score < unit.score);
        assert!(!scored("more than 80000 people", "a capacity of 14,500").meets_all());
    }

    #[test]
    fn ranges_negations_and_several_constraints() {
        assert!(scored("between 5 and 10 kg", "it weighs 7 kg").meets_all());
        assert!(!scored("between 5 and 10 kg", "it weighs 12 kg").meets_all());
        assert!(scored("not 500 dollars", "it costs $450").meets_all());
        assert!(!scored("not 500 dollars", "it costs $500").meets_all());
        let both = scored(
            "phones under $300 with at least 128 GB",
            "the phone costs $250 and has 256 GB of storage",
        );
        assert!(both.meets_all());
        let one = scored(
            "phones under $300 with at least 128 GB",
            "the phone costs $250 and has 64 GB of storage",
        );
        assert!(!one.meets_all());
        assert!(one.best[0].is_some() && one.best[1].is_none());
    }

    #[test]
    fn soft_conditions_credit_near_misses_and_strict_ones_do_not() {
        let test = |query: &str, soft: f64| {
            Test::new(&parse_query(query).constraints[0], keys::BARE_WEIGHT).with_softness(soft)
        };
        let more = test("capacity of more than 80000 people", 0.5);
        assert_eq!(more.credit(90_000.0), Some(more.phi(90_000.0)));
        let near = more.credit(78_000.0).unwrap();
        let far = more.credit(20_000.0).unwrap();
        assert!(near > far && far > 0.0 && near <= 0.5, "{near} {far}");
        assert!((near - 0.5 * (-5.0f64 * 2_000.0 / 80_000.0).exp()).abs() < 1e-9);
        assert_eq!(
            test("capacity of more than 80000 people", 0.0).credit(78_000.0),
            None
        );
        let about = test("a battery life of 10 hours", 0.5);
        assert!(about.credit(12.0 * 3600.0).unwrap() > about.credit(20.0 * 3600.0).unwrap());
        // Negations stay strict.
        let not = test("not 500 dollars", 0.5);
        assert_eq!(not.credit(500.0), None);
        assert!(not.credit(450.0).is_some());
    }

    #[test]
    fn closer_to_the_bound_scores_higher() {
        let near = scored("more than 80000 people", "80,500 people");
        let far = scored("more than 80000 people", "200,000 people");
        assert!(near.score > far.score);
    }
}
