//! The candidate ranker (issue 99) trained and measured on WikiTableQuestions: each question's
//! candidates over its own table, the ones equal to the gold answer its positives (weak
//! supervision, as the data set's paper trained its parser: the marginal likelihood of the
//! positives maximised by AdaGrad). Out-of-fold probabilities (folds by table) fit the curve
//! from the best candidate's softmax probability to the probability it is right, and choose the
//! bound from which an answer is given; the dev split only measures.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use tally_engine::candidates::rank::{
    best, calibrate, marginal, Curve, Features, Ranker, Scorer, DIMENSIONS,
};
use tally_engine::candidates::{candidates, numbers_in, rank, Candidate, DocumentWords, Source};
use tally_engine::count::logistic::{FitSettings, Logistic};

use super::boost::{boost, likelihood_gradient, Boosting, Question};
use super::{
    is_answer, reads_as, type_of, CollectionQuestion, Corpus, TableCache, TableFormat, WtqQuestion,
};
use crate::collection::Half;
use crate::statistics::clopper_pearson_upper;

/// Where a training or measured question comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// WikiTableQuestions, over the question's own table.
    Wtq,
    /// A collection written for Tally, over all its documents, in one of its halves.
    Collection(Half),
}

/// One question's candidates as the ranker sees them.
pub struct Example {
    /// The question's table or document (folds keep its questions together).
    pub table: String,
    /// The groups it is reported in: "all", its type, its half, kind and format.
    pub groups: Vec<String>,
    /// Where it comes from.
    pub origin: Origin,
    /// Whether it has an answer (a collection's question may have none: any answer is wrong).
    pub answerable: bool,
    /// Whether it is asked over several documents (the ranker's twin features and curve).
    pub several: bool,
    /// Each candidate's readings' features.
    pub features: Vec<Vec<Features>>,
    /// Whether each candidate is the gold answer.
    pub positive: Vec<bool>,
    /// The question, and each candidate's value and first reading as a person checks it (to
    /// look into the train split's misses).
    pub question: String,
    /// Each candidate as "value: reading".
    pub described: Vec<String>,
}

impl Example {
    /// The features of candidate `at`'s first reading, the one shown as its evidence (none
    /// without a reading).
    pub fn shown(&self, at: usize) -> &Features {
        static NONE: Features = Features(Vec::new());
        self.features
            .get(at)
            .and_then(|readings| readings.first())
            .unwrap_or(&NONE)
    }
}

/// The questions' candidates and features, each over its own table.
pub fn examples(
    dir: &Path,
    questions: &[WtqQuestion],
    format: TableFormat,
) -> anyhow::Result<Vec<Example>> {
    let mut cache = TableCache::default();
    let mut out = Vec::with_capacity(questions.len());
    for q in questions {
        let corpus = cache.tables(dir, &q.context, format)?;
        let found = candidates(&q.utterance, corpus, &[]);
        let documents = DocumentWords::new(corpus, &[]);
        let positive: Vec<bool> = found
            .iter()
            .map(|c| is_answer(c, q.answer, &q.written))
            .collect();
        out.push(Example {
            table: q.context.clone(),
            groups: vec![
                "all".to_string(),
                type_of(&q.utterance).to_string(),
                reads_as(&found, &positive).to_string(),
            ],
            origin: Origin::Wtq,
            answerable: true,
            several: documents.several(),
            features: rank::features(&q.utterance, corpus, &documents, &found, None),
            positive,
            question: format!("{} => {}", q.utterance, q.written),
            described: described(&found),
        });
    }
    Ok(out)
}

/// A collection's questions, each over the whole collection (its tables and passages), the
/// unanswerable ones among them; folds keep a document's questions together.
pub fn collection_examples(corpus: &Corpus, questions: &[CollectionQuestion]) -> Vec<Example> {
    let documents = DocumentWords::new(&corpus.tables, &corpus.passages);
    questions
        .iter()
        .map(|q| {
            let found = candidates(&q.question, &corpus.tables, &corpus.passages);
            let half = q.half.name();
            let mut groups = vec![format!("{half}"), format!("{half} {}", q.kind)];
            if let Some(format) = corpus.formats.get(&q.document) {
                groups.push(format!("{half} {} {format}", q.kind));
            }
            Example {
                table: q.document.clone(),
                groups,
                origin: Origin::Collection(q.half),
                answerable: q.answer.is_some(),
                several: documents.several(),
                features: rank::features(
                    &q.question,
                    &corpus.tables,
                    &documents,
                    &found,
                    q.readers,
                ),
                positive: found
                    .iter()
                    .map(|c| q.answer.is_some_and(|a| is_answer(c, a, &q.written)))
                    .collect(),
                question: format!(
                    "{} => {}",
                    q.question,
                    q.answer
                        .map_or("(not answered)".to_string(), |_| q.written.clone())
                ),
                described: described(&found),
            }
        })
        .collect()
}

