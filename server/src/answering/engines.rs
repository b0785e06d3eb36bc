//! The engines the service answers with: the count pipeline over the snippet index, the sentence index with its value corpus, loaded once.

use super::*;

/// Every quantity of the sentence index with its description, for value questions: built when
/// the engines load, and again when documents are ingested or deleted.
pub struct ValueCorpus {
    pub sentences: Vec<StoredSentence>,
    pub descriptions: DescriptionIndex,
}

impl ValueCorpus {
    /// Describes every sentence of `index`.
    pub fn of(index: &SentenceIndex) -> Result<Self, String> {
        let sentences = index
            .all_sentences()
            .map_err(|e| format!("the sentence index could not be read: {e}"))?;
        Ok(ValueCorpus {
            descriptions: DescriptionIndex::build(&sentences),
            sentences,
        })
    }

    /// Answers a value question with the default settings.
    pub fn answer(&self, question: &str) -> ValueAnswer {
        answer_value(
            &parse_question(question),
            &self.descriptions,
            &self.sentences,
            &ValueSettings::default(),
        )
    }
}

/// What the service needs loaded.
pub struct Engines {
    pub snippets: SnippetIndex,
    pub pipeline: CountPipeline,
    pub sentences: SentenceIndex,
    /// Replaced whole when the sentence index changes (answers in flight keep the old one).
    pub values: RwLock<Arc<ValueCorpus>>,
    pub encoder: Option<Arc<Encoder>>,
    pub ask_options: tally_app::model::AskOptions,
}

impl Engines {
    /// Both indexes, for ingesting, listing and deleting corpora.
    pub fn indexes(&self) -> tally_engine::corpus::documents::Indexes<'_> {
        tally_engine::corpus::documents::Indexes {
            snippets: Some(&self.snippets),
            sentences: Some(&self.sentences),
        }
    }

    /// The value questions' corpus as it stands.
    pub fn value_corpus(&self) -> Arc<ValueCorpus> {
        match self.values.read() {
            Ok(values) => Arc::clone(&values),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Describes the sentence index again (after documents were ingested or deleted).
    pub fn refresh_value_corpus(&self) {
        match ValueCorpus::of(&self.sentences) {
            Ok(fresh) => {
                if let Ok(mut values) = self.values.write() {
                    *values = Arc::new(fresh);
                }
            }
            Err(e) => tracing::warn!("value questions keep the corpus as it was: {e}"),
        }
    }
}

pub(super) fn load_engines(
    config: &EngineConfig,
    encoder: Option<Arc<Encoder>>,
) -> Result<Engines, String> {
    let data = config.data_dir.as_deref();
    let snippets = crate::loading::open_snippet_index(&config.snippet_index, data)
        .map_err(|e| format!("{e:#}"))?;
    let sentences = crate::loading::open_sentence_index(&config.sentence_index, data)
        .map_err(|e| format!("{e:#}"))?;
    let values = RwLock::new(Arc::new(ValueCorpus::of(&sentences)?));
    let pipeline = match &encoder {
        Some(encoder) => {
            CountPipeline::load(encoder.clone(), config.span_model.as_deref(), CONTEXT_CHARS)
                .map_err(|e| format!("the span model could not be loaded: {e}"))?
        }
        // Without the encoder, counts come from the lexical scorer.
        None => CountPipeline::new(None, None),
    };
    let examples = tally_app::model::AskOptions {
        count: snippets
            .questions(6)
            .map_err(|e| format!("the stored questions could not be read: {e}"))?,
        quantity: quantity_examples(data),
        corpora: snippets
            .corpora()
            .map_err(|e| format!("the snippet index's corpora could not be read: {e}"))?,
        // Set from the configured web search when the examples are asked for.
        web_search: None,
    };
    Ok(Engines {
        snippets,
        pipeline,
        sentences,
        values,
        encoder,
        ask_options: examples,
    })
}

/// Quantity questions that the default corpus answers: Qsearch's own queries when its file is
/// there, otherwise questions about the embedded demo corpus.
pub(super) fn quantity_examples(data: Option<&std::path::Path>) -> Vec<String> {
    let judged = data.map(|d| d.join(tally_engine::corpus::catalogue::QSEARCH.path));
    if let Some(path) = judged.filter(|p| p.is_file()) {
        let parsed = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| tally_engine::corpus::sentences::parse_judged(&text).ok());
        if let Some(judged) = parsed {
            let queries: Vec<String> = judged.into_iter().take(6).map(|q| q.query).collect();
            if !queries.is_empty() {
                return queries;
            }
        }
    }
    [
        "stadiums with a capacity of more than 85000",
        "electric cars with a range above 400 km",
        "phones with a battery of at least 4500 mAh",
        "phones under $300",
    ]
    .map(String::from)
    .to_vec()
}
