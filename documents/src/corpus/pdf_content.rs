//! What a page's content stream would cost `unpdf` to hold, counted without holding it (issue
//! 97): `unpdf` keeps every operator of a page with its operands (about 150 bytes an operator,
//! a few dozen an operand), so a page of `q` thirty-three million times over took 6 GB. This
//! reads a content stream as `unpdf::parser::raw::content` does — the same tokens, comments,
//! strings, arrays, names with `#xx` escapes, inline images — but only counts, and names the
//! XObjects it paints with `Do` and how often.

use std::collections::HashMap;

/// The deepest arrays may nest in a content stream (`unpdf` reads a nested array by recursion,
/// so a page of `[` a million times over would take its stack; real pages nest two deep).
pub(crate) const MAX_ARRAY_DEPTH: usize = 256;

/// What one content stream holds, counted.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Counted {
    /// Operators and operands: what `unpdf` would keep of it, one each, and one more for each
    /// [`BYTES_PER_ITEM`] of its bytes.
    pub(crate) items: u64,
    /// The XObjects it paints by name (`/Fm0 Do`), with how often.
    pub(crate) painted: HashMap<Vec<u8>, u64>,
}

/// The bytes a stream holds that weigh as one more item: the reader keeps every string, name
/// and inline image's bytes with its operator, however often a form paints it, so a form of one
/// long string painted many times over costs its bytes each time.
pub(crate) const BYTES_PER_ITEM: u64 = 64;

/// A content stream whose arrays nest past [`MAX_ARRAY_DEPTH`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NestedTooDeep;

fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0 | 12)
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    ) || is_whitespace(b)
}

fn is_number_start(b: u8) -> bool {
    b == b'-' || b == b'+' || b == b'.' || b.is_ascii_digit()
}

/// Counts the operators and operands of `data` and the names it paints.
pub(crate) fn count(data: &[u8]) -> Result<Counted, NestedTooDeep> {
    let mut counted = Counted {
        items: data.len() as u64 / BYTES_PER_ITEM,
        ..Counted::default()
    };
    // The first operand of the operator being read, when it is a name (`Do` paints it).
    let mut first: Option<Option<Vec<u8>>> = None;
    let len = data.len();
    let mut i = 0;
    while i < len {
        let b = data[i];
        if is_whitespace(b) {
            i += 1;
            continue;
        }
        if b == b'%' {
            while i < len && data[i] != b'\n' && data[i] != b'\r' {
                i += 1;
            }
            continue;
        }
        let operand = if b == b'(' {
            i = after_literal_string(data, i);
            None
        } else if b == b'<' && i + 1 < len && data[i + 1] != b'<' {
            i = after_hex_string(data, i);
            None
        } else if b == b'[' {
            let (next, elements) = after_array(data, i)?;
            counted.items += elements;
            i = next;
            None
        } else if b == b'/' {
            let (name, next) = name_at(data, i);
            i = next;
            Some(name)
        } else if is_number_start(b) {
            i = after_number(data, i);
            None
        } else if b.is_ascii_alphabetic() {
            let start = i;
            while i < len && data[i].is_ascii_alphanumeric() {
                i += 1;
            }
            if i < len && data[i] == b'*' {
                i += 1;
            }
            match &data[start..i] {
                b"true" | b"false" | b"null" => {
                    counted.items += 1;
                    first.get_or_insert(None);
                }
                b"BI" => {
                    i = after_inline_image(data, i);
                    counted.items += 2;
                    first = None;
                }
                operator => {
                    counted.items += 1;
                    if operator == b"Do" {
                        if let Some(Some(name)) = first.take() {
                            *counted.painted.entry(name).or_default() += 1;
                        }
                    }
                    first = None;
                }
            }
            continue;
        } else if b == b'\'' || b == b'"' {
            i += 1;
            counted.items += 1;
            first = None;
            continue;
        } else {
            i += 1;
            continue;
        };
        counted.items += 1;
        first.get_or_insert(operand);
    }
    Ok(counted)
}

/// Past a literal string at `start` (its `(`): nested parentheses and escapes as the reader
/// takes them.
fn after_literal_string(data: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut depth = 1;
    while i < data.len() && depth > 0 {
        match data[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'\\' if i + 1 < data.len() => i += 1,
            _ => {}
        }
        i += 1;
    }
    i
}

fn after_hex_string(data: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < data.len() && data[i] != b'>' {
        i += 1;
    }
    (i + 1).min(data.len())
}

fn after_number(data: &[u8], start: usize) -> usize {
    let mut i = start;
    if i < data.len() && (data[i] == b'-' || data[i] == b'+') {
        i += 1;
    }
    if i < data.len() && data[i] == b'.' {
        i += 1;
    }
    while i < data.len() && (data[i].is_ascii_digit() || data[i] == b'.') {
        i += 1;
    }
    i
}

fn hex_digit(b: u8) -> u8 {
    (b as char).to_digit(16).map_or(0, |d| d as u8)
}

