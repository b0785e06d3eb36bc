//! `tally serve`: the web server's flags.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

use tally_setup::flags::{DataArgs, IndexArgs, ModelFiles};

/// Feedback submissions per address and minute unless the operator says otherwise (issue 70:
/// unlimited feedback put 200 rows in the review queue in 0.19 s).
pub const DEFAULT_FEEDBACK_LIMIT: u32 = 20;

/// `tally serve`'s flags.
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

    /// The data sets' directory.
    #[command(flatten)]
    pub data: DataArgs,

    /// The models loaded.
    #[command(flatten)]
    pub model_files: ModelFiles,

    /// The indexes answered from.
    #[command(flatten)]
    pub indexes: IndexArgs,

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
        self.data.dir()
    }

    /// The database URL, treating an empty value as unset.
    pub fn database_url(&self) -> Option<&str> {
        self.database_url
            .as_deref()
            .filter(|url| !url.trim().is_empty())
    }
}
