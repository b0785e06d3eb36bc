//! What the readers answered to a collection's questions (`readers.jsonl`, issue 99): the
//! answer decision's answer before the ranker and the gates — the records' rules, the count
//! reader or the value reader — asked as the home page asks (the kind detected) over the
//! collection alone, with the ranker off. The candidate ranker weighs each candidate against
//! it; the product computes the same from the answer it is deciding on.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tally_engine::candidates::rank::{Reader, ReadersAnswer};
use tally_types::AnswerBody;

/// A collection's file of the readers' answers.
pub const READERS_FILE: &str = "readers.jsonl";

/// One question's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadersLine {
    /// The question.
    pub question: String,
    /// Which reader answered (`count` or `value`); `None` when no number was given.
    pub by: Option<String>,
    /// The number given.
    pub number: Option<f64>,
}

impl ReadersLine {
    /// The line of `question` answered with `answer` (before the gates).
    pub fn of(question: &str, answer: &AnswerBody) -> Self {
        let readers = ReadersAnswer::of(answer);
        ReadersLine {
            question: question.to_string(),
            by: readers.as_ref().map(|r| {
                match r.by {
                    Reader::Count => "count",
                    Reader::Value => "value",
                }
                .to_string()
            }),
            number: readers.map(|r| r.number),
        }
    }

    /// The readers' answer it records.
    pub fn answer(&self) -> Option<ReadersAnswer> {
        let by = match self.by.as_deref()? {
            "count" => Reader::Count,
            "value" => Reader::Value,
            _ => return None,
        };
        Some(ReadersAnswer {
            number: self.number?,
            by,
        })
    }
}

/// Where an evaluation writes its [`ReadersLine`]s: a file made anew.
pub struct ReadersLog {
    out: std::io::BufWriter<std::fs::File>,
}

impl ReadersLog {
    /// A log written to `path` (what it held before is replaced).
    pub fn create(path: &Path) -> std::io::Result<Self> {
        Ok(ReadersLog {
            out: std::io::BufWriter::new(std::fs::File::create(path)?),
        })
    }

    /// Writes one line.
    pub fn write(&mut self, line: &ReadersLine) -> std::io::Result<()> {
        let text = serde_json::to_string(line).map_err(std::io::Error::other)?;
        writeln!(self.out, "{text}")
    }
}

/// Each question's readers' answer (`None`: they gave no number) from `path`, the last line of a
/// question winning; `None` when the collection has no such file.
pub fn read_readers(
    path: &Path,
) -> anyhow::Result<Option<BTreeMap<String, Option<ReadersAnswer>>>> {
    if !path.exists() {
        return Ok(None);
    }
    let lines = crate::collection::read_json_lines::<ReadersLine>(path)?;
    Ok(Some(
        lines
            .into_iter()
            .map(|line| {
                let answer = line.answer();
                (line.question, answer)
            })
            .collect(),
    ))
}
