//! The command line: `tally [SUB-COMMAND] [OPTIONS]`. Every option also reads an environment
//! variable, and every one has a default, so `tally` alone serves the web app.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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
    /// Score a component against gold data and print the paper's metrics.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Measure speed and print figures.
    #[command(subcommand)]
    Bench(BenchCommand),
}

#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Quantity extraction against a gold file in the NewsQuant format: precision, recall and F1
    /// for value, value+unit and value+change.
    Extraction(EvalExtractionArgs),
}

#[derive(Debug, Clone, Args)]
pub struct EvalExtractionArgs {
    /// Gold file (e.g. ../shared/data/quantities/newsquant_dev.json).
    #[arg(long)]
    pub gold: PathBuf,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also print every sentence where the extractor and the gold differ.
    #[arg(long)]
    pub errors: bool,
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Extraction speed on one core: the gold sentences repeated to --sentences, and single texts
    /// of 1 KB, 100 KB and 10 MB.
    Extraction(BenchExtractionArgs),
}

#[derive(Debug, Clone, Args)]
pub struct BenchExtractionArgs {
    /// Sentences to read (a gold file in the NewsQuant format, or a text file with one sentence
    /// per line).
    #[arg(long, default_value = "../shared/data/quantities/newsquant_dev.json")]
    pub sentences_from: PathBuf,
    /// How many sentences to extract from (the file's sentences repeated).
    #[arg(long, default_value_t = 100_000)]
    pub sentences: usize,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
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

    /// Directory of the built site (JS, WASM, CSS) that cargo-leptos writes.
    #[arg(long, env = "LEPTOS_SITE_ROOT", default_value = "target/site")]
    pub site_root: PathBuf,
}

impl ServeArgs {
    /// The data directory: as given, or `../shared/data` when that exists.
    pub fn data_dir(&self) -> Option<PathBuf> {
        match &self.data {
            Some(dir) if !dir.as_os_str().is_empty() => Some(dir.clone()),
            _ => {
                let default = PathBuf::from("../shared/data");
                default.is_dir().then_some(default)
            }
        }
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
