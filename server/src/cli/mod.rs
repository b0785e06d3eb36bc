//! The command line: `tally [SUB-COMMAND] [OPTIONS]`. Every option also reads an environment
//! variable, and every one has a default, so `tally` alone serves the web app.

use std::path::PathBuf;
use tally_types::count::flags::CountFlags;
use tally_types::documents::UploadMode;
use tally_types::{Mode, Ranker, SortOrder};

use clap::{Args, Parser, Subcommand};
use tally_documents::corpus::format::Format;
use tally_types::request::{Ask, Settings};

mod serve;

pub use serve::{ServeArgs, WebProvider, BRAVE_KEY_ENV, DEFAULT_FEEDBACK_LIMIT};
use tally_setup::flags::{
    CorpusArgs, IndexArgs, ModelArgs, ModelFiles, SentenceIndexArgs, DEFAULT_SENTENCE_INDEX,
};

/// `tally`'s command line.
#[derive(Debug, Parser)]
#[command(
    name = "tally",
    version,
    about = "Tally answers count and quantity questions from text, with evidence.",
    long_about = "Tally answers count questions (\"how many languages are spoken in Indonesia?\") \
                  and quantity-condition questions (\"phones with a battery above 4000 mAh\") from \
                  text, with the evidence a person needs to trust the answer.\n\n\
                  Without a sub-command, `tally` runs `tally serve`."
)]
pub struct Cli {
    /// The sub-command; `serve` when none is given.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `tally`'s sub-commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the web app and JSON API (the default).
    Serve(ServeArgs),
    /// Show what Tally reads in your documents: each passage with its place (title, section
    /// path, page, sheet and row, slide) and the kind of record it is, without storing anything.
    Read(ReadArgs),
    /// Store documents: your own files (text, Markdown, HTML, CSV, JSONL, PDF, Word,
    /// PowerPoint, Excel, OpenDocument spreadsheets, e-mail, EPUB; split into snippets for
    /// count questions and sentences with their quantities for value questions and quantity
    /// search, under a corpus name, with a progress bar), and the data sets' formats (SQuAD-format
    /// snippet files, JSONL snippet sets with "query", Qsearch judged files, NewsQuant files).
    Ingest(IngestArgs),
    /// List the corpora of the indexes, or delete one.
    #[command(subcommand)]
    Corpus(CorpusCommand),
    /// Answer a count question from the snippet index, or a value question ("how tall is …")
    /// from the sentence index, and print the answer with its evidence.
    Ask(AskArgs),
    /// Quantity-condition search ("stadiums with a capacity of more than 80000 people").
    Search(SearchArgs),
    /// A value question ("how tall is the Eiffel Tower", "capacity of Wembley Stadium"): one
    /// consolidated value from the quantities of the sentence index, with its evidence.
    Value(ValueArgs),
    /// The quantities Tally reads in a text: value, unit, dimension, change, span and the words
    /// that say what each measures.
    Extract(ExtractArgs),
}

/// `tally read`'s flags.
#[derive(Debug, Clone, Args)]
pub struct ReadArgs {
    /// The files to read.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// A document format (see `tally ingest --help`) [default: by the file's extension, a PDF by
    /// its first bytes].
    #[arg(long, value_parser = tally_types::choice::ChoiceParser::<Format>::new())]
    pub format: Option<Format>,
    /// Print the records each file becomes as one JSON object per file: its documents, each
    /// passage's context and record (a table row with its header paths and cells, a Total row
    /// apart, a list, a `Label: value` line), and its tables as grids.
    #[arg(long)]
    pub json: bool,
    /// Write the crop of the scanned page each passage read by OCR was read from into this
    /// folder, as `FILE-D-N.png` (document D, passage N, from 1); the listing names each.
    #[arg(long, value_name = "DIR")]
    pub crops: Option<PathBuf>,
}

/// `tally extract`'s flags.
#[derive(Debug, Clone, Args)]
pub struct ExtractArgs {
    /// The text; without it (or with `-`), each line of standard input is one document.
    pub text: Option<String>,
    /// Print one JSON object per document: {"text", "quantities": [{"surface", "start", "end",
    /// "value", "unit", "dimension", "change", "concept"}]}.
    #[arg(long)]
    pub json: bool,
}

