//! A text file's bytes as text (issue 100): UTF-8 as most programs write it, UTF-16 when its
//! byte-order mark says so (Excel's "Unicode text"), and Windows-1252 for the files older
//! programs and many spreadsheets in Western Europe still write ("Größe" as `0xF6 0xDF`). A
//! byte-order mark is never part of the text.

use std::borrow::Cow;

use encoding_rs::{UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};

/// The text of `bytes`, or `None` for bytes that are no text in any of those encodings: UTF-16
/// that does not decode cleanly, or bytes holding NUL (a binary file).
pub fn decode(bytes: &[u8]) -> Option<Cow<'_, str>> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let body = &bytes[bom..];
        if encoding == UTF_16LE || encoding == UTF_16BE {
            return encoding
                .decode_without_bom_handling_and_without_replacement(body)
                .map(|text| Cow::Owned(text.into_owned()));
        }
        debug_assert_eq!(encoding, UTF_8);
        return std::str::from_utf8(body).ok().map(Cow::Borrowed);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Some(Cow::Borrowed(text));
    }
    if bytes.contains(&0) {
        return None;
    }
    // UTF-8 with a damaged byte (a character cut short) stays UTF-8: read as Windows-1252,
    // every "é" of it would become "Ã©".
    let lossy = String::from_utf8_lossy(bytes);
    if lossy
        .chars()
        .any(|c| !c.is_ascii() && c != char::REPLACEMENT_CHARACTER)
    {
        return Some(Cow::Owned(lossy.into_owned()));
    }
    let (text, _) = WINDOWS_1252.decode_without_bom_handling(bytes);
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_utf16_and_windows_1252_are_read_and_their_marks_dropped() {
        assert_eq!(
            decode(b"Name;Gr\xc3\xb6\xc3\x9fe").as_deref(),
            Some("Name;Größe")
        );
        assert_eq!(decode(b"\xef\xbb\xbfName").as_deref(), Some("Name"));
        assert_eq!(decode(b"Gr\xf6\xdfe;12,5").as_deref(), Some("Größe;12,5"));
        // UTF-8 cut short at its end is still UTF-8.
        assert_eq!(
            decode(b"caf\xc3\xa9 \xc3").as_deref(),
            Some("café \u{fffd}")
        );
        assert_eq!(decode(b"\xff\xfeN\x00a\x00").as_deref(), Some("Na"));
        assert_eq!(decode(b"\xfe\xff\x00N\x00a").as_deref(), Some("Na"));
        // A UTF-16 mark before bytes that are no UTF-16, and bytes holding NUL, are no text.
        assert_eq!(decode(b"\xff\xfe\x00"), None);
        assert_eq!(decode(b"\x89PNG\x00\x00"), None);
    }
}
