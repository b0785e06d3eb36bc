//! "Did you mean": for a word an index's text does not hold, the word it holds that is closest
//! in spelling (issue 87: a misspelt question got no hint). Read from the term dictionary of a
//! text field, whose default tokenizer keeps words as written, lower-cased.

use std::collections::HashMap;

use tantivy::schema::Field;
use tantivy::Searcher;

/// The most edits a suggestion may be from the word: one for words of up to five letters, two
/// for longer ones (shorter words have too many neighbours one edit away).
fn max_edits(word: &str) -> usize {
    if word.chars().count() <= 5 {
        1
    } else {
        2
    }
}

/// How often each word of `field` occurs, for the words starting with `first` (a word is rarely
/// misspelt in its first letter, and one letter's words are a small part of the dictionary).
fn words_starting_with(
    searcher: &Searcher,
    field: Field,
    first: char,
) -> tantivy::Result<HashMap<String, u64>> {
    let mut start = [0u8; 4];
    let start = first.encode_utf8(&mut start).as_bytes().to_vec();
    let mut end = start.clone();
    if let Some(last) = end.last_mut() {
        *last = last.saturating_add(1);
    }
    let mut found: HashMap<String, u64> = HashMap::new();
    for segment in searcher.segment_readers() {
        let index = segment.inverted_index(field)?;
        let mut stream = index.terms().range().ge(&start).lt(&end).into_stream()?;
        while stream.advance() {
            if let Ok(word) = std::str::from_utf8(stream.key()) {
                *found.entry(word.to_string()).or_default() += u64::from(stream.value().doc_freq);
            }
        }
    }
    Ok(found)
}

/// The word of `field` closest to `word` (lower case), when the field does not hold `word`
/// itself: the one at the fewest edits, the most frequent among those; `None` when the field
/// holds the word, or nothing is close enough.
pub fn closest_word(
    searcher: &Searcher,
    field: Field,
    word: &str,
) -> tantivy::Result<Option<String>> {
    let Some(first) = word.chars().next() else {
        return Ok(None);
    };
    let words = words_starting_with(searcher, field, first)?;
    if words.contains_key(word) {
        return Ok(None);
    }
    let limit = max_edits(word);
    let best = words
        .into_iter()
        .filter(|(w, _)| w.chars().count().abs_diff(word.chars().count()) <= limit)
        .map(|(w, n)| (strsim::damerau_levenshtein(word, &w), n, w))
        .filter(|(edits, _, _)| *edits <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    Ok(best.map(|(_, _, w)| w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::schema::{Schema, TEXT};
    use tantivy::{doc, Index};

    #[test]
    fn a_misspelt_word_meets_the_closest_frequent_word() {
        let mut schema = Schema::builder();
        let text = schema.add_text_field("text", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer(15_000_000).unwrap();
        for line in [
            "The club has 9 courts and 212 members",
            "Courts are open daily",
            "The court of appeal",
            "Languages spoken in Indonesia",
        ] {
            writer.add_document(doc!(text => line)).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let closest = |w: &str| closest_word(&searcher, text, w).unwrap();
        assert_eq!(closest("cuorts").as_deref(), Some("courts"));
        assert_eq!(closest("langauges").as_deref(), Some("languages"));
        // Held as written: nothing to suggest.
        assert_eq!(closest("courts"), None);
        // Nothing close.
        assert_eq!(closest("zebras"), None);
    }
}
