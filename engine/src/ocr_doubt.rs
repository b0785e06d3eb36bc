//! Answers that rest on a number OCR was unsure of (issue 89). A block read from a scanned page
//! names, in its place, the numbers OCR read with low confidence ("page 1, read by OCR, 88%
//! sure; unsure: 4,521, 13"). A count read from such a block, an aggregation that took a row
//! holding one, or a value whose agreeing evidence is one, is a wrong digit away from a wrong
//! answer: it is not given as sure, whatever the learned gates say.

use tally_documents::corpus::structure::{READ_BY_OCR, UNSURE_NUMBERS};
use tally_types::count::CountAnswer;
use tally_types::value::{ObservationGroup, ValueAnswer};

/// The numbers a place names as read with low confidence by OCR (none for a place not read by
/// OCR).
pub fn unsure_numbers(place: &str) -> Vec<f64> {
    if !place.contains(READ_BY_OCR) {
        return Vec::new();
    }
    let Some((_, list)) = place.split_once(UNSURE_NUMBERS) else {
        return Vec::new();
    };
    list.split(", ").filter_map(number_of).collect()
}

/// A token read as a number: "4,521" → 4521, "2,173.00" → 2173; `None` for one that is not.
fn number_of(token: &str) -> Option<f64> {
    let digits = token
        .trim()
        .trim_matches(|c: char| !c.is_ascii_digit())
        .replace(',', "");
    digits.parse().ok()
}

/// Whether `text` holds a number among `unsure`.
fn holds_unsure(text: &str, unsure: &[f64]) -> bool {
    text.split(|c: char| c.is_whitespace() || c == ';' || c == '|')
        .filter_map(number_of)
        .any(|n| unsure.iter().any(|u| (u - n).abs() < 1e-9))
}

/// Where a count answer rests on a number OCR was unsure of: the place of that evidence.
pub fn count_rests_on_unsure(answer: &CountAnswer) -> Option<String> {
    let count = answer.count?;
    if let Some(aggregation) = &answer.aggregation {
        return aggregation
            .rows
            .iter()
            .filter(|row| row.taken)
            .find_map(|row| {
                let place = row.place.as_deref()?;
                let unsure = unsure_numbers(place);
                row.cells
                    .iter()
                    .any(|cell| holds_unsure(cell, &unsure))
                    .then(|| place.to_string())
            });
    }
    let id = answer
        .read_from
        .as_ref()
        .map(|r| r.snippet_id.as_str())
        .or_else(|| answer.cnp_rep.as_ref().map(|c| c.snippet_id.as_str()))?;
    let snippet = answer.snippets.iter().find(|s| s.id == id)?;
    unsure_numbers(&snippet.source)
        .iter()
        .any(|u| (u - count).abs() < 1e-9)
        .then(|| snippet.source.clone())
}

/// Where a value answer's agreeing evidence is a number OCR was unsure of: its place.
pub fn value_rests_on_unsure(answer: &ValueAnswer) -> Option<String> {
    answer.value?;
    answer
        .observations
        .iter()
        .filter(|o| o.group == ObservationGroup::Agrees)
        .find_map(|o| {
            let context = o.context.as_deref()?;
            holds_unsure(&o.surface, &unsure_numbers(context)).then(|| context.to_string())
        })
}

/// The part of a place that says where and how sure ("page 1, read by OCR, 62% sure"), without
/// the title and sections before it or the list of unsure numbers after it.
pub fn ocr_part(place: &str) -> &str {
    let start = place
        .find(READ_BY_OCR)
        .map(|at| place[..at].rfind(" · ").map_or(0, |p| p + " · ".len()))
        .unwrap_or(0);
    let place = &place[start..];
    place.split("; ").next().unwrap_or(place)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unsure_numbers_of_an_ocr_place_are_read_as_numbers() {
        let place = "Water › Costs · page 1, read by OCR, 88% sure; unsure: 4,521, 2,173.00, 13";
        assert_eq!(unsure_numbers(place), vec![4521.0, 2173.0, 13.0]);
        assert_eq!(ocr_part(place), "page 1, read by OCR, 88% sure");
        assert!(unsure_numbers("Water · page 1; unsure: 4").is_empty());
        assert!(holds_unsure("£2,173.00", &unsure_numbers(place)));
        assert!(!holds_unsure("2,174", &unsure_numbers(place)));
    }
}
