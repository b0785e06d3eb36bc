//! Scanned pages with known truth (issue 89): each generated document is printed as a person
//! prints a page (its HTML, in Chromium, tables ruled on even seeds and unruled on odd ones),
//! rendered to pixels by poppler and spoilt as a scanner or a phone spoils a page (a slight
//! rotation and speckle at 300 and 200 dpi; a photo with perspective, uneven light and JPEG),
//! then read back by Tally's own readers: a scanned PDF (image pages only) for the scans, one
//! JPEG per page for the photo. Scored as the born-digital formats are ([`score`]), and for
//! OCR's own part: the printed words and numbers found in what was read.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use image::GrayImage;
use tally_docgen::content;
use tally_docgen::render::Format;
use tally_docgen::scan::{pixels, print, run, scanned_pdf, spoil, Condition};
use tally_documents::corpus::structure::Passage;

use super::score::{score, FileScore, Tally};

/// The figures of one condition.
#[derive(Debug, Default, serde::Serialize)]
pub struct ConditionScore {
    /// The printed words found in what was read (each occurrence once).
    pub words: Tally,
    /// The printed numbers (words with a digit) found in what was read.
    pub numbers: Tally,
    /// The reading's scores, as the born-digital formats are scored, for ruled tables.
    pub ruled: FileScore,
    /// The same, for unruled tables.
    pub unruled: FileScore,
    /// Pages read and the seconds reading them took.
    pub pages: usize,
    /// Seconds spent reading (OCR and layout), all pages.
    pub seconds: f64,
    /// Files refused, with the reader's sentence.
    pub refused: Vec<(String, String)>,
}

/// Prints, spoils, reads and scores the documents of `seeds` under `conditions`; `Err` with a
/// sentence when a tool the printing needs (Chromium, poppler) is missing.
pub fn evaluate(
    seeds: impl Iterator<Item = u64>,
    conditions: &[Condition],
) -> anyhow::Result<Vec<(Condition, ConditionScore)>> {
    let dir = tempfile::tempdir()?;
    let mut scores: Vec<(Condition, ConditionScore)> = conditions
        .iter()
        .map(|c| (*c, ConditionScore::default()))
        .collect();
    for seed in seeds {
        let document = content::document(seed);
        let ruled = seed % 2 == 0;
        let pdf = print(&document, ruled, dir.path())?;
        keep(
            &format!("{}-printed.pdf", document.name),
            &std::fs::read(&pdf)?,
        );
        let truth = words_of(&run("pdftotext", &[pdf.as_os_str(), "-".as_ref()])?);
        for (condition, total) in &mut scores {
            let pages = pixels(&pdf, condition.dpi(), dir.path())?;
            let spoilt: Vec<GrayImage> = pages
                .iter()
                .enumerate()
                .map(|(n, page)| spoil(page, *condition, seed * 31 + n as u64))
                .collect();
            let started = Instant::now();
            let read = read_spoilt(&document.name, &spoilt, *condition);
            total.seconds += started.elapsed().as_secs_f64();
            total.pages += spoilt.len();
            let passages = match read {
                Ok(passages) => passages,
                Err(why) => {
                    total
                        .refused
                        .push((document.name.clone(), format!("{why:#}")));
                    Vec::new()
                }
            };
            let read_words = words_of(
                &passages
                    .iter()
                    .map(|p| format!("{} {}", p.context, p.text))
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
            if std::env::var_os("TALLY_READING_MISSES").is_some() {
                eprintln!("== {} ({})", document.name, condition.name());
            }
            let (words, numbers) = found(&truth, &read_words);
            total.words.merge(words);
            total.numbers.merge(numbers);
            let file = score(&document, Format::Html, &passages);
            if ruled {
                &mut total.ruled
            } else {
                &mut total.unruled
            }
            .merge(&file);
        }
    }
    Ok(scores)
}

/// What Tally reads from the spoilt pages of the file `name`: a scanned PDF of them, or each
/// page's photo.
pub(super) fn read_spoilt(
    name: &str,
    pages: &[GrayImage],
    condition: Condition,
) -> anyhow::Result<Vec<Passage>> {
    if condition == Condition::Photo {
        let mut passages = Vec::new();
        for (n, page) in pages.iter().enumerate() {
            let mut jpeg = Vec::new();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 80).encode_image(page)?;
            let name = format!("{name}-page-{}.jpg", n + 1);
            keep(&name, &jpeg);
            passages.extend(super::read_back(&jpeg, Format::Html, &name)?);
        }
        return Ok(passages);
    }
    let pdf = scanned_pdf(pages, condition.dpi())?;
    keep(&format!("{name}-{}.pdf", condition.dpi()), &pdf);
    super::read_back(&pdf, Format::Html, &format!("{name}.pdf")).map_err(anyhow::Error::from)
}

