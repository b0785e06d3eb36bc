//! The stages of answering a count question, in order: what the timings and the progress list
//! call them, and what the page says while one is under way. Each stage's name is written here
//! only; a timing carries the stage itself.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One stage of answering a count question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Finding the snippets in the corpus index.
    Retrieval,
    /// Finding the snippets with a web search.
    WebSearch,
    /// Finding the snippets in a stored web snippet set.
    StoredSnippetSet,
    /// Reading the question.
    Analysis,
    /// Reading the count phrases of every snippet.
    SpanScoring,
    /// Weighing the counts into one answer.
    Consolidation,
    /// Sorting the count phrases into synonyms and subgroups.
    Contextualization,
    /// Ranking the instances.
    Instances,
}

impl Stage {
    /// Every value, in the order they are listed.
    pub const ALL: [Stage; 8] = [
        Stage::Retrieval,
        Stage::WebSearch,
        Stage::StoredSnippetSet,
        Stage::Analysis,
        Stage::SpanScoring,
        Stage::Consolidation,
        Stage::Contextualization,
        Stage::Instances,
    ];

    /// The steps the page lists while a count question is answered: finding snippets (one step,
    /// whichever way), then the pipeline's stages.
    pub const PROGRESS: [Stage; 6] = [
        Stage::Retrieval,
        Stage::Analysis,
        Stage::SpanScoring,
        Stage::Consolidation,
        Stage::Contextualization,
        Stage::Instances,
    ];

    /// The name its timing carries.
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Retrieval => "retrieval",
            Stage::WebSearch => "web search",
            Stage::StoredSnippetSet => "stored snippet set",
            Stage::Analysis => "analysis",
            Stage::SpanScoring => "span scoring",
            Stage::Consolidation => "consolidation",
            Stage::Contextualization => "contextualization",
            Stage::Instances => "instances",
        }
    }

    /// The stage named `name`.
    pub fn parse(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Its step in [`Stage::PROGRESS`]: the ways of finding snippets are one step.
    const fn step(self) -> Stage {
        match self {
            Stage::WebSearch | Stage::StoredSnippetSet => Stage::Retrieval,
            stage => stage,
        }
    }

    /// What the page says while it runs.
    pub const fn doing(self) -> &'static str {
        match self.step() {
            Stage::Analysis => "Reading the question",
            Stage::SpanScoring => "Reading the count phrases of every snippet",
            Stage::Consolidation => "Weighing the counts into one answer",
            Stage::Contextualization => "Sorting the count phrases into synonyms and subgroups",
            Stage::Instances => "Ranking the instances",
            _ => "Finding snippets",
        }
    }

    /// The step under way once the stages `finished` are done (the first when none is);
    /// `None` when the last is done.
    pub fn under_way(finished: &[Stage]) -> Option<Stage> {
        match finished.last() {
            None => Some(Stage::PROGRESS[0]),
            Some(last) => Stage::PROGRESS
                .into_iter()
                .skip_while(|s| *s != last.step())
                .nth(1),
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Stage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Stage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Stage::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown stage `{name}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stage_under_way_follows_the_last_finished() {
        assert_eq!(Stage::under_way(&[]), Some(Stage::Retrieval));
        assert_eq!(Stage::under_way(&[Stage::WebSearch]), Some(Stage::Analysis));
        assert_eq!(
            Stage::under_way(&[Stage::Retrieval, Stage::Analysis]),
            Some(Stage::SpanScoring)
        );
        assert_eq!(
            Stage::under_way(&[Stage::Retrieval, Stage::Instances]),
            None
        );
    }

    #[test]
    fn a_stage_is_written_and_read_by_its_one_name() {
        for stage in Stage::ALL {
            assert_eq!(Stage::parse(stage.name()), Some(stage));
            let json = serde_json::to_string(&stage).unwrap();
            assert_eq!(json, format!("\"{}\"", stage.name()));
            assert_eq!(serde_json::from_str::<Stage>(&json).unwrap(), stage);
        }
        assert!(serde_json::from_str::<Stage>("\"spans\"").is_err());
    }
}
