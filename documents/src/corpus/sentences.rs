//! Documents for the sentence index: readers for plain text, JSONL, SQuAD-format snippet files and
//! Qsearch's judged sentences, and the default corpus (the shared data sets when the data directory
//! has them, and always a small demo corpus written for Tally and embedded in the binary).

use std::path::Path;

use serde::Deserialize;

use super::format::Format;
use crate::corpus::catalogue::{NEWSQUANT, QSEARCH, STRESSTEST};
use crate::corpus::datasets::read_squad;
use crate::error::ParseError;
use crate::sentence_store::index::{Document, IngestStats, SentenceIndex};
use crate::DocumentsError;

/// Demo documents: a few paragraphs about stadiums, phones, cars and athletes.
pub const DEMO_DOCUMENTS: &str = include_str!("../../data/demo_quantities.jsonl");

/// Data files of the default corpus, relative to the data directory: (name, path, format).
pub const DATASET_DOCUMENTS: &[(&str, &str, Format)] = &[
    (QSEARCH.name, QSEARCH.path, Format::Qsearch),
    (NEWSQUANT.name, NEWSQUANT.path, Format::NewsQuant),
    (STRESSTEST.name, STRESSTEST.path, Format::Squad),
];

/// Reads the documents of a file.
pub fn read_documents(path: &Path, format: Format) -> Result<Vec<Document>, DocumentsError> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if format == Format::Squad {
        return Ok(read_squad(path)?
            .into_iter()
            .flat_map(|set| set.snippets)
            .map(|s| Document {
                id: s.id,
                text: s.text,
                source: if s.source.is_empty() {
                    stem.clone()
                } else {
                    s.source
                },
                entity: None,
            })
            .collect());
    }
    if format.is_binary() {
        let bytes = std::fs::read(path).map_err(|source| DocumentsError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let budget = super::budget::ReadBudget::for_bytes(bytes.len());
        return super::documents::read_file(&bytes, format, &stem, &budget).map_err(|e| {
            DocumentsError::Parse {
                path: path.to_path_buf(),
                source: e.into(),
            }
        });
    }
    let text = std::fs::read_to_string(path).map_err(|source| DocumentsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_documents(&text, format, &stem, path)
}

/// Parses documents from text already read; `name` identifies the source.
pub fn parse_documents(
    text: &str,
    format: Format,
    name: &str,
    path: &Path,
) -> Result<Vec<Document>, DocumentsError> {
    documents_of(text, format, name).map_err(|source| DocumentsError::Parse {
        path: path.to_path_buf(),
        source,
    })
}

/// [`parse_documents`], its failure the parse's own.
fn documents_of(text: &str, format: Format, name: &str) -> Result<Vec<Document>, ParseError> {
    match format {
        // A corpus of sentences reads Markdown and CSV as the text they are.
        Format::Text | Format::Markdown | Format::Csv => Ok(vec![Document {
            id: name.to_string(),
            text: text.to_string(),
            source: name.to_string(),
            entity: None,
        }]),
        Format::Jsonl => text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, line)| {
                let mut doc: Document =
                    serde_json::from_str(line).map_err(|source| ParseError::JsonLine {
                        line: n + 1,
                        expected: r#"{"id","text"}"#,
                        source,
                    })?;
                if doc.source.is_empty() {
                    doc.source = name.to_string();
                }
                Ok(doc)
            })
            .collect(),
        Format::Qsearch => {
            let mut documents = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for query in judged_of(text)? {
                for judged in query.judged {
                    if seen.insert(judged.sentence.clone()) {
                        documents.push(Document {
                            id: format!("{name}-{}", documents.len()),
                            text: judged.sentence,
                            source: name.to_string(),
                            entity: judged.entity,
                        });
                    }
                }
            }
            Ok(documents)
        }
        Format::NewsQuant => {
            #[derive(Deserialize)]
            struct Gold {
                text: String,
            }
            let sentences: Vec<Gold> =
                serde_json::from_str(text).map_err(|source| ParseError::Json {
                    expected: r#"[{"text"}]"#,
                    source,
                })?;
            Ok(sentences
                .into_iter()
                .enumerate()
                .map(|(n, g)| Document {
                    id: format!("{name}-{n}"),
                    text: g.text,
                    source: name.to_string(),
                    entity: None,
                })
                .collect())
        }
        Format::Html => {
            let (title, body) = super::html_text::html_to_text(text)?;
            Ok(vec![Document {
                id: name.to_string(),
                text: body,
                source: title.unwrap_or_else(|| name.to_string()),
                entity: None,
            }])
        }
        Format::Squad => Err(ParseError::SquadFromText),
        binary => Err(ParseError::BinaryAsText {
            file: name.to_string(),
            format: binary.name(),
        }),
    }
}

