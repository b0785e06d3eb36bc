//! What the readers answered to a collection's questions (`readers.jsonl`, issue 99): the
//! answer decision's answer before the ranker and the gates — the records' rules, the count
//! reader or the value reader — asked as the home page asks (the kind detected) over the
//! collection alone, with the ranker off. The candidate ranker weighs each candidate against
//! it; the product computes the same from the answer it is deciding on.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tally_engine::candidates::rank::{Reader, ReadersAnswer};
use tally_types::AnswerBody;

/// A collection's file of the readers' answers.
pub const READERS_FILE: &str = "readers.jsonl";

/// One question's line (another file's lines, a trust log's, are refused, not read as "no
/// answer").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadersLine {
    /// The question.
    pub question: String,
    /// Which reader answered (`count` or `value`); `None` when no number was given.
    pub by: Option<String>,
    /// The number given.
    pub number: Option<f64>,
    /// For a value, the number as the document writes it.
    #[serde(default)]
    pub written: Option<f64>,
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
            number: readers.as_ref().map(|r| r.number),
            written: readers.and_then(|r| r.written),
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
            written: self.written,
        })
    }
}

/// Where an evaluation writes its [`ReadersLine`]s: a file made anew, put in place only once
/// every line is written (a run cut short leaves the last file whole).
pub struct ReadersLog {
    out: std::io::BufWriter<std::fs::File>,
    partial: PathBuf,
    path: PathBuf,
}

impl ReadersLog {
    /// A log to be written to `path` by [`ReadersLog::finish`].
    pub fn create(path: &Path) -> std::io::Result<Self> {
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        Ok(ReadersLog {
            out: std::io::BufWriter::new(std::fs::File::create(&partial)?),
            partial,
            path: path.to_path_buf(),
        })
    }

    /// Writes one line.
    pub fn write(&mut self, line: &ReadersLine) -> std::io::Result<()> {
        let text = serde_json::to_string(line).map_err(std::io::Error::other)?;
        writeln!(self.out, "{text}")
    }

    /// Puts the written lines in place of the file.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.out.flush()?;
        std::fs::rename(&self.partial, &self.path)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_readers_file_is_written_whole_read_back_last_line_first_and_refuses_other_logs() {
        let dir = std::env::temp_dir().join(format!("tally-readers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(READERS_FILE);
        let line = |number: Option<f64>| ReadersLine {
            question: "how many plots".to_string(),
            by: number.map(|_| "count".to_string()),
            number,
            written: None,
        };
        let mut log = ReadersLog::create(&path).unwrap();
        log.write(&line(Some(112.0))).unwrap();
        log.write(&line(Some(9.0))).unwrap();
        // Nothing is in place before the log is finished.
        assert!(!path.exists());
        log.finish().unwrap();
        let read = read_readers(&path).unwrap().expect("written");
        let answer = read["how many plots"].expect("a number");
        assert_eq!((answer.number, answer.by), (9.0, Reader::Count));
        // A trust log's line is not a readers' line.
        std::fs::write(
            &path,
            "{\"kind\":\"count\",\"setting\":\"own-documents/documents\",\"question\":\"q\"}\n",
        )
        .unwrap();
        assert!(read_readers(&path).is_err());
        assert!(read_readers(&dir.join("missing.jsonl")).unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