/// Each candidate as "value: first reading", as the misses are printed.
fn described(found: &[Candidate]) -> Vec<String> {
    found
        .iter()
        .map(|c| {
            let Some(reading) = c.readings.first() else {
                return format!("{}: (no reading)", c.value);
            };
            match &reading.source {
                // The words around the number: which of a passage's numbers it was.
                Source::Passage { text, .. } => {
                    let tokens: Vec<&str> = text.split_whitespace().collect();
                    let at = tokens
                        .iter()
                        .position(|t| numbers_in(t).iter().any(|n| (n - c.value).abs() < 1e-9))
                        .unwrap_or(0);
                    let around = tokens[at.saturating_sub(8)..(at + 8).min(tokens.len())].join(" ");
                    format!("{}: {} («{around}»)", c.value, reading.described)
                }
                Source::Table { .. } => format!("{}: {}", c.value, reading.described),
            }
        })
        .collect()
}

/// How the weights are learned.
#[derive(Debug, Clone, Copy)]
pub struct Training {
    /// Passes over the questions.
    pub epochs: usize,
    /// AdaGrad's step.
    pub rate: f64,
    /// The L2 penalty per step on the weights a question touches.
    pub l2: f64,
    /// How many times a pass steps on each collection question (WikiTableQuestions' once):
    /// what the product answers over is a person's documents.
    pub collection_weight: usize,
    /// The trees boosted on the weights' score (none by default).
    pub boosting: Boosting,
}

impl Default for Training {
    fn default() -> Self {
        Training {
            epochs: 4,
            rate: 0.1,
            l2: 1e-5,
            collection_weight: 1,
            boosting: Boosting::default(),
        }
    }
}

/// A scorer of `weights` and `trees`, its curves and bounds left unset: with no trees, what the
/// trees are boosted on; with them, what the out-of-fold figures are read from and what ships.
fn scorer_of(weights: Vec<(u32, f32)>, trees: Vec<rank::Tree>) -> Scorer {
    Scorer::new(Ranker {
        weights,
        slope: 1.0,
        intercept: 0.0,
        bound: 1.0,
        sure_from: 1.0,
        several_documents: None,
        sureness: None,
        trees,
    })
}

/// The weights trained on `examples`, then the trees boosted on their score.
fn fit(examples: &[&Example], training: Training, round: bool) -> Scorer {
    let dense = train(examples, training);
    let weights: Vec<(u32, f32)> = dense
        .into_iter()
        .enumerate()
        .filter(|(_, w)| if round { w.abs() >= 1e-3 } else { *w != 0.0 })
        // Kept to three decimals: the shipped file stays small, the scores as good.
        .map(|(i, w)| (i as u32, if round { (w * 1e3).round() / 1e3 } else { w }))
        .collect();
    let mut scorer = scorer_of(weights, Vec::new());
    let questions: Vec<Question<'_>> = examples
        .iter()
        .map(|e| Question {
            features: &e.features,
            positive: &e.positive,
            weight: match e.origin {
                Origin::Wtq => 1.0,
                Origin::Collection(_) => training.collection_weight.max(1) as f64,
            },
        })
        .collect();
    let trees = boost(&questions, &|f| scorer.linear(f), training.boosting);
    scorer.ranker.trees = trees;
    scorer
}

/// Weights maximising the marginal likelihood of each question's positives (questions without
/// one teach nothing and are skipped).
pub fn train(examples: &[&Example], training: Training) -> Vec<f32> {
    let mut weights = vec![0.0f64; DIMENSIONS];
    let mut squares = vec![1e-8f64; DIMENSIONS];
    let useful: Vec<&Example> = examples
        .iter()
        .copied()
        .filter(|e| e.positive.iter().any(|p| *p) && e.features.len() > 1)
        .collect();
    let mut order: Vec<usize> = (0..useful.len())
        .flat_map(|i| {
            let times = match useful[i].origin {
                Origin::Wtq => 1,
                Origin::Collection(_) => training.collection_weight.max(1),
            };
            std::iter::repeat_n(i, times)
        })
        .collect();
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    for _ in 0..training.epochs {
        // A fixed shuffle per epoch: the same data trains the same weights.
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        for &i in &order {
            step(useful[i], &mut weights, &mut squares, training);
        }
    }
    weights.iter().map(|w| *w as f32).collect()
}

