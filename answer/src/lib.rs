//! The one answer decision (issue 98). Every entry point — the page, the API, `tally ask` and
//! `tally value`, the study, and every evaluation of the lab — answers a question through
//! [`answer`]: the records in its scope first, then its kind, then the count pipeline over its
//! snippets, the value reader or the quantity search (the readers' answer), then the learned
//! ranker over a person's documents weighed against it — its best candidate when sure, else the
//! readers' answer through the answer gates — then the answer's scope and "did you mean".
//!
//! Invariant: this crate decides and knows no transport. What serving adds around the decision —
//! the answer slots, the cache of recent answers, the web search, progress and cancellation —
//! comes in through [`Around`] and [`WebSnippets`]; nothing here speaks HTTP or holds a
//! connection, and the lab reaches the decision without linking the server.

mod check;
mod decide;
mod engines;
mod error;
mod ranked;
mod records;
mod scope;
mod snippets;
mod standalone;
mod suggest;

pub use check::{check, count_settings, search_settings, validate_question, Checked, Limits};
pub use decide::{answer, gate, AnswerKey, Around, Corpora, Options, Sources};
pub use engines::{load, EngineConfig, Engines, ExampleQuestions, LoadFailure};
pub use error::{AnswerError, Refused};
pub use ranked::{rank, ranked_answer, CandidateCorpus, Ranked};
pub use records::{HeldTables, Tables};
pub use snippets::{timing_of, FetchCause, FetchError, Fetched, LocalIndex, WebSnippets};
pub use standalone::{answer_alone, Standalone};
