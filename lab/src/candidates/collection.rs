//! A collection written for Tally (`tests/fixtures/own-documents`, `tests/fixtures/aggregations`)
//! as the candidates see it (issue 98): every document read by Tally's reader into tables and
//! passages, one corpus, and each answerable question's number.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use tally_documents::corpus::structure::passages_of;
use tally_documents::tables::{tables_of, RecordTable};
use tally_engine::candidates::rank::ReadersAnswer;
use tally_engine::candidates::{numbers_in, DocumentPassage, TableCorpus};

use super::readers::{read_readers, READERS_FILE};
use crate::collection::{read_documents_dir, Half};

/// A collection's corpus: its tables and its passages.
pub struct Corpus {
    /// Every table of every document.
    pub tables: TableCorpus,
    /// Every passage of every document.
    pub passages: Vec<DocumentPassage>,
    /// Each document's format (its file's extension), by its name.
    pub formats: BTreeMap<String, String>,
    /// Each document's kind (`kinds.tsv`), by its name, when the collection says.
    pub kinds: BTreeMap<String, String>,
    /// Whether the collection holds what the readers answered (`readers.jsonl`); without it,
    /// the ranker's features say nothing of them.
    pub readers_logged: bool,
}

/// A question of the collection with a number for answer.
#[derive(Debug, Clone)]
pub struct CollectionQuestion {
    /// The question.
    pub question: String,
    /// Its answer's number; `None` when the documents do not answer it.
    pub answer: Option<f64>,
    /// The answer as written.
    pub written: String,
    /// The document it is answered from.
    pub document: String,
    /// Count, value or aggregation.
    pub kind: &'static str,
    /// Its half (tuning or test).
    pub half: Half,
    /// What the readers answered over the collection alone (`readers.jsonl`), when it says.
    pub readers: Option<ReadersAnswer>,
}

#[derive(Deserialize)]
struct Line {
    question: String,
    answer: serde_json::Value,
    document: Option<String>,
    half: Option<String>,
}

/// Reads the collection in `dir`: `documents/`, and the questions of `questions.jsonl` (counts,
/// or aggregations when the lines name an `operation`) and `values.jsonl`, the unanswerable
/// ones (a `null` answer) among them; answers that are not a number ("Route 9") are left out.
pub fn read_collection(dir: &Path) -> anyhow::Result<(Corpus, Vec<CollectionQuestion>)> {
    let documents = read_documents_dir(&dir.join("documents"))?;
    let mut formats = BTreeMap::new();
    for entry in std::fs::read_dir(dir.join("documents"))? {
        let path = entry?.path();
        if let (Some(stem), Some(extension)) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) {
            formats.insert(stem.to_string(), extension.to_lowercase());
        }
    }
    let mut tables = Vec::new();
    let mut passages = Vec::new();
    for document in &documents {
        // Named by the document's file, as the product names a table by its passages' file (an
        // HTML page's source is its title).
        tables.extend(
            tables_of(&document.text, &document.source)
                .into_iter()
                .map(|table| RecordTable {
                    document: document.id.clone(),
                    ..table
                }),
        );
        passages.extend(
            passages_of(&document.text, &document.source)
                .into_iter()
                .map(|passage| DocumentPassage {
                    document: document.id.clone(),
                    passage,
                }),
        );
    }
    let kinds = std::fs::read_to_string(dir.join("kinds.tsv"))
        .map(|text| {
            text.lines()
                .filter_map(|l| l.split_once('\t'))
                .map(|(d, k)| (d.to_string(), k.to_string()))
                .collect()
        })
        .unwrap_or_default();
    let aggregations =
        std::fs::read_to_string(dir.join("questions.jsonl"))?.contains("\"operation\"");
    let logged = read_readers(&dir.join(READERS_FILE))?;
    let readers_logged = logged.is_some();
    let readers = logged.unwrap_or_default();
    let mut questions = Vec::new();
    for (file, kind) in [
        (
            "questions.jsonl",
            if aggregations { "aggregation" } else { "count" },
        ),
        ("values.jsonl", "value"),
    ] {
        let path = dir.join(file);
        if !path.exists() {
            continue;
        }
        for line in crate::collection::read_json_lines::<Line>(&path)? {
            let written = match &line.answer {
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                _ => continue,
            };
            // A number, perhaps after a currency sign and before its unit ("£7,450", "40
            // minutes"); a name holding a number ("Route 9") is no number answer.
            let starts_with_number = written
                .trim_start_matches(['£', '$', '€'])
                .starts_with(|c: char| c.is_ascii_digit());
            let answer = numbers_in(&written).first().copied();
            if !written.is_empty() && (answer.is_none() || !starts_with_number) {
                continue;
            }
            let half = match line.half.as_deref() {
                Some("tuning") => Half::Tuning,
                Some("test") => Half::Test,
                _ => Half::of(&line.question),
            };
            let readers = readers.get(&line.question).copied().flatten();
            questions.push(CollectionQuestion {
                question: line.question,
                answer,
                written,
                document: line.document.unwrap_or_default(),
                kind,
                half,
                readers,
            });
        }
    }
    Ok((
        Corpus {
            tables: TableCorpus::new(tables),
            passages,
            formats,
            kinds,
            readers_logged,
        },
        questions,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_engine::candidates::rank::Reader;

    #[test]
    fn each_question_carries_what_the_readers_answered_over_the_collection_alone() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/own-documents");
        let (_, questions) = read_collection(&dir).unwrap();
        let paintings = questions
            .iter()
            .find(|q| q.question == "how many paintings does the Marrowby Museum of Art own")
            .expect("the question is in the collection");
        assert_eq!(
            paintings.readers,
            Some(ReadersAnswer {
                number: 340.0,
                by: Reader::Count,
                written: None,
            })
        );
        // Every question was asked of the readers (the file is rewritten when a question is
        // added); most got a number, a count or a value.
        let logged = read_readers(&dir.join(READERS_FILE))
            .unwrap()
            .expect("the file is there");
        let missing: Vec<_> = questions
            .iter()
            .filter(|q| !logged.contains_key(&q.question))
            .map(|q| &q.question)
            .collect();
        assert!(missing.is_empty(), "not in {READERS_FILE}: {missing:?}");
        let answered = questions.iter().filter(|q| q.readers.is_some()).count();
        assert!(
            answered * 2 > questions.len(),
            "{answered} of {}",
            questions.len()
        );
        assert!(questions
            .iter()
            .any(|q| q.readers.is_some_and(|r| r.by == Reader::Value)));
    }
}