/// One AdaGrad step on a question: over every reading of every candidate, the gradient of
/// −log Σ_positive readings p is E_p[x] − E_{p|positive}[x].
fn step(example: &Example, weights: &mut [f64], squares: &mut [f64], training: Training) {
    let items: Vec<(&Features, bool)> = example
        .features
        .iter()
        .zip(&example.positive)
        .flat_map(|(readings, positive)| readings.iter().map(move |f| (f, *positive)))
        .collect();
    let scores: Vec<f64> = items
        .iter()
        .map(|(f, _)| {
            f.0.iter()
                .map(|&(i, v)| weights[i as usize] * f64::from(v))
                .sum()
        })
        .collect();
    let positive: Vec<bool> = items.iter().map(|(_, pos)| *pos).collect();
    let (_, g) = likelihood_gradient(&scores, &positive);
    let mut gradient: BTreeMap<u32, f64> = BTreeMap::new();
    for ((features, _), &g) in items.iter().zip(&g) {
        if g == 0.0 {
            continue;
        }
        for &(i, v) in &features.0 {
            *gradient.entry(i).or_default() += g * f64::from(v);
        }
    }
    for (i, g) in gradient {
        let i = i as usize;
        let g = g + training.l2 * weights[i];
        squares[i] += g * g;
        weights[i] -= training.rate * g / squares[i].sqrt();
    }
}

/// The best candidate's softmax probability and whether it is right, per question (`None`
/// without candidates).
fn best_of(scorer: &Scorer, example: &Example) -> Option<(f64, bool, usize)> {
    let scores: Vec<Vec<f64>> = example
        .features
        .iter()
        .map(|readings| readings.iter().map(|f| scorer.score(f)).collect())
        .collect();
    let (at, p) = best(&marginal(&scores))?;
    Some((p, example.positive[at], at))
}

/// Out-of-fold best probabilities: each table's questions scored by weights and trees trained
/// on the other folds' tables.
pub fn out_of_fold(
    examples: &[Example],
    folds: usize,
    training: Training,
) -> Vec<Option<(f64, bool, usize)>> {
    let mut out = vec![None; examples.len()];
    for fold in 0..folds {
        let trained: Vec<&Example> = examples
            .iter()
            .filter(|e| fold_of(&e.table, folds) != fold)
            .collect();
        let scorer = fit(&trained, training, false);
        for (i, e) in examples.iter().enumerate() {
            if fold_of(&e.table, folds) == fold {
                out[i] = best_of(&scorer, e);
            }
        }
    }
    out
}

/// The fold of a table or document: its name's FNV-1a hash.
fn fold_of(table: &str, folds: usize) -> usize {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in table.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    (h % folds as u64) as usize
}

/// The logistic curve from the logit of the best probability to rightness, by Newton's method.
pub fn fit_curve(points: &[(f64, bool)]) -> (f64, f64) {
    let (mut slope, mut intercept) = (1.0, 0.0);
    for _ in 0..50 {
        let (mut g0, mut g1, mut h00, mut h01, mut h11) = (0.0, 0.0, 1e-6, 0.0, 1e-6);
        for &(p, right) in points {
            let p = p.clamp(1e-6, 1.0 - 1e-6);
            let x = (p / (1.0 - p)).ln();
            let q = calibrate(slope, intercept, p);
            let y = if right { 1.0 } else { 0.0 };
            g0 += (q - y) * x;
            g1 += q - y;
            let w = q * (1.0 - q);
            h00 += w * x * x;
            h01 += w * x;
            h11 += w;
        }
        let det = h00 * h11 - h01 * h01;
        if det.abs() < 1e-12 {
            break;
        }
        slope -= (h11 * g0 - h01 * g1) / det;
        intercept -= (h00 * g1 - h01 * g0) / det;
    }
    (slope, intercept)
}

/// The lowest bound whose answers (calibrated probability at least it) leave at most
/// `max_wrong` of all `questions` answered wrongly; 1 when none does.
pub fn choose_bound(calibrated: &[(f64, bool)], questions: usize, max_wrong: f64) -> f64 {
    let mut sorted = calibrated.to_vec();
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut wrong = 0usize;
    let mut bound = 1.0;
    for (i, &(p, right)) in sorted.iter().enumerate() {
        if !right {
            wrong += 1;
        }
        // Only between different probabilities: ties are given or declined together.
        let next_differs = sorted.get(i + 1).is_none_or(|n| n.0 < p);
        if next_differs && wrong as f64 <= max_wrong * questions as f64 {
            bound = p;
        }
    }
    bound
}

