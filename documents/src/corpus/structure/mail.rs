//! An e-mail (`.eml`) read with `mail-parser`: its subject is the title, its sender and date the
//! place its text is at ("e-mail from Imogen Trask to Quarrington Singers committee, 2024-06-03"), its headers the `Label:
//! value` lines a mail client shows (From, To, Date, Subject), its body (the plain text read
//! as plain text is, or the HTML read as a page is when it has no plain part), and each attachment in a
//! format Tally reads read by that format's reader, at its own place ("attachment
//! 'quote.txt'").

use mail_parser::{MessageParser, MimeHeaders};

use super::{html_outline, lines, markdown, Outline, Record};
use crate::corpus::budget::{bounded_context_part, ReadBudget, ReadRefused};
use crate::corpus::format::Format;

pub(crate) fn outline(bytes: &[u8], budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    let message = MessageParser::default()
        .parse(bytes)
        .filter(|m| !m.headers().is_empty())
        .ok_or_else(|| ReadRefused::Unreadable("it is not an e-mail (it has no headers)".into()))?;
    let sender = message.from().and_then(|a| a.first()).and_then(|a| {
        a.name()
            .or(a.address())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    });
    let date = message
        .date()
        .map(|d| format!("{:04}-{:02}-{:02}", d.year, d.month, d.day));
    // Whom it is to says what it is about as much as who sent it ("to Quarrington Singers
    // committee"): the first two names.
    let recipients: Vec<String> = message
        .to()
        .map(|to| {
            let mut names: Vec<String> = to
                .iter()
                .filter_map(|a| a.name().or(a.address()).map(str::to_string))
                .collect();
            if let Some(groups) = to.as_group() {
                names.extend(
                    groups
                        .iter()
                        .filter_map(|g| g.name.as_deref().map(str::to_string)),
                );
            }
            names
                .into_iter()
                .filter(|n| !n.trim().is_empty())
                .take(2)
                .collect()
        })
        .unwrap_or_default();
    let mut place = "e-mail".to_string();
    if let Some(from) = sender {
        place.push_str(&format!(" from {from}"));
    }
    if !recipients.is_empty() {
        place.push_str(&format!(" to {}", recipients.join(" and ")));
    }
    if let Some(date) = date {
        place.push_str(&format!(", {date}"));
    }
    // Repeated at every block of the e-mail: a sender's name of megabytes is cut.
    let place = bounded_context_part(&place);
    let mut out = Outline {
        title: message
            .subject()
            .map(|s| bounded_context_part(s.trim()))
            .filter(|s| !s.is_empty()),
        blocks: Vec::new(),
    };
    // The headers a mail client shows, as the text of a forwarded or printed e-mail gives them.
    let headers = [
        ("From", message.from().map(addresses)),
        ("To", message.to().map(addresses)),
        ("Date", message.date().map(|d| d.to_rfc822())),
        ("Subject", out.title.clone()),
    ];
    for (label, value) in headers {
        if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
            out.blocks.push(super::Block {
                kind: Record::KeyValue {
                    label: label.to_string(),
                    value,
                },
                sections: Vec::new(),
                place: Some(place.clone()),
                crop: None,
            });
        }
    }
    // A body written only as HTML (a newsletter, a notice with a table) is read as a page is
    // (issue 85: its tables, lists and headings kept); a plain body as plain text.
    let plain = message.text_body.iter().any(|id| {
        matches!(
            message.parts.get(*id as usize).map(|p| &p.body),
            Some(mail_parser::PartType::Text(_))
        )
    });
    let html = if plain { None } else { message.body_html(0) };
    if let Some(html) = html {
        let mut body = html_outline(&html, budget)?;
        // The page's title is the subject already.
        body.title = None;
        append_text(&mut out, body, &place);
    } else if let Some(body) = message.body_text(0) {
        let body = lines::outline(&body, budget)?;
        append_text(&mut out, body, &place);
    }
    for part in message.attachments() {
        budget.check()?;
        let Some(name) = part.attachment_name().map(str::to_string) else {
            continue;
        };
        let at = format!("attachment '{name}'");
        let attached = match Format::of_extension(&name) {
            Some(format) if format.is_binary() && format != Format::Eml => {
                super::binary_outline(part.contents(), format, budget)?
            }
            Some(Format::Html) => html_outline(&text_of(part.contents()), budget)?,
            Some(Format::Markdown) => markdown::outline(&text_of(part.contents()), budget)?,
            Some(format @ (Format::Csv | Format::Text)) => {
                super::outline(&text_of(part.contents()), format, budget)?
            }
            // A text part whatever its name says; images and the rest are not read.
            _ if part.is_text() => lines::outline(&text_of(part.contents()), budget)?,
            _ => continue,
        };
        append_text(&mut out, attached, &at);
    }
    Ok(out)
}

/// Appends a text's outline at `place`; the first short line a plain-text reader took for its
/// title ("Hi all,") is the text's first paragraph.
fn append_text(out: &mut Outline, mut text: Outline, place: &str) {
    if let Some(first) = text.title.take() {
        out.blocks.push(super::Block {
            kind: Record::Paragraph(first),
            sections: Vec::new(),
            place: Some(place.to_string()),
            crop: None,
        });
    }
    out.append(text, None, Some(place));
}

/// The names and addresses of a header ("Imogen Trask <imogen@example.org>"), and the names of
/// its groups ("Thornbeck RC members list").
fn addresses(address: &mail_parser::Address<'_>) -> String {
    let one = |a: &mail_parser::Addr<'_>| match (a.name(), a.address()) {
        (Some(name), Some(address)) => format!("{name} <{address}>"),
        (Some(name), None) => name.to_string(),
        (None, Some(address)) => address.to_string(),
        (None, None) => String::new(),
    };
    let mut names: Vec<String> = address.iter().map(one).filter(|n| !n.is_empty()).collect();
    if let Some(groups) = address.as_group() {
        names.extend(
            groups
                .iter()
                .filter_map(|g| g.name.as_deref().map(str::to_string)),
        );
    }
    names.join(", ")
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
