//! An e-mail as a mail program sends it: the document as its HTML body and a summary attached
//! as a text file (its `Label: value` lines and its lists), both base64-encoded.

use super::html::page;
use crate::model::{Block, Document};

pub(super) mod converted;

pub(super) fn render(document: &Document) -> Vec<u8> {
    let mut summary = String::new();
    for block in &document.blocks {
        match block {
            Block::KeyValues { pairs } => {
                for (label, value) in pairs {
                    summary.push_str(&format!("{label}: {value}\n"));
                }
                summary.push('\n');
            }
            Block::List { lead, items } => {
                if let Some(lead) = lead {
                    summary.push_str(&format!("{lead}\n"));
                }
                for item in items {
                    summary.push_str(&format!("- {item}\n"));
                }
                summary.push('\n');
            }
            _ => {}
        }
    }
    let boundary = "=_tally_generated";
    let mail = format!(
        "From: Secretary <secretary@example.org>\r\nTo: Members <members@example.org>\r\n\
         Subject: {}\r\nDate: Tue, 3 Mar 2026 09:14:00 +0000\r\nMessage-ID: <{}@example.org>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n\
         --{boundary}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n\
         --{boundary}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment; filename=\"summary.txt\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{}\r\n--{boundary}--\r\n",
        document.title,
        document.name,
        base64(page(document, false).as_bytes()),
        base64(summary.as_bytes()),
    );
    mail.into_bytes()
}

/// Base64 in lines of 76 characters (RFC 2045).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.as_bytes()
        .chunks(76)
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect::<Vec<_>>()
        .join("\r\n")
}
