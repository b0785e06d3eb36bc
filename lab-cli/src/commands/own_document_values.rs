//! The value questions of `tally eval own-documents` (issue 58): `values.jsonl` asks what a
//! document states with a unit ("how high is Carn Mheall" → "412 m"), or `null` where it does
//! not. An answer is right when it is the stated quantity (within 2 %, in any unit of its
//! dimension), or a decline where the documents do not say.

use tally_text::quantity::extract;
use tally_text::quantity::Quantity;
use tally_types::ValueAnswer;

/// What became of one question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The right count, or a decline where the documents do not say.
    Right,
    /// A count that is not the answer (any count, where the documents do not say).
    Wrong,
    /// "No reliable answer" where the documents say.
    Declined,
}

/// Relative distance within which a value is the stated one.
const SAME_VALUE: f64 = 0.02;

/// The quantity a gold answer or an answer's value states.
fn quantity(text: &str) -> Option<Quantity> {
    extract(text).into_iter().next()
}

/// Whether two quantities are the same: one dimension (or none) and values within 2 %.
fn same(a: &Quantity, b: &Quantity) -> bool {
    let dimension = |q: &Quantity| q.unit.as_ref().and_then(|u| u.dimension.clone());
    let (x, y) = (a.base_value().low(), b.base_value().low());
    dimension(a) == dimension(b) && (x - y).abs() <= SAME_VALUE * x.abs().max(y.abs())
}

/// What became of a value question.
/// A value question answered over a table's records (issue 74): right when its number is the
/// gold quantity's within [`SAME_VALUE`] (the column's unit is the one the document writes).
pub(crate) fn judge_records(
    answer: &tally_types::count::CountAnswer,
    gold: Option<&str>,
) -> Outcome {
    match (answer.count, gold.and_then(quantity)) {
        (None, None) if gold.is_none() => Outcome::Right,
        (None, _) => Outcome::Declined,
        (Some(_), None) => Outcome::Wrong,
        (Some(value), Some(gold)) => {
            if (gold.value.low() - value).abs() <= SAME_VALUE * value.abs() {
                Outcome::Right
            } else {
                Outcome::Wrong
            }
        }
    }
}

/// What became of a value question as the page shows its answer: a value Tally is not sure of is
/// not given as the answer (issue 73), so it counts as a decline.
pub(crate) fn judge(answer: &ValueAnswer, gold: Option<&str>) -> Outcome {
    if answer.not_sure.is_some() {
        return match gold {
            None => Outcome::Right,
            Some(_) => Outcome::Declined,
        };
    }
    judge_as_sure(answer, gold)
}

/// What became of a value question if its value were given as the answer, sure or not.
pub(crate) fn judge_as_sure(answer: &ValueAnswer, gold: Option<&str>) -> Outcome {
    let (Some(value), Some(gold)) = (answer.value, gold) else {
        return match (answer.value, gold) {
            (None, None) => Outcome::Right,
            (None, Some(_)) => Outcome::Declined,
            _ => Outcome::Wrong,
        };
    };
    let Some(gold) = quantity(gold) else {
        return Outcome::Wrong;
    };
    // The answer in its own unit; where that does not read as a quantity (a currency's name),
    // its nearest observation as written, when that is the answer's value.
    let given = format!("{value} {}", answer.unit.as_deref().unwrap_or_default());
    let reading = quantity(&given).filter(|q| q.unit.is_some()).or_else(|| {
        answer
            .representative
            .as_deref()
            .and_then(quantity)
            .filter(|q| (q.value.low() - value).abs() <= SAME_VALUE * value.abs())
    });
    match reading {
        Some(q) if same(&q, &gold) => Outcome::Right,
        _ => Outcome::Wrong,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use tally_lab::collection::read_values;

    #[test]
    fn the_collection_s_value_questions_are_read() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/own-documents");
        let values = read_values(&dir).unwrap();
        assert!(values.len() >= 60, "{}", values.len());
        let unanswerable = values.iter().filter(|q| q.answer.is_none()).count();
        assert!(unanswerable * 5 >= values.len(), "{unanswerable}");
        for q in values.iter().filter_map(|q| q.answer.as_deref()) {
            assert!(quantity(q).is_some(), "{q} is no quantity");
        }
    }
}
