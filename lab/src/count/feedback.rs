//! What judged answers teach, measured by simulation (issue 61, `tally eval feedback`).
//!
//! A data set's questions are replayed once; then, draw after draw, simulated visitors judge a
//! share of the answers from the gold count (correct, or wrong with the right count), a share
//! of them adversarially (a right answer called wrong with a made-up count, a wrong one called
//! correct). An operator reviews the judgments — accepting all of them, or only the corrections
//! whose count the answer's own evidence states (what the review queue shows beside each) —
//! and the accepted ones act twice:
//! - on the judged questions, as verified answers (the accepted count answers first);
//! - on the questions nobody judged, through the answer-support model retrained on the judged
//!   answers (features of each answer, right or wrong as accepted), installed only when it
//!   beats the shipped model in cross-validation over the judged questions (as the operator
//!   installs weights only after `tally train` prints them better).

use serde::Serialize;
use tally_types::count::CountSettings;

use super::eval::ReplayedQuestion;
use tally_engine::count::answer_support::{
    support_features, AnswerSupport, SupportFeatures, SupportRule,
};
use tally_engine::count::metrics::{count_scores, ratio, CountScores};
use tally_engine::count::prediction::scored;
use tally_text::random::SplitMix64;

/// Folds of the cross-validation that decides whether a retrained model is installed.
const INSTALL_FOLDS: usize = 5;
/// A retrained model is installed when its cross-validated P/C beats the shipped model's in at
/// least this share of bootstrap resamples of the judged questions (a one-sided 95% test: a
/// handful of judgments rarely shows enough to replace a model trained on hundreds).
const INSTALL_CONFIDENCE: f64 = 0.95;
const BOOTSTRAP_RESAMPLES: usize = 200;

/// How the operator reviews a judgment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operator {
    /// Every judgment is accepted.
    AcceptsAll,
    /// A correction is accepted only when a snippet of the judged answer states its count; a
    /// "correct" is accepted (Tally read that count from the evidence).
    ChecksEvidence,
}

impl Operator {
    /// Every operator, in report order.
    pub const ALL: [Operator; 2] = [Operator::AcceptsAll, Operator::ChecksEvidence];

    /// The operator's name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Operator::AcceptsAll => "accepts all",
            Operator::ChecksEvidence => "checks evidence",
        }
    }
}

/// Who judges: the share of the questions whose answers are judged, and the share of those
/// judgments that are adversarial.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Visitors {
    /// Share of the answered questions whose answers are judged.
    pub judged_share: f64,
    /// Share of the judgments that are adversarial.
    pub adversarial_share: f64,
}

/// What a visitor says about a count answer.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Said {
    Correct,
    WrongWith(f64),
}

/// The figures of one setting, pooled over the draws (every draw's questions scored together).
#[derive(Debug, Clone, Serialize)]
pub struct FeedbackFigures {
    /// Who judged.
    pub visitors: Visitors,
    /// How the operator reviewed.
    pub operator: Operator,
    /// Random draws of the judged questions.
    pub draws: usize,
    /// Judgments given (answered questions judged), accepted, and accepted but wrong, in all.
    pub judgments: usize,
    /// Judgments accepted.
    pub accepted: usize,
    /// Judgments accepted but wrong.
    pub accepted_wrong: usize,
    /// The judged questions: Tally's answers, then with the verified answers first.
    pub judged_before: CountScores,
    /// The judged questions with the verified answers first.
    pub judged_after: CountScores,
    /// The questions nobody judged: the shipped models, the refitted support model whether or
    /// not it is installed, and what is installed.
    pub unjudged_before: CountScores,
    /// The questions nobody judged, with the refitted support model.
    pub unjudged_retrained: CountScores,
    /// The questions nobody judged, with what is installed.
    pub unjudged_after: CountScores,
    /// Draws in which the retrained support model was installed.
    pub installed: usize,
}

