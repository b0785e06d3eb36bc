//! The lab's command-line flags, read into typed values once: `tally eval`, `tally train` and
//! `tally bench` (the groups they share with the server's commands are `tally_setup::flags`).

pub(crate) mod bench;
mod eval;
mod train;

pub(crate) use eval::{
    EvalAggregationsArgs, EvalCandidatesArgs, EvalCnpArgs, EvalCommand, EvalCountArgs,
    EvalExtractionArgs, EvalFeedbackArgs, EvalInstancesArgs, EvalOwnDocumentsArgs, EvalReadingArgs,
    EvalRetrievalArg, EvalSearchArgs, EvalTablesArgs, EvalValueArgs,
};
pub(crate) use train::{
    TrainCommand, TrainCountSpansArgs, TrainInstancesArgs, TrainRankerArgs, TrainSearchRankerArgs,
    TrainSupportArgs, TrainTokenVectorsArgs, TrainTrustArgs,
};
