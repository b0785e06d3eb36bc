//! Why a question got no answer, by kind: what a caller acts on (a bad request, a wait, a
//! failure to log), each with its cause kept. The HTTP status is chosen from the kind
//! (the server's `error.rs`), and nothing is turned into a sentence before it is shown.

use tally_documents::DocumentsError;
use tally_engine::EngineError;
use tally_store::db::DbError;
use tally_types::count::SettingError;

use crate::engines::LoadFailure;
use crate::snippets::FetchError;

/// Why a question got no answer.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error("Tally is still loading its corpus and models; try again in a few seconds")]
    /// The corpora and models are still loading.
    Loading,
    #[error("Tally cannot answer: {0}")]
    /// The corpora or models could not be loaded.
    Unavailable(LoadFailure),
    /// The question or its settings were refused before any work.
    #[error(transparent)]
    BadRequest(#[from] Refused),
    #[error("too many questions from your address; try again in {0} s")]
    /// The asker's address asked too often; it may ask again in this many seconds.
    RateLimited(u64),
    #[error("Tally is answering as many questions as it can right now; try again in {0} s")]
    /// Every answer slot is taken and the queue is full; ask again in this many seconds.
    Busy(u64),
    /// The corpus asked about is being indexed (an upload, or a rebuild after a restart).
    #[error("the corpus `{corpus}` is being indexed (after an upload, or rebuilt after a restart); ask again in a few seconds")]
    Indexing {
        /// The corpus's name.
        corpus: String,
    },
    /// A question checked as a value question came back as another kind (a defect).
    #[error("the value question was not answered as a value question")]
    NotAValue,
    /// Nobody waits for the answer any more (its asker left): it was stopped between stages.
    #[error("the answer was stopped: nobody waits for it any more")]
    Cancelled,
    #[error("the count pipeline failed")]
    /// The count pipeline failed.
    Count(#[source] Box<EngineError>),
    #[error("the quantity search failed")]
    /// The quantity search failed.
    Search(#[source] Box<EngineError>),
    #[error("the sentence index could not be read")]
    /// The sentence index could not be read (a value question).
    SentenceIndex(#[source] DocumentsError),
    #[error("the corpora's tables could not be read")]
    /// The snippet index's record tables could not be read (an aggregation).
    Tables(#[source] DocumentsError),
    #[error("the database failed")]
    /// The database failed (an aggregation in SQL, a stored snippet set).
    Database(#[from] DbError),
    #[error("the snippets could not be fetched")]
    /// The snippet source failed.
    Fetch(#[from] FetchError),
    #[error("the answering task crashed")]
    /// The task computing the answer panicked or was dropped.
    Crashed(#[from] tokio::task::JoinError),
    /// A count question reached the count pipeline without snippets (a defect, not an input).
    #[error("no snippets were fetched for the count question")]
    NoSnippets,
}

impl AnswerError {
    /// The count pipeline's failure: stopped because nobody waits is cancelled, not failed.
    /// (The engine's error is boxed: it holds every engine cause, and every result that may
    /// fail with an `AnswerError` would carry its size.)
    pub fn of_count(error: EngineError) -> Self {
        match error {
            EngineError::Cancelled => AnswerError::Cancelled,
            other => AnswerError::Count(Box::new(other)),
        }
    }

    /// The quantity search's failure.
    pub fn of_search(error: EngineError) -> Self {
        AnswerError::Search(Box::new(error))
    }
}

/// Why a question is refused before any work: each is the asker's to change, with the sentence
/// that says how.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("the question is empty")]
    /// Nothing but spaces was asked.
    EmptyQuestion,
    #[error("the question is {chars} characters long; at most {max} are accepted")]
    /// The question is longer than the server takes.
    TooLong {
        /// The question's length in characters.
        chars: usize,
        /// The most the server takes.
        max: usize,
    },
    #[error("unknown corpus `{corpus}` ({offered})")]
    /// The corpus asked is not one of the server's.
    UnknownCorpus {
        /// The corpus asked.
        corpus: String,
        /// The corpora there are, as a sentence lists them.
        offered: String,
    },
    #[error(transparent)]
    /// A count setting is out of its range.
    Setting(#[from] SettingError),
    #[error(transparent)]
    /// A search setting is out of its range (`EngineError::OutOfRange`, from `SearchChoices`).
    Choice(Box<EngineError>),
    #[error("this server reads at most {max} snippets per question (its operator can raise --max-snippets); ask with snippets={max} or fewer")]
    /// More snippets were asked than the server reads per question.
    TooManySnippets {
        /// The most the server reads (`--max-snippets`).
        max: usize,
    },
    #[error("this server has no web search configured (start it with --web-search searxng or brave); use snippet_source=corpus")]
    /// Web snippets were asked of a server without a web search.
    NoWebSearch,
    #[error("there is no snippet set {id} for this question")]
    /// The stored snippet set named is not this question's.
    NoSnippetSet {
        /// The snippet set named.
        id: i64,
    },
}
