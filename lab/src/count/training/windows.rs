//! The reader's training windows: each question's passages cut into windows, encoded once by
//! the frozen lower layers, with their answer positions labelled by distant supervision (the
//! gold count's spans and every candidate within ±10% of it), and the silver questions' windows.

use std::ops::Range;

use candle_core::{IndexOp, Tensor};

use super::data::{QueryCandidates, TrainingQuery};
use super::silver::silver_questions;
use super::silver_names::silver_name_questions;
use tally_documents::corpus::datasets::Snippet;
use tally_encoder::Encoder;
use tally_engine::count::candidates::{count_candidates, CountCandidate};
use tally_engine::count::span_model::{
    candidate_passages_within, make_windows, pair_tokenizer, PairTokenizer, Passage, Window,
};

use super::error::TrainError;
use super::settings::TrainSettings;

/// Words of a name question's brief form: "which", the class and one more.
const BRIEF_NAME_QUESTION_WORDS: usize = 3;

/// A window with its frozen encoder states and labels.
pub(super) struct EncodedWindow {
    pub(super) query: usize,
    pub(super) window: Window,
    /// `(tokens, dimension)`.
    pub(super) states: Tensor,
    pub(super) starts: Vec<usize>,
    pub(super) ends: Vec<usize>,
    /// A silver question's window: trained on with its question's fold, never scored.
    pub(super) silver: bool,
}

/// Windows of every snippet with a count candidate, their states after the encoder's frozen
/// layers (computed once) and labels.
pub(super) fn encode(
    encoder: &Encoder,
    queries: &[TrainingQuery],
    frozen_layers: usize,
    settings: &TrainSettings,
    progress: &dyn Fn(&str),
) -> Result<(Vec<EncodedWindow>, Vec<QueryCandidates>), TrainError> {
    let (tolerance, silver_per_query) = (settings.tolerance, settings.silver_per_query);
    let tokenizer = pair_tokenizer(encoder)?;
    let mut windows = Vec::new();
    let mut all_candidates = Vec::new();
    for (q, query) in queries.iter().enumerate() {
        let candidates: QueryCandidates = query
            .snippets
            .iter()
            .map(|s| count_candidates(&s.text))
            .collect();
        // The model reads only the sentences with a candidate, so only those are trained on.
        let texts: Vec<&str> = query.snippets.iter().map(|s| s.text.as_str()).collect();
        let passages = candidate_passages_within(&texts, &candidates, settings.context_chars);
        let query_windows = make_windows(&tokenizer, &query.question, &passages)?;
        for chunk in query_windows.chunks(32) {
            let sequences: Vec<(&[u32], &[u32])> = chunk
                .iter()
                .map(|w| (w.ids.as_slice(), w.type_ids.as_slice()))
                .collect();
            let (states, _) = encoder.token_states_after(&sequences, frozen_layers)?;
            for (row, window) in chunk.iter().enumerate() {
                let snippet = &query.snippets[window.snippet];
                let (starts, ends) = labels(
                    window,
                    snippet,
                    &candidates[window.snippet],
                    query.gold,
                    tolerance,
                );
                windows.push(EncodedWindow {
                    query: q,
                    // `force_contiguous`, not `copy`: candle's `copy` clones the whole batch's
                    // storage behind the view, so every window kept its 32-window batch alive
                    // (about 5 MB each; with silver windows the run went out of memory).
                    states: states
                        .i(row)?
                        .narrow(0, 0, window.ids.len())?
                        .force_contiguous()?,
                    window: window.clone(),
                    starts,
                    ends,
                    silver: false,
                });
            }
        }
        all_candidates.push(candidates);
        if (q + 1) % 25 == 0 {
            progress(&format!("encoded {}/{} queries", q + 1, queries.len()));
        }
    }
    windows.extend(silver_count_windows(
        encoder,
        &tokenizer,
        queries,
        &all_candidates,
        frozen_layers,
        silver_per_query,
        progress,
    )?);
    windows.extend(silver_name_windows(
        encoder,
        &tokenizer,
        queries,
        frozen_layers,
        settings.silver_names_per_query,
        progress,
    )?);
    Ok((windows, all_candidates))
}

