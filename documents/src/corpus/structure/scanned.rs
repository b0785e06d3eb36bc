//! Scanned pages and photos of pages laid out from the words OCR read (issue 89): words into
//! lines (Tesseract's lines, and lines of one row its blocks split, such as a table's columns),
//! lines into groups at the blank space between them, a line set larger than the page's text
//! into a heading, and each group written with its words at their columns, so that the plain
//! text reader finds what it finds in a text file: `Label: value` lines, lists, and tables
//! whose columns are aligned. Every block keeps where it was read and how sure OCR was ("page 1,
//! read by OCR, 94% sure"), and names the numbers read with low confidence ("unsure: 4,521"), so
//! that an answer resting on one is not given as sure.

use super::crops::{attach_crops, CropAllowance};
use super::flow::Flow;
use super::line_runs::{columns, join_wrapped, runs, Run};
use super::pdf_spans::TEXT_LAYER;
use super::ruled::{ruled_tables, RuledTable};
use super::Outline;
use crate::corpus::budget::{ReadBudget, ReadRefused};
use crate::corpus::ocr::{
    checked_image_size, image_pages, scratch_folder, text_height, OcrPage, OcrTools, OcrWord,
    OCR_MISSING, OCR_PAGE_TIME, UNSURE_CONFIDENCE,
};
use tally_page_image::rulings::Rulings;

pub use tally_types::documents::READ_BY_OCR;
/// What precedes the numbers of a block read with low confidence, in its place.
pub const UNSURE_NUMBERS: &str = "unsure:";
/// A line this many times the page's text height or more is a heading.
const HEADING_HEIGHT: f32 = 1.3;
/// A heading's letters are at least this many times as wide as the page's text's.
const HEADING_WIDTH: f32 = 1.15;
/// Blank space between two lines of more than this many text heights starts a new group.
const GROUP_GAP: f32 = 0.9;
/// A text layer's line is a heading only when set this many times as large as the line under it.
const HEADING_OVER_NEXT: f32 = 1.15;
/// A text layer's group starts where the pitch between two lines is this many times the
/// pitch beside it.
const PITCH_BREAK: f32 = 1.3;
/// A text layer's group starts past this many line heights of blank space, whatever the pitch
/// beside it.
const PITCH_BLANK: f32 = 2.0;
/// What OCR reads a list's bullet as, besides "•".
const BULLET_MISREADS: [&str; 7] = ["¢", "«", "°", "©", "®", "»", "e"];
/// A word of no letter or digit smaller every way than this share of the text's height is a
/// speck of the page.
const SPECK_OF_HEIGHT: f32 = 0.25;
/// A word of no letter or digit below this confidence is a mark of the page (a rule, a speck).
const MARK_CONFIDENCE: f32 = 60.0;

/// The outline of an image of a page (PNG, JPEG, TIFF; a TIFF may hold several pages).
pub(super) fn image_outline(bytes: &[u8], budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    checked_image_size(bytes)?;
    let tools = OcrTools::on_this_machine().ok_or_else(|| {
        ReadRefused::Unreadable(format!("it is an image of a page, and {OCR_MISSING}"))
    })?;
    let dir = scratch_folder()?;
    let path = dir.path().join("page.img");
    std::fs::write(&path, bytes).map_err(|e| ReadRefused::failed("cannot write it for OCR", e))?;
    // Every page of a TIFF is read, each size-checked first, out of the upload's pages.
    let pages = image_pages(&path)?;
    budget.ocr().take_pages(pages)?;
    budget.extend(OCR_PAGE_TIME * pages as u32);
    let pages = tools.words_of_image(&path, budget)?;
    let mut flow = Flow::new(budget);
    let mut crops = CropAllowance::default();
    // A photo is of a page: its place says so, as a PDF's pages do ("page 1, read by OCR").
    for (n, page) in pages.iter().enumerate() {
        let place = format!("page {}", n + 1);
        lay_out_read_page(&mut flow, page, &place, &mut crops)?;
    }
    let outline = flow.finish()?;
    if outline.blocks.is_empty() && outline.title.is_none() {
        return Err(ReadRefused::Unreadable(
            "no text could be read from its image, even by OCR".into(),
        ));
    }
    Ok(outline)
}

