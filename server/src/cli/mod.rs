//! The command line: `tally [SUB-COMMAND] [OPTIONS]`. Every option also reads an environment
//! variable, and every one has a default, so `tally` alone serves the web app.

use std::net::SocketAddr;
use std::path::PathBuf;
use tally_types::count::flags::{CountFlags, ReadingFlags};
use tally_types::documents::UploadMode;
use tally_types::{Mode, Ranker, SortOrder};

use clap::{Args, Parser, Subcommand};
use tally_engine::corpus::format::Format;
use tally_engine::count::span_model::{ReaderWeights, CONTEXT_CHARS};
use tally_lab::count::training::settings::TrainSettings;
use tally_types::request::{Ask, Settings};

pub mod bench;
use bench::BenchCommand;

/// Where the snippet index (count questions) and the sentence index (quantity search and
/// value questions) are kept unless a flag or the environment says otherwise.
const DEFAULT_SNIPPET_INDEX: &str = "target/tally-index";
const DEFAULT_SENTENCE_INDEX: &str = "target/tally-search-index";

/// Feedback submissions per address and minute unless the operator says otherwise (issue 70:
/// unlimited feedback put 200 rows in the review queue in 0.19 s).
pub const DEFAULT_FEEDBACK_LIMIT: u32 = 20;

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
    #[command(subcommand)]
    pub command: Option<Command>,
}

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
    /// Train a model of Tally's own.
    #[command(subcommand)]
    Train(TrainCommand),
    /// Score a component against gold data and print the paper's metrics.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Measure speed and print figures.
    #[command(subcommand)]
    Bench(BenchCommand),
}

#[derive(Debug, Clone, Args)]
pub struct ReadArgs {
    /// The files to read.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// A document format (see `tally ingest --help`) [default: by the file's extension, a PDF by
    /// its first bytes].
    #[arg(long, value_parser = tally_types::choice::ChoiceParser::<Format>::new())]
    pub format: Option<Format>,
}

#[derive(Debug, Clone, Args)]
pub struct ExtractArgs {
    /// The text; without it (or with `-`), each line of standard input is one document.
    pub text: Option<String>,
    /// Print one JSON object per document: {"text", "quantities": [{"surface", "start", "end",
    /// "value", "unit", "dimension", "change", "concept"}]}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Quantity extraction against a gold file in the NewsQuant format: precision, recall and F1
    /// for value, value+unit and value+change.
    Extraction(EvalExtractionArgs),
    /// Count answering on SQuAD-format snippets and a gold CSV: RP, coverage, P/C and proximity
    /// for every consolidation strategy.
    Count(EvalCountArgs),
    /// CNP classification (Algorithm 2) against annotated categories: accuracy per class.
    Cnp(EvalCnpArgs),
    /// Instance ranking against gold instances and aliases: MAP@k, AR@k, Hit@10, MRR.
    Instances(EvalInstancesArgs),
    /// Feedback that teaches, by simulation: visitors judge a share of the answers (10, 30, 50%;
    /// some adversarial), an operator reviews them; P/C on the judged questions (verified
    /// answers) and on the others (the answer-support model retrained on the judgments).
    Feedback(EvalFeedbackArgs),
    /// Quantity search on judged sentences (Qsearch format): P@10, MRR@10, NDCG@10 per ranker,
    /// in-sample with the defaults and 5-fold cross-validated by query over a grid of weights.
    Search(EvalSearchArgs),
    /// Value questions built from judged sentences (Qsearch format): Exist@1, Exist@10 of the
    /// ranked observations and RP, coverage, P/C of the consolidated value.
    Value(EvalValueArgs),
    /// Count questions about a person's own documents (tests/fixtures/own-documents): right,
    /// wrong and declined per half, over the documents alone and with the default corpus as
    /// distractors.
    OwnDocuments(EvalOwnDocumentsArgs),
    /// Questions that count, add up, average or compare a table's rows under a condition
    /// (tests/fixtures/aggregations): right, wrong and declined per operation and half, and
    /// how each was answered (the records, the count reader, the value reader).
    Aggregations(EvalAggregationsArgs),
}

