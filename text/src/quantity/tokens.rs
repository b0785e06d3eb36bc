//! A one-pass tokenizer for quantity extraction: digit runs, letter runs and single symbols, each
//! with its byte span and whether white space came before it ("5km" and "PS5" are glued, "5 km"
//! is not). It never allocates per token and is linear in the input.

#[cfg(test)]
use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// ASCII digits with inner thousands commas ("1,200") and decimal points ("3.5", "1.2.3").
    Num,
    /// A run of letters.
    Word,
    /// Any other single non-space character.
    Sym,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
    /// White space separates this token from the previous one (true for the first token).
    pub spaced: bool,
}

impl Token {
    #[cfg(test)]
    pub(crate) fn span(&self) -> Range<usize> {
        self.start..self.end
    }
}

pub(crate) fn tokenize(text: &str, out: &mut Vec<Token>) {
    out.clear();
    let bytes = text.as_bytes();
    let mut spaced = true;
    let mut iter = text.char_indices().peekable();
    while let Some((start, c)) = iter.next() {
        if c.is_whitespace() {
            spaced = true;
            continue;
        }
        let kind;
        let mut end = start + c.len_utf8();
        // A leading decimal point: ".5", "a .500 record".
        let leading_point = c == '.' && spaced && bytes.get(end).is_some_and(u8::is_ascii_digit);
        if c.is_ascii_digit() || leading_point {
            kind = Kind::Num;
            while end < bytes.len() {
                let b = bytes[end];
                let decimal_point = b == b'.' && bytes.get(end + 1).is_some_and(u8::is_ascii_digit);
                if b.is_ascii_digit() || decimal_point {
                    end += 1;
                } else if b == b',' && is_thousands_group(&bytes[end + 1..]) {
                    end += 4;
                } else {
                    break;
                }
            }
        } else if c.is_alphabetic() {
            kind = Kind::Word;
            while let Some(&(i, next)) = iter.peek() {
                if next.is_alphabetic() {
                    end = i + next.len_utf8();
                    iter.next();
                } else {
                    break;
                }
            }
        } else {
            kind = Kind::Sym;
        }
        // Resynchronise the char iterator after a byte-wise digit scan.
        while let Some(&(i, _)) = iter.peek() {
            if i < end {
                iter.next();
            } else {
                break;
            }
        }
        out.push(Token {
            kind,
            start,
            end,
            spaced,
        });
        spaced = false;
    }
}

/// "," followed by exactly three digits and then no further digit.
fn is_thousands_group(rest: &[u8]) -> bool {
    rest.len() >= 3
        && rest[..3].iter().all(u8::is_ascii_digit)
        && !rest.get(3).is_some_and(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> Vec<(Kind, &str, bool)> {
        let mut tokens = Vec::new();
        tokenize(text, &mut tokens);
        tokens
            .iter()
            .map(|t| (t.kind, &text[t.span()], t.spaced))
            .collect()
    }

    #[test]
    fn splits_numbers_words_and_symbols() {
        use Kind::*;
        assert_eq!(
            show("$1,200.5 for 5km, 1,2"),
            vec![
                (Sym, "$", true),
                (Num, "1,200.5", false),
                (Word, "for", true),
                (Num, "5", true),
                (Word, "km", false),
                (Sym, ",", false),
                (Num, "1", true),
                (Sym, ",", false),
                (Num, "2", false),
            ]
        );
        assert_eq!(
            show("€5 ½ 3.5."),
            vec![
                (Sym, "€", true),
                (Num, "5", false),
                (Sym, "½", true),
                (Num, "3.5", true),
                (Sym, ".", false)
            ]
        );
    }
}
