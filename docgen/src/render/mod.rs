//! Each generated [`Document`] written in a format Tally reads, as the program that makes such
//! files would write it: merged cells as merged cells, number formats as cell styles, running
//! headers on every page. One module per family of formats.

mod docx;
mod eml;
mod epub;
mod html;
mod ods;
mod pdf;
mod pptx;
mod text;
mod xlsx;
mod zip;

use crate::convert::model::{FlowDocument, Mail, Workbook};
use crate::model::Document;

pub use html::page as html_page;

/// The formats the generator writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// Plain text.
    Text,
    /// Markdown.
    Markdown,
    /// An HTML page with a menu, a banner and a footer.
    Html,
    /// CSV: the document's first table only.
    Csv,
    /// Word.
    Docx,
    /// PowerPoint: a slide per section.
    Pptx,
    /// Excel: a sheet per table.
    Xlsx,
    /// OpenDocument spreadsheet: a sheet per table.
    Ods,
    /// PDF: paged, hyphenated, with ligatures and a running header.
    Pdf,
    /// E-mail with an attachment.
    Eml,
    /// EPUB: a chapter per section.
    Epub,
}

impl Format {
    /// Every format, in the report's order.
    pub const ALL: [Format; 11] = [
        Format::Text,
        Format::Markdown,
        Format::Html,
        Format::Csv,
        Format::Docx,
        Format::Pptx,
        Format::Xlsx,
        Format::Ods,
        Format::Pdf,
        Format::Eml,
        Format::Epub,
    ];

    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Markdown => "md",
            Format::Html => "html",
            Format::Csv => "csv",
            Format::Docx => "docx",
            Format::Pptx => "pptx",
            Format::Xlsx => "xlsx",
            Format::Ods => "ods",
            Format::Pdf => "pdf",
            Format::Eml => "eml",
            Format::Epub => "epub",
        }
    }

    /// The format named by `name` (its extension).
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.extension() == name.trim().to_lowercase())
    }

    /// Whether the format has a place for each kind of thing the model holds: a CSV file holds
    /// one table; a spreadsheet holds tables (and no prose); the others hold everything.
    pub fn holds(self, what: Holds) -> bool {
        match (self, what) {
            (Format::Csv | Format::Xlsx | Format::Ods, Holds::Prose) => false,
            (Format::Html | Format::Epub | Format::Eml, Holds::Boilerplate) => self == Format::Html,
            (Format::Pdf, Holds::Boilerplate) => true,
            (_, Holds::Boilerplate) => false,
            _ => true,
        }
    }
}

/// Kinds of content a format may not have a place for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// Paragraphs, lists and `Label: value` lines.
    Prose,
    /// A menu, banner, footer or running header.
    Boilerplate,
}

/// `document` written in `format`.
pub fn render(document: &Document, format: Format) -> Vec<u8> {
    match format {
        Format::Text => text::plain(document).into_bytes(),
        Format::Markdown => text::markdown(document).into_bytes(),
        Format::Csv => text::csv(document).into_bytes(),
        Format::Html => html::page(document, true).into_bytes(),
        Format::Docx => docx::render(document),
        Format::Pptx => pptx::render(document),
        Format::Xlsx => xlsx::render(document),
        Format::Ods => ods::render(document),
        Format::Pdf => pdf::render(document),
        Format::Eml => eml::render(document),
        Format::Epub => epub::render(document),
    }
}

/// A converted document of running text (issue 102) written in `format` by the same writer as
/// the generator's documents: Word, PowerPoint, PDF or EPUB; `None` for another format.
pub fn render_flow(document: &FlowDocument, format: Format) -> Option<Vec<u8>> {
    match format {
        Format::Docx => Some(docx::converted::render(document)),
        Format::Pptx => Some(pptx::converted::render(document)),
        Format::Pdf => Some(pdf::converted::render(document)),
        Format::Epub => Some(epub::converted::render(document)),
        _ => None,
    }
}

/// A converted workbook (issue 102) as an Excel file, or an OpenDocument spreadsheet when
/// `ods`.
pub fn render_workbook(workbook: &Workbook, ods: bool) -> Vec<u8> {
    if ods {
        ods::converted::render(workbook)
    } else {
        xlsx::converted::render(workbook)
    }
}

/// A converted e-mail thread (issue 102) as a message.
pub fn render_mail(mail: &Mail) -> Vec<u8> {
    eml::converted::render(mail)
}
