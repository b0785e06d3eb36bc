//! The file formats Tally reads, named once: a person's documents (plain text, HTML, Markdown,
//! CSV, JSONL, and as people keep them: PDF, Word, PowerPoint, Excel and OpenDocument
//! spreadsheets, e-mail, EPUB) and the data sets' files (SQuAD-format snippets, Qsearch judged sentences, NewsQuant gold files).

use serde::Serialize;

/// A file format Tally reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Plain text: one document, paragraphs separated by blank lines.
    Text,
    /// An HTML page: its visible text (scripts and styles dropped), its `<title>` as source.
    Html,
    /// Markdown: headings, lists and tables read as such.
    Markdown,
    /// Comma-separated values: one table whose first record names the columns.
    Csv,
    /// One JSON object per line, `{"text"[, "id", "title", "source", "entity"]}`; a data set's
    /// snippet sets name the `query` each snippet was retrieved for.
    Jsonl,
    /// A PDF's text layer: headings, paragraphs, lists and tables, page by page.
    Pdf,
    /// A Word document (`.docx`): headings, lists and tables.
    Docx,
    /// A PowerPoint deck (`.pptx`): each slide's title, text and tables.
    Pptx,
    /// An Excel workbook (`.xlsx`): each sheet a table of typed cells.
    Xlsx,
    /// An Excel 97–2003 workbook (`.xls`).
    Xls,
    /// An OpenDocument spreadsheet (`.ods`).
    Ods,
    /// An e-mail (`.eml`): its subject, sender and date, its body and text attachments.
    Eml,
    /// An e-book (`.epub`): its chapters in reading order.
    Epub,
    /// An image of a page (`.png`, `.jpg`, `.tif`): a scan or a photo, read by OCR.
    Image,
    /// SQuAD-format snippet files (CoQEx): each paragraph is a snippet of its question.
    Squad,
    /// Qsearch judged queries: each judged sentence is a document (with its entity).
    Qsearch,
    /// NewsQuant / CQE gold files: each sentence is a document.
    NewsQuant,
}

impl Format {
    /// Every format Tally reads: those of a person's documents first, then the data sets'.
    pub const ALL: [Format; 17] = [
        Format::Text,
        Format::Html,
        Format::Markdown,
        Format::Csv,
        Format::Jsonl,
        Format::Pdf,
        Format::Docx,
        Format::Pptx,
        Format::Xlsx,
        Format::Xls,
        Format::Ods,
        Format::Eml,
        Format::Epub,
        Format::Image,
        Format::Squad,
        Format::Qsearch,
        Format::NewsQuant,
    ];

    /// The format's name, in lower case (`text`, `newsquant`).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Html => "html",
            Format::Markdown => "markdown",
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Pdf => "pdf",
            Format::Docx => "docx",
            Format::Pptx => "pptx",
            Format::Xlsx => "xlsx",
            Format::Xls => "xls",
            Format::Ods => "ods",
            Format::Eml => "eml",
            Format::Epub => "epub",
            Format::Image => "image",
            Format::Squad => "squad",
            Format::Qsearch => "qsearch",
            Format::NewsQuant => "newsquant",
        }
    }

    /// The formats a person's documents come in: the first of [`Format::ALL`], before the
    /// data sets' own.
    pub const DOCUMENTS: &'static [Format] = Format::ALL.split_at(14).0;

    /// Whether the format is read from its bytes (a PDF, an Office or OpenDocument file, an
    /// e-mail, an EPUB) rather than from UTF-8 text.
    pub fn is_binary(self) -> bool {
        matches!(
            self,
            Format::Pdf
                | Format::Docx
                | Format::Pptx
                | Format::Xlsx
                | Format::Xls
                | Format::Ods
                | Format::Eml
                | Format::Epub
                | Format::Image
        )
    }

    /// A format by name, or by a file extension that means it (`txt`, `htm`, `ndjson`).
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "txt" => Some(Format::Text),
            "htm" => Some(Format::Html),
            "md" | "markdown" => Some(Format::Markdown),
            "text" => Some(Format::Text),
            "ndjson" => Some(Format::Jsonl),
            "png" | "jpg" | "jpeg" | "tif" | "tiff" => Some(Format::Image),
            _ => Format::ALL.into_iter().find(|f| f.name() == name),
        }
    }

    /// Whether a person's documents come in this format (the others are the data sets').
    pub fn is_document(self) -> bool {
        Format::DOCUMENTS.contains(&self)
    }

    /// The document format a file's extension says; plain text when it says none.
    pub fn of_document(file_name: &str) -> Format {
        Format::of_extension(file_name).unwrap_or(Format::Text)
    }

    /// The document format a file's extension names, if it names one Tally reads.
    pub fn of_extension(file_name: &str) -> Option<Format> {
        file_name
            .rsplit_once('.')
            .and_then(|(_, ext)| Format::parse(&ext.to_ascii_lowercase()))
            .filter(|f| f.is_document())
    }

    /// The format of a person's file from its name and its first bytes: the extension when it
    /// names a format Tally reads, a PDF by its signature whatever its name, plain text for a
    /// name without an extension Tally knows when the bytes are text.
    pub fn of_file(file_name: &str, bytes: &[u8]) -> Result<Format, NotReadFormat> {
        let named = Format::of_extension(file_name);
        if bytes.starts_with(b"%PDF-") && named != Some(Format::Pdf) {
            return Ok(Format::Pdf);
        }
        if let Some(format) = named {
            return Ok(format);
        }
        let extension = file_name
            .rsplit_once('.')
            .map(|(_, ext)| ext.to_ascii_lowercase())
            .filter(|ext| !ext.is_empty() && ext.len() <= 8 && !ext.contains(' '));
        let text = bytes.len() < 4 || (!bytes.contains(&0) && std::str::from_utf8(bytes).is_ok());
        match extension {
            // A README, a LICENCE, notes.log: text is text.
            _ if text => Ok(Format::Text),
            Some(ext) => Err(NotReadFormat::Extension { extension: ext }),
            None => Err(NotReadFormat::NotText),
        }
    }

    /// The sentence that says which files Tally reads.
    pub fn documents_read() -> String {
        format!(
            "Tally reads text (.txt), Markdown (.md), HTML, CSV, JSONL, PDF, Word (.docx), \
             PowerPoint (.pptx), Excel (.xlsx, .xls), OpenDocument spreadsheets (.ods), e-mail \
             (.eml), EPUB files and images of pages, read by OCR ({})",
            tally_types::documents::DOCUMENT_EXTENSIONS
                .map(|e| format!(".{e}"))
                .join(" ")
        )
    }

    /// The format a file name says, the data sets' included: `.json` files are SQuAD-format
    /// snippets unless named for NewsQuant or the recognizers, JSONL files named for Qsearch
    /// are its judged queries.
    pub fn guess(file_name: &str) -> Format {
        let lower = file_name.to_ascii_lowercase();
        match lower.rsplit_once('.').map(|(_, ext)| ext) {
            Some("json") if lower.contains("newsquant") || lower.contains("recognizers") => {
                Format::NewsQuant
            }
            Some("json") => Format::Squad,
            Some("jsonl" | "ndjson") if lower.contains("qsearch") => Format::Qsearch,
            _ => Format::of_document(&lower),
        }
    }

    /// The names of `formats`, for a sentence that lists them.
    pub fn names(formats: &[Format]) -> String {
        formats
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A file of no format Tally reads; says what it is not, for a sentence that then names the
/// formats Tally reads ([`Format::documents_read`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotReadFormat {
    /// A file whose extension names no format Tally reads.
    #[error("a .{extension} file is not a format Tally reads")]
    Extension {
        /// The file name's extension, without its dot.
        extension: String,
    },
    /// A file that is not UTF-8 text, nor of a format Tally reads.
    #[error("it is not UTF-8 text, nor a format Tally reads")]
    NotText,
}

