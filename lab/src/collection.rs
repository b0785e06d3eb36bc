//! A collection written for Tally (`tests/fixtures/own-documents`, the aggregation collection):
//! its documents read as ingestion reads them, its count and value questions, and the half each
//! question belongs to (tuning or test, fixed by a hash of its text).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Deserialize;
use tally_documents::corpus::documents;
use tally_documents::corpus::format::Format;
use tally_documents::sentence_store::index::Document;

/// One question of the collection: its count, or `None` when the documents do not say.
#[derive(Debug, Clone, Deserialize)]
pub struct OwnQuestion {
    /// The question as asked.
    pub question: String,
    /// The count the documents give, or `None` when they do not say.
    pub answer: Option<f64>,
    /// The document it is about (its file name without `.txt`).
    pub document: String,
    /// How the count is written: digits, spelled, list, several (one of several counts in a
    /// sentence), none (unanswerable).
    pub form: String,
}

/// Which half a question belongs to: fixed by a hash of its text (FNV-1a), never by its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Half {
    /// The half the settings are tuned on.
    Tuning,
    /// The half only reported, never tuned on.
    Test,
}

impl Half {
    /// The half `question` belongs to.
    pub fn of(question: &str) -> Half {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in question.trim().to_lowercase().bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        if hash.is_multiple_of(2) {
            Half::Tuning
        } else {
            Half::Test
        }
    }

    /// The half's name in reports ("tuning" or "test").
    pub fn name(self) -> &'static str {
        match self {
            Half::Tuning => "tuning",
            Half::Test => "test",
        }
    }
}

/// The collection in `dir`: its documents (`documents/*`, each read in the format its
/// extension names), their kinds and its count questions (`questions.jsonl`).
pub struct Collection {
    /// The documents, read.
    pub documents: Vec<Document>,
    /// The count questions.
    pub questions: Vec<OwnQuestion>,
    /// The value questions.
    pub values: Vec<OwnValueQuestion>,
    /// Each document's kind (`kinds.tsv`: name, tab, kind); `prose` where it names none.
    kinds: BTreeMap<String, String>,
}

impl Collection {
    /// The kind of the document a question is about.
    pub fn kind_of(&self, document: &str) -> &str {
        self.kinds.get(document).map_or("prose", String::as_str)
    }
}

/// Reads the collection in `dir`.
pub fn read_collection(dir: &Path) -> anyhow::Result<Collection> {
    read_collection_with(dir, &DocumentChoice::All)
}

/// Which documents of a collection an evaluation reads.
pub enum DocumentChoice {
    /// `documents/`, all of them.
    All,
    /// The documents of another directory (the collection's documents in other formats,
    /// named by the same stems), and only the questions about them.
    From(PathBuf),
    /// The collection's own documents that another directory holds in other formats, and only
    /// the questions about them: the same facts in their first format, to compare with.
    OriginalsOf(PathBuf),
}

/// The document files of `dir` (its README aside), in name order.
fn document_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.file_name().and_then(|n| n.to_str()) != Some("README.md"))
        .collect();
    paths.sort();
    Ok(paths)
}

/// A file's name without its extension: the name of the document it holds.
fn stem_of(path: &Path) -> &str {
    path.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
}

/// The documents of the files in `dir`, each read in the format its name (or its first bytes)
/// says; a file's stem is its document's name.
pub fn read_documents_dir(dir: &Path) -> anyhow::Result<Vec<Document>> {
    let mut documents = Vec::new();
    for path in &document_files(dir)? {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let file_name = path
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let name = stem_of(path);
        let format =
            Format::of_file(file_name, &bytes).with_context(|| path.display().to_string())?;
        documents.extend(
            documents::read_file(
                &bytes,
                format,
                name,
                &tally_documents::corpus::budget::ReadBudget::for_bytes(bytes.len()),
            )
            .with_context(|| format!("{} could not be read", path.display()))?,
        );
    }
    Ok(documents)
}

