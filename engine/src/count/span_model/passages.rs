//! What the reader reads of a snippet: the sentences with a count candidate, each cut to the
//! words around the candidate (about a third of a web snippet's tokens, and the only ones that
//! can hold a count the pipeline uses).

use std::ops::Range;

use crate::count::candidates::CountCandidate;
use crate::count::lexical::sentence_around;

/// What the model reads of a snippet: one sentence with a count candidate. Only such sentences
/// can hold a count the pipeline uses, and they are about a third of a web snippet's tokens.
#[derive(Debug, Clone, Copy)]
pub struct Passage<'a> {
    /// Index of the snippet in the list the passages were cut from.
    pub snippet: usize,
    /// Byte offset of `text` in the snippet.
    pub offset: usize,
    /// The passage's text.
    pub text: &'a str,
}

/// Characters a passage keeps on each side of a count candidate, within its sentence: about 30
/// tokens of English. A sentence is read whole when it is shorter; a long run-on one (a list, a
/// table row, a snippet without full stops) only around its counts.
pub const CONTEXT_CHARS: usize = 150;

/// The parts of each snippet's sentences around their count candidates (see [`CONTEXT_CHARS`]),
/// each once, in text order; parts that overlap are read as one.
pub fn candidate_passages<'a>(
    snippets: &[&'a str],
    candidates: &[Vec<CountCandidate>],
) -> Vec<Passage<'a>> {
    candidate_passages_within(snippets, candidates, CONTEXT_CHARS)
}

/// [`candidate_passages`] with `context_chars` on each side (`usize::MAX`: whole sentences).
pub fn candidate_passages_within<'a>(
    snippets: &[&'a str],
    candidates: &[Vec<CountCandidate>],
    context_chars: usize,
) -> Vec<Passage<'a>> {
    let spans: Vec<Vec<Range<usize>>> = candidates
        .iter()
        .map(|cands| cands.iter().map(|c| c.span.clone()).collect())
        .collect();
    passages_around(snippets, &spans, context_chars)
}

/// The parts of each snippet's sentences within `context_chars` of the byte spans `spans[s]`
/// of snippet `s` (counts, names), each once, in text order; parts that overlap are read as one.
pub fn passages_around<'a>(
    snippets: &[&'a str],
    spans: &[Vec<Range<usize>>],
    context_chars: usize,
) -> Vec<Passage<'a>> {
    let mut passages = Vec::new();
    for (s, (text, spans)) in snippets.iter().zip(spans).enumerate() {
        let mut ranges: Vec<Range<usize>> = spans
            .iter()
            .map(|span| {
                let sentence = sentence_around(text, span.start);
                let start = sentence.as_ptr() as usize - text.as_ptr() as usize;
                let sentence = start.min(span.start)..(start + sentence.len()).max(span.end);
                around(text, span, sentence, context_chars)
            })
            .collect();
        ranges.sort_by_key(|r| r.start);
        ranges.dedup_by(|later, earlier| {
            // A candidate running past its sentence joins the next one.
            if later.start < earlier.end {
                earlier.end = earlier.end.max(later.end);
                true
            } else {
                false
            }
        });
        passages.extend(ranges.into_iter().filter_map(|r| {
            Some(Passage {
                snippet: s,
                offset: r.start,
                text: text.get(r)?,
            })
        }));
    }
    passages
}

/// The part of `sentence` (a byte range of `text`) within `context` bytes of `span`, widened to
/// whole words so that no word is read cut.
fn around(text: &str, span: &Range<usize>, sentence: Range<usize>, context: usize) -> Range<usize> {
    let mut start = span.start.saturating_sub(context).max(sentence.start);
    let mut end = span.end.saturating_add(context).min(sentence.end);
    while start > sentence.start
        && !(text.is_char_boundary(start) && text[..start].ends_with(char::is_whitespace))
    {
        start -= 1;
    }
    while end < sentence.end
        && !(text.is_char_boundary(end) && text[end..].starts_with(char::is_whitespace))
    {
        end += 1;
    }
    start..end
}
