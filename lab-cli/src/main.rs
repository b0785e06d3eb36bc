//! `tally-lab`: Tally's lab on the command line. Training, evaluation and benchmarks live here,
//! apart from the `tally` binary that serves (as meilisearch keeps `meilitool` apart): a change
//! to an evaluation rebuilds this binary and nothing that serves.

use crate::cli::{bench::BenchCommand, EvalCommand, TrainCommand};
use crate::commands::{
    aggregations, bench, candidates, convert, count, eval, feedback, own_documents, reading,
    train_instances, train_token_vectors, train_trust,
};
use clap::{Parser, Subcommand};

mod bench_ingest;
mod bench_value;
mod cli;
mod commands;
mod resident;
mod search;
mod train_support;

#[derive(Debug, Parser)]
#[command(
    name = "tally-lab",
    version,
    about = "Tally's lab: train its models, score its components against gold data with the \
             papers' metrics, and measure its speed."
)]
struct Cli {
    #[command(subcommand)]
    command: LabCommand,
}

#[derive(Debug, Subcommand)]
enum LabCommand {
    /// Train a model of Tally's own.
    #[command(subcommand)]
    Train(TrainCommand),
    /// Score a component against gold data and print the paper's metrics.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Measure speed and print figures.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Write the own-documents collection's converted files (PDF, Word, PowerPoint, Excel,
    /// OpenDocument, e-mail, EPUB) with the generator's renderers.
    Convert(convert::ConvertArgs),
}

fn main() -> anyhow::Result<()> {
    tally_setup::process::run_command(run())
}

async fn run() -> anyhow::Result<()> {
    let command = Cli::parse().command;
    if matches!(command, LabCommand::Eval(_)) {
        tally_setup::process::end_quietly_when_stdout_closes();
    }
    match command {
        LabCommand::Train(command) => train(command).await,
        LabCommand::Eval(command) => evaluate(command),
        LabCommand::Bench(command) => measure(command),
        LabCommand::Convert(args) => convert::convert(&args),
    }
}

async fn train(command: TrainCommand) -> anyhow::Result<()> {
    match command {
        TrainCommand::CountSpans(args) => count::train(&args),
        TrainCommand::SearchRanker(args) => search::train_ranker(&args),
        TrainCommand::TokenVectors(args) => train_token_vectors::train(&args),
        TrainCommand::Instances(args) => train_instances::train(&args),
        TrainCommand::Support(args) => train_support::train(&args).await,
        TrainCommand::Trust(args) => train_trust::train_trust(&args),
        TrainCommand::Ranker(args) => candidates::train_ranker(&args),
    }
}

fn evaluate(command: EvalCommand) -> anyhow::Result<()> {
    match command {
        EvalCommand::Extraction(args) => eval::extraction(&args),
        EvalCommand::Count(args) => count::eval_count(&args),
        EvalCommand::Cnp(args) => count::eval_cnp(&args),
        EvalCommand::Instances(args) => count::eval_instances(&args),
        EvalCommand::Feedback(args) => feedback::eval(&args),
        EvalCommand::Search(args) => search::eval_search(&args),
        EvalCommand::Value(args) => eval::value(&args),
        EvalCommand::OwnDocuments(args) => own_documents::eval(&args),
        EvalCommand::Aggregations(args) => aggregations::eval(&args),
        EvalCommand::Reading(args) => reading::eval(&args),
        EvalCommand::Candidates(args) => candidates::eval(&args),
        EvalCommand::Tables(args) => candidates::eval_tables(&args),
    }
}

fn measure(command: BenchCommand) -> anyhow::Result<()> {
    match command {
        BenchCommand::Extraction(args) => bench::extraction(&args),
        BenchCommand::Count(args) => count::bench(&args),
        BenchCommand::Search(args) => search::bench(&args),
        BenchCommand::Value(args) => bench_value::bench(&args),
        BenchCommand::Ingest(args) => bench_ingest::bench(&args),
        BenchCommand::Candidates(args) => candidates::bench(&args),
    }
}
