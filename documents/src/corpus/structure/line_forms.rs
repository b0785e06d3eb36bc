//! The forms one line of plain text takes that more than one reader asks about: a quoted
//! reply ("> …"), a list item ("- eggs", "2. Beat the eggs"), a dated entry ("2008 — now runs
//! 7 shops"), and how long a `Label: value` line's label may be. The plain text reader
//! (`lines.rs`) and the lists a lead introduces (`led_lists.rs`) both read lines by them.

use std::sync::LazyLock;

use regex::Regex;

use super::{clean, Record};

/// The longest label of a `Label: value` line, in words.
pub(super) const MAX_LABEL_WORDS: usize = 5;

/// A line without its e-mail quote marks ("> > text" → "text").
pub(super) fn unquote(line: &str) -> &str {
    let mut line = line.trim();
    while let Some(rest) = line.strip_prefix('>') {
        line = rest.trim_start();
    }
    line
}

static BULLET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:[-*•·–]|\d{1,2}[.)])\s+(\S.*)$").expect("bullet pattern"));

/// A list item's text ("- eggs", "2. Beat the eggs").
pub(super) fn bullet(line: &str) -> Option<&str> {
    BULLET
        .captures(line.trim())
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().trim())
}

static DATED: LazyLock<Regex> = LazyLock::new(|| {
    let month = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
    Regex::new(&format!(
        r"(?i)^\**((?:\d{{1,2}}\s+{month}\s+)?(?:{month}\s+)?(?:1[6-9]|20)\d\d(?:-\d\d(?:-\d\d)?)?)\**\s*(?:[—–:-]|\s-\s)\s*\**\s*(\S.*)$"
    ))
    .expect("dated pattern")
});

/// A dated entry ("2008 — now runs 7 shops", "**2004**: …", "March 2011 – …").
pub(super) fn dated(line: &str) -> Option<Record> {
    let captures = DATED.captures(line.trim())?;
    Some(Record::Dated {
        date: captures.get(1)?.as_str().to_string(),
        text: clean(captures.get(2)?.as_str()),
    })
}