/// Reads the collection in `dir`, its documents as `choice` says.
pub fn read_collection_with(dir: &Path, choice: &DocumentChoice) -> anyhow::Result<Collection> {
    let mut documents = match choice {
        DocumentChoice::From(other) => read_documents_dir(other)?,
        _ => read_documents_dir(&dir.join("documents"))?,
    };
    // The other directory's files, named by their documents' names (read only when they are
    // the documents).
    let other_files = match choice {
        DocumentChoice::From(other) | DocumentChoice::OriginalsOf(other) => document_files(other)?,
        DocumentChoice::All => Vec::new(),
    };
    if let DocumentChoice::OriginalsOf(_) = choice {
        documents.retain(|d| other_files.iter().any(|f| stem_of(f) == d.id));
    }
    let kinds_path = dir.join("kinds.tsv");
    let mut kinds: BTreeMap<String, String> = match std::fs::read_to_string(&kinds_path) {
        Ok(text) => text
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .map(|(name, kind)| (name.trim().to_string(), kind.trim().to_string()))
            .collect(),
        Err(_) => BTreeMap::new(),
    };
    // A part of the collection in other formats is tallied by the format each document is in
    // there (in both runs, so that the two compare format by format).
    for file in &other_files {
        if let Some(extension) = file.extension().and_then(|s| s.to_str()) {
            kinds.insert(stem_of(file).to_string(), extension.to_string());
        }
    }
    let questions_path = dir.join("questions.jsonl");
    let text = std::fs::read_to_string(&questions_path)
        .with_context(|| format!("cannot read {}", questions_path.display()))?;
    let mut questions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let question: OwnQuestion = serde_json::from_str(line)
            .with_context(|| format!("{}, line {}", questions_path.display(), n + 1))?;
        questions.push(question);
    }
    let mut values = read_values(dir)?;
    if !matches!(choice, DocumentChoice::All) {
        let held = |name: &String| documents.iter().any(|d| &d.id == name);
        questions.retain(|q| held(&q.document));
        values.retain(|q| held(&q.document));
    }
    let named = questions
        .iter()
        .map(|q| &q.document)
        .chain(values.iter().map(|q| &q.document));
    for document in named {
        if !documents.iter().any(|d| &d.id == document) {
            anyhow::bail!(
                "{}: a question names no document `{document}`",
                dir.display()
            );
        }
    }
    Ok(Collection {
        documents,
        questions,
        values,
        kinds,
    })
}

/// One value question of the collection.
#[derive(Debug, Clone, Deserialize)]
pub struct OwnValueQuestion {
    /// The question as asked.
    pub question: String,
    /// The quantity as the document writes it ("412 m"), or `None` when it does not say.
    pub answer: Option<String>,
    /// The document it is about (its file name without extension).
    pub document: String,
}

/// The collection's value questions (`values.jsonl`; none when the file is missing).
pub fn read_values(dir: &Path) -> anyhow::Result<Vec<OwnValueQuestion>> {
    let path = dir.join("values.jsonl");
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            serde_json::from_str(line)
                .with_context(|| format!("{}, line {}", path.display(), n + 1))
        })
        .collect()
}

/// Reads a file of one JSON value per line (blank lines skipped); an error names the line.
pub fn read_json_lines<T: serde::de::DeserializeOwned>(
    path: &std::path::Path,
) -> anyhow::Result<Vec<T>> {
    use anyhow::Context;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            serde_json::from_str(line)
                .with_context(|| format!("{}, line {}", path.display(), n + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_collection_is_read_and_split_in_two_fixed_halves() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/own-documents");
        let collection = read_collection(&dir).unwrap();
        let (docs, questions) = (&collection.documents, &collection.questions);
        assert!(docs.len() >= 70, "{}", docs.len());
        assert!(questions.len() >= 150, "{}", questions.len());
        let unanswerable = questions.iter().filter(|q| q.answer.is_none()).count();
        assert!(unanswerable >= 30, "{unanswerable}");
        let tuning = questions
            .iter()
            .filter(|q| Half::of(&q.question) == Half::Tuning)
            .count();
        let share = tuning as f64 / questions.len() as f64;
        assert!(
            (0.35..0.65).contains(&share),
            "{tuning} of {}",
            questions.len()
        );
        // The half is the question's, whatever its case or surrounding space.
        assert_eq!(Half::of("How many moons "), Half::of("how many moons"));
    }
}
