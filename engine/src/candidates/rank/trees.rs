//! Regression trees boosted on the log-linear score (issue 99): what a sum of weights cannot
//! say — one feature mattering only beside another — each tree adds to a reading's score from
//! a few of its features' values. Learned by `tally-lab train ranker --trees N`.

use serde::{Deserialize, Serialize};

use super::Features;

/// One node of a tree: a test on a feature's value, or a leaf's addition to the score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Node {
    /// Go to `high` when the feature's value is above `above`, else to `low` (a feature
    /// absent from a reading is 0).
    Split {
        /// The feature's index.
        feature: u32,
        /// The value it is compared with.
        above: f32,
        /// The node taken at or below it.
        low: u32,
        /// The node taken above it.
        high: u32,
    },
    /// What the tree adds to the score.
    Leaf(f32),
}

/// A reading's feature values by index, repeated indices summed (a hashed name and a twin may
/// meet): what a tree looks a feature up in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values(pub Vec<(u32, f32)>);

impl Values {
    /// The values of `features`, sorted by index, zeros left out.
    pub fn of(features: &Features) -> Values {
        let mut sorted = features.0.clone();
        sorted.sort_by_key(|(i, _)| *i);
        let mut out: Vec<(u32, f32)> = Vec::with_capacity(sorted.len());
        for (i, v) in sorted {
            match out.last_mut() {
                Some(last) if last.0 == i => last.1 += v,
                _ => out.push((i, v)),
            }
        }
        out.retain(|(_, v)| *v != 0.0);
        Values(out)
    }

    /// The value of feature `index` (0 when absent).
    pub fn get(&self, index: u32) -> f32 {
        self.0
            .binary_search_by_key(&index, |(i, _)| *i)
            .map_or(0.0, |at| self.0[at].1)
    }
}

/// A tree: its nodes, the root first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tree(pub Vec<Node>);

impl Tree {
    /// What the tree adds to the score of a reading of `values` (0 for an empty or
    /// malformed tree: a node past the end ends the walk).
    pub fn score(&self, values: &Values) -> f64 {
        let mut at = 0usize;
        // A tree is walked at most its length of steps, so a cycle cannot hang the scorer.
        for _ in 0..self.0.len() {
            match self.0.get(at) {
                Some(Node::Leaf(value)) => return f64::from(*value),
                Some(Node::Split {
                    feature,
                    above,
                    low,
                    high,
                }) => {
                    at = if values.get(*feature) > *above {
                        *high
                    } else {
                        *low
                    } as usize;
                }
                None => return 0.0,
            }
        }
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_adds_its_leaf_by_the_feature_values_it_tests() {
        let tree = Tree(vec![
            Node::Split {
                feature: 7,
                above: 0.5,
                low: 1,
                high: 2,
            },
            Node::Leaf(-1.0),
            Node::Leaf(2.0),
        ]);
        assert_eq!(
            tree.score(&Values::of(&Features(vec![(7, 0.5), (7, 0.5)]))),
            2.0
        );
        assert_eq!(tree.score(&Values::of(&Features(vec![(3, 1.0)]))), -1.0);
        // A node that loops back ends the walk with nothing added.
        let looping = Tree(vec![Node::Split {
            feature: 7,
            above: 0.5,
            low: 0,
            high: 0,
        }]);
        assert_eq!(looping.score(&Values::of(&Features(vec![(7, 1.0)]))), 0.0);
    }
}
