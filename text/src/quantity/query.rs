//! Quantity-condition queries: "cars with more than 300 hp and under $50k" → search terms
//! (`cars`) and constraints (`> 300 horsepower`, `< 50,000 dollar`).
//!
//! Constraints come from the extractor (the same number, unit and condition rules as for
//! documents); the query adds negation ("not 500 dollars", "except 5 kg") and checks that the
//! constraints can hold together.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::comparatives;
use super::lexicon::{self, PREFIX_CONDITIONS};
use super::{extract, Change, NumberKind, Quantity, QuantityUnit, Value};

/// The relation a result's quantity must have to the constraint's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// x = `value`.
    Equal,
    /// x ≈ `value`, within 5%.
    Approx,
    /// x < `value`.
    Less,
    /// x ≤ `value`.
    AtMost,
    /// x > `value`.
    Greater,
    /// x ≥ `value`.
    AtLeast,
    /// `value` ≤ x ≤ `high`.
    Range,
    /// x ≠ `value`.
    NotEqual,
    /// x < `value` or x > `high`.
    Outside,
}

impl Condition {
    /// The sign shown to the user ("=", "≈", "<", "≤", ">", "≥", "between", "≠", "outside").
    pub fn symbol(self) -> &'static str {
        match self {
            Condition::Equal => "=",
            Condition::Approx => "≈",
            Condition::Less => "<",
            Condition::AtMost => "≤",
            Condition::Greater => ">",
            Condition::AtLeast => "≥",
            Condition::Range => "between",
            Condition::NotEqual => "≠",
            Condition::Outside => "outside",
        }
    }
}

/// One quantity condition of a query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    /// How the quantity must relate to `value` (and `high`).
    pub condition: Condition,
    /// The value, or the low end of a range.
    pub value: f64,
    /// The high end of a range.
    pub high: Option<f64>,
    /// The unit of the values; `None` for a bare number.
    pub unit: Option<QuantityUnit>,
    /// Byte span of the constraint in the query, condition words included.
    pub span: Range<usize>,
}

impl Constraint {
    /// Whether `x` (in the constraint's unit) satisfies it. Approximate matches allow ±5%.
    pub fn accepts(&self, x: f64) -> bool {
        let v = self.value;
        let high = self.high.unwrap_or(v);
        match self.condition {
            Condition::Equal => (x - v).abs() <= 1e-9 * v.abs().max(1.0),
            Condition::Approx => (x - v).abs() <= 0.05 * v.abs(),
            Condition::Less => x < v,
            Condition::AtMost => x <= v,
            Condition::Greater => x > v,
            Condition::AtLeast => x >= v,
            Condition::Range => v <= x && x <= high,
            Condition::NotEqual => (x - v).abs() > 1e-9 * v.abs().max(1.0),
            Condition::Outside => x < v || x > high,
        }
    }

    /// How a person would read it: "> 300 horsepower", "between 5 and 10 kilogram".
    pub fn describe(&self) -> String {
        let unit = self
            .unit
            .as_ref()
            .map(|u| format!(" {}", u.name))
            .unwrap_or_default();
        match (self.condition, self.high) {
            (Condition::Range, Some(h)) => {
                format!("between {} and {}{unit}", fmt(self.value), fmt(h))
            }
            (Condition::Outside, Some(h)) => {
                format!("outside {}–{}{unit}", fmt(self.value), fmt(h))
            }
            (c, _) => format!("{} {}{unit}", c.symbol(), fmt(self.value)),
        }
    }
}

fn fmt(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Something in a query that cannot be searched as asked; shown to the user with the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QueryProblem {
    /// Two constraints that no value satisfies together.
    #[error("the conditions “{first}” and “{second}” cannot both hold")]
    Contradictory {
        /// The first constraint, as written in the query.
        first: String,
        /// The second constraint, as written in the query.
        second: String,
    },
    /// A number too large for a 64-bit float.
    #[error("the number in “{text}” is too large to compare")]
    NotFinite {
        /// The constraint, as written in the query.
        text: String,
    },
}

/// A parsed query: what to match as text, and what the quantities must satisfy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParsedQuery {
    /// The words outside the constraints, lower-cased, without stop words.
    pub terms: Vec<String>,
    /// The quantity conditions, in query order.
    pub constraints: Vec<Constraint>,
    /// What cannot be searched as asked.
    pub problems: Vec<QueryProblem>,
}

