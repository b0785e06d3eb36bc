//! `tally eval`: every evaluation's flags.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use tally_types::count::flags::ReadingFlags;

use tally_setup::flags::{DataArgs, ModelArgs};
use tally_types::Ranker;

/// `tally eval`: the evaluations.
#[derive(Debug, Subcommand)]
pub(crate) enum EvalCommand {
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
    /// Reading measured cell by cell (issue 85): generated documents with known truth, in
    /// every format Tally reads, read back and scored per format and table feature (cells
    /// with their header paths, row kinds, tables, lists, boilerplate, words, TEDS).
    Reading(EvalReadingArgs),
    /// Oracle recall of the candidate answers (issue 98): on WikiTableQuestions, the share of
    /// questions with a number for answer whose right answer is among the candidates, per kind,
    /// question type and table format, and the candidates per question.
    Candidates(EvalCandidatesArgs),
    /// The candidate ranker on WikiTableQuestions (issue 99): questions with a number for
    /// answer, each over its own table; right, wrong and declined per question type, top-1
    /// accuracy, calibration (ECE and a reliability table).
    Tables(EvalTablesArgs),
}

/// `tally-lab eval tables`: the flags of the candidate ranker's evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalTablesArgs {
    /// WikiTableQuestions' directory (`random-split-1-dev.tsv`, `csv/`).
    #[arg(long, default_value = "../shared/data/wtq")]
    pub(crate) wtq: PathBuf,
    /// Which questions: `dev` (measure) or `train` (what it was trained on).
    #[arg(long, value_enum, default_value = "dev")]
    pub(crate) split: tally_lab::candidates::Split,
    /// How each table is read: from its CSV, or from the HTML page Wikipedia wrote.
    #[arg(long, value_enum, default_value = "csv")]
    pub(crate) format: tally_lab::candidates::TableFormat,
    /// A model other than the shipped one.
    #[arg(long, value_name = "FILE")]
    pub(crate) model: Option<PathBuf>,
    /// Read at most this many questions (all when absent).
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// Measure on a collection written for Tally instead (each question over all its
    /// documents, the answers given as sure from the product's bound), both halves.
    #[arg(long, value_name = "DIR")]
    pub(crate) collection: Option<PathBuf>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `tally eval reading`: the flags of the reading evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalReadingArgs {
    /// Which seeds: `tuning` (1…n, may be looked at) or `test` (1001…1000+n, only scored).
    #[arg(long, value_enum, default_value = "tuning")]
    pub(crate) part: tally_lab::reading::Part,
    /// How many documents (seeds) of the part.
    #[arg(long, default_value_t = 40)]
    pub(crate) seeds: u64,
    /// The formats, by extension, comma-separated (default: every format).
    #[arg(long, value_delimiter = ',')]
    pub(crate) formats: Vec<String>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Write the part's documents and their truth (`NAME.truth.json`) to this directory
    /// instead of scoring them.
    #[arg(long, value_name = "DIR")]
    pub(crate) write: Option<PathBuf>,
    /// Read the documents as scanned pages and photos of pages, by OCR (issue 89): printed
    /// by Chromium, spoilt as `--conditions` say, and scored per condition.
    #[arg(long)]
    pub(crate) scans: bool,
    /// With `--scans` and `--write`: these PDFs (or HTML pages, printed first) are written
    /// spoilt, one folder per condition, instead of the generated documents; with
    /// `--receipts`, these receipts' HTML pages printed on a roll.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub(crate) scan_files: Vec<PathBuf>,
    /// Read generated till receipts by OCR instead (issue 100): printed on a roll's width,
    /// spoilt as `--conditions` say, and scored on each price read beside its item.
    #[arg(long)]
    pub(crate) receipts: bool,
    /// The conditions of `--scans` and `--receipts` (default: every one).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub(crate) conditions: Vec<tally_docgen::scan::Condition>,
    /// Score real web tables instead (issue 100): WikiTableQuestions' HTML pages read by
    /// Tally against the data set's CSV cells; `--part` splits the tables by their number
    /// (even: tuning, odd: test).
    #[arg(long)]
    pub(crate) web_tables: bool,
    /// WikiTableQuestions' directory (its `csv/` folders), for `--web-tables`.
    #[arg(long, default_value = "../shared/data/wtq")]
    pub(crate) wtq: PathBuf,
    /// With `--web-tables`: score at most this many tables of the part.
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// Score the files an office suite made from the part's documents, kept in this
    /// directory (`NAME.pdf` from Word, `NAME.ods` and a `;` `NAME.csv` in a German locale
    /// from Excel; `tests/fixtures/libreoffice`), against the generator's truth.
    #[arg(long, value_name = "DIR")]
    pub(crate) files: Option<PathBuf>,
    /// Make those files again with LibreOffice (`soffice`) into this directory.
    #[arg(long, value_name = "DIR")]
    pub(crate) write_converted: Option<PathBuf>,
}