#[derive(Debug, Clone, Args)]
pub struct EvalAggregationsArgs {
    /// The collection: `documents/` and `questions.jsonl`.
    #[arg(long, default_value = "tests/fixtures/aggregations")]
    pub dir: PathBuf,
    /// Where the evaluation's sentence index is built.
    #[arg(long, default_value = "target/eval-aggregations")]
    pub work: PathBuf,
    /// List the test half's misses too (read them only to report, never to tune).
    #[arg(long)]
    pub show_test: bool,
    /// Answer without the records (the count and value readers alone, as before issue 74):
    /// the figure to compare with.
    #[arg(long)]
    pub without_records: bool,
    #[command(flatten)]
    pub models: ModelArgs,
    #[command(flatten)]
    pub settings: ReadingFlags,
}

#[derive(Debug, Clone, Args)]
pub struct EvalOwnDocumentsArgs {
    /// The collection: `documents/*.txt` and `questions.jsonl`.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub dir: PathBuf,
    /// Where the evaluation's fresh snippet index is built.
    #[arg(long, default_value = "target/eval-own-documents")]
    pub work: PathBuf,
    /// Directory of the public data sets (the default corpus, the distractors) [default:
    /// ../shared/data when it exists].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
    /// List the test half's misses too (read them only to report, never to tune).
    #[arg(long)]
    pub show_test: bool,
    /// Answer over the documents alone, without the setting with the default corpus as
    /// distractors (half the time).
    #[arg(long)]
    pub documents_only: bool,
    /// Read the documents from this directory instead of `DIR/documents` (the collection's
    /// documents in other formats, named by the same stems, e.g.
    /// `tests/fixtures/own-documents/converted`), and ask only the questions about them.
    #[arg(long)]
    pub documents: Option<PathBuf>,
    /// With `--documents`: read the collection's own documents that directory holds in other
    /// formats instead (the same facts in their first format, to compare with).
    #[arg(long, requires = "documents")]
    pub originals: bool,
    #[arg(long)]
    pub json: bool,
    /// Write each value answer's support and whether it is right (as if it were sure) to this
    /// file, one JSON object per line: the tuning half's lines choose the "not sure" bound.
    #[arg(long, value_name = "FILE")]
    pub value_supports: Option<PathBuf>,
    #[command(flatten)]
    pub models: ModelArgs,
    #[command(flatten)]
    pub settings: ReadingFlags,
}

/// Where the models are: shared by the commands that answer count questions.
#[derive(Debug, Clone, Args)]
pub struct ModelArgs {
    /// Directory holding model directories.
    #[arg(long, env = "TALLY_MODELS", default_value = "models")]
    pub models: PathBuf,
    /// Sentence encoder: a model directory's path, or a name (or hub id) looked up in --models.
    #[arg(long, env = "TALLY_ENCODER", default_value = "all-MiniLM-L6-v2")]
    pub encoder: String,
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
    #[command(flatten)]
    pub indexes: IndexArgs,
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
    /// Directory holding model directories.
    #[arg(long, env = "TALLY_MODELS", default_value = "models")]
    pub models: PathBuf,
    /// The encoder of the vectors: a model directory's path, or a name looked up in --models.
    #[arg(long, env = "TALLY_ENCODER", default_value = "all-MiniLM-L6-v2")]
    pub encoder: String,
}

/// The indexes `tally ingest` writes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum IngestInto {
    /// The snippet index (count questions).
    Count,
    /// The sentence index (quantity search and value questions).
    Search,
    Both,
}

impl IngestInto {
    pub fn snippets(self) -> bool {
        matches!(self, IngestInto::Count | IngestInto::Both)
    }

    pub fn sentences(self) -> bool {
        matches!(self, IngestInto::Search | IngestInto::Both)
    }
}

#[derive(Debug, Subcommand)]
pub enum CorpusCommand {
    /// Each corpus with its snippets and sentences.
    List(IndexArgs),
    /// Remove a corpus from both indexes.
    Delete {
        /// The corpus's name (as `tally corpus list` prints it).
        name: String,
        #[command(flatten)]
        indexes: IndexArgs,
    },
}

/// The two index directories.
#[derive(Debug, Clone, Args)]
pub struct IndexArgs {
    /// Snippet index directory.
    #[arg(long, env = "TALLY_INDEX", default_value = DEFAULT_SNIPPET_INDEX)]
    pub index: PathBuf,
    /// Sentence index directory.
    #[arg(
        long,
        env = "TALLY_SEARCH_INDEX",
        default_value = DEFAULT_SENTENCE_INDEX
    )]
    pub search_index: PathBuf,
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