/// The lowest bound whose answers (calibrated probability at least it) have a one-sided 95%
/// Clopper–Pearson upper bound on their wrong share of at most `max_wrong`; 1 when none has.
pub fn choose_sure_bound(calibrated: &[(f64, bool)], max_wrong: f64) -> f64 {
    let mut sorted = calibrated.to_vec();
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut wrong = 0usize;
    let mut bound = 1.0;
    for (i, &(p, right)) in sorted.iter().enumerate() {
        wrong += usize::from(!right);
        let next_differs = sorted.get(i + 1).is_none_or(|n| n.0 < p);
        if next_differs && clopper_pearson_upper(wrong, i + 1, 0.95) <= max_wrong {
            bound = p;
        }
    }
    bound
}

/// The bounds a model is given from.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// The share of WikiTableQuestions' questions its bound lets be answered wrongly.
    pub tables_wrong: f64,
    /// The 95% upper bound on the wrong share of the answers given as sure over a person's
    /// documents (the collections' tuning halves).
    pub sure_wrong: f64,
}

/// Trains the shipped model on `examples` (WikiTableQuestions' train split and the collections'
/// tuning halves: never a test half): out-of-fold probabilities for the curve and the bounds,
/// then the weights and trees on every training question.
pub fn train_ranker(
    examples: &[Example],
    folds: usize,
    bounds: Bounds,
    training: Training,
) -> (Ranker, HeldOut) {
    let held_out = out_of_fold(examples, folds, training);
    let points: Vec<(f64, bool)> = held_out.iter().flatten().map(|&(p, r, _)| (p, r)).collect();
    // One curve over one table, another over several documents, each fitted on its own
    // corpora's held-out questions.
    let points_over = |several: bool| -> Vec<(f64, bool)> {
        examples
            .iter()
            .zip(&held_out)
            .filter(|(e, _)| e.several == several)
            .filter_map(|(_, top)| top.map(|(p, right, _)| (p, right)))
            .collect()
    };
    let (slope, intercept) = fit_curve(&points_over(false));
    let several_points = points_over(true);
    let several_documents = (!several_points.is_empty()).then(|| {
        let (slope, intercept) = fit_curve(&several_points);
        Curve { slope, intercept }
    });
    let (sureness, sure_of) = fit_sureness(examples, &held_out, folds);
    // Over several documents, each question's sureness from a calibrator that did not see its
    // document: the bound is chosen on what it would say of questions unseen.
    let calibrated = |i: usize, e: &Example, p: f64| match (e.several, sure_of[i]) {
        (true, Some(sure)) => sure,
        (true, None) => several_documents.map_or(calibrate(slope, intercept, p), |c| {
            calibrate(c.slope, c.intercept, p)
        }),
        (false, _) => calibrate(slope, intercept, p),
    };
    let calibrated_of = |origin: fn(Origin) -> bool| -> Vec<(f64, bool)> {
        examples
            .iter()
            .zip(&held_out)
            .enumerate()
            .filter(|(_, (e, _))| origin(e.origin))
            .filter_map(|(i, (e, top))| top.map(|(p, right, _)| (calibrated(i, e, p), right)))
            .collect()
    };
    let tables = calibrated_of(|o| o == Origin::Wtq);
    let tables_questions = examples.iter().filter(|e| e.origin == Origin::Wtq).count();
    let bound = choose_bound(&tables, tables_questions, bounds.tables_wrong);
    let documents = calibrated_of(|o| o != Origin::Wtq);
    let sure_from = choose_sure_bound(&documents, bounds.sure_wrong);
    let all: Vec<&Example> = examples.iter().collect();
    let shipped = fit(&all, training, true);
    let fitted = examples
        .iter()
        .filter(|e| best_of(&shipped, e).is_some_and(|(_, right, _)| right))
        .count();
    let Ranker { weights, trees, .. } = shipped.ranker;
    let misses = surest_misses(examples, &held_out, calibrated);
    let share_given = |points: &[(f64, bool)], bound: f64, right: bool| {
        points
            .iter()
            .filter(|(p, r)| *p >= bound && *r == right)
            .count()
    };
    let held = HeldOut {
        misses,
        fitted,
        questions: examples.len(),
        top_right: points.iter().filter(|(_, right)| *right).count(),
        tables_questions,
        right: share_given(&tables, bound, true),
        wrong: share_given(&tables, bound, false),
        documents_questions: examples.len() - tables_questions,
        documents_top_right: documents.iter().filter(|(_, right)| *right).count(),
        documents_answerable: examples
            .iter()
            .filter(|e| e.origin != Origin::Wtq && e.answerable)
            .count(),
        sure_right: share_given(&documents, sure_from, true),
        sure_wrong: share_given(&documents, sure_from, false),
        documents_at: (5..=19)
            .map(|i| {
                let bound = f64::from(i) * 0.05;
                let given = |right| share_given(&documents, bound, right);
                (bound, given(true), given(false))
            })
            .collect(),
    };
    (
        Ranker {
            weights,
            slope,
            intercept,
            bound,
            sure_from,
            several_documents,
            sureness,
            trees,
        },
        held,
    )
}

