//! `tally ingest FILE…`: files into the indexes, each by its format (`--format`, or what its
//! name says). A person's documents (plain text, HTML, JSONL) are split into snippets and
//! sentences, with a progress bar; a data set's snippet sets (SQuAD-format files, JSONL lines
//! that name their question) go into the snippet index as they are and, as sentences, into the
//! sentence index; Qsearch's and NewsQuant's sentences go into the sentence index.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use tally_documents::corpus::budget::ReadBudget;
use tally_documents::corpus::datasets::{parse_jsonl, read_jsonl, read_squad};
use tally_documents::corpus::documents;
use tally_documents::corpus::format::Format;
use tally_documents::corpus::indexing::{self, Indexes};
use tally_documents::corpus::sentences::read_documents;
use tally_documents::sentence_store::vectors::SentenceVectors;
use tally_documents::sentence_store::SentenceIndex;
use tally_documents::snippet_index::SnippetIndex;
use tally_engine::search::vector_job::{fill_vectors, FillControl};

use tally_types::documents::UploadMode;

use crate::cli::{IngestArgs, IngestInto};
use tally_setup::loading::{open_sentences, open_snippets};
use tally_store::corpora;

/// How a file is ingested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// A person's documents, split into snippets and sentences.
    Documents,
    /// A data set's snippets of its questions.
    SnippetSets,
    /// A data set's judged or gold sentences: the sentence index only.
    Sentences,
}

/// `tally ingest FILE… [--format F] [--corpus NAME] [--into count|search|both]`.
pub fn ingest(args: &IngestArgs) -> anyhow::Result<()> {
    let mut routed: [Vec<(&Path, Format)>; 3] = Default::default();
    for file in &args.files {
        let format = file_format(file, args.format)?;
        let route = match format {
            Format::Jsonl if is_snippet_set_file(file)? => Route::SnippetSets,
            Format::Squad => Route::SnippetSets,
            Format::Qsearch | Format::NewsQuant => Route::Sentences,
            _ => Route::Documents,
        };
        if route == Route::Sentences && args.into == Some(IngestInto::Count) {
            bail!(
                "{}: only squad and jsonl files hold count snippets",
                file.display()
            );
        }
        routed[route as usize].push((file.as_path(), format));
    }
    let [documents, snippet_sets, sentences] = &routed;
    let into = args.into.unwrap_or(IngestInto::Both);
    if !documents.is_empty() {
        ingest_documents(args, documents)?;
    }
    if !snippet_sets.is_empty() && into.snippets() {
        ingest_snippet_sets(args, snippet_sets)?;
    }
    let sentence_files: Vec<(&Path, Format)> = sentences
        .iter()
        .chain(snippet_sets.iter().filter(|_| into.sentences()))
        .copied()
        .collect();
    if !sentence_files.is_empty() {
        ingest_sentences(&args.indexes.search_index, &sentence_files)?;
    }
    let sentences_indexed = !sentence_files.is_empty()
        || (!documents.is_empty() && args.database_url.is_none() && into.sentences());
    if sentences_indexed && args.vectors.sentence_vectors {
        fill_sentence_vectors(args)?;
    }
    Ok(())
}

