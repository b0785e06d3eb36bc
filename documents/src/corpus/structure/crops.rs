//! The crop of a scanned page each block was read from (issue 100): the evidence a person
//! checks a number read by OCR against, shown on the answer page beside the line as read.
//!
//! A page OCR reads is kept scaled down ([`EvidencePage`]). After the page is laid out, each of
//! its blocks is matched to the lines of words it was read from — the lines most of whose
//! letters are the block's own words (a table row's cells, not its header; a list's items; for
//! the names a column holds, every line holding one) —
//! and the box of the closest run of them is cut out and kept as a small grey PNG, bounded in
//! size, with a bound for the whole file. A block matched to no line keeps no crop: nothing is
//! shown rather than another line.

use std::collections::HashSet;
use std::sync::Arc;

use tally_page_image::evidence::{EvidencePage, LinesBox};

use super::{Block, Record};
use crate::corpus::ocr::OcrWord;

/// The most bytes the crops of one file may take together; the blocks after are kept without.
pub const FILE_CROPS_MAX_BYTES: usize = 2 * 1024 * 1024;
/// The share of a line's letters and digits that must be the block's own words for the line
/// to be one the block was read from.
const LINE_MATCH: f32 = 0.6;
/// Matched lines further apart than this many line heights are two runs.
const RUN_GAP: f32 = 1.5;
/// What is left of one file's allowance for crops, in bytes ([`FILE_CROPS_MAX_BYTES`]).
#[derive(Debug)]
pub struct CropAllowance(usize);

impl Default for CropAllowance {
    fn default() -> Self {
        Self(FILE_CROPS_MAX_BYTES)
    }
}

/// One line of OCR's words, as Tesseract numbered it: its letters and digits as words, and its
/// box in the page's pixels.
struct WordLine {
    words: Vec<String>,
    top: u32,
    bottom: u32,
    left: u32,
    right: u32,
}

/// Gives each of `blocks` (laid out from the page whose words are `words`) the crop of `page`
/// its lines stand in, within `allowance`.
pub fn attach_crops(
    blocks: &mut [Block],
    words: &[OcrWord],
    page: &EvidencePage,
    allowance: &mut CropAllowance,
) {
    let lines = word_lines(words);
    if lines.is_empty() {
        return;
    }
    let Some(page) = page.open() else {
        return;
    };
    for block in blocks {
        let Some(own) = own_words(&block.kind) else {
            continue;
        };
        // A column's names share their lines with the rest of their rows.
        let share = match block.kind {
            Record::RowNames { .. } => 0.0,
            _ => LINE_MATCH,
        };
        let Some(area) = area_of(&own, &lines, share) else {
            continue;
        };
        let Some(png) = page.crop_png(area) else {
            continue;
        };
        if png.len() > allowance.0 {
            return;
        }
        allowance.0 -= png.len();
        block.crop = Some(Arc::from(png));
    }
}

/// The words of a text as they are matched: letters and digits between what is neither, lower
/// case ("£3.10" → "3.10").
fn match_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
}

/// The words a block was read from: a row's cells without its header, a list's lead and items,
/// a column's names (each on a line of its own row, among the row's other cells).
fn own_words(record: &Record) -> Option<HashSet<String>> {
    let texts: Vec<&str> = match record {
        Record::Paragraph(text) => vec![text],
        Record::List { lead, items } => lead.iter().chain(items).map(String::as_str).collect(),
        Record::RowNames { names, .. } => names.iter().map(String::as_str).collect(),
        Record::KeyValue { label, value } => vec![label, value],
        Record::TableRow { cells, .. } | Record::TotalRow { cells, .. } => {
            cells.iter().map(String::as_str).collect()
        }
        Record::Turn { speaker, text } => vec![speaker, text],
        Record::Dated { date, text } => vec![date, text],
    };
    let words: HashSet<String> = texts.into_iter().flat_map(match_words).collect();
    (!words.is_empty()).then_some(words)
}

