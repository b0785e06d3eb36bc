//! How a CSV file is written, read from the file itself (issue 100): spreadsheets in most of
//! Europe export with `;` between fields (a comma is their decimal mark), some with tabs or
//! `|`. The delimiter is the one that splits the file's first lines into the same number of
//! fields most consistently, quotes respected, as Python's `csv.Sniffer` decides it.

/// The delimiters a CSV file is tried with, the usual one first (it wins a tie).
const DELIMITERS: [u8; 4] = [b',', b';', b'\t', b'|'];

/// How many of the file's first records the delimiter is judged on.
const SNIFFED_RECORDS: usize = 200;

/// The delimiter that splits `text` most consistently into two or more fields: the share of
/// its first records that have the commonest width, then the width itself. A file of one
/// column (no delimiter splits it) is read with a comma.
pub(super) fn delimiter(text: &str) -> u8 {
    let text = sample(text);
    let mut best = (b',', 0.0, 0usize);
    for delimiter in DELIMITERS {
        let (consistency, width) = consistency(text, delimiter);
        if width >= 2 && (consistency, width) > (best.1, best.2) {
            best = (delimiter, consistency, width);
        }
    }
    best.0
}

/// The share of the first records of `text` that have the commonest width when split at
/// `delimiter`, and that width (blank lines left out).
fn consistency(text: &str, delimiter: u8) -> (f64, usize) {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut widths: Vec<usize> = Vec::new();
    let mut record = csv::StringRecord::new();
    while widths.len() < SNIFFED_RECORDS {
        match reader.read_record(&mut record) {
            Ok(true) => {
                if record.iter().any(|field| !field.trim().is_empty()) {
                    widths.push(record.len());
                }
            }
            Ok(false) | Err(_) => break,
        }
    }
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for width in &widths {
        match counts.iter_mut().find(|(w, _)| w == width) {
            Some((_, n)) => *n += 1,
            None => counts.push((*width, 1)),
        }
    }
    // The commonest width; among equally common ones, the widest.
    let Some(&(width, n)) = counts.iter().max_by_key(|(w, n)| (*n, *w)) else {
        return (0.0, 0);
    };
    (n as f64 / widths.len() as f64, width)
}

/// Whether `text` escapes a quote inside a quoted field with a backslash (`"\"Memo\""`, as
/// some exporters and WikiTableQuestions write) rather than by doubling it (`"""Memo"""`):
/// it holds `\"` and no quote doubled between two other characters of a field.
pub(super) fn backslash_escapes(text: &str, delimiter: u8) -> bool {
    // One `\"` may end a Windows path ("C:\Temp\"); an exporter that escapes so does it
    // more than once.
    if text.matches("\\\"").count() < 2 {
        return false;
    }
    let bytes = text.as_bytes();
    let apart = |b: u8| b == delimiter || b == b'\n' || b == b'\r';
    let doubled = bytes
        .windows(4)
        .any(|w| w[1] == b'"' && w[2] == b'"' && !apart(w[0]) && !apart(w[3]) && w[0] != b'\\');
    !doubled
}

/// How much of a file the delimiter is judged on, in bytes: the reader's own bounds apply to
/// the whole file after.
const SNIFFED_BYTES: usize = 64 * 1024;

/// The start of `text` the delimiter is judged on, cut at a character's boundary.
fn sample(text: &str) -> &str {
    let mut end = text.len().min(SNIFFED_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `text` without a byte-order mark at its start (a spreadsheet's "CSV UTF-8" export writes
/// one; left in, it would be part of the first column's name).
pub(super) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delimiter_is_the_one_that_splits_lines_alike() {
        // A European export: decimal commas split its rows unevenly, `;` splits them alike.
        let european = "Strecke;Länge (km);Preis (€)\n\"Nord; alt\";11,2;3,50\nSüd;9,8;12,00\n";
        assert_eq!(delimiter(european), b';');
        let plain = "Route,Stops,Minutes\n\"Red; fast\",12,40\nBlue,9,35\n";
        assert_eq!(delimiter(plain), b',');
        assert_eq!(delimiter("Name\tAge\nAnn\t31\nBen\t29\n"), b'\t');
        assert_eq!(delimiter("a|b|c\n1|2|3\n"), b'|');
        // One column: nothing splits it.
        assert_eq!(delimiter("Names\nAnn\nBen\n"), b',');
        assert_eq!(delimiter(""), b',');
    }

    #[test]
    fn a_quote_escaped_by_a_backslash_is_told_from_a_doubled_one() {
        assert!(backslash_escapes("\"1970\",\"\\\"Memo\\\"\",\"\"\n", b','));
        assert!(!backslash_escapes("\"a \"\"b\"\" c\",\"\"\n", b','));
        assert!(!backslash_escapes("a,b\n1,2\n", b','));
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_first_column() {
        assert_eq!(without_bom("\u{feff}Name;Age"), "Name;Age");
        assert_eq!(without_bom("Name;Age"), "Name;Age");
    }
}
