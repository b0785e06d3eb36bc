//! Documents as people keep them (issue 72): a PDF, a Word file, an Excel workbook, an
//! OpenDocument spreadsheet, a PowerPoint deck, an e-mail and an EPUB book — the collection's
//! documents converted by the generator's renderers (`tally-lab convert`) — uploaded through the web API and
//! asked about: a cell by its row and column, a list or a column counted, a stated count and a
//! value, each with its page, sheet and row, slide, e-mail or chapter in the evidence. Hostile
//! files (a ZIP bomb, a PDF of 10,000 pages, an encrypted Office file, a truncated one, a file
//! of no format Tally reads) are each refused with a sentence naming the file, nothing of them is
//! stored, and the server keeps answering.

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;

use crate::own_documents::{json, upload_and_wait, TOKEN};
use crate::support::demo_server;

macro_rules! converted {
    ($name:literal) => {
        Part::bytes(include_bytes!(concat!("../fixtures/own-documents/converted/", $name)).to_vec())
            .file_name($name)
    };
}

/// The contexts of a count answer's snippets.
fn snippet_sources(answer: &Value) -> String {
    answer["snippets"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter_map(|s| s["source"].as_str())
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_format_is_read_into_records_with_its_place_in_the_evidence() {
    let server = demo_server("formats", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "formats")
        .part("file", converted!("76-wendlecombe-valley-railway.pdf"))
        .part("file", converted!("75-pellinghurst-tennis-club.docx"))
        .part("file", converted!("73-sandrith-coast-line-stations.xlsx"))
        .part("file", converted!("74-ottery-mill-paints-prices.ods"))
        .part("file", converted!("44-maren-rye-loaf.pptx"))
        .part("file", converted!("55-quarrington-singers-trip.eml"))
        .part("file", converted!("61-stannerby-timeline.epub"));
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

    // Counts: a cell, a column's names, a spec line, a stated count, each at its place.
    for (question, count, place) in [
        (
            "how many platforms does whitlow junction have",
            3.0,
            "sheet 'Stations', row 7",
        ),
        (
            "how many stations are on the sandrith coast line",
            9.0,
            "sheet 'Stations'",
        ),
        (
            "how many members does pellinghurst lawn tennis club have",
            436.0,
            "The club at a glance",
        ),
        (
            "how many seats does the wendlecombe belle have",
            248.0,
            "page 2",
        ),
        (
            "how many ingredients are in maren's seeded rye loaf",
            10.0,
            "slide 2",
        ),
        (
            "how many pubs did stannerby have in 1871",
            14.0,
            "chapter 5",
        ),
        (
            "how many singers have signed up for the ravensholt festival",
            27.0,
            "e-mail from Imogen Trask to Quarrington Singers committee",
        ),
    ] {
        let answer =
            get(format!("/api/count?q={}&corpus=formats", query(question))).await["answer"].clone();
        assert_eq!(answer["count"], count, "{question}: {answer}");
        let sources = snippet_sources(&answer);
        assert!(sources.contains(place), "{question}: {sources}");
    }

    // Values from a table's cell, with the place of their sentence.
    for (question, value, place) in [
        (
            "how much is the adult annual fee at pellinghurst lawn tennis club",
            "£285",
            "Membership fees",
        ),
        (
            "what is the top speed of the wendlecombe belle",
            "25 mph",
            "page 2",
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
    }
}

/// A ZIP bomb: a Word file's one entry, 64 MiB of zeros deflated to 64 KB (the raw deflate
/// stream in `tests/fixtures/hostile/zeros-64mib.deflate`, written by zlib at level 9), in a ZIP
/// archive written here byte by byte.
fn zip_bomb() -> Vec<u8> {
    let mut out = Vec::new();
    let name = b"word/document.xml";
    let packed = include_bytes!("../fixtures/hostile/zeros-64mib.deflate");
    let crc: u32 = 0xb2eb_30ed;
    let size: u32 = 64 * 1024 * 1024;
    let local = |out: &mut Vec<u8>| {
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes()); // version
        out.extend(0u16.to_le_bytes()); // flags
        out.extend(8u16.to_le_bytes()); // deflate
        out.extend(0u32.to_le_bytes()); // time and date
        out.extend(crc.to_le_bytes());
        out.extend((packed.len() as u32).to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(name);
    };
    local(&mut out);
    out.extend(packed);
    let directory = out.len() as u32;
    out.extend(0x0201_4b50u32.to_le_bytes());
    out.extend(20u16.to_le_bytes());
    out.extend(20u16.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out.extend(8u16.to_le_bytes());
    out.extend(0u32.to_le_bytes());
    out.extend(crc.to_le_bytes());
    out.extend((packed.len() as u32).to_le_bytes());
    out.extend(size.to_le_bytes());
    out.extend((name.len() as u16).to_le_bytes());
    out.extend([0u8; 12]); // extra, comment, disk, attributes
    out.extend(0u32.to_le_bytes()); // local header offset
    out.extend(name);
    let directory_size = out.len() as u32 - directory;
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend(1u16.to_le_bytes());
    out.extend(1u16.to_le_bytes());
    out.extend(directory_size.to_le_bytes());
    out.extend(directory.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A ZIP archive of `entries`, deflated.
pub(crate) fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        writer.start_file(*name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// An OpenDocument sheet whose one row, repeated 100,000 times, repeats its one cell 1,000
/// times: 100 million cells in a few hundred bytes.
fn repeated_sheet() -> Vec<u8> {
    let content = r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Bomb"><table:table-row table:number-rows-repeated="100000"><table:table-cell table:number-columns-repeated="1000" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>"#;
    zip_of(&[
        (
            "mimetype",
            b"application/vnd.oasis.opendocument.spreadsheet",
        ),
        ("content.xml", content.as_bytes()),
    ])
}

/// An Excel workbook whose sheet claims the whole grid (A1:XFD1048576, 17 billion cells) and
/// writes its last cell.
fn whole_grid_sheet() -> Vec<u8> {
    let types = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#;
    let rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
    let workbook = r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Costs" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
    let workbook_rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#;
    let sheet = r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:XFD1048576"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Total</t></is></c></row><row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData></worksheet>"#;
    zip_of(&[
        ("[Content_Types].xml", types.as_bytes()),
        ("_rels/.rels", rels.as_bytes()),
        ("xl/workbook.xml", workbook.as_bytes()),
        ("xl/_rels/workbook.xml.rels", workbook_rels.as_bytes()),
        ("xl/worksheets/sheet1.xml", sheet.as_bytes()),
    ])
}

/// A PDF that claims `pages` pages (its page tree lists them; each is empty).
fn pdf_of_pages(pages: usize) -> Vec<u8> {
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        String::new(),
    ];
    let mut kids = Vec::new();
    for _ in 0..pages {
        objects.push("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>".into());
        kids.push(format!("{} 0 R", objects.len()));
    }
    objects[1] = format!(
        "<< /Type /Pages /Kids [{}] /Count {pages} >>",
        kids.join(" ")
    );
    crate::support::pdf_of(&objects)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_files_are_refused_with_a_sentence_and_nothing_is_stored() {
    let server = demo_server("hostile-formats", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let docx =
        include_bytes!("../fixtures/own-documents/converted/75-pellinghurst-tennis-club.docx");
    let mut encrypted = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    encrypted.extend([0u8; 1024]);
    let hostile: Vec<(&str, Vec<u8>, &str)> = vec![
        ("bomb.docx", zip_bomb(), "ZIP bomb"),
        ("long.pdf", pdf_of_pages(10_000), "10000 pages"),
        ("locked.xlsx", encrypted, "password"),
        ("cut.docx", docx[..docx.len() / 2].to_vec(), "damaged"),
        ("repeated.ods", repeated_sheet(), "span more than"),
        ("grid.xlsx", whole_grid_sheet(), "past column"),
        (
            "song.mp3",
            vec![0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0],
            "not a format Tally reads",
        ),
    ];
    for (name, bytes, why) in hostile {
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
            error.contains(name) && error.contains(why),
            "{name}: {error}"
        );
    }
    // Nothing of them is stored, and the server answers.
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
