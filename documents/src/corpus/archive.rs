//! The bounds of a ZIP-based file (Word, PowerPoint, Excel, OpenDocument, EPUB), checked from
//! its central directory before any reader unpacks it (issue 72): how many entries, how many
//! bytes they unpack to in all and how far one entry may expand. A ZIP bomb (a few KB that
//! unpack to gigabytes) or an archive of a million entries is refused with a sentence before a
//! byte of it is inflated; an encrypted entry or an Office file saved with a password (an OLE
//! container, not a ZIP) likewise. So is an archive whose entries share their bytes (200 sheets
//! of one packed body), and an XML part nested deeper than any document is (issue 84: Word
//! tables 2,000 deep, an EPUB's table of contents 100,000 deep), whose readers recurse once per
//! level and would overflow their stack.

use std::io::Cursor;

use super::budget::{ReadBudget, ReadRefused};

/// The most entries an archive may hold (a long Word file holds a few dozen, a book a few hundred).
pub const MAX_ARCHIVE_ENTRIES: usize = 10_000;
/// The most bytes an archive's entries may unpack to, in all.
pub const MAX_UNPACKED_BYTES: u64 = 256 * 1024 * 1024;
/// How many times its packed size one entry may unpack to, for an entry past a megabyte (XML
/// packs 5 to 30 times; a ZIP bomb's entries a thousand times and more).
pub const MAX_ENTRY_RATIO: u64 = 200;

/// The deepest an XML part of an archive may nest its elements. Word nests three elements per
/// table in a table and a few per paragraph; a table of contents two per level; documents
/// people write stay under 60. HTML pages in a book have their own bound
/// ([`MAX_HTML_DEPTH`](super::budget::MAX_HTML_DEPTH)), which this one leaves room for.
pub const MAX_XML_DEPTH: usize = 300;

/// The first bytes of an OLE compound file: an Office file saved with a password is one, and so
/// is an Excel 97–2003 workbook.
pub const OLE_SIGNATURE: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Checks an archive's directory against the bounds; `what` names the format in sentences
/// ("a Word file").
pub fn check_archive(
    bytes: &[u8],
    what: &'static str,
    budget: &ReadBudget,
) -> Result<(), ReadRefused> {
    if bytes.starts_with(&OLE_SIGNATURE) {
        return Err(ReadRefused::Unreadable(format!(
            "it is encrypted (password-protected) or saved in an old binary format, not as {what}; \
             save a copy without a password in the current format"
        )));
    }
    let damaged = |e: zip::result::ZipError| ReadRefused::damaged(what, e);
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(damaged)?;
    if archive.len() > MAX_ARCHIVE_ENTRIES {
        return Err(ReadRefused::TooLarge(format!(
            "its archive holds {} entries; at most {MAX_ARCHIVE_ENTRIES} are read",
            archive.len()
        )));
    }
    let mut unpacked: u64 = 0;
    // Where each entry's bytes start and how many they take, to find entries that share them.
    let mut spans: Vec<(u64, u64)> = Vec::with_capacity(archive.len());
    for n in 0..archive.len() {
        let entry = archive.by_index_raw(n).map_err(damaged)?;
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
        spans.push((entry.header_start(), entry.compressed_size()));
        unpacked = unpacked.saturating_add(size);
        if unpacked > MAX_UNPACKED_BYTES {
            return Err(ReadRefused::TooLarge(format!(
                "its archive unpacks to more than {} MB",
                MAX_UNPACKED_BYTES / (1024 * 1024)
            )));
        }
    }
    spans.sort_unstable();
    // Each entry's local header and packed bytes come before the next entry's header.
    if spans
        .windows(2)
        .any(|pair| pair[1].0 < pair[0].0.saturating_add(pair[0].1))
    {
        return Err(ReadRefused::TooLarge(
            "entries of its archive share their bytes (one packed body read many times), which \
             no program that saves documents writes"
                .into(),
        ));
    }
    for n in 0..archive.len() {
        budget.check()?;
        let mut entry = archive.by_index(n).map_err(damaged)?;
        let name = entry.name().map(|n| n.into_owned()).unwrap_or_default();
        if is_xml_part(&name) {
            check_xml_depth(&mut entry, &name, budget)?;
        }
    }
    Ok(())
}

