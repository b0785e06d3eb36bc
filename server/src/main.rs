use clap::Parser;
use tally_lab::cli::{bench::BenchCommand, EvalCommand, TrainCommand};
use tally_lab::commands::{
    aggregations, bench, count, eval, feedback, own_documents, reading, train_instances,
    train_token_vectors,
};
use tally_server::cli::{Cli, Command, CorpusCommand};
use tally_server::commands::{ask, corpus, extract, ingest, read, search, train_support, value};
use tracing_subscriber::EnvFilter;

fn main() -> anyhow::Result<()> {
    // Before any thread exists: it sets an environment variable candle reads once.
    tally_encoder::device::run_elementwise_on_caller();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(run())
}

async fn run() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_env("TALLY_LOG").unwrap_or_else(|_| EnvFilter::new("info")),
        )
        // Logs go to stderr: stdout is for what a command prints (JSON, tables).
        .with_writer(std::io::stderr)
        .init();
    let command = Cli::parse().command_or_default();
    if matches!(
        command,
        Command::Extract(_) | Command::Eval(_) | Command::Read(_)
    ) {
        end_quietly_when_stdout_closes();
    }
    match command {
        Command::Serve(args) => tally_server::serve::serve(args).await,
        Command::Ingest(args) => ingest::ingest(&args),
        Command::Read(args) => read::read(&args),
        Command::Corpus(CorpusCommand::List(indexes)) => corpus::list(&indexes),
        Command::Corpus(CorpusCommand::Delete { name, indexes }) => corpus::delete(&name, &indexes),
        Command::Ask(args) => ask::ask(&args).await,
        Command::Search(args) => search::search(&args),
        Command::Value(args) => value::value(&args).await,
        Command::Extract(args) => extract::extract_command(&args),
        Command::Train(TrainCommand::CountSpans(args)) => count::train(&args),
        Command::Train(TrainCommand::SearchRanker(args)) => search::train_ranker(&args),
        Command::Train(TrainCommand::TokenVectors(args)) => train_token_vectors::train(&args),
        Command::Train(TrainCommand::Instances(args)) => train_instances::train(&args),
        Command::Train(TrainCommand::Support(args)) => train_support::train(&args).await,
        Command::Train(TrainCommand::Trust(args)) => {
            tally_lab::commands::train_trust::train_trust(&args)
        }
        Command::Eval(EvalCommand::Extraction(args)) => eval::extraction(&args),
        Command::Eval(EvalCommand::Count(args)) => count::eval_count(&args),
        Command::Eval(EvalCommand::Cnp(args)) => count::eval_cnp(&args),
        Command::Eval(EvalCommand::Instances(args)) => count::eval_instances(&args),
        Command::Eval(EvalCommand::Feedback(args)) => feedback::eval(&args),
        Command::Eval(EvalCommand::Search(args)) => search::eval_search(&args),
        Command::Eval(EvalCommand::Value(args)) => eval::value(&args),
        Command::Eval(EvalCommand::OwnDocuments(args)) => own_documents::eval(&args),
        Command::Eval(EvalCommand::Aggregations(args)) => aggregations::eval(&args),
        Command::Eval(EvalCommand::Reading(args)) => reading::eval(&args),
        Command::Bench(BenchCommand::Extraction(args)) => bench::extraction(&args),
        Command::Bench(BenchCommand::Count(args)) => count::bench(&args),
        Command::Bench(BenchCommand::Search(args)) => search::bench(&args),
        Command::Bench(BenchCommand::Value(args)) => value::bench(&args),
        Command::Bench(BenchCommand::Ingest(args)) => corpus::bench(&args),
    }
}

/// A command whose output is piped into `head` ends quietly when the reader stops, as Unix tools
/// do, instead of panicking in `println!` (Rust ignores SIGPIPE, so the write fails and
/// `println!` panics). Only for the commands that write to stdout and nothing else: a server, or
/// a command with sockets or child processes, keeps the error a failed write returns.
fn end_quietly_when_stdout_closes() {
    // SAFETY: sets the default action of one signal; no handler of ours runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
