//! `tally`: the web server (`tally serve`) and the command line that asks, reads and ingests
//! through the same service (`tally ask`, `tally value`, `tally search`, `tally read`, …).

use clap::Parser;
use tally_server::cli::{Cli, Command, CorpusCommand};
use tally_server::commands::{ask, corpus, extract, ingest, read, search, value};

fn main() -> anyhow::Result<()> {
    tally_server::cli::run_command(run())
}

async fn run() -> anyhow::Result<()> {
    let command = Cli::parse().command_or_default();
    if matches!(command, Command::Extract(_) | Command::Read(_)) {
        tally_server::cli::end_quietly_when_stdout_closes();
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
    }
}
