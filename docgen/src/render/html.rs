//! HTML as a site writes it: a menu, a banner and a footer around the content (in `nav`,
//! `header` and `footer` elements, or in link-heavy `div`s as older sites do), tables with
//! `colspan` and `rowspan`, note markers in `<sup>`, soft hyphens in long words.

use super::zip::xml_escape as escape;
use crate::model::{Block, Document, Row, RowKind, Table, Value, Word};

pub(super) mod converted;

/// The whole page; `boilerplate` adds the site's menu, banner and footer around the content.
pub fn page(document: &Document, boilerplate: bool) -> String {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>{}</title></head>\n<body>\n",
        escape(&document.title)
    );
    let semantic = document.seed.is_multiple_of(2);
    let chrome = &document.boilerplate;
    if boilerplate {
        let links: String = chrome
            .menu
            .iter()
            .map(|item| format!("<li><a href=\"#{}\">{}</a></li>", slug(item), escape(item)))
            .collect();
        if semantic {
            html.push_str(&format!(
                "<header><nav><ul>{links}</ul></nav><p class=\"banner\">{}</p></header>\n<main>\n",
                escape(&chrome.banner)
            ));
        } else {
            html.push_str(&format!(
                "<div class=\"site-menu\"><ul>{links}</ul></div>\n<div class=\"promo\"><a href=\"#join\">{}</a></div>\n<div class=\"content\">\n",
                escape(&chrome.banner)
            ));
        }
    }
    html.push_str(&format!("<h1>{}</h1>\n", escape(&document.title)));
    html.push_str(&blocks_html(&document.blocks));
    if boilerplate {
        let lines: String = chrome
            .footer
            .iter()
            .map(|line| format!("<li><a href=\"#{}\">{}</a></li>", slug(line), escape(line)))
            .collect();
        if semantic {
            html.push_str(&format!("</main>\n<footer><ul>{lines}</ul></footer>\n"));
        } else {
            html.push_str(&format!(
                "</div>\n<div class=\"site-footer\"><ul>{lines}</ul></div>\n"
            ));
        }
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// The content blocks as HTML (also an EPUB chapter's body and an e-mail's).
pub(crate) fn blocks_html(blocks: &[Block]) -> String {
    let mut html = String::new();
    for block in blocks {
        match block {
            Block::Heading { level, text } => {
                let level = (*level + 1).min(6);
                html.push_str(&format!("<h{level}>{}</h{level}>\n", escape(text)));
            }
            Block::Paragraph { words } => {
                html.push_str(&format!("<p>{}</p>\n", words_html(words)));
            }
            Block::List { lead, items } => {
                if let Some(lead) = lead {
                    html.push_str(&format!("<p>{}</p>\n", escape(lead)));
                }
                html.push_str("<ul>\n");
                for item in items {
                    html.push_str(&format!("<li>{}</li>\n", escape(item)));
                }
                html.push_str("</ul>\n");
            }
            Block::KeyValues { pairs } => {
                html.push_str("<dl>\n");
                for (label, value) in pairs {
                    html.push_str(&format!(
                        "<dt>{}</dt><dd>{}</dd>\n",
                        escape(label),
                        escape(value)
                    ));
                }
                html.push_str("</dl>\n");
            }
            Block::Table(table) => html.push_str(&table_html(table)),
        }
    }
    html
}

/// A paragraph's words: a note marker in `<sup>`, a long word with a soft hyphen where it
/// may break.
fn words_html(words: &[Word]) -> String {
    words
        .iter()
        .map(|word| {
            let mut text = match word.hyphen_at {
                Some(at) => format!("{}\u{AD}{}", &word.text[..at], &word.text[at..]),
                None => word.text.clone(),
            };
            text = escape(&text);
            if let Some(note) = word.note {
                text.push_str(&format!("<sup>{note}</sup>"));
            }
            text
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn table_html(table: &Table) -> String {
    let width = table.width();
    let mut html = String::from("<table>\n<thead>\n");
    if let Some(title) = &table.title_row {
        html.push_str(&format!(
            "<tr><th colspan=\"{width}\">{}</th></tr>\n",
            escape(title)
        ));
    }
    for row in &table.header {
        html.push_str("<tr>");
        for cell in row {
            html.push_str(&format!(
                "<th{}{}>{}</th>",
                span("colspan", cell.colspan),
                span("rowspan", cell.rowspan),
                escape(&cell.text)
            ));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</thead>\n<tbody>\n");
    for row in &table.rows {
        html.push_str(&row_html(row, width));
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

fn row_html(row: &Row, width: usize) -> String {
    match row.kind {
        RowKind::Note => format!(
            "<tr class=\"note\"><td colspan=\"{width}\">{}</td></tr>\n",
            escape(&row.cells[0].value.shown())
        ),
        kind => {
            let class = if kind == RowKind::Total {
                " class=\"total\""
            } else {
                ""
            };
            let cells: String = row
                .cells
                .iter()
                .filter(|c| c.value != Value::Covered)
                .map(|c| {
                    format!(
                        "<td{}>{}</td>",
                        span("rowspan", c.rowspan),
                        escape(&c.value.shown())
                    )
                })
                .collect();
            format!("<tr{class}>{cells}</tr>\n")
        }
    }
}

fn span(name: &str, n: usize) -> String {
    if n > 1 {
        format!(" {name}=\"{n}\"")
    } else {
        String::new()
    }
}

fn slug(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}
