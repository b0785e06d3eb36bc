//! Reading the data sets' file formats, for count answers and quantity search alike: SQuAD-format snippet files (one paragraph per snippet, its
//! query in `qas`), gold-count CSV files (`qid, query, answer_norm, …`), gold instance lists and
//! instance aliases, and JSONL snippet files (`{"id", "text", "source"}`).

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use crate::error::{DatasetError, DocumentsError};

/// A text segment that may answer a question.
#[derive(Debug, Clone, PartialEq)]
pub struct Snippet {
    /// Unique within its file (`"<qid>_<n>"` in the CoQEx files).
    pub id: String,
    /// The snippet's text.
    pub text: String,
    /// Where it came from (a title, a URL, a file name); may be empty.
    pub source: String,
    /// Annotated answer spans, when the file has them (training data).
    pub answers: Vec<AnswerSpan>,
    /// What the snippet is in its document, typed (a table row, a list, a definition …);
    /// `None` for running text and for data sets' snippets.
    pub record: Option<std::sync::Arc<crate::corpus::structure::Record>>,
}

/// An annotated answer: its text and its byte offset in the snippet.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerSpan {
    /// The answer as written in the snippet.
    pub text: String,
    /// Its byte offset in the snippet.
    pub start: usize,
}

/// One question with the snippets stored for it.
#[derive(Debug, Clone, PartialEq)]
pub struct QuerySnippets {
    /// The question's id in its data set.
    pub qid: String,
    /// The question's text.
    pub question: String,
    /// The snippets stored for it.
    pub snippets: Vec<Snippet>,
}

#[derive(Deserialize)]
struct SquadFile {
    data: Vec<SquadArticle>,
}

#[derive(Deserialize)]
struct SquadArticle {
    #[serde(default)]
    title: String,
    paragraphs: Vec<SquadParagraph>,
}

#[derive(Deserialize)]
struct SquadParagraph {
    context: String,
    qas: Vec<SquadQa>,
}

#[derive(Deserialize)]
struct SquadQa {
    question: String,
    id: String,
    #[serde(default)]
    answers: Vec<SquadAnswer>,
}

#[derive(Deserialize)]
struct SquadAnswer {
    text: String,
    answer_start: usize,
}

/// Reads a SQuAD-format file, grouping paragraphs by question. A paragraph id `"<qid>_<n>"`
/// gives the question id; other ids use the question text as the question id.
pub fn read_squad(path: &Path) -> Result<Vec<QuerySnippets>, DocumentsError> {
    let text = read_text(path)?;
    let file: SquadFile = serde_json::from_str(&text).map_err(|source| DatasetError::Squad {
        path: path.to_path_buf(),
        source,
    })?;
    let mut queries: Vec<QuerySnippets> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for article in file.data {
        for paragraph in article.paragraphs {
            for qa in paragraph.qas {
                let qid = match qa.id.rsplit_once('_') {
                    Some((qid, n)) if n.chars().all(|c| c.is_ascii_digit()) => qid.to_string(),
                    _ => qa.question.trim().to_string(),
                };
                let answers = qa
                    .answers
                    .into_iter()
                    .filter_map(|a| {
                        // SQuAD offsets count characters; Tally works in bytes.
                        let start = char_to_byte(&paragraph.context, a.answer_start)?;
                        paragraph.context[start..]
                            .starts_with(&a.text)
                            .then_some(AnswerSpan {
                                text: a.text,
                                start,
                            })
                    })
                    .collect();
                let slot = *index.entry(qid.clone()).or_insert_with(|| {
                    queries.push(QuerySnippets {
                        qid: qid.clone(),
                        question: qa.question.trim().to_string(),
                        snippets: Vec::new(),
                    });
                    queries.len() - 1
                });
                queries[slot].snippets.push(Snippet {
                    id: qa.id,
                    text: paragraph.context.clone(),
                    source: article.title.clone(),
                    answers,
                    record: None,
                });
            }
        }
    }
    Ok(queries)
}

#[derive(Deserialize)]
struct JsonlSnippet {
    id: String,
    text: String,
    #[serde(default)]
    source: String,
    /// Optional question the snippet was retrieved for.
    #[serde(default)]
    query: Option<String>,
}

/// Reads JSONL snippets (`{"id","text","source"}` per line, optional `"query"`). Snippets with a
/// query are grouped under it; the others come back under an empty question.
pub fn read_jsonl(path: &Path) -> Result<Vec<QuerySnippets>, DocumentsError> {
    parse_jsonl(&read_text(path)?, path)
}

/// [`read_jsonl`] on text already read; `path` names it in errors.
pub fn parse_jsonl(text: &str, path: &Path) -> Result<Vec<QuerySnippets>, DocumentsError> {
    let mut queries: Vec<QuerySnippets> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let row: JsonlSnippet = serde_json::from_str(line).map_err(|e| DatasetError::Jsonl {
            path: path.to_path_buf(),
            line: n + 1,
            message: e.to_string(),
        })?;
        let question = row.query.unwrap_or_default();
        let slot = *index.entry(question.clone()).or_insert_with(|| {
            queries.push(QuerySnippets {
                qid: question.clone(),
                question: question.clone(),
                snippets: Vec::new(),
            });
            queries.len() - 1
        });
        queries[slot].snippets.push(Snippet {
            id: row.id,
            text: row.text,
            source: row.source,
            answers: Vec::new(),
            record: None,
        });
    }
    Ok(queries)
}

