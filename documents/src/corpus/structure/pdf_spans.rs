//! A PDF page's text layer as positioned words, so that it is laid out as a scanned page's
//! words are (`scanned::lay_out`): lines at their baselines, groups at the blank space between
//! them, and table rows from the columns their cells stand in. `unpdf`'s own layout analysis
//! finds few of the tables an office suite or a report writer draws without rulings (issue 85:
//! a quarter of the cells); the positions it reads them from find most (issue 100).

use std::collections::HashMap;

use unpdf::parser::backend::{PdfBackend, RawBackend};
use unpdf::parser::xycut::{xycut_partition, Block, XyCutConfig};
use unpdf::parser::{LayoutAnalyzer, TextSpan};

use crate::corpus::budget::{ReadBudget, ReadRefused};
use crate::corpus::ocr::OcrWord;

/// Each page's words, region by region in reading order.
pub(super) type PagesWords = HashMap<u32, Vec<Vec<OcrWord>>>;

/// The confidence a text layer's words carry: above any OCR's (0–100), so a block of them is
/// not said to be read by OCR.
pub(crate) const TEXT_LAYER: f32 = 101.0;
/// Positions in tenths of a point: the layout works in whole units, as an image's pixels are.
const SCALE: f32 = 10.0;
/// How far above its baseline a word's box reaches, and below it, in ems: about the box OCR
/// draws round a word (capitals and ascenders above, a little of the descenders below), so the
/// blank space between lines measures as it does on a scan.
const ABOVE_BASELINE: f32 = 0.7;
const BELOW_BASELINE: f32 = 0.05;
/// Two runs whose baselines are this many ems apart or less are on one line.
const SAME_BASELINE: f32 = 0.3;
/// A note marker ("seats³") is set at most this share of the size of the text before it.
const MARKER_SIZE: f32 = 0.85;

/// The words of each page of the PDF `bytes` whose number is in `pages`, region by region in
/// reading order (a page set in columns has a region per column), or `None` when the file
/// cannot be read this way (the caller reads it as `unpdf` lays it out). The page's running
/// header and footer, as `unpdf` finds them in its margins, are left out.
pub(super) fn pages_words(
    bytes: &[u8],
    pages: &[u32],
    budget: &ReadBudget,
) -> Result<Option<PagesWords>, ReadRefused> {
    let Ok(backend) = RawBackend::load_bytes(bytes) else {
        return Ok(None);
    };
    let analyzer = LayoutAnalyzer::new(&backend);
    let ids = backend.pages();
    let mut words = HashMap::new();
    for &page in pages {
        // Reading a page's runs again is bounded by the file's reading budget, as the first
        // reading was.
        budget.check()?;
        let Some(&id) = ids.get(&page) else {
            return Ok(None);
        };
        let crop = backend.crop_box(id);
        let Ok(mut spans) = analyzer.extract_page_spans(page) else {
            return Ok(None);
        };
        analyzer.filter_spans_for_page(&mut spans, page);
        let spans: Vec<&TextSpan> = spans
            .iter()
            .filter(|s| !s.is_rotated() && !s.text.trim().is_empty() && s.font_size > 0.0)
            .filter(|s| !is_note_marker(s, &spans))
            .collect();
        let regions = column_regions(&spans)
            .into_iter()
            .map(|region| page_words(&region, crop.ury))
            .collect();
        words.insert(page, regions);
    }
    Ok(Some(words))
}

