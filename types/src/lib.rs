//! The vocabulary shared by the engine, the server and the pages: the choices a person makes
//! (consolidation strategy, scorer, instance scoring, ranker, sort order, question kind), each
//! with its one name, the count settings, and the answers: a count answer and quantity search
//! results and value answers, one shape for the engine that builds them, the API that serves them and the pages
//! that render them. serde only, so it builds for the server and for WASM alike.

pub mod answer;
pub mod certainty;
pub mod choice;
pub mod count;
pub mod documents;
pub mod error;
pub mod feedback;
pub mod kind;
pub mod request;
pub mod search;
pub mod stream;
pub mod study;
pub mod value;
pub mod web_search;

/// The version of the code that answers, stored with every answer so that answers can be traced
/// to it (one version for the workspace's crates).
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

pub use answer::{Answer, AnswerBody, EvidenceSource, Scope, StoredAnswer};
pub use certainty::{Certainty, CertaintyMeasure};
pub use choice::{Choice, UnknownChoice};
pub use count::{
    CountAnswer, CountSettings, InstanceScoring, ScorerKind, SnippetSource, StatementRule, Strategy,
};
pub use feedback::{
    CnpGroup, Decision, FeedbackPart, Opinion, QueuedQuestion, Review, Verdict, VerifiedAnswer,
    VerifiedRecord,
};
pub use kind::{Mode, QuestionKind};
pub use search::{Ranker, SearchResults, SortOrder};
pub use value::ValueAnswer;
pub use web_search::WebSearchState;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every choice has one name: the one it parses from, prints as, and is serialised as.
    fn one_name<T>(all: &[T], name: fn(T) -> &'static str, parse: fn(&str) -> Option<T>)
    where
        T: Copy + PartialEq + std::fmt::Debug + serde::Serialize,
    {
        for &value in all {
            assert_eq!(parse(name(value)), Some(value));
            assert_eq!(
                serde_json::to_value(value).unwrap(),
                serde_json::Value::String(name(value).to_string())
            );
        }
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_names_there_are() {
        assert_eq!(Strategy::choose(" median "), Ok(Strategy::Median));
        assert_eq!(
            Mode::choose("guess").unwrap_err().to_string(),
            "unknown mode `guess` (auto, count, value, quantity, search)"
        );
        assert_eq!(
            Ranker::choose("magic").unwrap_err().to_string(),
            "unknown ranker `magic` (bm25, bm25-filter, qbm25, dense, entity, learned)"
        );
    }

    #[test]
    fn each_choice_has_one_name() {
        one_name(&Strategy::ALL, Strategy::name, Strategy::parse);
        one_name(&ScorerKind::ALL, ScorerKind::name, ScorerKind::parse);
        one_name(
            &InstanceScoring::ALL,
            InstanceScoring::name,
            InstanceScoring::parse,
        );
        one_name(&Ranker::ALL, Ranker::name, Ranker::parse);
        one_name(&SortOrder::ALL, SortOrder::name, SortOrder::parse);
        one_name(&QuestionKind::ALL, QuestionKind::name, QuestionKind::parse);
        one_name(&Mode::ALL, Mode::name, Mode::parse);
        for kind in QuestionKind::ALL {
            assert_eq!(Mode::from(kind).chosen_kind(), Some(kind));
        }
        assert_eq!(Mode::Auto.chosen_kind(), None);
        one_name(
            &WebSearchState::ALL,
            WebSearchState::name,
            WebSearchState::parse,
        );
        one_name(&FeedbackPart::ALL, FeedbackPart::name, FeedbackPart::parse);
        one_name(&Verdict::ALL, Verdict::name, Verdict::parse);
        one_name(&CnpGroup::ALL, CnpGroup::name, CnpGroup::parse);
        one_name(&Decision::ALL, Decision::name, Decision::parse);
        for group in value::ObservationGroup::ALL {
            assert_eq!(
                serde_json::to_value(group).unwrap(),
                serde_json::Value::String(group.name().to_string())
            );
        }
    }
}
