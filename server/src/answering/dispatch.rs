//! Answering one checked question with the engine its kind needs.

use std::ops::ControlFlow;

use super::*;

/// Answers with the engines; a count question from the `fetched` snippets.
pub(super) fn answer_with(
    engines: &Engines,
    question: &str,
    checked: &Checked,
    decision: KindDecision,
    fetched: Option<Fetched>,
    on_stage: &(dyn Fn(&StageTiming) + Send + Sync),
    wanted: &AtomicBool,
) -> Result<Answer, AnswerError> {
    let Checked {
        forced,
        count: count_settings,
        search: search_settings,
        ..
    } = checked;
    let forced = *forced;
    let KindDecision {
        kind,
        reason,
        analysis,
    } = decision;
    let answer = match kind {
        QuestionKind::Count => {
            let used = fetched.ok_or(AnswerError::NoSnippets)?;
            for timing in &used.timings {
                on_stage(timing);
            }
            let mut answer = engines.pipeline.answer_analysed(
                question,
                analysis,
                &used.snippets,
                used.retrieval,
                count_settings,
                engines.snippets.as_ref(),
                &mut |stage| {
                    on_stage(stage);
                    if wanted.load(Ordering::Acquire) {
                        ControlFlow::Continue(())
                    } else {
                        tracing::info!(stage = %stage.stage, "answer stopped: its asker left");
                        ControlFlow::Break(())
                    }
                },
            )?;
            let links: HashMap<_, _> = used.links.into_iter().collect();
            for snippet in &mut answer.snippets {
                snippet.link = links.get(&snippet.id).cloned();
            }
            answer.origin = used.origin;
            answer.timings.splice(0..0, used.timings);
            // Unsure answers over a person's documents are declined (issue 86).
            tally_engine::trust::check_count(&mut answer);
            AnswerBody::Count(Box::new(answer))
        }
        QuestionKind::Value => {
            let mut answer = engines.answer_value(question, count_settings.corpus.as_deref())?;
            tally_engine::trust::check_value(&mut answer);
            AnswerBody::Value(Box::new(answer))
        }
        QuestionKind::Quantity | QuestionKind::Search => {
            let mut settings = search_settings.clone();
            if kind == QuestionKind::Search {
                // Plain search ranks by text; the quantity rankers would only add a note.
                settings = settings.with_ranker(tally_types::Ranker::Bm25);
            }
            if settings.ranker.needs_encoder() && engines.encoder.is_none() {
                settings = settings.with_ranker(tally_types::Ranker::Qbm25);
            }
            // Kept to the corpus asked, as counts and values are (issue 87).
            AnswerBody::Search(Box::new(search_in(
                &engines.sentences,
                engines.encoder.as_deref(),
                question,
                &settings,
                count_settings.corpus.as_deref(),
            )?))
        }
    };
    Ok(Answer {
        kind,
        kind_reason: reason,
        chosen_by_user: forced.is_some(),
        answer,
        scope: None,
        did_you_mean: None,
    })
}
