//! Your own documents on the command line: `tally ingest` for plain text, HTML and JSONL files
//! (with a progress bar), `tally corpus list` and `tally corpus delete`.

use std::path::Path;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use tally_engine::count::snippet_index::SnippetIndex;
use tally_engine::dataset::parse_jsonl;
use tally_engine::documents::{self, DocumentFormat, Indexes};
use tally_engine::search::index::Document;
use tally_engine::search::sentences::split_sentences;
use tally_engine::search::SentenceIndex;

use crate::cli::{data_dir_or_default, BenchIngestArgs, IndexArgs, IngestArgs};

/// The own-document format of `file` (`--format` or its extension); `None` for the data sets'
/// formats (SQuAD, Qsearch, NewsQuant files, and JSONL snippet sets that name their "query").
pub fn own_format(file: &Path, format: Option<&str>) -> anyhow::Result<Option<DocumentFormat>> {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let format = match format {
        Some(name) => DocumentFormat::parse(name),
        None if name.contains("qsearch") || name.ends_with(".json") => None,
        None => Some(DocumentFormat::guess(&name)),
    };
    if format == Some(DocumentFormat::Jsonl) && is_snippet_set_file(file)? {
        return Ok(None);
    }
    Ok(format)
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

/// Ingests own documents into the indexes `--into` names (both by default), under `--corpus`
/// or each file's name.
pub fn ingest(args: &IngestArgs, files: &[(&Path, DocumentFormat)]) -> anyhow::Result<()> {
    let (with_snippets, with_sentences) = match args.into.as_deref() {
        None | Some("both") => (true, true),
        Some("count") => (true, false),
        Some("search") => (false, true),
        Some(other) => bail!("unknown index `{other}` (count, search, both)"),
    };
    let mut batches = Vec::new();
    for (file, format) in files {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("{} could not be read (as UTF-8 text)", file.display()))?;
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let corpus = args.corpus.clone().unwrap_or_else(|| corpus_name_of(file));
        documents::check_corpus_name(&corpus)
            .with_context(|| format!("{}: choose a name with --corpus", file.display()))?;
        batches.push((corpus, documents::read(&text, *format, &name)?));
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
        let report = documents::ingest(&indexes, corpus, docs, &mut |p| {
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

/// `tally corpus list`.
pub fn list(args: &IndexArgs) -> anyhow::Result<()> {
    let (snippets, sentences) = open(args)?;
    let indexes = Indexes {
        snippets: Some(&snippets),
        sentences: Some(&sentences),
    };
    println!("{:<24} {:>10} {:>10}", "corpus", "snippets", "sentences");
    for corpus in documents::corpora(&indexes)? {
        println!(
            "{:<24} {:>10} {:>10}",
            corpus.name, corpus.snippets, corpus.sentences
        );
    }
    Ok(())
}

/// `tally corpus delete NAME`.
pub fn delete(name: &str, args: &IndexArgs) -> anyhow::Result<()> {
    let (snippets, sentences) = open(args)?;
    let indexes = Indexes {
        snippets: Some(&snippets),
        sentences: Some(&sentences),
    };
    let deleted = documents::delete(&indexes, name)?;
    println!(
        "deleted corpus `{name}`: {} snippets, {} sentences",
        deleted.snippets, deleted.sentences
    );
    Ok(())
}

fn open(args: &IndexArgs) -> anyhow::Result<(SnippetIndex, SentenceIndex)> {
    Ok((
        open_snippets(&args.index)?,
        open_sentences(&args.search_index)?,
    ))
}

fn open_snippets(dir: &Path) -> anyhow::Result<SnippetIndex> {
    SnippetIndex::open_or_create(dir)
        .with_context(|| format!("the snippet index in {} could not be opened", dir.display()))
}

fn open_sentences(dir: &Path) -> anyhow::Result<SentenceIndex> {
    SentenceIndex::open_or_create(dir).with_context(|| {
        format!(
            "the sentence index in {} could not be opened",
            dir.display()
        )
    })
}

/// Snippets per benchmark document: a page of a few paragraphs, as people's documents are.
const BENCH_PARAGRAPHS: usize = 8;

/// `tally bench ingest`.
pub fn bench(args: &BenchIngestArgs) -> anyhow::Result<()> {
    let data = data_dir_or_default(&args.data);
    let paragraphs = bench_paragraphs(data.as_deref())?;
    let mut documents = Vec::new();
    let mut sentences = 0;
    let mut next = 0;
    while sentences < args.sentences {
        let mut text = Vec::with_capacity(BENCH_PARAGRAPHS);
        for _ in 0..BENCH_PARAGRAPHS {
            let (paragraph, count) = &paragraphs[next % paragraphs.len()];
            next += 1;
            text.push(paragraph.as_str());
            sentences += count;
        }
        documents.push(Document {
            id: format!("bench-{}", documents.len()),
            text: text.join("\n\n"),
            source: "bench".into(),
            entity: None,
        });
    }
    let _ = std::fs::remove_dir_all(&args.dir);
    let snippets = open_snippets(&args.dir.join("snippets"))?;
    let sentence_index = open_sentences(&args.dir.join("sentences"))?;
    let indexes = Indexes {
        snippets: Some(&snippets),
        sentences: Some(&sentence_index),
    };
    let bar = ProgressBar::new(documents.iter().map(|d| d.text.len() as u64).sum());
    let report = documents::ingest(&indexes, "bench", &documents, &mut |p| {
        bar.set_position(p.bytes_done as u64)
    })?;
    bar.finish_and_clear();
    let megabytes = super::search::directory_megabytes(&args.dir.join("snippets"))
        + super::search::directory_megabytes(&args.dir.join("sentences"));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "documents": report.documents,
                "snippets": report.snippets,
                "sentences": report.sentences,
                "quantities": report.quantities,
                "seconds": report.seconds,
                "sentences_per_second": report.sentences as f64 / report.seconds.max(1e-9),
                "disk_mb": megabytes,
                "cores": cores,
            })
        );
    } else {
        println!(
            "{} documents ({} distinct paragraphs of the data sets' web snippets, repeated), {cores} cores",
            report.documents,
            paragraphs.len()
        );
        println!(
            "{} snippets, {} sentences, {} quantities in {:.1} s: {:.0} sentences/s; {megabytes:.0} MB on disk",
            report.snippets,
            report.sentences,
            report.quantities,
            report.seconds,
            report.sentences as f64 / report.seconds.max(1e-9)
        );
    }
    Ok(())
}