/// Pages `pages` (from 1, each with the longer side in pixels to render it at) of the PDF
/// `bytes`, rendered and read by OCR, in order: their words and rulings.
pub(super) fn pdf_pages_words(
    bytes: &[u8],
    pages: &[(u32, u32)],
    tools: &OcrTools,
    budget: &ReadBudget,
) -> Result<Vec<OcrPage>, ReadRefused> {
    let dir = scratch_folder()?;
    let pdf = dir.path().join("scanned.pdf");
    std::fs::write(&pdf, bytes).map_err(|e| ReadRefused::failed("cannot write it for OCR", e))?;
    let mut read = Vec::with_capacity(pages.len());
    for &(page, long_side) in pages {
        budget.check()?;
        let image = tools.render_pdf_page(&pdf, page, long_side, dir.path(), budget)?;
        let pages = tools.words_of_image(&image, budget)?;
        let _ = std::fs::remove_file(&image);
        read.push(pages.into_iter().next().unwrap_or_default());
    }
    Ok(read)
}

/// One line of a page: its words left to right and its box.
#[derive(Debug, Clone)]
struct Line {
    words: Vec<OcrWord>,
    top: u32,
    bottom: u32,
    left: u32,
    /// The median height of its words of letters and digits (a ruling OCR took into a word
    /// makes that word tall, not the line).
    height: f32,
}

impl Line {
    fn of(words: Vec<OcrWord>) -> Line {
        let mut words = words;
        words.sort_by_key(|w| w.left);
        // A bullet OCR reads as another mark ("¢ Corrosion", "« Frost").
        if words.len() > 1 && BULLET_MISREADS.contains(&words[0].text.as_str()) {
            words[0].text = "•".into();
        }
        let top = words.iter().map(|w| w.top).min().unwrap_or(0);
        let bottom = words.iter().map(|w| w.top + w.height).max().unwrap_or(0);
        let left = words.iter().map(|w| w.left).min().unwrap_or(0);
        let height = median(
            words
                .iter()
                .filter(|w| w.text.chars().any(char::is_alphanumeric))
                .map(|w| w.height as f32)
                .collect(),
        );
        Line {
            words,
            top,
            bottom,
            left,
            height,
        }
    }

    fn center(&self) -> f32 {
        (self.top + self.bottom) as f32 / 2.0
    }

    /// Whether `other` sits on this line's row: their heights overlap by half the smaller and
    /// their words do not (a column OCR read as a block of its own may fall between two
    /// columns already joined into the row).
    fn shares_row(&self, other: &Line) -> bool {
        let overlap = self.bottom.min(other.bottom) as f32 - self.top.max(other.top) as f32;
        let smaller = (self.bottom - self.top).min(other.bottom - other.top) as f32;
        let apart =
            |a: &OcrWord, b: &OcrWord| a.left > b.left + b.width || a.left + a.width < b.left;
        overlap >= 0.5 * smaller
            && other
                .words
                .iter()
                .all(|o| self.words.iter().all(|w| apart(o, w)))
    }
}

/// Lays the words of one page out into `flow`, at `place` ("page 2") when the file has pages:
/// the ruled tables its `rulings` draw read cell by cell, the other words by where they stand.
pub(super) fn lay_out(
    flow: &mut Flow,
    words: &[OcrWord],
    rulings: &Rulings,
    place: Option<&str>,
) -> Result<(), ReadRefused> {
    flow.set_read_by_ocr(!words.iter().all(|w| w.confidence >= TEXT_LAYER));
    let (tables, words) = ruled_tables(&cleaned(words), rulings)?;
    let mut tables = tables.into_iter().peekable();
    let rows = rows(&words);
    let char_width = letter_width(rows.iter().flat_map(|r| &r.words)).max(1.0);
    if rows.is_empty() {
        return tables.try_for_each(|table| write_table(flow, table, place));
    }
    let text_height = median(rows.iter().map(|r| r.height).collect()).max(1.0);
    let page_left = rows.iter().map(|r| r.left).min().unwrap_or(0);
    let text_layer = words.iter().all(|w| w.confidence >= TEXT_LAYER);
    let breaks = if text_layer {
        pitch_breaks(&rows)
    } else {
        gap_breaks(&rows, text_height)
    };
    let mut group: Vec<&Line> = Vec::new();
    for (n, row) in rows.iter().enumerate() {
        let mut heading = heading_level(row, text_height, char_width);
        // A text layer's sizes are exact: a heading is set larger than the line under it, so
        // a page whose tables are set small does not make its prose headings.
        if text_layer {
            let next = rows.get(n + 1).map_or(0.0, |r| r.height);
            heading = heading.filter(|_| row.height >= HEADING_OVER_NEXT * next);
        }
        let table_above = tables.peek().is_some_and(|t| t.top < row.center());
        if heading.is_some() || breaks[n] || table_above {
            write_group(flow, &group, page_left, char_width, place)?;
            group.clear();
        }
        while let Some(table) = tables.next_if(|t| t.top < row.center()) {
            write_table(flow, table, place)?;
        }
        if let Some(level) = heading {
            flow.heading(level, &plain(row))?;
            continue;
        }
        group.push(row);
    }
    write_group(flow, &group, page_left, char_width, place)?;
    tables.try_for_each(|table| write_table(flow, table, place))
}