/// One silver question's window over its sentence, with its frozen states; its positives are
/// the token ranges of `answers` (phrase and number of a count; each listed name).
pub(super) fn silver_window(
    encoder: &Encoder,
    tokenizer: &PairTokenizer,
    frozen_layers: usize,
    (query, snippet, offset): (usize, usize, usize),
    (question, sentence): (&str, &str),
    answers: &[(Range<usize>, Range<usize>)],
) -> Result<Vec<EncodedWindow>, TrainError> {
    let passage = Passage {
        snippet,
        offset,
        text: sentence,
    };
    let mut out = Vec::new();
    for window in make_windows(tokenizer, question, &[passage])? {
        let sequence = [(window.ids.as_slice(), window.type_ids.as_slice())];
        let (states, _) = encoder.token_states_after(&sequence, frozen_layers)?;
        let (mut starts, mut ends) = (Vec::new(), Vec::new());
        for (first, last) in answers {
            if let (Some((fs, fe)), Some((ls, le))) =
                (window.token_range(first), window.token_range(last))
            {
                starts.extend([fs, ls]);
                ends.extend([le, fe]);
            }
        }
        starts.sort_unstable();
        starts.dedup();
        ends.sort_unstable();
        ends.dedup();
        out.push(EncodedWindow {
            query,
            states: states.i(0)?.force_contiguous()?,
            window,
            starts,
            ends,
            silver: true,
        });
    }
    Ok(out)
}

/// The windows of the silver count questions ([`silver_questions`]): a count phrase's start and
/// its number's end, or its number's start and the phrase's end, are right.
pub(super) fn silver_count_windows(
    encoder: &Encoder,
    tokenizer: &PairTokenizer,
    queries: &[TrainingQuery],
    candidates: &[QueryCandidates],
    frozen_layers: usize,
    per_query: usize,
    progress: &dyn Fn(&str),
) -> Result<Vec<EncodedWindow>, TrainError> {
    let silver = silver_questions(queries, candidates, per_query);
    let mut windows = Vec::new();
    for item in &silver {
        let answer = (item.answer.span.clone(), item.answer.number_span.clone());
        windows.extend(silver_window(
            encoder,
            tokenizer,
            frozen_layers,
            (item.query, item.snippet, item.offset),
            (&item.question, &item.sentence),
            &[answer],
        )?);
    }
    if !silver.is_empty() {
        progress(&format!("encoded {} silver questions", silver.len()));
    }
    Ok(windows)
}

/// The windows of the silver name questions ([`silver_name_questions`]), each asked twice: with
/// its sentence's content words and, as questions are asked, briefly ("which islands main").
/// Every listed name is a right span.
pub(super) fn silver_name_windows(
    encoder: &Encoder,
    tokenizer: &PairTokenizer,
    queries: &[TrainingQuery],
    frozen_layers: usize,
    per_query: usize,
    progress: &dyn Fn(&str),
) -> Result<Vec<EncodedWindow>, TrainError> {
    let silver = silver_name_questions(queries, per_query);
    let mut windows = Vec::new();
    for item in &silver {
        let answers: Vec<(Range<usize>, Range<usize>)> =
            item.names.iter().map(|n| (n.clone(), n.clone())).collect();
        let brief: String = item
            .question
            .split(' ')
            .take(BRIEF_NAME_QUESTION_WORDS)
            .collect::<Vec<_>>()
            .join(" ");
        for question in [item.question.as_str(), brief.as_str()] {
            windows.extend(silver_window(
                encoder,
                tokenizer,
                frozen_layers,
                (item.query, item.snippet, item.offset),
                (question, &item.sentence),
                &answers,
            )?);
        }
    }
    if !silver.is_empty() {
        progress(&format!("encoded {} silver name questions", silver.len()));
    }
    Ok(windows)
}

/// Positive start and end tokens of a window.
pub(super) fn labels(
    window: &Window,
    snippet: &Snippet,
    candidates: &[CountCandidate],
    gold: f64,
    tolerance: f64,
) -> (Vec<usize>, Vec<usize>) {
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    let mut add = |phrase: &std::ops::Range<usize>, number: &std::ops::Range<usize>| {
        if let (Some((ps, pe)), Some((ns, ne))) =
            (window.token_range(phrase), window.token_range(number))
        {
            starts.extend([ps, ns]);
            ends.extend([ne, pe]);
        }
    };
    for c in candidates {
        if (c.count - gold).abs() <= tolerance * gold.abs() {
            add(&c.span, &c.number_span);
        }
    }
    for answer in &snippet.answers {
        let span = answer.start..answer.start + answer.text.len();
        // The number inside the annotated span, when there is one.
        let number = count_candidates(&answer.text)
            .first()
            .map(|c| span.start + c.number_span.start..span.start + c.number_span.end)
            .unwrap_or(span.clone());
        add(&span, &number);
    }
    starts.sort_unstable();
    starts.dedup();
    ends.sort_unstable();
    ends.dedup();
    (starts, ends)
}
