//! From each snippet's count candidates to the predicted count: the most confident candidate
//! per snippet, the threshold (with relaxation), consolidation, the answer's support and a clear
//! statement's override. The pipeline, its evaluation and its training predict through here.

use super::answer_support::SupportRule;
use super::candidates::CountCandidate;
use super::consolidate::{consolidate, select, Scored};
use super::statement::StatementRule;
use tally_types::count::CountSettings;

/// A snippet's answer: its most confident count candidate.
#[derive(Debug, Clone)]
pub struct Chosen {
    /// The index of the snippet.
    pub snippet: usize,
    /// Its most confident count candidate.
    pub candidate: CountCandidate,
    /// The candidate's confidence.
    pub confidence: f64,
}

/// One answer per snippet: its most confident count span (snippets without one give none).
pub fn best_per_snippet(per_snippet: &[Vec<(CountCandidate, f64)>]) -> Vec<Chosen> {
    per_snippet
        .iter()
        .enumerate()
        .filter_map(|(s, cs)| {
            cs.iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(c, p)| Chosen {
                    snippet: s,
                    candidate: c.clone(),
                    confidence: *p,
                })
        })
        .collect()
}

/// What consolidation makes of a question's chosen counts.
pub struct Prediction {
    /// The threshold after relaxation.
    pub threshold_used: f64,
    /// Indexes into the chosen counts of those that took part.
    pub kept: Vec<usize>,
    /// The consolidated count, whatever the support.
    pub consolidated: Option<f64>,
    /// The answer: the consolidated count when its support reaches the setting.
    pub count: Option<f64>,
    /// The answer's support, compared with the setting.
    pub support: f64,
}

impl Prediction {
    /// This prediction with a clear statement's count (see [`super::statement`]) applied
    /// under `rule`.
    pub fn with_statement(self, statement: Option<f64>, rule: StatementRule) -> Self {
        let Some(stated) = statement else {
            return self;
        };
        let take = match rule {
            StatementRule::Off => false,
            StatementRule::LiftAbstention => self.count.is_none(),
            StatementRule::Override => true,
        };
        if !take {
            return self;
        }
        Self {
            consolidated: Some(stated),
            count: Some(stated),
            ..self
        }
    }
}

/// Each snippet's chosen count with its confidence, as consolidation and support read them.
pub fn scored(chosen: &[Chosen]) -> Vec<Scored> {
    chosen
        .iter()
        .map(|c| Scored {
            count: c.candidate.count,
            confidence: c.confidence,
        })
        .collect()
}

/// Consolidates the chosen counts; abstains when the answer's support (read by `rule`) is below
/// the setting.
pub fn predict(chosen: &[Chosen], settings: &CountSettings, rule: SupportRule) -> Prediction {
    let scored = scored(chosen);
    let (threshold_used, kept) = select(
        &scored,
        settings.threshold,
        settings.relax_threshold,
        settings.min_counts,
    );
    let kept_scored: Vec<Scored> = kept.iter().map(|&i| scored[i]).collect();
    let consolidated = consolidate(&kept_scored, settings.strategy);
    let support = rule.support(&scored, consolidated);
    Prediction {
        threshold_used,
        kept,
        consolidated,
        count: consolidated.filter(|_| support >= settings.abstain_below),
        support,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_lifts_an_abstention_and_overrides_only_when_told() {
        let abstained = || Prediction {
            threshold_used: 0.2,
            kept: vec![0],
            consolidated: Some(480.0),
            count: None,
            support: 0.05,
        };
        let lifted = abstained().with_statement(Some(22.0), StatementRule::LiftAbstention);
        assert_eq!(
            (lifted.count, lifted.consolidated),
            (Some(22.0), Some(22.0))
        );
        let answered = Prediction {
            count: Some(480.0),
            ..abstained()
        };
        let kept = answered.with_statement(Some(22.0), StatementRule::LiftAbstention);
        assert_eq!(kept.count, Some(480.0));
        assert_eq!(
            abstained()
                .with_statement(Some(22.0), StatementRule::Off)
                .count,
            None
        );
        assert_eq!(
            abstained()
                .with_statement(None, StatementRule::Override)
                .count,
            None
        );
    }
}
