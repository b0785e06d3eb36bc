//! The bounds of a ZIP-based file (Word, PowerPoint, Excel, OpenDocument, EPUB), checked from
//! its central directory before any reader unpacks it (issue 72): how many entries, how many
//! bytes they unpack to in all and how far one entry may expand. A ZIP bomb (a few KB that
//! unpack to gigabytes) or an archive of a million entries is refused with a sentence before a
//! byte of it is inflated; an encrypted entry or an Office file saved with a password (an OLE
//! container, not a ZIP) likewise.

use std::io::Cursor;

use super::budget::ReadRefused;

/// The most entries an archive may hold (a long Word file holds a few dozen, a book a few hundred).
pub const MAX_ARCHIVE_ENTRIES: usize = 10_000;
/// The most bytes an archive's entries may unpack to, in all.
pub const MAX_UNPACKED_BYTES: u64 = 256 * 1024 * 1024;
/// How many times its packed size one entry may unpack to, for an entry past a megabyte (XML
/// packs 5 to 30 times; a ZIP bomb's entries a thousand times and more).
pub const MAX_ENTRY_RATIO: u64 = 200;

/// The first bytes of an OLE compound file: an Office file saved with a password is one, and so
/// is an Excel 97–2003 workbook.
pub const OLE_SIGNATURE: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Checks an archive's directory against the bounds; `what` names the format in sentences
/// ("a Word file").
pub fn check_archive(bytes: &[u8], what: &str) -> Result<(), ReadRefused> {
    if bytes.starts_with(&OLE_SIGNATURE) {
        return Err(ReadRefused::Unreadable(format!(
            "it is encrypted (password-protected) or saved in an old binary format, not as {what}; \
             save a copy without a password in the current format"
        )));
    }
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
        ReadRefused::Unreadable(format!(
            "it is damaged or not {what} (its ZIP archive: {e})"
        ))
    })?;
    if archive.len() > MAX_ARCHIVE_ENTRIES {
        return Err(ReadRefused::TooLarge(format!(
            "its archive holds {} entries; at most {MAX_ARCHIVE_ENTRIES} are read",
            archive.len()
        )));
    }
    let mut unpacked: u64 = 0;
    for n in 0..archive.len() {
        let entry = archive.by_index_raw(n).map_err(|e| {
            ReadRefused::Unreadable(format!("it is damaged (its ZIP archive: {e})"))
        })?;
        if entry.encrypted() {
            return Err(ReadRefused::Unreadable(
                "it is encrypted (password-protected); save a copy without a password".into(),
            ));
        }
        let (size, packed) = (entry.size(), entry.compressed_size().max(1));
        if size > 1024 * 1024 && size / packed > MAX_ENTRY_RATIO {
            return Err(ReadRefused::TooLarge(format!(
                "an entry of its archive unpacks {}-fold ({} MB from {} KB): a ZIP bomb?",
                size / packed,
                size / (1024 * 1024),
                packed / 1024
            )));
        }
        unpacked = unpacked.saturating_add(size);
        if unpacked > MAX_UNPACKED_BYTES {
            return Err(ReadRefused::TooLarge(format!(
                "its archive unpacks to more than {} MB",
                MAX_UNPACKED_BYTES / (1024 * 1024)
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Write;

    use super::*;

    /// A ZIP archive of `entries` (name, bytes), deflated.
    pub(crate) fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in entries {
            writer.start_file(*name, options).unwrap();
            writer.write_all(bytes).unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    #[test]
    fn a_zip_bomb_is_refused_before_it_is_unpacked() {
        // 64 MB of zeros pack into about 64 KB: a thousandfold, as bombs are.
        let zeros = vec![0u8; 64 * 1024 * 1024];
        let bomb = zip_of(&[("word/document.xml", &zeros)]);
        assert!(bomb.len() < 200 * 1024, "{}", bomb.len());
        let refused = check_archive(&bomb, "a Word file").unwrap_err();
        assert!(refused.to_string().contains("ZIP bomb"), "{refused}");
    }

    #[test]
    fn an_archive_of_too_many_entries_is_refused() {
        let names: Vec<String> = (0..=MAX_ARCHIVE_ENTRIES).map(|n| format!("e{n}")).collect();
        let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
        let refused = check_archive(&zip_of(&entries), "a Word file").unwrap_err();
        assert!(refused.to_string().contains("entries"), "{refused}");
    }

    #[test]
    fn encrypted_and_damaged_files_are_said_to_be_so() {
        let mut ole = OLE_SIGNATURE.to_vec();
        ole.extend([0; 512]);
        let refused = check_archive(&ole, "a Word file").unwrap_err();
        assert!(refused.to_string().contains("password"), "{refused}");
        let whole = zip_of(&[("word/document.xml", b"<w:document/>")]);
        let truncated = &whole[..whole.len() / 2];
        let refused = check_archive(truncated, "a Word file").unwrap_err();
        assert!(refused.to_string().contains("damaged"), "{refused}");
        assert!(check_archive(&whole, "a Word file").is_ok());
    }
}
