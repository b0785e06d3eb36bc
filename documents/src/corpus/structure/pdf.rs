//! A PDF's text layer read with `unpdf` (pure Rust, no models): page by page, its headings (by
//! font size and weight), paragraphs, lists and tables (ruled or aligned), each block at its
//! page. Running headers, footers and page numbers are left out by `unpdf`'s layout analysis and
//! again here: a short line that starts or ends most pages is the page's furniture, not its
//! text. A file without a text layer (scanned pages) or with a garbled one (text drawn with
//! fonts whose characters map to nothing) is refused with a sentence, not read as noise.

use std::collections::HashMap;
use std::ops::ControlFlow;

use unpdf::model::{Block as PdfBlock, Page};
use unpdf::{PageStreamOptions, ParseEvent, PdfParser};

use super::crops::CropAllowance;
use super::flow::Flow;
use super::{pdf_spans, scanned, Outline};
use crate::corpus::budget::{ReadBudget, ReadRefused};
use crate::corpus::ocr::{
    long_side_for_page, OcrPage, OcrTools, OcrWord, MAX_OCR_PAGES, OCR_MISSING, OCR_PAGE_TIME,
};
use crate::corpus::pdf_bounds::check_pdf;
use tally_page_image::rulings::Rulings;

/// The most pages a PDF may have (the longest reports people keep run to a few hundred).
pub(crate) const MAX_PDF_PAGES: u32 = 2_000;
/// The share of a text layer's characters that may be unreadable (U+FFFD, control characters)
/// before it is called garbled.
const MAX_GARBLED_SHARE: f64 = 0.10;
/// A page with fewer letters and digits in its text layer than this is a scanned page (a page
/// number alone, or nothing), read by OCR where the machine has it.
const MIN_PAGE_LETTERS: usize = 20;

pub(crate) fn outline(bytes: &[u8], budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    check_pdf(bytes, budget)?;
    let parser = PdfParser::from_bytes(bytes).map_err(unreadable)?;
    if parser.is_encrypted() {
        return Err(ReadRefused::Unreadable(
            "it is encrypted (password-protected); save a copy without a password".into(),
        ));
    }
    let pages = parser.page_count();
    if pages > MAX_PDF_PAGES {
        return Err(ReadRefused::TooLarge(format!(
            "it has {pages} pages; at most {MAX_PDF_PAGES} are read"
        )));
    }
    if pages == 0 {
        return Err(ReadRefused::Unreadable("it has no pages".into()));
    }
    let options = PageStreamOptions {
        parallel: false,
        extract_resources: false,
        ..PageStreamOptions::default()
    };
    let mut title = None;
    let mut read: Vec<Page> = Vec::new();
    let mut stopped = None;
    parser
        .for_each_page(options, |event| {
            if let Err(why) = budget.check() {
                stopped = Some(why);
                return ControlFlow::Break(());
            }
            match event {
                ParseEvent::DocumentStart { metadata, .. } => title = metadata.title,
                ParseEvent::PageParsed(page) => read.push(page),
                _ => {}
            }
            ControlFlow::Continue(())
        })
        .map_err(unreadable)?;
    if let Some(why) = stopped {
        return Err(why);
    }
    // Pages with no text layer (scanned) are read by OCR when the machine has it (issue 89);
    // a text layer too garbled to read is read by OCR on every page.
    let letters_of = |page: &Page| -> usize {
        page.elements
            .iter()
            .map(block_text)
            .map(|t| t.chars().filter(|c| c.is_alphanumeric()).count())
            .sum()
    };
    let text: String = read
        .iter()
        .flat_map(|page| page.elements.iter().map(block_text))
        .collect();
    let garbled = text
        .chars()
        .filter(|&c| c == '\u{fffd}' || (c.is_control() && !c.is_whitespace()))
        .count() as f64
        > MAX_GARBLED_SHARE * text.chars().count() as f64;
    let scanned: Vec<(u32, u32)> = read
        .iter()
        .filter(|page| garbled || letters_of(page) < MIN_PAGE_LETTERS)
        .map(|page| (page.number, long_side_for_page(page.width, page.height)))
        .collect();
    let letters = text.chars().filter(|c| c.is_alphanumeric()).count();
    let tools = OcrTools::on_this_machine().filter(|t| t.reads_pdf_pages());
    let Some(tools) = tools.filter(|_| !scanned.is_empty()) else {
        if letters < 20 {
            return Err(ReadRefused::Unreadable(format!(
                "its pages have no text layer (are they scanned images?), and {OCR_MISSING}"
            )));
        }
        if garbled {
            return Err(ReadRefused::Unreadable(format!(
                "its text layer is garbled (its fonts map characters to nothing readable); \
                 export the PDF again, or let Tally read it by OCR: {OCR_MISSING}"
            )));
        }
        let laid_out = laid_out_words(bytes, &read, &HashMap::new(), budget)?;
        return text_outline(read, title, budget, &Default::default(), &laid_out);
    };
    if scanned.len() > MAX_OCR_PAGES {
        return Err(ReadRefused::TooLarge(format!(
            "it has {} pages without text; Tally reads at most {MAX_OCR_PAGES} scanned pages \
             of a file by OCR",
            scanned.len()
        )));
    }
    budget.ocr().take_pages(scanned.len())?;
    budget.extend(OCR_PAGE_TIME * scanned.len() as u32);
    let pages = scanned::pdf_pages_words(bytes, &scanned, tools, budget)?;
    let ocr: HashMap<u32, OcrPage> = scanned.into_iter().map(|(n, _)| n).zip(pages).collect();
    let laid_out = laid_out_words(bytes, &read, &ocr, budget)?;
    let outline = text_outline(read, title, budget, &ocr, &laid_out)?;
    if outline.blocks.is_empty() && outline.title.is_none() {
        return Err(ReadRefused::Unreadable(
            "its pages have no text layer, and no text could be read from them even by OCR".into(),
        ));
    }
    Ok(outline)
}