/// The sureness calibrator over several documents ([`rank::SURENESS`]), fitted on every
/// collection question's held-out best candidate, and each such question's probability from
/// one fitted without its document's fold (`None` for the others); no calibrator without
/// collection questions.
fn fit_sureness(
    examples: &[Example],
    held_out: &[Option<(f64, bool, usize)>],
    folds: usize,
) -> (Option<Logistic>, Vec<Option<f64>>) {
    let rows: Vec<(usize, Vec<f64>, bool)> = examples
        .iter()
        .zip(held_out)
        .enumerate()
        .filter(|(_, (e, _))| e.several)
        .filter_map(|(i, (e, top))| {
            let (p, right, at) = (*top)?;
            Some((i, rank::sureness_row(p, e.shown(at)), right))
        })
        .collect();
    let mut sure_of = vec![None; examples.len()];
    if rows.is_empty() {
        return (None, sure_of);
    }
    let fit = |rows: &[&(usize, Vec<f64>, bool)]| {
        let data: Vec<(&[f64], bool)> = rows.iter().map(|(_, x, y)| (x.as_slice(), *y)).collect();
        Logistic::fit(&data, &FitSettings::default())
    };
    for fold in 0..folds {
        let (held, trained): (Vec<_>, Vec<_>) = rows
            .iter()
            .partition(|(i, _, _)| fold_of(&examples[*i].table, folds) == fold);
        if held.is_empty() || trained.is_empty() {
            continue;
        }
        let model = fit(&trained);
        for (i, x, _) in held {
            sure_of[*i] = Some(model.probability(x));
        }
    }
    (Some(fit(&rows.iter().collect::<Vec<_>>())), sure_of)
}

/// The questions whose best candidate was wrong out of fold, the surest first (what a bound
/// lets through): the question, the candidate chosen and a right one.
fn surest_misses(
    examples: &[Example],
    held_out: &[Option<(f64, bool, usize)>],
    calibrated: impl Fn(usize, &Example, f64) -> f64,
) -> Vec<String> {
    let mut misses: Vec<(f64, String)> = examples
        .iter()
        .zip(held_out)
        .enumerate()
        .filter_map(|(i, (e, top))| {
            let (p, right, at) = (*top)?;
            let gold = e.positive.iter().position(|p| *p);
            let origin = if e.origin == Origin::Wtq {
                "tables"
            } else {
                "documents"
            };
            let p = calibrated(i, e, p);
            (!right).then(|| {
                let line = format!(
                    "[{origin} {p:.2}] {}\n    chose {}\n    right {}",
                    e.question,
                    e.described[at],
                    gold.map_or("(not among the candidates)", |g| e.described[g].as_str())
                );
                (p, line)
            })
        })
        .collect();
    // The surest misses first: what a bound lets through.
    misses.sort_by(|a, b| b.0.total_cmp(&a.0));
    misses.into_iter().map(|(_, line)| line).collect()
}

