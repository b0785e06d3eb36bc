//! EPUB 3 as an e-book tool writes it: a chapter (XHTML) per top-level section, the blocks
//! before the first in a chapter of their own, a navigation document listing the chapters (in
//! the manifest, not the reading order), the package's title.

use super::html::blocks_html;
use super::zip::{xml_escape, zip_of};
use crate::model::{Block, Document};

pub(super) mod converted;

const CONTAINER: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#;

pub(super) fn render(document: &Document) -> Vec<u8> {
    // Chapters: (heading, blocks).
    let mut chapters: Vec<(String, Vec<Block>)> = vec![(document.title.clone(), Vec::new())];
    for block in &document.blocks {
        match block {
            Block::Heading { level: 1, text } => chapters.push((text.clone(), Vec::new())),
            other => {
                if let Some((_, blocks)) = chapters.last_mut() {
                    blocks.push(other.clone());
                }
            }
        }
    }
    let pages: Vec<(String, String)> = chapters
        .iter()
        .map(|(heading, blocks)| (heading.clone(), xhtml(heading, &blocks_html(blocks))))
        .collect();
    package(&document.name, &document.title, &pages)
}

/// A book named `name` and titled `title` of `chapters` (heading, XHTML page), each listed
/// in the navigation document by its heading.
fn package(name: &str, title: &str, chapters: &[(String, String)]) -> Vec<u8> {
    let mut entries: Vec<(String, Vec<u8>)> = vec![
        ("mimetype".into(), b"application/epub+zip".to_vec()),
        (
            "META-INF/container.xml".into(),
            CONTAINER.as_bytes().to_vec(),
        ),
    ];
    let mut manifest = String::from(
        r#"<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>"#,
    );
    let mut spine = String::new();
    let mut links = String::new();
    for (n, (heading, page)) in chapters.iter().enumerate() {
        let file = format!("chapter{}.xhtml", n + 1);
        manifest.push_str(&format!(
            r#"<item id="c{n}" href="{file}" media-type="application/xhtml+xml"/>"#
        ));
        spine.push_str(&format!(r#"<itemref idref="c{n}"/>"#));
        links.push_str(&format!(
            r#"<li><a href="{file}">{}</a></li>"#,
            xml_escape(heading)
        ));
        entries.push((format!("OEBPS/{file}"), page.clone().into_bytes()));
    }
    entries.push((
        "OEBPS/nav.xhtml".into(),
        xhtml(
            "Contents",
            &format!(r#"<nav xmlns:epub="http://www.idpf.org/2007/ops" epub:type="toc"><ol>{links}</ol></nav>"#),
        )
        .into_bytes(),
    ));
    let opf = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:tally:{}</dc:identifier><dc:title>{}</dc:title><dc:language>en</dc:language></metadata><manifest>{manifest}</manifest><spine>{spine}</spine></package>"#,
        name,
        xml_escape(title)
    );
    entries.push(("OEBPS/content.opf".into(), opf.into_bytes()));
    let borrowed: Vec<(&str, Vec<u8>)> = entries
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.clone()))
        .collect();
    zip_of(&borrowed)
}

fn xhtml(heading: &str, body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>{0}</title></head><body><h1>{0}</h1>
{body}</body></html>"#,
        xml_escape(heading)
    )
}
