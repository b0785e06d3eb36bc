//! WikiTableQuestions as Tally reads it (issue 98): the questions of a split whose answer is a
//! number, and each question's table read by Tally's own reader from its CSV or its HTML page.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use tally_documents::corpus::budget::ReadBudget;
use tally_documents::corpus::documents::read_file;
use tally_documents::corpus::Format;
use tally_documents::tables::{tables_of, RecordTable};
use tally_engine::candidates::TableCorpus;

use super::{Split, TableFormat};

/// A question whose answer is one number.
#[derive(Debug, Clone)]
pub struct WtqQuestion {
    /// The data set's id ("nt-3").
    pub id: String,
    /// The question as asked.
    pub utterance: String,
    /// Its table's CSV, relative to the data set's directory ("csv/203-csv/515.csv").
    pub context: String,
    /// The answer as the data set writes it ("12,467").
    pub written: String,
    /// The answer's number.
    pub answer: f64,
}

/// The split's questions whose answer is a single number (a list answer, `|`-separated, or
/// any word, is left out).
pub fn numeric_questions(dir: &Path, split: Split) -> anyhow::Result<Vec<WtqQuestion>> {
    let path = dir.join(split.file());
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut questions = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, utterance, context, target] = fields[..] else {
            anyhow::bail!(
                "{}, line {}: not four tab-separated fields",
                path.display(),
                n + 1
            );
        };
        if let Some(answer) = written_number(target) {
            questions.push(WtqQuestion {
                id: id.to_string(),
                utterance: utterance.to_string(),
                context: context.to_string(),
                written: target.to_string(),
                answer,
            });
        }
    }
    Ok(questions)
}

/// The number an answer writes, when it is only a number ("1,530", "00.4", "-3").
fn written_number(target: &str) -> Option<f64> {
    let t = target.trim();
    let digits_only = !t.is_empty()
        && t.chars().any(|c| c.is_ascii_digit())
        && t.trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '.');
    if !digits_only {
        return None;
    }
    t.replace(',', "").parse().ok()
}

/// Each table read once, by its context.
#[derive(Default)]
pub struct TableCache {
    read: HashMap<String, TableCorpus>,
}

impl TableCache {
    /// The tables Tally reads of a question's table, in the format asked.
    pub fn tables(
        &mut self,
        dir: &Path,
        context: &str,
        format: TableFormat,
    ) -> anyhow::Result<&TableCorpus> {
        if !self.read.contains_key(context) {
            let tables = read_tables(&file_of(dir, context, format), format)?;
            self.read
                .insert(context.to_string(), TableCorpus::new(tables));
        }
        Ok(&self.read[context])
    }
}

fn file_of(dir: &Path, context: &str, format: TableFormat) -> PathBuf {
    let path = dir.join(context);
    match format {
        TableFormat::Csv => path,
        TableFormat::Html => path.with_extension("html"),
    }
}

fn read_tables(path: &Path, format: TableFormat) -> anyhow::Result<Vec<RecordTable>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let format = match format {
        TableFormat::Csv => Format::Csv,
        TableFormat::Html => Format::Html,
    };
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("table");
    let documents = read_file(&bytes, format, name, &ReadBudget::for_bytes(bytes.len()))
        .with_context(|| format!("{} could not be read", path.display()))?;
    Ok(documents
        .iter()
        .flat_map(|d| tables_of(&d.text, &d.source))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::written_number;

    #[test]
    fn only_a_number_is_a_numeric_answer() {
        assert_eq!(written_number("12,467"), Some(12467.0));
        assert_eq!(written_number("00.4"), Some(0.4));
        assert_eq!(written_number("1|2"), None);
        assert_eq!(written_number("Wolfe Tones"), None);
        assert_eq!(written_number("1999"), Some(1999.0));
    }
}