/// Lays out a page OCR read ([`lay_out`]) at `place`, each block it gives with the crop of the
/// page it was read from, within the file's `crops` allowance.
pub(super) fn lay_out_read_page(
    flow: &mut Flow,
    page: &OcrPage,
    place: &str,
    crops: &mut CropAllowance,
) -> Result<(), ReadRefused> {
    let first = flow.blocks_read();
    lay_out(flow, &page.words, &page.rulings, Some(place))?;
    if let Some(evidence) = &page.evidence {
        attach_crops(flow.blocks_since(first), &page.words, evidence, crops);
    }
    Ok(())
}

/// A ruled table read cell by cell, at `place` with how sure OCR was of its words.
fn write_table(flow: &mut Flow, table: RuledTable, place: Option<&str>) -> Result<(), ReadRefused> {
    let words: Vec<&OcrWord> = table.words.iter().collect();
    flow.at(ocr_place(place, &words));
    flow.grid(table.rows, table.header_rows)
}

/// Where a scanned page's groups start: at blank space between two lines of more than
/// `GROUP_GAP` text heights.
fn gap_breaks(rows: &[Line], text_height: f32) -> Vec<bool> {
    let mut previous_bottom: Option<u32> = None;
    rows.iter()
        .map(|row| {
            let gap = previous_bottom.map_or(0.0, |b| row.top as f32 - b as f32);
            previous_bottom = Some(row.bottom);
            gap > GROUP_GAP * text_height
        })
        .collect()
}

/// Where a text layer's groups start. Its lines are set at a pitch (baseline to baseline) that
/// differs from block to block — a table's rows often further apart than a paragraph's lines —
/// so blank space is measured against the pitch around it: a group starts where the pitch is
/// `PITCH_BREAK` times the smaller of the pitches before and after it, or past
/// `PITCH_BLANK` text heights of blank space when it stands alone.
fn pitch_breaks(rows: &[Line]) -> Vec<bool> {
    let pitches: Vec<f32> = rows
        .windows(2)
        .map(|pair| pair[1].bottom as f32 - pair[0].bottom as f32)
        .collect();
    let mut breaks = vec![false; rows.len()];
    for (n, &pitch) in pitches.iter().enumerate() {
        let around = [
            n.checked_sub(1).and_then(|m| pitches.get(m)),
            pitches.get(n + 1),
        ];
        let nearest = around
            .into_iter()
            .flatten()
            .copied()
            .fold(f32::MAX, f32::min);
        let height = rows[n].height.max(rows[n + 1].height).max(1.0);
        let blank = rows[n + 1].top as f32 - rows[n].bottom as f32;
        breaks[n + 1] = pitch > PITCH_BREAK * nearest || blank > PITCH_BLANK * height;
    }
    breaks
}

/// The page's words less its marks (a ruling read as a word, a speck), each with a ruling OCR
/// took into its edge cut off and a date's dropped spaces put back.
fn cleaned(words: &[OcrWord]) -> Vec<OcrWord> {
    let text_height = text_height(words);
    let mut kept = Vec::with_capacity(words.len());
    for word in words {
        let mark = !word.text.chars().any(char::is_alphanumeric);
        // A table's ruling read as a word ("|", "[", "_"), or a speck: a mark read with
        // little confidence, or one smaller every way than a quarter of a letter's height (a
        // speck read as "-" before a line made it a list's item).
        let ruling = word
            .text
            .chars()
            .all(|c| matches!(c, '|' | '[' | ']' | '_' | '¦' | '!'));
        let speck = (word.width.max(word.height) as f32) < SPECK_OF_HEIGHT * text_height;
        if mark && (ruling || speck || word.confidence < MARK_CONFIDENCE) {
            continue;
        }
        let mut word = word.clone();
        // A ruling OCR took into a word's edge ("|9 Oct", "146]").
        let trimmed = word
            .text
            .trim_matches(|c: char| matches!(c, '|' | '[' | ']' | '¦'));
        if !trimmed.is_empty() && trimmed.len() < word.text.len() {
            word.text = trimmed.to_string();
        }
        if let Some(date) = spaced_date(&word.text) {
            word.text = date;
        }
        // "1kg" read as "lkg" or "1lkg": a one before a kilogram read as an l (or as both).
        if matches!(word.text.as_str(), "lkg" | "Ikg" | "1lkg" | "1Ikg") {
            word.text = "1kg".to_string();
        }
        kept.push(word);
    }
    kept
}

