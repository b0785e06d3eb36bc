//! Count questions: the choices a person makes, the settings, and the answer.

pub mod abstention;
pub mod aggregation;
pub mod answer;
pub mod choices;
#[cfg(feature = "clap")]
pub mod flags;
pub mod origin;
pub mod settings;
pub mod stages;

pub use abstention::{Abstention, SupportMeasure};
pub use aggregation::{AggregatedRow, Aggregation, Operation};
pub use answer::{
    Cnp, CnpClass, CnpGroups, CountAnswer, CountSpan, InstanceMark, QuestionAnalysis,
    RankedInstance, SnippetAnswer, StageTiming,
};
pub use choices::{InstanceScoring, ScorerKind, StatementRule, Strategy};
pub use origin::{Retrieval, SnippetLink, SnippetOrigin, SnippetSource, ALL_CORPORA};
pub use settings::{
    count_setting, ContextSettings, Control, CountSetting, CountSettings, ResolvedSettings,
    SettingError, COUNT_SETTINGS, DEFAULT_ABSTAIN_BELOW, DEFAULT_MAX_SNIPPETS, DEFAULT_SNIPPETS,
    MAX_SNIPPETS,
};
pub use stages::Stage;