/// The name at `start` (its `/`) with its `#xx` escapes decoded, as the reader decodes them.
fn name_at(data: &[u8], start: usize) -> (Vec<u8>, usize) {
    let mut i = start + 1;
    let mut name = Vec::new();
    while i < data.len() && !is_delimiter(data[i]) {
        if data[i] == b'#' && i + 2 < data.len() {
            name.push((hex_digit(data[i + 1]) << 4) | hex_digit(data[i + 2]));
            i += 3;
        } else {
            name.push(data[i]);
            i += 1;
        }
    }
    (name, i)
}

/// Past the array at `start` (its `[`), with how many values it and the arrays in it hold
/// (each one more the reader keeps), nested at most [`MAX_ARRAY_DEPTH`] deep.
fn after_array(data: &[u8], start: usize) -> Result<(usize, u64), NestedTooDeep> {
    let mut i = start + 1;
    let mut depth = 1usize;
    let mut values = 0u64;
    while i < data.len() {
        let b = data[i];
        if is_whitespace(b) {
            i += 1;
        } else if b == b']' {
            i += 1;
            depth -= 1;
            if depth == 0 {
                break;
            }
        } else if b == b'(' {
            i = after_literal_string(data, i);
            values += 1;
        } else if b == b'<' && i + 1 < data.len() && data[i + 1] != b'<' {
            i = after_hex_string(data, i);
            values += 1;
        } else if b == b'[' {
            depth += 1;
            if depth > MAX_ARRAY_DEPTH {
                return Err(NestedTooDeep);
            }
            i += 1;
            values += 1;
        } else if b == b'/' {
            i = name_at(data, i).1;
            values += 1;
        } else if is_number_start(b) {
            i = after_number(data, i);
            values += 1;
        } else if b.is_ascii_alphabetic() {
            while i < data.len() && data[i].is_ascii_alphabetic() {
                i += 1;
            }
            values += 1;
        } else {
            i += 1;
        }
    }
    Ok((i, values))
}

/// Past an inline image's dictionary, `ID`, data and `EI`, found as the reader finds them.
fn after_inline_image(data: &[u8], start: usize) -> usize {
    let len = data.len();
    let mut i = start;
    while i + 1 < len {
        let preceded =
            i == 0 || is_whitespace(data[i - 1]) || matches!(data[i - 1], b'>' | b']' | b')');
        let followed = i + 2 >= len || is_whitespace(data[i + 2]);
        if data[i] == b'I' && data[i + 1] == b'D' && preceded && followed {
            i += 2;
            break;
        }
        i += 1;
    }
    while i + 1 < len {
        if data[i] == b'E'
            && data[i + 1] == b'I'
            && (i == 0 || is_whitespace(data[i - 1]))
            && (i + 2 >= len || is_delimiter(data[i + 2]))
        {
            return i + 2;
        }
        i += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use unpdf::parser::raw::content::parse_content_stream;

    /// What the reader itself keeps of `data`: its operators and their operands (arrays'
    /// values each one more).
    fn kept_by_reader(data: &[u8]) -> u64 {
        use unpdf::parser::backend::PdfValue;
        fn values(value: &PdfValue) -> u64 {
            match value {
                PdfValue::Array(items) => 1 + items.iter().map(values).sum::<u64>(),
                _ => 1,
            }
        }
        parse_content_stream(data)
            .unwrap()
            .iter()
            .map(|op| 1 + op.operands.iter().map(values).sum::<u64>())
            .sum()
    }

    #[test]
    fn a_stream_is_counted_as_the_reader_reads_it() {
        let streams: [&[u8]; 5] = [
            b"BT /F1 12 Tf 100 700 Td [(Hello) -100 (World)] TJ ET",
            b"q 1 0 0 1 72 720 cm /Fm0 Do Q q /Fm0 Do Q /Im1 Do",
            b"/X %a comment\nDo /#58 Do (a \\) string) Tj <414243> Tj",
            b"BI /W 4 /H 4 /BPC 8 /CS /G ID \x00Do q Q\xff EI Q",
            b"[[1 2 [3 /N (s)] true] x] TJ ' \" 0.5 .5 -1 d0",
        ];
        for stream in streams {
            assert_eq!(
                count(stream).unwrap().items,
                kept_by_reader(stream),
                "{stream:?}"
            );
        }
        let painted = count(streams[1]).unwrap().painted;
        assert_eq!(painted[b"Fm0".as_slice()], 2);
        assert_eq!(painted[b"Im1".as_slice()], 1);
        // A comment between the name and `Do`, and a name spelt with an escape, still paint.
        let painted = count(streams[2]).unwrap().painted;
        assert_eq!(painted[b"X".as_slice()], 2, "{painted:?}");
        // What an inline image's data holds is not painted.
        assert!(count(streams[3]).unwrap().painted.is_empty());
    }

    #[test]
    fn arrays_nested_past_the_bound_are_refused() {
        let deep = "[".repeat(MAX_ARRAY_DEPTH + 1);
        assert_eq!(count(deep.as_bytes()), Err(NestedTooDeep));
        let fine = format!("{}{} TJ", "[".repeat(8), "]".repeat(8));
        assert!(count(fine.as_bytes()).is_ok());
    }
}