/// The training questions' out-of-fold figures: what the choices of features and settings are
/// made on (the dev split only measures).
#[derive(Debug, Clone)]
pub struct HeldOut {
    /// The questions whose best candidate was wrong, the surest first: the question, the
    /// candidate chosen and a right one.
    pub misses: Vec<String>,
    /// Whose best candidate is right with the weights and trees trained on every question (in
    /// sample).
    pub fitted: usize,
    /// Training questions.
    pub questions: usize,
    /// Whose best candidate, out of fold, is right.
    pub top_right: usize,
    /// WikiTableQuestions' among them.
    pub tables_questions: usize,
    /// Of those, given at the bound and right.
    pub right: usize,
    /// Of those, given at the bound and wrong.
    pub wrong: usize,
    /// The collections' questions among them.
    pub documents_questions: usize,
    /// Of those, the answerable ones.
    pub documents_answerable: usize,
    /// Of those, whose best candidate is right out of fold.
    pub documents_top_right: usize,
    /// Of those, given as sure and right.
    pub sure_right: usize,
    /// Of those, given as sure and wrong.
    pub sure_wrong: usize,
    /// Of those, right and wrong from each bound 0.25, 0.30, …, 0.95.
    pub documents_at: Vec<(f64, usize, usize)>,
}

/// Right, wrong and declined answers over a group of questions, with calibration.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Tally {
    /// Questions in the group.
    pub questions: usize,
    /// Those with an answer.
    pub answerable: usize,
    /// Given as sure and right.
    pub right: usize,
    /// Given as sure and wrong.
    pub wrong: usize,
    /// Right at the top, given or not: the ranker's accuracy with every question answered.
    pub top_right: usize,
    /// Whose right answer is among the candidates.
    pub reachable: usize,
}

/// The ranker's figures on a split.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TablesReport {
    /// Per group: all, and each question type.
    pub groups: BTreeMap<String, Tally>,
    /// Expected calibration error of the calibrated probability (10 bins), over the questions
    /// with candidates.
    pub ece: f64,
    /// Reliability: per bin, the questions, mean probability and share right.
    pub reliability: Vec<(usize, f64, f64)>,
    /// Among answers given as sure, the share right.
    pub sure_right_share: f64,
}

/// The ranker's answers on `examples`: the best candidate given when its calibrated probability
/// reaches `bound`.
pub fn evaluate(examples: &[Example], scorer: &Scorer, bound: f64) -> TablesReport {
    let mut report = TablesReport::default();
    let mut bins = vec![(0usize, 0.0f64, 0usize); 10];
    for e in examples {
        let probabilities = scorer.probabilities(&e.features);
        let top = best(&probabilities)
            .map(|(at, p)| (scorer.calibrated(p, e.several, e.shown(at)), e.positive[at]));
        for group in &e.groups {
            let tally = report.groups.entry(group.clone()).or_default();
            tally.questions += 1;
            tally.answerable += usize::from(e.answerable);
            tally.reachable += usize::from(e.positive.iter().any(|p| *p));
            if let Some((p, right)) = top {
                tally.top_right += usize::from(right);
                if p >= bound {
                    if right {
                        tally.right += 1;
                    } else {
                        tally.wrong += 1;
                    }
                }
            }
        }
        if let Some((p, right)) = top {
            let bin = ((p * 10.0) as usize).min(9);
            bins[bin].0 += 1;
            bins[bin].1 += p;
            bins[bin].2 += usize::from(right);
        }
    }
    let scored: usize = bins.iter().map(|b| b.0).sum();
    report.reliability = bins
        .iter()
        .filter(|b| b.0 > 0)
        .map(|&(n, sum, right)| (n, sum / n as f64, right as f64 / n as f64))
        .collect();
    report.ece = report
        .reliability
        .iter()
        .map(|&(n, mean, share)| n as f64 / scored.max(1) as f64 * (mean - share).abs())
        .sum();
    if let Some(all) = report.groups.get("all") {
        report.sure_right_share = all.right as f64 / (all.right + all.wrong).max(1) as f64;
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_keeps_wrong_answers_within_the_share_asked() {
        // Ten questions; at most 10% of them (one) may be answered wrongly.
        let points = [
            (0.9, true),
            (0.8, true),
            (0.7, false),
            (0.6, true),
            (0.5, false),
            (0.4, true),
        ];
        assert_eq!(choose_bound(&points, 10, 0.1), 0.6);
        assert_eq!(choose_bound(&points, 10, 0.0), 0.8);
    }

    #[test]
    fn the_curve_follows_how_often_the_best_is_right() {
        let mut points = Vec::new();
        for i in 0..200 {
            let p = (i as f64 + 0.5) / 200.0;
            // Right about as often as p says, by a fixed pattern.
            points.push((p, (i * 37 % 200) as f64 / 200.0 < p));
        }
        let (slope, intercept) = fit_curve(&points);
        assert!(slope > 0.5, "{slope}");
        assert!((calibrate(slope, intercept, 0.5) - 0.5).abs() < 0.15);
    }
}
