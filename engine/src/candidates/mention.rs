//! What a question names of a table (issue 98): cells it writes whole ("France"), words of
//! cells it writes ("kolmonen" of "Kolmonen (tier 4)"), and the numbers it states. The
//! candidates are built from these; nothing here chooses among them.

use super::plan::{normalized, numbers_in, Condition, Test};
use tally_documents::tables::RecordTable;

/// Words too common to name a cell on their own.
const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "and", "or", "by", "with", "from", "is",
    "are", "was", "were", "be", "been", "has", "have", "had", "did", "do", "does", "how", "many",
    "much", "what", "which", "who", "when", "where", "that", "this", "there", "their", "its", "it",
    "as", "than", "more", "less", "number", "total", "times", "after", "before", "between", "not",
    "no", "all", "any", "each", "other", "same", "first", "last", "most", "least", "years", "year",
    "name", "listed", "list", "table", "s",
];

/// How many whole-cell mentions a table keeps (in the table's order).
const MAX_WHOLE: usize = 24;
/// How many word-of-cell mentions a table keeps (the longest first).
const MAX_CONTAINS: usize = 12;

/// A cell the question names, and the rows whose cell it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Mention {
    /// The condition that takes its rows.
    pub condition: Condition,
    /// The rows it takes.
    pub rows: Vec<usize>,
}

/// What a question names of one table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mentions {
    /// Cells written whole in the question, one per different text of a column.
    pub whole: Vec<Mention>,
    /// Words of cells written in the question, not whole cells.
    pub words: Vec<Mention>,
    /// The numbers the question states, in order, without repeats (ordinals too: "ninth").
    pub numbers: Vec<f64>,
    /// Spans of years the question names, both ends within ("the 1800s", "from 1990 to 1999").
    pub spans: Vec<(f64, f64)>,
}

impl Mentions {
    /// Every mention, whole cells first.
    pub fn all(&self) -> impl Iterator<Item = &Mention> {
        self.whole.iter().chain(&self.words)
    }
}

pub(crate) fn is_stop(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

/// Each column's cells of `table` as [`normalized`] reads them, column by column.
pub fn column_texts(table: &RecordTable) -> Vec<Vec<String>> {
    (0..table.columns.len())
        .map(|column| {
            table
                .rows
                .iter()
                .map(|row| {
                    row.cells
                        .get(column)
                        .map_or(String::new(), |c| normalized(&c.text))
                })
                .collect()
        })
        .collect()
}

/// What `question` names of `table`, whose cells `columns` holds as [`column_texts`] reads
/// them.
pub fn mentions(question: &str, table: &RecordTable, columns: &[Vec<String>]) -> Mentions {
    let asked = normalized(question);
    // A label the question names by its cue ("Weight" for "how heavy") is named whole.
    let padded = format!(" {asked} {} ", cue_words(question).join(" "));
    let words: Vec<&str> = asked.split(' ').collect();
    let mut whole: Vec<Mention> = Vec::new();
    let mut found_words: Vec<(usize, String, Vec<usize>)> = Vec::new();
    for (column, texts) in columns.iter().enumerate().take(table.columns.len()) {
        for (row, text) in texts.iter().enumerate() {
            if text.is_empty() || text.split(' ').all(is_stop) || text.len() < 2 {
                continue;
            }
            if !padded.contains(&format!(" {text} ")) {
                continue;
            }
            match whole.iter_mut().find(|m| {
                m.condition.column == column && m.condition.test == Test::Is(text.clone())
            }) {
                Some(known) => known.rows.push(row),
                None => whole.push(Mention {
                    condition: Condition {
                        column,
                        test: Test::Is(text.clone()),
                    },
                    rows: vec![row],
                }),
            }
        }
        // Runs of the question's words (up to three, not all common) inside a cell.
        let padded_texts: Vec<String> = texts.iter().map(|t| format!(" {t} ")).collect();
        for length in (1..=3).rev() {
            for start in 0..words.len().saturating_sub(length - 1) {
                let run = &words[start..start + length];
                if run.iter().all(|w| is_stop(w) || w.len() < 3) {
                    continue;
                }
                let phrase = run.join(" ");
                let longer_known = found_words
                    .iter()
                    .any(|(c, p, _)| *c == column && p.contains(&phrase));
                if longer_known {
                    continue;
                }
                let inner = format!(" {phrase} ");
                let rows: Vec<usize> = padded_texts
                    .iter()
                    .enumerate()
                    .filter(|(r, t)| texts[*r] != phrase && t.contains(&inner))
                    .map(|(r, _)| r)
                    .collect();
                if !rows.is_empty() && rows.len() < texts.len() {
                    found_words.push((column, phrase, rows));
                }
            }
        }
    }
    whole.truncate(MAX_WHOLE);
    found_words.sort_by_key(|(_, phrase, _)| std::cmp::Reverse(phrase.len()));
    found_words.truncate(MAX_CONTAINS);
    let mut numbers: Vec<f64> = Vec::new();
    for n in numbers_in(question).into_iter().chain(number_words(&words)) {
        if !numbers.contains(&n) {
            numbers.push(n);
        }
    }
    let spans = year_spans(question, &numbers);
    Mentions {
        spans,
        whole,
        words: found_words
            .into_iter()
            .map(|(column, phrase, rows)| Mention {
                condition: Condition {
                    column,
                    test: Test::Contains(phrase),
                },
                rows,
            })
            .collect(),
        numbers,
    }
}

/// The words a label or a header uses for what a question asks by an adjective or a verb
/// ("how heavy": weight; "how long … last": run time), each once, in the order of the cues.
pub(crate) fn cue_words(question: &str) -> Vec<&'static str> {
    const CUES: &[(&str, &[&str])] = &[
        ("heavy", &["weight", "mass"]),
        ("weigh", &["weight", "mass"]),
        ("tall", &["height"]),
        ("high", &["height"]),
        ("long", &["length", "duration", "time", "life", "runtime"]),
        ("last", &["time", "life", "runtime"]),
        ("cost", &["price", "cost", "fee"]),
        ("pay", &["price", "cost", "fee"]),
        ("wide", &["width"]),
        ("deep", &["depth"]),
        ("fast", &["speed"]),
        ("big", &["size", "area", "capacity"]),
        ("large", &["size", "area", "capacity"]),
        ("old", &["age"]),
        ("far", &["distance", "range"]),
    ];
    let asked = normalized(question);
    let mut words: Vec<&'static str> = Vec::new();
    for word in asked.split(' ') {
        for (cue, said) in CUES {
            if word == *cue {
                for w in *said {
                    if !words.contains(w) {
                        words.push(w);
                    }
                }
            }
        }
    }
    words
}

