//! The ZIP container of the Office, OpenDocument and EPUB formats.

use std::io::{Cursor, Write};

/// An archive of `entries` (name, bytes): a `mimetype` entry first and stored (as OpenDocument
/// and EPUB require), the others deflated.
pub(super) fn zip_of(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in entries {
        let options = if *name == "mimetype" {
            stored
        } else {
            deflated
        };
        // Writing to memory cannot fail but for a bug: the generator's names are fixed.
        writer
            .start_file(*name, options)
            .expect("a generated entry's name is valid");
        writer.write_all(bytes).expect("memory takes the bytes");
    }
    writer
        .finish()
        .expect("the archive closes in memory")
        .into_inner()
}

/// `text` escaped for XML.
pub(super) fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