/// The page's lines, one per row, top to bottom, less its page number.
fn rows(words: &[OcrWord]) -> Vec<Line> {
    let mut by_line: Vec<((u32, u32, u32), Vec<OcrWord>)> = Vec::new();
    for word in words {
        match by_line.iter_mut().find(|(key, _)| *key == word.line) {
            Some((_, line)) => line.push(word.clone()),
            None => by_line.push((word.line, vec![word.clone()])),
        }
    }
    let mut lines: Vec<Line> = by_line.into_iter().map(|(_, w)| Line::of(w)).collect();
    lines.sort_by_key(|l| l.top);
    // Lines of one row that Tesseract read as blocks of their own (a table's columns) are
    // one line.
    let mut rows: Vec<Line> = Vec::new();
    for line in lines {
        match rows.iter_mut().rev().take(4).find(|r| r.shares_row(&line)) {
            Some(row) => {
                let mut words = std::mem::take(&mut row.words);
                words.extend(line.words);
                *row = Line::of(words);
            }
            None => rows.push(line),
        }
    }
    rows.sort_by(|a, b| a.center().total_cmp(&b.center()));
    if rows.last().is_some_and(|r| is_page_number(&plain(r))) {
        rows.pop();
    }
    rows
}

/// The heading level of a row set larger than the page's text, when it is short enough to be
/// one.
fn heading_level(row: &Line, text_height: f32, char_width: f32) -> Option<usize> {
    let ratio = row.height / text_height;
    // Type set larger is wider too: a word whose box took in a table's ruling is only taller.
    let letters: Vec<f32> = row
        .words
        .iter()
        .filter(|w| w.text.chars().count() >= 3)
        .map(|w| w.width as f32 / w.text.chars().count() as f32)
        .collect();
    if letters.is_empty() || median(letters) < HEADING_WIDTH * char_width {
        return None;
    }
    let words = row.words.len();
    let has_letters = row
        .words
        .iter()
        .any(|w| w.text.chars().any(char::is_alphabetic));
    if ratio < HEADING_HEIGHT || words > 12 || !has_letters {
        return None;
    }
    Some(if ratio >= 1.9 {
        1
    } else if ratio >= 1.5 {
        2
    } else {
        3
    })
}

