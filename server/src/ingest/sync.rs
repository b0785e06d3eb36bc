//! The sync loop: brings this server's indexes to the database's corpora, on start (a new or
//! restarted server catches up by itself), when a change is announced (`LISTEN`), after an
//! upload to this server, and every few seconds in case an announcement was missed. Each pass
//! also tells the database this server is alive, which lets it fail the jobs of dead servers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::postgres::PgListener;
use tally_documents::corpus::documents::DocumentsError;
use tally_documents::corpus::indexing;
use tally_documents::sentence_store::index::Document;
use tally_types::documents::IngestProgress;
use tokio::sync::watch;

use super::held::{step, Held, Step};
use super::{IngestError, IngestService};
use crate::answering::Answerer;
use tally_store::corpora::{self, Added, StoredCorpus, CHANNEL};

/// A pass at least this often, announced or not.
const PASS_EVERY: Duration = Duration::from_secs(5);
/// Documents read from the database and indexed at a time.
const DOCUMENTS_PER_BATCH: i64 = 500;
/// How often a running job's progress is written to its row.
const REPORT_EVERY: Duration = Duration::from_millis(500);

/// Runs the loop for as long as the server runs; gives up only if the engines fail to load.
pub(crate) async fn run(service: std::sync::Arc<IngestService>, answerer: Answerer) {
    // What a crash left half-indexed is not offered, from the first request on.
    for corpus in service.held.incomplete() {
        answerer.indexing(&corpus);
    }
    loop {
        match answerer.state() {
            Ok(true) => break,
            Ok(false) => tokio::time::sleep(Duration::from_millis(200)).await,
            Err(_) => return,
        }
    }
    mark_crashed(&service).await;
    let mut listener: Option<PgListener> = None;
    let mut every = tokio::time::interval(PASS_EVERY);
    loop {
        if listener.is_none() {
            listener = listen(&service).await;
        }
        if let Err(e) = pass(&service, &answerer).await {
            tracing::warn!(
                "corpora not synchronised with the database: {}",
                tally_types::error::Causes(&e)
            );
        }
        tokio::select! {
            _ = every.tick() => {}
            _ = service.wake.notified() => {}
            heard = announced(&mut listener) => if !heard { listener = None },
        }
    }
}

/// What this server was indexing when its process died (a crash, memory run out) is marked
/// failed in the database, so that neither it nor another server indexes it again on its own:
/// a corpus that takes a server down would otherwise take it down on every start (issue 84).
async fn mark_crashed(service: &IngestService) {
    for (corpus, version) in service.held.crashed() {
        tracing::warn!(
            "corpus `{corpus}` version {version} was being indexed when this server stopped \
             unexpectedly; it is marked failed and not indexed again"
        );
        if let Err(e) = corpora::mark_failed(&service.db, &corpus, version, CRASHED).await {
            tracing::warn!(
                "corpus `{corpus}` could not be marked failed: {}",
                tally_types::error::Causes(&e)
            );
        }
    }
}

/// Why a corpus is marked failed when indexing it took its server down.
const CRASHED: &str = "indexing it stopped the server (it crashed or ran out of memory); it is \
    not indexed again on its own: delete it, or upload its documents again, smaller";

async fn listen(service: &IngestService) -> Option<PgListener> {
    let pool = service.db.pool().await.ok()?;
    let mut listener = PgListener::connect_with(pool).await.ok()?;
    listener.listen(CHANNEL).await.ok()?;
    Some(listener)
}

/// Waits for an announcement; false when the connection is lost (never, without one).
async fn announced(listener: &mut Option<PgListener>) -> bool {
    match listener {
        Some(listener) => listener.recv().await.is_ok(),
        None => std::future::pending().await,
    }
}

