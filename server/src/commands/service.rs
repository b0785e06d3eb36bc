//! What the commands that answer as the server answers (`tally ask`, `tally value`) start with:
//! the answering service, loaded as the server loads it.

use std::path::Path;

use anyhow::Context;

use crate::answering::{Answerer, EngineConfig};
use tally_setup::flags::{CorpusArgs, ModelArgs};
use tally_setup::loading::encoder_of;

/// Loads `answerer`'s corpora and models as the server does: what a command answering as the
/// server answers (`tally ask`) starts with.
pub async fn load(
    answerer: &Answerer,
    models: &ModelArgs,
    corpus: &CorpusArgs,
    search_index: &Path,
) -> anyhow::Result<()> {
    let (encoder, _) = encoder_of(models)?;
    load_with(answerer, models, corpus, search_index, Some(encoder)).await
}

/// Loads `answerer` without the sentence encoder: what value questions need (`tally value`;
/// they read cells and the sentence index's quantities, never the encoder).
pub async fn load_for_values(
    answerer: &Answerer,
    models: &ModelArgs,
    corpus: &CorpusArgs,
    search_index: &Path,
) -> anyhow::Result<()> {
    load_with(answerer, models, corpus, search_index, None).await
}

async fn load_with(
    answerer: &Answerer,
    models: &ModelArgs,
    corpus: &CorpusArgs,
    search_index: &Path,
    encoder: Option<std::sync::Arc<tally_encoder::Encoder>>,
) -> anyhow::Result<()> {
    let config = EngineConfig {
        snippet_index: corpus.index.clone(),
        sentence_index: search_index.to_path_buf(),
        data_dir: corpus.data_dir(),
        span_model: models.span_model.clone(),
        reader_context_chars: models.reader_context_chars(),
        reader_weights: models.reader_weights,
        // One question: no background job.
        sentence_vectors: false,
    };
    let answerer = answerer.clone();
    tokio::task::spawn_blocking(move || answerer.load(&config, encoder))
        .await
        .context("loading the corpora and models crashed")
}
