//! Sentence splitting for the search index: a sentence ends at `.`, `!` or `?` (closing quotes
//! and brackets included) before white space and a capital letter, a digit or an opening quote —
//! unless the word before the stop is a known abbreviation ("Mr.", "approx.", "U.S.") or a single
//! letter (initials). A "sentence" is at most [`MAX_SENTENCE_BYTES`] long: text without sentence
//! ends (a table dump, a list of numbers) is cut at white space, so the work per sentence stays
//! bounded whatever a document holds.

use std::ops::Range;

/// The longest sentence kept whole, in bytes; a longer run of text is cut at the last white
/// space before this (mid-word only when a word is longer). Natural sentences are far shorter.
pub const MAX_SENTENCE_BYTES: usize = 1_000;

/// Words that end in a full stop without ending a sentence.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "no", "vs", "approx", "est", "inc", "ltd",
    "co", "corp", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
    "dec", "gen", "gov", "sen", "rep", "mt", "ft", "fig", "ca", "etc", "e.g", "i.e", "u.s", "u.k",
];

/// Byte ranges of the sentences of `text`, trimmed; empty sentences are skipped.
pub fn split_sentences(text: &str) -> Vec<Range<usize>> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let ends = matches!(c, '.' | '!' | '?') || (c == '\n' && next_is_newline(&chars, i));
        if !ends {
            i += 1;
            continue;
        }
        // Closing punctuation belongs to the sentence that ends here.
        let mut j = i + 1;
        while j < chars.len() && matches!(chars[j].1, '"' | '\'' | ')' | ']' | '”' | '’' | '.')
        {
            j += 1;
        }
        let end = chars.get(j).map_or(text.len(), |&(b, _)| b);
        let next_starts = match chars.get(j) {
            None => true,
            Some(&(_, w)) if w.is_whitespace() => starts_sentence(&chars[j..]),
            _ => false,
        };
        if c == '\n' || (next_starts && (c != '.' || !is_abbreviation(&text[start..at]))) {
            push_trimmed(text, start..end, &mut sentences);
            start = end;
        }
        i = j.max(i + 1);
    }
    push_trimmed(text, start..text.len(), &mut sentences);
    sentences
}

fn next_is_newline(chars: &[(usize, char)], i: usize) -> bool {
    chars.get(i + 1).is_some_and(|&(_, c)| c == '\n')
}

/// Whether the text after white space starts a new sentence.
fn starts_sentence(rest: &[(usize, char)]) -> bool {
    rest.iter()
        .map(|&(_, c)| c)
        .find(|c| !c.is_whitespace())
        .is_none_or(|c| c.is_uppercase() || c.is_ascii_digit() || "\"'“‘(".contains(c))
}

/// Whether the sentence so far ends in an abbreviation or an initial.
fn is_abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("")
        .to_lowercase();
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    (letters == 1 && word.chars().all(|c| c.is_alphabetic() || c == '.'))
        || ABBREVIATIONS.contains(&word.as_str())
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let slice = &text[range.clone()];
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    if lead + trail >= slice.len() {
        return;
    }
    let (mut start, end) = (range.start + lead, range.end - trail);
    while end - start > MAX_SENTENCE_BYTES {
        let mut cut = start + MAX_SENTENCE_BYTES;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        // The last white space before the limit, unless that leaves nothing before it.
        if let Some(space) = text[start..cut].rfind(char::is_whitespace) {
            if space > 0 {
                cut = start + space;
            }
        }
        let piece = text[start..cut].trim_end();
        out.push(start..start + piece.len());
        start = cut + (text[cut..].len() - text[cut..].trim_start().len());
    }
    if start < end {
        out.push(start..end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        split_sentences(text)
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn text_without_sentence_ends_is_cut_at_white_space_into_bounded_pieces() {
        // 2 MB of words and numbers with no full stop (a table dump), and one endless "word".
        let table = "width 120 cm height 45 kg ".repeat(80_000);
        let pieces = split_sentences(&table);
        assert!(pieces.len() >= table.len() / MAX_SENTENCE_BYTES);
        for piece in &pieces {
            assert!(piece.len() <= MAX_SENTENCE_BYTES, "{}", piece.len());
            let text = &table[piece.clone()];
            assert_eq!(text, text.trim());
            assert!(
                !text.starts_with("idth") && !text.ends_with("widt"),
                "cut mid-word"
            );
        }
        let covered: usize = pieces.iter().map(|p| p.len()).sum();
        assert!(covered + pieces.len() >= table.trim().len(), "nothing lost");
        let word = "é".repeat(1_500);
        let pieces = split(&word);
        assert!(pieces.iter().all(|p| p.len() <= MAX_SENTENCE_BYTES));
        assert_eq!(pieces.concat(), word);
    }

    #[test]
    fn splits_at_stops_before_capitals() {
        assert_eq!(
            split("The stadium holds 80,000 people. It cost $1.5 billion! Was it worth it? Yes."),
            vec![
                "The stadium holds 80,000 people.",
                "It cost $1.5 billion!",
                "Was it worth it?",
                "Yes."
            ]
        );
    }

    #[test]
    fn keeps_abbreviations_initials_and_decimals_inside() {
        assert_eq!(
            split("Mr. Smith ran 3.5 km in the U.S. on Monday. J. R. Tolkien wrote it."),
            vec![
                "Mr. Smith ran 3.5 km in the U.S. on Monday.",
                "J. R. Tolkien wrote it."
            ]
        );
    }

    #[test]
    fn closing_quotes_stay_with_their_sentence() {
        assert_eq!(
            split("He said \"it weighs 5 kg.\" Then he left."),
            vec!["He said \"it weighs 5 kg.\"", "Then he left."]
        );
    }

    #[test]
    fn blank_lines_end_sentences_and_empty_text_has_none() {
        assert_eq!(
            split("Title line\n\nBody text"),
            vec!["Title line", "Body text"]
        );
        assert!(split("  \n ").is_empty());
    }
}