/// The data sets' web snippets with their sentence counts (the demo corpus without them).
fn bench_paragraphs(data: Option<&Path>) -> anyhow::Result<Vec<(String, usize)>> {
    use tally_engine::corpora::{LCQUAD_COUNT, NQ_COUNT, STRESSTEST};
    let mut texts = Vec::new();
    for set in [STRESSTEST, NQ_COUNT, LCQUAD_COUNT] {
        let Some(path) = data.map(|d| d.join(set.path)).filter(|p| p.is_file()) else {
            continue;
        };
        for query in tally_engine::dataset::read_squad(&path)? {
            texts.extend(query.snippets.into_iter().map(|s| s.text));
        }
    }
    if texts.is_empty() {
        texts = tally_engine::search::corpus::parse_documents(
            tally_engine::search::corpus::DEMO_DOCUMENTS,
            tally_engine::search::corpus::Format::Jsonl,
            "demo",
        )
        .map_err(anyhow::Error::msg)?
        .into_iter()
        .map(|d| d.text)
        .collect();
    }
    let paragraphs: Vec<(String, usize)> = texts
        .into_iter()
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty())
        .map(|t| {
            let count = split_sentences(&t).len().max(1);
            (t, count)
        })
        .collect();
    anyhow::ensure!(!paragraphs.is_empty(), "no text to ingest");
    Ok(paragraphs)
}
