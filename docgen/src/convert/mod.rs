//! A part of the own-documents collection converted into the formats people keep documents in
//! (issues 72 and 102): each source (`documents/NN-name.{html,md,txt,csv}`) read into a small
//! model ([`model`]) and written by the generator's renderers, so that each format has one
//! writer. Deterministic: a rerun writes identical bytes.

mod html;
mod mail;
mod markdown;
pub mod model;
mod readme;
mod sheet;

use std::path::{Path, PathBuf};

use crate::render::{self, Format};
use crate::DocgenError;
use model::FlowDocument;

/// Each converted document's stem and the format it is written in.
pub const PLAN: [(&str, Format); 28] = [
    ("32-barrowdale-sunday-league", Format::Xlsx),
    ("33-coldharbour-village-hall-bookings", Format::Ods),
    ("35-kilbrae-island", Format::Docx),
    ("36-elderholm-town", Format::Pdf),
    ("37-loch-culvane", Format::Pdf),
    ("38-fitchley-brewery", Format::Docx),
    ("40-emberline-trail-2-ebike", Format::Pdf),
    ("41-ironleaf-ap300-air-purifier", Format::Docx),
    ("44-maren-rye-loaf", Format::Pptx),
    ("45-elvira-cardamom-buns", Format::Epub),
    ("53-yarrowfield-governors", Format::Pptx),
    ("55-quarrington-singers-trip", Format::Eml),
    ("56-ostler-voss-kitchen-quote", Format::Eml),
    ("57-thornbeck-relay-teams", Format::Eml),
    ("58-ulverdene-laptop-order", Format::Eml),
    ("59-nethercoyle-rowing-history", Format::Epub),
    ("61-stannerby-timeline", Format::Epub),
    ("71-corrowby-transit-yearly", Format::Xlsx),
    ("72-pennock-vale-angling-league", Format::Xlsx),
    ("73-sandrith-coast-line-stations", Format::Xlsx),
    ("74-ottery-mill-paints-prices", Format::Ods),
    ("75-pellinghurst-tennis-club", Format::Docx),
    ("76-wendlecombe-valley-railway", Format::Pdf),
    ("77-copsley-primary-federation", Format::Docx),
    ("78-tarrow-bay-maritime-museum", Format::Pdf),
    ("80-marlpit-readme", Format::Docx),
    ("83-kelderby-harriers-history", Format::Docx),
    ("84-halvermoor-fellrunner-tent", Format::Pdf),
];

/// A spreadsheet's sheet name: the subject of its table.
const SHEET_NAMES: [(&str, &str); 6] = [
    ("32-barrowdale-sunday-league", "League table"),
    ("71-corrowby-transit-yearly", "Yearly figures"),
    ("72-pennock-vale-angling-league", "League table"),
    ("73-sandrith-coast-line-stations", "Stations"),
    ("33-coldharbour-village-hall-bookings", "Bookings"),
    ("74-ottery-mill-paints-prices", "Price list"),
];

/// The workbook with a second sheet of text only (no facts), so that two sheets are read.
const NOTES_SHEET: (&str, &str, [&str; 3]) = (
    "73-sandrith-coast-line-stations",
    "Notes",
    [
        "Sandrith Coast Line stations",
        "Source: timetable office",
        "See the Stations sheet for the figures",
    ],
);

/// The workbook with one column of formulas (their cached values the CSV's numbers).
const FORMULA_SHEET: &str = "71-corrowby-transit-yearly";

/// The thread with an attachment: its file name and one sentence of the thread, word for word.
const ATTACHMENT: (&str, &str, &str) = (
    "56-ostler-voss-kitchen-quote",
    "quote-summary.txt",
    "Total: £14,850 including VAT.",
);