/// The page's runs split into the regions a reader reads one after the other: each column of
/// a part of the page set in columns (found by `unpdf`'s XY-cut, which cuts only at a gutter
/// with running text on both sides), and whatever lies between such parts at full width, a
/// table among them, whole.
fn column_regions<'a>(spans: &[&'a TextSpan]) -> Vec<Vec<&'a TextSpan>> {
    let blocks: Vec<Block> = spans
        .iter()
        .map(|s| Block {
            x: s.x,
            y: s.y + ABOVE_BASELINE * s.font_size,
            width: s.width.max(0.0),
            height: (ABOVE_BASELINE + BELOW_BASELINE) * s.font_size,
        })
        .collect();
    let mut sizes: Vec<f32> = spans.iter().map(|s| s.font_size).collect();
    sizes.sort_by(f32::total_cmp);
    let size = sizes.get(sizes.len() / 2).copied().unwrap_or(10.0);
    // Only a gutter between columns of text cuts: a table's rows and columns stay whole.
    let config = XyCutConfig {
        min_x_gap: f32::MAX,
        min_y_gap: f32::MAX,
        min_gutter: (size * 0.5).max(4.0),
    };
    let segmentation = xycut_partition(&blocks, &config);
    if segmentation.column_count(&blocks) < 2 {
        return vec![spans.to_vec()];
    }
    let extent = |group: &[usize]| {
        let centres = group.iter().map(|&i| blocks[i].y - blocks[i].height / 2.0);
        centres.fold((f32::MAX, f32::MIN), |(lo, hi), c| (lo.min(c), hi.max(c)))
    };
    let extents: Vec<(f32, f32)> = segmentation.groups.iter().map(|g| extent(g)).collect();
    let beside = |n: usize| {
        let (lo, hi) = extents[n];
        extents
            .iter()
            .enumerate()
            .any(|(m, &(l, h))| m != n && l <= hi && lo <= h)
    };
    // Groups set at full width one under another are one region, as they were on the page.
    let mut regions: Vec<(bool, Vec<&TextSpan>)> = Vec::new();
    for (n, group) in segmentation.groups.iter().enumerate() {
        let members: Vec<&TextSpan> = group.iter().map(|&i| spans[i]).collect();
        let column = beside(n) && running_text(&members);
        let group_spans = group.iter().map(|&i| spans[i]);
        match regions.last_mut() {
            Some((false, region)) if !column => region.extend(group_spans),
            _ => regions.push((column, group_spans.collect())),
        }
    }
    regions.into_iter().map(|(_, region)| region).collect()
}

/// Whether runs read as running text, as a column of a page set in columns is: most of their
/// characters letters, about one run to a line (a table's row is several), and lines of
/// several words (a table's first column of names, "Branch 12", is no prose).
fn running_text(spans: &[&TextSpan]) -> bool {
    let chars: Vec<char> = spans
        .iter()
        .flat_map(|s| s.text.chars())
        .filter(|c| !c.is_whitespace())
        .collect();
    let letters = chars.iter().filter(|c| c.is_alphabetic()).count();
    let lines = line_numbers(spans)
        .into_iter()
        .collect::<std::collections::HashSet<_>>()
        .len();
    let words: usize = spans
        .iter()
        .map(|s| s.text.split_whitespace().count())
        .sum();
    letters * 10 >= chars.len() * 7
        && spans.len() * 2 <= lines * 3
        && words >= WORDS_PER_LINE_OF_PROSE * lines
}

/// The fewest words a line of running text holds on average, however narrow its column.
const WORDS_PER_LINE_OF_PROSE: usize = 3;

/// The words of one region's text runs, their boxes measured down from the page's top edge
/// `top` (in points, as the runs' baselines are measured up from the page's foot).
fn page_words(spans: &[&TextSpan], top: f32) -> Vec<OcrWord> {
    let lines = line_numbers(spans);
    let mut words = Vec::new();
    for (span, line) in spans.iter().zip(lines) {
        words.extend(span_words(span, top, line));
    }
    words
}

/// A line number for each run: runs whose baselines lie within `SAME_BASELINE` ems of each
/// other share one.
fn line_numbers(spans: &[&TextSpan]) -> Vec<u32> {
    let mut baselines: Vec<(f32, f32)> = Vec::new();
    spans
        .iter()
        .map(|span| {
            let near = baselines.iter().position(|&(y, size)| {
                (y - span.y).abs() <= SAME_BASELINE * size.max(span.font_size)
            });
            match near {
                Some(n) => n as u32,
                None => {
                    baselines.push((span.y, span.font_size));
                    (baselines.len() - 1) as u32
                }
            }
        })
        .collect()
}

/// A run's words, each given its share of the run's width by its characters.
fn span_words(span: &TextSpan, top: f32, line: u32) -> Vec<OcrWord> {
    let chars: Vec<char> = span.text.chars().collect();
    let width = if span.width > 0.0 {
        span.width
    } else {
        0.5 * span.font_size * chars.len() as f32
    };
    let per_char = width / chars.len().max(1) as f32;
    let word_top = top - span.y - ABOVE_BASELINE * span.font_size;
    let height = (ABOVE_BASELINE + BELOW_BASELINE) * span.font_size;
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    for at in 0..=chars.len() {
        let space = chars.get(at).is_none_or(|c| c.is_whitespace());
        match (start, space) {
            (None, false) => start = Some(at),
            (Some(from), true) => {
                let left = span.x + per_char * from as f32;
                words.push(OcrWord {
                    text: chars[from..at].iter().collect(),
                    left: at_scale(left),
                    top: at_scale(word_top),
                    width: at_scale(per_char * (at - from) as f32).max(1),
                    height: at_scale(height).max(1),
                    confidence: TEXT_LAYER,
                    line: (0, 0, line),
                });
                start = None;
            }
            _ => {}
        }
    }
    words
}