/// The words of the text layer of each page not read by OCR, where the file can be read so.
fn laid_out_words(
    bytes: &[u8],
    read: &[Page],
    ocr: &HashMap<u32, OcrPage>,
    budget: &ReadBudget,
) -> Result<HashMap<u32, Vec<Vec<OcrWord>>>, ReadRefused> {
    let pages: Vec<u32> = read
        .iter()
        .map(|p| p.number)
        .filter(|n| !ocr.contains_key(n))
        .collect();
    Ok(pdf_spans::pages_words(bytes, &pages, budget)?.unwrap_or_default())
}

/// The outline of the PDF's pages: the words OCR read from a page in `ocr`, the words of its
/// text layer laid out by their positions when it is in `laid_out`, else the page as
/// `unpdf` lays it out.
fn text_outline(
    read: Vec<Page>,
    title: Option<String>,
    budget: &ReadBudget,
    ocr: &HashMap<u32, OcrPage>,
    laid_out: &HashMap<u32, Vec<Vec<OcrWord>>>,
) -> Result<Outline, ReadRefused> {
    let mut furniture = furniture(&read);
    // A running header that repeats the title is furniture on the first page too.
    let title_key = title.as_deref().map(furniture_key);
    // A short line above the title on the first page is its running header (issue 85: a
    // document of one page has no repetition to show it), and so is that line on every page.
    if let (Some(first), Some(title_key)) = (read.first(), title_key.as_deref()) {
        let paragraphs: Vec<String> = first
            .elements
            .iter()
            .filter_map(|e| match e {
                PdfBlock::Paragraph(p) => Some(p.plain_text()),
                _ => None,
            })
            .collect();
        if let Some(at) = paragraphs
            .iter()
            .take(3)
            .position(|t| furniture_key(t) == title_key)
        {
            furniture.extend(
                paragraphs[..at]
                    .iter()
                    .filter(|t| t.split_whitespace().count() <= 12)
                    .map(|t| furniture_key(t)),
            );
        }
    }
    let mut flow = Flow::new(budget);
    let mut crops = CropAllowance::default();
    flow.title(title);
    for page in &read {
        let place = format!("page {}", page.number);
        if let Some(read) = ocr.get(&page.number) {
            scanned::lay_out_read_page(&mut flow, read, &place, &mut crops)?;
            continue;
        }
        if let Some(regions) = laid_out.get(&page.number) {
            for words in regions {
                let words = without_furniture(words, &furniture);
                scanned::lay_out(&mut flow, &words, &Rulings::default(), Some(&place))?;
            }
            continue;
        }
        flow.at(Some(place));
        flow.set_read_by_ocr(false);
        for element in &page.elements {
            match element {
                PdfBlock::Paragraph(p) => {
                    let text = inline_text(p);
                    let heading = p.style.heading_level.is_some();
                    let is_title = title_key.as_deref() == Some(furniture_key(&text).as_str());
                    if !heading && (is_title || furniture.contains(&furniture_key(&text))) {
                        continue;
                    }
                    if let Some(level) = p.style.heading_level {
                        flow.heading(level as usize, &text)?;
                    } else if bold_line(p, &text) {
                        // A short line set in bold alone is a heading the layout did not
                        // size as one ("Admission" over a price table).
                        flow.heading(3, &text)?;
                    } else if p.style.list_info.is_some() {
                        flow.list_item(&text)?;
                    } else {
                        flow.paragraph(&text)?;
                    }
                }
                PdfBlock::Table(table) => read_table(&mut flow, table, &furniture)?,
                _ => {}
            }
        }
    }
    let outline = flow.finish()?;
    if outline.blocks.is_empty() && ocr.is_empty() {
        return Err(ReadRefused::Unreadable(
            "its text layer holds nothing readable (scanned pages, or text drawn with fonts \
             whose characters map to nothing); run it through OCR first"
                .into(),
        ));
    }
    Ok(outline)
}

