//! What instance judgments teach, measured by simulation (issue 61, `tally eval feedback`):
//! visitors mark the names a count answer shows (its top [`SHOWN`] by the shipped ranking)
//! relevant or not from the gold instances, a share of them adversarially (the mark flipped);
//! the instance scorer is refitted on its tuning rows and the accepted marks, and ranks the
//! names of the questions nobody judged. It is installed only when, in cross-validation over
//! the judged questions scored by the visitors' marks, it ranks better than the shipped ranking
//! in [`INSTALL_CONFIDENCE`] of bootstrap resamples.

use serde::Serialize;

use super::feedback::{judged_in_draw, Visitors};
use tally_engine::count::instances::type_compatibility;
use tally_engine::count::logistic::{FitSettings, Logistic};
use tally_engine::count::metrics::{instance_scores, InstanceScores};
use tally_text::random::SplitMix64;

/// Names a visitor sees and may mark: the answer's top five.
pub const SHOWN: usize = 5;
const INSTALL_FOLDS: usize = 5;
const INSTALL_CONFIDENCE: f64 = 0.95;
const BOOTSTRAP_RESAMPLES: usize = 200;

/// A candidate name of a question: its type evidence (`membership::FEATURES`) and whether it
/// is one of the gold instances.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The name's type evidence (`membership::FEATURES`).
    pub features: Vec<f64>,
    /// Whether the name is one of the gold instances.
    pub gold: bool,
}

/// A question with gold instances: its candidates and how many gold instances it has.
#[derive(Debug, Clone)]
pub struct InstanceQuestion {
    /// The question's candidate names.
    pub candidates: Vec<Candidate>,
    /// How many gold instances the question has.
    pub gold_instances: usize,
}

/// The figures of one setting, pooled over the draws.
#[derive(Debug, Clone, Serialize)]
pub struct InstanceFeedbackFigures {
    /// Who judged.
    pub visitors: Visitors,
    /// Random draws of the judged questions.
    pub draws: usize,
    /// Names marked, in all, and marks that are wrong.
    pub marks: usize,
    /// Marks that are wrong.
    pub wrong_marks: usize,
    /// The questions nobody judged: the shipped ranking (type compatibility), the shipped
    /// learned scorer's, the scorer refitted with the marks, and what is installed.
    pub unjudged_shipped: InstanceScores,
    /// The questions nobody judged, with the shipped learned scorer.
    pub unjudged_shipped_learned: InstanceScores,
    /// The questions nobody judged, with the scorer refitted on the marks.
    pub unjudged_retrained: InstanceScores,
    /// The questions nobody judged, with what is installed.
    pub unjudged_installed: InstanceScores,
    /// Draws in which the refitted scorer was installed.
    pub installed: usize,
}

/// A judged question's marks: which candidates were shown, and whether each was marked relevant.
type Marked = (usize, Vec<(usize, bool)>);

/// The shipped ranking's order of a question's candidates (type compatibility: `prior` and
/// `fit`, the first two features).
fn shipped_order(question: &InstanceQuestion) -> Vec<usize> {
    order_by(question, |c| {
        type_compatibility(c.features[0], c.features[1])
    })
}

fn order_by(question: &InstanceQuestion, score: impl Fn(&Candidate) -> f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..question.candidates.len()).collect();
    order.sort_by(|&a, &b| {
        score(&question.candidates[b]).total_cmp(&score(&question.candidates[a]))
    });
    order
}

/// Whether each ranked name is relevant (by `label`), with the question's gold count, for
/// [`instance_scores`].
fn ranked(question: &InstanceQuestion, order: &[usize]) -> (Vec<bool>, usize) {
    let relevant = order.iter().map(|&i| question.candidates[i].gold).collect();
    (relevant, question.gold_instances)
}

/// Replays `draws` rounds of marking with `visitors` over `questions`; `tuning` are the scorer's
/// own training rows, `shipped` its shipped weights and `l2` its penalty.
pub fn simulate_instances(
    questions: &[InstanceQuestion],
    tuning: &[(Vec<f64>, bool)],
    shipped: &Logistic,
    l2: f64,
    visitors: Visitors,
    draws: usize,
    seed: u64,
) -> InstanceFeedbackFigures {
    let mut figures = InstanceFeedbackFigures {
        visitors,
        draws,
        marks: 0,
        wrong_marks: 0,
        unjudged_shipped: InstanceScores::default(),
        unjudged_shipped_learned: InstanceScores::default(),
        unjudged_retrained: InstanceScores::default(),
        unjudged_installed: InstanceScores::default(),
        installed: 0,
    };
    let settings = FitSettings {
        l2,
        ..FitSettings::default()
    };
    let (mut shipped_rows, mut learned_rows, mut retrained_rows, mut installed_rows) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for draw in 0..draws {
        let (judged, unjudged) = judged_in_draw(questions.len(), visitors.judged_share, seed, draw);
        let mut rng = SplitMix64::new((seed + draw as u64) ^ 0x5bd1_e995);
        // Each judged question's marks: (candidate, marked relevant).
        let mut marked: Vec<Marked> = Vec::new();
        for &q in &judged {
            let adversarial = rng.unit() < visitors.adversarial_share;
            let marks: Vec<(usize, bool)> = shipped_order(&questions[q])
                .into_iter()
                .take(SHOWN)
                .map(|i| (i, questions[q].candidates[i].gold != adversarial))
                .collect();
            figures.marks += marks.len();
            figures.wrong_marks += if adversarial { marks.len() } else { 0 };
            marked.push((q, marks));
        }
        let fit = |marked: &[Marked]| {
            let mut rows: Vec<(&[f64], bool)> =
                tuning.iter().map(|(x, y)| (x.as_slice(), *y)).collect();
            for (q, marks) in marked {
                for &(i, y) in marks {
                    rows.push((questions[*q].candidates[i].features.as_slice(), y));
                }
            }
            Logistic::fit(&rows, &settings)
        };
        let retrained = fit(&marked);
        let install = beats_shipped(questions, &marked, &fit, &mut rng);
        if install {
            figures.installed += 1;
        }
        for &q in &unjudged {
            let question = &questions[q];
            let shipped_ranking = ranked(question, &shipped_order(question));
            let retrained_ranking = ranked(
                question,
                &order_by(question, |c| retrained.probability(&c.features)),
            );
            learned_rows.push(ranked(
                question,
                &order_by(question, |c| shipped.probability(&c.features)),
            ));
            installed_rows.push(if install {
                retrained_ranking.clone()
            } else {
                shipped_ranking.clone()
            });
            shipped_rows.push(shipped_ranking);
            retrained_rows.push(retrained_ranking);
        }
    }
    figures.unjudged_shipped = instance_scores(&shipped_rows);
    figures.unjudged_shipped_learned = instance_scores(&learned_rows);
    figures.unjudged_retrained = instance_scores(&retrained_rows);
    figures.unjudged_installed = instance_scores(&installed_rows);
    figures
}

