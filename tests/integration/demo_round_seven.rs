//! A public demo attacked a seventh time (issue 97), through a running server: a PDF page of
//! millions of operators, round six's nested forms hidden from a pattern, the same file sent
//! twice in one upload, a condition whose value is written in symbols. (The deletion during a
//! read is checked in `database.rs`, the jobs' token in `own_documents.rs` and `pages.rs`, the
//! decoy page size and TIFF frames in `tally-documents`' OCR tests; the timings against a
//! release server in `scripts/abuse-test.sh`, checks 34-40.)

use std::io::Write;

use reqwest::StatusCode;
use serde_json::Value;

use crate::support::{demo_server, pdf_of, upload, Server, ADMIN_TOKEN};

fn deflated(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// `data` deflated and padded with bytes that do not compress, so that it inflates about
/// 150-fold: under the ratio at which a stream is refused as a bomb, as the attacker padded.
fn padded(data: &[u8]) -> Vec<u8> {
    let mut packed = deflated(data);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    while packed.len() < data.len() / 150 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        packed.push(state as u8);
    }
    packed
}

fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut out = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    out.extend(data);
    out.extend(b"\nendstream");
    out
}

/// One page whose content is `operator` `times` over.
fn operators_pdf(operator: &str, times: usize) -> Vec<u8> {
    let content = padded(operator.repeat(times).as_bytes());
    pdf_of(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>".to_vec(),
        stream("/Filter /FlateDecode", &content),
    ])
}

/// A page painting form `/X` ten times a level, six deep, each form's content under
/// ASCIIHexDecode and its name spelt `/#58`.
fn hidden_forms_pdf() -> Vec<u8> {
    let paint = "q /X Do Q\n".repeat(10);
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
          /Resources << /XObject << /X 5 0 R >> >> >>"
            .to_vec(),
        stream("", paint.as_bytes()),
    ];
    let levels = 6;
    for level in 1..=levels {
        let id = 4 + level;
        let (resources, content) = if level < levels {
            (format!("/XObject << /#58 {} 0 R >>", id + 1), paint.clone())
        } else {
            (
                format!("/Font << /F1 {} 0 R >>", id + 1),
                "BT /F1 12 Tf 72 720 Td (Total 5 members) Tj ET".to_string(),
            )
        };
        let hex: String = content
            .bytes()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
            + ">";
        objects.push(stream(
            &format!(
                "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Filter /ASCIIHexDecode \
                 /Resources << {resources} >>"
            ),
            hex.as_bytes(),
        ));
    }
    objects.push(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec());
    pdf_of(&objects)
}

async fn ask(server: &Server, question: &str, corpus: &str) -> Value {
    let url = reqwest::Url::parse_with_params(
        &server.url("/api/count"),
        &[("q", question), ("corpus", corpus)],
    )
    .unwrap();
    let response = reqwest::get(url).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json::<Value>().await.unwrap()["answer"].clone()
}

/// Items 1 and 2: refused with a sentence in seconds, the server alive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_pages_that_would_fill_memory_are_refused_in_seconds() {
    let server = demo_server("round-seven-pdfs", &["--admin-token", ADMIN_TOKEN]).await;
    let files = [
        ("q.pdf", operators_pdf("q ", 3_000_000), "paints more than"),
        (
            "qQ.pdf",
            operators_pdf("q Q ", 1_500_000),
            "paints more than",
        ),
        ("hidden.pdf", hidden_forms_pdf(), "paints more than"),
    ];
    for (name, bytes, says) in files {
        assert!(bytes.len() < 200_000, "{name}: {} bytes", bytes.len());
        let (status, body, seconds) = upload(&server, "hostile", name, bytes).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(name) && error.contains(says),
            "{name}: {body}"
        );
        assert!(seconds < 30.0, "{name}: {seconds} s");
    }
    let health = reqwest::get(server.url("/api/health")).await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
}

/// Item 4's duplicates and item 6's conditions: a file sent twice is read once, and a value
/// written in symbols is a condition on its column (it was every row: 10, at 0.91-0.99).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_sent_twice_is_read_once_and_symbols_are_conditions() {
    let server = demo_server("round-seven-csv", &["--admin-token", ADMIN_TOKEN]).await;
    let csv = "Club,Region,Members\nAlder,north,10\nBirch,north,12\nCedar,back\\slash,7\n\
               Dogwood,back slash,9\nElm,*,4\nFir,'',6\nGorse,south,3\nHazel,south,5\n\
               Ivy,north,8\nJuniper,south,2\n";
    let form = reqwest::multipart::Form::new()
        .text("corpus", "clubs")
        .part(
            "file",
            reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("clubs.csv"),
        )
        .part(
            "file",
            reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("copy.csv"),
        );
    let response = reqwest::Client::new()
        .post(server.url("/api/admin/corpora"))
        .bearer_auth(ADMIN_TOKEN)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    let outcomes = job["outcomes"].as_array().unwrap();
    assert_eq!(outcomes[0]["documents"], 1, "{job}");
    assert_eq!(outcomes[1]["documents"], 0, "{job}");
    assert!(
        outcomes[1]["refused"]
            .as_str()
            .unwrap()
            .contains("the same file as clubs.csv"),
        "{job}"
    );
    let id = job["id"].as_str().unwrap();
    let events = crate::support::admin_page_text(
        server.url(&format!("/api/admin/jobs/{id}/events")),
        ADMIN_TOKEN,
    )
    .await;
    assert!(events.contains("event: done"), "{events}");
    for (question, count) in [
        ("how many clubs are in `back\\slash`", 1.0),
        ("how many clubs are in back slash", 1.0),
        ("how many clubs are in `*`", 1.0),
        ("how many clubs are in ''", 1.0),
        ("how many clubs are in north", 3.0),
    ] {
        let answer = ask(&server, question, "clubs").await;
        assert_eq!(answer["count"], count, "{question}: {answer}");
    }
}
