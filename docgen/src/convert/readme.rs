//! The converted folder's README: which document went to which format and why, what each
//! format's files hold, and what the conversion does not keep.

use super::sheet::{column_letter, find_formula};
use super::PLAN;
use crate::render::Format;

const TEMPLATE: &str = r#"# Converted documents

Some documents of the own-documents collection (`../documents/`), converted faithfully (same
words, same numbers, same structure) into the formats people keep documents in, so that the
readers for PDF, Word, PowerPoint, Excel, OpenDocument spreadsheets, e-mail and EPUB can be
measured on facts already known. Each file has the stem of its source and the new extension
(`36-elderholm-town.html` -> `36-elderholm-town.pdf`). The sources are not changed.

Written by the document generator's renderers (`tally_docgen::convert`, one writer of each
format, issue 102), deterministically: fixed zip timestamps, member order, MIME boundaries and
identifiers, so a rerun writes identical bytes:

```sh
tally-lab convert    # cargo run --release -p tally-lab-cli -- convert
```

## Which document went to which format, and why

A part of each kind of the collection, to the format such a document is kept in:

| Format | Documents | Why |
|---|---|---|
{rows}

- **xlsx**: one sheet named after the table's subject, first row the header (bold), numbers
  stored as numbers (shown with the CSV's decimals through a number format), text in a shared
  strings table as Excel writes it. In `71` column {formula_col}
  holds formulas whose cached values are the CSV's numbers (`{formula_example}`).
  `73` has a second sheet, `Notes`, of text only (no figures), so that a workbook of two
  sheets is tested.
- **ods**: one `table:table` named after the subject; numbers as `office:value-type="float"`
  with the CSV's text in `text:p`.
- **docx**: Word 2016-style parts; the first heading is a `Title` paragraph, `h2`/`##` ->
  `Heading1`, `h3` -> `Heading2`, `h4` -> `Heading3`; lists are `ListParagraph` paragraphs with
  numbering (bullets, decimals, each numbered list restarting at 1); tables (and infoboxes)
  are `w:tbl` with `TableGrid` and the
  header row marked `w:tblHeader`; `<dl>` items become "Term: definition" paragraphs; bold and
  italic are kept as runs.
- **pdf**: PDF 1.4 written by hand, A4, Helvetica / Helvetica-Bold (WinAnsi), uncompressed
  content streams. Every page carries a running header (the document's title, 8 pt) and a footer
  "Page N of M" which a reader must drop; every document spans at least two pages (a short one
  gets a page break before its middle section heading). Tables are laid out in columns, one text
  object per line of a cell, the header row in bold with a rule under it.
- **pptx**: one slide per top-level section; the first slide holds the title and the text
  before the first section. Paragraphs are body paragraphs without bullets (`a:buNone`), list
  items bullet or numbered paragraphs.
- **epub**: EPUB 3, one XHTML chapter per top-level section (chapter 1: the title and the text
  before the first section), with a `nav.xhtml`; HTML structure kept, Markdown converted to the
  same elements. `59` has no sections, so it is one chapter.
- **eml**: the first message's From/To/Date/Subject become the headers (the date in RFC 5322
  form, in UK time as the thread's senders are in the UK; a list named without an address, as
  in `57`, becomes an empty group `Name:;`), plus a Message-ID and MIME-Version; the body is
  multipart/alternative: the whole rest of the thread exactly as in the source (quoted replies
  and their own From:/Date: lines included) as quoted-printable text/plain, and the same text
  as `<p>` paragraphs in text/html (a paragraph's lines, quoted `>` lines among them, kept apart
  by `<br>`). `56` also carries a text attachment, `quote-summary.txt`
  (base64), holding one sentence of the thread word for word.

## What the converter does not keep

- PDF: bold and italic inside paragraphs (only headings, table header cells, `<th>` cells and
  cells bold throughout are in Helvetica-Bold); `<dl>` items are "Term: definition" lines;
  characters outside Windows-1252 would be written as `?` (none of the converted documents has
  any).
- PowerPoint: the slides are text and tables only; long sections are not fitted to the
  slide (no font scale is computed).
- All formats: links' targets, HTML attributes (classes, `<time datetime>`), and Markdown's
  line structure inside a paragraph (consecutive lines are joined; `Label: value` lines are
  paragraphs of their own). A Markdown table whose header row is empty (`| | |`, `37`) has no
  header row. Page chrome of an HTML page (`<header>` breadcrumb, `<footer>`) is kept as
  ordinary paragraphs.
- Spreadsheets: the CSV's text formatting of numbers is kept through number formats (`1.80`
  is stored as 1.8 with format `0.00`), not as text. A workbook's title property is its file
  name without its number (a CSV has no title).
- Titles: an HTML page's `<title>` goes to the metadata (Word's and PowerPoint's `dc:title`,
  the PDF's `/Info /Title`, the EPUB's `dc:title`); its first `<h1>` is the visible title (the
  `Title` paragraph, the first slide's title, the PDF's title line and running header).
- E-mail: the first message's header lines exist only as headers, re-written in RFC 5322 form
  (`Mon, 3 Jun 2024, 09:12` -> `Mon, 03 Jun 2024 09:12:00 +0100`); the zone offset is not in
  the source, it is the UK's on that date. The HTML part has no quoting markup (`>` lines are
  paragraphs).
"#;

/// Why each format's documents went to it.
const WHY: [(Format, &str); 7] = [
    (Format::Xlsx, "tables (CSV) -> Excel workbooks"),
    (Format::Ods, "tables (CSV) -> OpenDocument spreadsheets"),
    (
        Format::Docx,
        "pages with headings, lists, tables, infoboxes and `<dl>` -> Word",
    ),
    (
        Format::Pdf,
        "pages with headings, lists, tables and infoboxes -> PDF",
    ),
    (
        Format::Pptx,
        "a recipe and minutes in sections -> PowerPoint",
    ),
    (
        Format::Epub,
        "a recipe, a history and a timeline in sections -> EPUB",
    ),
    (Format::Eml, "e-mail threads with quoted replies -> .eml"),
];

/// The README, `formula_rows` being the CSV of the workbook with formulas (the README names
/// its formula column and first formula).
pub(super) fn text(formula_rows: &[Vec<String>]) -> String {
    let rows: Vec<String> = WHY
        .iter()
        .map(|(format, why)| {
            let stems: Vec<String> = PLAN
                .iter()
                .filter(|(_, f)| f == format)
                .map(|(s, _)| format!("`{s}`"))
                .collect();
            format!("| {} | {} | {why} |", format.extension(), stems.join(", "))
        })
        .collect();
    let (column, example) = match find_formula(formula_rows) {
        Some(f) => {
            let name = formula_rows
                .first()
                .and_then(|h| h.get(f.column))
                .cloned()
                .unwrap_or_default();
            let letter = column_letter(f.column);
            let first = f.expressions.first().cloned().unwrap_or_default();
            (
                format!("{letter}, \"{name}\","),
                format!("{letter}2: ={first}"),
            )
        }
        None => (String::new(), String::new()),
    };
    TEMPLATE
        .replace("{rows}", &rows.join("\n"))
        .replace("{formula_col}", &column)
        .replace("{formula_example}", &example)
}