/// Whether the refitted scorer ranks the judged questions' marked names better than the
/// shipped ranking, in cross-validation over the judged questions (scored by the visitors'
/// marks: a marked-relevant name is a hit), in [`INSTALL_CONFIDENCE`] of bootstrap resamples.
fn beats_shipped(
    questions: &[InstanceQuestion],
    marked: &[Marked],
    fit: &dyn Fn(&[Marked]) -> Logistic,
    rng: &mut SplitMix64,
) -> bool {
    // Reciprocal rank of the first name marked relevant, among the marked names.
    let reciprocal = |order: &[usize], marks: &[(usize, bool)]| -> f64 {
        order
            .iter()
            .filter_map(|i| marks.iter().find(|(m, _)| m == i))
            .position(|(_, relevant)| *relevant)
            .map_or(0.0, |p| 1.0 / (p + 1) as f64)
    };
    let mut pairs: Vec<(f64, f64)> = Vec::new();
    for fold in 0..INSTALL_FOLDS {
        let (held, train): (Vec<_>, Vec<_>) = marked
            .iter()
            .cloned()
            .enumerate()
            .partition(|(i, _)| i % INSTALL_FOLDS == fold);
        if held.is_empty() {
            continue;
        }
        let train: Vec<_> = train.into_iter().map(|(_, m)| m).collect();
        let model = fit(&train);
        for (_, (q, marks)) in held {
            let question = &questions[q];
            let before = reciprocal(&shipped_order(question), &marks);
            let after = reciprocal(
                &order_by(question, |c| model.probability(&c.features)),
                &marks,
            );
            pairs.push((before, after));
        }
    }
    let n = pairs.len();
    if n == 0 {
        return false;
    }
    let better = (0..BOOTSTRAP_RESAMPLES)
        .filter(|_| {
            let (mut before, mut after) = (0.0, 0.0);
            for _ in 0..n {
                let (b, a) = pairs[rng.below(n)];
                before += b;
                after += a;
            }
            after > before
        })
        .count();
    better as f64 >= INSTALL_CONFIDENCE * BOOTSTRAP_RESAMPLES as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A question whose gold names have feature 2 set and a low type compatibility: the shipped
    /// ranking puts them last, a scorer that learns feature 2 first.
    fn question() -> InstanceQuestion {
        let candidate = |prior: f64, marker: f64, gold: bool| Candidate {
            features: vec![prior, 1.0, marker],
            gold,
        };
        InstanceQuestion {
            candidates: vec![
                candidate(0.9, 0.0, false),
                candidate(0.8, 0.0, false),
                candidate(0.7, 0.0, false),
                candidate(0.2, 1.0, true),
                candidate(0.1, 1.0, true),
            ],
            gold_instances: 2,
        }
    }

    #[test]
    fn honest_marks_teach_the_scorer_and_it_is_installed() {
        let questions: Vec<InstanceQuestion> = (0..20).map(|_| question()).collect();
        let shipped = Logistic::fit(
            &[(vec![0.9, 1.0, 0.0], true), (vec![0.1, 1.0, 1.0], false)],
            &FitSettings::default(),
        );
        let visitors = Visitors {
            judged_share: 0.5,
            adversarial_share: 0.0,
        };
        let figures = simulate_instances(&questions, &[], &shipped, 0.01, visitors, 3, 5);
        assert!(figures.unjudged_shipped.mrr < 0.5, "{figures:?}");
        assert_eq!(figures.unjudged_retrained.mrr, 1.0, "{figures:?}");
        assert_eq!(figures.installed, 3);
        assert_eq!(figures.unjudged_installed.mrr, 1.0);
        // Every mark a lie: what is learned is wrong, and it is not installed.
        let liars = Visitors {
            judged_share: 0.5,
            adversarial_share: 1.0,
        };
        let fooled = simulate_instances(&questions, &[], &shipped, 0.01, liars, 3, 5);
        assert_eq!(fooled.installed, 0, "{fooled:?}");
        assert_eq!(fooled.unjudged_installed.mrr, fooled.unjudged_shipped.mrr);
    }
}