/// `tally ingest`'s flags.
#[derive(Debug, Clone, Args)]
pub struct IngestArgs {
    /// Files to ingest.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// A person's documents: text, markdown, html, csv, jsonl, pdf, docx (Word), pptx
    /// (PowerPoint), xlsx and xls (Excel), ods (OpenDocument spreadsheet), eml (e-mail), epub;
    /// the data sets': squad, qsearch, newsquant [default: by the file's extension, a PDF by its
    /// first bytes; a file of no format Tally reads is refused with a sentence].
    #[arg(long, value_parser = tally_types::choice::ChoiceParser::<Format>::new())]
    pub format: Option<Format>,
    /// Corpus name stored with each snippet and sentence [default: the file name, in lower case
    /// letters, digits and `-`].
    #[arg(long)]
    pub corpus: Option<String>,
    /// Which index: count (snippets), search (sentences) or both [default: both; search for
    /// qsearch and newsquant files, which hold no count snippets].
    #[arg(long, value_enum)]
    pub into: Option<IngestInto>,
    /// A person's documents go into this PostgreSQL database, and every server using it indexes
    /// them (instead of the local indexes); data sets' files still go into the local indexes.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// With a database: add to a corpus that exists, or replace its documents.
    #[arg(long, default_value = "add")]
    pub mode: UploadMode,
    /// The indexes written.
    #[command(flatten)]
    pub indexes: IndexArgs,
    /// Whether and how the sentence vectors are stored.
    #[command(flatten)]
    pub vectors: IngestVectorArgs,
}

/// The sentence vectors `tally ingest` computes once the text is indexed (issue 76).
#[derive(Debug, Clone, Args)]
pub struct IngestVectorArgs {
    /// Compute the vectors of the sentences that have none for the default search ranker, with
    /// progress (resumable: interrupted, the next `tally ingest` or a server goes on).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub sentence_vectors: bool,
    /// The models the vectors are encoded with.
    #[command(flatten)]
    pub model_files: ModelFiles,
}

/// The indexes `tally ingest` writes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum IngestInto {
    /// The snippet index (count questions).
    Count,
    /// The sentence index (quantity search and value questions).
    Search,
    /// Both indexes.
    Both,
}

impl IngestInto {
    /// Whether the snippet index is filled.
    pub fn snippets(self) -> bool {
        matches!(self, IngestInto::Count | IngestInto::Both)
    }

    /// Whether the sentence index is filled.
    pub fn sentences(self) -> bool {
        matches!(self, IngestInto::Search | IngestInto::Both)
    }
}

/// `tally corpus`'s sub-commands.
#[derive(Debug, Subcommand)]
pub enum CorpusCommand {
    /// Each corpus with its snippets and sentences.
    List(IndexArgs),
    /// Remove a corpus from both indexes.
    Delete {
        /// The corpus's name (as `tally corpus list` prints it).
        name: String,
        /// The indexes it is deleted from.
        #[command(flatten)]
        indexes: IndexArgs,
    },
}

/// Quantity-search settings a user may change.
#[derive(Debug, Clone, Args)]
pub struct SearchSettingsArgs {
    /// How sentences are ranked.
    #[arg(long, default_value = Ranker::DEFAULT.name())]
    pub ranker: Ranker,
    /// Weight α of the quantity score.
    #[arg(long, default_value_t = tally_types::search::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// Results to return (capped at 1000).
    #[arg(short, long, default_value_t = tally_types::search::DEFAULT_RESULTS)]
    pub k: usize,
    /// The order of the results.
    #[arg(long, default_value = SortOrder::Relevance.name())]
    pub sort: SortOrder,
}

/// `tally search`'s flags.
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// The query ("phones under $300 with at least 128 GB").
    pub query: String,
    /// Print the whole result as JSON.
    #[arg(long)]
    pub json: bool,
    /// The search's settings.
    #[command(flatten)]
    pub settings: SearchSettingsArgs,
    /// The sentence index searched.
    #[command(flatten)]
    pub sentences: SentenceIndexArgs,
    /// The models a ranker may need.
    #[command(flatten)]
    pub models: ModelArgs,
}

