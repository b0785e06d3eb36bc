//! What the readers answered, as the ranker weighs it (issue 99): a candidate whose number the
//! records' rules, the count reader or the value reader gave has another reading on its side.

use super::super::plan::numbers_in;
use super::super::Source;
use super::Features;

/// What the readers answered before the ranker chose — the records' rules or the count reader
/// (a count), or the value reader (a value) — with the number they gave even where their gate
/// would doubt it: a candidate they agree with has another reading's word in its favour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadersAnswer {
    /// The number given.
    pub number: f64,
    /// Which reader gave it.
    pub by: Reader,
    /// For a value, its number as the document writes it when the reader multiplied it out
    /// ("£1.14 million": 1.14 to the candidates, 1,140,000 to the value reader).
    pub written: Option<f64>,
}

/// Which of the readers answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// The records' rules or the count reader: a count answer.
    Count,
    /// The value reader.
    Value,
}

impl ReadersAnswer {
    /// What an answer the readers gave (before any gate) says, when it gives a number.
    pub fn of(answer: &tally_types::AnswerBody) -> Option<Self> {
        use tally_types::AnswerBody;
        match answer {
            AnswerBody::Count(count) => count.count.map(|number| ReadersAnswer {
                number,
                by: Reader::Count,
                written: None,
            }),
            AnswerBody::Value(value) => value.value.map(|number| ReadersAnswer {
                number,
                by: Reader::Value,
                written: value
                    .representative
                    .as_deref()
                    .and_then(|r| numbers_in(r).first().copied()),
            }),
            AnswerBody::Search(_) => None,
        }
    }

    /// Whether a candidate of `value` gives the readers' number, or the number as the
    /// document writes it.
    pub fn agrees_with(&self, value: f64) -> bool {
        let close = |n: f64| (n - value).abs() <= 1e-6 * n.abs().max(1.0);
        close(self.number) || self.written.is_some_and(close)
    }
}

impl Reader {
    fn name(self) -> &'static str {
        match self {
            Reader::Count => "count",
            Reader::Value => "value",
        }
    }
}

/// Whether the readers gave the candidate's number, by which reader and from which kind of
/// reading: two ways of reading that agree are less often both wrong.
pub(super) fn readers_features(
    f: &mut Features,
    readers: Option<ReadersAnswer>,
    value: f64,
    source: &Source,
) {
    let Some(readers) = readers else {
        return;
    };
    if !readers.agrees_with(value) {
        return;
    }
    let from = match source {
        Source::Table { .. } => "table",
        Source::Passage { .. } => "passage",
    };
    f.flag("readers agree");
    f.flag(&format!("readers agree|by={}", readers.by.name()));
    f.flag(&format!(
        "readers agree|by={}|from={from}",
        readers.by.name()
    ));
}