/// Replays `draws` rounds of judging with `visitors` and `operator` over `questions`.
pub fn simulate(
    questions: &[ReplayedQuestion],
    settings: &CountSettings,
    shipped: SupportRule,
    visitors: Visitors,
    operator: Operator,
    draws: usize,
    seed: u64,
) -> FeedbackFigures {
    let shipped_answers: Vec<Option<f64>> = questions
        .iter()
        .map(|q| q.predict(settings, shipped).count)
        .collect();
    let mut figures = FeedbackFigures {
        visitors,
        operator,
        draws,
        judgments: 0,
        accepted: 0,
        accepted_wrong: 0,
        judged_before: count_scores(&[]),
        judged_after: count_scores(&[]),
        unjudged_before: count_scores(&[]),
        unjudged_retrained: count_scores(&[]),
        unjudged_after: count_scores(&[]),
        installed: 0,
    };
    let (mut judged_before, mut judged_after) = (Vec::new(), Vec::new());
    let (mut unjudged_before, mut unjudged_after) = (Vec::new(), Vec::new());
    let mut unjudged_retrained = Vec::new();
    for draw in 0..draws {
        // The same questions are judged in draw `draw` whatever the setting; what visitors say
        // is drawn apart.
        let (judged, unjudged) = judged_in_draw(questions.len(), visitors.judged_share, seed, draw);
        let (judged, unjudged) = (judged.as_slice(), unjudged.as_slice());
        let mut rng = SplitMix64::new((seed + draw as u64) ^ 0x9e37_79b9_7f4a_7c15);
        // Each judged answer: what the visitor said and whether the operator accepted it.
        let mut accepted: Vec<(usize, Said)> = Vec::new();
        for &q in judged {
            let Some(answer) = shipped_answers[q] else {
                continue; // nothing answered, nothing to judge
            };
            let adversarial = rng.unit() < visitors.adversarial_share;
            let said = judge(answer, questions[q].gold, adversarial, &mut rng);
            figures.judgments += 1;
            if operator_accepts(operator, said, &questions[q]) {
                figures.accepted += 1;
                let asserted = asserted_count(said, answer);
                if ratio(asserted, questions[q].gold) < 0.9 {
                    figures.accepted_wrong += 1;
                }
                accepted.push((q, said));
            }
        }
        for &q in judged {
            let gold = questions[q].gold;
            judged_before.push((shipped_answers[q], gold));
            let verified = accepted
                .iter()
                .find(|(a, _)| *a == q)
                .map(|&(_, said)| asserted_count(said, shipped_answers[q].unwrap_or(0.0)));
            judged_after.push((verified.or(shipped_answers[q]), gold));
        }
        // The retrained model, installed when cross-validation over the judged questions says
        // it does better than the shipped one.
        let retrained = retrain(questions, &shipped_answers, &accepted);
        let installed = retrained.as_ref().filter(|_| {
            beats_shipped(
                questions,
                settings,
                shipped,
                &shipped_answers,
                &accepted,
                &mut rng,
            )
        });
        if installed.is_some() {
            figures.installed += 1;
        }
        for &q in unjudged {
            let gold = questions[q].gold;
            unjudged_before.push((shipped_answers[q], gold));
            let with = |model: Option<&AnswerSupport>| match model {
                Some(model) => {
                    questions[q]
                        .predict(settings, SupportRule::Model(model))
                        .count
                }
                None => shipped_answers[q],
            };
            unjudged_retrained.push((with(retrained.as_ref()), gold));
            unjudged_after.push((with(installed), gold));
        }
    }
    figures.judged_before = count_scores(&judged_before);
    figures.judged_after = count_scores(&judged_after);
    figures.unjudged_before = count_scores(&unjudged_before);
    figures.unjudged_retrained = count_scores(&unjudged_retrained);
    figures.unjudged_after = count_scores(&unjudged_after);
    figures
}

