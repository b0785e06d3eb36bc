//! `tally train`: every training command's flags.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use tally_types::count::flags::ReadingFlags;

use tally_lab::count::training::settings::TrainSettings;
use tally_setup::flags::{CorpusArgs, DataArgs, ModelArgs, DEFAULT_SENTENCE_INDEX};

/// `tally train`: the training commands.
#[derive(Debug, Subcommand)]
pub(crate) enum TrainCommand {
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
    /// The answer gates (issue 86): one logistic model per kind on the features files the
    /// evaluations write (`--trust-features`), tuning half only, cross-validated by document;
    /// the bound chosen out of fold for at most 3% of all questions answered wrongly.
    Trust(TrainTrustArgs),
    /// The candidate ranker (issue 99): one log-linear model over every candidate answer,
    /// trained on WikiTableQuestions' train split (the candidates equal to the gold answer its
    /// positives); its calibration curve and bound fitted out of fold, folds by table.
    Ranker(TrainRankerArgs),
}

/// `tally-lab train ranker`: the flags of the candidate ranker's training.
#[derive(Debug, Clone, Args)]
pub(crate) struct TrainRankerArgs {
    /// WikiTableQuestions' directory (`random-split-1-train.tsv`, `csv/`).
    #[arg(long, default_value = "../shared/data/wtq")]
    pub(crate) wtq: PathBuf,
    /// Where the model is written (the engine embeds `engine/data/candidate-ranker.json`).
    #[arg(long, default_value = "engine/data/candidate-ranker.json")]
    pub(crate) out: PathBuf,
    /// Folds of the out-of-fold probabilities (by table).
    #[arg(long, default_value_t = 5)]
    pub(crate) folds: usize,
    /// Passes over the training questions (8: chosen out of fold on the train split, issue 99).
    #[arg(long, default_value_t = 8)]
    pub(crate) epochs: usize,
    /// The share of WikiTableQuestions' questions its bound lets be answered wrongly, out of
    /// fold.
    #[arg(long, default_value_t = 0.08)]
    pub(crate) max_wrong: f64,
    /// Collections written for Tally whose tuning halves are trained on too (their test halves
    /// never are), each over all its documents.
    #[arg(
        long,
        num_args = 1..,
        default_values = ["tests/fixtures/own-documents", "tests/fixtures/aggregations"]
    )]
    pub(crate) collection: Vec<PathBuf>,
    /// The 95% upper bound on the wrong share of the answers given as sure over those
    /// collections' tuning halves, out of fold (issue 99: 3%).
    #[arg(long, default_value_t = 0.03)]
    pub(crate) sure_wrong: f64,
    /// Train on at most this many questions (all when absent).
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// Print this many out-of-fold misses of the train split (the dev split is not looked
    /// into).
    #[arg(long, default_value_t = 0)]
    pub(crate) misses: usize,
    /// AdaGrad's step.
    #[arg(long, default_value_t = 0.1)]
    pub(crate) rate: f64,
    /// The L2 penalty per step.
    #[arg(long, default_value_t = 1e-5)]
    pub(crate) l2: f64,
    /// How many times a pass steps on each collection question (WikiTableQuestions' once)
    #[arg(long, default_value_t = 1)]
    pub(crate) collection_weight: usize,
    /// Regression trees boosted on the weights' score (0: the weights alone). The four tree
    /// settings were chosen out of fold on the train split (issue 99, docs/experiments.md).
    #[arg(long, default_value_t = 150)]
    pub(crate) trees: usize,
    /// Each tree's depth.
    #[arg(long, default_value_t = 4)]
    pub(crate) depth: usize,
    /// What each tree's leaves are scaled by.
    #[arg(long, default_value_t = 0.3)]
    pub(crate) shrinkage: f64,
    /// The fewest readings a tree's leaf holds.
    #[arg(long, default_value_t = 30)]
    pub(crate) min_rows: usize,
    /// The fewest readings a feature is on for a tree to split on it.
    #[arg(long, default_value_t = 200)]
    pub(crate) min_support: usize,
    /// Do not write the model (a run to look into the misses or compare settings).
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// `tally train trust`: the flags of the answer gates' training.
#[derive(Debug, Clone, Args)]
pub(crate) struct TrainTrustArgs {
    /// Features files written by `tally eval own-documents --trust-features` and `tally eval
    /// aggregations --trust-features`.
    #[arg(long, required = true, num_args = 1..)]
    pub(crate) features: Vec<PathBuf>,
    /// Where the gates are written (the engine embeds `engine/data/trust.json`).
    #[arg(long, default_value = "engine/data/trust.json")]
    pub(crate) out: PathBuf,
}