/// `tally eval candidates`: the flags of the candidates' oracle recall.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalCandidatesArgs {
    /// WikiTableQuestions' directory (`random-split-1-dev.tsv`, `csv/`).
    #[arg(long, default_value = "../shared/data/wtq")]
    pub(crate) wtq: PathBuf,
    /// Which questions: `dev` (measure), `train` (look at misses while building).
    #[arg(long, value_enum, default_value = "dev")]
    pub(crate) split: tally_lab::candidates::Split,
    /// How each table is read: from its CSV, or from the HTML page Wikipedia wrote.
    #[arg(long, value_enum, default_value = "csv")]
    pub(crate) format: tally_lab::candidates::TableFormat,
    /// Read at most this many questions (all when absent).
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// Chance level: each question over another question's table (the next question of the
    /// split asked of a different table), what recall the candidates reach by numbers alone.
    #[arg(long)]
    pub(crate) control: bool,
    /// Measure a collection written for Tally instead (`documents/`, `questions.jsonl`,
    /// `values.jsonl`: `tests/fixtures/own-documents`, `tests/fixtures/aggregations`), the
    /// whole collection one corpus, per half, kind and format.
    #[arg(long, value_name = "DIR")]
    pub(crate) collection: Option<PathBuf>,
    /// Print this many missed questions (only with `--split train`: the dev split is not
    /// looked into).
    #[arg(long, default_value_t = 0)]
    pub(crate) misses: usize,
    /// Print the report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `tally eval aggregations`: the flags of the table-aggregation evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalAggregationsArgs {
    /// The collection: `documents/` and `questions.jsonl`.
    #[arg(long, default_value = "tests/fixtures/aggregations")]
    pub(crate) dir: PathBuf,
    /// Where the evaluation's sentence index is built.
    #[arg(long, default_value = "target/eval-aggregations")]
    pub(crate) work: PathBuf,
    /// List the test half's misses too (read them only to report, never to tune).
    #[arg(long)]
    pub(crate) show_test: bool,
    /// Answer without the records (the count and value readers alone, as before issue 74):
    /// the figure to compare with.
    #[arg(long)]
    pub(crate) without_records: bool,
    /// Answer without the learned ranker's sure answers first (issue 99): the figure before it.
    #[arg(long)]
    pub(crate) without_ranker: bool,
    /// Ask as from the home page: no corpus chosen, the default corpus (the distractors)
    /// ingested beside the collection, the tables of every corpus planned over (issue 86).
    #[arg(long)]
    pub(crate) all_corpora: bool,
    /// Append each answer's gate features and whether it was right to this file (JSON lines,
    /// for `tally train trust`).
    #[arg(long, value_name = "FILE")]
    pub(crate) trust_features: Option<PathBuf>,
    /// Write what the readers answered to each question to this file (JSON lines, made anew):
    /// asked as the home page asks (the kind detected) over the collection alone, with the
    /// learned ranker off — the collection's `readers.jsonl`, which the candidate ranker is
    /// trained and measured with (issue 99).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all_corpora", "without_records"])]
    pub(crate) readers_answers: Option<PathBuf>,
    /// Give every answer as the readers give it, without the shipped answer gates.
    #[arg(long)]
    pub(crate) without_trust: bool,
    /// Where the public data sets are (the default corpus, with `--all-corpora`).
    #[command(flatten)]
    pub(crate) data: DataArgs,
    /// The models the questions are answered with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// The reading settings the questions are answered with.
    #[command(flatten)]
    pub(crate) settings: ReadingFlags,
}

