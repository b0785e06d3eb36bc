//! Issue 84's hostile files, generated, through the readers as an upload is read: nothing they
//! do takes the process down, and what a small file produces is bounded by its size.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::archive::tests::zip_of;
use super::budget::{ReadBudget, ReadRefused, MAX_CONTEXT_PART_CHARS, OUTPUT_BASE_BYTES};
use super::documents::{read, read_file, sentence_documents, snippets_of, DocumentsError};
use super::indexing::{ingest_until, Indexes};
use super::structure::guarded;
use super::Format;
use crate::sentence_store::index::Document;
use crate::snippet_index::SnippetIndex;

/// Reads `bytes` as an upload of `name` in `format` is read: its own budget for its size.
fn upload(bytes: &[u8], format: Format, name: &str) -> Result<Vec<Document>, DocumentsError> {
    read_file(bytes, format, name, &ReadBudget::for_bytes(bytes.len()))
}

fn refused_because(read: Result<Vec<Document>, DocumentsError>, says: &str) {
    match read {
        Err(DocumentsError::Refused { why, .. }) => {
            assert!(why.to_string().contains(says), "{why}")
        }
        other => panic!("expected a refusal saying {says:?}, got {other:?}"),
    }
}

#[test]
fn word_tables_nested_two_thousand_deep_are_refused_not_a_crash() {
    // 3.5 KB that overflowed a worker's stack in the Word reader (issue 84).
    let mut body = String::from("<w:p><w:r><w:t>Members: 40.</w:t></w:r></w:p>");
    body.push_str(&"<w:tbl><w:tr><w:tc>".repeat(2_000));
    body.push_str(&"<w:p/></w:tc></w:tr></w:tbl>".repeat(2_000));
    let document = format!(
        r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    let docx = zip_of(&[("word/document.xml", document.as_bytes())]);
    assert!(docx.len() < 8_000, "{}", docx.len());
    refused_because(
        upload(&docx, Format::Docx, "deep.docx"),
        "more than 300 deep",
    );
}

#[test]
fn a_table_of_contents_nested_deep_is_refused_before_the_book_is_opened() {
    // An EPUB whose navigation nests 100,000 deep overflowed the stack when the EPUB library
    // dropped it.
    let mut nav = String::from(r#"<html><body><nav epub:type="toc">"#);
    nav.push_str(&r#"<ol><li><a href="c.xhtml">x</a>"#.repeat(100_000));
    nav.push_str(&"</li></ol>".repeat(100_000));
    nav.push_str("</nav></body></html>");
    let epub = zip_of(&[
        ("mimetype", b"application/epub+zip"),
        ("OEBPS/nav.xhtml", nav.as_bytes()),
    ]);
    refused_because(
        upload(&epub, Format::Epub, "deep.epub"),
        "more than 300 deep",
    );
}

#[test]
fn a_reader_that_panics_refuses_its_file_with_a_sentence() {
    let read = guarded(Format::Pdf, || -> Result<(), ReadRefused> {
        panic!("a library's bug")
    });
    let why = read.unwrap_err().to_string();
    assert!(
        why.contains("pdf reader failed") && why.contains("a library's bug"),
        "{why}"
    );
    // What does not panic comes back as it was.
    assert_eq!(guarded(Format::Pdf, || 7), Ok(7));
}

/// The longest context a passage, snippet or sentence of `documents` carries.
fn longest_context(documents: &[Document]) -> usize {
    documents
        .iter()
        .flat_map(|d| {
            let snippets = snippets_of(d).into_iter().map(|s| s.source.len());
            let sentences = sentence_documents(d)
                .into_iter()
                .map(|s| s.source.len().max(s.entity.map_or(0, |e| e.len())));
            snippets.chain(sentences).chain([d.source.len()])
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn a_long_title_heading_or_subject_is_cut_before_it_is_repeated() {
    // A 64 KB `<title>` over 1,000 paragraphs cost 961 MB; a 256 KB heading over 4,000 lines,
    // and a 1 MB e-mail subject, gigabytes.
    let bound = 4 * (MAX_CONTEXT_PART_CHARS + 1) + 64;
    let title = "T".repeat(64 * 1024);
    let paragraphs = (1..=1_000)
        .map(|n| format!("<p>Paragraph {n} has 3 apples.</p>"))
        .collect::<String>();
    let html = format!("<html><head><title>{title}</title></head><body>{paragraphs}</body></html>");
    let read = upload(html.as_bytes(), Format::Html, "title.html").unwrap();
    assert!(
        longest_context(&read) <= bound,
        "{}",
        longest_context(&read)
    );
    assert!(read[0].source.starts_with("TTT") && read[0].source.ends_with('…'));

    let heading = "H".repeat(256 * 1024);
    let lines = (1..=4_000)
        .map(|n| format!("- item {n} costs 3 pounds\n"))
        .collect::<String>();
    let markdown = format!("# Prices\n\n## {heading}\n\n{lines}");
    let read = upload(markdown.as_bytes(), Format::Markdown, "heading.md").unwrap();
    assert!(
        longest_context(&read) <= bound,
        "{}",
        longest_context(&read)
    );

    let subject = "S".repeat(1024 * 1024);
    let body = (1..=4_000)
        .map(|n| format!("Line {n}: 5 boxes.\r\n"))
        .collect::<String>();
    let mail = format!(
        "From: Ann Hale <ann@example.org>\r\nTo: club@example.org\r\nSubject: {subject}\r\n\
         Date: Mon, 3 Jun 2024 10:00:00 +0000\r\nContent-Type: text/plain\r\n\r\n{body}"
    );
    let read = upload(mail.as_bytes(), Format::Eml, "subject.eml").unwrap();
    assert!(
        longest_context(&read) <= bound,
        "{}",
        longest_context(&read)
    );
}

#[test]
fn a_small_file_may_not_expand_past_its_budget() {
    // 10,000 copies of one chapter in 2.4 KB cost 1.07 GB: read, a file produces at most 4 MB
    // and 32 times its size. Here a CSV of 20,000 rows under budgets of 4 MB and of 1 MB.
    let rows = (1..=20_000)
        .map(|n| format!("Row {n},7,8,9\n"))
        .collect::<String>();
    let csv = format!("Name,A,B,C\n{rows}");
    let time = std::time::Duration::from_secs(600);
    let base = ReadBudget::new(time).producing_at_most(OUTPUT_BASE_BYTES);
    let kept = read(&csv, Format::Csv, "rows.csv", &base);
    assert!(kept.is_ok(), "4 MB is enough: {kept:?}");
    let small = ReadBudget::new(time).producing_at_most(1024 * 1024);
    match read(&csv, Format::Csv, "rows.csv", &small) {
        Err(DocumentsError::Refused { why, .. }) => {
            assert!(
                why.to_string().contains("expands to more than 1 MB"),
                "{why}"
            )
        }
        other => panic!("{other:?}"),
    }
    // Each upload's file gets its own: 4 MB and 32 times its size.
    assert_eq!(
        ReadBudget::for_bytes(csv.len()).max_output(),
        OUTPUT_BASE_BYTES + 32 * csv.len()
    );
}

#[test]
fn indexing_stops_within_a_step_when_asked() {
    // A delete waited over a minute for a batch of 500 large documents: the check is between
    // steps of at most 256 KB, inside a document.
    let paragraph = "The plant employs 1,200 people and ships 40 trucks a day.";
    let doc = Document {
        id: "long".into(),
        text: vec![paragraph; 40_000].join("\n\n"),
        source: "s".into(),
        entity: None,
    };
    let snippets = SnippetIndex::in_memory().unwrap();
    let indexes = Indexes {
        snippets: Some(&snippets),
        sentences: None,
    };
    let stop = AtomicBool::new(false);
    let steps = AtomicUsize::new(0);
    let stopped = ingest_until(
        &indexes,
        "plant",
        std::slice::from_ref(&doc),
        &|| stop.load(Ordering::Relaxed),
        &mut |p| {
            // Asked to stop after the second step of the one document.
            if steps.fetch_add(1, Ordering::Relaxed) == 2 {
                stop.store(true, Ordering::Relaxed);
            }
            assert_eq!(p.documents_done, 0);
        },
    );
    assert!(
        matches!(stopped, Err(DocumentsError::Stopped)),
        "{stopped:?}"
    );
    let indexed = snippets.corpus_sizes().unwrap();
    let held = indexed
        .iter()
        .find(|(name, _)| name == "plant")
        .map_or(0, |(_, n)| *n);
    assert!(
        held > 0 && held < 40_000,
        "{held} of 40,000 snippets before it stopped"
    );
}
