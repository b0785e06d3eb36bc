//! An outline as passages: each block with its typed record, written so that it reads on its
//! own, with its context.
//!
//! A table row reads "Team: Falcon — Players: 64; Gold: 8", a list "Present: Ann Hale; Ben Ode", a
//! spec line "Battery: 3200 mAh", an entry "2008 — now runs 7 shops"; the context is the title
//! and the section path ("Spring Games › Medal table"). That text is for retrieval, the reader
//! and the page; what the block is stays in its [`Record`], typed. A document is stored as its
//! passages separated by blank lines, each run of passages of one context after a context line
//! (it starts with [`CONTEXT_MARK`], a character no text holds), each structured passage after
//! its record serialised as JSON on a line of its own (after [`RECORD_MARK`]), so the indexes
//! and the page read the context and the records back without parsing the document again. A
//! passage read by OCR keeps the crop of the page it was read from on a line of its own too
//! (after [`CROP_MARK`], as base64): stored with the document, wherever it is indexed again.

use std::sync::Arc;

use base64::Engine as _;

use super::scanned::READ_BY_OCR;
use super::{Block, Outline, Record};
use crate::corpus::budget::bounded_context_part;
use crate::sentence_store::split::split_sentences;

/// Starts the line that gives the context of the passages after it.
pub const CONTEXT_MARK: char = '\u{1e}';
/// Starts the line that holds the record of the passage after it (JSON).
pub const RECORD_MARK: char = '\u{1f}';
/// Starts the line that holds the crop of the scanned page the passage after it was read from
/// (a PNG, in base64).
pub const CROP_MARK: char = '\u{1d}';
/// Between the parts of a context ("Title › Section › Subsection").
pub const CONTEXT_SEPARATOR: &str = " › ";
/// Between a context's headings and the place in the file its passage is at ("… › Fares ·
/// page 2", "… · sheet 'Fees', row 7").
pub const PLACE_SEPARATOR: &str = " · ";

/// A context without its place: the title and the headings, which the readings match.
pub fn without_place(context: &str) -> &str {
    context
        .rsplit_once(PLACE_SEPARATOR)
        .map_or(context, |(headings, _)| headings)
}

/// Between a table row's label and its cells, and a date and its entry, in a passage's text.
const ROW_SEPARATOR: &str = " — ";
/// Between the cells of a row and the items of a list, in a passage's text.
const ITEM_SEPARATOR: &str = "; ";

/// A passage and what it is read in.
#[derive(Debug, Clone, PartialEq)]
pub struct Passage {
    /// The passage's text, written to read on its own.
    pub text: String,
    /// The document's title and the section path, joined by [`CONTEXT_SEPARATOR`].
    pub context: String,
    /// What the passage is, typed; `None` for running text.
    pub record: Option<Arc<Record>>,
    /// The crop of the scanned page it was read from (a grey PNG), when OCR read it.
    pub crop: Option<Arc<[u8]>>,
}