/// Whether an archive's entry is XML its reader parses (a Word or PowerPoint part, a sheet,
/// a book's package, navigation or chapter).
fn is_xml_part(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [".xml", ".rels", ".opf", ".ncx", ".xhtml", ".html", ".htm"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// Streams an XML part, refusing it when its elements nest deeper than [`MAX_XML_DEPTH`]. A
/// part that is not well-formed is left to its reader, which says so.
fn check_xml_depth(
    part: &mut impl std::io::Read,
    name: &str,
    budget: &ReadBudget,
) -> Result<(), ReadRefused> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(std::io::BufReader::new(part));
    reader.config_mut().check_end_names = false;
    let (mut depth, mut events) = (0usize, 0u64);
    let mut buffer = Vec::new();
    loop {
        match reader.read_event_into(&mut buffer) {
            Ok(Event::Start(_)) => {
                depth += 1;
                if depth > MAX_XML_DEPTH {
                    return Err(ReadRefused::TooLarge(format!(
                        "its part {name} nests its elements more than {MAX_XML_DEPTH} deep (tables \
                         in tables, lists in lists); no document people write is nested so deep"
                    )));
                }
            }
            Ok(Event::End(_)) => depth = depth.saturating_sub(1),
            Ok(Event::Eof) | Err(_) => return Ok(()),
            Ok(_) => {}
        }
        events += 1;
        if events.is_multiple_of(65_536) {
            budget.check()?;
        }
        buffer.clear();
    }
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
        let refused = check_archive(&bomb, "a Word file", &ReadBudget::default()).unwrap_err();
        assert!(refused.to_string().contains("ZIP bomb"), "{refused}");
    }

    #[test]
    fn an_archive_of_too_many_entries_is_refused() {
        let names: Vec<String> = (0..=MAX_ARCHIVE_ENTRIES).map(|n| format!("e{n}")).collect();
        let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
        let refused =
            check_archive(&zip_of(&entries), "a Word file", &ReadBudget::default()).unwrap_err();
        assert!(refused.to_string().contains("entries"), "{refused}");
    }

    #[test]
    fn xml_nested_past_the_bound_is_refused_before_a_reader_recurses() {
        let deep = |levels: usize| {
            let mut xml = String::from("<w:document><w:body>");
            xml.push_str(&"<w:tbl><w:tr><w:tc>".repeat(levels));
            xml.push_str(&"<w:p/></w:tc></w:tr></w:tbl>".repeat(levels));
            xml.push_str("</w:body></w:document>");
            zip_of(&[("word/document.xml", xml.as_bytes())])
        };
        let budget = ReadBudget::default();
        let refused = check_archive(&deep(2_000), "a Word file", &budget).unwrap_err();
        assert!(
            refused.to_string().contains("more than 300 deep"),
            "{refused}"
        );
        // Tables ten deep are a document people write.
        assert!(check_archive(&deep(10), "a Word file", &budget).is_ok());
    }

    #[test]
    fn entries_that_share_their_bytes_are_refused() {
        let whole = zip_of(&[("xl/worksheets/sheet1.xml", b"<worksheet/>")]);
        // A second central-directory entry pointing at the first entry's local header.
        let mut archive = zip::ZipArchive::new(Cursor::new(&whole)).unwrap();
        let central = archive.by_index_raw(0).unwrap().central_header_start() as usize;
        drop(archive);
        let end = whole.len() - 22;
        let record = whole[central..end].to_vec();
        let mut shared = whole[..end].to_vec();
        let mut copy = record.clone();
        // The copy's name: sheet2 instead of sheet1.
        let at = copy.windows(6).position(|w| w == b"sheet1").unwrap();
        copy[at + 5] = b'2';
        shared.extend(&copy);
        let mut eocd = whole[end..].to_vec();
        eocd[8..10].copy_from_slice(&2u16.to_le_bytes());
        eocd[10..12].copy_from_slice(&2u16.to_le_bytes());
        eocd[12..16].copy_from_slice(&((record.len() * 2) as u32).to_le_bytes());
        shared.extend(eocd);
        let refused =
            check_archive(&shared, "an Excel workbook", &ReadBudget::default()).unwrap_err();
        assert!(
            refused.to_string().contains("share their bytes"),
            "{refused}"
        );
    }

    #[test]
    fn encrypted_and_damaged_files_are_said_to_be_so() {
        let mut ole = OLE_SIGNATURE.to_vec();
        ole.extend([0; 512]);
        let refused = check_archive(&ole, "a Word file", &ReadBudget::default()).unwrap_err();
        assert!(refused.to_string().contains("password"), "{refused}");
        let whole = zip_of(&[("word/document.xml", b"<w:document/>")]);
        let truncated = &whole[..whole.len() / 2];
        let refused = check_archive(truncated, "a Word file", &ReadBudget::default()).unwrap_err();
        assert!(refused.to_string().contains("damaged"), "{refused}");
        assert!(check_archive(&whole, "a Word file", &ReadBudget::default()).is_ok());
    }
}