/// A group's lines written with their words at their columns (a gutter as two spaces or more)
/// and read as plain text lines, at `place` with how sure OCR was of them.
fn write_group(
    flow: &mut Flow,
    group: &[&Line],
    page_left: u32,
    char_width: f32,
    place: Option<&str>,
) -> Result<(), ReadRefused> {
    if group.is_empty() {
        return Ok(());
    }
    // A text layer's group is written at its own letters' width: a table set smaller than
    // the page's prose written at the prose's width would have its cells' text outrun their
    // columns.
    let text_layer = group
        .iter()
        .flat_map(|l| &l.words)
        .all(|w| w.confidence >= TEXT_LAYER);
    let char_width = if text_layer {
        let own = letter_width(group.iter().flat_map(|l| &l.words));
        if own > 0.0 {
            own
        } else {
            char_width
        }
    } else {
        char_width
    };
    let runs: Vec<Vec<Run>> = group.iter().map(|l| runs(&l.words, char_width)).collect();
    let columns = columns(&runs);
    if text_layer && !columns.is_empty() {
        // Running text set at the table's own pitch (an office suite leaves no blank between
        // a paragraph and a table) is read as the paragraph it is: the lines above or below
        // the table whose one run starts at its first column and runs across others (a title
        // centred over the table stays its caption).
        let flush = |line: &Vec<Run>| {
            line.len() == 1 && line[0].left.abs_diff(columns[0].0) <= line[0].height
        };
        let across = |line: &Vec<Run>| {
            flush(line)
                && columns
                    .iter()
                    .filter(|(l, r)| *l <= line[0].right && line[0].left <= *r)
                    .count()
                    >= 2
        };
        // Above its first row of cells, any such line flush with the first column is no row
        // either (a paragraph's last line, a caption "Buses by route").
        let above = runs.iter().take_while(|l| flush(l)).count();
        let below = runs.iter().rev().take_while(|l| across(l)).count();
        if above + below > 0 && above + below < group.len() {
            let table = above..group.len() - below;
            write_group(flow, &group[..above], page_left, char_width, place)?;
            write_group(flow, &group[table.clone()], page_left, char_width, place)?;
            return write_group(flow, &group[table.end..], page_left, char_width, place);
        }
    }
    // A text layer's widths are exact, so a cell's words wrapped onto a line of their own can
    // be told from a row of their own.
    let runs = if text_layer {
        join_wrapped(runs, &columns)
    } else {
        runs
    };
    let at_char = |x: u32| (x.saturating_sub(page_left) as f32 / char_width).round() as usize;
    // A run of a table's line starts at the column it covers first: a header centred over its
    // sub-columns, a number set to the right of its column.
    let column_of = |run: &Run| {
        columns
            .iter()
            .position(|(l, r)| *l <= run.right && run.left <= *r)
    };
    let mut column_at: Vec<usize> = columns.iter().map(|(l, _)| at_char(*l)).collect();
    if text_layer {
        // Each column written after the widest cell of the one before it, on every line
        // alike: a cell whose wrapped lines were joined is longer than its column is wide.
        // (A header over several columns is no cell of one.)
        let within = |run: &Run, c: usize| {
            columns
                .iter()
                .enumerate()
                .all(|(k, (l, r))| (k == c) == (*l <= run.right && run.left <= *r))
        };
        for c in 1..column_at.len() {
            let widest = runs
                .iter()
                .filter(|line| line.len() > 1)
                .flatten()
                .filter(|run| within(run, c - 1))
                .map(|run| run.text.chars().count())
                .max()
                .unwrap_or(0);
            column_at[c] = column_at[c].max(column_at[c - 1] + widest + 2);
        }
    }
    let lines: Vec<String> = runs
        .iter()
        .map(|line| {
            let mut text = String::new();
            for run in line {
                let start = column_of(run).map_or(at_char(run.left), |c| column_at[c]);
                let at = text.chars().count();
                let spaces = if at == 0 {
                    start
                } else {
                    start.saturating_sub(at).max(2)
                };
                text.extend(std::iter::repeat_n(' ', spaces));
                text.push_str(&run.text);
            }
            text
        })
        .collect();
    let words: Vec<&OcrWord> = group.iter().flat_map(|l| &l.words).collect();
    flow.at(ocr_place(place, &words));
    flow.lines(&lines)
}

/// Where a block read by OCR is and how sure OCR was: "page 2, read by OCR, 91% sure", and
/// "; unsure: 4,521, 13" naming its numbers read with low confidence.
fn ocr_place(place: Option<&str>, words: &[&OcrWord]) -> Option<String> {
    // A PDF's text layer laid out as a scan's words are is not read by OCR.
    if words.iter().all(|w| w.confidence >= TEXT_LAYER) {
        return place.map(str::to_string);
    }
    let sure = words.iter().map(|w| w.confidence).sum::<f32>() / words.len().max(1) as f32;
    let mut out = match place {
        Some(place) => format!("{place}, {READ_BY_OCR}, {sure:.0}% sure"),
        None => format!("{READ_BY_OCR}, {sure:.0}% sure"),
    };
    let mut unsure: Vec<String> = Vec::new();
    for word in words {
        let number = word.text.trim_matches(|c: char| !c.is_ascii_digit());
        if word.confidence < UNSURE_CONFIDENCE
            && !number.is_empty()
            && !unsure.iter().any(|u| u == number)
        {
            unsure.push(number.to_string());
        }
    }
    if !unsure.is_empty() {
        out.push_str(&format!("; {UNSURE_NUMBERS} {}", unsure.join(", ")));
    }
    Some(out)
}

/// A row's words joined by single spaces.
fn plain(row: &Line) -> String {
    row.words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// "7", "Page 7", "page 7 of 12", "- 7 -": the page's number, not its text.
fn is_page_number(text: &str) -> bool {
    let lower = text.to_lowercase();
    let rest = lower.trim_matches(|c: char| c == '-' || c == '—' || c.is_whitespace());
    let rest = rest.strip_prefix("page").unwrap_or(rest).trim();
    let mut parts = rest
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|p| !p.is_empty() && *p != "of");
    parts
        .next()
        .is_some_and(|p| p.chars().all(|c| c.is_ascii_digit()))
        && parts.all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && rest.len() <= 16
}