/// The passages of `outline`; `fallback_title` names a document without a title.
pub fn passages(outline: &Outline, fallback_title: &str) -> Vec<Passage> {
    let title = bounded_context_part(outline.title.as_deref().unwrap_or(fallback_title));
    let title = title.as_str();
    outline
        .blocks
        .iter()
        .filter_map(|block| {
            let text = block_text(block)?;
            let mut context = std::iter::once(title)
                .chain(block.sections.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(CONTEXT_SEPARATOR);
            // The place goes last, apart from the headings: "Elderholm › History · page 2".
            if let Some(place) = &block.place {
                context.push_str(PLACE_SEPARATOR);
                context.push_str(place);
            }
            let record = match &block.kind {
                Record::Paragraph(_) => None,
                other => Some(Arc::new(other.clone())),
            };
            Some(Passage {
                text,
                context,
                record,
                crop: block.crop.clone(),
            })
        })
        .collect()
}

/// A block as a passage's text; `None` for a block without text.
fn block_text(block: &Block) -> Option<String> {
    let text = match &block.kind {
        Record::Paragraph(text) => text.clone(),
        Record::List { lead, items } => {
            let lead = lead
                .clone()
                .or_else(|| block.sections.last().cloned())
                .unwrap_or_else(|| "Items".to_string());
            format!("{lead}: {}", items.join(ITEM_SEPARATOR))
        }
        Record::RowNames { column, names } => format!("{column}: {}", names.join(ITEM_SEPARATOR)),
        Record::KeyValue { label, value } => format!("{label}: {value}"),
        Record::TableRow { header, cells } | Record::TotalRow { header, cells } => {
            row_text(header, cells)
        }
        Record::Turn { speaker, text } => format!("{speaker}: {text}"),
        Record::Dated { date, text } => format!("{date}{ROW_SEPARATOR}{text}"),
    };
    let text = text.replace([CONTEXT_MARK, RECORD_MARK, CROP_MARK], " ");
    (!text.trim().is_empty()).then_some(text)
}

/// "Team: Falcon — Players: 64; Gold: 8" (each cell under its column's name), or the
/// cells between `|` when the table names no columns.
fn row_text(header: &[String], cells: &[String]) -> String {
    let Some((label, rest)) = cells.split_first() else {
        return String::new();
    };
    if header.len() < cells.len() {
        return cells.join(" | ");
    }
    // The first column's name goes with the row's label ("Team: Falcon").
    let label = match header.first().filter(|h| !h.is_empty()) {
        Some(first) => format!("{first}: {label}"),
        None => label.clone(),
    };
    let named: Vec<String> = header[1..]
        .iter()
        .zip(rest)
        .filter(|(_, cell)| !cell.is_empty())
        .map(|(column, cell)| {
            if column.is_empty() {
                cell.clone()
            } else {
                format!("{column}: {cell}")
            }
        })
        .collect();
    format!("{label}{ROW_SEPARATOR}{}", named.join(ITEM_SEPARATOR))
}

/// The passages written as a document's stored text (see the module's description).
pub fn write_passages(passages: &[Passage]) -> String {
    let mut out = String::new();
    let mut context: Option<&str> = None;
    for passage in passages {
        if context != Some(passage.context.as_str()) {
            out.push(CONTEXT_MARK);
            out.push_str(&passage.context);
            out.push_str("\n\n");
            context = Some(&passage.context);
        }
        if let Some(crop) = &passage.crop {
            out.push(CROP_MARK);
            out.push_str(&base64::engine::general_purpose::STANDARD.encode(crop));
            out.push('\n');
        }
        if let Some(record) = &passage.record {
            // JSON writes no line break: the record stays on its line.
            if let Ok(json) = serde_json::to_string(record) {
                out.push(RECORD_MARK);
                out.push_str(&json);
                out.push('\n');
            }
        }
        out.push_str(&passage.text);
        out.push_str("\n\n");
    }
    out
}

/// A stored text without its crop lines (what the indexes read: the same text as before crops
/// were kept); itself when it has none.
pub fn without_crop_lines(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(CROP_MARK) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.split_inclusive('\n')
            .filter(|line| !line.starts_with(CROP_MARK))
            .collect(),
    )
}

/// How a stored document was read, from its passages' places: the pages they are on, and how
/// sure OCR was where it read them (issue 101: the upload's line for a file says "read by OCR,
/// 93% sure, 1 page").
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct HowRead {
    /// The pages the passages are on ("page 2"); 0 for a file without pages.
    pub pages: usize,
    /// The mean of OCR's confidence over the passages it read, in percent; `None` when no
    /// passage was read by OCR.
    pub ocr_sure: Option<f64>,
}

/// How the stored document `text` was read (see [`HowRead`]).
pub fn how_read(text: &str) -> HowRead {
    let mut pages = std::collections::BTreeSet::new();
    let mut sure: Vec<f64> = Vec::new();
    for passage in passages_of(text, "") {
        let Some((_, place)) = passage.context.rsplit_once(PLACE_SEPARATOR) else {
            continue;
        };
        let page = place
            .split(", ")
            .next()
            .and_then(|first| first.strip_prefix("page "))
            .and_then(|n| n.parse::<usize>().ok());
        pages.extend(page);
        // "…, read by OCR, 96% sure"
        let ocr = place
            .split_once(READ_BY_OCR)
            .and_then(|(_, rest)| rest.trim_start_matches(", ").split_once("% sure"))
            .and_then(|(n, _)| n.parse::<f64>().ok());
        sure.extend(ocr);
    }
    HowRead {
        pages: pages.len(),
        ocr_sure: (!sure.is_empty()).then(|| sure.iter().sum::<f64>() / sure.len() as f64),
    }
}