impl tally_types::Choice for Format {
    const WHAT: &'static str = "format";

    fn all() -> &'static [Self] {
        &Format::ALL
    }

    fn choice_name(self) -> &'static str {
        self.name()
    }

    fn from_choice_name(name: &str) -> Option<Self> {
        Format::parse(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_has_one_name_and_files_say_theirs() {
        for format in Format::ALL {
            assert_eq!(Format::parse(format.name()), Some(format));
        }
        assert_eq!(Format::parse("txt"), Some(Format::Text));
        assert_eq!(Format::guess("notes.TXT"), Format::Text);
        assert_eq!(Format::guess("page.htm"), Format::Html);
        assert_eq!(Format::guess("news.ndjson"), Format::Jsonl);
        assert_eq!(Format::guess("stresstest.json"), Format::Squad);
        assert_eq!(Format::guess("newsquant_dev.json"), Format::NewsQuant);
        assert_eq!(Format::guess("qsearch_text_dev.jsonl"), Format::Qsearch);
        assert_eq!(Format::guess("README"), Format::Text);
        // An upload is a person's document whatever its name says.
        assert_eq!(Format::of_document("qsearch_text_dev.jsonl"), Format::Jsonl);
        assert_eq!(Format::of_document("data.json"), Format::Text);
        assert_eq!(Format::of_document("Fares.PDF"), Format::Pdf);
        assert_eq!(Format::of_document("budget.xlsx"), Format::Xlsx);
    }

    #[test]
    fn a_files_format_is_its_extension_or_its_signature() {
        assert_eq!(Format::of_file("report.pdf", b"%PDF-1.4"), Ok(Format::Pdf));
        // A PDF saved under another name is still a PDF.
        assert_eq!(
            Format::of_file("report.txt", b"%PDF-1.7\n"),
            Ok(Format::Pdf)
        );
        assert_eq!(Format::of_file("README", b"Notes\n"), Ok(Format::Text));
        assert_eq!(Format::of_file("notes.log", b"12 trains"), Ok(Format::Text));
        let photo = Format::of_file("photo.jpg", &[0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
        assert_eq!(photo, Ok(Format::Image));
        let refused = Format::of_file("song.mp3", &[0xff, 0xfb, 0x90, 0x64, 0, 0x10]);
        assert_eq!(
            refused,
            Err(NotReadFormat::Extension {
                extension: "mp3".into()
            })
        );
        assert_eq!(
            NotReadFormat::Extension {
                extension: "mp3".into()
            }
            .to_string(),
            "a .mp3 file is not a format Tally reads"
        );
        assert!(Format::documents_read().contains(".docx"));
        // Each extension the upload form accepts names a format the engine reads.
        for extension in tally_types::documents::DOCUMENT_EXTENSIONS {
            let name = format!("file.{extension}");
            assert!(Format::of_extension(&name).is_some(), "{name}");
        }
    }
}