/// `tally eval own-documents`: the flags of the own-documents evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalOwnDocumentsArgs {
    /// The collection: `documents/*.txt` and `questions.jsonl`.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub(crate) dir: PathBuf,
    /// Where the evaluation's fresh snippet index is built.
    #[arg(long, default_value = "target/eval-own-documents")]
    pub(crate) work: PathBuf,
    /// Where the public data sets are (the default corpus used as distractors).
    #[command(flatten)]
    pub(crate) data: DataArgs,
    /// List the test half's misses too (read them only to report, never to tune).
    #[arg(long)]
    pub(crate) show_test: bool,
    /// Answer over the documents alone, without the setting with the default corpus as
    /// distractors (half the time).
    #[arg(long)]
    pub(crate) documents_only: bool,
    /// Read the documents from this directory instead of `DIR/documents` (the collection's
    /// documents in other formats, named by the same stems, e.g.
    /// `tests/fixtures/own-documents/converted`), and ask only the questions about them.
    #[arg(long)]
    pub(crate) documents: Option<PathBuf>,
    /// With `--documents`: read the collection's own documents that directory holds in other
    /// formats instead (the same facts in their first format, to compare with).
    #[arg(long, requires = "documents")]
    pub(crate) originals: bool,
    /// Print the figures as JSON instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Write each value answer's support and whether it is right (as if it were sure) to this
    /// file, one JSON object per line: the tuning half's lines choose the "not sure" bound.
    #[arg(long, value_name = "FILE")]
    pub(crate) value_supports: Option<PathBuf>,
    /// Append each answer's gate features and whether it was right to this file (JSON lines,
    /// for `tally train trust`).
    #[arg(long, value_name = "FILE")]
    pub(crate) trust_features: Option<PathBuf>,
    /// Write what the readers answered to each question to this file (JSON lines, made anew):
    /// asked as the home page asks (the kind detected) over the collection alone, with the
    /// learned ranker off — the collection's `readers.jsonl`, which the candidate ranker is
    /// trained and measured with (issue 99).
    #[arg(
        long,
        value_name = "FILE",
        requires = "documents_only",
        conflicts_with = "documents"
    )]
    pub(crate) readers_answers: Option<PathBuf>,
    /// Give every answer as the readers give it, without the shipped answer gates (the
    /// figure to compare with).
    #[arg(long)]
    pub(crate) without_trust: bool,
    /// The models the questions are answered with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// The reading settings the questions are answered with.
    #[command(flatten)]
    pub(crate) settings: ReadingFlags,
    /// Answer without the learned ranker's sure answers first (issue 99): the figure before it.
    #[arg(long)]
    pub(crate) without_ranker: bool,
}

/// `tally eval value`: the flags of the value-question evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalValueArgs {
    /// Judged queries (e.g. ../shared/data/qsearch/qsearch_text_dev.jsonl).
    #[arg(long)]
    pub(crate) judged: PathBuf,
    /// Everyday value questions written for the project, with their sentences and halves.
    #[arg(long, default_value = "tests/fixtures/everyday-values.json")]
    pub(crate) everyday: PathBuf,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also print each question with its gold value and answer.
    #[arg(long)]
    pub(crate) errors: bool,
}

/// `tally eval search`: the flags of the quantity-search evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalSearchArgs {
    /// Judged queries (e.g. ../shared/data/qsearch/qsearch_text_dev.jsonl).
    #[arg(long)]
    pub(crate) judged: PathBuf,
    /// Print {"queries","p@10","mrr@10","ndcg@10"} for the chosen ranker only (in-sample, with the
    /// defaults; no grid).
    #[arg(long)]
    pub(crate) json: bool,
    /// The ranker printed by --json [default: learned, the default ranker].
    #[arg(long)]
    pub(crate) ranker: Option<Ranker>,
    /// Weight α of the quantity score.
    #[arg(long, default_value_t = tally_types::search::DEFAULT_ALPHA)]
    pub(crate) alpha: f64,
    /// Rank with the judged sentences' vectors stored first, as a server's background job
    /// stores them (8 bits per dimension), instead of encoding each pool.
    #[arg(long)]
    pub(crate) stored_vectors: bool,
    /// The encoder of the `learned` ranker.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
}