/// The page's words gathered into Tesseract's lines, top to bottom.
fn word_lines(words: &[OcrWord]) -> Vec<WordLine> {
    let mut lines: Vec<((u32, u32, u32), WordLine)> = Vec::new();
    for word in words {
        let text: Vec<String> = match_words(&word.text).collect();
        if text.is_empty() {
            continue;
        }
        let (right, bottom) = (word.left + word.width, word.top + word.height);
        match lines.iter_mut().find(|(id, _)| *id == word.line) {
            Some((_, line)) => {
                line.words.extend(text);
                line.top = line.top.min(word.top);
                line.bottom = line.bottom.max(bottom);
                line.left = line.left.min(word.left);
                line.right = line.right.max(right);
            }
            None => lines.push((
                word.line,
                WordLine {
                    words: text,
                    top: word.top,
                    bottom,
                    left: word.left,
                    right,
                },
            )),
        }
    }
    let mut lines: Vec<WordLine> = lines.into_iter().map(|(_, line)| line).collect();
    lines.sort_by_key(|l| (l.top, l.left));
    lines
}

/// The box of the run of lines the words `own` were read from: each line at least `share` of
/// whose letters are `own`'s, in runs broken by blank space, the run with the most of them.
fn area_of(own: &HashSet<String>, lines: &[WordLine], share: f32) -> Option<LinesBox> {
    let letters = |w: &String| w.chars().count();
    let matched: Vec<(&WordLine, usize)> = lines
        .iter()
        .filter_map(|line| {
            let all: usize = line.words.iter().map(letters).sum();
            let mine: usize = line
                .words
                .iter()
                .filter(|w| own.contains(*w))
                .map(letters)
                .sum();
            (all > 0 && mine >= 2 && mine as f32 >= share * all as f32).then_some((line, mine))
        })
        .collect();
    let mut runs: Vec<(Vec<&WordLine>, usize)> = Vec::new();
    for (line, mine) in matched {
        let height = line.bottom.saturating_sub(line.top).max(1) as f32;
        match runs.last_mut() {
            Some((run, sum))
                if run.last().is_some_and(|last| {
                    (line.top as f32) <= last.bottom as f32 + RUN_GAP * height
                }) =>
            {
                run.push(line);
                *sum += mine;
            }
            _ => runs.push((vec![line], mine)),
        }
    }
    let (run, _) = runs.into_iter().max_by_key(|(_, sum)| *sum)?;
    let line_height = run
        .iter()
        .map(|l| l.bottom.saturating_sub(l.top))
        .min()
        .unwrap_or(1)
        .max(1);
    Some(LinesBox {
        left: run.iter().map(|l| l.left).min()?,
        top: run.iter().map(|l| l.top).min()?,
        right: run.iter().map(|l| l.right).max()?,
        bottom: run.iter().map(|l| l.bottom).max()?,
        line_height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::budget::ReadBudget;
    use crate::corpus::documents::read_file;
    use crate::corpus::format::Format;
    use crate::corpus::ocr::OcrTools;
    use crate::corpus::structure::{passages, passages_of, write_passages, Outline};

    #[test]
    fn each_line_of_a_receipt_photo_keeps_the_crop_it_was_read_from() {
        assert!(
            OcrTools::on_this_machine().is_some(),
            "Tesseract is installed"
        );
        let photo =
            include_bytes!("../../../../tests/fixtures/other-programs/quayside-deli-receipt.jpg");
        let budget = ReadBudget::for_bytes(photo.len());
        let documents = read_file(photo, Format::Image, "receipt.jpg", &budget).unwrap();
        let read = passages_of(&documents[0].text, "receipt.jpg");
        let item = |label: &str| {
            read.iter()
                .find(|p| {
                    matches!(p.record.as_deref(), Some(Record::KeyValue { label: l, .. }) if l == label)
                })
                .unwrap_or_else(|| panic!("{label} is read"))
        };
        let crop = item("Apple juice 750ml").crop.clone().expect("a crop");
        let image = image::load_from_memory(&crop).unwrap().to_luma8();
        // One line of the receipt, across its width: the item's name and its price.
        assert!(image.height() < 80, "{:?}", image.dimensions());
        assert!(
            image.width() > 4 * image.height(),
            "{:?}",
            image.dimensions()
        );
        // Ink on paper, not a blank piece of the table.
        assert!(image.pixels().any(|p| p.0[0] < 100));
        assert!(image.pixels().filter(|p| p.0[0] > 150).count() > image.len() / 2);
        // Each line read by OCR has one; all of them within the file's bound.
        let kept: Vec<usize> = read
            .iter()
            .filter_map(|p| p.crop.as_ref().map(|c| c.len()))
            .collect();
        assert!(
            kept.len() * 10 >= read.len() * 8,
            "{} of {}",
            kept.len(),
            read.len()
        );
        assert!(kept
            .iter()
            .all(|&n| n <= tally_page_image::evidence::CROP_MAX_BYTES));
        assert!(kept.iter().sum::<usize>() <= FILE_CROPS_MAX_BYTES);
    }

    #[test]
    fn a_crop_is_stored_with_its_passage_and_read_back() {
        let block = |kind: Record, crop: Option<&[u8]>| Block {
            kind,
            sections: vec!["Items".into()],
            place: Some("page 1, read by OCR, 90% sure".into()),
            crop: crop.map(Arc::from),
        };
        let outline = Outline {
            title: Some("Quayside Deli".into()),
            blocks: vec![
                block(Record::Paragraph("Thank you".into()), None),
                block(row(&["Milk", "£1.10"]), Some(&[1, 2, 3])),
                block(Record::Paragraph("Milk £1.10".into()), Some(&[4, 5])),
            ],
        };
        let written = passages(&outline, "receipt");
        let read = passages_of(&write_passages(&written), "receipt");
        assert_eq!(read, written);
        let crops: Vec<Option<&[u8]>> = read.iter().map(|p| p.crop.as_deref()).collect();
        assert_eq!(crops, [None, Some(&[1, 2, 3][..]), Some(&[4, 5][..])]);
    }

    fn word(text: &str, left: u32, top: u32, line: u32) -> OcrWord {
        OcrWord {
            text: text.into(),
            left,
            top,
            width: 10 * text.len() as u32,
            height: 20,
            confidence: 90.0,
            line: (1, 1, line),
        }
    }

    /// A receipt's three lines: two items at the same price and the total.
    fn receipt() -> Vec<OcrWord> {
        vec![
            word("Milk", 10, 10, 1),
            word("£1.10", 300, 10, 1),
            word("Bread", 10, 50, 2),
            word("£1.10", 300, 50, 2),
            word("TOTAL", 10, 90, 3),
            word("£2.20", 300, 90, 3),
        ]
    }

    fn row(cells: &[&str]) -> Record {
        Record::TableRow {
            header: Arc::from(vec!["Item".to_string(), "Price".to_string()]),
            cells: cells.iter().map(|c| c.to_string()).collect(),
        }
    }

    #[test]
    fn a_row_is_matched_to_its_own_line_not_one_sharing_its_price() {
        let lines = word_lines(&receipt());
        let bread = own_words(&row(&["Bread", "£1.10"])).unwrap();
        let area = area_of(&bread, &lines, LINE_MATCH).unwrap();
        assert_eq!((area.top, area.bottom), (50, 70));
        assert_eq!((area.left, area.right), (10, 360));
        // The header's words are not the row's: a row read as "Item: Milk" still finds its line.
        let milk = own_words(&row(&["Milk", "£1.10"])).unwrap();
        assert_eq!(area_of(&milk, &lines, LINE_MATCH).unwrap().top, 10);
        // Words the page does not hold match nothing: no crop rather than another line's.
        let tea = own_words(&row(&["Tea", "£3.00"])).unwrap();
        assert_eq!(area_of(&tea, &lines, LINE_MATCH), None);
    }

    #[test]
    fn a_paragraphs_lines_are_one_run_and_a_far_line_is_left_out() {
        let words = vec![
            word("Rinks", 10, 10, 1),
            word("open", 70, 10, 1),
            word("daily", 10, 35, 2),
            word("from", 70, 35, 2),
            word("nine", 10, 300, 3),
            word("daily", 70, 300, 3),
        ];
        let own = own_words(&Record::Paragraph("Rinks open daily from nine".into())).unwrap();
        let area = area_of(&own, &word_lines(&words), LINE_MATCH).unwrap();
        assert_eq!((area.top, area.bottom), (10, 55));
    }

    #[test]
    fn a_files_allowance_spent_keeps_no_crop() {
        let kept = EvidencePage::of(&image::GrayImage::from_pixel(
            3200,
            2000,
            image::Luma([255]),
        ))
        .unwrap();
        let mut blocks = vec![Block {
            kind: Record::Paragraph("Milk".into()),
            sections: Vec::new(),
            place: None,
            crop: None,
        }];
        // An allowance spent keeps no crop.
        let mut spent = CropAllowance(0);
        let words = [word("Milk", 10, 10, 1), word("milk", 60, 10, 1)];
        attach_crops(&mut blocks, &words, &kept, &mut spent);
        assert_eq!(blocks[0].crop, None);
        attach_crops(&mut blocks, &words, &kept, &mut CropAllowance::default());
        assert!(blocks[0].crop.is_some());
    }
}
