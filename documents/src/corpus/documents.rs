//! Documents a person brings: plain text, JSONL and HTML files, split into snippets (for count
//! questions) and into sentences with their quantities (for value questions and quantity
//! search), ingested into both indexes under a corpus name with progress, listed and deleted by
//! corpus.

use std::sync::Arc;

use tally_types::count::ALL_CORPORA;
pub use tally_types::documents::IngestProgress;

use super::budget::{bounded_context_part, ReadBudget, ReadRefused};
use super::format::Format;
pub use super::structure::MAX_SNIPPET_CHARS;
use super::structure::{self, snippet_pieces, Outline, Record};

use crate::corpus::datasets::Snippet;
pub use crate::error::DocumentsError;
use crate::error::MAX_NAME_CHARS;
use crate::sentence_store::index::Document;

/// A corpus name: 1 to 40 lower-case letters, digits, `-` or `_`, and not `all`.
pub fn check_corpus_name(name: &str) -> Result<(), DocumentsError> {
    let fits = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !fits {
        // The name is not repeated: it is the visitor's text, of any length (issue 57).
        return Err(DocumentsError::BadCorpusName);
    }
    if name == ALL_CORPORA {
        return Err(DocumentsError::AllCorporaName);
    }
    Ok(())
}

/// The documents of a file's `bytes` in `format`; `name` (the file name) identifies them. The
/// text formats are read from UTF-8 text (see [`read`]); a PDF, an Office or OpenDocument file,
/// an e-mail or an EPUB from its bytes, by its reader, within the same `budget`.
pub fn read_file(
    bytes: &[u8],
    format: Format,
    name: &str,
    budget: &ReadBudget,
) -> Result<Vec<Document>, DocumentsError> {
    // On a thread of its own, inside `catch_unwind`: no file takes the process down (issue 84).
    structure::guarded(format, || read_file_here(bytes, format, name, budget)).unwrap_or_else(
        |why| {
            Err(DocumentsError::Refused {
                file: name.to_string(),
                why,
            })
        },
    )
}

fn read_file_here(
    bytes: &[u8],
    format: Format,
    name: &str,
    budget: &ReadBudget,
) -> Result<Vec<Document>, DocumentsError> {
    if !format.is_binary() {
        let text = super::text_encoding::decode(bytes).ok_or_else(|| DocumentsError::NotText {
            file: name.to_string(),
            format: format.name(),
        })?;
        return read(&text, format, name, budget);
    }
    let refused = |why| DocumentsError::Refused {
        file: name.to_string(),
        why,
    };
    let outline = structure::read_binary(bytes, format, budget).map_err(refused)?;
    let document = outline_document(name.into(), outline, name, budget).map_err(|e| match e {
        Refusal::Refused(why) => refused(why),
        Refusal::Other(e) => e,
    })?;
    if document.text.trim().is_empty() {
        return Err(refused(ReadRefused::Unreadable(
            "it holds no text to read".into(),
        )));
    }
    check_no_nul(std::slice::from_ref(&document), name)?;
    Ok(vec![document])
}

/// A document of `outline`, stored as its passages with their context (issue 58).
fn outline_document(
    id: String,
    outline: Outline,
    fallback_title: &str,
    budget: &ReadBudget,
) -> Result<Document, Refusal> {
    // The title is the source of every section and sentence of the document: bounded.
    let title = bounded_context_part(outline.title.as_deref().unwrap_or(fallback_title));
    let text = structure::write_passages(&structure::passages(&outline, &title));
    // Writing the passages is part of reading: still within the budget.
    budget.check()?;
    Ok(Document {
        id,
        text,
        source: title,
        entity: None,
    })
}

/// A NUL character is refused with a sentence: no text file holds one (a UTF-16 file holds
/// many), and the database cannot store it.
fn check_no_nul(documents: &[Document], name: &str) -> Result<(), DocumentsError> {
    let holds_nul = |d: &Document| {
        [&d.id, &d.text, &d.source]
            .iter()
            .any(|field| field.contains('\0'))
    };
    if documents.iter().any(holds_nul) {
        return Err(DocumentsError::HoldsNul {
            file: name.to_string(),
        });
    }
    Ok(())
}

