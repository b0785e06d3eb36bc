//! `tally train search-ranker --generated N` (issue 76): the learned ranker's weights trained on
//! generated quantity queries ([`tally_lab::search::generated`]) over the training corpora's
//! sentences, instead of on the 50 judged dev queries. A fixed tenth of the generated queries
//! is kept out of training and measures it. The dev queries are then ranked once with the
//! weights, a figure none of the training saw.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tally_documents::sentence_store::Document;
use tally_documents::sentence_store::SentenceIndex;
use tally_encoder::Encoder;
use tally_engine::search::vector_job::{fill_vectors, FillControl};
use tally_lab::search::eval::RankerScores;
use tally_lab::search::generated::{generate, GeneratorSettings};
use tally_lab::search::learned::{self, labelled_pools, LabelledQuery, LearnedWeights, QueryPool};
use tally_text::hash::stable_hash;
use tally_types::Ranker;

use crate::cli::TrainSearchRankerArgs;
use crate::commands::train_token_vectors::training_sentences;

/// One generated query in this many is kept out of training (as `tally train token-vectors`).
const HELD_OUT_ONE_IN: u64 = 10;

/// Trains the weights on `queries` generated queries, prints the held-out generated figures of
/// these and of the `shipped` weights, and the dev queries' figure (`dev` pools) of both.
pub(crate) fn train(
    args: &TrainSearchRankerArgs,
    queries: usize,
    encoder: &Encoder,
    dev: &[QueryPool],
    shipped: &LearnedWeights,
) -> anyhow::Result<LearnedWeights> {
    let started = Instant::now();
    let (sentences, excluded) = training_sentences(&args.data, &args.judged)?;
    let settings = GeneratorSettings {
        queries,
        ..GeneratorSettings::default()
    };
    let (generated, counts) = generate(&sentences, &excluded, &settings);
    println!(
        "generated {} queries from {} sentences (judged Qsearch sentences excluded: {})",
        counts.kept,
        counts.sentences_read,
        excluded.len()
    );
    // The pools are drawn from every training sentence but the judged ones, each encoded once
    // into the index's stored vectors (as a server's job does).
    let index = SentenceIndex::in_memory()?;
    let documents: Vec<Document> = sentences
        .iter()
        .filter(|s| !excluded.contains(&s.text))
        .enumerate()
        .map(|(i, s)| Document {
            id: format!("t{i}"),
            text: s.text.clone(),
            source: s.source.clone(),
            entity: None,
        })
        .collect();
    index.add_unsplit(&documents)?;
    let never = AtomicBool::new(false);
    let filled = fill_vectors(&index, encoder, FillControl::until(&never), |_| {})?;
    println!(
        "indexed {} sentences, their vectors stored in {:.0} s",
        index.len(),
        filled.seconds
    );
    let labelled: Vec<LabelledQuery> = generated
        .iter()
        .map(|q| LabelledQuery {
            query: q.query.clone(),
            relevant: q
                .positives
                .iter()
                .map(|&i| sentences[i].text.clone())
                .collect(),
        })
        .collect();
    let pool = tally_engine::search::SearchSettings::for_ranker(Ranker::Learned).pool;
    let pools = labelled_pools(&index, &labelled, encoder, None, pool)?;
    let (held_out, training): (Vec<(&LabelledQuery, &QueryPool)>, Vec<_>) = labelled
        .iter()
        .zip(&pools)
        .partition(|(q, _)| stable_hash(&q.query).is_multiple_of(HELD_OUT_ONE_IN));
    let training: Vec<&QueryPool> = training.into_iter().map(|(_, p)| p).collect();
    let held_out: Vec<QueryPool> = held_out.into_iter().map(|(_, p)| p.clone()).collect();
    let model = learned::train(&training);
    let weights = learned::weights_of(
        &model,
        format!(
            "{} generated quantity queries over the training corpora's sentences, the dense pool \
             ({pool} by qbm25 and {} meeting every condition in other words; tally train \
             search-ranker --generated)",
            training.len(),
            tally_engine::search::rankers::WITHOUT_WORDS
        ),
    );
    let line = |what: &str, scores: RankerScores| {
        println!(
            "  {what}: P@10 {:.3}, MRR@10 {:.3}, NDCG@10 {:.3}",
            scores.precision, scores.mrr, scores.ndcg
        );
    };
    let mean = |pools: &[QueryPool], w: &LearnedWeights| {
        RankerScores::mean(Ranker::Learned, &learned::scores_with(pools, w))
    };
    println!(
        "held-out generated queries ({} of {}; trained on the other {}):",
        held_out.len(),
        pools.len(),
        training.len()
    );
    line(
        "weights trained on generated queries",
        mean(&held_out, &weights),
    );
    line(
        "weights trained on the dev queries",
        mean(&held_out, shipped),
    );
    println!("the {} judged dev queries, ranked once:", dev.len());
    line(
        "weights trained on generated queries (held out)",
        mean(dev, &weights),
    );
    line(
        "weights trained on the dev queries (in-sample)",
        mean(dev, shipped),
    );
    println!("in {:.0} s", started.elapsed().as_secs_f64());
    Ok(weights)
}
