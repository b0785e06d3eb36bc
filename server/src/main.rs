use clap::Parser;
use tally_server::cli::{BenchCommand, Cli, Command, EvalCommand};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_env("TALLY_LOG").unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    match Cli::parse().command_or_default() {
        Command::Serve(args) => tally_server::serve::serve(args).await,
        Command::Eval(EvalCommand::Extraction(args)) => tally_server::eval::extraction(&args),
        Command::Bench(BenchCommand::Extraction(args)) => tally_server::bench::extraction(&args),
    }
}
