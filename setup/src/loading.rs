//! Loading what every part of the binary needs, one way: the sentence encoder (by a directory
//! path, or a name looked up in the models directory) on the best device, and the two indexes
//! with their default corpora.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use tally_documents::sentence_store::SentenceIndex;
use tally_documents::snippet_index::SnippetIndex;
use tally_encoder::device::best_device;
use tally_encoder::{Encoder, ModelDir};
use tally_engine::count::CountPipeline;

use crate::flags::ModelArgs;

/// The model directory that `encoder` (a path, or a name in `models`) refers to.
pub fn encoder_dir(encoder: &str, models: &Path) -> anyhow::Result<ModelDir> {
    ModelDir::resolve(encoder, models).with_context(|| {
        format!("the encoder `{encoder}` was not found (run scripts/setup.sh to fetch it)")
    })
}

/// Loads the encoder in `dir` on the best device (a CUDA GPU in a `cuda` build, else the CPU).
pub fn load_encoder_in(dir: &ModelDir) -> anyhow::Result<Arc<Encoder>> {
    let encoder = Encoder::load(dir, best_device()).context("the encoder could not be loaded")?;
    Ok(Arc::new(encoder))
}

/// [`encoder_dir`] then [`load_encoder_in`].
pub fn load_encoder(encoder: &str, models: &Path) -> anyhow::Result<(Arc<Encoder>, ModelDir)> {
    let dir = encoder_dir(encoder, models)?;
    Ok((load_encoder_in(&dir)?, dir))
}

/// The encoder the command line's model flags name, and the directory it was loaded from.
pub fn encoder_of(models: &ModelArgs) -> anyhow::Result<(Arc<Encoder>, PathBuf)> {
    let (encoder, dir) = load_encoder(&models.model_files.encoder, &models.model_files.models)?;
    Ok((encoder, dir.path().to_path_buf()))
}

/// The snippet index in `dir`, filled with the default corpus (from `data`) when empty.
pub fn open_snippet_index(dir: &Path, data: Option<&Path>) -> anyhow::Result<SnippetIndex> {
    let (index, added) = tally_documents::corpus::default_snippets::open_with_default(dir, data)
        .with_context(|| format!("the snippet index in {} could not be opened", dir.display()))?;
    for (corpus, n) in added {
        tracing::info!("ingested {n} snippets of {corpus} into {}", dir.display());
    }
    Ok(index)
}

/// The sentence index in `dir`, filled with the default corpus (from `data`) when empty.
pub fn open_sentence_index(dir: &Path, data: Option<&Path>) -> anyhow::Result<SentenceIndex> {
    let (index, added) = tally_documents::corpus::sentences::open_with_default(dir, data)
        .with_context(|| {
            format!(
                "the sentence index in {} could not be opened",
                dir.display()
            )
        })?;
    for (name, stats) in added {
        tracing::info!(
            "ingested {} sentences of {name} into {}",
            stats.sentences,
            dir.display()
        );
    }
    Ok(index)
}

/// The count pipeline: the encoder with the span model (and candidate ranker) given, or the
/// built-in ones.
pub fn load_pipeline(models: &ModelArgs) -> anyhow::Result<CountPipeline> {
    let (encoder, _) = encoder_of(models)?;
    CountPipeline::load(
        encoder,
        models.span_model.as_deref(),
        models.reader_context_chars(),
        models.reader_weights,
    )
    .with_context(|| match &models.span_model {
        Some(dir) => format!("the span model in {} could not be loaded", dir.display()),
        None => "the built-in span model could not be loaded".to_string(),
    })
}

/// The snippet index in `dir`, created when there is none.
pub fn open_snippets(dir: &Path) -> anyhow::Result<SnippetIndex> {
    SnippetIndex::open_or_create(dir)
        .with_context(|| format!("the snippet index in {} could not be opened", dir.display()))
}

/// The sentence index in `dir`, created when there is none.
pub fn open_sentences(dir: &Path) -> anyhow::Result<SentenceIndex> {
    SentenceIndex::open_or_create(dir).with_context(|| {
        format!(
            "the sentence index in {} could not be opened",
            dir.display()
        )
    })
}