/// `tally value`'s flags.
#[derive(Debug, Clone, Args)]
pub struct ValueArgs {
    /// The question ("how tall is the Eiffel Tower").
    pub question: String,
    /// Print the whole answer as JSON (the `ValueAnswer` of `/api/value`).
    #[arg(long)]
    pub json: bool,
    /// Ask the documents of this corpus only [default: every corpus].
    #[arg(long)]
    pub corpus: Option<String>,
    /// Sentence index value questions are answered from (filled with the default corpus when
    /// empty).
    #[arg(
        long,
        env = "TALLY_SEARCH_INDEX",
        default_value = DEFAULT_SENTENCE_INDEX
    )]
    pub search_index: PathBuf,
    /// The snippet index (its tables answer first).
    #[command(flatten)]
    pub snippets: CorpusArgs,
    /// The models the service loads.
    #[command(flatten)]
    pub models: ModelArgs,
}

impl ValueArgs {
    /// The question as `tally ask --mode value` and the page's value form send it.
    pub fn asked(&self) -> Ask {
        let mut settings = Settings::default();
        settings.count.corpus = self.corpus.clone();
        Ask {
            q: self.question.clone(),
            mode: Mode::Value,
            settings,
        }
    }
}

/// `tally ask`: a question of any kind, answered by the service the web app uses, with the
/// settings the web's `/api/count` and page take (and the count pipeline's tuning knobs).
#[derive(Debug, Clone, Args)]
pub struct AskArgs {
    /// The question ("how many songs did john lennon write", "how tall is the Eiffel Tower").
    pub question: String,
    /// Print the whole answer as JSON (the `/api/count` object without its storage ids).
    #[arg(long)]
    pub json: bool,
    /// auto (detected from the question, the reason printed on standard error), count, value,
    /// quantity or search.
    #[arg(long, default_value = Mode::Auto.name())]
    pub mode: Mode,
    /// Sentence index that value questions and searches are answered from (filled with the
    /// default corpus when empty).
    #[arg(
        long,
        env = "TALLY_SEARCH_INDEX",
        default_value = DEFAULT_SENTENCE_INDEX
    )]
    pub search_index: PathBuf,
    /// The most snippets a count question may read, as the server's --max-snippets.
    #[arg(long, env = "TALLY_MAX_SNIPPETS", default_value_t = tally_types::count::DEFAULT_MAX_SNIPPETS as u64,
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub max_snippets: u64,
    /// How a search ranks sentences.
    #[arg(long, default_value = Ranker::DEFAULT.name())]
    pub ranker: Ranker,
    /// Search results shown (the page's `k`).
    #[arg(long, default_value_t = tally_types::search::DEFAULT_RESULTS)]
    pub k: usize,
    /// The snippet index asked.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// The models the service loads.
    #[command(flatten)]
    pub models: ModelArgs,
    /// The count settings.
    #[command(flatten)]
    pub settings: CountFlags,
}

impl AskArgs {
    /// The question with the settings the web takes, as the page's form would send them.
    pub fn asked(&self) -> Ask {
        Ask {
            q: self.question.clone(),
            mode: self.mode,
            settings: Settings {
                count: self.settings.0.clone(),
                ranker: self.ranker,
                k: self.k,
                ..Settings::default()
            },
        }
    }
}

impl Cli {
    /// The sub-command to run; `serve` with its defaults when none was given.
    pub fn command_or_default(self) -> Command {
        self.command
            .unwrap_or_else(|| match Cli::parse_from(["tally", "serve"]).command {
                Some(command) => command,
                None => unreachable!("`serve` was given"),
            })
    }
}

pub use tally_setup::process::{end_quietly_when_stdout_closes, run_command};

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_sub_command_means_serve_with_defaults() {
        let command = Cli::parse_from(["tally"]).command_or_default();
        let Command::Serve(args) = command else {
            panic!("the default command is serve");
        };
        assert_eq!(args.model_files.encoder, "all-MiniLM-L6-v2");
        assert_eq!(args.site_root, PathBuf::from("target/site"));
    }

    #[test]
    fn bad_address_is_a_usage_error() {
        let err = Cli::try_parse_from(["tally", "serve", "--addr", "not-an-address"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::ValueValidation);
    }
}