/// `tally eval count`: the flags of the count-answering evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalCountArgs {
    /// SQuAD-format snippets (e.g. ../shared/data/coqex/stresstest_v1/stresstest_bing_v1.json).
    #[arg(long)]
    pub(crate) snippets: PathBuf,
    /// CSV with qid, query, answer_norm.
    #[arg(long)]
    pub(crate) gold: PathBuf,
    /// Print {"queries","answered","rp","coverage","pc","proximity"} for the chosen strategy.
    #[arg(long)]
    pub(crate) json: bool,
    /// Where each question's snippets come from.
    #[arg(long, value_enum, default_value_t = EvalRetrievalArg::Stored)]
    pub(crate) retrieval: EvalRetrievalArg,
    /// (With --retrieval open or off-corpus) the snippet index searched, filled with the
    /// default corpus (the data sets' snippets, from --data) when empty.
    #[arg(long, default_value = "target/eval-count-index")]
    pub(crate) index: PathBuf,
    /// Where the public data sets are (the default corpus of the snippet index).
    #[command(flatten)]
    pub(crate) data: DataArgs,
    /// The models the questions are answered with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// The reading settings the questions are answered with.
    #[command(flatten)]
    pub(crate) settings: ReadingFlags,
}

/// `tally eval count --retrieval`: where an evaluated question's snippets come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EvalRetrievalArg {
    /// The question's own snippet set, gathered for it (the benchmarks' setting).
    Stored,
    /// BM25's top --snippets over the whole default corpus (its own snippets among ~9,800), as
    /// a question the corpus was not gathered for is answered.
    Open,
    /// As open, with the question's own snippets left out: a count given is almost always wrong.
    OffCorpus,
}

/// `tally eval feedback`: the flags of the feedback simulation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalFeedbackArgs {
    /// SQuAD-format snippets [default: Stresstest's, under --data].
    #[arg(long)]
    pub(crate) snippets: Option<PathBuf>,
    /// CSV with qid, query, answer_norm [default: Stresstest's].
    #[arg(long)]
    pub(crate) gold: Option<PathBuf>,
    /// Random draws of the judged questions per setting.
    #[arg(long, default_value_t = 20)]
    pub(crate) draws: usize,
    /// Seed of the random draws.
    #[arg(long, default_value_t = 61)]
    pub(crate) seed: u64,
    /// Print every setting's figures as JSON lines.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also write the honest judgments of the first draw at 30% judged, as the review queue
    /// exports accepted ones (for `tally train support --judgments`).
    #[arg(long)]
    pub(crate) write_judgments: Option<PathBuf>,
    /// The judged instance set (its tuning half: the instance scorer's own training rows).
    #[arg(long, default_value = "tests/fixtures/instances/judged.jsonl")]
    pub(crate) judged: PathBuf,
    /// The own-documents collection some judged questions are about.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub(crate) collection: PathBuf,
    /// Where the snippet index of the instance simulation is built.
    #[arg(long, default_value = "target/eval-feedback")]
    pub(crate) work: PathBuf,
    /// Where the public data sets are.
    #[command(flatten)]
    pub(crate) data: DataArgs,
    /// The models the questions are answered with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// The reading settings the questions are answered with.
    #[command(flatten)]
    pub(crate) settings: ReadingFlags,
}

