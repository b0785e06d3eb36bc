//! What a quantity measures, as words: the sentence's entity, the concept words around the
//! quantity (see [`concept_words`]), the year the sentence ties it to, and its unit.
//!
//! Rules over the extractor's output, chosen for being explainable: the entity is the one the
//! corpus gives the sentence (Qsearch sentences come with one) — Tally does not guess entities
//! from text; the time qualifier is a year (1900–2100) in the same clause ("in 2019", "as of
//! March 2020", "2018 sales").

use std::collections::HashSet;

use crate::quantity::concept::{concept_words, label_words};
use crate::quantity::{NumberKind, Quantity};

pub use tally_types::value::Description;

/// The words of a text as written: what lies between characters that are not letters or digits.
pub fn raw_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// A word in the form descriptions and questions are matched in: lower case, singular.
pub fn normalise(word: &str) -> String {
    crate::quantity::singular(&word.to_lowercase())
}

/// The matching forms of a text's words.
pub fn word_set(text: &str) -> HashSet<String> {
    raw_words(text).map(normalise).collect()
}

/// The quantities of a sentence that describe something on their own, each with its
/// description: cardinal ones (not ordinals, not overflowing), durations written in parts
/// joined ([`join_durations`]).
pub fn described_quantities(
    text: &str,
    quantities: &[Quantity],
    entity: Option<&str>,
) -> Vec<(Quantity, Description)> {
    let cardinals: Vec<Quantity> = quantities
        .iter()
        .filter(|q| q.kind == NumberKind::Cardinal && !q.overflow)
        .cloned()
        .collect();
    join_durations(text, cardinals)
        .into_iter()
        .map(|q| {
            let description = describe(text, &q, entity);
            (q, description)
        })
        .collect()
}

/// The words BM25 reads: entity, concept and unit words.
pub fn description_words(description: &Description) -> Vec<String> {
    let d = description;
    {
        let mut words: Vec<String> = Vec::new();
        let mut push = |text: &str| words.extend(raw_words(text).map(str::to_lowercase));
        if let Some(entity) = &d.entity {
            push(entity);
        }
        for word in &d.concept {
            push(word);
        }
        if let Some(unit) = &d.unit {
            push(unit);
        }
        if let Some(written) = &d.unit_written {
            push(written);
        }
        words
    }
}

/// The description of `quantity` in `text`, a sentence of `entity`.
pub fn describe(text: &str, quantity: &Quantity, entity: Option<&str>) -> Description {
    let unit = quantity.unit.as_ref();
    Description {
        entity: entity.map(str::to_string),
        // A `Label: value` line's number has no words in its own clause: its label's.
        concept: match concept_words(text, quantity) {
            words if words.is_empty() => label_words(text, quantity),
            words => words,
        },
        year: clause_year(text, quantity),
        unit: unit.map(|u| u.name.clone()),
        unit_written: unit
            .map(|u| u.surface.clone())
            .filter(|written| !written.is_empty()),
        dimension: unit.and_then(|u| u.dimension.clone()),
    }
}

/// A year (1900–2100, written as four digits) in the clause of the quantity, nearest first.
fn clause_year(text: &str, quantity: &Quantity) -> Option<i32> {
    let is_end = |c: char| matches!(c, '.' | ';' | '!' | '?');
    let start = text[..quantity.span.start]
        .rfind(is_end)
        .map_or(0, |i| i + 1);
    let end = text[quantity.span.end..]
        .find(is_end)
        .map_or(text.len(), |i| quantity.span.end + i);
    let own = quantity.span.clone();
    let mut best: Option<(usize, i32)> = None;
    let clause = &text[start..end];
    for (offset, word) in
        clause
            .split_inclusive(|c: char| !c.is_ascii_digit())
            .scan(start, |at, piece| {
                let here = *at;
                *at += piece.len();
                Some((here, piece))
            })
    {
        let digits = word.trim_end_matches(|c: char| !c.is_ascii_digit());
        if digits.len() != 4 || own.contains(&offset) {
            continue;
        }
        // Not part of a longer number ("12,2019" or "2019.5").
        let before = text[..offset].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_digit() || c == ',' || c == '.' || c == '$') {
            continue;
        }
        let Ok(year) = digits.parse::<i32>() else {
            continue;
        };
        if !(1900..=2100).contains(&year) {
            continue;
        }
        let distance = offset.abs_diff(own.start);
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, year));
        }
    }
    best.map(|(_, year)| year)
}

