//! The decision with nothing around it: indexes loaded for one command or one measurement, no
//! database, no web search, no answer slots and no cache (`tally-lab train support`, the
//! resident-memory measurement). The server puts its slots and cache around the same decision.

use std::collections::BTreeSet;
use std::sync::Arc;

use tally_encoder::Encoder;
use tally_types::request::Ask;
use tally_types::Answer;

use crate::{
    check, AnswerError, Corpora, EngineConfig, Engines, HeldTables, Limits, LoadFailure, Options,
    Sources, Tables,
};

/// Loaded engines answering one question at a time.
pub struct Standalone {
    engines: Arc<Engines>,
    /// The snippet index's tables, read once per corpus.
    held: HeldTables,
}

impl Standalone {
    /// The engines of `config` loaded (blocking).
    pub fn load(config: &EngineConfig, encoder: Option<Arc<Encoder>>) -> Result<Self, LoadFailure> {
        Ok(Self {
            engines: Arc::new(crate::load(config, encoder)?),
            held: HeldTables::default(),
        })
    }

    /// The loaded engines (their indexes take ingested or deleted corpora: call
    /// [`corpora_changed`](Self::corpora_changed) after).
    pub fn engines(&self) -> &Engines {
        &self.engines
    }

    /// `corpus` was ingested or deleted: its tables are read again.
    pub fn corpora_changed(&self, corpus: &str) {
        self.held.forget(corpus);
    }

    /// Checks `ask` against the loaded corpora and answers it through the whole decision.
    pub fn ask(&self, ask: &Ask) -> Result<Answer, AnswerError> {
        let limits = tally_types::count::DEFAULT_MAX_SNIPPETS;
        answer_alone(
            &self.engines,
            Tables::Held(&self.held),
            ask,
            limits,
            Options::WHOLE,
        )
    }
}

/// `ask` checked against every corpus `engines` hold (at most `max_snippets` snippets, no web
/// search) and answered from `tables` with nothing around the decision: what a command or an
/// evaluation that loaded its own engines asks through.
pub fn answer_alone(
    engines: &Engines,
    tables: Tables<'_>,
    ask: &Ask,
    max_snippets: usize,
    options: Options,
) -> Result<Answer, AnswerError> {
    let offered = engines.snippets.corpora().map_err(AnswerError::Tables)?;
    let checked = check(
        ask,
        &Limits {
            max_snippets,
            web: false,
            offered: Some(offered.clone()),
            indexing: BTreeSet::new(),
        },
    )?;
    let corpora = Corpora {
        offered,
        indexing: BTreeSet::new(),
    };
    let sources = Sources {
        engines,
        tables,
        corpora: &corpora,
        web: None,
    };
    crate::answer(&checked, &sources, &(), options)
}
