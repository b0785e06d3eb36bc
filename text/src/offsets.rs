//! Offsets in text: Rust slices by bytes, the pages and the API count characters.

/// Character offset of byte offset `byte` in `text`.
pub fn char_offset(text: &str, byte: usize) -> usize {
    text.get(..byte.min(text.len()))
        .map_or(0, |prefix| prefix.chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_offsets_become_character_offsets() {
        let text = "Zürich hat 3 Seen";
        let byte = text.find('3').unwrap();
        assert_eq!(byte, 12);
        assert_eq!(char_offset(text, byte), 11);
        // Past the end or inside a character: the end, or the start of the text.
        assert_eq!(char_offset(text, 999), text.chars().count());
        assert_eq!(char_offset(text, 2), 0);
    }
}
