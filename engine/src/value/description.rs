//! What a quantity measures, as words: the sentence's entity, the concept words around the
//! quantity (see [`concept_words`]), the year the sentence ties it to, and its unit.
//!
//! Rules over the extractor's output, chosen for being explainable: the entity is the one the
//! corpus gives the sentence (Qsearch sentences come with one) — Tally does not guess entities
//! from text; the time qualifier is a year (1900–2100) in the same clause ("in 2019", "as of
//! March 2020", "2018 sales").

use crate::quantity::concept::concept_words;
use crate::quantity::Quantity;

pub use tally_types::value::Description;

/// The words BM25 reads: entity, concept and unit words.
pub fn description_words(description: &Description) -> Vec<String> {
    let d = description;
    {
        let mut words: Vec<String> = Vec::new();
        let mut push = |text: &str| words.extend(super::raw_words(text).map(str::to_lowercase));
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
        concept: concept_words(text, quantity),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::extract_in_context;

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
}