/// The documents of a file's `text` in `format`; `name` (the file name) identifies them. A NUL
/// character is refused with a sentence: no text file holds one (a UTF-16 file holds many), and
/// the database cannot store it. Reading spends at most `budget` (see [`ReadBudget`]).
pub fn read(
    text: &str,
    format: Format,
    name: &str,
    budget: &ReadBudget,
) -> Result<Vec<Document>, DocumentsError> {
    let documents = read_format(text, format, name, budget).map_err(|e| match e {
        Refusal::Refused(why) => DocumentsError::Refused {
            file: name.to_string(),
            why,
        },
        Refusal::Other(e) => e,
    })?;
    check_no_nul(&documents, name)?;
    Ok(documents)
}

/// Why [`read_format`] stopped: the budget, or the input.
enum Refusal {
    Refused(ReadRefused),
    Other(DocumentsError),
}

impl From<ReadRefused> for Refusal {
    fn from(why: ReadRefused) -> Self {
        Refusal::Refused(why)
    }
}

impl From<DocumentsError> for Refusal {
    fn from(error: DocumentsError) -> Self {
        Refusal::Other(error)
    }
}

fn read_format(
    text: &str,
    format: Format,
    name: &str,
    budget: &ReadBudget,
) -> Result<Vec<Document>, Refusal> {
    // Parsed once into an outline, stored as its passages with their context (issue 58).
    let document = |id: String, outline: Outline, fallback_title: &str| {
        outline_document(id, outline, fallback_title, budget)
    };
    match format {
        Format::Text | Format::Markdown | Format::Csv => Ok(vec![document(
            name.into(),
            structure::outline(text, format, budget)?,
            name,
        )?]),
        Format::Html => {
            let outline = structure::html_outline(text, budget)?;
            Ok(vec![document(name.into(), outline, name)?])
        }
        Format::Jsonl => {
            #[derive(serde::Deserialize)]
            struct Line {
                text: String,
                id: Option<String>,
                title: Option<String>,
                source: Option<String>,
            }
            text.lines()
                .enumerate()
                .filter(|(_, line)| !line.trim().is_empty())
                .map(|(n, line)| {
                    let line: Line = serde_json::from_str(line).map_err(|cause| {
                        DocumentsError::NotAJsonLine {
                            file: name.to_string(),
                            line: n + 1,
                            cause,
                        }
                    })?;
                    let mut outline = structure::outline(&line.text, Format::Text, budget)?;
                    // A line's own title names it; a first short line of its text is a heading.
                    if let Some(title) = line.source.or(line.title) {
                        if let Some(first) = outline.title.replace(title) {
                            for block in &mut outline.blocks {
                                block.sections.insert(0, first.clone());
                            }
                        }
                    }
                    document(
                        line.id.unwrap_or_else(|| format!("{name}:{}", n + 1)),
                        outline,
                        name,
                    )
                })
                .collect()
        }
        binary if binary.is_binary() => Err(Refusal::Other(DocumentsError::BinaryAsText {
            file: name.to_string(),
            format: binary.name(),
        })),
        other => Err(Refusal::Other(DocumentsError::NotADocumentFormat {
            file: name.to_string(),
            format: other.name(),
        })),
    }
}

/// A document's snippets: its passages (with their context as source), long ones cut at
/// sentence ends into pieces of at most [`MAX_SNIPPET_CHARS`] (a single longer sentence stays
/// whole).
pub fn snippets_of(document: &Document) -> Vec<Snippet> {
    let mut pieces: Vec<(String, String, Option<Arc<Record>>)> = Vec::new();
    for passage in structure::passages_of(&document.text, &document.source) {
        // Each piece of a long list or row keeps the whole record.
        for piece in snippet_pieces(&passage.text) {
            pieces.push((piece, passage.context.clone(), passage.record.clone()));
        }
    }
    pieces
        .into_iter()
        .enumerate()
        .map(|(n, (text, source, record))| Snippet {
            id: format!("{}#{}", document.id, n + 1),
            text,
            source,
            answers: Vec::new(),
            record,
        })
        .collect()
}

