//! Month and day names, lower-case: one home for what the quantity extractor (a month is not a
//! unit), the instance reader (a month is not a name) and the table reader (a dated cell) know
//! of the calendar.

/// The months' names, in order.
pub const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The months' short names ("may" has none of its own).
pub const MONTH_ABBREVIATIONS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

/// The days' names, Monday first.
pub const DAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Whether a lower-case word is a month's name or short name.
pub fn is_month(lower: &str) -> bool {
    MONTHS.contains(&lower) || MONTH_ABBREVIATIONS.contains(&lower)
}

/// Whether a lower-case word is a day's name.
pub fn is_day(lower: &str) -> bool {
    DAYS.contains(&lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_days_are_known_by_their_names() {
        assert!(is_month("september") && is_month("sept") && is_month("may"));
        assert!(!is_month("mayor") && !is_month("monday"));
        assert!(is_day("sunday") && !is_day("sun"));
    }
}
