//! Till receipts read by OCR (issue 100): each generated receipt ([`tally_docgen::receipt`]) is
//! printed on a roll's width, spoilt as a scan or a phone's photo, read back by Tally's own
//! readers and scored on what a person asks of a receipt: is each price read beside its item,
//! is the total read as the total, and is the number of items read.
//!
//! A price is matched to its item when one passage's record (a table row's cells, a
//! `Label: value` line, a list item, a paragraph) holds every word of the item's name and the
//! price, and no other item's whole name; a receipt is matched when every one of its prices is.

use std::time::Instant;

use image::GrayImage;
use tally_docgen::receipt::{self, pounds, Receipt};
use tally_docgen::scan::{pixels, Condition};
use tally_documents::corpus::budget::ReadBudget;
use tally_documents::corpus::ocr::OcrTools;
use tally_documents::corpus::structure::{Passage, Record};

use super::scans::{keep, read_spoilt};
use super::score::Tally;

/// The figures of one condition.
#[derive(Debug, Default, serde::Serialize)]
pub struct ReceiptScore {
    /// Receipts whose every price was read beside its item.
    pub receipts: Tally,
    /// Prices read beside their item.
    pub prices: Tally,
    /// Receipts whose total was read beside the word TOTAL.
    pub totals: Tally,
    /// Receipts whose number of items was read beside the word ITEMS.
    pub item_counts: Tally,
    /// Prices read beside their item whose passage's crop of the page shows them: read by OCR
    /// again at three times its size, the crop holds the price and the item's first word (issue
    /// 100's evidence).
    pub crops: Tally,
    /// Seconds spent reading, all receipts.
    pub seconds: f64,
    /// Receipts refused, with the reader's sentence.
    pub refused: Vec<(String, String)>,
}

/// Prints, spoils, reads and scores the receipts of `seeds` under `conditions`; `Err` with a
/// sentence when a tool the printing needs (Chromium, poppler) is missing.
pub fn evaluate(
    seeds: impl Iterator<Item = u64>,
    conditions: &[Condition],
) -> anyhow::Result<Vec<(Condition, ReceiptScore)>> {
    let dir = tempfile::tempdir()?;
    let mut scores: Vec<(Condition, ReceiptScore)> = conditions
        .iter()
        .map(|c| (*c, ReceiptScore::default()))
        .collect();
    for seed in seeds {
        let receipt = receipt::receipt(seed);
        let pdf = receipt::print(&receipt, dir.path())?;
        keep(
            &format!("{}-printed.pdf", receipt.name),
            &std::fs::read(&pdf)?,
        );
        for (condition, total) in &mut scores {
            let pages = pixels(&pdf, condition.dpi(), dir.path())?;
            let spoilt: Vec<GrayImage> = pages
                .iter()
                .enumerate()
                .map(|(n, page)| receipt::spoil_receipt(page, *condition, seed * 37 + n as u64))
                .collect();
            let started = Instant::now();
            let read = read_spoilt(&receipt.name, &spoilt, *condition);
            total.seconds += started.elapsed().as_secs_f64();
            let passages = match read {
                Ok(passages) => passages,
                Err(why) => {
                    total
                        .refused
                        .push((receipt.name.clone(), format!("{why:#}")));
                    Vec::new()
                }
            };
            score_receipt(&receipt, &passages, *condition, total);
        }
    }
    Ok(scores)
}

/// Adds one receipt's figures to `total`.
fn score_receipt(
    receipt: &Receipt,
    passages: &[Passage],
    condition: Condition,
    total: &mut ReceiptScore,
) {
    let units: Vec<(Vec<String>, &Passage)> = passages
        .iter()
        .flat_map(|p| units_of(p).into_iter().map(move |unit| (unit, p)))
        .collect();
    let misses = std::env::var_os("TALLY_READING_MISSES").is_some();
    if misses {
        eprintln!("== {} ({})", receipt.name, condition.name());
        for (unit, _) in &units {
            eprintln!("   read: {}", unit.join(" "));
        }
    }
    let names: Vec<Vec<String>> = receipt.items.iter().map(|i| tokens(&i.name)).collect();
    let mut all = true;
    for (n, item) in receipt.items.iter().enumerate() {
        let price = price_token(&pounds(item.pence()));
        let matched = units.iter().find(|(unit, _)| {
            holds_all(unit, &names[n])
                && unit.contains(&price)
                && names
                    .iter()
                    .enumerate()
                    .all(|(m, other)| m == n || !holds_all(unit, other))
        });
        if matched.is_none() && misses {
            eprintln!("   not matched: {} {price}", item.name);
        }
        if let Some((_, passage)) = matched {
            let shown = crop_shows(passage, &[&names[n][0], &price]);
            if !shown && misses {
                eprintln!("   crop does not show: {} {price}", item.name);
            }
            total.crops.add(shown);
        }
        all &= matched.is_some();
        total.prices.add(matched.is_some());
    }
    total.receipts.add(all);
    let sum = price_token(&pounds(receipt.total_pence()));
    total.totals.add(
        units
            .iter()
            .any(|(u, _)| u.first().is_some_and(|w| w == "total") && u.contains(&sum)),
    );
    let count = receipt.item_count().to_string();
    total.item_counts.add(
        units
            .iter()
            .any(|(u, _)| u.windows(2).any(|w| w[0] == "items" && w[1] == count)),
    );
}

