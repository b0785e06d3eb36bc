//! HTML of a converted document (issue 102): its blocks as the elements their source had
//! (bold in `strong`, italic in `em`, nested lists, tables with `th`, `colspan` and a caption,
//! `dl`, `pre`), and an e-mail thread's body as paragraphs.

use super::escape;
use crate::convert::model::{FlowBlock, FlowTable, Run};

/// Runs with their bold and italic.
pub(in crate::render) fn runs_html(runs: &[Run]) -> String {
    runs.iter()
        .map(|run| {
            let mut text = escape(&run.text);
            if run.italic {
                text = format!("<em>{text}</em>");
            }
            if run.bold {
                text = format!("<strong>{text}</strong>");
            }
            text
        })
        .collect()
}

/// One block as HTML.
pub(in crate::render) fn block_html(block: &FlowBlock) -> String {
    match block {
        FlowBlock::Heading { level, runs } => {
            format!("<h{level}>{}</h{level}>", runs_html(runs))
        }
        FlowBlock::Paragraph(runs) => format!("<p>{}</p>", runs_html(runs)),
        FlowBlock::Code(text) => format!("<pre>{}</pre>", escape(text)),
        FlowBlock::List { ordered, items } => list_html(*ordered, items),
        FlowBlock::Definitions(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|(term, definition)| {
                    format!(
                        "<dt>{}</dt><dd>{}</dd>",
                        runs_html(term),
                        runs_html(definition)
                    )
                })
                .collect();
            format!("<dl>\n{}\n</dl>", items.join("\n"))
        }
        FlowBlock::Table(table) => table_html(table),
    }
}

/// A list, its deeper items in lists nested inside the item above them.
fn list_html(ordered: bool, items: &[(usize, Vec<Run>)]) -> String {
    let tag = if ordered { "ol" } else { "ul" };
    let mut out = vec![format!("<{tag}>")];
    let mut depth = 0;
    for (n, (level, runs)) in items.iter().enumerate() {
        let item = runs_html(runs);
        if n == 0 {
            out.push(format!("<li>{item}"));
        } else if *level > depth {
            out.push(format!("<{tag}>").repeat(level - depth));
            depth = *level;
            out.push(format!("<li>{item}"));
        } else {
            while depth > *level {
                out.push(format!("</li></{tag}>"));
                depth -= 1;
            }
            out.push(format!("</li><li>{item}"));
        }
    }
    while depth > 0 {
        out.push(format!("</li></{tag}>"));
        depth -= 1;
    }
    out.push(format!("</li></{tag}>"));
    out.join("\n")
}

fn table_html(table: &FlowTable) -> String {
    let mut out = vec!["<table>".to_string()];
    if let Some(caption) = &table.caption {
        out.push(format!("<caption>{}</caption>", runs_html(caption)));
    }
    for row in &table.rows {
        let cells: String = row
            .iter()
            .map(|c| {
                let tag = if c.th { "th" } else { "td" };
                let span = if c.colspan > 1 {
                    format!(r#" colspan="{}""#, c.colspan)
                } else {
                    String::new()
                };
                format!("<{tag}{span}>{}</{tag}>", runs_html(&c.runs))
            })
            .collect();
        out.push(format!("<tr>{cells}</tr>"));
    }
    out.push("</table>".into());
    out.join("\n")
}

/// An e-mail thread's body as a page: each paragraph (lines between blank lines) a `<p>`, its
/// lines kept by `<br>`.
pub(in crate::render) fn thread_page(subject: &str, body: &str) -> String {
    let paragraphs: Vec<String> = body
        .trim_matches('\n')
        .split("\n\n")
        .flat_map(split_blank_lines)
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let lines: Vec<String> = p.split('\n').map(escape).collect();
            format!("<p>{}</p>", lines.join("<br>\n"))
        })
        .collect();
    format!(
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n</head>\n<body>\n{}\n</body>\n</html>\n",
        escape(subject),
        paragraphs.join("\n")
    )
}

/// A chunk split at lines holding only spaces (a paragraph break too).
fn split_blank_lines(chunk: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in chunk.split('\n') {
        if line.trim().is_empty() {
            out.push(String::new());
        } else if let Some(last) = out.last_mut() {
            if !last.is_empty() {
                last.push('\n');
            }
            last.push_str(line);
        }
    }
    out
}