/// Parses a quantity-condition query. A query without a quantity has terms only.
pub fn parse_query(query: &str) -> ParsedQuery {
    let quantities: Vec<Quantity> = extract(query)
        .into_iter()
        .filter(|q| q.kind != NumberKind::Ordinal)
        .collect();
    let mut constraints = Vec::new();
    let mut problems = Vec::new();
    let mut covered: Vec<Range<usize>> = Vec::new();
    for q in &quantities {
        let (start, negated, within) = condition_start(query, q.span.start);
        let span = start..q.span.end;
        covered.push(span.clone());
        if q.overflow {
            problems.push(QueryProblem::NotFinite {
                text: query[span].to_string(),
            });
            continue;
        }
        let mut constraint = constraint_of(q, span, negated);
        // "within 3 hours", "within 55 sec": at most.
        if within && constraint.condition == Condition::Equal {
            constraint.condition = Condition::AtMost;
        }
        constraints.push(constraint);
    }
    // A bare number shares the unit of the next constraint: "more than 5 and less than 3 kg".
    for i in (0..constraints.len().saturating_sub(1)).rev() {
        if constraints[i].unit.is_none() {
            constraints[i].unit = constraints[i + 1].unit.clone();
        }
    }
    for (i, a) in constraints.iter().enumerate() {
        for b in &constraints[i + 1..] {
            if contradict(a, b) {
                problems.push(QueryProblem::Contradictory {
                    first: query[a.span.clone()].to_string(),
                    second: query[b.span.clone()].to_string(),
                });
            }
        }
    }
    ParsedQuery {
        terms: terms(query, &covered),
        constraints,
        problems,
    }
}

fn constraint_of(q: &Quantity, span: Range<usize>, negated: bool) -> Constraint {
    let (value, high, mut condition) = match q.value {
        Value::Range { .. } => (q.value.low(), Some(q.value.high()), Condition::Range),
        Value::Single(v) => {
            let condition = match q.change {
                Change::Equal | Change::Up | Change::Down => Condition::Equal,
                Change::Approx => Condition::Approx,
                Change::Above => Condition::Greater,
                Change::AtLeast => Condition::AtLeast,
                Change::Below => Condition::Less,
                Change::AtMost => Condition::AtMost,
            };
            (v, None, condition)
        }
    };
    if negated {
        condition = match condition {
            Condition::Equal | Condition::Approx => Condition::NotEqual,
            Condition::Greater => Condition::AtMost,
            Condition::AtLeast => Condition::Less,
            Condition::Less => Condition::AtLeast,
            Condition::AtMost => Condition::Greater,
            Condition::Range => Condition::Outside,
            other => other,
        };
    }
    Constraint {
        condition,
        value,
        high,
        unit: q.unit.clone(),
        span,
    }
}

/// Two constraints on the same unit that no value can meet together.
fn contradict(a: &Constraint, b: &Constraint) -> bool {
    let same_unit = match (&a.unit, &b.unit) {
        (Some(x), Some(y)) => x.name == y.name,
        (None, None) => true,
        _ => false,
    };
    if !same_unit {
        return false;
    }
    let bounds = |c: &Constraint| -> (f64, f64) {
        let h = c.high.unwrap_or(c.value);
        match c.condition {
            Condition::Equal | Condition::Approx => (c.value, c.value),
            Condition::Less | Condition::AtMost => (f64::NEG_INFINITY, c.value),
            Condition::Greater | Condition::AtLeast => (c.value, f64::INFINITY),
            Condition::Range => (c.value, h),
            Condition::NotEqual | Condition::Outside => (f64::NEG_INFINITY, f64::INFINITY),
        }
    };
    let ((alo, ahi), (blo, bhi)) = (bounds(a), bounds(b));
    let strict = |c: &Constraint| matches!(c.condition, Condition::Less | Condition::Greater);
    let lo = alo.max(blo);
    let hi = ahi.min(bhi);
    lo > hi || (lo == hi && (strict(a) || strict(b)))
}