/// A table as `unpdf` found it, less what is not the table's: rows of the pages' furniture (a
/// running header the layout took into the table) and leading rows of one cell (the table's
/// caption or the heading above it, read as a heading). A two-column table's first row is a
/// header only when every cell of it is bold and the next row's are not (an infobox's labels
/// are bold, its values not; `unpdf`'s own header flag marks the first row of every table);
/// a wider table's first row is a header as `unpdf` says.
fn read_table(
    flow: &mut Flow,
    table: &unpdf::model::Table,
    furniture: &[String],
) -> Result<(), ReadRefused> {
    let mut rows: Vec<&unpdf::model::TableRow> = table
        .rows
        .iter()
        .filter(|row| {
            let filled: Vec<String> = row
                .cells
                .iter()
                .map(|c| c.plain_text())
                .filter(|t| !t.trim().is_empty())
                .collect();
            !filled.is_empty() && !filled.iter().all(|t| furniture.contains(&furniture_key(t)))
        })
        .collect();
    while rows.len() > 1 {
        let filled: Vec<String> = rows[0]
            .cells
            .iter()
            .map(|c| c.plain_text())
            .filter(|t| !t.trim().is_empty())
            .collect();
        let [only] = filled.as_slice() else { break };
        let words = only.split_whitespace().count();
        if words <= 8 && !only.trim_end().ends_with('.') {
            flow.heading(3, only)?;
        } else {
            flow.paragraph(only)?;
        }
        rows.remove(0);
    }
    let bold = |row: &unpdf::model::TableRow| {
        let runs: Vec<bool> = row
            .cells
            .iter()
            .flat_map(|c| &c.content)
            .flat_map(|p| &p.content)
            .filter_map(|inline| match inline {
                unpdf::model::InlineContent::Text(run) if !run.text.trim().is_empty() => {
                    Some(run.style.bold)
                }
                _ => None,
            })
            .collect();
        !runs.is_empty() && runs.iter().all(|b| *b)
    };
    let width = rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
    let has_header = if width == 2 {
        rows.len() > 1 && bold(rows[0]) && !bold(rows[1])
    } else {
        table.header_rows > 0 || rows.first().is_some_and(|r| r.is_header)
    };
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.cells.iter().map(|c| c.plain_text()).collect())
        .collect();
    flow.table(cells, has_header)
}

/// A page's words less its lines that are the pages' furniture (a running header or
/// footer the margins did not hold).
fn without_furniture(words: &[OcrWord], furniture: &[String]) -> Vec<OcrWord> {
    let mut lines: HashMap<(u32, u32, u32), String> = HashMap::new();
    for word in words {
        let line = lines.entry(word.line).or_default();
        line.push(' ');
        line.push_str(&word.text);
    }
    words
        .iter()
        .filter(|w| {
            let key = furniture_key(&lines[&w.line]);
            // A line of digits alone (a page number, a table's row of figures) keys as empty.
            key.is_empty() || !furniture.contains(&key)
        })
        .cloned()
        .collect()
}

/// Whether a paragraph is a short line in bold, no sentence and no `Label:`.
fn bold_line(p: &unpdf::model::Paragraph, text: &str) -> bool {
    let runs: Vec<bool> = p
        .content
        .iter()
        .filter_map(|inline| match inline {
            unpdf::model::InlineContent::Text(run) if !run.text.trim().is_empty() => {
                Some(run.style.bold)
            }
            _ => None,
        })
        .collect();
    let words = text.split_whitespace().count();
    !runs.is_empty()
        && runs.iter().all(|b| *b)
        && (1..=8).contains(&words)
        && !text.ends_with(['.', ':', ';', ','])
        && !text.contains(": ")
        && p.style.list_info.is_none()
}

