//! A passage's text read back into the shape it was written in (see `passages.rs`): a table
//! row's cells under their columns, a `Label: value` line, a list's items, a dated entry. The
//! answerers read counts and values from these shapes; prose reads as prose.

use std::sync::LazyLock;

use regex::Regex;

use super::{CONTEXT_SEPARATOR, ITEM_SEPARATOR, ROW_SEPARATOR};

/// What a passage is, read from its text.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape<'a> {
    /// A table row: its label (first cell) and each named cell as (column, value).
    Row {
        label: &'a str,
        cells: Vec<(&'a str, &'a str)>,
    },
    /// A spec line or an infobox row.
    Labelled {
        label: &'a str,
        value: &'a str,
    },
    /// A list with the words that introduce it.
    List {
        lead: &'a str,
        items: Vec<&'a str>,
    },
    /// A dated entry.
    Dated {
        date: &'a str,
        text: &'a str,
    },
    Prose,
}

static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(1[6-9]\d\d|20\d\d)\b").expect("year pattern"));

static DATE_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:\d{1,2}\s+)?(?:[a-z]+\.?\s+)?(?:1[6-9]|20)\d\d(?:-\d\d(?:-\d\d)?)?$")
        .expect("date pattern")
});

/// The most words of a label.
const MAX_LABEL_WORDS: usize = 6;

/// The shape of a passage's `text`.
pub fn shape(text: &str) -> Shape<'_> {
    if let Some((left, right)) = text.split_once(ROW_SEPARATOR) {
        let left = left.trim();
        let cells: Vec<(&str, &str)> = right
            .split(ITEM_SEPARATOR)
            .filter_map(|cell| {
                let (column, value) = cell.split_once(": ")?;
                (column.split_whitespace().count() <= MAX_LABEL_WORDS)
                    .then(|| (column.trim(), value.trim()))
            })
            .collect();
        if !cells.is_empty() && cells.len() == right.split(ITEM_SEPARATOR).count() {
            // "Team: Falcon": the row's label is its first cell, after its column's name.
            let label = left.split_once(": ").map_or(left, |(_, cell)| cell.trim());
            return Shape::Row { label, cells };
        }
        if DATE_START.is_match(left) {
            return Shape::Dated {
                date: left,
                text: right.trim(),
            };
        }
    }
    if let Some((label, value)) = text.split_once(": ") {
        let label = label.trim();
        let short_label = (1..=MAX_LABEL_WORDS).contains(&label.split_whitespace().count());
        if short_label && !label.contains(['.', '!', '?']) {
            let items: Vec<&str> = value.split(ITEM_SEPARATOR).map(str::trim).collect();
            if items.len() >= 2 && items.iter().all(|i| i.split_whitespace().count() <= 15) {
                return Shape::List { lead: label, items };
            }
            return Shape::Labelled {
                label,
                value: value.trim(),
            };
        }
    }
    Shape::Prose
}

/// The years and versions a passage is bound to by its context: those in its section path or
/// title, its entry's date, its row's label ("2008", "3.0.0").
pub fn context_marks(text: &str, context: &str) -> Vec<String> {
    let bound = match shape(text) {
        Shape::Dated { date, .. } => Some(date),
        Shape::Row { label, .. } => Some(label),
        _ => None,
    };
    // The context's last part may be a previous sentence: only its title and headings bind.
    let headings = context
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
    fn each_written_shape_reads_back() {
        assert_eq!(
            shape("Team: Falcon — Players: 64; Gold: 8"),
            Shape::Row {
                label: "Falcon",
                cells: vec![("Players", "64"), ("Gold", "8")]
            }
        );
        assert_eq!(
            shape("Battery: 3200 mAh"),
            Shape::Labelled {
                label: "Battery",
                value: "3200 mAh"
            }
        );
        assert_eq!(
            shape("Present: Ann Hale (chair); Ben Ode; Cy Dunn"),
            Shape::List {
                lead: "Present",
                items: vec!["Ann Hale (chair)", "Ben Ode", "Cy Dunn"]
            }
        );
        assert_eq!(
            shape("March 2008 — now runs 7 shops"),
            Shape::Dated {
                date: "March 2008",
                text: "now runs 7 shops"
            }
        );
        assert_eq!(
            shape("The firm builds vans in 3 plants. It sold 52,000 vans."),
            Shape::Prose
        );
    }

    #[test]
    fn a_passage_is_bound_to_the_years_and_versions_of_its_context() {
        assert_eq!(
            context_marks("2008 — now runs 7 shops", "Pell Bakery › History"),
            vec!["2008"]
        );
        assert_eq!(
            context_marks("Staff: 14", "Annual report 2019 › Northfield branch"),
            vec!["2019"]
        );
        assert_eq!(
            context_marks(
                "Added: Six film looks",
                "Nimbra › 3.0.0 — 2023-06-12 › Added"
            ),
            vec!["2023", "3.0.0"]
        );
        assert!(context_marks("It cost £5,200.", "News › The printer came in 2019.").is_empty());
        assert!(mark_fits("3.0", "3.0.0") && mark_fits("2008", "2008"));
        assert!(!mark_fits("3.0", "3.0.1x") && !mark_fits("3.1", "3.10.0"));
    }
}
