//! The crop of the scanned page a piece of evidence was read from (issue 100), shown beside
//! the line as read: what a person checks a number OCR read against. The server keeps it from
//! the reading and gives it by what the evidence shows (`GET /api/crop?source=…&text=…`).

use leptos::prelude::*;
use tally_types::documents::READ_BY_OCR;
use tally_types::request::encode;

/// The address of the crop beside the evidence `text` read in `source` (a snippet's source, an
/// observation's context, a row's place); `None` for evidence OCR did not read.
pub fn crop_address(source: &str, text: &str) -> Option<String> {
    source
        .contains(READ_BY_OCR)
        .then(|| format!("/api/crop?source={}&text={}", encode(source), encode(text)))
}

/// The crop beside evidence read by OCR; nothing for other evidence.
#[component]
pub fn ScanCrop(
    /// Where the evidence was read: a snippet's source, an observation's context.
    source: String,
    /// What the evidence says.
    text: String,
) -> impl IntoView {
    crop_address(&source, &text).map(|address| {
        view! {
            <figure class="scan-crop">
                <img src=address alt="The lines of the scanned page this was read from" loading="lazy"/>
                <figcaption class="muted small">"As scanned: check the number against the page"</figcaption>
            </figure>
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_evidence_read_by_ocr_has_a_crop_and_its_address_is_escaped() {
        assert_eq!(crop_address("Deli · page 1", "Milk: £1.10"), None);
        let address = crop_address(
            "Deli › Items · page 1, read by OCR, 91% sure",
            "Milk & tea: £1.10",
        )
        .unwrap();
        assert_eq!(
            address,
            "/api/crop?source=Deli+%E2%80%BA+Items+%C2%B7+page+1%2C+read+by+OCR%2C+91%25+sure&text=Milk+%26+tea%3A+%C2%A31.10"
        );
    }
}
