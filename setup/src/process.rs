//! What a process of Tally's sets up around its command: the runtime, logs on stderr, how it
//! ends when its reader stops, and freed memory given back after a big job. Both binaries
//! (`tally` and `tally-lab`) start here.

/// Runs a binary's `command` (`tally`'s or `tally-lab`'s) on a multi-threaded runtime, logging
/// to stderr.
pub fn run_command(
    command: impl std::future::Future<Output = anyhow::Result<()>>,
) -> anyhow::Result<()> {
    // Before any thread exists: it sets an environment variable candle reads once.
    tally_encoder::device::run_elementwise_on_caller();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            start_logging();
            command.await
        })
}

/// Logs (`TALLY_LOG`, default `info`) go to stderr: stdout is for what a command prints (JSON,
/// tables).
fn start_logging() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TALLY_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
}

/// A command whose output is piped into `head` ends quietly when the reader stops, as Unix tools
/// do, instead of panicking in `println!` (Rust ignores SIGPIPE, so the write fails and
/// `println!` panics). Only for the commands that write to stdout and nothing else: a server, or
/// a command with sockets or child processes, keeps the error a failed write returns.
pub fn end_quietly_when_stdout_closes() {
    // SAFETY: sets the default action of one signal; no handler of ours runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Returns the heap's free memory to the system (glibc on Linux; elsewhere nothing to do).
/// glibc's allocator keeps what a large job freed (an ingestion's extraction batches, the index
/// writers' buffers) for later use, so a server that ingested a corpus would stay at its peak.
pub fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free heap pages; it touches no live allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}