/// A position in points as a whole number of layout units (never below the page's edge).
fn at_scale(points: f32) -> u32 {
    (points * SCALE).round().max(0.0) as u32
}

/// Whether a run is a note marker raised after a word or number ("seats³", "£38,500¹"): one
/// to three digits set smaller than a run that ends where it starts, above that run's
/// baseline.
fn is_note_marker(span: &TextSpan, spans: &[TextSpan]) -> bool {
    let text = span.text.trim();
    if text.is_empty() || text.len() > 3 || !text.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    spans.iter().any(|before| {
        let end = before.x + before.width;
        before.font_size * MARKER_SIZE >= span.font_size
            && (span.x - end).abs() <= 0.2 * before.font_size
            && span.y > before.y + 0.1 * before.font_size
            && span.y < before.y + before.font_size
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(text: &str, x: f32, y: f32, width: f32, size: f32) -> TextSpan {
        let mut span = TextSpan::new(text.into(), x, y, size, "Helvetica".into());
        span.width = width;
        span
    }

    #[test]
    fn a_runs_words_share_its_width_and_runs_on_a_baseline_share_a_line() {
        let spans = [
            span("Route name", 72.0, 700.0, 50.0, 10.0),
            span("21.3", 300.0, 700.5, 20.0, 10.0),
            span("Next line", 72.0, 686.0, 45.0, 10.0),
        ];
        let words = page_words(&spans.iter().collect::<Vec<_>>(), 792.0);
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(texts, ["Route", "name", "21.3", "Next", "line"]);
        assert_eq!(words[0].line, words[2].line, "one baseline, one line");
        assert_ne!(words[0].line, words[3].line);
        assert_eq!(words[0].left, 720);
        assert_eq!(
            words[1].left,
            720 + 300,
            "the second word starts after six of ten chars"
        );
        assert!(
            words[3].top > words[0].top,
            "a lower baseline is further down the page"
        );
        assert!(words.iter().all(|w| w.confidence == TEXT_LAYER));
    }

    #[test]
    fn a_columns_prose_is_running_text_and_a_tables_rows_are_not() {
        let prose = [
            span("The appeal raised money for the", 56.0, 700.0, 200.0, 10.0),
            span("new roof of the village hall.", 56.0, 687.5, 190.0, 10.0),
        ];
        let rows = [
            span("Branch 29", 56.0, 700.0, 30.0, 8.0),
            span("29,795", 120.0, 700.0, 20.0, 8.0),
            span("Branch 30", 56.0, 690.0, 30.0, 8.0),
            span("23,342", 120.0, 690.0, 20.0, 8.0),
        ];
        assert!(running_text(&prose.iter().collect::<Vec<_>>()));
        assert!(!running_text(&rows.iter().collect::<Vec<_>>()));
        // A table's first column alone (XY-cut finds the gutter beside it) is no prose either.
        let names = [
            span("Branch 29", 56.0, 700.0, 30.0, 8.0),
            span("Branch 30", 56.0, 690.0, 30.0, 8.0),
            span("Branch 31", 56.0, 680.0, 30.0, 8.0),
        ];
        assert!(!running_text(&names.iter().collect::<Vec<_>>()));
    }

    #[test]
    fn a_raised_small_number_after_a_word_is_a_marker_not_a_digit_of_it() {
        let spans = vec![
            span("£38,500", 300.0, 700.0, 35.0, 10.0),
            span("1", 335.0, 704.0, 3.0, 6.0),
            span("12", 400.0, 700.0, 10.0, 10.0),
        ];
        let kept: Vec<&str> = spans
            .iter()
            .filter(|s| !is_note_marker(s, &spans))
            .map(|s| s.text.as_str())
            .collect();
        assert_eq!(kept, ["£38,500", "12"]);
    }
}
