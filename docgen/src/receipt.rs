//! Till receipts with known truth (issue 100): a shop's narrow slip in a monospace font, each
//! item's price right-aligned far from its name, a quantity bought several times on a second
//! line under its item ("3 x £0.85"), the total written twice (subtotal and total) beside the
//! payment, the number of items and a VAT number full of digits. Printed by Chromium on a
//! roll's width and spoilt as a scan or a phone's photo ([`crate::scan`]); the lab scores
//! whether each price is read beside its item. The same seed draws the same receipt.

use std::path::{Path, PathBuf};

use image::{GrayImage, Luma};
use tally_text::random::SplitMix64 as Random;

use crate::scan::{print_html, spoil, Condition};
use crate::DocgenError;

/// One line bought: its name, how many and the price of one (in pence).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ReceiptItem {
    /// The item's name as printed.
    pub name: String,
    /// How many were bought (1 unless a second line says "3 x £0.85").
    pub quantity: u32,
    /// The price of one, in pence.
    pub unit_pence: i64,
}

impl ReceiptItem {
    /// The line's price, in pence: the quantity times the price of one.
    pub fn pence(&self) -> i64 {
        self.unit_pence * i64::from(self.quantity)
    }
}

/// A receipt and its truth.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Receipt {
    /// The file name it is written under (`receipt-SEED`).
    pub name: String,
    /// The shop's name, the slip's first line.
    pub shop: String,
    /// The lines bought, in order.
    pub items: Vec<ReceiptItem>,
    /// "CARD" or "CASH".
    pub paid_by: &'static str,
    /// The shop's VAT number ("GB 284 4471 22").
    pub vat_number: String,
    /// The date and time printed ("04/11/2025 14:32").
    pub when: String,
}

impl Receipt {
    /// The total, in pence.
    pub fn total_pence(&self) -> i64 {
        self.items.iter().map(ReceiptItem::pence).sum()
    }

    /// The number of items bought (the quantities summed), as the slip's "ITEMS" line says.
    pub fn item_count(&self) -> u32 {
        self.items.iter().map(|i| i.quantity).sum()
    }
}

/// Pence as a receipt prints them: 1234 → "£12.34".
pub fn pounds(pence: i64) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

const SHOPS: &[(&str, &str)] = &[
    ("HARBOUR STORES", "12 Quay Street, Elmouth"),
    ("FENWICK FOOD & WINE", "3 Fenwick Green"),
    ("MILL LANE MARKET", "41 Mill Lane, Ashby"),
    ("CORNER PANTRY", "88 Northgate"),
    ("KILN HILL CO-OP", "2 Kiln Hill Parade"),
];

const GOODS: &[&str] = &[
    "Semi skimmed milk 2L",
    "Sourdough loaf",
    "Bananas loose",
    "Free range eggs x6",
    "Cheddar mature 400g",
    "Greek yoghurt",
    "Basmati rice 1kg",
    "Tinned tomatoes",
    "Penne pasta 500g",
    "Olive oil 500ml",
    "Ground coffee",
    "Tea bags x80",
    "Orange juice 1L",
    "Butter salted 250g",
    "Chicken thighs",
    "Broccoli",
    "Carrots 1kg",
    "Red onions",
    "Washing up liquid",
    "Kitchen roll x2",
    "Dark chocolate",
    "Porridge oats",
    "Apples Gala x6",
    "Baked beans",
    "Sparkling water",
    "Hummus",
    "Toothpaste",
    "Frozen peas 900g",
];

/// Characters across the slip (an 80 mm roll prints 42 in its usual font).
const WIDTH: usize = 42;

/// Draws the receipt of `seed`.
pub fn receipt(seed: u64) -> Receipt {
    let mut random = Random::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EC);
    let (shop, _) = SHOPS[random.below(SHOPS.len())];
    let mut goods: Vec<&str> = GOODS.to_vec();
    random.shuffle(&mut goods);
    let lines = 6 + random.below(9);
    let items = goods
        .iter()
        .take(lines)
        .map(|name| {
            let quantity = if random.unit() < 0.25 {
                2 + random.below(3) as u32
            } else {
                1
            };
            ReceiptItem {
                name: (*name).to_string(),
                quantity,
                unit_pence: 35 + random.below(460) as i64,
            }
        })
        .collect();
    Receipt {
        name: format!("receipt-{seed}"),
        shop: shop.to_string(),
        items,
        paid_by: if random.unit() < 0.7 { "CARD" } else { "CASH" },
        vat_number: format!(
            "GB {:03} {:04} {:02}",
            100 + random.below(900),
            random.below(10_000),
            random.below(100)
        ),
        when: format!(
            "{:02}/{:02}/2025 {:02}:{:02}",
            1 + random.below(28),
            1 + random.below(12),
            8 + random.below(12),
            random.below(60)
        ),
    }
}

/// The slip's lines as the till prints them, each at most [`WIDTH`] characters.
pub fn lines(receipt: &Receipt) -> Vec<String> {
    let address = SHOPS
        .iter()
        .find(|(shop, _)| *shop == receipt.shop)
        .map_or("", |(_, address)| *address);
    let centred = |text: &str| format!("{:^WIDTH$}", text).trim_end().to_string();
    let apart = |left: &str, right: &str| {
        let gap = WIDTH.saturating_sub(left.chars().count() + right.chars().count());
        format!("{left}{}{right}", " ".repeat(gap.max(2)))
    };
    let rule = "-".repeat(WIDTH);
    let mut out = vec![
        centred(&receipt.shop),
        centred(address),
        centred(&format!("VAT No. {}", receipt.vat_number)),
        String::new(),
        apart(&receipt.when, "Till 3"),
        rule.clone(),
    ];
    for item in &receipt.items {
        out.push(apart(&item.name, &pounds(item.pence())));
        if item.quantity > 1 {
            out.push(format!("  {} x {}", item.quantity, pounds(item.unit_pence)));
        }
    }
    let total = pounds(receipt.total_pence());
    out.push(rule.clone());
    out.push(apart("SUBTOTAL", &total));
    out.push(apart("TOTAL", &total));
    out.push(apart(receipt.paid_by, &total));
    out.push(apart("CHANGE", "£0.00"));
    out.push(format!("ITEMS {}", receipt.item_count()));
    out.push(rule);
    out.push(centred("Thank you for shopping with us"));
    out
}

