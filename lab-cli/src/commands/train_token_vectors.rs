//! `tally train token-vectors`: the `learned` ranker's static encoder — distilled from the
//! sentence encoder, then fine-tuned on quantity queries generated from the training corpora's
//! sentences (never the judged Qsearch sentences) — written where the engine ships it.

use std::collections::HashSet;
use std::time::Instant;

use anyhow::Context;
use tally_documents::corpus::catalogue::{LCQUAD_COUNT, NEWSQUANT, NQ_COUNT, STRESSTEST};
use tally_documents::corpus::sentences::read_documents;
use tally_documents::corpus::Format;
use tally_documents::sentence_store::index::sentences_of;
use tally_documents::sentence_store::stored::StoredSentence;
use tally_lab::search::eval::JudgedCollection;
use tally_lab::search::generated::{
    encoder_text, generate, triples, GeneratedQuery, GeneratorSettings, NegativeKind,
};
use tally_lab::search::token_vectors::{TokenVectors, TrainSettings};
use tally_text::hash::stable_hash;

use crate::cli::TrainTokenVectorsArgs;
use tally_setup::flags::DataArgs;
use tally_setup::loading::encoder_of;

/// Texts to unit vectors: the encoder's, or the token vectors'.
type Embedder<'a> = dyn Fn(&[&str]) -> anyhow::Result<Vec<Vec<f32>>> + 'a;

/// One generated query in this many is held out of training, to measure it.
const HELD_OUT_ONE_IN: u64 = 10;

/// `tally train token-vectors`: distils and fine-tunes the `learned` ranker's token vectors and writes them.
pub(crate) fn train(args: &TrainTokenVectorsArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let (sentences, excluded) = training_sentences(&args.data, &args.judged)?;
    let settings = GeneratorSettings {
        queries: args.queries,
        ..GeneratorSettings::default()
    };
    let (queries, counts) = generate(&sentences, &excluded, &settings);
    println!(
        "generated {} queries from {} sentences ({} quantities with a unit; {} attempted, {} read \
         back otherwise by the parser and dropped); judged Qsearch sentences excluded: {}",
        counts.kept,
        counts.sentences_read,
        counts.quantities_with_units,
        counts.attempted,
        counts.rejected_by_parser,
        excluded.len()
    );
    for q in queries.iter().take(args.show) {
        println!(
            "  {:?} → {} positive, negatives {}",
            q.query,
            q.positives.len(),
            describe_negatives(q)
        );
    }
    let (held_out, training): (Vec<GeneratedQuery>, Vec<GeneratedQuery>) = queries
        .into_iter()
        .partition(|q| stable_hash(&q.query).is_multiple_of(HELD_OUT_ONE_IN));

    let (encoder, _) = encoder_of(&args.models)?;
    let texts: Vec<&str> = sentences
        .iter()
        .filter(|s| !excluded.contains(&s.text))
        .map(|s| s.text.as_str())
        .collect();
    let distilled_at = Instant::now();
    let mut vectors = TokenVectors::distil(&encoder, &texts)?;
    println!(
        "distilled {} in {:.0} s",
        encoder.name(),
        distilled_at.elapsed().as_secs_f64()
    );
    let check = |name: &str, embed: &Embedder| {
        let mrr = held_out_mrr(&held_out, &sentences, embed)?;
        println!(
            "held-out generated queries ({}), MRR of the source sentence among its negatives \
             of other words or units: {name} {mrr:.3}",
            held_out.len()
        );
        anyhow::Ok(mrr)
    };
    check("encoder", &|texts| Ok(encoder.embed(texts)?))?;
    check("distilled", &|texts| {
        Ok(texts.iter().map(|t| vectors.embed(t)).collect())
    })?;
    let train_settings = TrainSettings {
        epochs: args.epochs,
        ..TrainSettings::default()
    };
    let trained_at = Instant::now();
    let losses = vectors.train(&triples(&training, &sentences), &train_settings);
    println!(
        "fine-tuned on {} queries in {:.0} s, loss per epoch {}",
        training.len(),
        trained_at.elapsed().as_secs_f64(),
        losses
            .iter()
            .map(|l| format!("{l:.3}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    check("fine-tuned", &|texts| {
        Ok(texts.iter().map(|t| vectors.embed(t)).collect())
    })?;
    vectors
        .save(&args.out)
        .with_context(|| format!("{} could not be written", args.out.display()))?;
    println!(
        "token vectors → {} ({:.1} MB) in {:.0} s in all",
        args.out.display(),
        std::fs::metadata(&args.out).map_or(0.0, |m| m.len() as f64 / 1e6),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The training corpora's sentences (Stresstest, LC-QuAD and NQ snippets, NewsQuant), and the
/// judged Qsearch sentences that the generator must never read.
pub(crate) fn training_sentences(
    data: &DataArgs,
    judged: &std::path::Path,
) -> anyhow::Result<(Vec<StoredSentence>, HashSet<String>)> {
    let data = data
        .dir()
        .context("the training corpora need the data directory (--data)")?;
    let judged = JudgedCollection::load(judged)?;
    let excluded: HashSet<String> = judged
        .queries
        .iter()
        .flat_map(|q| q.judged.iter().map(|j| j.sentence.clone()))
        .collect();
    let mut sentences: Vec<StoredSentence> = Vec::new();
    for (dataset, format) in [
        (STRESSTEST, Format::Squad),
        (LCQUAD_COUNT, Format::Squad),
        (NQ_COUNT, Format::Squad),
        (NEWSQUANT, Format::NewsQuant),
    ] {
        let path = data.join(dataset.path);
        let documents = read_documents(&path, format)
            .with_context(|| format!("{} could not be read", path.display()))?;
        let before = sentences.len();
        sentences.extend(documents.iter().flat_map(sentences_of));
        println!("{}: {} sentences", dataset.name, sentences.len() - before);
    }
    Ok((sentences, excluded))
}

fn describe_negatives(query: &GeneratedQuery) -> String {
    let count = |kind: NegativeKind| query.negatives.iter().filter(|(_, k)| *k == kind).count();
    format!(
        "{} condition missed, {} other unit, {} other concept",
        count(NegativeKind::ConditionMissed),
        count(NegativeKind::OtherUnit),
        count(NegativeKind::OtherConcept)
    )
}

/// Mean reciprocal rank of each held-out query's source sentence among its source and its
/// negatives of other words or units, by cosine (queries without such negatives skipped).
fn held_out_mrr(
    queries: &[GeneratedQuery],
    sentences: &[StoredSentence],
    embed: &Embedder,
) -> anyhow::Result<f64> {
    let mut total = 0.0;
    let mut counted = 0usize;
    for query in queries {
        let others: Vec<usize> = query
            .negatives
            .iter()
            .filter(|(_, kind)| *kind != NegativeKind::ConditionMissed)
            .map(|(s, _)| *s)
            .collect();
        if others.is_empty() {
            continue;
        }
        let text = encoder_text(&query.query);
        let mut texts: Vec<&str> = vec![&text, &sentences[query.source].text];
        texts.extend(others.iter().map(|&s| sentences[s].text.as_str()));
        let vectors = embed(&texts)?;
        let cosine = |v: &[f32]| tally_encoder::cosine(&vectors[0], v);
        let source = cosine(&vectors[1]);
        let above = vectors[2..].iter().filter(|v| cosine(v) >= source).count();
        total += 1.0 / (above + 1) as f64;
        counted += 1;
    }
    Ok(total / counted.max(1) as f64)
}
