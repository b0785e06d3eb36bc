//! What the store refuses, by kind: a request that is not valid ([`Invalid`]), a row it
//! refers to that does not exist ([`Missing`]), a clash with what someone else stored
//! ([`Clash`]). Each writes its own sentence for a person; the kinds are [`crate::db::DbError`]'s.

use tally_types::{FeedbackPart, Verdict};

/// What makes a request to the store not valid: the kind of [`DbError::Invalid`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Invalid {
    /// A feedback's parts do not fit together.
    #[error(transparent)]
    Feedback(#[from] InvalidFeedback),
    /// A review's note is longer than `max` characters.
    #[error("note is at most {max} characters")]
    NoteTooLong {
        /// The most characters a note may have.
        max: usize,
    },
    /// A reviewer's name is too long.
    #[error("reviewer is a name of at most 100 characters")]
    ReviewerTooLong,
    /// A feedback about the app in general, which has no answer to review.
    #[error("feedback {0} is about the app in general, not an answer: there is nothing to review")]
    NothingToReview(i64),
}

/// The row a request refers to that does not exist: the kind of [`DbError::NotFound`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Missing {
    /// The answer a feedback is about.
    #[error("answer {0} does not exist")]
    Answer(i64),
    /// A current verified answer to withdraw.
    #[error("no current verified answer with id {0} (it may have been withdrawn or replaced)")]
    VerifiedAnswer(i64),
    /// A feedback to review.
    #[error("no feedback with id {0}")]
    Feedback(i64),
}

/// How a request clashes with what someone else stored: the kind of [`DbError::Conflict`];
/// each says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Clash {
    /// A feedback's client token was used for another submission.
    #[error(
        "this client_token was used for another submission; send each submission with a new \
         random client_token"
    )]
    ClientTokenReused,
    /// Another answer to the question was accepted in a transaction that committed first.
    #[error(
        "another answer to “{question}” was accepted at the same moment; reload the queue to \
         see it, and decide again"
    )]
    AcceptedMeanwhile {
        /// The question both answers are to.
        question: String,
    },
    /// The corpus was deleted while an upload's files were read.
    #[error(
        "the corpus `{corpus}` was deleted while its files were read; nothing was stored \
         (upload them again to make it anew)"
    )]
    DeletedWhileRead {
        /// The corpus's name.
        corpus: String,
    },
    /// The feedback was reviewed before.
    #[error("feedback {feedback} was reviewed before ({decision})")]
    ReviewedBefore {
        /// The feedback's id.
        feedback: i64,
        /// The earlier decision.
        decision: String,
    },
}

/// Why a feedback submission was refused: what does not fit together.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InvalidFeedback {
    /// A unit the unit table does not know.
    #[error(
        "corrected_unit “{given}” is not a unit Tally knows; write its symbol or name \
         (£, $, m, km, kg, minutes)"
    )]
    UnknownUnit {
        /// The unit as given.
        given: String,
    },
    /// A verdict that does not apply to the part.
    #[error(
        "verdict `{}` does not apply to part `{}` (use one of: {})",
        verdict.name(),
        part.name(),
        verdict_names(*part)
    )]
    VerdictNotForPart {
        /// The verdict given.
        verdict: Verdict,
        /// The part it was given on.
        part: FeedbackPart,
    },
    /// Feedback on a part of an answer without the answer's id.
    #[error("feedback on part `{}` needs the answer_id it is about", .0.name())]
    NoAnswerId(FeedbackPart),
    /// Feedback on a part that has several without saying which.
    #[error("feedback on part `{}` needs part_ref: which one in the answer", .0.name())]
    NoPartRef(FeedbackPart),
    /// A part reference empty or too long.
    #[error("part_ref must be 1 to 200 characters")]
    PartRefLength,
    /// `moved_to` without the verdict `moved`, or the verdict without it.
    #[error("moved_to is given exactly when the verdict is `moved`")]
    MovedTo,
    /// A unit without a corrected value.
    #[error("corrected_unit goes with a corrected_value")]
    UnitWithoutValue,
    /// A corrected value with another verdict than `wrong`.
    #[error("corrected_value goes with the verdict `wrong`")]
    ValueWithoutWrong,
    /// A corrected value that is not a finite number.
    #[error("corrected_value must be a finite number, not {0}")]
    NotFinite(f64),
    /// A corrected count that is not a whole number of 0 or more.
    #[error("corrected_value is a count: a whole number of 0 or more, not {0}")]
    NotACount(f64),
    /// A corrected value past the bound that keeps it exact.
    #[error("corrected_value is at most {max:.0} (10^15), not {value:e}")]
    TooLarge {
        /// The value given.
        value: f64,
        /// The largest allowed.
        max: f64,
    },
    /// A comment longer than `max` characters.
    #[error("comment is longer than {max} characters")]
    CommentTooLong {
        /// The most characters a comment may have.
        max: usize,
    },
}

/// The verdicts that apply to `part`, as a list for a person.
fn verdict_names(part: FeedbackPart) -> String {
    let names: Vec<&str> = part.verdicts().iter().map(|v| v.name()).collect();
    names.join(", ")
}