/// A paragraph's text without its list marker (the record holds the items, not their bullets).
fn inline_text(p: &unpdf::model::Paragraph) -> String {
    let text = without_markers(p);
    let text = text.trim();
    if p.style.list_info.is_some() {
        let text = text.trim_start_matches(['•', '-', '*', '–', '·', '◦', '▪']);
        // "1. ", "2) ", "a. ": the item's number, not its text.
        let numbered = text
            .split_once([' ', '\t'])
            .filter(|(marker, _)| {
                let marker = marker.trim_end_matches(['.', ')']);
                !marker.is_empty()
                    && marker.len() <= 3
                    && (marker.chars().all(|c| c.is_ascii_digit())
                        || marker.chars().all(|c| c.is_ascii_lowercase()))
            })
            .filter(|(marker, _)| marker.ends_with(['.', ')']));
        return match numbered {
            Some((_, rest)) => rest.trim().to_string(),
            None => text.trim().to_string(),
        };
    }
    text.to_string()
}

/// A paragraph's text without its note markers (issue 85): a run of one to three digits set
/// raised or smaller than the text around it ("seats³", "£38,500¹") is a marker, not a digit of
/// the word or number before it.
fn without_markers(p: &unpdf::model::Paragraph) -> String {
    use unpdf::model::InlineContent;
    let sizes: Vec<f32> = p
        .content
        .iter()
        .filter_map(|inline| match inline {
            InlineContent::Text(run) if run.text.trim().chars().count() > 3 => run.style.font_size,
            _ => None,
        })
        .collect();
    let body = sizes.iter().copied().fold(0.0_f32, f32::max);
    let marker = |run: &unpdf::model::TextRun| {
        let text = run.text.trim();
        let small = run
            .style
            .font_size
            .is_some_and(|s| body > 0.0 && s < 0.8 * body);
        !text.is_empty()
            && text.chars().count() <= 3
            && text
                .chars()
                .all(|c| c.is_ascii_digit() || "*†‡".contains(c))
            && (run.style.superscript || small)
    };
    if !p
        .content
        .iter()
        .any(|i| matches!(i, InlineContent::Text(run) if marker(run)))
    {
        return p.plain_text();
    }
    let mut text = String::new();
    for inline in &p.content {
        match inline {
            InlineContent::Text(run) if marker(run) && run.text.ends_with(' ') => text.push(' '),
            InlineContent::Text(run) if marker(run) => {}
            InlineContent::Text(run) => text.push_str(&run.text),
            InlineContent::LineBreak => text.push('\n'),
            _ => {}
        }
    }
    text
}

fn block_text(block: &PdfBlock) -> String {
    match block {
        PdfBlock::Paragraph(p) => p.plain_text() + "\n",
        PdfBlock::Table(t) => t.plain_text() + "\n",
        _ => String::new(),
    }
}