#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// The query ("phones under $300 with at least 128 GB").
    pub query: String,
    /// Print the whole result as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub settings: SearchSettingsArgs,
    #[command(flatten)]
    pub sentences: SentenceIndexArgs,
    #[command(flatten)]
    pub models: ModelArgs,
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
    /// Directory of the public data sets [default: ../shared/data when it exists].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct ValueArgs {
    /// The question ("how tall is the Eiffel Tower").
    pub question: String,
    /// Print the whole answer as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub sentences: SentenceIndexArgs,
}

#[derive(Debug, Clone, Args)]
pub struct EvalValueArgs {
    /// Judged queries (e.g. ../shared/data/qsearch/qsearch_text_dev.jsonl).
    #[arg(long)]
    pub judged: PathBuf,
    /// Everyday value questions written for the project, with their sentences and halves.
    #[arg(long, default_value = "tests/fixtures/everyday-values.json")]
    pub everyday: PathBuf,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also print each question with its gold value and answer.
    #[arg(long)]
    pub errors: bool,
}

#[derive(Debug, Clone, Args)]
pub struct EvalSearchArgs {
    /// Judged queries (e.g. ../shared/data/qsearch/qsearch_text_dev.jsonl).
    #[arg(long)]
    pub judged: PathBuf,
    /// Print {"queries","p@10","mrr@10","ndcg@10"} for the chosen ranker only (in-sample, with the
    /// defaults; no grid).
    #[arg(long)]
    pub json: bool,
    /// The ranker printed by --json [default: learned, the default ranker].
    #[arg(long)]
    pub ranker: Option<Ranker>,
    /// Weight α of the quantity score.
    #[arg(long, default_value_t = tally_types::search::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// Rank with the judged sentences' vectors stored first, as a server's background job
    /// stores them (8 bits per dimension), instead of encoding each pool.
    #[arg(long)]
    pub stored_vectors: bool,
    #[command(flatten)]
    pub models: ModelArgs,
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
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub models: ModelArgs,
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

/// Where the snippets come from: the index, filled from the data directory when empty.
#[derive(Debug, Clone, Args)]
pub struct CorpusArgs {
    /// Snippet index directory (filled with the default corpus when empty).
    #[arg(long, env = "TALLY_INDEX", default_value = DEFAULT_SNIPPET_INDEX)]
    pub index: PathBuf,
    /// Directory of the public data sets [default: ../shared/data when it exists].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
}

impl CorpusArgs {
    pub fn data_dir(&self) -> Option<PathBuf> {
        data_dir_or_default(&self.data)
    }
}

/// The data directory as given, or `../shared/data` when none is given and that exists.
pub fn data_dir_or_default(given: &Option<PathBuf>) -> Option<PathBuf> {
    match given {
        Some(dir) if !dir.as_os_str().is_empty() => Some(dir.clone()),
        _ => {
            let default = PathBuf::from("../shared/data");
            default.is_dir().then_some(default)
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// The span head of the count pipeline, with 5-fold cross-validation by query.
    CountSpans(TrainCountSpansArgs),
    /// The `learned` search ranker's weights, on every judged query (its cross-validated
    /// figures are printed too, each fold trained without its queries).
    SearchRanker(TrainSearchRankerArgs),
    /// The `learned` ranker's token vectors: distilled from the sentence encoder and fine-tuned
    /// on quantity queries generated from the training corpora (never the judged Qsearch
    /// sentences).
    TokenVectors(TrainTokenVectorsArgs),
    /// The learned instance scorer, on the judged instance set's tuning half: its penalty and
    /// the probability above which names are shown chosen by 5-fold cross-validation by
    /// question.
    Instances(TrainInstancesArgs),
    /// The answer-support model (what abstention reads) retrained on the operator's accepted
    /// judgments of count answers, compared with the shipped one by 5-fold cross-validation by
    /// question, and written to a span-model directory the server reads only with --span-model.
    Support(TrainSupportArgs),
}

#[derive(Debug, Clone, Args)]
pub struct TrainSupportArgs {
    /// Accepted judgments as JSON lines (`GET /api/admin/judgments` with the admin token).
    #[arg(long)]
    pub judgments: Option<PathBuf>,
    /// Or read them from this database (the server's).
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// The span-model directory written: the shipped files and the retrained support model.
    #[arg(long, default_value = "target/answer-support")]
    pub out: PathBuf,
    /// Sentence index (filled with the default corpus when empty), as the server's.
    #[arg(long, env = "TALLY_SEARCH_INDEX", default_value = DEFAULT_SENTENCE_INDEX)]
    pub search_index: PathBuf,
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub models: ModelArgs,
}

#[derive(Debug, Clone, Args)]
pub struct TrainSearchRankerArgs {
    /// Judged queries (Qsearch format).
    #[arg(long, default_value = "../shared/data/qsearch/qsearch_text_dev.jsonl")]
    pub judged: PathBuf,
    /// Where to write the weights (the shipped ones are engine/data/search-ranker.json).
    #[arg(long, default_value = "engine/data/search-ranker.json")]
    pub out: PathBuf,
    /// Token vectors (`tally train token-vectors`) whose cosine is measured as a candidate
    /// feature.
    #[arg(long)]
    pub token_vectors: Option<PathBuf>,
    /// Train on this many generated quantity queries over the training corpora instead of the
    /// judged queries, which then measure the weights once (0: train on the judged queries).
    #[arg(long, default_value_t = 0)]
    pub generated: usize,
    /// Data directory with the training corpora of --generated [default: ../shared/data].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub models: ModelArgs,
}

#[derive(Debug, Clone, Args)]
pub struct TrainTokenVectorsArgs {
    /// Judged queries (Qsearch format), whose sentences are never trained on.
    #[arg(long, default_value = "../shared/data/qsearch/qsearch_text_dev.jsonl")]
    pub judged: PathBuf,
    /// Data directory with the training corpora [default: ../shared/data].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
    /// Where to write the vectors (the shipped ones are engine/data/token-vectors.safetensors).
    #[arg(long, default_value = "engine/data/token-vectors.safetensors")]
    pub out: PathBuf,
    /// Most queries generated.
    #[arg(long, default_value_t = 20_000)]
    pub queries: usize,
    /// Passes over the generated queries.
    #[arg(long, default_value_t = 3)]
    pub epochs: usize,
    /// Generated queries printed, for a reader of the log.
    #[arg(long, default_value_t = 12)]
    pub show: usize,
    #[command(flatten)]
    pub models: ModelArgs,
}

#[derive(Debug, Clone, Args)]
pub struct TrainInstancesArgs {
    /// The judged instance set (its tuning half is trained on; the test half is never read).
    #[arg(long, default_value = "tests/fixtures/instances/judged.jsonl")]
    pub judged: PathBuf,
    /// The own-documents collection some judged questions are about.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub collection: PathBuf,
    /// Where the fresh snippet index is built.
    #[arg(long, default_value = "target/train-instances")]
    pub work: PathBuf,
    /// Directory of the public data sets [default: ../shared/data when it exists].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
    /// Where to write the scorer (the shipped one is engine/data/instance-scorer.json).
    #[arg(long, default_value = "engine/data/instance-scorer.json")]
    pub out: PathBuf,
    /// Also write every candidate row (question number, name, features, judgment) as JSON
    /// lines, to study the evidence.
    #[arg(long)]
    pub write_rows: Option<PathBuf>,
    /// Accepted judgments exported from the review queue (`GET /api/admin/judgments`): their
    /// instance marks (relevant / not relevant) are trained on with the tuning half.
    #[arg(long)]
    pub judgments: Option<PathBuf>,
    #[command(flatten)]
    pub models: ModelArgs,
    #[command(flatten)]
    pub settings: ReadingFlags,
}

#[derive(Debug, Clone, Args)]
pub struct TrainCountSpansArgs {
    /// The CoQEx data directory (with stresstest_v1/ and count_lcquad_v2/).
    #[arg(long, default_value = "../shared/data/coqex")]
    pub data: PathBuf,
    /// Where to write span_head.safetensors and span_head.json.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the training windows.
    #[arg(long, default_value_t = TrainSettings::default().epochs)]
    pub epochs: usize,
    /// How many of the encoder's top layers the reader fine-tunes with its head (0: only the
    /// head, over the frozen encoder).
    #[arg(long, default_value_t = TrainSettings::default().tuned_layers)]
    pub tuned_layers: usize,
    /// Windows without an answer per window with one, drawn anew each epoch.
    #[arg(long, default_value_t = TrainSettings::default().negatives_per_positive)]
    pub negatives_per_positive: f64,
    /// Silver questions made from each training question's own snippets ("how many ‹noun
    /// phrase› …" from a sentence's count phrase; 0: none).
    #[arg(long, default_value_t = TrainSettings::default().silver_per_query)]
    pub silver_per_query: usize,
    /// Silver name questions ("which ‹class› …" from an enumeration, every listed name right)
    /// made from each training question's own snippets (0: none, the count reader's recipe; 10:
    /// the name reader's, engine/data/name-spans).
    #[arg(long, default_value_t = TrainSettings::default().silver_names_per_query)]
    pub silver_names_per_query: usize,
    #[arg(long, default_value_t = 5)]
    pub folds: usize,
    /// Where the span head's out-of-fold candidate probabilities are written (and read by the
    /// candidate ranker).
    #[arg(long, default_value = "target/count-spans-oof.json")]
    pub span_confidences: PathBuf,
    /// Train only the candidate ranker, on the span probabilities of an earlier run (the span
    /// head in --out stays as it is).
    #[arg(long)]
    pub ranker_only: bool,
    /// Print the full cross-validation report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub models: ModelArgs,
}

#[derive(Debug, Clone, Args)]
pub struct EvalCountArgs {
    /// SQuAD-format snippets (e.g. ../shared/data/coqex/stresstest_v1/stresstest_bing_v1.json).
    #[arg(long)]
    pub snippets: PathBuf,
    /// CSV with qid, query, answer_norm.
    #[arg(long)]
    pub gold: PathBuf,
    /// Print {"queries","answered","rp","coverage","pc","proximity"} for the chosen strategy.
    #[arg(long)]
    pub json: bool,
    /// Where each question's snippets come from.
    #[arg(long, value_enum, default_value_t = EvalRetrievalArg::Stored)]
    pub retrieval: EvalRetrievalArg,
    /// (With --retrieval open or off-corpus) the snippet index searched, filled with the
    /// default corpus (the data sets' snippets, from --data) when empty.
    #[arg(long, default_value = "target/eval-count-index")]
    pub index: PathBuf,
    /// Directory of the public data sets [default: ../shared/data when it exists].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub models: ModelArgs,
    #[command(flatten)]
    pub settings: ReadingFlags,
}

/// `tally eval count --retrieval`: where an evaluated question's snippets come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalRetrievalArg {
    /// The question's own snippet set, gathered for it (the benchmarks' setting).
    Stored,
    /// BM25's top --snippets over the whole default corpus (its own snippets among ~9,800), as
    /// a question the corpus was not gathered for is answered.
    Open,
    /// As open, with the question's own snippets left out: a count given is almost always wrong.
    OffCorpus,
}

#[derive(Debug, Clone, Args)]
pub struct EvalFeedbackArgs {
    /// SQuAD-format snippets [default: Stresstest's, under --data].
    #[arg(long)]
    pub snippets: Option<PathBuf>,
    /// CSV with qid, query, answer_norm [default: Stresstest's].
    #[arg(long)]
    pub gold: Option<PathBuf>,
    /// Random draws of the judged questions per setting.
    #[arg(long, default_value_t = 20)]
    pub draws: usize,
    #[arg(long, default_value_t = 61)]
    pub seed: u64,
    /// Print every setting's figures as JSON lines.
    #[arg(long)]
    pub json: bool,
    /// Also write the honest judgments of the first draw at 30% judged, as the review queue
    /// exports accepted ones (for `tally train support --judgments`).
    #[arg(long)]
    pub write_judgments: Option<PathBuf>,
    /// The judged instance set (its tuning half: the instance scorer's own training rows).
    #[arg(long, default_value = "tests/fixtures/instances/judged.jsonl")]
    pub judged: PathBuf,
    /// The own-documents collection some judged questions are about.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub collection: PathBuf,
    /// Where the snippet index of the instance simulation is built.
    #[arg(long, default_value = "target/eval-feedback")]
    pub work: PathBuf,
    /// Directory of the public data sets [default: ../shared/data when it exists].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub models: ModelArgs,
    #[command(flatten)]
    pub settings: ReadingFlags,
}

impl EvalFeedbackArgs {
    /// The snippets and gold counts: those given, else Stresstest's under the data directory.
    pub fn files(&self) -> anyhow::Result<(PathBuf, PathBuf)> {
        let stresstest = || -> anyhow::Result<PathBuf> {
            let data = data_dir_or_default(&self.data).ok_or_else(|| {
                anyhow::anyhow!("no data directory: give --data or --snippets and --gold")
            })?;
            Ok(data.join("coqex/stresstest_v1"))
        };
        Ok((
            match &self.snippets {
                Some(path) => path.clone(),
                None => stresstest()?.join("stresstest_bing_v1.json"),
            },
            match &self.gold {
                Some(path) => path.clone(),
                None => stresstest()?.join("stresstest.csv"),
            },
        ))
    }
}

#[derive(Debug, Clone, Args)]
pub struct EvalCnpArgs {
    /// A CoQuAD `*_contexts.csv` file.
    #[arg(long)]
    pub contexts: PathBuf,
    #[arg(long)]
    pub json: bool,
    /// Keep a larger count a synonym when its phrase's cosine to CNP_rep is above 0.5 (the
    /// authors' code); by default larger counts are incomparable (the paper's text).
    #[arg(long)]
    pub larger_synonyms: bool,
    /// Phrases with cosine to CNP_rep at most this are incomparable.
    #[arg(long, default_value_t = 0.1)]
    pub min_cosine: f32,
    #[command(flatten)]
    pub models: ModelArgs,
    #[command(flatten)]
    pub settings: ReadingFlags,
}

#[derive(Debug, Clone, Args)]
pub struct EvalInstancesArgs {
    /// SQuAD-format snippets [default: NQ dev's, under --data].
    #[arg(long)]
    pub snippets: Option<PathBuf>,
    /// CSV with qid, query, answer_enum [default: NQ dev's instances, under --data].
    #[arg(long)]
    pub gold: Option<PathBuf>,
    /// CSV with item, aliases [default: NQ dev's, under --data].
    #[arg(long)]
    pub aliases: Option<PathBuf>,
    /// Print the chosen scoring's figures on the gold instances as one JSON object (nothing
    /// else).
    #[arg(long)]
    pub json: bool,
    /// The judged instance set: questions with the candidate names a person judged; its
    /// precision of the shown top 5 is printed after the gold table.
    #[arg(long, default_value = "tests/fixtures/instances/judged.jsonl")]
    pub judged: PathBuf,
    /// Print each judged question's first N candidate names with their context, to be judged,
    /// and nothing else.
    #[arg(long, value_name = "N")]
    pub candidates: Option<usize>,
    /// The own-documents collection some judged questions are about.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub collection: PathBuf,
    /// Where the judged set's fresh snippet index is built.
    #[arg(long, default_value = "target/eval-instances")]
    pub work: PathBuf,
    /// Directory of the public data sets [default: ../shared/data when it exists].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub models: ModelArgs,
    #[command(flatten)]
    pub settings: ReadingFlags,
}

impl EvalInstancesArgs {
    /// The gold snippets, instances and aliases: those given, else NQ dev's under the data
    /// directory.
    pub fn gold_files(&self) -> anyhow::Result<(PathBuf, PathBuf, PathBuf)> {
        let nq = || -> anyhow::Result<PathBuf> {
            let data = data_dir_or_default(&self.data).ok_or_else(|| {
                anyhow::anyhow!(
                    "no data directory: give --data or --snippets, --gold and --aliases"
                )
            })?;
            Ok(data.join("coqex/natural_questions_dev"))
        };
        let or_nq = |given: &Option<PathBuf>, file: &str| -> anyhow::Result<PathBuf> {
            match given {
                Some(path) => Ok(path.clone()),
                None => Ok(nq()?.join(file)),
            }
        };
        Ok((
            or_nq(&self.snippets, "natural_questions_dev_bing_v1.json")?,
            or_nq(&self.gold, "natural_questions_dev_instances.csv")?,
            or_nq(&self.aliases, "aliases.csv")?,
        ))
    }
}

#[derive(Debug, Clone, Args)]
pub struct EvalExtractionArgs {
    /// Gold file (e.g. ../shared/data/quantities/newsquant_dev.json). Without `--gold` and
    /// `--generated`, every set is scored: NewsQuant dev (from --data), the generated tests and
    /// the hand-written everyday sentences (--everyday).
    #[arg(long)]
    pub gold: Option<PathBuf>,
    /// Score the generated tests instead of a gold file: the surface-form test (every unit of
    /// the collection's everyday dimensions in each of its forms, in news and spec sentences)
    /// and the compound and currency test (a unit per another, money with a country mark, named
    /// after the amount or converted in brackets), each split by unit into a tuning and a
    /// held-out half; prints F1 per dimension, surface kind, class and form.
    #[arg(long, conflicts_with_all = ["gold", "half", "predictions", "write_predictions"])]
    pub generated: bool,
    /// The unit collection the generated test is built from.
    #[arg(
        long,
        default_value = "../shared/data/quantities/kg-unit-collection.json"
    )]
    pub collection: PathBuf,
    /// Seed of the generated test's values and templates.
    #[arg(long, default_value_t = 34)]
    pub seed: u64,
    /// The hand-written everyday sentences (scored when neither --gold nor --generated is
    /// given), with their classes and fixed halves.
    #[arg(
        long,
        default_value = "tests/fixtures/quantities/everyday-sentences.json"
    )]
    pub everyday: PathBuf,
    /// Directory of the public data sets, for NewsQuant dev [default: ../shared/data].
    #[arg(long, env = "TALLY_DATA", default_value = "../shared/data")]
    pub data: PathBuf,
    /// Print one JSON object (per set) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also print every sentence where the extractor and the gold differ.
    #[arg(long)]
    pub errors: bool,
    /// Score one fixed half of the file only: tuning (rules are tuned on it) or held-out (by a
    /// hash of each sentence). Without it, the table shows the whole file and both halves.
    #[arg(long)]
    pub half: Option<String>,
    /// Score another extractor's predictions instead of Tally's: a file in the gold format with
    /// an entry for every gold sentence (see scripts/bench-cqe.sh).
    #[arg(long, conflicts_with = "write_predictions")]
    pub predictions: Option<PathBuf>,
    /// Write Tally's predictions for the gold sentences to this file, in the gold format.
    #[arg(long)]
    pub write_predictions: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "TALLY_ADDR", default_value = "127.0.0.1:3000")]
    pub addr: SocketAddr,

    /// PostgreSQL connection URL. When unset, Tally starts a private cluster under --pg-dir and
    /// stops it on exit.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,

    /// Directory of the private PostgreSQL cluster used when no DATABASE_URL is set.
    #[arg(long, env = "TALLY_PG_DIR", default_value = "target/tally-pg")]
    pub pg_dir: PathBuf,

    /// Directory of the public data sets [default: ../shared/data when it exists].
    #[arg(long, env = "TALLY_DATA")]
    pub data: Option<PathBuf>,

    /// Directory holding model directories.
    #[arg(long, env = "TALLY_MODELS", default_value = "models")]
    pub models: PathBuf,

    /// Sentence encoder: a model directory's path, or a name (or hub id) looked up in --models.
    #[arg(long, env = "TALLY_ENCODER", default_value = "all-MiniLM-L6-v2")]
    pub encoder: String,

    /// Snippet index of the count pipeline (filled with the default corpus when empty).
    #[arg(long, env = "TALLY_INDEX", default_value = DEFAULT_SNIPPET_INDEX)]
    pub index: PathBuf,

    /// Sentence index of the quantity search (filled with the default corpus when empty).
    #[arg(
        long,
        env = "TALLY_SEARCH_INDEX",
        default_value = DEFAULT_SENTENCE_INDEX
    )]
    pub search_index: PathBuf,

    /// Span-model head directory [default: the head trained by the project, built in].
    #[arg(long, env = "TALLY_SPAN_MODEL")]
    pub span_model: Option<PathBuf>,

    /// Compute each sentence's vector in the background once its text is indexed, so that the
    /// default search ranker encodes only the query (searches answer meanwhile); false: every
    /// search encodes its pool.
    #[arg(long, env = "TALLY_SENTENCE_VECTORS", default_value_t = true, action = clap::ArgAction::Set)]
    pub sentence_vectors: bool,

    /// Answering requests per client address and minute (0: no limit).
    #[arg(long, env = "TALLY_RATE_LIMIT", default_value_t = 0)]
    pub rate_limit: u32,

    /// Feedback submissions per client address and minute (0: no limit). On by default: a
    /// public demo's review queue is flooded otherwise.
    #[arg(long, env = "TALLY_FEEDBACK_LIMIT", default_value_t = DEFAULT_FEEDBACK_LIMIT)]
    pub feedback_limit: u32,

    /// Answers computed at once; more wait their turn [default: the number of CPU cores].
    #[arg(long, env = "TALLY_CONCURRENT_ANSWERS")]
    pub concurrent_answers: Option<usize>,

    /// Questions that may wait for an answer slot; more get 503 with Retry-After.
    #[arg(long, env = "TALLY_ANSWER_QUEUE", default_value_t = 32)]
    pub answer_queue: usize,

    /// Connections served at once; further clients wait to be accepted.
    #[arg(long, env = "TALLY_MAX_CONNECTIONS", default_value_t = 1024)]
    pub max_connections: usize,

    /// Seconds a client may take to send a request's headers; also how long an idle
    /// keep-alive connection stays open.
    #[arg(long, env = "TALLY_HEADER_TIMEOUT", default_value_t = 10)]
    pub header_timeout: u64,

    /// Connections one client address may hold open at once; more are answered 429 and closed
    /// (a trusted proxy is held to --max-connections only).
    #[arg(long, env = "TALLY_CONNECTIONS_PER_ADDRESS", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub connections_per_address: u64,

    /// Addresses of load balancers in front of this server (comma-separated): for a request
    /// from one of them, the client is the last address of its `X-Forwarded-For` header (the
    /// one the balancer appended), so that per-address limits count visitors, not the balancer.
    #[arg(
        long = "trusted-proxy",
        env = "TALLY_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<std::net::IpAddr>,

    /// The most snippets one count question may read (the `snippets` setting; at most 1000):
    /// the bound on a question's cost for every visitor.
    #[arg(long, env = "TALLY_MAX_SNIPPETS", default_value_t = tally_types::count::DEFAULT_MAX_SNIPPETS as u64,
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub max_snippets: u64,

    /// Seconds a client may take to send a request's body, in all and between two of its pieces
    /// (then 408); an upload may take 300 s in all.
    #[arg(long, env = "TALLY_BODY_TIMEOUT", default_value_t = 10)]
    pub body_timeout: u64,

    /// Days a question stays in its visitor's history after it was last asked (0: forever).
    /// Answers that no question and no feedback refer to any more go with them.
    #[arg(long, env = "TALLY_HISTORY_DAYS", default_value_t = 30)]
    pub history_days: u32,

    /// User-study file served at /study [default: the built-in study for the loaded corpus].
    #[arg(long, env = "TALLY_STUDY")]
    pub study: Option<PathBuf>,

    /// Token that opens /study/summary and /study/export (unset: both are closed).
    #[arg(long, env = "TALLY_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,

    /// Directory of the built site (JS, WASM, CSS) that cargo-leptos writes.
    #[arg(long, env = "LEPTOS_SITE_ROOT", default_value = "target/site")]
    pub site_root: PathBuf,

    /// Web search that count questions may take fresh snippets from (the setting "Snippets from
    /// the web", `snippet_source=web`) [default: none, the local corpus only]. Brave's key is
    /// read from the environment variable TALLY_BRAVE_API_KEY only.
    #[arg(long, env = "TALLY_WEB_SEARCH", value_enum)]
    pub web_search: Option<WebProvider>,

    /// Base URL of the web search: the SearXNG instance (required for searxng; it must allow
    /// `format=json`), or the Brave API [default for brave: https://api.search.brave.com].
    #[arg(long, env = "TALLY_WEB_SEARCH_URL")]
    pub web_search_url: Option<String>,

    /// Milliseconds a web search may take before the answer falls back to the local corpus.
    #[arg(long, env = "TALLY_WEB_SEARCH_TIMEOUT_MS", default_value_t = 5000,
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub web_search_timeout_ms: u64,

    /// Results asked from the web search per question (Brave gives at most 20).
    #[arg(long, env = "TALLY_WEB_SEARCH_RESULTS", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=50))]
    pub web_search_results: u64,

    /// Minutes during which a question asked again reuses the web snippets fetched for it
    /// (0: search every time).
    #[arg(long, env = "TALLY_WEB_SNIPPETS_REUSE_MINUTES", default_value_t = 1440)]
    pub web_snippets_reuse_minutes: u64,
}

/// The environment variable holding the Brave Search API key (never a flag: flags show up in
/// process lists and shell histories).
pub const BRAVE_KEY_ENV: &str = "TALLY_BRAVE_API_KEY";

/// A web search API Tally can take snippets from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WebProvider {
    /// A SearXNG instance (self-hosted metasearch; no key).
    Searxng,
    /// The Brave Search API (key in TALLY_BRAVE_API_KEY).
    Brave,
}

impl ServeArgs {
    /// The data directory: as given, or `../shared/data` when that exists.
    pub fn data_dir(&self) -> Option<PathBuf> {
        data_dir_or_default(&self.data)
    }

    /// The database URL, treating an empty value as unset.
    pub fn database_url(&self) -> Option<&str> {
        self.database_url
            .as_deref()
            .filter(|url| !url.trim().is_empty())
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
        assert_eq!(args.encoder, "all-MiniLM-L6-v2");
        assert_eq!(args.site_root, PathBuf::from("target/site"));
    }

    #[test]
    fn bad_address_is_a_usage_error() {
        let err = Cli::try_parse_from(["tally", "serve", "--addr", "not-an-address"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::ValueValidation);
    }
}
