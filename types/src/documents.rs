//! A person's documents: how far an ingestion has come (as the engine reports it, the command
//! line draws it and the corpus pages show it), the corpora of the indexes and the ingestion jobs
//! that add documents, as the server reports them and the corpus pages (admin token) show them.

use serde::{Deserialize, Serialize};

/// What a passage read by OCR says of itself in its place ("page 1, read by OCR, 94% sure"):
/// the readers write it, the pages find by it the evidence a scan's crop goes beside.
pub const READ_BY_OCR: &str = "read by OCR";

/// Between the cells of a table row when the crop of its scanned page is asked for by them
/// (`GET /api/crop`'s `text` for an aggregation's row).
pub const ROW_CELLS_SEPARATOR: &str = " | ";

/// What the crop of an aggregation's row is asked for by as its source (`GET /api/crop`): the
/// row's document and its place ("receipt.jpg · page 1, read by OCR, 91% sure").
pub fn row_crop_source(document: &str, place: &str) -> String {
    format!("{document} · {place}")
}

/// How far an ingestion has come (a missing field, in a stored row, is 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct IngestProgress {
    /// Documents to ingest.
    pub documents: usize,
    /// Documents ingested so far.
    pub documents_done: usize,
    /// The documents' text, and how much of it is indexed (what a progress bar shows).
    pub bytes: usize,
    /// Bytes of text indexed so far.
    pub bytes_done: usize,
    /// Snippets indexed for count questions.
    pub snippets: usize,
    /// Sentences indexed for value questions and quantity search.
    pub sentences: usize,
    /// Quantities found in those sentences.
    pub quantities: usize,
    /// Seconds the ingestion has taken so far.
    pub seconds: f64,
}

/// A corpus and its size in each index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct CorpusRow {
    /// The corpus's name.
    pub name: String,
    /// Snippets for count questions.
    pub snippets: u64,
    /// Sentences with their quantities, for value questions and quantity search.
    pub sentences: u64,
    /// Being indexed now (an upload, or a rebuild after a restart): not offered for questions
    /// until done.
    #[serde(default)]
    pub indexing: bool,
    /// Sentences whose vector for the default search ranker is stored (issue 76), as the
    /// server's background job last counted them; `None` when the server computes none.
    #[serde(default)]
    pub vectors: Option<u64>,
    /// Why indexing its current version failed, was cut or stopped the server (issue 84);
    /// servers do not index that version again on their own: delete the corpus, upload anew,
    /// or start its job again.
    #[serde(default)]
    pub failed: Option<String>,
}

/// Where an ingestion job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Waiting for an earlier job, or indexing.
    Running,
    /// Finished: every document is indexed.
    Done,
    /// Stopped with an error (see the job's `error`).
    Failed,
    /// Its corpus was deleted before its documents were all indexed.
    Cancelled,
}

impl JobState {
    /// Every value, in the order they are listed.
    pub const ALL: [JobState; 4] = [
        JobState::Running,
        JobState::Done,
        JobState::Failed,
        JobState::Cancelled,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }

    /// The name of the job's event in its event stream: `progress` while it runs, then the
    /// state it ended in.
    pub const fn event_name(self) -> &'static str {
        match self {
            JobState::Running => "progress",
            ended => ended.name(),
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<JobState> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// What an upload into a corpus that exists already does with the documents it held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum UploadMode {
    /// Keeps them and adds the new documents (one already there, by its text, is not added
    /// again).
    #[default]
    Add,
    /// Drops them first.
    Replace,
}

impl UploadMode {
    /// Every value, in the order they are listed.
    pub const ALL: [UploadMode; 2] = [UploadMode::Add, UploadMode::Replace];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            UploadMode::Add => "add",
            UploadMode::Replace => "replace",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<UploadMode> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// An ingestion of uploaded files into one corpus, and how far it has come.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct IngestJob {
    /// Its id: unguessable; its JSON, page and event stream still need the admin token (issue
    /// 97: anyone with the id read the corpus, the file names and their errors).
    pub id: String,
    /// The corpus the files go into.
    pub corpus: String,
    /// The uploaded files' names.
    pub files: Vec<String>,
    /// What the upload does with the documents the corpus held already.
    pub mode: UploadMode,
    /// Documents of the upload that the corpus held already (by their text): not added again.
    pub duplicates: usize,
    /// Where the job is.
    pub state: JobState,
    /// How far it has come.
    #[serde(flatten)]
    pub progress: IngestProgress,
    /// Why it failed.
    pub error: Option<String>,
    /// Each file of the upload: the documents read from it, or why it was refused (issue 87:
    /// the files that can be read are stored, the others listed with their sentence). Empty
    /// for jobs stored before it existed.
    #[serde(default)]
    pub outcomes: Vec<FileOutcome>,
}

/// The documents a corpus holds from one source (a file), as its page lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct DocumentEntry {
    /// Where they came from: the file's name.
    pub source: String,
    /// How many documents (a file's sections, a CSV's rows) it gave.
    pub documents: u64,
    /// Their text, in bytes.
    pub bytes: u64,
}

/// What became of one file of an upload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct FileOutcome {
    /// The file's name.
    pub file: String,
    /// The documents read from it (0 when refused).
    pub documents: usize,
    /// Why it was refused, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// The pages its documents are on (a PDF's, a scan's); 0 for a file without pages.
    #[serde(default)]
    pub pages: usize,
    /// How sure OCR was of what it read, in percent (the mean over the passages it read);
    /// absent when no page was read by OCR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ocr_sure: Option<f64>,
}

impl FileOutcome {
    /// What the upload's page says of the file: "read by OCR, 93% sure, 1 page", "read, 3
    /// pages", "read, 12 documents", or why it was refused.
    pub fn sentence(&self) -> String {
        if let Some(why) = &self.refused {
            return format!("refused — {why}");
        }
        let plural = |n: usize, one: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {one}s")
            }
        };
        let how = match self.ocr_sure {
            Some(sure) => format!("{READ_BY_OCR}, {sure:.0}% sure"),
            None => "read".to_string(),
        };
        if self.pages > 0 {
            format!("{how}, {}", plural(self.pages, "page"))
        } else {
            format!("{how}, {}", plural(self.documents, "document"))
        }
    }
}

/// The file extensions of the documents Tally reads (the engine's `Format::of_extension` reads
/// each; the upload form accepts them).
pub const DOCUMENT_EXTENSIONS: [&str; 22] = [
    "txt", "text", "md", "markdown", "html", "htm", "csv", "jsonl", "ndjson", "pdf", "docx",
    "pptx", "xlsx", "xls", "ods", "eml", "epub", "png", "jpg", "jpeg", "tif", "tiff",
];

/// What a file picker accepts: ".txt,.text,…".
pub fn upload_accept() -> String {
    DOCUMENT_EXTENSIONS.map(|e| format!(".{e}")).join(",")
}