/// "2 hours, 17 minutes and 1 second" is one duration of 2.28 hours, not three observations:
/// consecutive durations in smaller and smaller units, joined by nothing but a comma or "and",
/// become one quantity in the first one's unit.
pub fn join_durations(text: &str, quantities: Vec<Quantity>) -> Vec<Quantity> {
    use crate::quantity::Value;
    let table = crate::units::UnitTable::builtin();
    let time_unit = |q: &Quantity| {
        q.unit
            .as_ref()
            .filter(|u| u.per.is_none())
            .and_then(|u| u.unit_id.as_deref())
            .and_then(|id| table.get(id))
            .filter(|u| u.dimension == "time")
    };
    let mut joined: Vec<Quantity> = Vec::with_capacity(quantities.len());
    // The factor of the smallest unit joined into each kept quantity so far.
    let mut smallest: Vec<Option<f64>> = Vec::with_capacity(quantities.len());
    for q in quantities {
        let unit = time_unit(&q);
        if let (Some(last), Some(Some(below)), Some(unit), Value::Single(part)) =
            (joined.last_mut(), smallest.last_mut(), unit, q.value)
        {
            let gap = text.get(last.span.end..q.span.start).unwrap_or("x");
            let joinable = gap
                .split(|c: char| c.is_whitespace() || c == ',')
                .all(|w| w.is_empty() || w == "and");
            let first_unit = time_unit(last);
            if let (true, true, Some(first_unit), Value::Single(total)) =
                (joinable, unit.factor < *below, first_unit, last.value)
            {
                if let Ok(added) = table.convert(part, unit, first_unit) {
                    last.value = Value::Single(total + added);
                    last.span.end = q.span.end;
                    *below = unit.factor;
                    continue;
                }
            }
        }
        smallest.push(unit.map(|u| u.factor));
        joined.push(q);
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::{extract_in_context, Value};

    fn first(text: &str, entity: Option<&str>) -> Description {
        let quantities = extract_in_context(text);
        describe(text, &quantities[0], entity)
    }

    #[test]
    fn a_description_has_entity_concept_year_and_unit() {
        let d = first(
            "Apple's revenue rose to $260 billion in 2019.",
            Some("Apple Inc."),
        );
        assert_eq!(d.entity.as_deref(), Some("Apple Inc."));
        assert!(d.concept.contains(&"revenue".to_string()), "{d:?}");
        assert_eq!(d.year, Some(2019));
        assert_eq!(d.dimension.as_deref(), Some("currency"));
        let d = first("The tower is 330 metres tall.", None);
        assert_eq!(d.dimension.as_deref(), Some("length"));
        assert!(d.concept.contains(&"tall".to_string()), "{d:?}");
        assert_eq!(d.year, None);
    }

    #[test]
    fn the_year_comes_from_the_quantity_s_own_clause() {
        let d = first("In 2018 it sold 5 million cars. Sales fell in 2019.", None);
        assert_eq!(d.year, Some(2018));
        let d = first("It sold 5 million cars. In 2019 sales fell.", None);
        assert_eq!(d.year, None);
    }

    #[test]
    fn a_duration_written_in_parts_is_one_observation() {
        let text = "Keitany completed it in 2 hours, 17 minutes and 1 second on Sunday.";
        let cardinals: Vec<Quantity> = extract_in_context(text)
            .into_iter()
            .filter(|q| q.kind == crate::quantity::NumberKind::Cardinal)
            .collect();
        let joined = join_durations(text, cardinals);
        assert_eq!(joined.len(), 1, "{joined:?}");
        let Value::Single(hours) = joined[0].value else {
            panic!("one value")
        };
        assert!((hours - (2.0 + 17.0 / 60.0 + 1.0 / 3600.0)).abs() < 1e-9);
        assert_eq!(
            &text[joined[0].span.clone()],
            "2 hours, 17 minutes and 1 second"
        );
        // Listed durations in growing units, or other words between, stay apart.
        let text = "It took 5 minutes, then 2 hours.";
        let cardinals = extract_in_context(text);
        assert_eq!(join_durations(text, cardinals).len(), 2);
    }
}
