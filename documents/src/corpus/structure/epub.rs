//! An EPUB book read with `rbook`: its chapters in the spine's reading order, each through the
//! HTML reader, under the chapter's own title and at its place ("chapter 3"). The archive's
//! bounds are checked first ([`crate::corpus::archive`]).

use std::collections::HashSet;
use std::io::Cursor;

use super::{html_outline, Outline};
use crate::corpus::archive::check_archive;
use crate::corpus::budget::{bounded_context_part, ReadBudget, ReadRefused};

pub(crate) fn outline(bytes: &[u8], budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    check_archive(bytes, "an EPUB book", budget)?;
    let book = rbook::Epub::read(Cursor::new(bytes.to_vec()))
        .map_err(|e| ReadRefused::damaged("an EPUB book", e))?;
    let title = book
        .metadata()
        .title()
        .map(|t| bounded_context_part(t.value().trim()));
    let mut out = Outline {
        title: title.clone().filter(|t| !t.is_empty()),
        blocks: Vec::new(),
    };
    // A spine that lists one chapter many times (10,000 times in 2.4 KB, issue 84) reads it once.
    let mut read_before = HashSet::new();
    for (n, chapter) in book.reader().enumerate() {
        budget.check()?;
        let chapter = chapter
            .map_err(|e| ReadRefused::failed(format!("chapter {} could not be read", n + 1), e))?;
        if !read_before.insert(chapter.manifest_entry().href().as_str().to_string()) {
            continue;
        }
        let read = html_outline(&without_internal_subset(chapter.content()), budget)?;
        // A chapter's own title heads its blocks, unless it only repeats the book's.
        let heading = read.title.clone().filter(|h| Some(h) != title.as_ref());
        out.append(
            read,
            heading.as_deref(),
            Some(&format!("chapter {}", n + 1)),
        );
    }
    Ok(out)
}

/// A chapter without the internal subset of its XHTML doctype (`<!DOCTYPE html [ <!ENTITY …> ]>`):
/// an HTML parser ends the doctype at its first `>` and would show the rest ("]>") as text.
fn without_internal_subset(xhtml: &str) -> std::borrow::Cow<'_, str> {
    static SUBSET: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?is)<!DOCTYPE[^\[>]*\[[^\]]*\]\s*>").expect("a valid pattern")
    });
    SUBSET.replace(xhtml, "<!DOCTYPE html>")
}

#[cfg(test)]
mod tests {
    use super::without_internal_subset;

    #[test]
    fn an_internal_doctype_subset_is_not_read_as_text() {
        let chapter = "<?xml version=\"1.0\"?><!DOCTYPE html [ <!ENTITY club \"Thornbeck\"> ]>\n<html><body><p>40 members.</p></body></html>";
        let cleaned = without_internal_subset(chapter);
        assert!(
            !cleaned.contains("]>") && cleaned.contains("<!DOCTYPE html>"),
            "{cleaned}"
        );
        assert_eq!(
            without_internal_subset("<!DOCTYPE html><p>x</p>"),
            "<!DOCTYPE html><p>x</p>"
        );
    }
}