/// Numbers written as words ("three", "ten", "a dozen") and ordinals ("ninth").
pub(crate) fn number_words(words: &[&str]) -> Vec<f64> {
    const NAMES: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    const ORDINALS: [&str; 21] = [
        "",
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
        "twentieth",
    ];
    words
        .iter()
        .filter_map(|w| {
            if *w == "dozen" {
                return Some(12.0);
            }
            NAMES
                .iter()
                .position(|n| n == w)
                .or_else(|| ORDINALS.iter().skip(1).position(|n| n == w).map(|n| n + 1))
                .map(|n| n as f64)
        })
        .collect()
}

/// The spans of years a question names: a decade or century ("the 1990s", "the 1800s"), and
/// two years it states (from the first to the second).
fn year_spans(question: &str, numbers: &[f64]) -> Vec<(f64, f64)> {
    static DECADE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let decade =
        DECADE.get_or_init(|| regex::Regex::new(r"\b(\d{1,3}0)['’]?s\b").expect("valid regex"));
    let mut spans = Vec::new();
    for found in decade.captures_iter(&question.to_lowercase()) {
        let Ok(mut start) = found[1].parse::<f64>() else {
            continue;
        };
        // "the 90s": the nineties of the last century.
        if start < 100.0 {
            start += 1900.0;
        }
        spans.push((start, start + 9.0));
        // "the 1800s" is a century as often as a decade.
        if start % 100.0 == 0.0 {
            spans.push((start, start + 99.0));
        }
    }
    let years: Vec<f64> = numbers
        .iter()
        .copied()
        .filter(|n| n.fract() == 0.0 && (1000.0..=2100.0).contains(n))
        .collect();
    for (i, &a) in years.iter().enumerate() {
        for &b in &years[i + 1..] {
            spans.push((a.min(b), a.max(b)));
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_centuries_and_two_years_are_spans() {
        assert_eq!(year_spans("built in the 90s", &[]), vec![(1990.0, 1999.0)]);
        assert_eq!(
            year_spans("parishes founded in the 1800’s", &[]),
            vec![(1800.0, 1809.0), (1800.0, 1899.0)]
        );
        assert_eq!(
            year_spans("from 1997 to 2000", &[1997.0, 2000.0]),
            vec![(1997.0, 2000.0)]
        );
    }

    #[test]
    fn a_question_names_what_labels_write_and_counts_in_words() {
        assert_eq!(
            cue_words("how heavy is the lumio k7"),
            vec!["weight", "mass"]
        );
        assert!(cue_words("how much does the trail 2 cost").contains(&"price"));
        assert_eq!(
            number_words(&["a", "dozen", "men", "and", "the", "ninth"]),
            vec![12.0, 9.0]
        );
    }
}