/// Where the condition words before a quantity start, whether a negation is among them, and
/// whether they end in "within".
fn condition_start(query: &str, start: usize) -> (usize, bool, bool) {
    let vocabulary = |w: &str| {
        PREFIX_CONDITIONS.iter().any(|(p, _)| p.contains(&w))
            || lexicon::is_filler(w)
            || matches!(
                w,
                "between"
                    | "from"
                    | "not"
                    | "except"
                    | "excluding"
                    | "without"
                    | "other"
                    | "never"
                    | "within"
            )
    };
    let mut begin = start;
    let mut words: Vec<String> = Vec::new();
    let mut before = words_before(query, start).peekable();
    // A comparative before "than" ("wider than", "more expensive than") is part of the
    // condition: its words are not search terms.
    if let Some((offset, _)) = before.next_if(|(_, w)| w.eq_ignore_ascii_case("than")) {
        begin = offset;
        words.push("than".into());
        let mut degree_taken = false;
        while let Some((offset, word)) = before.next_if(|(_, w)| {
            let lower = w.to_lowercase();
            words.len() < 3
                && !degree_taken
                && (comparatives::is_comparative_word(&lower) || words.len() == 1)
                && !matches!(lower.as_str(), "not" | "no")
        }) {
            let lower = word.to_lowercase();
            degree_taken = matches!(lower.as_str(), "more" | "less");
            begin = offset;
            words.insert(0, lower);
        }
    }
    for (offset, word) in before {
        let lower = word.to_lowercase();
        if !vocabulary(&lower) || words.len() >= 5 {
            break;
        }
        begin = offset;
        words.insert(0, lower);
    }
    let negator = |w: &String| {
        matches!(
            w.as_str(),
            "not" | "no" | "except" | "excluding" | "without" | "never" | "other"
        )
    };
    // "no more than", "not less than": bounds of the lexicon with their negation built in.
    let built_in = PREFIX_CONDITIONS.iter().any(|(phrase, _)| {
        matches!(phrase.first(), Some(&"no") | Some(&"not"))
            && words.len() >= phrase.len()
            && words[words.len() - phrase.len()..]
                .iter()
                .zip(phrase.iter())
                .all(|(a, b)| a == b)
    });
    let within = words.last().is_some_and(|w| w == "within");
    (begin, words.iter().any(negator) && !built_in, within)
}

/// Words (with byte offsets) before `end`, nearest first.
fn words_before(text: &str, end: usize) -> impl Iterator<Item = (usize, &str)> {
    let head = &text[..end];
    let mut spans = Vec::new();
    let mut word_start: Option<usize> = None;
    for (i, c) in head.char_indices() {
        let part = c.is_alphanumeric()
            || c == '\''
            || matches!(c, '<' | '>' | '≤' | '≥' | '~' | '≈' | '=');
        match (part, word_start) {
            (true, None) => word_start = Some(i),
            (false, Some(s)) => {
                spans.push((s, &head[s..i]));
                word_start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = word_start {
        spans.push((s, &head[s..]));
    }
    spans.into_iter().rev()
}

/// Lower-cased content words outside the constraints.
fn terms(query: &str, covered: &[Range<usize>]) -> Vec<String> {
    let mut terms = Vec::new();
    let mut start: Option<usize> = None;
    let push = |s: usize, e: usize, terms: &mut Vec<String>| {
        if covered.iter().any(|r| r.start <= s && e <= r.end) {
            return;
        }
        let word = query[s..e].to_lowercase();
        if !is_query_stopword(&word) {
            terms.push(word);
        }
    };
    for (i, c) in query.char_indices() {
        let part = c.is_alphanumeric() || c == '\'' || c == '-';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                push(s, i, &mut terms);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        push(s, query.len(), &mut terms);
    }
    terms
}

fn is_query_stopword(word: &str) -> bool {
    lexicon::is_function_word(word)
        || matches!(
            word,
            "with"
                | "which"
                | "what"
                | "that"
                | "have"
                | "has"
                | "than"
                | "least"
                | "most"
                | "more"
                | "less"
                | "fewer"
                | "greater"
                | "between"
                | "not"
                | "except"
                | "excluding"
                | "show"
                | "find"
                | "list"
                | "me"
                | "-"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn described(query: &str) -> Vec<String> {
        parse_query(query)
            .constraints
            .iter()
            .map(Constraint::describe)
            .collect()
    }

    #[test]
    fn queries_from_the_issue() {
        let q = parse_query("iPhone XR below €200");
        assert_eq!(q.terms, vec!["iphone", "xr"]);
        assert_eq!(described("iPhone XR below €200"), vec!["< 200 euro"]);
        assert_eq!(
            described("cars with more than 300 hp and under $50k"),
            vec!["> 300 horsepower", "< 50000 dollar"]
        );
        assert_eq!(
            parse_query("cars with more than 300 hp and under $50k").terms,
            vec!["cars"]
        );
        assert_eq!(
            described("between 5 and 10 kg"),
            vec!["between 5 and 10 kilogram"]
        );
        assert_eq!(described("not 500 dollars"), vec!["≠ 500 dollar"]);
        assert_eq!(described("within 3 hours"), vec!["≤ 3 hour"]);
        assert_eq!(
            described("phones under $300 with at least 128 GB"),
            vec!["< 300 dollar", "≥ 128 gigabyte"]
        );
    }

    #[test]
    fn a_query_without_quantities_has_terms_only() {
        let q = parse_query("songs by lennon");
        assert!(q.constraints.is_empty());
        assert_eq!(q.terms, vec!["songs", "lennon"]);
    }

    #[test]
    fn contradictions_are_reported_not_raised() {
        let q = parse_query("more than 5 and less than 3 kg");
        assert_eq!(q.constraints.len(), 2);
        assert_eq!(q.problems.len(), 1, "{q:?}");
        assert!(q.problems[0].to_string().contains("cannot both hold"));
    }
}