/// The passages of a stored text: its paragraphs (lines joined by single spaces), each with the
/// context line above it, or `untitled` before the first, and the record line above it, if any.
pub fn passages_of(text: &str, untitled: &str) -> Vec<Passage> {
    /// What the marked lines above the passage being read said of it.
    #[derive(Default)]
    struct Marks {
        record: Option<Arc<Record>>,
        crop: Option<Arc<[u8]>>,
    }
    let mut out = Vec::new();
    let mut context = untitled.to_string();
    let mut current: Vec<&str> = Vec::new();
    let mut marks = Marks::default();
    // The passage read so far, with its marks; the marks go with it, or with the blank line.
    let flush = |current: &mut Vec<&str>, marks: &mut Marks, context: &str, out: &mut Vec<_>| {
        let marks = std::mem::take(marks);
        if !current.is_empty() {
            let joined = current.join(" ");
            out.push(Passage {
                text: joined.split_whitespace().collect::<Vec<_>>().join(" "),
                context: context.to_string(),
                record: marks.record,
                crop: marks.crop,
            });
            current.clear();
        }
    };
    for line in text.lines().chain(std::iter::once("")) {
        if let Some(marked) = line.strip_prefix(CONTEXT_MARK) {
            flush(&mut current, &mut marks, &context, &mut out);
            context = marked.trim().to_string();
        } else if let Some(json) = line.strip_prefix(RECORD_MARK) {
            if !current.is_empty() {
                flush(&mut current, &mut marks, &context, &mut out);
            }
            // Written by `write_passages`; a line that does not parse leaves running text.
            marks.record = serde_json::from_str(json).ok().map(Arc::new);
        } else if let Some(base64) = line.strip_prefix(CROP_MARK) {
            if !current.is_empty() {
                flush(&mut current, &mut marks, &context, &mut out);
            }
            marks.crop = base64::engine::general_purpose::STANDARD
                .decode(base64.trim())
                .ok()
                .map(Arc::from);
        } else if line.trim().is_empty() {
            flush(&mut current, &mut marks, &context, &mut out);
        } else {
            current.push(line);
        }
    }
    out
}

/// A snippet is a paragraph, or as many of a long paragraph's sentences as fit in this many
/// characters (CoQEx's web snippets are about this long).
pub const MAX_SNIPPET_CHARS: usize = 600;

