//! The corpus pages (admin token): `/admin` lists the corpora of the indexes with a delete
//! button each and a form that uploads documents into a corpus; `/admin/jobs/{id}` follows an
//! upload's ingestion (server-sent events once hydrated; the server-rendered page shows where it
//! stood when loaded).

use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::backend::{admin_corpora, admin_corpus_documents, admin_form_token, get_ingest_job};
use crate::format::{counted, number};
use crate::model::encode;
use crate::views::feedback::error_text;
use crate::views::login::{FormTokenField, LoginForm, LoginNeeded};
use tally_types::documents::{
    upload_accept, CorpusRow, FileOutcome, IngestJob, JobState, UploadMode,
};

/// The admin page: the corpora and a form to add documents.
#[component]
pub fn AdminPage() -> impl IntoView {
    let query = use_query_map();
    let token = move || query.read().get("token").unwrap_or_default();
    let error = move || query.read().get("error").filter(|e| !e.is_empty());
    let deleted = move || query.read().get("deleted").filter(|e| !e.is_empty());
    let corpora = Resource::new(token, admin_corpora);
    let form_token = Resource::new(|| (), |_| admin_form_token());
    view! {
        <crate::title::PageTitle text=crate::title::page_title("Corpora")/>
        <section class="admin">
            <h1>"Corpora"</h1>
            <LoginForm next="/admin".to_string()/>
            {move || error().map(|e| view! { <p class="error" role="alert" id="admin-error">{e}</p> })}
            {move || deleted().map(|name| view! { <p class="notice" role="status" id="admin-deleted">{format!("Deleted corpus {name}.")}</p> })}
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    let form_token = form_token.await.ok().flatten().unwrap_or_default();
                    match corpora.await {
                        Ok(Some(rows)) => view! {
                            <CorpusTable rows token=token() form_token=form_token.clone()/>
                            <UploadForm token=token() form_token/>
                        }.into_any(),
                        Ok(None) => view! { <LoginNeeded what="see and change the corpora"/> }.into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// How far the server's background job is with a corpus's sentence vectors (issue 76).
fn vectors_cell(row: &CorpusRow) -> String {
    match row.vectors {
        None => "not computed".to_string(),
        Some(done) if done >= row.sentences => "all".to_string(),
        Some(done) => format!(
            "{} of {} (computing)",
            number(done as f64),
            number(row.sentences as f64)
        ),
    }
}

#[component]
fn CorpusTable(rows: Vec<CorpusRow>, token: String, form_token: String) -> impl IntoView {
    view! {
        <table class="corpus-table" id="corpus-table" tabindex="0">
            <thead>
                <tr><th>"Corpus"</th><th>"Snippets"</th><th>"Sentences"</th><th title="Sentences whose vector is stored for quantity search">"Search vectors"</th><th></th></tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|row| {
                        let action = format!("/admin/corpora/{}/delete", row.name);
                        let ask = format!("/?corpus={}", encode(&row.name));
                        let page = format!("/admin/corpora/{}", encode(&row.name));
                        view! {
                            <tr data-corpus=row.name.clone()>
                                <td>
                                    <a href=page class="corpus-page" title="Its documents">{row.name.clone()}</a>
                                    " · " <a href=ask class="corpus-ask small">"ask"</a>
                                    {row.indexing.then(|| view! { " " <span class="muted small">"(being indexed)"</span> })}
                                    {row.failed.clone().map(|why| view! { <p class="error small corpus-failed">"Not indexed: " {why}</p> })}
                                </td>
                                <td data-label="Snippets">{number(row.snippets as f64)}</td>
                                <td data-label="Sentences">{number(row.sentences as f64)}</td>
                                <td class="vectors" data-label="Search vectors">{vectors_cell(&row)}</td>
                                <td class="corpus-delete">
                                    // Asked twice: the delete button is behind "Delete…".
                                    <details class="confirm">
                                        <summary>"Delete…"</summary>
                                        <form method="post" action=action class="inline">
                                            <input type="hidden" name="token" value=token.clone()/>
                                            <FormTokenField form_token=form_token.clone()/>
                                            <button type="submit" class="danger">{format!("Delete {} and its documents", row.name)}</button>
                                        </form>
                                    </details>
                                </td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
        <p class="muted small">
            "Every kind of question asks the corpus chosen by the question box (\"Ask about\"), or all of them. "
            "Search vectors are computed in the background after a corpus is indexed; until a sentence has one, a search that ranks it encodes it on the way (slower)."
        </p>
    }
}

#[component]
fn UploadForm(token: String, form_token: String) -> impl IntoView {
    // The files are sent and read before the job's page comes (scans by OCR, seconds a page):
    // said while it lasts, so the click is not met by nothing (issue 101).
    let sending = RwSignal::new(false);
    view! {
        <h2 id="add-documents">"Add documents"</h2>
        <form method="post" action="/api/admin/corpora" enctype="multipart/form-data" id="upload-form" class="upload-form"
            on:submit=move |_| sending.set(true)>
            // Both before the files: the server reads no file of a form they do not admit.
            <input type="hidden" name="token" value=token/>
            <FormTokenField form_token/>
            <label>"Corpus name " <input name="corpus" required pattern="[a-z0-9_\\-]{1,40}" placeholder="my-reports"/></label>
            <label>"Files " <input type="file" name="file" multiple required accept=upload_accept()/></label>
            <fieldset class="upload-mode">
                <legend>"If the corpus exists"</legend>
                <label><input type="radio" name="mode" value=UploadMode::Add.name() checked/>" add these documents to it"</label>
                <label><input type="radio" name="mode" value=UploadMode::Replace.name()/>" replace its documents with these"</label>
            </fieldset>
            <button type="submit" disabled=move || sending.get()>"Upload and index"</button>
            <p class="muted" id="upload-sending" role="status">
                {move || sending.get().then_some("Sending and reading the files… A scan or photo is read by OCR, a few seconds a page; the job's page follows.")}
            </p>
        </form>
        <p class="muted small">
            "Plain text (paragraphs separated by blank lines), Markdown, HTML (its title names the source), CSV (the first row names the columns), JSONL (one {\"text\", \"title\", \"id\"} object per line), PDF (its text layer; scanned pages are read by OCR), scans and photos of pages (PNG, JPEG, TIFF; read by OCR, each line's evidence saying how sure it was), Word (.docx), PowerPoint (.pptx), Excel (.xlsx, .xls) and OpenDocument (.ods) spreadsheets (each sheet a table; formulas as their saved values), e-mail (.eml, with its text attachments) and EPUB, up to 64 MiB at once. The evidence names the page, sheet and row, or slide. Each document is split into paragraph snippets for count questions and into sentences with their quantities. A document the corpus holds already (the same text) is not added again. Every server behind the same database indexes the corpus."
        </p>
    }
}

/// The page of one corpus: the documents it holds, by file (issue 87: the corpus's name led to
/// the ask page, not to its documents).
#[component]
pub fn AdminCorpusPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let name = move || params.read().get("name").unwrap_or_default();
    let token = move || query.read().get("token").unwrap_or_default();
    let documents = Resource::new(
        move || (token(), name()),
        |(token, name)| admin_corpus_documents(token, name),
    );
    view! {
        <crate::title::PageTitle text=move || crate::title::page_title(&format!("Corpus {}", name()))/>
        <section class="admin">
            <h1 id="corpus-title">{move || format!("Corpus {}", name())}</h1>
            <p><a href=move || format!("/?corpus={}", encode(&name())) id="ask-corpus">"Ask about these documents"</a> " · " <a href="/admin">"All corpora"</a></p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match documents.await {
                        Ok(Some(rows)) if rows.is_empty() => view! {
                            <p class="muted" id="no-documents">"The database holds no documents for this corpus: it is bundled with the server, or was indexed from files by one server only."</p>
                        }
                        .into_any(),
                        Ok(Some(rows)) => view! { <DocumentTable rows/> }.into_any(),
                        Ok(None) => view! { <LoginNeeded what="see the corpus's documents"/> }.into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn DocumentTable(rows: Vec<tally_types::documents::DocumentEntry>) -> impl IntoView {
    let files = rows.len();
    view! {
        <p class="muted" id="document-count">{counted(files, "source")}</p>
        <table class="corpus-table" id="document-table" tabindex="0">
            <thead><tr><th>"Source"</th><th>"Documents"</th><th>"Text"</th></tr></thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|row| view! {
                        <tr data-source=row.source.clone()>
                            <td>{row.source.clone()}</td>
                            <td>{number(row.documents as f64)}</td>
                            <td>{format!("{} KB", number((row.bytes as f64 / 1024.0).ceil()))}</td>
                        </tr>
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// The page of one document ingestion job and how it stands.
#[component]
pub fn AdminJobPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let token = move || query.read().get("token").unwrap_or_default();
    // Behind the admin token (issue 97): a job names its corpus, its files and their errors.
    let job = Resource::new(
        move || (token(), id()),
        |(token, id)| get_ingest_job(token, id),
    );
    view! {
        <section class="admin">
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match job.await {
                        Ok(Some(job)) => view! { <JobView initial=job/> }.into_any(),
                        Ok(None) => view! {
                            <LoginForm next=format!("/admin/jobs/{}", id())/>
                            <LoginNeeded what="follow this upload"/>
                        }.into_any(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// The job, kept current from its event stream once hydrated.
#[component]
fn JobView(initial: IngestJob) -> impl IntoView {
    let job = RwSignal::new(initial);
    #[cfg(feature = "hydrate")]
    Effect::new(move |started: Option<()>| {
        if started.is_none() && job.get_untracked().state == JobState::Running {
            follow(job);
        }
    });
    // The title says how the job ended (issue 87: it said "Ingesting documents" when done).
    let heading = move || match job.read().state {
        JobState::Running => "Ingesting documents",
        JobState::Done => "Done: documents ingested",
        JobState::Failed => "Ingesting failed",
        JobState::Cancelled => "Ingesting cancelled",
    };
    view! {
        <crate::title::PageTitle text=move || crate::title::page_title(heading())/>
        <h1 id="job-title">{heading}</h1>
        {move || {
            let j = job.get();
            let state = j.state.name();
            let p = j.progress;
            let files = j.outcomes.clone();
            view! {
                <p id="job-corpus">{format!("Corpus {} · {}", j.corpus, j.files.join(", "))}</p>
                <FileOutcomes files/>
                // A job with nothing new to index (every document held already) is full when done.
                <progress id="ingest-progress" max=p.bytes.max(1).to_string()
                    value=if j.state == JobState::Done { p.bytes.max(1) } else { p.bytes_done }.to_string()></progress>
                <p id="job-state" data-state=state>
                    {if j.state == JobState::Done && p.documents == 0 {
                        "Done: nothing new to index, every document was in the corpus already.".to_string()
                    } else { format!(
                        "{}: {} of {}, {}, {} with {}, {:.1} s",
                        match j.state {
                            JobState::Running => "Indexing",
                            JobState::Done => "Done",
                            JobState::Failed => "Failed",
                            JobState::Cancelled => "Cancelled",
                        },
                        number(p.documents_done as f64),
                        counted(p.documents, "document"),
                        counted(p.snippets, "snippet"),
                        counted(p.sentences, "sentence"),
                        counted(p.quantities, "quantity"),
                        p.seconds
                    )}}
                </p>
                {(j.mode == UploadMode::Replace).then(|| view! { <p id="job-mode">"It replaces what the corpus held."</p> })}
                {(j.duplicates > 0).then(|| view! {
                    <p id="job-duplicates">{format!("{} documents were in the corpus already and are not added again.", number(j.duplicates as f64))}</p>
                })}
                {j.error.map(|e| view! { <p class="error" role="alert">{e}</p> })}
                {(j.state == JobState::Done).then(|| {
                    let href = format!("/?corpus={}", j.corpus);
                    view! { <p><a href=href id="ask-corpus">"Ask about these documents"</a></p> }
                })}
            }
        }}
    }
}

/// A line per file of the upload: the documents read from it, or why it was refused.
#[component]
fn FileOutcomes(files: Vec<FileOutcome>) -> impl IntoView {
    (!files.is_empty()).then(|| {
        view! {
            <ul class="file-outcomes" id="file-outcomes">
                {files
                    .into_iter()
                    .map(|f| match f.refused {
                        Some(why) => view! {
                            <li class="file-refused" data-file=f.file.clone()>
                                <strong>{f.file.clone()}</strong> {format!(": refused — {why}")}
                            </li>
                        }
                        .into_any(),
                        None => view! {
                            <li class="file-read" data-file=f.file.clone()>
                                <strong>{f.file.clone()}</strong> {format!(": {}", f.sentence())}
                            </li>
                        }
                        .into_any(),
                    })
                    .collect_view()}
            </ul>
        }
    })
}

/// Opens the job's event stream and copies each event into `job` until it ends.
#[cfg(feature = "hydrate")]
fn follow(job: RwSignal<IngestJob>) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{EventSource, MessageEvent};

    let id = job.get_untracked().id;
    let Ok(source) = EventSource::new(&format!("/api/admin/jobs/{id}/events")) else {
        return;
    };
    let stream = source.clone();
    let on_event = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let update = event
            .data()
            .as_string()
            .and_then(|text| serde_json::from_str::<IngestJob>(&text).ok());
        if let Some(update) = update {
            if update.state != JobState::Running {
                stream.close();
            }
            job.set(update);
        }
    });
    for name in JobState::ALL.map(JobState::event_name) {
        let _ = source.add_event_listener_with_callback(name, on_event.as_ref().unchecked_ref());
    }
    // The page keeps the listener for as long as it shows the job.
    on_event.forget();
}