/// A document's sentences as the sentence index holds them, one document each (ids
/// `{id}#{n}`): each filed under its context (the title, the section path and, after a pronoun,
/// the sentence before), so that value questions read "Battery: 3200 mAh" under its product.
pub fn sentence_documents(document: &Document) -> Vec<Document> {
    structure::passages_of(&document.text, &document.source)
        .iter()
        .flat_map(structure::sentences_in_context)
        .enumerate()
        .map(|(n, (text, context))| Document {
            id: format!("{}#{n}", document.id),
            text,
            source: document.source.clone(),
            entity: document.entity.clone().or(Some(context)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::html_text::html_to_text;
    use super::super::indexing::{
        corpora, delete, ingest, CorpusSize, Indexes, Sections, SECTION_BYTES,
    };
    use super::*;
    use crate::corpus::budget::READ_TIME_LIMIT;
    use crate::sentence_store::index::SentenceIndex;
    use crate::snippet_index::SnippetIndex;
    use std::time::Instant;

    #[test]
    fn formats_are_read_from_names_and_extensions() {
        assert_eq!(Format::of_document("Report.HTML"), Format::Html);
        assert_eq!(Format::of_document("notes.jsonl"), Format::Jsonl);
        assert_eq!(Format::of_document("notes.txt"), Format::Text);
        assert_eq!(Format::of_document("README"), Format::Text);
        assert_eq!(Format::parse("pdf"), Some(Format::Pdf));
        assert_eq!(Format::parse("doc"), None);
    }

    #[test]
    fn corpus_names_are_checked() {
        assert!(check_corpus_name("my-reports_2024").is_ok());
        for bad in ["", "all", "My Reports", "a/b", &"x".repeat(41)] {
            assert!(check_corpus_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn html_that_takes_too_long_to_read_is_refused_within_its_budget() {
        // Each element nested in the one before: the parser's work grows with the square.
        let depth = 200_000;
        let html = format!("{}deep{}", "<div>".repeat(depth), "</div>".repeat(depth));
        let started = Instant::now();
        let e = read(&html, Format::Html, "nested.html", &ReadBudget::default())
            .unwrap_err()
            .to_string();
        let took = started.elapsed();
        assert!(
            e.starts_with("nested.html: reading it took longer than its size allows")
                || e == "nested.html: its elements are nested more than 256 deep",
            "{e}"
        );
        // Stopped soon after the budget, not after the minutes the whole parse takes.
        assert!(took < READ_TIME_LIMIT * 2, "{took:?}");
        // A page of ordinary depth is read.
        let page = format!(
            "<div>{}</div>",
            "<p>A paragraph of 12 words.</p>".repeat(20_000)
        );
        let (_, text) = html_to_text(&page).unwrap();
        assert!(text.contains("12 words"));
    }

    /// Issue 70: the deadline covered the parse only; the layout after it took 46 s and 477 MB
    /// for 21 KB of nested tables, 430 s and 2.2 GB for `<div><p>` 2,000 deep. The tree's shape
    /// is checked before the layout, and pages within the bounds are laid out in time.
    #[test]
    fn pages_whose_layout_would_run_away_are_refused_at_once() {
        let budget = || ReadBudget::default();
        for (name, page) in [
            ("tables.html", "<b><i><table><tr><td>".repeat(1000)),
            ("divs.html", "<div><p>".repeat(2000)),
        ] {
            let started = Instant::now();
            let refused = read(&page, Format::Html, name, &budget()).unwrap_err();
            assert!(
                matches!(
                    &refused,
                    DocumentsError::Refused {
                        why: ReadRefused::TooLarge(_),
                        ..
                    }
                ),
                "{refused}"
            );
            assert!(started.elapsed() < READ_TIME_LIMIT, "{name}");
        }
        // At the bounds, read within the budget.
        let deep = format!(
            "{}<p>The hall seats 48.</p>",
            "<div>".repeat(crate::corpus::budget::MAX_HTML_DEPTH - 4)
        );
        let documents = read(&deep, Format::Html, "deep.html", &budget()).unwrap();
        assert!(documents[0].text.contains("seats 48"));
        // Tables nested in tables are laid out one after the other: six deep around 100 KB of
        // text took 104 s; now within the budget, every cell read, in reading order.
        let body = "<p>The hall seats 48.</p>".repeat(4000);
        let nested = format!(
            "{}{body}",
            "<table><tr><td>Boats</td><td>3</td></tr><tr><td>Oars</td><td>".repeat(8)
        );
        let started = Instant::now();
        let documents = read(&nested, Format::Html, "nested.html", &budget()).unwrap();
        assert!(
            started.elapsed() < READ_TIME_LIMIT,
            "{:?}",
            started.elapsed()
        );
        let text = &documents[0].text;
        assert_eq!(text.matches("Boats: 3").count(), 8);
        assert!(text.contains("seats 48"));
    }

    #[test]
    fn a_cancelled_reading_stops_with_its_reason() {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let budget = ReadBudget::default().cancelled_by(flag);
        let refused = read("<p>Seats: 48</p>", Format::Html, "a.html", &budget).unwrap_err();
        assert!(matches!(
            refused,
            DocumentsError::Refused {
                why: ReadRefused::Cancelled,
                ..
            }
        ));
    }

    #[test]
    fn html_gives_its_title_and_visible_text() {
        let html = "<html><head><title> Moons of\n Saturn </title><style>p {color: red}</style>\
            <script>var x = 1;</script></head><body><h1>Saturn</h1>\
            <p>Saturn has <b>146</b> moons &amp; rings.</p><p>Titan is the largest.</p></body></html>";
        let (title, text) = html_to_text(html).unwrap();
        assert_eq!(title.as_deref(), Some("Moons of Saturn"));
        assert!(text.contains("Saturn has 146 moons & rings."), "{text}");
        assert!(!text.contains("color") && !text.contains("var x"), "{text}");
        let docs = read(html, Format::Html, "saturn.html", &ReadBudget::default()).unwrap();
        assert_eq!(docs[0].source, "Moons of Saturn");
        // Character references in the title are read once, so the page shows "<", not "&lt;".
        let (title, _) =
            html_to_text("<title>Moons &lt; 10 km &amp; rings</title><p>x</p>").unwrap();
        assert_eq!(title.as_deref(), Some("Moons < 10 km & rings"));
        let snippets = snippets_of(&docs[0]);
        assert!(
            snippets
                .iter()
                .any(|s| s.text == "Saturn has 146 moons & rings."),
            "{snippets:?}"
        );
    }

    #[test]
    fn a_text_documents_title_line_is_its_source_and_otherwise_its_name() {
        let source = |text: &str| {
            read(text, Format::Text, "notes.txt", &ReadBudget::default()).unwrap()[0]
                .source
                .clone()
        };
        assert_eq!(
            source("Seward General Hospital\n\nThe hospital has 480 beds.\n"),
            "Seward General Hospital"
        );
        // A sentence, a line running on, a text of one line: no title.
        assert_eq!(
            source("The hospital has 480 beds.\n\nIt opened in 1950.\n"),
            "notes.txt"
        );
        assert_eq!(
            source("Seward General\nHospital has 480 beds.\n"),
            "notes.txt"
        );
        assert_eq!(source("Seward General Hospital\n"), "notes.txt");
    }

    #[test]
    fn a_nul_character_is_refused_with_a_sentence() {
        for (text, format) in [
            ("plain\0text", Format::Text),
            ("{\"text\": \"escaped \\u0000 nul\"}", Format::Jsonl),
        ] {
            let e = read(text, format, "f", &ReadBudget::default())
                .unwrap_err()
                .to_string();
            assert!(e.contains("NUL character"), "{e}");
        }
        assert!(read("plain text", Format::Text, "f", &ReadBudget::default()).is_ok());
    }

    #[test]
    fn jsonl_lines_need_text_and_say_which_line_is_wrong() {
        let docs = read(
            "{\"text\": \"One.\", \"title\": \"First\"}\n\n{\"id\": \"b\", \"text\": \"Two.\"}\n",
            Format::Jsonl,
            "f.jsonl",
            &ReadBudget::default(),
        )
        .unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(
            (docs[0].id.as_str(), docs[0].source.as_str()),
            ("f.jsonl:1", "First")
        );
        assert_eq!(
            (docs[1].id.as_str(), docs[1].source.as_str()),
            ("b", "f.jsonl")
        );
        let e = read(
            "{\"text\": 1}\n",
            Format::Jsonl,
            "f.jsonl",
            &ReadBudget::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
    }

    #[test]
    fn long_paragraphs_are_cut_at_sentence_ends() {
        let sentence = "The plant employs 1,200 people in three shifts every day of the year.";
        let long = vec![sentence; 20].join(" ");
        let doc = Document {
            id: "d".into(),
            text: format!("Short first paragraph.\n\n{long}\n"),
            source: "s".into(),
            entity: None,
        };
        let snippets = snippets_of(&doc);
        assert_eq!(snippets[0].text, "Short first paragraph.");
        assert!(snippets.len() >= 4, "{}", snippets.len());
        for s in &snippets[1..] {
            assert!(s.text.chars().count() <= MAX_SNIPPET_CHARS);
            assert!(s.text.starts_with("The plant") && s.text.ends_with("year."));
        }
        assert_eq!(snippets[1].id, "d#2");
    }

    #[test]
    fn a_long_document_is_indexed_in_sections_with_progress() {
        let paragraph = "The plant employs 1,200 people and ships 40 trucks a day.";
        let text = vec![paragraph; 10_000].join("\n\n");
        let doc = Document {
            id: "long".into(),
            text,
            source: "s".into(),
            entity: None,
        };
        let sections: Vec<Document> = Sections::of(&doc).collect();
        assert!(sections.len() >= 3, "{}", sections.len());
        assert!(sections.iter().all(|s| s.text.len() <= SECTION_BYTES));
        assert!(sections[0].text.ends_with("\n\n"), "cut between paragraphs");
        assert_eq!(sections[1].id, "long/2");
        let joined: String = sections.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(joined, doc.text, "nothing lost between sections");
        let snippets = SnippetIndex::in_memory().unwrap();
        let indexes = Indexes {
            snippets: Some(&snippets),
            sentences: None,
        };
        let mut seen = Vec::new();
        let done = ingest(&indexes, "plant", &[doc], &mut |p| seen.push(p.bytes_done)).unwrap();
        assert!(
            seen.len() >= 3 && seen.windows(2).all(|w| w[0] < w[1]),
            "{seen:?}"
        );
        assert_eq!(done.bytes_done, done.bytes);
        assert_eq!((done.documents_done, done.snippets), (1, 10_000));
    }

    #[test]
    fn a_document_on_one_line_is_indexed_in_bounded_steps() {
        // Issue 46: one line of 60 MB had all its quantities extracted in one step (6.8 GB).
        let text = (1..=20_000)
            .map(|n| format!("widget{n} weighs {n} kg"))
            .collect::<Vec<_>>()
            .join(" ");
        let doc = Document {
            id: "line".into(),
            text,
            source: "s".into(),
            entity: None,
        };
        let sections: Vec<Document> = Sections::of(&doc).collect();
        assert!(sections.len() >= 4, "{}", sections.len());
        assert!(sections.iter().all(|s| s.text.len() <= SECTION_BYTES));
        assert!(
            sections[..sections.len() - 1]
                .iter()
                .all(|s| s.text.ends_with(' ')),
            "cut at spaces, not inside a word"
        );
        let joined: String = sections.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(joined, doc.text);
        let sentences = SentenceIndex::in_memory().unwrap();
        let indexes = Indexes {
            snippets: None,
            sentences: Some(&sentences),
        };
        let mut steps = 0;
        let done = ingest(&indexes, "line", &[doc], &mut |_| steps += 1).unwrap();
        assert!(
            steps >= 3,
            "{steps} progress reports: the start and each step"
        );
        assert_eq!(done.bytes_done, done.bytes, "{done:?}");
        assert_eq!(done.documents_done, 1);
        assert!(done.quantities >= 19_000, "{done:?}");
    }

    #[test]
    fn a_document_without_sentence_ends_makes_bounded_snippets_and_sentences() {
        use crate::sentence_store::split::MAX_SENTENCE_BYTES;
        // A table dumped as text: numbers and words, no full stop, one paragraph (200 KB here;
        // the work is linear in the text, see `tally bench ingest`).
        let text = "bay 12 holds 340 crates of 25 kg ".repeat(6_000);
        let docs = read(&text, Format::Text, "dump.txt", &ReadBudget::default()).unwrap();
        for snippet in snippets_of(&docs[0]) {
            assert!(
                snippet.text.len() <= MAX_SENTENCE_BYTES,
                "{}",
                snippet.text.len()
            );
        }
        let sentences = SentenceIndex::in_memory().unwrap();
        let indexes = Indexes {
            snippets: None,
            sentences: Some(&sentences),
        };
        let done = ingest(&indexes, "dump", &docs, &mut |_| {}).unwrap();
        assert!(
            done.sentences >= text.len() / MAX_SENTENCE_BYTES,
            "{done:?}"
        );
        let stored = sentences.all_sentences().unwrap();
        assert!(stored.iter().all(|s| s.text.len() <= MAX_SENTENCE_BYTES));
        // Ingesting describes every quantity of every sentence for value questions: bounded
        // sentences keep that linear in the text.
        let described = sentences.observations().len() as usize;
        assert!(described >= done.quantities / 2, "{described}");
    }

    #[test]
    fn a_corpus_is_ingested_listed_and_deleted() {
        let snippets = SnippetIndex::in_memory().unwrap();
        let sentences = SentenceIndex::in_memory().unwrap();
        let indexes = Indexes {
            snippets: Some(&snippets),
            sentences: Some(&sentences),
        };
        let docs = read(
            "The library holds 2.5 million books.\n\nIt has 14 reading rooms. It opened in 1911.",
            Format::Text,
            "library.txt",
            &ReadBudget::default(),
        )
        .unwrap();
        let mut seen = Vec::new();
        let done = ingest(&indexes, "library", &docs, &mut |p| {
            seen.push(p.documents_done)
        })
        .unwrap();
        assert_eq!(seen, vec![0, 1]);
        assert_eq!((done.snippets, done.sentences), (2, 3));
        assert!(done.quantities >= 2, "{done:?}");
        let hits = snippets
            .search_in("how many reading rooms", 5, Some("library"))
            .unwrap();
        assert_eq!(
            hits[0].snippet.text,
            "It has 14 reading rooms. It opened in 1911."
        );
        let listed = corpora(&indexes).unwrap();
        assert_eq!(
            listed,
            vec![CorpusSize {
                name: "library".into(),
                snippets: 2,
                sentences: 3
            }]
        );
        assert!(ingest(&indexes, "all", &docs, &mut |_| {}).is_err());
        // "2.5 million books" and "14 reading rooms" are observations for value questions.
        assert_eq!(sentences.observations().len(), 2);
        let deleted = delete(&indexes, "library").unwrap();
        assert_eq!((deleted.snippets, deleted.sentences), (2, 3));
        assert!(corpora(&indexes).unwrap().is_empty());
        assert_eq!(sentences.observations().len(), 0);
        assert!(delete(&indexes, "library")
            .unwrap_err()
            .to_string()
            .contains("no corpus"));
    }
}
