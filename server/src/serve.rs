//! `tally serve`: load what the app needs, listen, and shut down cleanly.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use leptos::config::LeptosOptions;
use tally_documents::discover_corpora;
use tokio::net::TcpListener;

use crate::admin_token::AdminToken;
use crate::answering::{Answerer, EngineConfig};
use crate::cli::{ServeArgs, WebProvider, BRAVE_KEY_ENV};
use crate::http::listen::{self, ConnectionLimits};
use crate::http::router;
use crate::ingest::held::HeldCorpora;
use crate::ingest::IngestService;
use crate::rate_limit::RateLimiter;
use crate::sources::WebSource;
use crate::state::{AppState, EncoderSlot, EncoderUnavailable};
use crate::study::{self, StudyDefinition, StudyService};
use crate::web_search::{Brave, SearchProvider, Searxng, WebSearch, BRAVE_BASE_URL};
use tally_store::answers;
use tally_store::db::Database;
use tally_store::pg_cluster::PrivateCluster;

/// Where the server's engines load from, with the reader as `tally ask` reads by default.
fn engine_config(args: &ServeArgs, data_dir: Option<std::path::PathBuf>) -> EngineConfig {
    EngineConfig {
        snippet_index: args.indexes.index.clone(),
        sentence_index: args.indexes.search_index.clone(),
        data_dir,
        span_model: args.span_model.clone(),
        reader_context_chars: tally_engine::count::span_model::CONTEXT_CHARS,
        reader_weights: tally_engine::count::span_model::ReaderWeights::Fast,
        sentence_vectors: args.sentence_vectors,
    }
}

/// OCR writes its pages in a folder of this server's own, beside the snippet index `index`,
/// emptied of what a killed run left (issue 97: up to 1 GB a page stayed in the system's
/// temporary folder after SIGKILL).
fn use_ocr_scratch_dir(index: &std::path::Path) {
    let mut name = index.file_name().unwrap_or_default().to_os_string();
    name.push("-ocr-scratch");
    let scratch = index.with_file_name(name);
    if let Err(e) = tally_documents::corpus::ocr::use_scratch_dir(&scratch) {
        tracing::warn!("OCR's folder {} cannot be used: {e}", scratch.display());
    }
}

/// `tally serve`: starts the web app and the JSON API, and serves until a signal stops it.
pub async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let listener = TcpListener::bind(args.addr)
        .await
        .with_context(|| format!("cannot listen on {}", args.addr))?;

    use_ocr_scratch_dir(&args.indexes.index);
    let (db, cluster) = open_database(&args).await;
    let watchdog = cluster.as_ref().map(watch_cluster);
    let encoder = load_encoder(&args).await;
    let data_dir = args.data_dir();
    let corpora = data_dir
        .as_deref()
        .map(discover_corpora)
        .unwrap_or_default();

    let answerer = start_answerer(&args, &db, data_dir.clone(), &encoder)?;
    let admin = AdminToken::new(
        args.admin_token.clone(),
        std::env::var(crate::admin_token::SESSION_SECRET_ENV).ok(),
    );
    let study = study_service(&args, data_dir.as_deref(), &admin, &db, &answerer)?;
    let ingest = ingest_service(&args, &db);
    let state = AppState {
        leptos_options: leptos_options(&args),
        encoder,
        db: db.clone(),
        data_dir,
        corpora: Arc::new(corpora),
        answerer,
        limiter: RateLimiter::new(args.rate_limit),
        feedback_limiter: RateLimiter::new(args.feedback_limit),
        study: Arc::new(study),
        admin,
        ingest: ingest.clone(),
    };
    tokio::spawn(crate::ingest::sync::run(ingest, state.answerer.clone()));
    // Apply migrations now rather than on the first request, and say how it went.
    match db.check().await {
        Ok(()) => tracing::info!("database ready"),
        Err(e) => tracing::warn!(
            "{}; Tally keeps answering, but feedback cannot be saved",
            tally_types::error::Causes(&e)
        ),
    }

    tokio::spawn(hourly_cleanup(db.clone(), args.history_days));

    tracing::info!("Tally listening on http://{}", args.addr);
    let limits = ConnectionLimits {
        max_connections: args.max_connections,
        per_address: usize::try_from(args.connections_per_address).unwrap_or(usize::MAX),
        header_timeout: Duration::from_secs(args.header_timeout.max(1)),
        trusted_proxies: Arc::new(args.trusted_proxies.clone()),
    };
    let body_timeout = Duration::from_secs(args.body_timeout.max(1));
    let stopping = Arc::clone(&state.ingest);
    let shutdown = async move {
        shutdown_signal().await;
        // Indexing and reading stop at their next step: nothing waits for a large document.
        stopping.stop_everything();
    };
    listen::serve(listener, router(state, body_timeout), limits, shutdown).await;

    db.close().await;
    stop_cluster(cluster, watchdog);
    Ok(())
}

