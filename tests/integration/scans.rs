//! Scanned pages and photos of pages (issue 89): a scanned PDF (pages that are images, no text
//! layer) and a phone's photo of a notice (`tests/fixtures/scans`, made from the HTML beside
//! them) uploaded through the web API and asked about, a count and a value from each, with the
//! page and "read by OCR" in the evidence. Hostile images and PDFs (an image claiming 100,000 ×
//! 100,000 pixels, a PDF of 2,000 image pages) are refused with a sentence, nothing is stored,
//! and the server keeps answering.

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;

use crate::own_documents::{json, read_count, upload_and_wait, TOKEN};
use crate::support::demo_server;

macro_rules! scan {
    ($name:literal) => {
        Part::bytes(include_bytes!(concat!("../fixtures/scans/", $name)).to_vec()).file_name($name)
    };
}

/// The sources of a count answer's evidence: its snippets' and its aggregation rows' places.
fn count_evidence(answer: &Value) -> String {
    let snippets = answer["snippets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["source"].as_str());
    let rows = answer["aggregation"]["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["place"].as_str());
    snippets.chain(rows).collect::<Vec<_>>().join(" | ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scanned_pdf_and_a_photo_are_read_by_ocr_and_answered_with_the_page() {
    let server = demo_server("scans", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "scans")
        .part("file", scan!("hollowmere-bowls-club.pdf"))
        .part("file", scan!("brackenfold-village-shop.jpg"));
    upload_and_wait(&client, &server, form).await;
    let get = |path: String| {
        let client = client.clone();
        let url = server.url(&path);
        async move {
            let (status, body) = json(client.get(url).send().await.unwrap()).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            body
        }
    };
    let query = |question: &str| question.replace(' ', "+");

    for (question, count, place) in [
        (
            "how many rinks does hollowmere bowls club have",
            6.0,
            "page 1, read by OCR",
        ),
        (
            "how many volunteers run brackenfold village shop",
            23.0,
            "page 1, read by OCR",
        ),
    ] {
        let answer =
            get(format!("/api/count?q={}&corpus=scans", query(question))).await["answer"].clone();
        assert_eq!(read_count(&answer), Some(count), "{question}: {answer}");
        let evidence = count_evidence(&answer);
        assert!(evidence.contains(place), "{question}: {evidence}");
        assert!(evidence.contains("% sure"), "{question}: {evidence}");
    }

    for (question, value, place) in [
        (
            "how long is the green at hollowmere bowls club",
            "38 metres",
            "page 1, read by OCR",
        ),
        (
            "what did the new room at brackenfold village shop cost to fit",
            "£4,300",
            "page 1, read by OCR",
        ),
    ] {
        let answer = get(format!("/api/value?q={}", query(question))).await;
        assert_eq!(answer["representative"], value, "{question}: {answer}");
        let contexts: Vec<&str> = answer["observations"]
            .as_array()
            .map(|o| o.iter().filter_map(|o| o["context"].as_str()).collect())
            .unwrap_or_default();
        assert!(
            contexts.iter().any(|c| c.contains(place)),
            "{question}: {contexts:?}"
        );
        // The observation the value rests on shows the lines of the page it was read from.
        let first = &answer["observations"][0];
        let (context, text) = (first["context"].as_str(), first["text"].as_str());
        let (status, size) = crop(&client, &server, context.unwrap(), text.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{question}: {first}");
        let (width, height) = size.unwrap();
        assert!(
            height < 400 && width > height,
            "{question}: {width} × {height}"
        );
    }

    // Each count's snippets read by OCR have their crop: a line or a few, wider than tall.
    let answer = get(format!(
        "/api/count?q={}&corpus=scans",
        query("how many rinks does hollowmere bowls club have")
    ))
    .await["answer"]
        .clone();
    let scanned = scanned_snippets(&answer);
    assert!(!scanned.is_empty(), "{answer}");
    for (source, text) in scanned {
        let (status, size) = crop(&client, &server, source, text).await;
        assert_eq!(status, StatusCode::OK, "{source}: {text}");
        let (width, height) = size.unwrap();
        assert!(height < 400 && width > height, "{text}: {width} × {height}");
    }

    // The answer page shows the crop beside the evidence, by the address the API answers.
    let page = crate::support::page_text(server.url(&format!(
        "/?q={}&mode=value&corpus=scans",
        query("how long is the green at hollowmere bowls club")
    )))
    .await;
    assert!(page.contains("class=\"scan-crop\""), "{page}");
    assert!(page.contains("src=\"/api/crop?source="), "{page}");

    // Evidence no scan holds has none, said in a sentence; a question without its text is a 400.
    let (status, _) = crop(&client, &server, "Elsewhere · page 1", "Rinks: 6").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let response = client
        .get(server.url("/api/crop?source=x"))
        .send()
        .await
        .unwrap();
    let (status, body) = json(response).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().contains("`text`"), "{body}");
}

/// The source and text of each of a count answer's snippets read by OCR.
pub(crate) fn scanned_snippets(answer: &Value) -> Vec<(&str, &str)> {
    answer["snippets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| Some((s["source"].as_str()?, s["text"].as_str()?)))
        .filter(|(source, _)| source.contains("read by OCR"))
        .collect()
}

/// The crop beside the evidence `text` read in `source`, as the page asks for it: the status,
/// and the PNG's width and height when there is one (an `image/png` body with a PNG's
/// signature).
pub(crate) async fn crop(
    client: &reqwest::Client,
    server: &crate::support::Server,
    source: &str,
    text: &str,
) -> (StatusCode, Option<(u32, u32)>) {
    let response = client
        .get(server.url("/api/crop"))
        .query(&[("source", source), ("text", text)])
        .send()
        .await
        .unwrap();
    let status = response.status();
    let png = response
        .headers()
        .get("content-type")
        .is_some_and(|t| t == "image/png");
    let bytes = response.bytes().await.unwrap();
    // A PNG's signature, then its header's width and height.
    let size = (png && bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 24).then(|| {
        let at =
            |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        (at(16), at(20))
    });
    (status, size)
}

/// A PNG whose header claims `width` × `height` pixels, with no pixel data after it.
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend(width.to_be_bytes());
    png.extend(height.to_be_bytes());
    png.extend([8, 0, 0, 0, 0, 0, 0, 0, 0]);
    png
}

/// What each page of [`pdf_of_image_pages`] draws: its image over the whole page.
const DRAW: &str = "q 595 0 0 842 0 0 cm /Im1 Do Q";

/// A PDF of `pages` pages, each drawing one 1 × 1 grey image and no text: scanned pages.
fn pdf_of_image_pages(pages: usize) -> Vec<u8> {
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        String::new(),
        "<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray \
         /BitsPerComponent 8 /Length 1 >>\nstream\n\u{7f}\nendstream"
            .to_string(),
        format!("<< /Length {} >>\nstream\n{DRAW}\nendstream", DRAW.len()),
    ];
    let mut kids = Vec::new();
    for _ in 0..pages {
        objects.push(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R \
             /Resources << /XObject << /Im1 3 0 R >> >> >>"
                .into(),
        );
        kids.push(format!("{} 0 R", objects.len()));
    }
    objects[1] = format!(
        "<< /Type /Pages /Kids [{}] /Count {pages} >>",
        kids.join(" ")
    );
    crate::support::pdf_of(&objects)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_images_and_scans_are_refused_with_a_sentence_and_nothing_is_stored() {
    let server = demo_server("hostile-scans", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let hostile: Vec<(&str, Vec<u8>, &[&str])> = vec![
        (
            "huge.png",
            png_claiming(100_000, 100_000),
            &["100000 × 100000 pixels"],
        ),
        (
            "many.pdf",
            pdf_of_image_pages(400),
            &["400 pages without text"],
        ),
        // 2,000 pages: refused by their count, or by the time their parse takes in a debug
        // build on a loaded machine; either way before any page is read by OCR.
        (
            "thousands.pdf",
            pdf_of_image_pages(2_000),
            &[
                "2000 pages without text",
                "took longer than its size allows",
            ],
        ),
        (
            "broken.jpg",
            vec![0xff, 0xd8, 0xff, 0xe0, 0, 0x10],
            &["damaged"],
        ),
    ];
    for (name, bytes, whys) in hostile {
        let form = Form::new()
            .text("corpus", "hostile")
            .part("file", Part::bytes(bytes).file_name(name));
        let response = client
            .post(server.url("/api/admin/corpora"))
            .bearer_auth(TOKEN)
            .multipart(form)
            .send()
            .await
            .unwrap();
        let (status, body) = json(response).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(name) && whys.iter().any(|why| error.contains(why)),
            "{name}: {error}"
        );
    }
    let (status, corpora) = json(
        client
            .get(server.url("/api/admin/corpora"))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(!corpora.to_string().contains("hostile"), "{corpora}");
    let (status, _) = json(
        client
            .get(server.url("/api/count?q=how+many+moons+does+jupiter+have"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}