/// Converts every document of [`PLAN`] found under `collection/documents` into `out` (made if
/// missing), with `out/README.md`; returns the paths written, in order.
pub fn convert_collection(collection: &Path, out: &Path) -> Result<Vec<PathBuf>, DocgenError> {
    let write = |path: PathBuf, bytes: &[u8]| {
        std::fs::write(&path, bytes).map_err(|source| DocgenError::Write {
            path: path.clone(),
            source,
        })?;
        Ok::<_, DocgenError>(path)
    };
    std::fs::create_dir_all(out).map_err(|source| DocgenError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let sources = collection.join("documents");
    let mut written = Vec::new();
    for (stem, format) in PLAN {
        let bytes = convert(&sources, stem, format)?;
        let path = out.join(format!("{stem}.{}", format.extension()));
        written.push(write(path, &bytes)?);
    }
    let readme = readme::text(&sheet::read_rows(
        &sources.join(format!("{FORMULA_SHEET}.csv")),
    )?);
    written.push(write(out.join("README.md"), readme.as_bytes())?);
    Ok(written)
}

/// The document `stem` of the folder `sources` converted into `format`.
pub fn convert(sources: &Path, stem: &str, format: Format) -> Result<Vec<u8>, DocgenError> {
    match format {
        Format::Xlsx | Format::Ods => {
            let rows = sheet::read_rows(&sources.join(format!("{stem}.csv")))?;
            let name = SHEET_NAMES
                .iter()
                .find(|(s, _)| *s == stem)
                .map_or("Sheet1", |(_, n)| n);
            let formula = if stem == FORMULA_SHEET {
                let found = sheet::find_formula(&rows);
                Some(found.ok_or_else(|| DocgenError::NoNumericColumn {
                    stem: stem.to_string(),
                })?)
            } else {
                None
            };
            let mut sheets = vec![sheet::sheet(name, &rows, formula)];
            if stem == NOTES_SHEET.0 {
                let notes: Vec<Vec<String>> =
                    NOTES_SHEET.2.iter().map(|l| vec![l.to_string()]).collect();
                sheets.push(sheet::sheet(NOTES_SHEET.1, &notes, None));
            }
            let workbook = sheet::workbook(stem, sheets);
            Ok(render::render_workbook(&workbook, format == Format::Ods))
        }
        Format::Eml => {
            let text = read_text(&sources.join(format!("{stem}.txt")))?;
            let attachment = (stem == ATTACHMENT.0).then_some((ATTACHMENT.1, ATTACHMENT.2));
            let mail = mail::read(stem, &text, attachment)?;
            Ok(render::render_mail(&mail))
        }
        _ => {
            let document = read_document(sources, stem)?;
            render::render_flow(&document, format).ok_or_else(|| DocgenError::NoFlowWriter {
                stem: stem.to_string(),
                extension: format.extension(),
            })
        }
    }
}

/// The document `stem` read from its HTML or Markdown source.
pub fn read_document(sources: &Path, stem: &str) -> Result<FlowDocument, DocgenError> {
    let html = sources.join(format!("{stem}.html"));
    let markdown = sources.join(format!("{stem}.md"));
    let (title, blocks) = if html.exists() {
        html::read(&read_text(&html)?)
    } else if markdown.exists() {
        (String::new(), markdown::read(&read_text(&markdown)?))
    } else {
        return Err(DocgenError::NoSource {
            stem: stem.to_string(),
        });
    };
    let mut document = FlowDocument {
        stem: stem.to_string(),
        title,
        blocks,
    };
    if document.title.is_empty() {
        document.title = if document.blocks.is_empty() {
            stem.to_string()
        } else {
            document.heading()
        };
    }
    Ok(document)
}

fn read_text(path: &Path) -> Result<String, DocgenError> {
    std::fs::read_to_string(path).map_err(|source| DocgenError::Read {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/own-documents/documents")
    }

    /// Converting twice writes identical bytes (no clock, no random boundary or identifier).
    #[test]
    fn conversion_is_deterministic() {
        for (stem, format) in [
            ("36-elderholm-town", Format::Pdf),
            ("56-ostler-voss-kitchen-quote", Format::Eml),
            ("71-corrowby-transit-yearly", Format::Xlsx),
            ("75-pellinghurst-tennis-club", Format::Docx),
        ] {
            let first = convert(&sources(), stem, format).unwrap();
            let second = convert(&sources(), stem, format).unwrap();
            assert!(!first.is_empty(), "{stem}");
            assert_eq!(first, second, "{stem}");
        }
    }

    /// The collection's converted files are what the renderers write now: the one writer of
    /// each format, and files that cannot drift from it (`tally-lab convert` writes them again).
    #[test]
    fn the_committed_converted_files_are_what_the_renderers_write() {
        let committed = sources().join("../converted");
        let mut stale = Vec::new();
        for (stem, format) in PLAN {
            let path = committed.join(format!("{stem}.{}", format.extension()));
            let written = convert(&sources(), stem, format).unwrap();
            if std::fs::read(&path).ok().as_deref() != Some(written.as_slice()) {
                stale.push(path.display().to_string());
            }
        }
        let readme = readme::text(
            &sheet::read_rows(&sources().join(format!("{FORMULA_SHEET}.csv"))).unwrap(),
        );
        let readme_path = committed.join("README.md");
        if std::fs::read_to_string(&readme_path).ok().as_deref() != Some(readme.as_str()) {
            stale.push(readme_path.display().to_string());
        }
        assert!(
            stale.is_empty(),
            "not what the renderers write (run `tally-lab convert`):\n{}",
            stale.join("\n")
        );
    }

    #[test]
    fn a_missing_source_is_an_error() {
        let error = convert(&sources(), "99-nothing", Format::Docx).unwrap_err();
        assert!(matches!(error, DocgenError::NoSource { .. }), "{error}");
    }
}
