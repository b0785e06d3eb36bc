//! The stages of answering a count question, in order: what the progress list and the timings
//! call them, and what the page says while one is under way.

/// One stage of the count pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Finding the snippets: the corpus index, a web search or a stored web snippet set.
    Snippets,
    Analysis,
    SpanScoring,
    Consolidation,
    Contextualization,
    Instances,
}

impl Stage {
    pub const ALL: [Stage; 6] = [
        Stage::Snippets,
        Stage::Analysis,
        Stage::SpanScoring,
        Stage::Consolidation,
        Stage::Contextualization,
        Stage::Instances,
    ];

    /// The name its timing carries (finding snippets has one name per source).
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Snippets => SNIPPET_STAGES[0],
            Stage::Analysis => "analysis",
            Stage::SpanScoring => "span scoring",
            Stage::Consolidation => "consolidation",
            Stage::Contextualization => "contextualization",
            Stage::Instances => "instances",
        }
    }

    /// What the page says while it runs.
    pub const fn doing(self) -> &'static str {
        match self {
            Stage::Snippets => "Finding snippets",
            Stage::Analysis => "Reading the question",
            Stage::SpanScoring => "Reading the count phrases of every snippet",
            Stage::Consolidation => "Weighing the counts into one answer",
            Stage::Contextualization => "Sorting the count phrases into synonyms and subgroups",
            Stage::Instances => "Ranking the instances",
        }
    }

    /// The stage a timing named `name` belongs to.
    pub fn of(name: &str) -> Option<Stage> {
        if SNIPPET_STAGES.contains(&name) {
            return Some(Stage::Snippets);
        }
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The stage under way once the stages named `finished` are done (the first when none is);
    /// `None` when the last is done.
    pub fn under_way(finished: &[&str]) -> Option<Stage> {
        let last = finished.iter().rev().find_map(|name| Stage::of(name));
        match last {
            None => Some(Stage::Snippets),
            Some(stage) => Stage::ALL.into_iter().skip_while(|s| *s != stage).nth(1),
        }
    }
}

/// Names of the snippet-finding stage: from the corpus index, a web search, a stored web set.
pub const SNIPPET_STAGES: [&str; 3] = ["retrieval", "web search", "stored snippet set"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stage_under_way_follows_the_last_finished() {
        assert_eq!(Stage::under_way(&[]), Some(Stage::Snippets));
        assert_eq!(Stage::under_way(&["web search"]), Some(Stage::Analysis));
        assert_eq!(
            Stage::under_way(&["retrieval", "analysis"]),
            Some(Stage::SpanScoring)
        );
        assert_eq!(Stage::under_way(&["retrieval", "instances"]), None);
        for stage in Stage::ALL {
            assert_eq!(Stage::of(stage.name()), Some(stage));
        }
    }
}
