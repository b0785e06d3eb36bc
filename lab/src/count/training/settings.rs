//! The reader's training settings (`tally train count-spans`' flags), shared by the windows,
//! the fine-tuning loop, the candidate ranker and the evaluation.

use serde::Serialize;

use tally_engine::count::span_model::CONTEXT_CHARS;

/// Settings of a span-head training run.
#[derive(Debug, Clone, Serialize)]
pub struct TrainSettings {
    /// Passes over the training windows.
    pub epochs: usize,
    /// Width of the span head's hidden layer.
    pub hidden: usize,
    /// Learning rate of the span head.
    pub learning_rate: f64,
    /// How many of the encoder's top layers are fine-tuned with the head (0: a head over the
    /// frozen encoder).
    pub tuned_layers: usize,
    /// Learning rate of the fine-tuned layers (small: they start from the pretrained weights).
    pub layer_learning_rate: f64,
    /// Windows without an answer seen per epoch, per window with one (drawn anew each epoch):
    /// they are most of the data, and fine-tuning pays for every window it reads.
    pub negatives_per_positive: f64,
    /// Silver questions made from each training question's snippets (`silver.rs`); 0: none.
    pub silver_per_query: usize,
    /// Silver "which …" name questions made from each training question's snippets
    /// (`silver_names.rs`); 0: none (a reader of counts only).
    pub silver_names_per_query: usize,
    /// Windows per training batch.
    pub batch: usize,
    /// Folds of the cross-validation by query.
    pub folds: usize,
    /// Seed of the shuffles and draws.
    pub seed: u64,
    /// A candidate within this relative distance of the gold count is a positive.
    pub tolerance: f64,
    /// Characters of its sentence read on each side of a candidate, as when answering
    /// (`span_model::CONTEXT_CHARS`; `usize::MAX`: whole sentences).
    pub context_chars: usize,
}

impl Default for TrainSettings {
    fn default() -> Self {
        Self {
            epochs: 3,
            hidden: 128,
            learning_rate: 2e-3,
            tuned_layers: 2,
            layer_learning_rate: 1e-4,
            negatives_per_positive: 1.0,
            silver_per_query: 10,
            // The count reader is trained without names (its counts read better under the
            // protocol); `engine/data/name-spans` was trained with 10 (docs/count.md).
            silver_names_per_query: 0,
            batch: 32,
            folds: 5,
            seed: 17,
            tolerance: 0.1,
            context_chars: CONTEXT_CHARS,
        }
    }
}
