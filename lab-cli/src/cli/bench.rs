//! `tally bench …`: the benchmarks' flags.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use tally_types::count::flags::ReadingFlags;

use tally_setup::flags::{CorpusArgs, ModelArgs, SentenceIndexArgs};

/// `tally bench`: the benchmarks.
#[derive(Debug, Subcommand)]
pub(crate) enum BenchCommand {
    /// Extraction speed on one core: the gold sentences repeated to --sentences, and single texts
    /// of 1 KB, 100 KB and 10 MB.
    Extraction(BenchExtractionArgs),
    /// End-to-end latency of one count question over its stored snippets, with the stage split.
    Count(Box<BenchCountArgs>),
    /// Quantity search at scale: indexes ≥ 1M sentences (real and generated), then times bm25
    /// and qbm25 on a fixed query set; prints throughput, latency, memory and disk.
    Search(BenchSearchArgs),
    /// Value questions over the sentence index (the default corpus when empty): p50/p95 per
    /// question for the questions `eval value` builds from the Qsearch judged file.
    Value(BenchValueArgs),
    /// Ingesting your own documents: documents made of the data sets' real web snippets
    /// (repeated up to --sentences), split, extracted and indexed into fresh snippet and
    /// sentence indexes as `tally ingest` and the corpus page do; prints the time.
    Ingest(BenchIngestArgs),
    /// Candidate answers over a corpus of many tables (issue 98): WikiTableQuestions' tables
    /// read by Tally's reader into one corpus, the dev questions' candidates timed over it and
    /// over each question's own table alone (the peer), with the oracle recall of both.
    Candidates(BenchCandidatesArgs),
}

/// `tally bench candidates`: the flags of the candidates' benchmark.
#[derive(Debug, Clone, Args)]
pub(crate) struct BenchCandidatesArgs {
    /// WikiTableQuestions' directory.
    #[arg(long, default_value = "../shared/data/wtq")]
    pub(crate) wtq: PathBuf,
    /// Tables in the corpus (the dev questions' own tables first, then others).
    #[arg(long, default_value_t = 1000)]
    pub(crate) tables: usize,
    /// Questions timed (the first of the split).
    #[arg(long, default_value_t = 200)]
    pub(crate) questions: usize,
    /// Which questions: `dev` (report), `train` (choose).
    #[arg(long, value_enum, default_value = "dev")]
    pub(crate) split: tally_lab::candidates::Split,
}

/// `tally bench ingest`: the flags of the document-ingest benchmark.
#[derive(Debug, Clone, Args)]
pub(crate) struct BenchIngestArgs {
    /// Sentences to ingest.
    #[arg(long, default_value_t = 100_000)]
    pub(crate) sentences: usize,
    /// Instead of ordinary documents, one document of this many megabytes on a single line
    /// ("widget1 weighs 1 kg widget2 weighs 2 kg …"), as a one-line JSONL upload would bring.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) one_line_mb: Option<u32>,
    /// Where to build the two indexes [default: fresh directories under target/bench-ingest].
    #[arg(long, default_value = "target/bench-ingest")]
    pub(crate) dir: PathBuf,
    /// Where the public data sets are.
    #[command(flatten)]
    pub(crate) data: tally_setup::flags::DataArgs,
    /// Print the figures as one JSON object instead of lines.
    #[arg(long)]
    pub(crate) json: bool,
    /// The models a server loads (its resident memory is measured with them).
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// (The benchmark's measuring child) open the index pair in this directory as the server
    /// does and print its resident memory.
    #[arg(long, hide = true)]
    pub(crate) resident_of: Option<PathBuf>,
    /// (With --resident-of) then delete this corpus and measure again.
    #[arg(long, hide = true, requires = "resident_of")]
    pub(crate) then_delete: Option<String>,
}

/// `tally bench search`: the flags of the quantity-search benchmark.
#[derive(Debug, Clone, Args)]
pub(crate) struct BenchSearchArgs {
    /// Sentences to index (real sentences from the data directory, the rest generated).
    #[arg(long, default_value_t = 1_000_000)]
    pub(crate) sentences: usize,
    /// Where to build the index [default: a fresh directory under target/].
    #[arg(long)]
    pub(crate) index: Option<PathBuf>,
    /// Times each query runs per ranker.
    #[arg(long, default_value_t = 5)]
    pub(crate) runs: usize,
    /// Where the public data sets are.
    #[command(flatten)]
    pub(crate) data: tally_setup::flags::DataArgs,
    /// Print the figures as JSON instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// The encoder of the `learned` ranker, timed after the others (skipped when it does not
    /// load).
    #[command(flatten)]
    pub(crate) models: ModelArgs,
}

/// `tally bench value`: the flags of the value-question benchmark.
#[derive(Debug, Clone, Args)]
pub(crate) struct BenchValueArgs {
    /// Times each question runs.
    #[arg(long, default_value_t = 5)]
    pub(crate) runs: usize,
    /// Print the figures as one JSON object instead of a line.
    #[arg(long)]
    pub(crate) json: bool,
    /// The sentence index the questions are answered over.
    #[command(flatten)]
    pub(crate) sentences: SentenceIndexArgs,
}

/// `tally bench count`: the flags of the count-question latency benchmark.
#[derive(Debug, Clone, Args)]
pub(crate) struct BenchCountArgs {
    /// The question (a dataset question answers from its stored snippets).
    #[arg(
        long,
        default_value = "how many songs did paul mccartney write for the beatles"
    )]
    pub(crate) question: String,
    /// Times the question is answered.
    #[arg(long, default_value_t = 20)]
    pub(crate) runs: usize,
    /// Also answer this many different stored questions, `--concurrent` at once, and print
    /// questions per second (0: skip).
    #[arg(long, default_value_t = 40)]
    pub(crate) questions: usize,
    /// Questions answered at once for the throughput figure.
    #[arg(long, default_value_t = 4)]
    pub(crate) concurrent: usize,
    /// Print the figures as one JSON object instead of lines.
    #[arg(long)]
    pub(crate) json: bool,
    /// The corpus the question is answered over.
    #[command(flatten)]
    pub(crate) corpus: CorpusArgs,
    /// The models the question is answered with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// The reading settings the question is answered with.
    #[command(flatten)]
    pub(crate) settings: ReadingFlags,
}

/// `tally bench extraction`: the flags of the extraction-speed benchmark.
#[derive(Debug, Clone, Args)]
pub(crate) struct BenchExtractionArgs {
    /// Sentences to read (a gold file in the NewsQuant format, or a text file with one sentence
    /// per line).
    #[arg(long, default_value = "../shared/data/quantities/newsquant_dev.json")]
    pub(crate) sentences_from: PathBuf,
    /// How many sentences to extract from (the file's sentences repeated).
    #[arg(long, default_value_t = 100_000)]
    pub(crate) sentences: usize,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub(crate) json: bool,
}