/// The answerer, its corpora and models loading in the background: the server already answers
/// health checks and pages, and answering says "still loading" until they are ready.
fn start_answerer(
    args: &ServeArgs,
    db: &Database,
    data_dir: Option<PathBuf>,
    encoder: &EncoderSlot,
) -> anyhow::Result<Answerer> {
    let answerer = Answerer::new(
        args.concurrent_answers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        args.answer_queue,
    )
    .with_max_snippets(usize::try_from(args.max_snippets).unwrap_or(usize::MAX))
    .with_web(web_source(args, db)?.map(Arc::new))
    .with_records(db.clone());
    tokio::spawn(write_older_record_tables(db.clone()));
    {
        let answerer = answerer.clone();
        let config = engine_config(args, data_dir);
        let encoder = encoder.encoder.as_ref().ok().cloned();
        tokio::task::spawn_blocking(move || answerer.load(&config, encoder));
    }
    if args.rate_limit > 0 {
        tracing::info!(
            "rate limit: {} answers per minute and address",
            args.rate_limit
        );
    }
    Ok(answerer)
}

/// The user study: the definition file given, or the built-in one (with the data sets'
/// questions when their snippets are there).
fn study_service(
    args: &ServeArgs,
    data_dir: Option<&Path>,
    admin: &AdminToken,
    db: &Database,
    answerer: &Answerer,
) -> anyhow::Result<StudyService> {
    let study = StudyService::new(
        match &args.study {
            Some(path) => StudyDefinition::from_file(path)?,
            None => StudyDefinition::builtin(
                data_dir
                    .is_some_and(tally_documents::corpus::default_snippets::has_dataset_snippets),
            ),
        },
        admin.clone(),
        db.clone(),
        answerer.clone(),
    );
    tracing::info!(
        "study `{}`: {} questions, {} tasks per participant{}",
        study.definition.id,
        study.definition.questions.len(),
        study.definition.task_count(),
        if study.has_admin_token() {
            ""
        } else {
            " (summary and export closed: no admin token)"
        }
    );
    Ok(study)
}

/// Ingestion of people's uploads. The name this server goes by in the ingestion jobs' rows is
/// its host and address, so that a server started again after a crash finishes (or fails) the
/// jobs it had taken.
fn ingest_service(args: &ServeArgs, db: &Database) -> Arc<IngestService> {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "localhost".into());
    let server_name = format!("{host} {}", args.addr);
    Arc::new(IngestService::new(
        db.clone(),
        server_name,
        HeldCorpora::open(HeldCorpora::beside(&args.indexes.index)),
    ))
}

/// Every hour (from the start on): removes history older than `days` days, unless `days` is 0
/// (see [`answers::forget_older_than`]), and empty abandoned study sessions (see
/// [`study::store::remove_empty_abandoned`]).
/// Corpora stored before their tables were get them now, in the background (issue 74).
async fn write_older_record_tables(db: Database) {
    match tally_store::records::backfill(&db).await {
        Ok(0) => {}
        Ok(n) => tracing::info!("wrote {n} record tables of corpora stored before them"),
        Err(e) => tracing::warn!(
            "the record tables of older corpora were not written: {}",
            tally_types::error::Causes(&e)
        ),
    }
}

