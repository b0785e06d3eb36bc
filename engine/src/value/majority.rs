//! Which observed values agree. Observations of one question often measure different things (a
//! marathon's length and one of its stages), and a weighted median over them lands on whichever
//! sits in the middle. Instead: each observation is the centre of a group of the values within a
//! relative tolerance of it, supported by the weights of its independent sentences; the answer
//! comes from the best-supported group, and when a rival group (disjoint from it) has nearly as
//! much support, the sources disagree.

use crate::count::consolidate::{consolidate, Scored};
use tally_types::Strategy;

/// A value as observed: in the answer's unit, with its weight; observations from one sentence
/// are one source.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Observed<'a> {
    pub value: f64,
    pub weight: f64,
    pub sentence: &'a str,
}

/// Observations that agree with a centre.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Group {
    /// The group's value: the weighted median of its members.
    pub value: f64,
    /// Indexes of its members in the observations.
    pub members: Vec<usize>,
    /// The sum over its distinct sentences of their best weight.
    pub support: f64,
    /// How many distinct sentences say it.
    pub sentences: usize,
}

/// What makes one group better supported than another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Support {
    /// The sum of its sentences' weights (a confident sentence can outweigh several).
    Weight,
    /// How many independent sentences say it (then the weights, on a tie).
    Sentences,
}

impl Support {
    fn better(self, a: &Group, b: &Group) -> bool {
        match self {
            Support::Weight => a.support > b.support,
            Support::Sentences => {
                a.sentences > b.sentences || (a.sentences == b.sentences && a.support > b.support)
            }
        }
    }
}

/// The best-supported group of `observed`, and the best group of the others (its rival), for
/// values within `within` (relative) of a centre. `None` without observations.
pub(crate) fn leading_groups(
    observed: &[Observed],
    within: f64,
    by: Support,
) -> Option<(Group, Option<Group>)> {
    let all: Vec<usize> = (0..observed.len()).collect();
    let best = best_group(observed, &all, within, by)?;
    let rest: Vec<usize> = all
        .into_iter()
        .filter(|i| !best.members.contains(i))
        .collect();
    let rival = best_group(observed, &rest, within, by);
    Some((best, rival))
}

/// Among `candidates`, the group around each one; the best supported (the earlier centre on a
/// tie: observations come best ranked first).
fn best_group(
    observed: &[Observed],
    candidates: &[usize],
    within: f64,
    by: Support,
) -> Option<Group> {
    let mut best: Option<Group> = None;
    for &centre in candidates {
        let c = observed[centre].value;
        let members: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&j| (observed[j].value - c).abs() <= within * c.abs().max(f64::EPSILON))
            .collect();
        let group = group_of(observed, members);
        if best.as_ref().is_none_or(|b| by.better(&group, b)) {
            best = Some(group);
        }
    }
    best
}

fn group_of(observed: &[Observed], members: Vec<usize>) -> Group {
    let mut by_sentence: Vec<(&str, f64)> = Vec::new();
    for &i in &members {
        let o = observed[i];
        match by_sentence.iter_mut().find(|(s, _)| *s == o.sentence) {
            Some((_, weight)) => *weight = weight.max(o.weight),
            None => by_sentence.push((o.sentence, o.weight)),
        }
    }
    let scored: Vec<Scored> = members
        .iter()
        .map(|&i| Scored {
            count: observed[i].value,
            confidence: observed[i].weight,
        })
        .collect();
    Group {
        value: consolidate(&scored, Strategy::WeightedMedian).unwrap_or(f64::NAN),
        support: by_sentence.iter().map(|(_, w)| w).sum(),
        sentences: by_sentence.len(),
        members,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observed(values: &[(f64, f64, &'static str)]) -> Vec<Observed<'static>> {
        values
            .iter()
            .map(|&(value, weight, sentence)| Observed {
                value,
                weight,
                sentence,
            })
            .collect()
    }

    #[test]
    fn the_agreeing_majority_leads_over_a_better_ranked_outlier() {
        // A marathon: one stage of 16 miles ranked first, four sentences saying 26.2 miles.
        let o = observed(&[
            (16.0, 1.0, "a"),
            (26.2, 0.8, "b"),
            (26.2, 0.7, "c"),
            (26.219, 0.7, "d"),
            (26.2, 0.6, "e"),
        ]);
        let (best, rival) = leading_groups(&o, 0.1, Support::Weight).unwrap();
        assert!((best.value - 26.2).abs() < 0.05, "{best:?}");
        assert_eq!(best.sentences, 4);
        let rival = rival.unwrap();
        assert_eq!(rival.members, [0]);
        assert!(rival.support < best.support);
    }

    #[test]
    fn one_sentence_said_twice_is_one_source() {
        let o = observed(&[
            (10.0, 1.0, "a"),
            (10.0, 1.0, "a"),
            (20.0, 0.9, "b"),
            (20.0, 0.9, "c"),
        ]);
        let (best, rival) = leading_groups(&o, 0.1, Support::Weight).unwrap();
        assert_eq!(best.value, 20.0);
        assert_eq!((best.sentences, rival.unwrap().sentences), (2, 1));
        assert!(leading_groups(&[], 0.1, Support::Weight).is_none());
    }
}
