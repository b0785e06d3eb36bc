//! An e-mail thread converted into a message (issue 102): the first message's header lines as
//! its headers (a subject beyond ASCII as RFC 2047 words), the rest of the thread as a
//! `multipart/alternative` body, quoted-printable text and the same text as HTML paragraphs,
//! and an attached text file (base64) in a `multipart/mixed` around it when there is one. The
//! boundaries are named by the file's stem, so a rerun writes the same bytes.

use super::super::html::converted::thread_page;
use super::base64;
use crate::convert::model::Mail;

/// The message.
pub(in crate::render) fn render(mail: &Mail) -> Vec<u8> {
    let alternative = format!("=_alternative_{}", mail.stem);
    let mixed = format!("=_mixed_{}", mail.stem);
    let text_part = |subtype: &str, text: &str| {
        format!(
            "Content-Type: text/{subtype}; charset=\"utf-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{}",
            quoted_printable(text)
        )
    };
    let body = format!(
        "--{alternative}\r\n{}\r\n--{alternative}\r\n{}\r\n--{alternative}--\r\n",
        text_part("plain", &mail.body),
        text_part("html", &thread_page(&mail.subject, &mail.body)),
    );
    let (content_type, body) = match &mail.attachment {
        None => (
            format!("multipart/alternative; boundary=\"{alternative}\""),
            body,
        ),
        Some((name, text)) => (
            format!("multipart/mixed; boundary=\"{mixed}\""),
            format!(
                "--{mixed}\r\nContent-Type: multipart/alternative;\r\n boundary=\"{alternative}\"\r\n\r\n{body}\r\n\
                 --{mixed}\r\nContent-Type: text/plain; charset=\"utf-8\"\r\nContent-Transfer-Encoding: base64\r\n\
                 Content-Disposition: attachment; filename=\"{name}\"\r\n\r\n{}\r\n--{mixed}--\r\n",
                // A text part's canonical form ends its lines with CRLF.
                base64(text.replace("\r\n", "\n").replace('\n', "\r\n").as_bytes())
            ),
        ),
    };
    format!(
        "From: {}\r\nTo: {}\r\nDate: {}\r\nSubject: {}\r\nMessage-ID: {}\r\nMIME-Version: 1.0\r\n\
         Content-Type: {content_type}\r\n\r\n{body}",
        mail.from,
        mail.to,
        mail.date,
        encoded_words(&mail.subject),
        mail.message_id,
    )
    .into_bytes()
}

/// A header's text with each run of words beyond ASCII as one RFC 2047 word (UTF-8, base64):
/// a run, not each word, as the space between two encoded words is not read.
fn encoded_words(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let flush = |run: &mut Vec<&str>, out: &mut Vec<String>| {
        if !run.is_empty() {
            let joined = run.join(" ");
            out.push(format!("=?utf-8?b?{}?=", base64(joined.as_bytes())));
            run.clear();
        }
    };
    for word in text.split(' ') {
        if word.is_ascii() {
            flush(&mut run, &mut out);
            out.push(word.to_string());
        } else {
            run.push(word);
        }
    }
    flush(&mut run, &mut out);
    out.join(" ")
}

/// `text` quoted-printable (RFC 2045) with CRLF line ends: bytes beyond ASCII, `=` and a line's
/// trailing space as `=XX`, lines longer than 76 characters broken by a soft `=`.
fn quoted_printable(text: &str) -> String {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let mut lines = Vec::new();
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let bytes = line.as_bytes();
        let mut encoded: Vec<String> = Vec::new();
        for (i, &b) in bytes.iter().enumerate() {
            let last = i + 1 == bytes.len();
            let plain = (b == b' ' || b == b'\t') && !last || (33..=126).contains(&b) && b != b'=';
            encoded.push(if plain {
                char::from(b).to_string()
            } else {
                format!("={b:02X}")
            });
        }
        let mut current = String::new();
        for piece in encoded {
            if current.len() + piece.len() > 75 {
                lines.push(format!("{current}="));
                current.clear();
            }
            current.push_str(&piece);
        }
        lines.push(current);
    }
    lines.join("\r\n") + "\r\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_bodies_encoded() {
        assert_eq!(
            encoded_words("Quote — kitchen"),
            "Quote =?utf-8?b?4oCU?= kitchen"
        );
        assert_eq!(quoted_printable("£5 = 5 \n"), "=C2=A35 =3D 5=20\r\n");
        let long = quoted_printable(&"a".repeat(100));
        assert_eq!(long.lines().count(), 2);
        assert!(long.lines().all(|l| l.len() <= 76));
    }
}
