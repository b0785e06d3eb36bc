//! Regression trees boosted on the ranker's log-linear score (issue 99): each round fits one
//! tree to the gradient of the same loss the weights minimise (the marginal likelihood of a
//! question's positive readings under a softmax over all its readings), split by a Newton
//! step's gain over a few cut points per feature, as gradient-boosted trees are grown.

use std::collections::HashMap;

use tally_engine::candidates::rank::{softmax, Features, Node, Tree, Values};

/// How the trees are grown.
#[derive(Debug, Clone, Copy)]
pub struct Boosting {
    /// How many trees (0: the weights alone).
    pub trees: usize,
    /// The depth of each tree.
    pub depth: usize,
    /// What each tree's leaves are scaled by.
    pub shrinkage: f64,
    /// The Newton step's penalty on a leaf's value.
    pub lambda: f64,
    /// The fewest readings a leaf holds.
    pub min_rows: usize,
    /// The fewest readings a feature is on for it to be split on.
    pub min_support: usize,
}

impl Default for Boosting {
    fn default() -> Self {
        Boosting {
            trees: 0,
            depth: 3,
            shrinkage: 0.1,
            lambda: 1.0,
            min_rows: 100,
            min_support: 200,
        }
    }
}

/// A question as the trees learn from it.
pub struct Question<'a> {
    /// Each candidate's readings' features.
    pub features: &'a [Vec<Features>],
    /// Whether each candidate is the gold answer.
    pub positive: &'a [bool],
    /// How much it weighs (a collection question's counts as many times as the weights'
    /// training steps on it).
    pub weight: f64,
}

/// The readings of the questions trained on, their features binned.
struct Rows {
    /// Each question's rows, as a range, and its weight.
    questions: Vec<(std::ops::Range<usize>, f64)>,
    /// Each row's score so far (the weights', then each tree's added).
    score: Vec<f64>,
    positive: Vec<bool>,
    /// Each row's kept features as (feature, bin), between `starts[r]` and `starts[r + 1]`.
    entries: Vec<(u32, u8)>,
    starts: Vec<usize>,
    /// Each kept feature's original index, cut points and the bin of a value of 0.
    features: Vec<Kept>,
}

struct Kept {
    index: u32,
    cuts: Vec<f32>,
    zero_bin: u8,
    /// Where its bins start in a histogram.
    offset: usize,
}

/// The quantiles of a feature's values its cut points lie between (with 0: at most 9 cuts).
const CUTS: usize = 8;

fn bin_of(cuts: &[f32], value: f32) -> u8 {
    cuts.iter().filter(|c| **c < value).count() as u8
}