/// The lines that start or end at least half the pages (at least two) once their digits are
/// dropped: a running title, "Page 3 of 7", a date line.
fn furniture(pages: &[Page]) -> Vec<String> {
    if pages.len() < 2 {
        return Vec::new();
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    for page in pages {
        let texts: Vec<String> = page
            .elements
            .iter()
            .filter_map(|e| match e {
                PdfBlock::Paragraph(p) => Some(p.plain_text()),
                _ => None,
            })
            .collect();
        let mut ends: Vec<String> = texts
            .iter()
            .take(1)
            .chain(texts.iter().rev().take(1))
            .map(|t| furniture_key(t))
            .collect();
        ends.dedup();
        for key in ends {
            *seen.entry(key).or_default() += 1;
        }
    }
    seen.into_iter()
        .filter(|(key, n)| *n * 2 >= pages.len() && *n >= 2 && key.chars().count() <= 120)
        .map(|(key, _)| key)
        .collect()
}

/// A line as its page's furniture is compared: digits dropped, spaces collapsed, lower case.
fn furniture_key(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_ascii_digit())
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn unreadable(error: unpdf::Error) -> ReadRefused {
    use unpdf::ErrorKind;
    let why = match error.kind() {
        ErrorKind::Encrypted | ErrorKind::InvalidPassword => {
            "it is encrypted (password-protected); save a copy without a password"
        }
        ErrorKind::UnknownFormat => "it is not a PDF (its first bytes are not %PDF)",
        _ => return ReadRefused::damaged("a PDF", error),
    };
    ReadRefused::Unreadable(why.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PDF of one page per entry of `pages`, each drawing its lines in Helvetica (an empty
    /// entry draws nothing), with a correct cross-reference table.
    fn pdf_of(pages: &[&str]) -> Vec<u8> {
        let mut objects: Vec<String> = vec![
            "<< /Type /Catalog /Pages 2 0 R >>".into(),
            String::new(), // the page tree, once the pages are numbered
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
                .into(),
        ];
        let mut kids = Vec::new();
        for text in pages {
            let mut stream = String::new();
            for (n, line) in text.lines().enumerate() {
                let y = 780 - 16 * n;
                stream.push_str(&format!("BT /F1 11 Tf 56 {y} Td ({line}) Tj ET\n"));
            }
            objects.push(format!(
                "<< /Length {} >>\nstream\n{stream}endstream",
                stream.len()
            ));
            let content = objects.len();
            objects.push(format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {content} 0 R \
                 /Resources << /Font << /F1 3 0 R >> >> >>"
            ));
            kids.push(format!("{} 0 R", objects.len()));
        }
        objects[1] = format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            kids.len()
        );
        tally_docgen::pdf_file::pdf_of(&objects)
    }

    #[test]
    fn a_pdfs_text_is_read_with_its_page() {
        let pdf = pdf_of(&[
            "The Wendle ferry crosses the estuary every twenty minutes in summer.",
            "The crossing takes 9 minutes and the ferry carries 48 cars at most.",
        ]);
        let outline = outline(&pdf, &ReadBudget::default()).unwrap();
        let second = outline
            .blocks
            .iter()
            .find(|b| matches!(&b.kind, crate::corpus::structure::Record::Paragraph(t) if t.contains("48 cars")))
            .expect("the second page's text");
        assert_eq!(second.place.as_deref(), Some("page 2"));
    }

    #[test]
    fn a_garbled_text_layer_is_refused_as_garbled() {
        // Text drawn with codes that map to no character (control codes, as fonts without a
        // usable encoding give), among a few letters.
        let codes: String = (0..40).map(|n| format!("\\{:03o}", 1 + n % 20)).collect();
        let garbled = format!("Ab {codes} cd {codes} ef {codes} gh {codes} ij {codes}");
        let pages = [garbled.as_str(), garbled.as_str()];
        match outline(&pdf_of(&pages), &ReadBudget::default()) {
            // With OCR on the machine, the pages are read from their pixels: what is drawn,
            // never the codes.
            Ok(read) => {
                assert!(OcrTools::on_this_machine().is_some());
                let text = format!("{:?}", read.blocks);
                assert!(
                    !text.contains('\u{1}') && !text.contains('\u{fffd}'),
                    "{text}"
                );
                assert!(read.blocks.iter().all(|b| b
                    .place
                    .as_deref()
                    .is_some_and(|p| p.contains("read by OCR"))));
            }
            Err(refused) => {
                assert!(matches!(refused, ReadRefused::Unreadable(_)), "{refused}");
                assert!(
                    ["garbled", "no text", "nothing readable"]
                        .iter()
                        .any(|why| refused.to_string().contains(why)),
                    "{refused}"
                );
            }
        }
    }

    #[test]
    fn a_pdf_of_too_many_pages_is_refused_by_its_count() {
        let pages = vec![""; (MAX_PDF_PAGES + 1) as usize];
        let refused = outline(&pdf_of(&pages), &ReadBudget::default()).unwrap_err();
        assert!(refused.to_string().contains("pages"), "{refused}");
    }

    #[test]
    fn scanned_damaged_and_encrypted_pdfs_are_said_to_be_so() {
        let scanned = outline(&pdf_of(&["", ""]), &ReadBudget::default()).unwrap_err();
        assert!(scanned.to_string().contains("no text layer"), "{scanned}");
        let whole = pdf_of(&["Some text on the page that is long enough to read."]);
        let damaged = outline(&whole[..whole.len() / 3], &ReadBudget::default()).unwrap_err();
        assert!(matches!(damaged, ReadRefused::Unreadable(_)), "{damaged}");
        let not_pdf = outline(b"hello, this is no PDF", &ReadBudget::default()).unwrap_err();
        assert!(matches!(not_pdf, ReadRefused::Unreadable(_)), "{not_pdf}");
    }
}