/// The sentence vectors of the sentences that have none (issue 76), with a progress bar; the
/// text index is ready before, and an interrupted run leaves what it wrote.
fn fill_sentence_vectors(args: &IngestArgs) -> anyhow::Result<()> {
    // The text is indexed: without the encoder, the vectors are left to a server's job.
    let encoder = match tally_setup::loading::load_encoder(
        &args.vectors.model_files.encoder,
        &args.vectors.model_files.models,
    ) {
        Ok((encoder, _)) => encoder,
        Err(e) => {
            eprintln!(
                "sentence vectors not computed (a server computes them, or pass \
                 --sentence-vectors false): {e:#}"
            );
            return Ok(());
        }
    };
    let index = open_sentences(&args.indexes.search_index)?;
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(
            "sentence vectors {bar:40} {pos}/{len}, {msg} [{elapsed_precise}, {eta} left]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let never = std::sync::atomic::AtomicBool::new(false);
    let report = fill_vectors(&index, &encoder, FillControl::until(&never), |progress| {
        let totals = progress.totals();
        bar.set_length(totals.sentences);
        bar.set_position(totals.with_vectors);
        bar.set_message(format!("{:.0} sentences/s", progress.sentences_per_second));
    })?;
    bar.finish_and_clear();
    let totals = report.progress.totals();
    println!(
        "sentence vectors: {} encoded in {:.1} s ({:.0} sentences/s, {} bytes each), {} of {} sentences have one",
        report.progress.encoded,
        report.seconds,
        report.progress.sentences_per_second,
        SentenceVectors::bytes_per_sentence(encoder.dimension()),
        totals.with_vectors,
        totals.sentences
    );
    Ok(())
}

/// The format of `file`: `given`, or the one its extension says (the data sets' included), or
/// for a name without an extension Tally knows, the one its bytes say (a PDF by its signature,
/// text when they are text); a file of no format Tally reads is refused with a sentence.
pub fn file_format(file: &Path, given: Option<Format>) -> anyhow::Result<Format> {
    if let Some(format) = given {
        return Ok(format);
    }
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match Format::guess(&name) {
        Format::Text => {
            let bytes = std::fs::read(file)
                .with_context(|| format!("{} could not be read", file.display()))?;
            Format::of_file(&name, &bytes).map_err(|why| {
                anyhow::anyhow!("{}: {why}. {}", file.display(), Format::documents_read())
            })
        }
        guessed => Ok(guessed),
    }
}

/// A JSONL file whose lines name the question they were retrieved for (a data set's snippets).
fn is_snippet_set_file(file: &Path) -> anyhow::Result<bool> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("{} could not be read", file.display()))?;
    Ok(parse_jsonl(&text, file)
        .map(|sets| sets.iter().any(|set| !set.question.is_empty()))
        .unwrap_or(false))
}

/// A corpus name from a file name: lower case, other characters as `-`.
fn corpus_name_of(file: &Path) -> String {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(40)
        .collect();
    name.trim_matches('-').to_string()
}