impl Rows {
    fn new(
        questions_in: &[Question<'_>],
        base: &dyn Fn(&Features) -> f64,
        min_support: usize,
    ) -> Rows {
        let mut questions = Vec::new();
        let mut score = Vec::new();
        let mut positive = Vec::new();
        let mut sparse: Vec<Vec<(u32, f32)>> = Vec::new();
        for e in questions_in {
            if !e.positive.iter().any(|p| *p) || e.features.len() < 2 {
                continue;
            }
            let start = score.len();
            for (readings, pos) in e.features.iter().zip(e.positive) {
                for f in readings {
                    // A value that is not finite would make every gain NaN: it is left out.
                    let s = base(f);
                    score.push(if s.is_finite() { s } else { 0.0 });
                    positive.push(*pos);
                    let mut values = Values::of(f).0;
                    values.retain(|(_, v)| v.is_finite());
                    sparse.push(values);
                }
            }
            questions.push((start..score.len(), e.weight));
        }
        let mut values: HashMap<u32, Vec<f32>> = HashMap::new();
        for row in &sparse {
            for &(i, v) in row {
                values.entry(i).or_default().push(v);
            }
        }
        let mut kept: Vec<(u32, Vec<f32>)> = values
            .into_iter()
            .filter(|(_, v)| v.len() >= min_support)
            .collect();
        kept.sort_by_key(|(i, _)| *i);
        let mut compact: HashMap<u32, u32> = HashMap::new();
        let mut features = Vec::new();
        let mut offset = 0;
        for (at, (index, mut vals)) in kept.into_iter().enumerate() {
            vals.sort_by(f32::total_cmp);
            let mut points: Vec<f32> = (0..=CUTS)
                .map(|k| vals[k * (vals.len() - 1) / CUTS])
                .chain(std::iter::once(0.0))
                .collect();
            points.sort_by(f32::total_cmp);
            points.dedup();
            let cuts: Vec<f32> = points.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
            let zero_bin = bin_of(&cuts, 0.0);
            compact.insert(index, at as u32);
            let bins = cuts.len() + 1;
            features.push(Kept {
                index,
                cuts,
                zero_bin,
                offset,
            });
            offset += bins;
        }
        let mut entries = Vec::new();
        let mut starts = vec![0];
        for row in &sparse {
            for &(i, v) in row {
                if let Some(&f) = compact.get(&i) {
                    entries.push((f, bin_of(&features[f as usize].cuts, v)));
                }
            }
            starts.push(entries.len());
        }
        Rows {
            questions,
            score,
            positive,
            entries,
            starts,
            features,
        }
    }

    fn bins(&self) -> usize {
        self.features
            .last()
            .map_or(0, |k| k.offset + k.cuts.len() + 1)
    }

    /// The bin of row `r`'s value of kept feature `f`.
    fn bin(&self, r: usize, f: u32) -> u8 {
        self.entries[self.starts[r]..self.starts[r + 1]]
            .iter()
            .find(|(g, _)| *g == f)
            .map_or(self.features[f as usize].zero_bin, |(_, b)| *b)
    }
}

/// Each reading's probability under the softmax of its question's `scores`, and the gradient
/// of −log of the positives' summed probability: p − p / mass on a positive, p elsewhere. The
/// weights' steps and the trees' rounds follow this one gradient.
pub(super) fn likelihood_gradient(scores: &[f64], positive: &[bool]) -> (Vec<f64>, Vec<f64>) {
    let p = softmax(scores);
    let mass: f64 = p
        .iter()
        .zip(positive)
        .filter(|(_, pos)| **pos)
        .map(|(p, _)| p)
        .sum();
    let g = p
        .iter()
        .zip(positive)
        .map(|(p, pos)| if *pos { p - p / mass.max(1e-300) } else { *p })
        .collect();
    (p, g)
}

/// The gradient of each row's score under the marginal likelihood of its question's positives,
/// and the softmax's diagonal p(1 − p), a bound on that likelihood's Hessian (the Newton step
/// is the more careful for it), both times the question's weight.
fn gradients(rows: &Rows) -> (Vec<f64>, Vec<f64>) {
    let mut g = vec![0.0; rows.score.len()];
    let mut h = vec![0.0; rows.score.len()];
    for (q, weight) in &rows.questions {
        let (p, gradient) = likelihood_gradient(&rows.score[q.clone()], &rows.positive[q.clone()]);
        for (k, r) in q.clone().enumerate() {
            g[r] = weight * gradient[k];
            h[r] = weight * (p[k] * (1.0 - p[k])).max(1e-6);
        }
    }
    (g, h)
}

#[derive(Clone, Copy, Default)]
struct Sum {
    g: f64,
    h: f64,
    n: usize,
}

impl Sum {
    fn add(&mut self, other: Sum) {
        self.g += other.g;
        self.h += other.h;
        self.n += other.n;
    }
    fn less(self, other: Sum) -> Sum {
        Sum {
            g: self.g - other.g,
            h: self.h - other.h,
            n: self.n - other.n,
        }
    }
    fn gain(self, lambda: f64) -> f64 {
        self.g * self.g / (self.h + lambda)
    }
}

/// One tree grown on the rows `at`, its nodes pushed on `nodes`; each leaf's value is added to
/// its rows' scores.
struct Grower<'a> {
    rows: &'a Rows,
    g: &'a [f64],
    h: &'a [f64],
    settings: Boosting,
    nodes: Vec<Node>,
    added: Vec<(usize, f64)>,
}

impl Grower<'_> {
    fn grow(&mut self, at: Vec<usize>, depth: usize) -> u32 {
        let total = at.iter().fold(Sum::default(), |mut s, &r| {
            s.add(Sum {
                g: self.g[r],
                h: self.h[r],
                n: 1,
            });
            s
        });
        let me = self.nodes.len();
        self.nodes.push(Node::Leaf(0.0));
        let split = if depth < self.settings.depth && at.len() >= 2 * self.settings.min_rows {
            self.best_split(&at, total)
        } else {
            None
        };
        match split {
            Some((f, cut)) => {
                let (high, low): (Vec<usize>, Vec<usize>) =
                    at.into_iter().partition(|&r| self.rows.bin(r, f) > cut);
                let low = self.grow(low, depth + 1);
                let high = self.grow(high, depth + 1);
                let kept = &self.rows.features[f as usize];
                self.nodes[me] = Node::Split {
                    feature: kept.index,
                    above: kept.cuts[cut as usize],
                    low,
                    high,
                };
            }
            None => {
                let value = -self.settings.shrinkage * total.g / (total.h + self.settings.lambda);
                let value = value as f32;
                self.nodes[me] = Node::Leaf(value);
                self.added
                    .extend(at.into_iter().map(|r| (r, f64::from(value))));
            }
        }
        me as u32
    }

    /// The feature and the cut (split above bin `cut`) of the greatest gain, if any gains.
    fn best_split(&self, at: &[usize], total: Sum) -> Option<(u32, u8)> {
        let rows = self.rows;
        let mut hist = vec![Sum::default(); rows.bins()];
        for &r in at {
            let s = Sum {
                g: self.g[r],
                h: self.h[r],
                n: 1,
            };
            for &(f, b) in &rows.entries[rows.starts[r]..rows.starts[r + 1]] {
                hist[rows.features[f as usize].offset + b as usize].add(s);
            }
        }
        let lambda = self.settings.lambda;
        let min = self.settings.min_rows;
        let parent = total.gain(lambda);
        let mut best: Option<(f64, u32, u8)> = None;
        for (f, kept) in rows.features.iter().enumerate() {
            let bins = &mut hist[kept.offset..kept.offset + kept.cuts.len() + 1];
            let on = bins.iter().fold(Sum::default(), |mut s, b| {
                s.add(*b);
                s
            });
            bins[kept.zero_bin as usize].add(total.less(on));
            let mut low = Sum::default();
            for (cut, bin) in bins.iter().take(kept.cuts.len()).enumerate() {
                low.add(*bin);
                let high = total.less(low);
                if low.n < min || high.n < min {
                    continue;
                }
                let gain = low.gain(lambda) + high.gain(lambda) - parent;
                if gain > 1e-9 && best.is_none_or(|(g, _, _)| gain > g) {
                    best = Some((gain, f as u32, cut as u8));
                }
            }
        }
        best.map(|(_, f, cut)| (f, cut))
    }
}