/// One sentence judged for a query (Qsearch).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Judged {
    /// The sentence's text.
    pub sentence: String,
    /// The entity the sentence is about, when the file says.
    #[serde(default)]
    pub entity: Option<String>,
    /// Whether the sentence was judged relevant to the query.
    pub relevant: bool,
}

/// A query with its judged sentences (Qsearch).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct JudgedQuery {
    /// The query's id, as the file writes it (a number or a string).
    pub qid: serde_json::Value,
    /// The query's text.
    pub query: String,
    /// Its judged sentences.
    pub judged: Vec<Judged>,
}

/// Parses a judged-queries file (one JSON object per line).
pub fn parse_judged(text: &str, path: &Path) -> Result<Vec<JudgedQuery>, DocumentsError> {
    judged_of(text).map_err(|source| DocumentsError::Parse {
        path: path.to_path_buf(),
        source,
    })
}

/// [`parse_judged`], its failure the parse's own.
fn judged_of(text: &str) -> Result<Vec<JudgedQuery>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            serde_json::from_str(line).map_err(|source| ParseError::JsonLine {
                line: n + 1,
                expected: r#"{"qid","query","judged":[{"sentence","relevant"}]}"#,
                source,
            })
        })
        .collect()
}

/// Opens (or creates) the sentence index in `dir`, filled with the default corpus when it is
/// empty; also returns what was added, per corpus (nothing for an index that had sentences).
pub fn open_with_default(
    dir: &Path,
    data_dir: Option<&Path>,
) -> Result<(SentenceIndex, Vec<(String, IngestStats)>), DocumentsError> {
    let index = SentenceIndex::open_or_create(dir)?;
    let added = ingest_default(&index, data_dir)?;
    Ok((index, added))
}

/// Fills an empty index with the default corpus; returns (name, figures) per part. An index that
/// already has sentences is left alone.
pub fn ingest_default(
    index: &SentenceIndex,
    data_dir: Option<&Path>,
) -> Result<Vec<(String, IngestStats)>, DocumentsError> {
    if !index.is_empty() {
        return Ok(Vec::new());
    }
    let mut added = Vec::new();
    if let Some(dir) = data_dir {
        for (name, rel, format) in DATASET_DOCUMENTS {
            let path = dir.join(rel);
            if path.is_file() {
                let documents = read_documents(&path, *format)?;
                let stats = if *format == Format::Qsearch || *format == Format::NewsQuant {
                    index.add_unsplit_in(name, &documents)?
                } else {
                    index.add_in(name, &documents)?
                };
                added.push((name.to_string(), stats));
            }
        }
    }
    // The demo corpus always: the general facts the pages' and the README's examples ask
    // about (issue 73), beside the data sets when there are some.
    let documents = parse_documents(
        DEMO_DOCUMENTS,
        Format::Jsonl,
        "demo",
        Path::new("demo_quantities.jsonl"),
    )?;
    added.push(("demo".to_string(), index.add_in("demo", &documents)?));
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_corpus_parses_and_indexes() {
        let index = SentenceIndex::in_memory().unwrap();
        let added = ingest_default(&index, None).unwrap();
        assert_eq!(added[0].0, "demo");
        assert!(added[0].1.sentences >= 25, "{added:?}");
        assert!(added[0].1.quantities >= 30, "{added:?}");
        assert_eq!(index.len() as usize, added[0].1.sentences);
    }

    #[test]
    fn bad_jsonl_names_the_line() {
        let err = parse_documents(
            "{\"id\":\"a\",\"text\":\"x\"}\nnot json",
            Format::Jsonl,
            "f",
            Path::new("f.jsonl"),
        )
        .unwrap_err();
        let DocumentsError::Parse { source, .. } = &err else {
            panic!("{err}");
        };
        assert!(source.to_string().starts_with("line 2:"), "{err}");
    }
}