/// `tally train support`: the flags of the answer-support retraining.
#[derive(Debug, Clone, Args)]
pub(crate) struct TrainSupportArgs {
    /// Accepted judgments as JSON lines (`GET /api/admin/judgments` with the admin token).
    #[arg(long)]
    pub(crate) judgments: Option<PathBuf>,
    /// Or read them from this database (the server's).
    #[arg(long, env = "DATABASE_URL")]
    pub(crate) database_url: Option<String>,
    /// The span-model directory written: the shipped files and the retrained support model.
    #[arg(long, default_value = "target/answer-support")]
    pub(crate) out: PathBuf,
    /// Sentence index (filled with the default corpus when empty), as the server's.
    #[arg(long, env = "TALLY_SEARCH_INDEX", default_value = DEFAULT_SENTENCE_INDEX)]
    pub(crate) search_index: PathBuf,
    /// The corpus the judged questions are answered over.
    #[command(flatten)]
    pub(crate) corpus: CorpusArgs,
    /// The models the questions are answered with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
}

/// `tally train search-ranker`: the flags of the search-ranker training.
#[derive(Debug, Clone, Args)]
pub(crate) struct TrainSearchRankerArgs {
    /// Judged queries (Qsearch format).
    #[arg(long, default_value = "../shared/data/qsearch/qsearch_text_dev.jsonl")]
    pub(crate) judged: PathBuf,
    /// Where to write the weights (the shipped ones are engine/data/search-ranker.json).
    #[arg(long, default_value = "engine/data/search-ranker.json")]
    pub(crate) out: PathBuf,
    /// Token vectors (`tally train token-vectors`) whose cosine is measured as a candidate
    /// feature.
    #[arg(long)]
    pub(crate) token_vectors: Option<PathBuf>,
    /// Train on this many generated quantity queries over the training corpora instead of the
    /// judged queries, which then measure the weights once (0: train on the judged queries).
    #[arg(long, default_value_t = 0)]
    pub(crate) generated: usize,
    /// Where the public data sets are (the training corpora of the generated queries).
    #[command(flatten)]
    pub(crate) data: DataArgs,
    /// The sentence encoder of the `learned` ranker.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
}

/// `tally train token-vectors`: the flags of the token-vector training.
#[derive(Debug, Clone, Args)]
pub(crate) struct TrainTokenVectorsArgs {
    /// Judged queries (Qsearch format), whose sentences are never trained on.
    #[arg(long, default_value = "../shared/data/qsearch/qsearch_text_dev.jsonl")]
    pub(crate) judged: PathBuf,
    /// Where the public data sets are (the training corpora).
    #[command(flatten)]
    pub(crate) data: DataArgs,
    /// Where to write the vectors (the shipped ones are engine/data/token-vectors.safetensors).
    #[arg(long, default_value = "engine/data/token-vectors.safetensors")]
    pub(crate) out: PathBuf,
    /// Most queries generated.
    #[arg(long, default_value_t = 20_000)]
    pub(crate) queries: usize,
    /// Passes over the generated queries.
    #[arg(long, default_value_t = 3)]
    pub(crate) epochs: usize,
    /// Generated queries printed, for a reader of the log.
    #[arg(long, default_value_t = 12)]
    pub(crate) show: usize,
    /// The sentence encoder the vectors are distilled from.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
}