/// One pass over every corpus the database has or had.
async fn pass(service: &IngestService, answerer: &Answerer) -> Result<(), IngestError> {
    // Stopping: nothing new begins (a rebuild would drop a copy it could not finish).
    if service.stopping.load(Ordering::Relaxed) {
        return Ok(());
    }
    let failed = corpora::heartbeat(&service.db, &service.server).await?;
    if failed > 0 {
        tracing::warn!("{failed} ingestion jobs failed: their server stopped");
    }
    // Only these corpora have jobs of this server to finish or fail.
    let with_jobs = corpora::with_running_jobs(&service.db, &service.server).await?;
    for corpus in corpora::all(&service.db).await? {
        let held = service.held.get(&corpus.name);
        let failed = corpus.failed.is_some();
        let step = step(
            held,
            corpus.version,
            corpus.base_version,
            corpus.deleted,
            failed,
        );
        let done = match step {
            Step::Nothing => Ok(()),
            Step::Drop => drop_copy(service, answerer, &corpus.name).await,
            Step::Add { after } => index(service, answerer, &corpus, after).await,
            Step::Rebuild => index(service, answerer, &corpus, 0).await,
        };
        let db = &service.db;
        match done {
            // Deleted meanwhile, or the server is stopping: nothing failed.
            Err(IngestError::Stopped) => {}
            // The database, not the corpus: the next pass tries again.
            Err(e @ IngestError::Store(_)) => {
                let why = format!(
                    "the corpus could not be indexed: {}",
                    tally_types::error::Causes(&e)
                );
                tracing::warn!("corpus `{}` not indexed: {why}", corpus.name);
                corpora::fail_jobs(db, &service.server, &corpus.name, &why).await?;
            }
            // The corpus itself: marked failed, not tried again on every pass.
            Err(e) => {
                let why = format!(
                    "the corpus could not be indexed: {}",
                    tally_types::error::Causes(&e)
                );
                tracing::warn!("corpus `{}` not indexed: {why}", corpus.name);
                corpora::mark_failed(db, &corpus.name, corpus.version, &why).await?;
            }
            Ok(()) if !with_jobs.contains(&corpus.name) => {}
            Ok(()) if corpus.deleted => {
                let why = "the corpus was deleted before it was indexed";
                corpora::fail_jobs(db, &service.server, &corpus.name, why).await?;
            }
            // Jobs of this server that a pass before this one (or another job) completed.
            Ok(()) => {
                if let Some(held) = service.held.get(&corpus.name).filter(|h| h.complete) {
                    corpora::finish_jobs(db, &service.server, &corpus.name, held.version, None)
                        .await?;
                }
            }
        }
    }
    Ok(())
}

/// Drops this server's copy of a corpus deleted in the database.
async fn drop_copy(
    service: &IngestService,
    answerer: &Answerer,
    corpus: &str,
) -> Result<(), IngestError> {
    let _writing = service.writing.lock().await;
    answerer.dropping(corpus);
    delete_local(answerer, corpus).await?;
    service.held.set(corpus, None).map_err(held_error)?;
    answerer.indexed(corpus);
    tracing::info!("corpus `{corpus}` dropped: deleted in the database");
    Ok(())
}