/// A date OCR read without its spaces ("8Jan2005", "14Apr1990"), written with them.
fn spaced_date(word: &str) -> Option<String> {
    static GLUED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^(\d{1,2}) ?((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}) ?((?:1[6-9]|20)\d\d)([.,;]?)$",
        )
        .expect("glued date pattern")
    });
    let c = GLUED.captures(word)?;
    (!word.contains(' ')).then(|| format!("{} {} {}{}", &c[1], &c[2], &c[3], &c[4]))
}

/// The median width of a letter of `words` of three letters or more (0 when there are none).
fn letter_width<'a>(words: impl Iterator<Item = &'a OcrWord>) -> f32 {
    median(
        words
            .filter(|w| w.text.chars().count() >= 3)
            .map(|w| w.width as f32 / w.text.chars().count() as f32)
            .collect(),
    )
}

/// The median of `values` (0 when there are none).
fn median(mut values: Vec<f32>) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f32::total_cmp);
    values[values.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str, left: u32, top: u32, height: u32, line: u32) -> OcrWord {
        OcrWord {
            text: text.into(),
            left,
            top,
            // Type set larger is wider too.
            width: height / 2 * text.chars().count() as u32,
            height,
            confidence: if text == "4,521" { 41.0 } else { 95.0 },
            line: (line, 1, 1),
        }
    }

    /// A word of a PDF's text layer at `left` points, its baseline `baseline` points down the
    /// page, set at `size` points (boxes as `pdf_spans` draws them, in tenths of a point).
    fn layer_word(text: &str, left: f32, baseline: f32, size: f32, line: u32) -> OcrWord {
        OcrWord {
            text: text.into(),
            left: (left * 10.0) as u32,
            top: ((baseline - 0.7 * size) * 10.0) as u32,
            width: (0.5 * size * text.chars().count() as f32 * 10.0) as u32,
            height: (0.75 * size * 10.0) as u32,
            confidence: TEXT_LAYER,
            line: (0, 0, line),
        }
    }

    /// A table's lines as a text layer sets them, 12 points apart from a baseline of 100 at
    /// 10 points: each cell's words from its column's left edge, a space between them.
    fn table_words<const N: usize>(lines: &[[&str; N]], columns: [f32; N]) -> Vec<OcrWord> {
        let mut words = Vec::new();
        for (n, cells) in lines.iter().enumerate() {
            for (cell, column) in cells.iter().zip(columns) {
                let mut left = column;
                for w in cell.split_whitespace() {
                    let baseline = 100.0 + 12.0 * n as f32;
                    words.push(layer_word(w, left, baseline, 10.0, n as u32));
                    left += 5.0 * (w.chars().count() + 1) as f32;
                }
            }
        }
        words
    }

    #[test]
    fn a_text_layers_table_set_at_a_wider_pitch_than_its_prose_stays_one_table() {
        let mut words = Vec::new();
        let prose = ["The appeal raised", "money for the", "new roof."];
        for (n, line) in prose.iter().enumerate() {
            let mut left = 60.0;
            for w in line.split(' ') {
                words.push(layer_word(w, left, 100.0 + 12.5 * n as f32, 10.0, n as u32));
                left += 6.0 * w.len() as f32;
            }
        }
        // Rows 12.8 pt apart at 8 pt: more blank between them than between the prose's lines,
        // less than the paragraph's gap above the table.
        for (n, (week, bursts)) in [
            ("Week", "Bursts"),
            ("One", "12"),
            ("Two", "4,521"),
            ("Three", "7"),
        ]
        .iter()
        .enumerate()
        {
            let baseline = 150.0 + 12.8 * n as f32;
            words.push(layer_word(week, 60.0, baseline, 8.0, 10 + n as u32));
            words.push(layer_word(bursts, 200.0, baseline, 8.0, 10 + n as u32));
        }
        let mut flow = Flow::new(&ReadBudget::default());
        flow.title(Some("Water report".into()));
        lay_out(&mut flow, &words, &Rulings::default(), Some("page 1")).unwrap();
        let outline = flow.finish().unwrap();
        let kinds: Vec<_> = outline.blocks.iter().map(|b| &b.kind).collect();
        assert!(
            matches!(kinds[0], super::super::Record::Paragraph(p) if p == "The appeal raised money for the new roof."),
            "{kinds:?}"
        );
        let rows: Vec<_> = kinds
            .iter()
            .filter_map(|k| match k {
                super::super::Record::TableRow { header, cells } => {
                    Some((header[1].clone(), cells[0].clone(), cells[1].clone()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(rows.len(), 3, "{kinds:?}");
        assert_eq!(rows[1], ("Bursts".into(), "Two".into(), "4,521".into()));
        // A text layer is not read by OCR, and says so by saying nothing of it.
        assert_eq!(outline.blocks[0].place.as_deref(), Some("page 1"));
    }

    #[test]
    fn a_cell_wrapped_onto_the_next_line_by_an_office_suite_stays_in_its_row() {
        // Rows and a cell's wrapped lines at the same pitch, as LibreOffice sets a table.
        let lines: [[&str; 3]; 7] = [
            ["Concert", "Seats", "Date"],
            ["Jubilate", "49%", "27 Apr"],
            ["", "", "2024"],
            ["Young", "76%", "7 Feb 2013"],
            ["Voices", "", ""],
            ["Last Night", "85%", "1 Jul 2019"],
            ["Mass", "55%", "6 Jun 2000"],
        ];
        // A paragraph set at the same pitch just above the table.
        let mut words = Vec::new();
        let mut left = 60.0;
        for w in "The hall's new roof was paid for by the appeal.".split(' ') {
            words.push(layer_word(w, left, 88.0, 10.0, 99));
            left += 5.0 * (w.chars().count() + 1) as f32;
        }
        words.extend(table_words(&lines, [60.0, 120.0, 200.0]));
        let mut flow = Flow::new(&ReadBudget::default());
        lay_out(&mut flow, &words, &Rulings::default(), Some("page 1")).unwrap();
        let blocks = flow.finish().unwrap().blocks;
        assert!(
            matches!(&blocks[0].kind, super::super::Record::Paragraph(p) if p.starts_with("The hall's")),
            "{:?}",
            blocks[0].kind
        );
        let rows: Vec<Vec<String>> = blocks
            .into_iter()
            .filter_map(|b| match b.kind {
                super::super::Record::TableRow { cells, .. } => Some(cells),
                _ => None,
            })
            .collect();
        let firsts: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(firsts, ["Jubilate", "Young Voices", "Last Night", "Mass"]);
        assert_eq!(rows[0][2], "27 Apr 2024");
        assert_eq!(rows[1][1], "76%");
    }

    #[test]
    fn an_office_suites_wrapped_numbers_and_subtotals_stay_in_their_rows() {
        // A paragraph's last line and a caption set at the table's pitch just above it, a
        // route name and a date wrapped in half the columns, a sum broken inside the number,
        // and a subtotal under a row whose other cells are blank.
        let lines: [[&str; 4]; 11] = [
            ["The appeal raised", "", "", ""],
            ["£16,000.", "", "", ""],
            ["Buses by route", "", "", ""],
            ["Route", "Started", "Buses", "Cost"],
            ["18 Station", "1 Dec 1995", "1", "£1,230.00"],
            ["16 Retail", "24 Apr", "5", "£1,230.0"],
            ["", "", "", "0"],
            ["Park", "2011", "", ""],
            ["2 Hospital", "5 Jan 1999", "4", "£2,310.00"],
            ["Subtotal", "", "", "£9,999"],
            ["", "", "", ".00"],
        ];
        let words = table_words(&lines, [60.0, 130.0, 200.0, 260.0]);
        let mut flow = Flow::new(&ReadBudget::default());
        lay_out(&mut flow, &words, &Rulings::default(), Some("page 1")).unwrap();
        let blocks = flow.finish().unwrap().blocks;
        let rows: Vec<Vec<String>> = blocks
            .iter()
            .filter_map(|b| match &b.kind {
                super::super::Record::TableRow { cells, header }
                | super::super::Record::TotalRow { cells, header } => {
                    assert_eq!(header[0], "Route", "{blocks:?}");
                    Some(cells.clone())
                }
                _ => None,
            })
            .collect();
        let firsts: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            firsts,
            ["18 Station", "16 Retail Park", "2 Hospital", "Subtotal"],
            "{blocks:?}"
        );
        assert_eq!(rows[1][1], "24 Apr 2011");
        assert_eq!(rows[1][3], "£1,230.00");
        assert_eq!(rows[2][3], "£2,310.00");
        assert_eq!(rows[3][3], "£9,999.00");
    }

    #[test]
    fn a_header_wrapped_wider_than_its_first_line_stays_one_header() {
        let lines: [[&str; 3]; 5] = [
            ["Vessel", "Crossing", "Fare"],
            ["", "time (min)", ""],
            ["Vessel 1", "126", "£50.25"],
            ["Vessel 2", "69", "£12.00"],
            ["Vessel 3", "93", "£86.50"],
        ];
        let words = table_words(&lines, [60.0, 130.0, 220.0]);
        let mut flow = Flow::new(&ReadBudget::default());
        lay_out(&mut flow, &words, &Rulings::default(), Some("page 1")).unwrap();
        let blocks = flow.finish().unwrap().blocks;
        let headers: Vec<&std::sync::Arc<[String]>> = blocks
            .iter()
            .filter_map(|b| match &b.kind {
                super::super::Record::TableRow { header, .. } => Some(header),
                _ => None,
            })
            .collect();
        assert_eq!(headers.len(), 3, "{blocks:?}");
        assert_eq!(headers[0][1], "Crossing time (min)", "{blocks:?}");
    }

    #[test]
    fn words_are_laid_out_into_a_heading_a_label_line_and_an_aligned_table() {
        let mut words = vec![
            word("Water", 100, 100, 60, 1),
            word("report", 220, 100, 60, 1),
            word("Founded:", 100, 220, 32, 2),
            word("1994", 270, 220, 32, 2),
        ];
        // A table whose columns Tesseract read as blocks of their own.
        for (n, (week, bursts)) in [
            ("Week", "Bursts"),
            ("One", "12"),
            ("Two", "4,521"),
            ("Three", "7"),
        ]
        .iter()
        .enumerate()
        {
            let top = 320 + 45 * n as u32;
            words.push(word(week, 100, top, 32, 10 + n as u32));
            words.push(word(bursts, 600, top + 2, 32, 20 + n as u32));
        }
        words.push(word("Page", 500, 900, 32, 40));
        words.push(word("1", 590, 900, 32, 40));
        let mut flow = Flow::new(&ReadBudget::default());
        lay_out(&mut flow, &words, &Rulings::default(), Some("page 1")).unwrap();
        let outline = flow.finish().unwrap();
        assert_eq!(outline.title.as_deref(), Some("Water report"));
        let kinds: Vec<_> = outline.blocks.iter().map(|b| &b.kind).collect();
        assert!(
            kinds.iter().any(
                |k| matches!(k, super::super::Record::KeyValue { label, value }
            if label == "Founded" && value == "1994")
            ),
            "{kinds:?}"
        );
        let row = outline
            .blocks
            .iter()
            .find(|b| matches!(&b.kind, super::super::Record::TableRow { cells, .. } if cells[0] == "Two"))
            .expect("the table's row");
        assert!(
            matches!(&row.kind, super::super::Record::TableRow { header, cells }
            if header[1] == "Bursts" && cells[1] == "4,521"),
            "{row:?}"
        );
        let place = row.place.as_deref().unwrap_or_default();
        assert!(place.starts_with("page 1, read by OCR, "), "{place}");
        assert!(place.ends_with("unsure: 4,521"), "{place}");
        assert!(
            !format!("{kinds:?}").contains("Page"),
            "the page number is not text"
        );
    }

    #[test]
    fn a_date_read_without_its_spaces_gets_them_back() {
        assert_eq!(spaced_date("8Jan2005").as_deref(), Some("8 Jan 2005"));
        assert_eq!(
            spaced_date("14April1990,").as_deref(),
            Some("14 April 1990,")
        );
        assert_eq!(spaced_date("2005"), None);
        assert_eq!(spaced_date("Q4"), None);
    }

    #[test]
    fn a_kilogram_s_one_read_as_an_l_is_a_one_again() {
        let words = [
            word("Carrots", 10, 10, 20, 1),
            word("lkg", 100, 10, 20, 1),
            word("Rice", 10, 40, 20, 2),
            word("1lkg", 100, 40, 20, 2),
            word("label", 10, 70, 20, 3),
        ];
        let texts: Vec<String> = cleaned(&words).into_iter().map(|w| w.text).collect();
        assert_eq!(texts, ["Carrots", "1kg", "Rice", "1kg", "label"]);
    }

    #[test]
    fn page_numbers_are_told_from_text() {
        for number in ["7", "Page 7", "page 7 of 12", "- 7 -", "3/9"] {
            assert!(is_page_number(number), "{number}");
        }
        for text in ["Week 7", "7 boats", "Page one of the minutes"] {
            assert!(!is_page_number(text), "{text}");
        }
    }
}
