//! `tally train support`: the answer-support model (what abstention reads) retrained on the
//! operator's accepted judgments of whole count answers — exported from the review queue
//! (`GET /api/admin/judgments`, `--judgments FILE`) or read from the database
//! (`--database-url`). Each judged question is answered again as the server answers it; its
//! evidence gives the model's features, the judgment whether Tally's count was right. The
//! shipped and the retrained model are compared by 5-fold cross-validation by question, and the
//! retrained one is written into a span-model directory beside the shipped files: the server
//! reads it only when the operator starts it with `--span-model DIR` (no online update a
//! visitor can steer).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context};
use tally_engine::count::answer_support::{support_features, AnswerSupport, SupportFeatures};
use tally_engine::count::calibration::{log_loss, reliability};
use tally_engine::count::consolidate::Scored;
use tally_engine::count::metrics::ratio;
use tally_engine::count::span_model::builtin_dir;
use tally_lab::count::training::cross_validation::fold_assignment;
use tally_lab::count::training::settings::TrainSettings;
use tally_types::request::{question_key, Ask, Settings};
use tally_types::{AnswerBody, FeedbackPart, Mode, Verdict};

use crate::cli::TrainSupportArgs;
use tally_answer::{EngineConfig, Standalone};
use tally_store::review::Judgment;

const FOLDS: usize = 5;

/// A judgment of a whole count answer: the question, Tally's count then, and whether it was
/// right as the operator accepted.
struct Judged {
    question: String,
    tally_count: f64,
    right: bool,
}

impl Judged {
    fn of(judgment: &Judgment) -> Option<Self> {
        if judgment.part != FeedbackPart::Answer {
            return None;
        }
        let tally_count = judgment.tally_count?;
        let right = match judgment.verdict {
            Verdict::Correct => true,
            Verdict::Wrong => judgment
                .corrected_value
                .is_some_and(|c| ratio(tally_count, c) >= 0.9),
            _ => return None,
        };
        Some(Judged {
            question: judgment.question.clone(),
            tally_count,
            right,
        })
    }
}

pub(crate) async fn train(args: &TrainSupportArgs) -> anyhow::Result<()> {
    let judgments = read_judgments(args).await?;
    // The latest accepted judgment of each question (by its normalised wording) counts.
    let mut latest: BTreeMap<String, Judged> = BTreeMap::new();
    for judged in judgments.iter().filter_map(Judged::of) {
        latest.insert(question_key(&judged.question), judged);
    }
    let judged: Vec<Judged> = latest.into_values().collect();
    let right = judged.iter().filter(|j| j.right).count();
    println!(
        "{} accepted judgments, {} judged count answers ({right} right, {} wrong)",
        judgments.len(),
        judged.len(),
        judged.len() - right
    );
    if right < 2 || judged.len() - right < 2 {
        bail!("too few judged answers to learn from: at least 2 right and 2 wrong are needed");
    }
    let rows = support_rows(args, &judged).await?;
    let shipped_dir = args.models.span_model.clone().unwrap_or_else(builtin_dir);
    let shipped = AnswerSupport::load(&shipped_dir)?;
    let fold_of = fold_assignment(rows.len(), FOLDS, TrainSettings::default().seed);
    let mut out_of_fold = vec![0.0; rows.len()];
    for fold in 0..FOLDS {
        let train: Vec<(SupportFeatures, bool)> = rows
            .iter()
            .zip(&fold_of)
            .filter(|(_, f)| **f != fold)
            .map(|(r, _)| *r)
            .collect();
        let model = AnswerSupport::fit(&train);
        for (i, (features, _)) in rows.iter().enumerate() {
            if fold_of[i] == fold {
                out_of_fold[i] = model.model.probability(features);
            }
        }
    }
    let shipped_p: Vec<f64> = rows
        .iter()
        .map(|(features, _)| shipped.model.probability(features))
        .collect();
    println!(
        "{:<28} {:>9} {:>6} {:>17}",
        "model", "log-loss", "ECE", "right at p ≥ 0.5"
    );
    for (name, p) in [
        ("shipped", &shipped_p),
        ("retrained (out of fold)", &out_of_fold),
    ] {
        let pairs: Vec<(f64, bool)> = p.iter().zip(&rows).map(|(&p, r)| (p, r.1)).collect();
        let accuracy = pairs.iter().filter(|(p, y)| (*p >= 0.5) == *y).count();
        println!(
            "{name:<28} {:>9.4} {:>6.3} {:>11}/{}",
            log_loss(&pairs),
            reliability(&pairs, 10).ece,
            accuracy,
            pairs.len()
        );
    }
    let mut model = AnswerSupport::fit(&rows);
    model.training = serde_json::json!({
        "data": "accepted judgments of count answers",
        "judged_answers": rows.len(),
        "right": right,
    });
    write_model_dir(&shipped_dir, &args.out, &model)?;
    println!(
        "written to {}; the server reads it only when started with --span-model {}",
        args.out.display(),
        args.out.display()
    );
    Ok(())
}

