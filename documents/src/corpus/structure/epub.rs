//! An EPUB book read with `rbook`: its chapters in the spine's reading order, each through the
//! HTML reader, under the chapter's own title and at its place ("chapter 3"). The archive's
//! bounds are checked first ([`crate::corpus::archive`]).

use std::io::Cursor;

use super::{html_outline, Outline};
use crate::corpus::archive::check_archive;
use crate::corpus::budget::{ReadBudget, ReadRefused};

pub(crate) fn outline(bytes: &[u8], budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    check_archive(bytes, "an EPUB book")?;
    let book = rbook::Epub::read(Cursor::new(bytes.to_vec()))
        .map_err(|e| ReadRefused::Unreadable(format!("it is damaged or not an EPUB book ({e})")))?;
    let title = book
        .metadata()
        .title()
        .map(|t| t.value().trim().to_string());
    let mut out = Outline {
        title: title.clone().filter(|t| !t.is_empty()),
        blocks: Vec::new(),
    };
    for (n, chapter) in book.reader().enumerate() {
        budget.check()?;
        let chapter = chapter.map_err(|e| {
            ReadRefused::Unreadable(format!("chapter {} could not be read ({e})", n + 1))
        })?;
        let read = html_outline(chapter.content(), budget)?;
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