/// A passage's text as its snippets hold it: whole when it has at most [`MAX_SNIPPET_CHARS`],
/// else cut at sentence ends into pieces of at most that (a single longer sentence stays whole).
pub fn snippet_pieces(text: &str) -> Vec<String> {
    if text.chars().count() <= MAX_SNIPPET_CHARS {
        return vec![text.to_string()];
    }
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for range in split_sentences(text) {
        let sentence = text[range].trim();
        if !piece.is_empty()
            && piece.chars().count() + 1 + sentence.chars().count() > MAX_SNIPPET_CHARS
        {
            pieces.push(std::mem::take(&mut piece));
        }
        if !piece.is_empty() {
            piece.push(' ');
        }
        piece.push_str(sentence);
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// Pronouns that stand for the previous sentence's subject when a sentence starts with them.
const PRONOUNS: [&str; 10] = [
    "it", "its", "they", "their", "this", "these", "he", "she", "we", "our",
];

/// Each sentence of a passage with what it is read in: the passage's context, and for a
/// sentence that starts with a pronoun ("It cost £5,200.") the sentence before it too. A table
/// row is one sentence per cell, named by its row and its column ("Junior, Annual fee: £95"), so
/// that each value is described by its own row and column, not its neighbours'.
pub fn sentences_in_context(passage: &Passage) -> Vec<(String, String)> {
    if let Some(record) = passage.record.as_deref() {
        let named_cells = record.row().map_or(0, |(_, cells)| cells.len());
        if let (true, Some((_, values))) = (named_cells >= 2, record.row_values()) {
            // Each cell with a number is a sentence of its own, named by its row and column.
            return values
                .into_iter()
                .map(|v| (v.sentence, passage.context.clone()))
                .collect();
        }
    }
    let mut out: Vec<(String, String)> = Vec::new();
    let mut previous: Option<&str> = None;
    for range in split_sentences(&passage.text) {
        let sentence = passage.text[range].trim();
        if sentence.is_empty() {
            continue;
        }
        let first = sentence
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or_default()
            .to_lowercase();
        let context = match previous {
            Some(before) if PRONOUNS.contains(&first.as_str()) => {
                format!("{}{CONTEXT_SEPARATOR}{before}", passage.context)
            }
            _ => passage.context.clone(),
        };
        out.push((sentence.to_string(), context));
        previous = Some(sentence);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::structure::lines;

    #[test]
    fn how_a_document_was_read_comes_from_its_places() {
        let passage = |context: &str, text: &str| Passage {
            text: text.into(),
            context: context.into(),
            record: None,
            crop: None,
        };
        let scan = write_passages(&[
            passage(
                "Village Shop · page 1, read by OCR, 96% sure",
                "Volunteers: 23",
            ),
            passage(
                "Village Shop › Cold room · page 1, read by OCR, 90% sure; unsure: 4,300",
                "It cost £4,300.",
            ),
            passage(
                "Village Shop · page 2, read by OCR, 93% sure",
                "Opened 2011.",
            ),
        ]);
        assert_eq!(
            how_read(&scan),
            HowRead {
                pages: 2,
                ocr_sure: Some(93.0)
            }
        );
        // A text layer's pages say no OCR; a sheet has no pages.
        let pdf = write_passages(&[passage("Report · page 3", "Total: 4")]);
        assert_eq!(
            how_read(&pdf),
            HowRead {
                pages: 1,
                ocr_sure: None
            }
        );
        let sheet = write_passages(&[passage("Fees · sheet 'Fees', row 2", "Adult: 320")]);
        assert_eq!(how_read(&sheet), HowRead::default());
    }

    #[test]
    fn rows_lists_records_and_context_written_and_read_back() {
        let outline = lines::outline(
            "Spring Games\n\nMedal table\n\nTeam | Players | Gold\nFalcon | 64 | 8\n\n\
             Present: Ann Hale (chair), Ben Ode\n",
            &crate::corpus::budget::ReadBudget::default(),
        )
        .unwrap();
        let written = passages(&outline, "games.txt");
        assert_eq!(
            written,
            vec![
                Passage {
                    text: "Team: Falcon — Players: 64; Gold: 8".into(),
                    context: "Spring Games › Medal table".into(),
                    record: Some(Arc::new(Record::TableRow {
                        header: vec!["Team".into(), "Players".into(), "Gold".into()].into(),
                        cells: vec!["Falcon".into(), "64".into(), "8".into()],
                    })),
                    crop: None,
                },
                Passage {
                    text: "Present: Ann Hale (chair); Ben Ode".into(),
                    context: "Spring Games › Medal table".into(),
                    record: Some(Arc::new(Record::List {
                        lead: Some("Present".into()),
                        items: vec!["Ann Hale (chair)".into(), "Ben Ode".into()],
                    })),
                    crop: None,
                },
            ]
        );
        let stored = write_passages(&written);
        assert_eq!(passages_of(&stored, "games.txt"), written);
    }

    #[test]
    fn a_row_is_one_sentence_per_cell_named_by_its_row_and_column() {
        let passage = Passage {
            text: "Membership: Junior — Annual fee: £95; Locker: £30".into(),
            context: "Pellinghurst Tennis Club › Fees".into(),
            record: Some(Arc::new(Record::TableRow {
                header: vec!["Membership".into(), "Annual fee".into(), "Locker".into()].into(),
                cells: vec!["Junior".into(), "£95".into(), "£30".into()],
            })),
            crop: None,
        };
        let sentences: Vec<String> = sentences_in_context(&passage)
            .into_iter()
            .map(|(sentence, _)| sentence)
            .collect();
        assert_eq!(
            sentences,
            ["Junior, Annual fee: £95", "Junior, Locker: £30"]
        );
    }

    #[test]
    fn a_sentence_that_starts_with_a_pronoun_is_read_with_the_one_before() {
        let passage = Passage {
            text: "The new film printer has arrived. It cost £5,200.".into(),
            context: "Darkroom news".into(),
            record: None,
            crop: None,
        };
        let read = sentences_in_context(&passage);
        assert_eq!(read[0].1, "Darkroom news");
        assert_eq!(
            read[1],
            (
                "It cost £5,200.".to_string(),
                "Darkroom news › The new film printer has arrived.".to_string()
            )
        );
    }
}