async fn hourly_cleanup(db: Database, days: u32) {
    let mut hourly = tokio::time::interval(Duration::from_secs(3600));
    loop {
        hourly.tick().await;
        if days > 0 {
            match answers::forget_older_than(&db, days).await {
                Ok(gone) if gone.questions + gone.answers > 0 => tracing::info!(
                    "history older than {days} days removed: {} questions, {} answers",
                    gone.questions,
                    gone.answers
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(
                    "old history not removed: {}",
                    tally_types::error::Causes(&e)
                ),
            }
        }
        match study::store::remove_empty_abandoned(&db).await {
            Ok(0) => {}
            Ok(gone) => tracing::info!("{gone} empty abandoned study sessions removed"),
            Err(e) => tracing::warn!(
                "empty abandoned study sessions not removed: {}",
                tally_types::error::Causes(&e)
            ),
        }
    }
}

/// Stops the private cluster if this server owns it, after its watchdog (so that it is not
/// started again on the way out).
fn stop_cluster(
    cluster: Option<Arc<PrivateCluster>>,
    watchdog: Option<tokio::task::JoinHandle<()>>,
) {
    if let Some(watchdog) = watchdog {
        watchdog.abort();
    }
    if let Some(cluster) = cluster.filter(|c| c.owned()) {
        match cluster.stop() {
            Ok(()) => tracing::info!("private PostgreSQL cluster stopped"),
            Err(e) => tracing::warn!(
                "could not stop the private PostgreSQL cluster: {}",
                tally_types::error::Causes(&e)
            ),
        }
    }
}

/// Starts [`keep_cluster_running`] for `cluster`.
fn watch_cluster(cluster: &Arc<PrivateCluster>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(keep_cluster_running(Arc::clone(cluster)))
}

/// How often a server checks that its private cluster still runs.
const CLUSTER_CHECK_EVERY: Duration = Duration::from_secs(5);

/// Starts the private cluster again whenever it is found stopped (by hand, or a crash), so that
/// the database comes back by itself (issue 57: a server whose cluster was stopped answered
/// feedback 503 until it was restarted). Whichever server sharing it finds it first starts it.
async fn keep_cluster_running(cluster: Arc<PrivateCluster>) {
    let mut every = tokio::time::interval(CLUSTER_CHECK_EVERY);
    every.tick().await;
    loop {
        every.tick().await;
        let cluster = Arc::clone(&cluster);
        match tokio::task::spawn_blocking(move || cluster.restart_if_stopped()).await {
            Ok(Ok(true)) => {
                tracing::warn!("the private PostgreSQL cluster was stopped; started it again")
            }
            Ok(Ok(false)) => {}
            Ok(Err(e)) => tracing::warn!(
                "the private PostgreSQL cluster is stopped and could not be started: {}",
                tally_types::error::Causes(&e)
            ),
            Err(e) => tracing::warn!("checking the private PostgreSQL cluster crashed: {e}"),
        }
    }
}

/// The configured database, or a private cluster; never fails: without a database the app runs
/// and says that feedback cannot be saved.
async fn open_database(args: &ServeArgs) -> (Database, Option<Arc<PrivateCluster>>) {
    if let Some(url) = args.database_url() {
        return (Database::new(url), None);
    }
    let (database, cluster) = Database::on_private_cluster(&args.pg_dir).await;
    (database, cluster.map(Arc::new))
}

async fn load_encoder(args: &ServeArgs) -> EncoderSlot {
    let dir = match tally_setup::loading::encoder_dir(
        &args.model_files.encoder,
        &args.model_files.models,
    ) {
        Ok(dir) => dir,
        Err(e) => {
            tracing::error!("encoder not loaded: {e:#}");
            return EncoderSlot {
                encoder: Err(EncoderUnavailable::Load(Arc::new(e))),
                path: None,
            };
        }
    };
    let path = Some(dir.path().to_path_buf());
    let loaded = tokio::task::spawn_blocking(move || tally_setup::loading::load_encoder_in(&dir))
        .await
        .map_err(|e| EncoderUnavailable::Crashed(Arc::new(e)))
        .and_then(|r| r.map_err(|e| EncoderUnavailable::Load(Arc::new(e))));
    match &loaded {
        Ok(encoder) => tracing::info!(
            "encoder {} loaded ({} dimensions, {})",
            encoder.name(),
            encoder.dimension(),
            encoder.device_name()
        ),
        Err(e) => tracing::error!("encoder not loaded: {e}"),
    }
    EncoderSlot {
        encoder: loaded,
        path,
    }
}

/// Leptos settings: site files from --site-root; hashed file names when cargo-leptos left a
/// `hash.txt` beside the binary (it does with `hash-files = true`).
fn leptos_options(args: &ServeArgs) -> LeptosOptions {
    let hash_file = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join("hash.txt")))
        .filter(|p: &PathBuf| p.is_file());
    if let Some(hash_file) = &hash_file {
        warn_if_site_mismatches(hash_file, &args.site_root.join("pkg"));
    }
    let hash_file_present = hash_file.is_some();
    LeptosOptions::builder()
        .output_name("tally")
        .site_root(args.site_root.display().to_string())
        .site_pkg_dir("pkg")
        .site_addr(args.addr)
        .hash_files(hash_file_present)
        .build()
}

