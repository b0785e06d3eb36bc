//! A collection's question asked as a person asks Tally: through the one answer decision
//! (`tally_answer::answer`, issue 98) over the engines an evaluation loaded and the tables it
//! read once. The lab plans nothing itself; it may turn the records or the gates off to measure
//! what they add, and it reads the answer before the gates to log what they are trained on.

use tally_answer::{Engines, HeldTables, Options, Tables};
use tally_types::request::{Ask, Settings};
use tally_types::{Answer, CountSettings, Mode};

/// What an evaluation's questions are answered from.
pub(crate) struct Asking<'a> {
    /// The indexes and models.
    pub(crate) engines: &'a Engines,
    /// The snippet index's tables and passages, read once.
    pub(crate) records: &'a HeldTables,
    /// Whether the records are asked first (`--without-records` turns them off).
    pub(crate) records_first: bool,
    /// Whether the learned ranker's sure answer comes first (`--without-ranker` turns it off).
    pub(crate) ranked: bool,
}

impl Asking<'_> {
    /// `question` asked in `mode` with `count` settings, answered by the whole decision but the
    /// gates: the answer as the readers gave it. [`tally_answer::gate`] gives it as the page
    /// shows it.
    pub(crate) fn ungated(
        &self,
        question: &str,
        mode: Mode,
        count: &CountSettings,
    ) -> anyhow::Result<Answer> {
        let ask = Ask {
            q: question.to_string(),
            mode,
            settings: Settings {
                count: count.clone(),
                ..Settings::default()
            },
        };
        let options = Options {
            records: self.records_first,
            gate: false,
            ranked: self.ranked,
        };
        // The lab measures any number of snippets its flags ask for.
        let tables = Tables::Held(self.records);
        Ok(tally_answer::answer_alone(
            self.engines,
            tables,
            &ask,
            usize::MAX,
            options,
        )?)
    }
}