/// `tally train instances`: the flags of the instance-scorer training.
#[derive(Debug, Clone, Args)]
pub(crate) struct TrainInstancesArgs {
    /// The judged instance set (its tuning half is trained on; the test half is never read).
    #[arg(long, default_value = "tests/fixtures/instances/judged.jsonl")]
    pub(crate) judged: PathBuf,
    /// The own-documents collection some judged questions are about.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub(crate) collection: PathBuf,
    /// Where the fresh snippet index is built.
    #[arg(long, default_value = "target/train-instances")]
    pub(crate) work: PathBuf,
    /// Where the public data sets are.
    #[command(flatten)]
    pub(crate) data: DataArgs,
    /// Where to write the scorer (the shipped one is engine/data/instance-scorer.json).
    #[arg(long, default_value = "engine/data/instance-scorer.json")]
    pub(crate) out: PathBuf,
    /// Also write every candidate row (question number, name, features, judgment) as JSON
    /// lines, to study the evidence.
    #[arg(long)]
    pub(crate) write_rows: Option<PathBuf>,
    /// Accepted judgments exported from the review queue (`GET /api/admin/judgments`): their
    /// instance marks (relevant / not relevant) are trained on with the tuning half.
    #[arg(long)]
    pub(crate) judgments: Option<PathBuf>,
    /// The models the questions are answered with.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
    /// The reading settings the questions are answered with.
    #[command(flatten)]
    pub(crate) settings: ReadingFlags,
}

/// `tally train count-spans`: the flags of the span-head training.
#[derive(Debug, Clone, Args)]
pub(crate) struct TrainCountSpansArgs {
    /// The CoQEx data directory (with stresstest_v1/ and count_lcquad_v2/).
    #[arg(long, default_value = "../shared/data/coqex")]
    pub(crate) data: PathBuf,
    /// Where to write span_head.safetensors and span_head.json.
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Passes over the training windows.
    #[arg(long, default_value_t = TrainSettings::default().epochs)]
    pub(crate) epochs: usize,
    /// How many of the encoder's top layers the reader fine-tunes with its head (0: only the
    /// head, over the frozen encoder).
    #[arg(long, default_value_t = TrainSettings::default().tuned_layers)]
    pub(crate) tuned_layers: usize,
    /// Windows without an answer per window with one, drawn anew each epoch.
    #[arg(long, default_value_t = TrainSettings::default().negatives_per_positive)]
    pub(crate) negatives_per_positive: f64,
    /// Silver questions made from each training question's own snippets ("how many ‹noun
    /// phrase› …" from a sentence's count phrase; 0: none).
    #[arg(long, default_value_t = TrainSettings::default().silver_per_query)]
    pub(crate) silver_per_query: usize,
    /// Silver name questions ("which ‹class› …" from an enumeration, every listed name right)
    /// made from each training question's own snippets (0: none, the count reader's recipe; 10:
    /// the name reader's, engine/data/name-spans).
    #[arg(long, default_value_t = TrainSettings::default().silver_names_per_query)]
    pub(crate) silver_names_per_query: usize,
    /// Folds of the cross-validation by query.
    #[arg(long, default_value_t = 5)]
    pub(crate) folds: usize,
    /// Where the span head's out-of-fold candidate probabilities are written (and read by the
    /// candidate ranker).
    #[arg(long, default_value = "target/count-spans-oof.json")]
    pub(crate) span_confidences: PathBuf,
    /// Train only the candidate ranker, on the span probabilities of an earlier run (the span
    /// head in --out stays as it is).
    #[arg(long)]
    pub(crate) ranker_only: bool,
    /// Print the full cross-validation report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// The encoder the span head reads.
    #[command(flatten)]
    pub(crate) models: ModelArgs,
}