/// The questions judged in draw `draw` (the same whatever the other settings), and the rest.
pub fn judged_in_draw(
    n: usize,
    judged_share: f64,
    seed: u64,
    draw: usize,
) -> (Vec<usize>, Vec<usize>) {
    let order = shuffled(n, &mut SplitMix64::new(seed + draw as u64));
    let k = ((judged_share * n as f64).round() as usize).min(n);
    let (judged, rest) = order.split_at(k);
    (judged.to_vec(), rest.to_vec())
}

/// 0..n in a random order (Fisher–Yates).
fn shuffled(n: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// What a visitor says of `answer` to a question whose gold count is `gold`: the truth, or
/// (adversarial) the opposite — a right answer is called wrong with a made-up count, a wrong
/// one correct.
fn judge(answer: f64, gold: f64, adversarial: bool, rng: &mut SplitMix64) -> Said {
    let right = ratio(answer, gold) >= 0.9;
    match (right, adversarial) {
        (true, false) => Said::Correct,
        (false, false) => Said::WrongWith(gold),
        (false, true) => Said::Correct,
        (true, true) => {
            let factor = *rng.pick(&[0.3, 0.5, 2.0, 3.0]);
            Said::WrongWith(
                (gold * factor)
                    .round()
                    .max(if gold == 0.0 { 5.0 } else { 0.0 }),
            )
        }
    }
}

/// The count a judgment asserts for its question.
fn asserted_count(said: Said, answer: f64) -> f64 {
    match said {
        Said::Correct => answer,
        Said::WrongWith(count) => count,
    }
}

fn operator_accepts(operator: Operator, said: Said, question: &ReplayedQuestion) -> bool {
    match (operator, said) {
        (Operator::AcceptsAll, _) | (Operator::ChecksEvidence, Said::Correct) => true,
        (Operator::ChecksEvidence, Said::WrongWith(count)) => question.stated.contains(&count),
    }
}

/// The support features of the shipped answer to question `q` and whether the accepted
/// judgment calls it right.
fn support_row(question: &ReplayedQuestion, answer: f64, said: Said) -> (SupportFeatures, bool) {
    (
        support_features(&scored(&question.chosen), answer),
        said == Said::Correct,
    )
}

/// The answer-support model fitted on the accepted judgments (none with fewer than 2 of each
/// label: nothing to learn a boundary from).
fn retrain(
    questions: &[ReplayedQuestion],
    answers: &[Option<f64>],
    accepted: &[(usize, Said)],
) -> Option<AnswerSupport> {
    let rows: Vec<(SupportFeatures, bool)> = accepted
        .iter()
        .filter_map(|&(q, said)| Some(support_row(&questions[q], answers[q]?, said)))
        .collect();
    let right = rows.iter().filter(|(_, y)| *y).count();
    if right < 2 || rows.len() - right < 2 {
        return None;
    }
    Some(AnswerSupport::fit(&rows))
}

/// Whether a model retrained on the accepted judgments beats the shipped one in
/// cross-validation over the judged questions, scored against the accepted judgments (the only
/// truth the operator has), in [`INSTALL_CONFIDENCE`] of bootstrap resamples.
fn beats_shipped(
    questions: &[ReplayedQuestion],
    settings: &CountSettings,
    shipped: SupportRule,
    answers: &[Option<f64>],
    accepted: &[(usize, Said)],
    rng: &mut SplitMix64,
) -> bool {
    let truth = |q: usize, said: Said| asserted_count(said, answers[q].unwrap_or(0.0));
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for fold in 0..INSTALL_FOLDS {
        let (held, train): (Vec<_>, Vec<_>) = accepted
            .iter()
            .enumerate()
            .partition(|(i, _)| i % INSTALL_FOLDS == fold);
        let train: Vec<(usize, Said)> = train.into_iter().map(|(_, &j)| j).collect();
        let model = retrain(questions, answers, &train);
        for (_, &(q, said)) in held {
            let gold = truth(q, said);
            before.push((answers[q], gold));
            let rule = model.as_ref().map_or(shipped, SupportRule::Model);
            after.push((questions[q].predict(settings, rule).count, gold));
        }
    }
    let n = before.len();
    if n == 0 {
        return false;
    }
    let better = (0..BOOTSTRAP_RESAMPLES)
        .filter(|_| {
            let picked: Vec<usize> = (0..n).map(|_| rng.below(n)).collect();
            let pc = |pairs: &[(Option<f64>, f64)]| {
                count_scores(&picked.iter().map(|&i| pairs[i]).collect::<Vec<_>>()).pc
            };
            pc(&after) > pc(&before)
        })
        .count();
    better as f64 >= INSTALL_CONFIDENCE * BOOTSTRAP_RESAMPLES as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_engine::count::candidates::CountCandidate;
    use tally_engine::count::prediction::Chosen;

    fn question(counts: &[f64], gold: f64) -> ReplayedQuestion {
        ReplayedQuestion {
            question: "how many moons".into(),
            chosen: counts
                .iter()
                .enumerate()
                .map(|(snippet, &count)| Chosen {
                    snippet,
                    candidate: CountCandidate {
                        span: 0..1,
                        number_span: 0..1,
                        count,
                        noun: "moon".into(),
                        text: format!("{count} moons"),
                    },
                    confidence: 0.9,
                })
                .collect(),
            stated: counts.to_vec(),
            statement: None,
            gold,
        }
    }

    #[test]
    fn honest_visitors_fix_the_judged_answers_and_adversaries_are_caught_by_the_evidence() {
        // Ten questions whose snippets all say 7, five of them with gold 7, five with gold 12.
        let questions: Vec<ReplayedQuestion> = (0..10)
            .map(|i| question(&[7.0, 7.0, 7.0], if i < 5 { 7.0 } else { 12.0 }))
            .collect();
        let settings = CountSettings::default();
        let rule = SupportRule::BestConfidence;
        let all = Visitors {
            judged_share: 1.0,
            adversarial_share: 0.0,
        };
        let honest = simulate(&questions, &settings, rule, all, Operator::AcceptsAll, 3, 1);
        assert_eq!(honest.judged_before.rp, 50.0);
        assert_eq!(honest.judged_after.rp, 100.0, "{honest:?}");
        assert_eq!(honest.accepted_wrong, 0);
        // The evidence states 7 only: the corrections to 12 are not accepted, "correct" is.
        let checked = simulate(
            &questions,
            &settings,
            rule,
            all,
            Operator::ChecksEvidence,
            3,
            1,
        );
        assert_eq!(checked.judged_after.rp, 50.0);
        // Adversaries: everything they say is wrong; an operator accepting all makes it worse,
        // one checking the evidence refuses their made-up counts.
        let liars = Visitors {
            judged_share: 1.0,
            adversarial_share: 1.0,
        };
        let fooled = simulate(
            &questions,
            &settings,
            rule,
            liars,
            Operator::AcceptsAll,
            3,
            1,
        );
        assert!(fooled.judged_after.rp < 50.0, "{fooled:?}");
        let careful = simulate(
            &questions,
            &settings,
            rule,
            liars,
            Operator::ChecksEvidence,
            3,
            1,
        );
        assert_eq!(careful.judged_after.rp, 50.0, "{careful:?}");
    }

    #[test]
    fn the_judged_share_decides_how_many_questions_are_judged() {
        let questions: Vec<ReplayedQuestion> =
            (0..20).map(|_| question(&[3.0, 3.0], 3.0)).collect();
        let visitors = Visitors {
            judged_share: 0.3,
            adversarial_share: 0.0,
        };
        let figures = simulate(
            &questions,
            &CountSettings::default(),
            SupportRule::BestConfidence,
            visitors,
            Operator::AcceptsAll,
            4,
            7,
        );
        assert_eq!(figures.judged_before.queries, 4 * 6);
        assert_eq!(figures.unjudged_before.queries, 4 * 14);
        assert_eq!(figures.judgments, 4 * 6);
    }
}
