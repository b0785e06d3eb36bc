//! The flag groups several `tally` commands share, read into typed values once: where the
//! models are, the data sets, the two indexes. Each command flattens the groups it needs.

use std::path::PathBuf;

use clap::Args;
use tally_engine::count::span_model::{ReaderWeights, CONTEXT_CHARS};

/// Where the snippet index (count questions) and the sentence index (quantity search and
/// value questions) are kept unless a flag or the environment says otherwise.
pub const DEFAULT_SNIPPET_INDEX: &str = "target/tally-index";
/// See [`DEFAULT_SNIPPET_INDEX`].
pub const DEFAULT_SENTENCE_INDEX: &str = "target/tally-search-index";

/// Where the models are: shared by the commands that answer count questions.
#[derive(Debug, Clone, Args)]
pub struct ModelArgs {
    /// The models directory and the encoder.
    #[command(flatten)]
    pub model_files: ModelFiles,
    /// Span-model head directory [default: the head trained by the project, built in].
    #[arg(long, env = "TALLY_SPAN_MODEL")]
    pub span_model: Option<PathBuf>,
    /// Characters of its sentence the count reader reads (and is trained on) on each side of a
    /// count (0: whole sentences).
    #[arg(long, default_value_t = CONTEXT_CHARS)]
    pub reader_context: usize,
    /// The count reader's weights: `fast` (8-bit dense weights where this CPU's 8-bit dot
    /// products are fast, else f32) or `full` (f32, as trained).
    #[arg(long, default_value = "fast")]
    pub reader_weights: ReaderWeights,
}

impl ModelArgs {
    /// What `--reader-context` means for the reader.
    pub fn reader_context_chars(&self) -> usize {
        match self.reader_context {
            0 => usize::MAX,
            chars => chars,
        }
    }
}

/// The two index directories.
#[derive(Debug, Clone, Args)]
pub struct IndexArgs {
    /// Snippet index directory of count questions (a server fills an empty one with the
    /// default corpus).
    #[arg(long, env = "TALLY_INDEX", default_value = DEFAULT_SNIPPET_INDEX)]
    pub index: PathBuf,
    /// Sentence index directory of quantity search and value questions (likewise).
    #[arg(
        long,
        env = "TALLY_SEARCH_INDEX",
        default_value = DEFAULT_SENTENCE_INDEX
    )]
    pub search_index: PathBuf,
}

/// The sentence index a command reads: shared by search and value questions.
#[derive(Debug, Clone, Args)]
pub struct SentenceIndexArgs {
    /// Sentence index directory (filled with the default corpus when empty).
    #[arg(
        long,
        env = "TALLY_SEARCH_INDEX",
        default_value = DEFAULT_SENTENCE_INDEX
    )]
    pub search_index: PathBuf,
    /// The data sets the index is filled from.
    #[command(flatten)]
    pub data: DataArgs,
}

/// Where the snippets come from: the index, filled from the data directory when empty.
#[derive(Debug, Clone, Args)]
pub struct CorpusArgs {
    /// Snippet index directory (filled with the default corpus when empty).
    #[arg(long, env = "TALLY_INDEX", default_value = DEFAULT_SNIPPET_INDEX)]
    pub index: PathBuf,
    /// The data sets the index is filled from.
    #[command(flatten)]
    pub data: DataArgs,
}

impl CorpusArgs {
    /// The data directory: as given, or `../shared/data` when that exists.
    pub fn data_dir(&self) -> Option<PathBuf> {
        self.data.dir()
    }
}

/// The directory of the public data sets, one flag for every command that reads them.
#[derive(Debug, Clone, Default, Args)]
pub struct DataArgs {
    /// Directory of the public data sets [default: ../shared/data when it exists].
    #[arg(long = "data", env = "TALLY_DATA")]
    pub given: Option<PathBuf>,
}

impl DataArgs {
    /// The data directory as given, or `../shared/data` when none is given and that exists.
    pub fn dir(&self) -> Option<PathBuf> {
        match &self.given {
            Some(dir) if !dir.as_os_str().is_empty() => Some(dir.clone()),
            _ => {
                let default = PathBuf::from("../shared/data");
                default.is_dir().then_some(default)
            }
        }
    }
}

/// Where the model directories are and which sentence encoder to load from them.
#[derive(Debug, Clone, Args)]
pub struct ModelFiles {
    /// Directory holding model directories.
    #[arg(long, env = "TALLY_MODELS", default_value = "models")]
    pub models: PathBuf,
    /// Sentence encoder: a model directory's path, or a name (or hub id) looked up in --models.
    #[arg(long, env = "TALLY_ENCODER", default_value = "all-MiniLM-L6-v2")]
    pub encoder: String,
}
