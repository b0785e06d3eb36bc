//! The answer stream (`GET /api/answer/stream`): its server-sent events, named here once for the
//! server that sends them and the page that listens.

use serde::{Deserialize, Serialize};

/// One kind of event of the answer stream, in the order they come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamEvent {
    /// A stage of the count pipeline finished: its [`StageTiming`](crate::count::StageTiming).
    Stage,
    /// The answer as the page shows it, stored, with its ids; the stream ends.
    Answer,
    /// The question could not be answered: a [`StreamFailure`]; the stream ends.
    Failure,
}

impl StreamEvent {
    /// Every value, in the order they come.
    pub const ALL: [StreamEvent; 3] = [
        StreamEvent::Stage,
        StreamEvent::Answer,
        StreamEvent::Failure,
    ];

    /// The event's name on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            StreamEvent::Stage => "stage",
            StreamEvent::Answer => "answer",
            StreamEvent::Failure => "failure",
        }
    }
}

/// The data of a [`StreamEvent::Failure`]: the HTTP status the question would have had, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StreamFailure {
    /// The HTTP status the question would have had.
    pub status: u16,
    /// Why it could not be answered.
    pub error: String,
}