/// Keeps a spoilt file in `$TALLY_SCANS_KEEP`, when it names a folder, to look at.
pub(super) fn keep(name: &str, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("TALLY_SCANS_KEEP") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(Path::new(&dir).join(name), bytes);
    }
}

/// The words of a text as a person would check them: split at white space, quotes and
/// brackets and trailing stops dropped, case kept; `·`, `•` and other marks alone dropped;
/// soft hyphens dropped and dashes written as hyphens (a range reads the same with either).
fn words_of(text: &str) -> Vec<String> {
    let text = text.replace('\u{AD}', "").replace(['–', '—', '‑'], "-");
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| {
                matches!(
                    c,
                    '.' | ','
                        | ';'
                        | ':'
                        | '('
                        | ')'
                        | '['
                        | ']'
                        | '"'
                        | '\''
                        | '“'
                        | '”'
                        | '‘'
                        | '’'
                        | '›'
                        | '—'
                        | '·'
                )
            })
            .to_string()
        })
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .collect()
}

/// The printed words found in what was read, each occurrence at most as often as it was read;
/// and the same for the words with a digit.
fn found(truth: &[String], read: &[String]) -> (Tally, Tally) {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for word in read {
        *left.entry(word.as_str()).or_default() += 1;
    }
    let (mut words, mut numbers) = (Tally::default(), Tally::default());
    for word in truth {
        let hit = match left.get_mut(word.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        };
        if !hit && std::env::var_os("TALLY_READING_MISSES").is_some() {
            eprintln!("word not read: {word:?}");
        }
        let one = Tally {
            right: usize::from(hit),
            total: 1,
        };
        words.merge(one);
        if word.chars().any(|c| c.is_ascii_digit()) {
            numbers.merge(one);
        }
    }
    (words, numbers)
}

/// The figures as `tally eval reading --scans` prints them.
pub fn print_scores(scores: &[(Condition, ConditionScore)]) {
    let percent = |t: &Tally| t.percent().map_or("–".to_string(), |p| format!("{p:.1}"));
    println!(
        "{:<13} {:>7} {:>8} {:>12} {:>14} {:>8} {:>7} {:>7} {:>6} {:>8}",
        "condition",
        "words",
        "numbers",
        "cells ruled",
        "cells unruled",
        "headers",
        "k-v",
        "lists",
        "pages",
        "s/page"
    );
    for (condition, s) in scores {
        let mut both = FileScore::default();
        both.merge(&s.ruled);
        both.merge(&s.unruled);
        let cells = |f: &FileScore| f.cells.get("all").copied().unwrap_or_default();
        println!(
            "{:<13} {:>7} {:>8} {:>12} {:>14} {:>8} {:>7} {:>7} {:>6} {:>8.2}",
            condition.name(),
            percent(&s.words),
            percent(&s.numbers),
            percent(&cells(&s.ruled)),
            percent(&cells(&s.unruled)),
            percent(&both.header_paths),
            percent(&both.key_values),
            percent(&both.list_items),
            s.pages,
            s.seconds / s.pages.max(1) as f64
        );
    }
    for (condition, s) in scores {
        for (name, why) in &s.refused {
            println!("refused ({}): {name}: {why}", condition.name());
        }
    }
}