/// A person's documents into the indexes `--into` names (both by default), under `--corpus`
/// or each file's name, split into snippets and sentences.
fn ingest_documents(args: &IngestArgs, files: &[(&Path, Format)]) -> anyhow::Result<()> {
    let into = args.into.unwrap_or(IngestInto::Both);
    let (with_snippets, with_sentences) = (into.snippets(), into.sentences());
    let mut batches = Vec::new();
    for (file, format) in files {
        let bytes =
            std::fs::read(file).with_context(|| format!("{} could not be read", file.display()))?;
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let corpus = args.corpus.clone().unwrap_or_else(|| corpus_name_of(file));
        documents::check_corpus_name(&corpus)
            .with_context(|| format!("{}: choose a name with --corpus", file.display()))?;
        batches.push((
            corpus,
            documents::read_file(&bytes, *format, &name, &ReadBudget::for_bytes(bytes.len()))?,
        ));
    }
    if let Some(url) = &args.database_url {
        if into != IngestInto::Both {
            bail!("documents stored in the database go into both indexes of every server: leave out --into");
        }
        return store_documents(url, args, files, batches);
    }
    let snippets = with_snippets
        .then(|| open_snippets(&args.indexes.index))
        .transpose()?;
    let sentences = with_sentences
        .then(|| open_sentences(&args.indexes.search_index))
        .transpose()?;
    let indexes = Indexes {
        snippets: snippets.as_ref(),
        sentences: sentences.as_ref(),
    };
    let total: usize = batches
        .iter()
        .flat_map(|(_, docs)| docs)
        .map(|d| d.text.len())
        .sum();
    // Drawn on stderr, and only on a terminal: a pipe gets the summary lines alone.
    let bar = ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template(
            "{bar:40} {bytes}/{total_bytes}, {msg} [{elapsed_precise}, {eta} left]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut done_before = 0;
    for (corpus, docs) in &batches {
        let report = indexing::ingest(&indexes, corpus, docs, &mut |p| {
            bar.set_position((done_before + p.bytes_done) as u64);
            bar.set_message(format!(
                "{} of {} documents, {} snippets, {} sentences",
                p.documents_done, p.documents, p.snippets, p.sentences
            ));
        })?;
        done_before += report.bytes;
        bar.suspend(|| {
            println!(
                "corpus `{corpus}`: {} documents, {} snippets, {} sentences with {} quantities in {:.2} s ({:.0} sentences/s)",
                report.documents,
                report.snippets,
                report.sentences,
                report.quantities,
                report.seconds,
                report.sentences as f64 / report.seconds.max(1e-9)
            )
        });
    }
    bar.finish_and_clear();
    Ok(())
}

/// A person's documents into the database's corpora (every server using it indexes them), each
/// batch in one transaction; what was stored, one line per corpus.
fn store_documents(
    url: &str,
    args: &IngestArgs,
    files: &[(&Path, Format)],
    batches: Vec<(
        String,
        Vec<tally_documents::sentence_store::index::Document>,
    )>,
) -> anyhow::Result<()> {
    let db = tally_store::db::Database::new(url);
    let replacing = if args.mode == UploadMode::Replace {
        ", replacing what it held"
    } else {
        ""
    };
    // The binary's runtime runs this command; it waits here for the database.
    let runtime = tokio::runtime::Handle::current();
    tokio::task::block_in_place(|| {
        runtime.block_on(async {
            // One batch per file, in the files' order.
            for ((file, _), (corpus, documents)) in files.iter().zip(&batches) {
                let outcomes = vec![tally_types::documents::FileOutcome {
                    file: file.display().to_string(),
                    documents: documents.len(),
                    ..Default::default()
                }];
                let job = corpora::store_upload(
                    &db,
                    corpora::FollowedBy::Nobody,
                    corpus,
                    args.mode,
                    outcomes,
                    documents,
                    None,
                )
                .await
                .with_context(|| {
                    format!("corpus `{corpus}` could not be stored in the database")
                })?;
                println!(
                    "corpus `{corpus}`: {} documents stored in the database ({} there already, \
                     not added again){replacing}; every server using it indexes them",
                    job.progress.documents, job.duplicates
                );
            }
            db.close().await;
            Ok(())
        })
    })
}

/// A data set's snippet sets into the snippet index as they are, each file a corpus.
fn ingest_snippet_sets(args: &IngestArgs, files: &[(&Path, Format)]) -> anyhow::Result<()> {
    let index = SnippetIndex::open_or_create(&args.indexes.index).with_context(|| {
        format!(
            "the snippet index in {} could not be opened",
            args.indexes.index.display()
        )
    })?;
    let started = Instant::now();
    let mut total = 0;
    for (file, format) in files {
        let sets = match format {
            Format::Jsonl => read_jsonl(file)?,
            _ => read_squad(file)?,
        };
        let corpus = args.corpus.clone().unwrap_or_else(|| {
            file.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        let n = index.add(&corpus, &sets)?;
        println!("{}: {n} snippets as corpus `{corpus}`", file.display());
        total += n;
    }
    println!(
        "{total} snippets in {:.2} s; the index in {} now holds {}",
        started.elapsed().as_secs_f64(),
        args.indexes.index.display(),
        index.len()
    );
    Ok(())
}

/// Data set files into the sentence index: snippets split into sentences, Qsearch's and
/// NewsQuant's sentences one document each.
fn ingest_sentences(dir: &Path, files: &[(&Path, Format)]) -> anyhow::Result<()> {
    let index = SentenceIndex::open_or_create(dir).with_context(|| {
        format!(
            "the sentence index in {} could not be opened",
            dir.display()
        )
    })?;
    for (file, format) in files {
        let documents = read_documents(file, *format)
            .with_context(|| format!("{} could not be read", file.display()))?;
        let stats = if matches!(format, Format::Qsearch | Format::NewsQuant) {
            index.add_unsplit(&documents)?
        } else {
            index.add(&documents)?
        };
        let seconds = stats.extraction_s + stats.indexing_s;
        println!(
            "{}: {} sentences, {} quantities into the sentence index ({:.0} sentences/s)",
            file.display(),
            stats.sentences,
            stats.quantities,
            stats.sentences as f64 / seconds.max(1e-9)
        );
    }
    println!(
        "the sentence index in {} now holds {}",
        dir.display(),
        index.len()
    );
    Ok(())
}
