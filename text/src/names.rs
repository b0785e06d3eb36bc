//! Where names may be in a text: the instance finder of count answers and the entity mode of
//! quantity search both start from these spans.

use std::ops::Range;

/// Spans that may name something: runs of capitalised words, quoted titles and the items of
/// lists ("A, B and C"), sorted; raw, before any normalisation.
pub fn name_spans(text: &str) -> Vec<Range<usize>> {
    let mut spans = capitalised_runs(text);
    spans.extend(quoted_titles(text));
    spans.extend(list_items(text));
    spans.sort_by_key(|s| (s.start, s.end));
    spans.dedup();
    spans
}

/// Word tokens with byte spans.
fn word_spans(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let inside = c.is_alphanumeric() || c == '\'' || c == '’' || c == '-' || c == '&';
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..text.len());
    }
    out
}

fn is_capitalised(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// Lower-case words allowed inside a name ("Jammu and Kashmir", "Bank of India").
fn is_name_joiner(word: &str) -> bool {
    matches!(
        word,
        "of" | "and" | "de" | "the" | "&" | "da" | "del" | "la" | "von" | "van"
    )
}

/// Runs of capitalised words, possibly joined by "of", "and" …; a capitalised word right after a
/// sentence end stands alone only if it is not a common function word.
fn capitalised_runs(text: &str) -> Vec<Range<usize>> {
    let spans = word_spans(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < spans.len() {
        let word = &text[spans[i].clone()];
        if !is_capitalised(word) {
            i += 1;
            continue;
        }
        let mut j = i;
        loop {
            // Extend over joiners only when a capitalised word follows and no punctuation is
            // between.
            let next = j + 1;
            if next < spans.len() && glued(text, &spans[j], &spans[next]) {
                let w = &text[spans[next].clone()];
                // Headline case ("States Have A Cracker Barrel") is not one name.
                if is_capitalised(w) && !is_stop_word(&w.to_lowercase()) && !is_headline_verb(w) {
                    j = next;
                    continue;
                }
                if is_name_joiner(w)
                    && next + 1 < spans.len()
                    && glued(text, &spans[next], &spans[next + 1])
                    && is_capitalised(&text[spans[next + 1].clone()])
                {
                    j = next + 1;
                    continue;
                }
            }
            break;
        }
        let mut first = i;
        // Sentence-initial function words are not part of names ("The Beatles" keeps "The" out
        // too: normalisation drops it anyway).
        while first <= j && is_stop_word(&text[spans[first].clone()].to_lowercase()) {
            first += 1;
        }
        if first <= j {
            out.push(spans[first].start..spans[j].end);
        }
        i = j + 1;
    }
    out
}

/// Capitalised verbs that mark a headline rather than a name.
pub fn is_headline_verb(word: &str) -> bool {
    matches!(
        word.to_lowercase().as_str(),
        "have"
            | "has"
            | "had"
            | "does"
            | "do"
            | "did"
            | "be"
            | "can"
            | "will"
            | "get"
            | "got"
            | "make"
            | "makes"
            | "find"
            | "see"
            | "read"
            | "more"
            | "many"
            | "much"
            | "how"
    )
}

/// Only spaces between two words.
fn glued(text: &str, a: &Range<usize>, b: &Range<usize>) -> bool {
    text[a.end..b.start].chars().all(|c| c == ' ')
}

/// Short texts between quotes: ‘Yesterday’, “Hey Jude”, "Let It Be".
fn quoted_titles(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (open, close) in [('‘', '’'), ('“', '”'), ('"', '"')] {
        let mut rest = 0;
        while let Some(a) = text[rest..].find(open) {
            let start = rest + a + open.len_utf8();
            let Some(b) = text[start..].find(close) else {
                break;
            };
            let end = start + b;
            let inner = &text[start..end];
            let n = inner.split_whitespace().count();
            if (1..=8).contains(&n) && !inner.contains('\n') {
                out.push(start..end);
            }
            rest = end + close.len_utf8();
        }
    }
    out
}

/// Items of comma lists with at least three items of at most three words ("Arabic, Swahili,
/// Hausa and Yoruba").
fn list_items(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for sentence_start in sentence_starts(text) {
        let end = text[sentence_start..]
            .find(['.', ';', ':', '\n'])
            .map_or(text.len(), |e| sentence_start + e);
        let sentence = &text[sentence_start..end];
        let mut items: Vec<Range<usize>> = Vec::new();
        let mut at = sentence_start;
        for part in sentence.split(',') {
            let part_start = at;
            at += part.len() + 1;
            // "… Hausa and Yoruba": the last item may carry "and"/"or".
            for piece in split_and(part) {
                let trimmed = piece.1.trim();
                let offset = part_start + piece.0 + (piece.1.len() - piece.1.trim_start().len());
                let n = trimmed.split_whitespace().count();
                if (1..=3).contains(&n) {
                    items.push(offset..offset + trimmed.len());
                }
            }
        }
        if items.len() >= 3 {
            out.extend(items);
        }
    }
    out
}

fn split_and(part: &str) -> Vec<(usize, &str)> {
    for joiner in [" and ", " or "] {
        if let Some(i) = part.find(joiner) {
            return vec![
                (0, &part[..i]),
                (i + joiner.len(), &part[i + joiner.len()..]),
            ];
        }
    }
    vec![(0, part)]
}

fn sentence_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | ';' | ':' | '\n') && i + 1 < text.len() {
            starts.push(i + 1);
        }
    }
    starts
}

/// Whether `word` (lower case) is a function word ("the", "in", "they") that names leave out.
pub fn is_stop_word(word: &str) -> bool {
    matches!(
        word,
        "a" | "an"
            | "the"
            | "this"
            | "that"
            | "these"
            | "those"
            | "in"
            | "on"
            | "at"
            | "of"
            | "for"
            | "to"
            | "and"
            | "or"
            | "but"
            | "it"
            | "its"
            | "he"
            | "she"
            | "they"
            | "we"
            | "i"
            | "you"
            | "his"
            | "her"
            | "their"
            | "our"
            | "my"
            | "there"
            | "here"
            | "what"
            | "which"
            | "who"
            | "when"
            | "where"
            | "how"
            | "why"
            | "is"
            | "are"
            | "was"
            | "were"
            | "as"
            | "by"
            | "with"
            | "from"
            | "if"
            | "so"
            | "also"
            | "all"
            | "some"
            | "many"
            | "most"
            | "more"
            | "one"
            | "no"
            | "not"
            | "yes"
            | "each"
            | "every"
            | "both"
            | "other"
            | "such"
            | "after"
            | "before"
            | "during"
            | "since"
            | "while"
            | "today"
            | "however"
            | "although"
            | "though"
            | "yet"
            | "then"
            | "now"
    )
}