/// The accepted judgments, from the file or the database given.
async fn read_judgments(args: &TrainSupportArgs) -> anyhow::Result<Vec<Judgment>> {
    match (&args.judgments, &args.database_url) {
        (Some(path), _) => tally_lab::collection::read_json_lines(path),
        (None, Some(url)) => {
            let db = tally_store::db::Database::new(url);
            let judgments = tally_store::review::accepted_judgments(&db).await;
            db.close().await;
            Ok(judgments?)
        }
        (None, None) => bail!(
            "give the judgments: --judgments FILE (GET /api/admin/judgments) or --database-url"
        ),
    }
}

/// Each judged question answered again as the server answers it: the features of its
/// evidence for the count Tally gave when it was judged.
async fn support_rows(
    args: &TrainSupportArgs,
    judged: &[Judged],
) -> anyhow::Result<Vec<(SupportFeatures, bool)>> {
    // Loaded as the server loads its engines, and asked through the same decision.
    let config = EngineConfig {
        snippet_index: args.corpus.index.clone(),
        sentence_index: args.search_index.clone(),
        data_dir: args.corpus.data_dir(),
        span_model: args.models.span_model.clone(),
        reader_context_chars: args.models.reader_context_chars(),
        reader_weights: args.models.reader_weights,
        sentence_vectors: false,
    };
    let (encoder, _) = tally_setup::loading::encoder_of(&args.models)?;
    let answerer = tokio::task::spawn_blocking(move || Standalone::load(&config, Some(encoder)))
        .await
        .context("loading the corpora and models crashed")??;
    let mut rows = Vec::with_capacity(judged.len());
    for j in judged {
        let ask = Ask {
            q: j.question.clone(),
            mode: Mode::Count,
            settings: Settings::default(),
        };
        let answer = answerer.ask(&ask)?;
        let AnswerBody::Count(count) = answer.answer else {
            continue;
        };
        // Each snippet's chosen count with its confidence: what the support model reads.
        let scored: Vec<Scored> = count
            .snippets
            .iter()
            .flat_map(|s| s.spans.iter().filter(|span| span.chosen))
            .map(|span| Scored {
                count: span.count,
                confidence: span.confidence,
            })
            .collect();
        rows.push((support_features(&scored, j.tally_count), j.right));
    }
    Ok(rows)
}

/// A span-model directory: the shipped files with the retrained support model in place of
/// the shipped one.
fn write_model_dir(shipped: &Path, out: &Path, model: &AnswerSupport) -> anyhow::Result<()> {
    if out == shipped {
        bail!(
            "--out is the shipped model's directory; write the retrained model elsewhere and \
             install it with --span-model"
        );
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for entry in std::fs::read_dir(shipped)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), out.join(entry.file_name()))
                .with_context(|| format!("cannot copy {}", entry.path().display()))?;
        }
    }
    model
        .save(out)
        .with_context(|| format!("cannot write the model into {}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judgment(verdict: Verdict, corrected: Option<f64>, tally: Option<f64>) -> Judgment {
        Judgment {
            question: "how many moons does mars have".into(),
            part: FeedbackPart::Answer,
            part_ref: None,
            verdict,
            corrected_value: corrected,
            moved_to: None,
            tally_count: tally,
        }
    }

    #[test]
    fn a_judged_answer_is_right_when_called_correct_or_corrected_within_ten_percent() {
        let right = |j: &Judgment| Judged::of(j).map(|j| j.right);
        assert_eq!(
            right(&judgment(Verdict::Correct, None, Some(2.0))),
            Some(true)
        );
        assert_eq!(
            right(&judgment(Verdict::Wrong, Some(5.0), Some(2.0))),
            Some(false)
        );
        // A correction within the metric's tolerance says Tally's count was right.
        assert_eq!(
            right(&judgment(Verdict::Wrong, Some(100.0), Some(95.0))),
            Some(true)
        );
        // No count to judge, or not a whole answer: no row.
        assert_eq!(right(&judgment(Verdict::Correct, None, None)), None);
        let mut instance = judgment(Verdict::Relevant, None, Some(2.0));
        instance.part = FeedbackPart::Instance;
        assert_eq!(right(&instance), None);
    }
}