/// A question with its gold count (`None` where the file leaves it empty).
#[derive(Debug, Clone, PartialEq)]
pub struct GoldCount {
    /// The question's id in its data set.
    pub qid: String,
    /// The question's text.
    pub query: String,
    /// The gold count; `None` where the file leaves it empty.
    pub count: Option<f64>,
}

/// Reads a gold CSV with at least the columns `qid`, `query` and `answer_norm`.
pub fn read_gold_counts(path: &Path) -> Result<Vec<GoldCount>, DocumentsError> {
    let rows = read_csv(path, &["qid", "query", "answer_norm"])?;
    Ok(rows
        .into_iter()
        .map(|row| GoldCount {
            qid: row[0].trim().to_string(),
            query: row[1].trim().to_string(),
            count: row[2].trim().parse::<f64>().ok().filter(|c| c.is_finite()),
        })
        .collect())
}

/// A question with its gold instances (columns `qid`, `query`, `answer_enum` as `[a,b,c]`).
#[derive(Debug, Clone, PartialEq)]
pub struct GoldInstances {
    /// The question's id in its data set.
    pub qid: String,
    /// The question's text.
    pub query: String,
    /// The gold instances.
    pub instances: Vec<String>,
}

/// Reads gold instance lists; questions with an empty list are skipped.
pub fn read_gold_instances(path: &Path) -> Result<Vec<GoldInstances>, DocumentsError> {
    let rows = read_csv(path, &["qid", "query", "answer_enum"])?;
    Ok(rows
        .into_iter()
        .map(|row| GoldInstances {
            qid: row[0].trim().to_string(),
            query: row[1].trim().to_string(),
            instances: parse_bracket_list(&row[2]),
        })
        .filter(|g| !g.instances.is_empty())
        .collect())
}

/// Reads instance aliases (columns `item`, `aliases` as `[a,b]`): item → its aliases, the item
/// itself included.
pub fn read_aliases(path: &Path) -> Result<HashMap<String, Vec<String>>, DocumentsError> {
    let rows = read_csv(path, &["item", "aliases"])?;
    let mut aliases: HashMap<String, Vec<String>> = HashMap::new();
    for row in rows {
        let item = row[0].trim().to_string();
        let entry = aliases.entry(item.clone()).or_default();
        if !entry.contains(&item) {
            entry.push(item.clone());
        }
        for alias in parse_bracket_list(&row[1]) {
            if !entry.contains(&alias) {
                entry.push(alias);
            }
        }
    }
    Ok(aliases)
}

/// `"[a,b, c]"` → `["a", "b", "c"]`; empty or `[]` → nothing.
fn parse_bracket_list(text: &str) -> Vec<String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    inner
        .split(',')
        .map(|s| s.trim().trim_matches(|c| c == '\'' || c == '"').trim())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads a CSV file with a header, returning the named columns of every row in order.
fn read_csv(path: &Path, columns: &[&str]) -> Result<Vec<Vec<String>>, DatasetError> {
    let csv_error = |message: String| DatasetError::Csv {
        path: path.to_path_buf(),
        message,
    };
    let text = read_text(path)?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let syntax = |source| DatasetError::CsvSyntax {
        path: path.to_path_buf(),
        source,
    };
    let header = reader.headers().map_err(syntax)?;
    let positions: Vec<usize> = columns
        .iter()
        .map(|name| {
            header
                .iter()
                .position(|h| h.trim() == *name)
                .ok_or_else(|| csv_error(format!("no column named `{name}`")))
        })
        .collect::<Result<_, _>>()?;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(syntax)?;
        rows.push(
            positions
                .iter()
                .map(|&p| record.get(p).unwrap_or("").to_string())
                .collect(),
        );
    }
    Ok(rows)
}

fn read_text(path: &Path) -> Result<String, DatasetError> {
    std::fs::read_to_string(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Byte offset of the `n`th character (or the end of the text).
fn char_to_byte(text: &str, n: usize) -> Option<usize> {
    text.char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .nth(n)
}

/// Joins gold counts to snippet sets by question id, falling back to the question text.
pub fn gold_for<'g>(query: &QuerySnippets, gold: &'g [GoldCount]) -> Option<&'g GoldCount> {
    gold.iter().find(|g| g.qid == query.qid).or_else(|| {
        gold.iter()
            .find(|g| g.query.eq_ignore_ascii_case(query.question.trim()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracket_lists() {
        assert_eq!(parse_bracket_list("[a, b,c ]"), vec!["a", "b", "c"]);
        assert!(parse_bracket_list("[]").is_empty());
        assert!(parse_bracket_list("").is_empty());
    }

    #[test]
    fn char_offsets_become_byte_offsets() {
        assert_eq!(char_to_byte("é12", 1), Some(2));
        assert_eq!(char_to_byte("ab", 2), Some(2));
        assert_eq!(char_to_byte("ab", 3), None);
    }
}
