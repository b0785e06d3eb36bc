//! A converted document (issue 102) as an EPUB: a chapter per top-level section (the
//! shallowest heading below the title), the title and what precedes the first section in the
//! first chapter; each chapter's headings and blocks as its source had them.

use super::super::html::converted::block_html;
use super::super::zip::xml_escape;
use super::package;
use crate::convert::model::{runs_text, FlowBlock, FlowDocument};

/// The document as an EPUB.
pub(in crate::render) fn render(document: &FlowDocument) -> Vec<u8> {
    let blocks = &document.blocks;
    let is_title =
        |k: usize, b: &FlowBlock| k == 0 && matches!(b, FlowBlock::Heading { level: 1, .. });
    let top = blocks
        .iter()
        .enumerate()
        .filter_map(|(k, b)| match b {
            FlowBlock::Heading { level, .. } if !is_title(k, b) => Some(*level),
            _ => None,
        })
        .min();
    let mut chapters: Vec<Vec<&FlowBlock>> = vec![Vec::new()];
    for (k, block) in blocks.iter().enumerate() {
        let starts = matches!(block, FlowBlock::Heading { level, .. } if Some(*level) == top)
            && !is_title(k, block);
        if starts {
            chapters.push(Vec::new());
        }
        if let Some(chapter) = chapters.last_mut() {
            chapter.push(block);
        }
    }
    let pages: Vec<(String, String)> = chapters
        .iter()
        .filter(|c| !c.is_empty())
        .map(|chapter| {
            let heading = match chapter.first() {
                Some(FlowBlock::Heading { runs, .. }) => runs_text(runs),
                _ => document.heading(),
            };
            let body: Vec<String> = chapter.iter().map(|b| block_html(b)).collect();
            let page = page(
                &heading,
                &format!("<section>\n{}\n</section>", body.join("\n")),
            );
            (heading, page)
        })
        .collect();
    package(&document.stem, &document.title, &pages)
}

/// A chapter's XHTML page: its headings are its blocks'.
fn page(title: &str, body: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n",
        xml_escape(title)
    )
}