/// Trees boosted on `base`'s scores (the weights') over those of `questions` that have a
/// positive among several candidates.
pub fn boost(
    questions: &[Question<'_>],
    base: &dyn Fn(&Features) -> f64,
    settings: Boosting,
) -> Vec<Tree> {
    if settings.trees == 0 {
        return Vec::new();
    }
    let settings = Boosting {
        min_rows: settings.min_rows.max(1),
        ..settings
    };
    let mut rows = Rows::new(questions, base, settings.min_support);
    let mut trees = Vec::with_capacity(settings.trees);
    for _ in 0..settings.trees {
        let (g, h) = gradients(&rows);
        let mut grower = Grower {
            rows: &rows,
            g: &g,
            h: &h,
            settings,
            nodes: Vec::new(),
            added: Vec::new(),
        };
        grower.grow((0..rows.score.len()).collect(), 0);
        let Grower { nodes, added, .. } = grower;
        if nodes
            .iter()
            .any(|n| matches!(n, Node::Leaf(v) if !v.is_finite()))
        {
            // A tree that would write NaN into the model ends the boosting.
            break;
        }
        for (r, v) in added {
            rows.score[r] += v;
        }
        trees.push(Tree(nodes));
    }
    trees
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A question's candidates (one reading each, of the features named) and which is right.
    fn example(candidates: &[&[u32]], positive: usize) -> (Vec<Vec<Features>>, Vec<bool>) {
        (
            candidates
                .iter()
                .map(|c| vec![Features(c.iter().map(|&i| (i, 1.0)).collect())])
                .collect(),
            (0..candidates.len()).map(|i| i == positive).collect(),
        )
    }

    /// A feature is good beside another and bad alone: a sum of weights cannot rank the right
    /// candidate first in both kinds of question (the first needs A's weight above 0, the
    /// second below), trees can.
    #[test]
    fn trees_learn_what_one_feature_means_beside_another() {
        let (a, b) = (11, 22);
        let questions: Vec<(Vec<Vec<Features>>, Vec<bool>)> = (0..40)
            .map(|i| {
                if i % 2 == 0 {
                    example(&[&[b], &[a, b], &[]], 1)
                } else {
                    example(&[&[a], &[]], 1)
                }
            })
            .collect();
        let all: Vec<Question<'_>> = questions
            .iter()
            .map(|(features, positive)| Question {
                features,
                positive,
                weight: 1.0,
            })
            .collect();
        let settings = Boosting {
            trees: 30,
            depth: 2,
            shrinkage: 0.5,
            lambda: 1.0,
            min_rows: 1,
            min_support: 1,
        };
        let trees = boost(&all, &|_| 0.0, settings);
        let score = |f: &Features| score_of_trees(&trees, f);
        for (features, _) in &questions {
            let scores: Vec<f64> = features.iter().map(|r| score(&r[0])).collect();
            let best = (0..scores.len())
                .max_by(|x, y| scores[*x].total_cmp(&scores[*y]))
                .unwrap();
            assert_eq!(best, 1, "{scores:?}");
        }
        // Without trees the scores are the weights' alone.
        assert!(boost(&all, &|_| 0.0, Boosting::default()).is_empty());
    }

    fn score_of_trees(trees: &[Tree], features: &Features) -> f64 {
        let values = Values::of(features);
        trees.iter().map(|t| t.score(&values)).sum()
    }
}
