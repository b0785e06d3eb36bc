//! The years and versions a passage is bound to ("2008", "3.0.0"): by its context's title and
//! headings, by its dated entry's date or its table row's label.

use std::sync::LazyLock;

use regex::Regex;

use super::{Record, CONTEXT_SEPARATOR};

static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(1[6-9]\d\d|20\d\d)\b").expect("year pattern"));

/// The years and versions a passage is bound to by its context: those in its section path or
/// title, its entry's date, its row's label, its line's label ("2008", "3.0.0", "Population (2022)").
pub fn context_marks(record: Option<&Record>, context: &str) -> Vec<String> {
    let bound = match record {
        Some(Record::Dated { date, .. }) => Some(date.as_str()),
        // "Population (2022): 612" is the population of 2022.
        Some(Record::KeyValue { label, .. }) => Some(label.as_str()),
        Some(row @ Record::TableRow { .. }) => row.row().map(|(label, _)| label),
        _ => None,
    };
    // The context's last part may be a previous sentence: only its title and headings bind.
    // Its place ("row 2019", "e-mail of 2024-03-11") binds nothing.
    let headings = super::without_place(context)
        .split(CONTEXT_SEPARATOR)
        .filter(|p| p.split_whitespace().count() <= 8 && !p.ends_with(['.', '!', '?']));
    let mut marks: Vec<String> = headings.chain(bound).flat_map(marks_in).collect();
    marks.sort_unstable();
    marks.dedup();
    marks
}

/// The years ("2008") and version numbers ("3.0", "2.13.5") written in `text`.
pub fn marks_in(text: &str) -> Vec<String> {
    MARK.find_iter(text)
        .map(|m| m.as_str().to_string())
        .filter(|m| m.contains('.') || years_in(m).len() == 1)
        .collect()
}

static MARK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b\d+(?:\.\d+)+\b|\b(?:1[6-9]|20)\d\d\b").expect("mark pattern"));

/// Whether a passage's mark is the one asked for: the same, or a release of the version asked
/// ("3.0.0" for "3.0").
pub fn mark_fits(asked: &str, mark: &str) -> bool {
    mark == asked
        || mark.strip_prefix(asked).is_some_and(|rest| {
            rest.starts_with('.') && rest[1..].chars().all(|c| c.is_ascii_digit() || c == '.')
        })
}

/// The years written in `text`.
pub fn years_in(text: &str) -> Vec<i32> {
    YEAR.captures_iter(text)
        .filter_map(|c| c.get(1)?.as_str().parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passage_is_bound_to_the_years_and_versions_of_its_context() {
        let entry = Record::Dated {
            date: "2008".into(),
            text: "now runs 7 shops".into(),
        };
        assert_eq!(
            context_marks(Some(&entry), "Pell Bakery › History"),
            vec!["2008"]
        );
        let row = Record::TableRow {
            header: vec!["Year".to_string(), "Night buses".to_string()].into(),
            cells: vec!["2019".into(), "12".into()],
        };
        assert_eq!(context_marks(Some(&row), "Wrenmouth Transit"), vec!["2019"]);
        let line = Record::KeyValue {
            label: "Population (2022)".into(),
            value: "612".into(),
        };
        assert_eq!(context_marks(Some(&line), "Kilbrae"), vec!["2022"]);
        assert_eq!(
            context_marks(None, "Annual report 2019 › Northfield branch"),
            vec!["2019"]
        );
        assert_eq!(
            context_marks(None, "Nimbra › 3.0.0 — 2023-06-12 › Added"),
            vec!["2023", "3.0.0"]
        );
        assert!(context_marks(None, "News › The printer came in 2019.").is_empty());
        assert!(mark_fits("3.0", "3.0.0") && mark_fits("2008", "2008"));
        assert!(!mark_fits("3.0", "3.0.1x") && !mark_fits("3.1", "3.10.0"));
    }
}