/// Deletes `corpus` from the indexes, if they have it.
async fn delete_local(answerer: &Answerer, corpus: &str) -> Result<(), IngestError> {
    let engines = answerer.loaded()?;
    let name = corpus.to_string();
    let deleted =
        tokio::task::spawn_blocking(move || indexing::delete(&engines.indexes(), &name)).await?;
    match deleted {
        Ok(_) | Err(DocumentsError::NoCorpus { .. }) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

fn held_error(e: std::io::Error) -> IngestError {
    IngestError::Held(e)
}

/// Indexes the documents of `corpus` added after version `after` (0: all of them, after
/// dropping any copy), hidden until done, holding the indexes' writing lock a batch at a time;
/// then this server's jobs up to its version are done. Stops when the corpus is deleted.
async fn index(
    service: &IngestService,
    answerer: &Answerer,
    corpus: &StoredCorpus,
    after: i64,
) -> Result<(), IngestError> {
    let name = corpus.name.as_str();
    answerer.indexing(name);
    let incomplete = Held::indexing(after, corpus.version);
    service
        .held
        .set(name, Some(incomplete))
        .map_err(held_error)?;
    if after == 0 {
        let _writing = service.writing.lock().await;
        delete_local(answerer, name).await?;
    }
    let added = Added {
        after,
        upto: corpus.version,
    };
    let (documents, bytes) = corpora::added_size(&service.db, name, added).await?;
    // Raised by a deletion of this corpus: the batch under way stops at its next step.
    let deleted = service.indexing_now(name);
    let started = Instant::now();
    let mut progress = IngestProgress {
        documents,
        bytes,
        ..IngestProgress::default()
    };
    let mut last = 0;
    loop {
        let batch =
            corpora::added_documents(&service.db, name, added, last, DOCUMENTS_PER_BATCH).await?;
        let Some((seq, _)) = batch.last() else {
            break;
        };
        last = *seq;
        let batch = batch.into_iter().map(|(_, d)| d).collect();
        // The indexes are written a batch at a time: between two, a delete of any corpus gets
        // its turn (it used to wait for the whole corpus: minutes for 500,000 documents).
        let writing = service.writing.lock().await;
        let indexed = index_batch(
            service, answerer, corpus, batch, progress, started, &deleted,
        );
        progress = match indexed.await {
            Ok(progress) => progress,
            Err(IngestError::Stopped) => {
                drop(writing);
                return stopped(service, name, incomplete);
            }
            Err(e) => return Err(e),
        };
        drop(writing);
        // Deleted meanwhile: stop here; the next pass drops what was indexed (its jobs were
        // cancelled with the deletion).
        if corpora::is_deleted(&service.db, name).await? {
            tracing::info!("corpus `{name}` deleted while it was indexed; stopped");
            return Ok(());
        }
    }
    progress.seconds = started.elapsed().as_secs_f64();
    let whole = Held::whole(corpus.version);
    service.held.set(name, Some(whole)).map_err(held_error)?;
    answerer.indexed(name);
    tally_setup::process::give_back_freed();
    tracing::info!(
        "corpus `{name}` version {} indexed: {} documents, {} snippets, {} sentences in {:.1} s",
        corpus.version,
        progress.documents_done,
        progress.snippets,
        progress.sentences,
        progress.seconds
    );
    corpora::finish_jobs(
        &service.db,
        &service.server,
        name,
        corpus.version,
        Some(&progress),
    )
    .await?;
    Ok(())
}

/// Indexing `corpus` stopped before it was done (deleted, or the server is stopping): a
/// shutdown is recorded as such, so that the next start indexes it again rather than taking it
/// for a crash; a deletion drops what was indexed on the next pass.
fn stopped(service: &IngestService, name: &str, incomplete: Held) -> Result<(), IngestError> {
    let held = Held {
        interrupted: true,
        ..incomplete
    };
    service.held.set(name, Some(held)).map_err(held_error)?;
    tracing::info!("indexing corpus `{name}` stopped before it was done");
    Err(IngestError::Stopped)
}

/// Indexes one batch of documents, reporting the progress (`before` plus the batch's) in this
/// server's job rows while it runs; the progress after it. Stops within a step once `deleted`
/// is raised or the server is stopping.
async fn index_batch(
    service: &IngestService,
    answerer: &Answerer,
    corpus: &StoredCorpus,
    batch: Vec<Document>,
    before: IngestProgress,
    started: Instant,
    deleted: &Arc<AtomicBool>,
) -> Result<IngestProgress, IngestError> {
    let engines = answerer.loaded()?;
    let name = corpus.name.clone();
    let (report, mut reported) = watch::channel(before);
    let deleted_flag = Arc::clone(deleted);
    let (deleted, stopping) = (Arc::clone(deleted), service.stopping());
    let stopped = move || deleted.load(Ordering::Relaxed) || stopping.load(Ordering::Relaxed);
    let mut task = tokio::task::spawn_blocking(move || {
        indexing::ingest_until(&engines.indexes(), &name, &batch, &stopped, &mut |p| {
            report.send_replace(after_batch(&before, p, started));
        })
    });
    let mut every = tokio::time::interval(REPORT_EVERY);
    loop {
        tokio::select! {
            ran = &mut task => {
                let ran = ran?;
                return Ok(after_batch(&before, &ran?, started));
            }
            _ = every.tick() => {
                // Deleted through another server: stop here too, within a step.
                if matches!(corpora::is_deleted(&service.db, &corpus.name).await, Ok(true)) {
                    deleted_flag.store(true, Ordering::Relaxed);
                }
                let now = *reported.borrow_and_update();
                // A lost report is not worth failing the job for: the next one says more.
                if let Err(e) = corpora::report_progress(
                    &service.db, &service.server, &corpus.name, corpus.version, &now,
                ).await {
                    tracing::warn!("progress not reported: {}", tally_types::error::Causes(&e));
                }
            }
        }
    }
}

/// The pass's progress: what was done `before` this batch, and the batch's own.
fn after_batch(
    before: &IngestProgress,
    batch: &IngestProgress,
    started: Instant,
) -> IngestProgress {
    IngestProgress {
        documents: before.documents,
        bytes: before.bytes,
        documents_done: before.documents_done + batch.documents_done,
        bytes_done: before.bytes_done + batch.bytes_done,
        snippets: before.snippets + batch.snippets,
        sentences: before.sentences + batch.sentences,
        quantities: before.quantities + batch.quantities,
        seconds: started.elapsed().as_secs_f64(),
    }
}
