//! The engines the service answers with: the count pipeline over the snippet index, and the
//! sentence index with its observations for value questions; opened once, nothing rebuilt.

use std::path::PathBuf;
use std::sync::Arc;
use tally_documents::DocumentsError;

use tally_documents::sentence_store::SentenceIndex;
use tally_documents::snippet_index::SnippetIndex;
use tally_encoder::Encoder;
use tally_engine::count::CountPipeline;
use tally_engine::value::{answer_with_tables, parse_question, ValueSettings};
use tally_types::ValueAnswer;

use crate::AnswerError;

/// Paths and models the engines load from.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// The snippet index's directory (count questions).
    pub snippet_index: PathBuf,
    /// The sentence index's directory (value questions, quantity search).
    pub sentence_index: PathBuf,
    /// The data sets' directory, when there is one.
    pub data_dir: Option<PathBuf>,
    /// A span model other than the built-in one.
    pub span_model: Option<PathBuf>,
    /// Characters of its sentence the count reader reads on each side of a count.
    pub reader_context_chars: usize,
    /// The count reader's weights.
    pub reader_weights: tally_engine::count::span_model::ReaderWeights,
    /// Whether the sentences' vectors are computed in the background (issue 76).
    pub sentence_vectors: bool,
}

/// What the service needs loaded.
pub struct Engines {
    /// Shared with the local snippet source, which retrieves from it.
    pub snippets: Arc<SnippetIndex>,
    /// The count pipeline with its models.
    pub pipeline: Arc<CountPipeline>,
    /// Sentences for quantity search, and their quantities as observations for value questions.
    pub sentences: SentenceIndex,
    /// The sentence encoder, when it loaded.
    pub encoder: Option<Arc<Encoder>>,
    /// Questions the loaded corpora answer, for the page to offer.
    pub examples: ExampleQuestions,
    /// The snippet index's corpora when it was loaded.
    pub corpora_at_load: Vec<String>,
}

/// Questions of each kind the loaded corpora answer (the demo corpus's, loaded on every server).
#[derive(Debug, Clone, Default)]
pub struct ExampleQuestions {
    /// Count questions the corpora answer.
    pub count: Vec<String>,
    /// Value questions the corpora answer.
    pub value: Vec<String>,
    /// Quantity searches the corpora answer.
    pub quantity: Vec<String>,
}

impl ExampleQuestions {
    fn of_demo_corpus() -> Self {
        use tally_documents::corpus::examples::{
            COUNT_EXAMPLES, QUANTITY_EXAMPLES, VALUE_EXAMPLES,
        };
        let owned = |questions: &[&str]| questions.iter().map(|q| q.to_string()).collect();
        ExampleQuestions {
            count: owned(&COUNT_EXAMPLES),
            value: owned(&VALUE_EXAMPLES),
            quantity: owned(&QUANTITY_EXAMPLES),
        }
    }
}

impl Engines {
    /// Both indexes, for ingesting, listing and deleting corpora.
    pub fn indexes(&self) -> tally_documents::corpus::indexing::Indexes<'_> {
        tally_documents::corpus::indexing::Indexes {
            snippets: Some(self.snippets.as_ref()),
            sentences: Some(&self.sentences),
        }
    }

    /// Answers a value question with the default settings: from the table cells it names
    /// (the snippets' records) when there are some, else from the sentence index's
    /// observations; of `corpus` only when the question names one.
    pub fn answer_value(
        &self,
        question: &str,
        corpus: Option<&str>,
    ) -> Result<ValueAnswer, AnswerError> {
        answer_with_tables(
            &parse_question(question),
            &self.snippets,
            corpus,
            self.sentences.observations(),
            &ValueSettings::default(),
        )
        .map_err(AnswerError::SentenceIndex)
    }
}

/// Why the engines could not be loaded: kept (shared, as every question and the health check
/// tell it), with its cause.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LoadFailure {
    /// An index could not be opened or filled with its default corpus.
    #[error("{0:#}")]
    Index(Arc<anyhow::Error>),
    /// The count pipeline's models could not be loaded.
    #[error("the span model could not be loaded: {}", tally_types::error::Causes(&**.0))]
    Models(Arc<tally_engine::EngineError>),
    /// The snippet index's corpora could not be listed.
    #[error("the snippet index's corpora could not be read: {}", tally_types::error::Causes(&**.0))]
    Corpora(Arc<DocumentsError>),
}

/// Opens both indexes (ingesting the default corpus into empty ones) and loads the count
/// pipeline's models; blocking. Without the encoder, counts come from the lexical scorer.
pub fn load(config: &EngineConfig, encoder: Option<Arc<Encoder>>) -> Result<Engines, LoadFailure> {
    let data = config.data_dir.as_deref();
    let snippets = tally_setup::loading::open_snippet_index(&config.snippet_index, data)
        .map_err(|e| LoadFailure::Index(Arc::new(e)))?;
    let sentences = tally_setup::loading::open_sentence_index(&config.sentence_index, data)
        .map_err(|e| LoadFailure::Index(Arc::new(e)))?;
    let pipeline = match &encoder {
        Some(encoder) => CountPipeline::load(
            encoder.clone(),
            config.span_model.as_deref(),
            config.reader_context_chars,
            config.reader_weights,
        )
        .map_err(|e| LoadFailure::Models(Arc::new(e)))?,
        // Without the encoder, counts come from the lexical scorer.
        None => CountPipeline::new(None, None),
    };
    let examples = ExampleQuestions::of_demo_corpus();
    let corpora_at_load = snippets
        .corpora()
        .map_err(|e| LoadFailure::Corpora(Arc::new(e)))?;
    Ok(Engines {
        snippets: Arc::new(snippets),
        pipeline: Arc::new(pipeline),
        sentences,
        encoder,
        examples,
        corpora_at_load,
    })
}