/// Debug and release builds share one site directory but each binary has its own `hash.txt`;
/// a binary run after the other build would link files that are not there. Say so plainly.
fn warn_if_site_mismatches(hash_file: &std::path::Path, pkg_dir: &std::path::Path) {
    let Ok(hashes) = std::fs::read_to_string(hash_file) else {
        return;
    };
    for line in hashes.lines() {
        let Some((kind, hash)) = line.split_once(':') else {
            continue;
        };
        let kind = kind.trim();
        if !["js", "wasm", "css"].contains(&kind) {
            continue;
        }
        let expected = pkg_dir.join(format!("tally.{}.{kind}", hash.trim()));
        if !expected.is_file() {
            tracing::warn!(
                "{} is missing: the site in {} was built for another build of this binary; \
                 rebuild with `cargo leptos build` (or `--release`) before serving",
                expected.display(),
                pkg_dir.display()
            );
            return;
        }
    }
}

/// Resolves on Ctrl-C or SIGTERM; in-flight requests then finish before the server stops.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing in-flight requests");
}

/// The web search the flags configure, if any; a configuration that cannot work (SearXNG
/// without its URL, Brave without a key) stops the start with a sentence.
fn web_source(args: &ServeArgs, db: &Database) -> anyhow::Result<Option<WebSource>> {
    let Some(provider) = args.web_search else {
        return Ok(None);
    };
    let url = args
        .web_search_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty());
    if let Some(url) = url {
        anyhow::ensure!(
            url.starts_with("http://") || url.starts_with("https://"),
            "--web-search-url must start with http:// or https://, not `{url}`"
        );
    }
    let search: Box<dyn SearchProvider> = match provider {
        WebProvider::Searxng => {
            let url = url.context(
                "--web-search searxng needs the instance's address: --web-search-url http://…",
            )?;
            Box::new(Searxng::new(url))
        }
        WebProvider::Brave => {
            let key = std::env::var(BRAVE_KEY_ENV)
                .ok()
                .filter(|k| !k.trim().is_empty())
                .with_context(|| {
                    format!("--web-search brave needs the API key in the environment variable {BRAVE_KEY_ENV}")
                })?;
            Box::new(Brave::new(
                url.unwrap_or(BRAVE_BASE_URL),
                key.trim().to_string(),
            ))
        }
    };
    let search = WebSearch::new(
        search,
        Duration::from_millis(args.web_search_timeout_ms),
        args.web_search_results as usize,
    );
    tracing::info!(
        "web search: {} at {} (timeout {} ms, snippets reused for {} min)",
        search.provider(),
        search.endpoint(),
        args.web_search_timeout_ms,
        args.web_snippets_reuse_minutes
    );
    Ok(Some(WebSource::new(
        search,
        db.clone(),
        Duration::from_secs(args.web_snippets_reuse_minutes.saturating_mul(60)),
    )))
}