/// Whether `passage`'s crop of the page shows `words`: the crop read by OCR holds each.
fn crop_shows(passage: &Passage, words: &[&str]) -> bool {
    let (Some(crop), Some(tools)) = (&passage.crop, OcrTools::on_this_machine()) else {
        return false;
    };
    let Ok(dir) = tempfile::tempdir() else {
        return false;
    };
    // Read at three times its size: Tesseract reads letters 30 pixels tall best, and a crop's
    // are kept about 14 (a person reads them on the page at any size).
    let Ok(image) = image::load_from_memory(crop) else {
        return false;
    };
    let image = image.to_luma8();
    let larger = image::imageops::resize(
        &image,
        image.width() * 3,
        image.height() * 3,
        image::imageops::FilterType::CatmullRom,
    );
    let path = dir.path().join("crop.png");
    if larger.save(&path).is_err() {
        return false;
    }
    let budget = ReadBudget::for_bytes(crop.len());
    let read: Vec<String> = match tools.words_of_image(&path, &budget) {
        Ok(pages) => pages
            .iter()
            .flat_map(|p| &p.words)
            .flat_map(|w| tokens(&w.text))
            .collect(),
        Err(_) => return false,
    };
    words.iter().all(|w| read.iter().any(|r| r == w))
}

/// The units of a passage a price and its item must share, each as its words: a table row's
/// cells, a `Label: value` line, each item of a list, a paragraph.
fn units_of(passage: &Passage) -> Vec<Vec<String>> {
    match passage.record.as_deref() {
        Some(Record::TableRow { cells, .. }) | Some(Record::TotalRow { cells, .. }) => {
            vec![tokens(&cells.join(" "))]
        }
        Some(Record::KeyValue { label, value }) => vec![tokens(&format!("{label} {value}"))],
        Some(Record::List { items, .. }) => items.iter().map(|i| tokens(i)).collect(),
        _ => vec![tokens(&passage.text)],
    }
}

/// A text's words, lower-cased, with the marks around them dropped (a price's pound sign with
/// them: "£2.10" → "2.10").
fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '—' | ';' | '|'))
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// A printed price as [`tokens`] writes it.
fn price_token(price: &str) -> String {
    price.trim_start_matches('£').to_string()
}

fn holds_all(unit: &[String], words: &[String]) -> bool {
    words.iter().all(|w| unit.contains(w))
}

/// The figures as `tally eval reading --receipts` prints them.
pub fn print_scores(scores: &[(Condition, ReceiptScore)]) {
    let percent = |t: &Tally| t.percent().map_or("–".to_string(), |p| format!("{p:.1}"));
    println!(
        "{:<13} {:>9} {:>19} {:>7} {:>7} {:>7} {:>11} {:>9}",
        "condition",
        "receipts",
        "all prices matched",
        "prices",
        "total",
        "items",
        "crop shows",
        "s/receipt"
    );
    for (condition, s) in scores {
        println!(
            "{:<13} {:>9} {:>19} {:>7} {:>7} {:>7} {:>11} {:>9.2}",
            condition.name(),
            s.receipts.total,
            percent(&s.receipts),
            percent(&s.prices),
            percent(&s.totals),
            percent(&s.item_counts),
            percent(&s.crops),
            s.seconds / s.receipts.total.max(1) as f64
        );
    }
    for (condition, s) in scores {
        for (name, why) in &s.refused {
            println!("refused ({}): {name}: {why}", condition.name());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn row(cells: &[&str]) -> Passage {
        Passage {
            text: cells.join("; "),
            context: String::new(),
            record: Some(Arc::new(Record::TableRow {
                header: Arc::from(vec![]),
                cells: cells.iter().map(|c| c.to_string()).collect(),
            })),
            crop: None,
        }
    }

    #[test]
    fn a_price_counts_only_beside_its_own_item() {
        let receipt = receipt::receipt(3);
        let first = &receipt.items[0];
        let second = &receipt.items[1];
        let mut score = ReceiptScore::default();
        // The first item's price on its own row; the second's in a row with the first's name.
        let passages = vec![
            row(&[&first.name, &pounds(first.pence())]),
            row(&[
                &format!("{} {}", first.name, second.name),
                &pounds(second.pence()),
            ]),
        ];
        score_receipt(&receipt, &passages, Condition::Scan300, &mut score);
        assert_eq!(score.prices.right, 1);
        assert_eq!(score.receipts.right, 0);
        assert_eq!(score.totals.right, 0);
    }
}