/// The receipt as an HTML page: its lines in a monospace font, as the till prints them.
pub fn html(receipt: &Receipt) -> String {
    let body: String = lines(receipt)
        .iter()
        .map(|line| escape(line))
        .collect::<Vec<_>>()
        .join("\n");
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{}</title></head>\
         <body><pre>{body}</pre></body></html>",
        escape(&receipt.shop)
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The receipt printed to PDF on an 80 mm roll, one page as long as its lines.
pub fn print(receipt: &Receipt, dir: &Path) -> Result<PathBuf, DocgenError> {
    print_slip(&html(receipt), dir)
}

/// A receipt's HTML page (its lines in a `<pre>`) printed to PDF on an 80 mm roll, one page
/// as long as its lines.
pub fn print_slip(page: &str, dir: &Path) -> Result<PathBuf, DocgenError> {
    let height_mm = 16 + page.lines().count() * 9 / 2;
    let style = format!(
        "<style>@page{{size:80mm {height_mm}mm;margin:6mm 4mm}} body{{margin:0}} \
         pre{{font-family:'DejaVu Sans Mono',monospace;font-size:7.8pt;line-height:1.3;\
         margin:0}}</style>"
    );
    print_html(page, &style, dir)
}

/// Writes each receipt's HTML page of `files` printed on a roll and spoilt as each condition
/// spoils a receipt ([`spoil_receipt`]): `DIR/CONDITION/NAME.pdf` for a scan (an image-only
/// PDF), `NAME.jpg` for a photo. The receipts the integration tests ask about are made so.
pub fn write_receipt_scans(
    files: &[PathBuf],
    conditions: &[Condition],
    out: &Path,
) -> Result<usize, DocgenError> {
    crate::scan::write_spoilt_files(
        files,
        conditions,
        out,
        |file, work| print_slip(&std::fs::read_to_string(file)?, work),
        |page, condition, n, _| spoil_receipt(page, condition, 7 + n as u64),
    )
}

/// A printed receipt's page spoilt as `condition` spoils it, as a receipt is scanned or
/// photographed: the thermal print faded; scanned on a flatbed, the slip lies at the top left
/// of an A4 page; photographed, it lies on a darker table filling half the frame's width.
pub fn spoil_receipt(page: &GrayImage, condition: Condition, seed: u64) -> GrayImage {
    let mut random = Random::new(seed ^ 0x7EC1);
    // Thermal paper's ink is grey, not black.
    let fade = 0.55 + 0.3 * random.unit() as f32;
    let faded = GrayImage::from_fn(page.width(), page.height(), |x, y| {
        let ink = 255.0 - f32::from(page.get_pixel(x, y).0[0]);
        Luma([(255.0 - ink * fade).round() as u8])
    });
    let dpi = condition.dpi();
    let (width, height, background, at) = match condition {
        Condition::Photo => {
            let (w, h) = (faded.width() * 2, faded.height() * 5 / 4);
            let at = ((w - faded.width()) / 2, (h - faded.height()) / 2);
            (w, h, 70 + random.below(60) as u8, at)
        }
        Condition::Scan300 | Condition::Scan200 => {
            let (w, h) = (dpi * 827 / 100, dpi * 1169 / 100);
            (w, h.max(faded.height() + dpi), 255, (dpi / 2, dpi / 2))
        }
    };
    let mut canvas = GrayImage::from_pixel(width, height, Luma([background]));
    image::imageops::overlay(&mut canvas, &faded, i64::from(at.0), i64::from(at.1));
    spoil(&canvas, condition, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receipt_adds_up_and_fits_its_roll() {
        for seed in 1..40 {
            let receipt = receipt(seed);
            assert!((6..=14).contains(&receipt.items.len()));
            let lines = lines(&receipt);
            assert!(
                lines.iter().all(|l| l.chars().count() <= WIDTH),
                "{lines:?}"
            );
            let total = pounds(receipt.total_pence());
            assert_eq!(
                lines.iter().filter(|l| l.ends_with(&total)).count(),
                3,
                "the total is printed as subtotal, total and payment"
            );
            assert!(lines.contains(&format!("ITEMS {}", receipt.item_count())));
        }
        assert_eq!(pounds(1234), "£12.34");
        assert_eq!(pounds(5), "£0.05");
    }

    #[test]
    fn a_quantity_is_on_the_line_under_its_item() {
        let receipt = (1..200)
            .map(receipt)
            .find(|r| r.items.iter().any(|i| i.quantity > 1))
            .expect("a quarter of the lines are bought more than once");
        let item = receipt.items.iter().find(|i| i.quantity > 1).unwrap();
        let lines = lines(&receipt);
        let at = lines
            .iter()
            .position(|l| l.starts_with(&item.name))
            .unwrap();
        assert!(lines[at].ends_with(&pounds(item.pence())));
        assert_eq!(
            lines[at + 1],
            format!("  {} x {}", item.quantity, pounds(item.unit_pence))
        );
    }
}
