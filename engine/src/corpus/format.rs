//! The file formats Tally reads, named once: a person's documents (plain text, HTML, Markdown,
//! CSV, JSONL) and the data sets' files (SQuAD-format snippets, Qsearch judged sentences, NewsQuant gold files).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Plain text: one document, paragraphs separated by blank lines.
    Text,
    /// An HTML page: its visible text (scripts and styles dropped), its `<title>` as source.
    Html,
    /// Markdown: headings, lists and tables read as such.
    Markdown,
    /// Comma-separated values: one table whose first record names the columns.
    Csv,
    /// One JSON object per line, `{"text"[, "id", "title", "source", "entity"]}`; a data set's
    /// snippet sets name the `query` each snippet was retrieved for.
    Jsonl,
    /// SQuAD-format snippet files (CoQEx): each paragraph is a snippet of its question.
    Squad,
    /// Qsearch judged queries: each judged sentence is a document (with its entity).
    Qsearch,
    /// NewsQuant / CQE gold files: each sentence is a document.
    NewsQuant,
}

impl Format {
    pub const ALL: [Format; 8] = [
        Format::Text,
        Format::Html,
        Format::Markdown,
        Format::Csv,
        Format::Jsonl,
        Format::Squad,
        Format::Qsearch,
        Format::NewsQuant,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Html => "html",
            Format::Markdown => "markdown",
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Squad => "squad",
            Format::Qsearch => "qsearch",
            Format::NewsQuant => "newsquant",
        }
    }

    /// The formats a person's documents come in.
    pub const DOCUMENTS: [Format; 5] = [
        Format::Text,
        Format::Html,
        Format::Markdown,
        Format::Csv,
        Format::Jsonl,
    ];

    /// A format by name, or by a file extension that means it (`txt`, `htm`, `ndjson`).
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "txt" => Some(Format::Text),
            "htm" => Some(Format::Html),
            "md" | "markdown" => Some(Format::Markdown),
            "ndjson" => Some(Format::Jsonl),
            _ => Format::ALL.into_iter().find(|f| f.name() == name),
        }
    }

    /// Whether a person's documents come in this format (the others are the data sets').
    pub fn is_document(self) -> bool {
        Format::DOCUMENTS.contains(&self)
    }

    /// The document format a file's extension says; plain text when it says none.
    pub fn of_document(file_name: &str) -> Format {
        file_name
            .rsplit_once('.')
            .and_then(|(_, ext)| Format::parse(&ext.to_ascii_lowercase()))
            .filter(|f| f.is_document())
            .unwrap_or(Format::Text)
    }

    /// The format a file name says, the data sets' included: `.json` files are SQuAD-format
    /// snippets unless named for NewsQuant or the recognizers, JSONL files named for Qsearch
    /// are its judged queries.
    pub fn guess(file_name: &str) -> Format {
        let lower = file_name.to_ascii_lowercase();
        match lower.rsplit_once('.').map(|(_, ext)| ext) {
            Some("json") if lower.contains("newsquant") || lower.contains("recognizers") => {
                Format::NewsQuant
            }
            Some("json") => Format::Squad,
            Some("jsonl" | "ndjson") if lower.contains("qsearch") => Format::Qsearch,
            _ => Format::of_document(&lower),
        }
    }

    /// The names of `formats`, for a sentence that lists them.
    pub fn names(formats: &[Format]) -> String {
        formats
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl tally_types::Choice for Format {
    const WHAT: &'static str = "format";

    fn all() -> &'static [Self] {
        &Format::ALL
    }

    fn choice_name(self) -> &'static str {
        self.name()
    }

    fn from_choice_name(name: &str) -> Option<Self> {
        Format::parse(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_has_one_name_and_files_say_theirs() {
        for format in Format::ALL {
            assert_eq!(Format::parse(format.name()), Some(format));
        }
        assert_eq!(Format::parse("txt"), Some(Format::Text));
        assert_eq!(Format::guess("notes.TXT"), Format::Text);
        assert_eq!(Format::guess("page.htm"), Format::Html);
        assert_eq!(Format::guess("news.ndjson"), Format::Jsonl);
        assert_eq!(Format::guess("stresstest.json"), Format::Squad);
        assert_eq!(Format::guess("newsquant_dev.json"), Format::NewsQuant);
        assert_eq!(Format::guess("qsearch_text_dev.jsonl"), Format::Qsearch);
        assert_eq!(Format::guess("README"), Format::Text);
        // An upload is a person's document whatever its name says.
        assert_eq!(Format::of_document("qsearch_text_dev.jsonl"), Format::Jsonl);
        assert_eq!(Format::of_document("data.json"), Format::Text);
    }
}
