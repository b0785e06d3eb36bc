//! `tally ask "QUESTION" [--json]`: a question of any kind, answered by the service the web app
//! answers with ([`Answerer`]): the same checks and limits, the same kind decision, the same
//! settings and the same answer as `GET /api/count`, `/api/value`, `/api/search` and the page.

use tally_types::{Answer, AnswerBody, Mode};

use crate::answering::{unobserved, Answerer};

use crate::cli::AskArgs;

/// `tally ask QUESTION`: the answer through the service every entry point answers with.
pub async fn ask(args: &AskArgs) -> anyhow::Result<()> {
    // One answer at a time, none waiting: the command asks one question.
    let answerer = Answerer::new(1, 0)
        .with_max_snippets(usize::try_from(args.max_snippets).unwrap_or(usize::MAX));
    // Checked before anything loads: a bad question or setting is refused at once.
    let checked = answerer.check(&args.asked())?;
    super::service::load(&answerer, &args.models, &args.corpus, &args.search_index).await?;
    let answer = answerer.answer_checked(&checked, unobserved()).await?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&answer)?);
    } else {
        print_answer(&answer, args.mode);
    }
    Ok(())
}

/// The answer for people; the kind's reason on standard error when it was detected.
fn print_answer(answer: &Answer, mode: Mode) {
    if mode == Mode::Auto {
        eprintln!(
            "read as a {} question: {}",
            answer.kind.name(),
            answer.kind_reason
        );
    }
    match &answer.answer {
        AnswerBody::Count(count) => super::count::print_answer(count),
        AnswerBody::Value(value) => super::value::print_answer(value),
        AnswerBody::Search(results) => super::search::print_results(results),
    }
    // What it was asked over, after the answer (its first line is the question).
    if let Some(scope) = &answer.scope {
        println!("{}", scope.sentence());
    }
    if let Some(suggested) = &answer.did_you_mean {
        println!("did you mean: {suggested}");
    }
}