impl EvalFeedbackArgs {
    /// The snippets and gold counts: those given, else Stresstest's under the data directory.
    pub(crate) fn files(&self) -> anyhow::Result<(PathBuf, PathBuf)> {
        let stresstest = || -> anyhow::Result<PathBuf> {
            let data = self.data.dir().ok_or_else(|| {
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

/// `tally eval cnp`: the flags of the CNP classification evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalCnpArgs {
    /// A CoQuAD `*_contexts.csv` file.
    #[arg(long)]
    pub(crate) contexts: PathBuf,
    /// Print the report as one JSON object instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Keep a larger count a synonym when its phrase's cosine to CNP_rep is above 0.5 (the
    /// authors' code); by default larger counts are incomparable (the paper's text).
    #[arg(long)]
    pub(crate) larger_synonyms: bool,
    /// Phrases with cosine to CNP_rep at most this are incomparable.
    #[arg(long, default_value_t = 0.1)]
    pub(crate) min_cosine: f32,
    /// The models the phrases are encoded with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// The reading settings the classification starts from.
    #[command(flatten)]
    pub(crate) settings: ReadingFlags,
}

/// `tally eval instances`: the flags of the instance-ranking evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalInstancesArgs {
    /// SQuAD-format snippets [default: NQ dev's, under --data].
    #[arg(long)]
    pub(crate) snippets: Option<PathBuf>,
    /// CSV with qid, query, answer_enum [default: NQ dev's instances, under --data].
    #[arg(long)]
    pub(crate) gold: Option<PathBuf>,
    /// CSV with item, aliases [default: NQ dev's, under --data].
    #[arg(long)]
    pub(crate) aliases: Option<PathBuf>,
    /// Print the chosen scoring's figures on the gold instances as one JSON object (nothing
    /// else).
    #[arg(long)]
    pub(crate) json: bool,
    /// The judged instance set: questions with the candidate names a person judged; its
    /// precision of the shown top 5 is printed after the gold table.
    #[arg(long, default_value = "tests/fixtures/instances/judged.jsonl")]
    pub(crate) judged: PathBuf,
    /// Print each judged question's first N candidate names with their context, to be judged,
    /// and nothing else.
    #[arg(long, value_name = "N")]
    pub(crate) candidates: Option<usize>,
    /// The own-documents collection some judged questions are about.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub(crate) collection: PathBuf,
    /// Where the judged set's fresh snippet index is built.
    #[arg(long, default_value = "target/eval-instances")]
    pub(crate) work: PathBuf,
    /// Where the public data sets are.
    #[command(flatten)]
    pub(crate) data: DataArgs,
    /// The models the questions are answered with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// The reading settings the questions are answered with.
    #[command(flatten)]
    pub(crate) settings: ReadingFlags,
}

impl EvalInstancesArgs {
    /// The gold snippets, instances and aliases: those given, else NQ dev's under the data
    /// directory.
    pub(crate) fn gold_files(&self) -> anyhow::Result<(PathBuf, PathBuf, PathBuf)> {
        let nq = || -> anyhow::Result<PathBuf> {
            let data = self.data.dir().ok_or_else(|| {
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

/// `tally eval extraction`: the flags of the quantity-extraction evaluation.
#[derive(Debug, Clone, Args)]
pub(crate) struct EvalExtractionArgs {
    /// Gold file (e.g. ../shared/data/quantities/newsquant_dev.json). Without `--gold` and
    /// `--generated`, every set is scored: NewsQuant dev (from --data), the generated tests and
    /// the hand-written everyday sentences (--everyday).
    #[arg(long)]
    pub(crate) gold: Option<PathBuf>,
    /// Score the generated tests instead of a gold file: the surface-form test (every unit of
    /// the collection's everyday dimensions in each of its forms, in news and spec sentences)
    /// and the compound and currency test (a unit per another, money with a country mark, named
    /// after the amount or converted in brackets), each split by unit into a tuning and a
    /// held-out half; prints F1 per dimension, surface kind, class and form.
    #[arg(long, conflicts_with_all = ["gold", "half", "predictions", "write_predictions"])]
    pub(crate) generated: bool,
    /// The unit collection the generated test is built from.
    #[arg(
        long,
        default_value = "../shared/data/quantities/kg-unit-collection.json"
    )]
    pub(crate) collection: PathBuf,
    /// Seed of the generated test's values and templates.
    #[arg(long, default_value_t = 34)]
    pub(crate) seed: u64,
    /// The hand-written everyday sentences (scored when neither --gold nor --generated is
    /// given), with their classes and fixed halves.
    #[arg(
        long,
        default_value = "tests/fixtures/quantities/everyday-sentences.json"
    )]
    pub(crate) everyday: PathBuf,
    /// Directory of the public data sets, for NewsQuant dev [default: ../shared/data].
    #[arg(long, env = "TALLY_DATA", default_value = "../shared/data")]
    pub(crate) data: PathBuf,
    /// Print one JSON object (per set) instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also print every sentence where the extractor and the gold differ.
    #[arg(long)]
    pub(crate) errors: bool,
    /// Score one fixed half of the file only: tuning (rules are tuned on it) or held-out (by a
    /// hash of each sentence). Without it, the table shows the whole file and both halves.
    #[arg(long)]
    pub(crate) half: Option<String>,
    /// Score another extractor's predictions instead of Tally's: a file in the gold format with
    /// an entry for every gold sentence (see scripts/bench-cqe.sh).
    #[arg(long, conflicts_with = "write_predictions")]
    pub(crate) predictions: Option<PathBuf>,
    /// Write Tally's predictions for the gold sentences to this file, in the gold format.
    #[arg(long)]
    pub(crate) write_predictions: Option<PathBuf>,
}
