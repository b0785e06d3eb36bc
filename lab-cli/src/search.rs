//! `tally-lab eval search`, `tally-lab train search-ranker` and `tally-lab bench search`: the
//! quantity-search rankers scored, learned and timed.

use std::path::Path;

use crate::cli::{EvalSearchArgs, TrainSearchRankerArgs};
use anyhow::Context;
use tally_documents::sentence_store::vectors::SentenceVectors;
use tally_encoder::Encoder;
use tally_engine::choices::SearchChoices;
use tally_engine::search::vector_job::{fill_vectors, FillControl};
use tally_engine::search::SearchSettings;
use tally_lab::search::eval::{evaluate, JudgedCollection, RankerScores};
use tally_lab::search::learned;
use tally_lab::search::token_vectors::TokenVectors;
use tally_lab::search::tuning::{folds, grid, Parts, ScoredGrid, Tuned, FOLDS};
use tally_setup::loading::encoder_of;
use tally_types::Ranker;

mod bench;
mod generated_ranker;
mod synthetic;

pub(crate) use bench::bench;

/// `tally eval search --judged FILE`.
pub(crate) fn eval_search(args: &EvalSearchArgs) -> anyhow::Result<()> {
    let defaults = SearchSettings::default();
    let chosen = SearchChoices {
        ranker: args.ranker.unwrap_or(Ranker::DEFAULT),
        alpha: args.alpha,
        k: defaults.k,
        sort: defaults.sort,
    }
    .settings()?
    .ranker;
    let collection = JudgedCollection::load(&args.judged)?;
    let rankers: Vec<Ranker> = if args.json {
        vec![chosen]
    } else {
        Ranker::ALL.to_vec()
    };
    let encoder = if rankers.iter().any(|r| r.needs_encoder()) {
        Some(encoder_of(&args.models)?.0)
    } else {
        None
    };
    if let (true, Some(encoder)) = (args.stored_vectors, &encoder) {
        store_vectors(&collection, encoder)?;
    }
    if args.json {
        return print_chosen_ranker(&collection, encoder.as_deref(), chosen, args.alpha);
    }
    if let Some(encoder) = &encoder {
        // The grid re-ranks the same pools many times.
        encoder.remember_embeddings();
    }
    print_grid_header(&collection, args.alpha);
    let texts: Vec<&str> = collection
        .queries
        .iter()
        .map(|q| q.query.as_str())
        .collect();
    let fold = folds(&texts);
    let mut choices = Vec::new();
    let mut grids = Vec::new();
    // Each ranker's cross-validated figures with its adopted parts, reused below.
    let mut adopted = Vec::new();
    let mut learned_folds = Vec::new();
    for ranker in rankers {
        let defaults = SearchSettings {
            alpha: args.alpha,
            ..SearchSettings::for_ranker(ranker)
        };
        if let (Ranker::Learned, Some(encoder)) = (ranker, encoder.as_deref()) {
            let (tuned, grid, models) = learned_tuned(&collection, encoder, defaults, &fold)?;
            print_row(ranker.name(), &tuned);
            adopted.push((ranker, tuned.cross_validated.clone()));
            grids.push(grid);
            learned_folds = models;
            continue;
        }
        let points = grid(&defaults, Parts::adopted(ranker));
        let grid = ScoredGrid::run(&collection, encoder.as_deref(), points)?;
        let tuned = grid.cross_validate(&fold);
        print_row(ranker.name(), &tuned);
        adopted.push((ranker, tuned.cross_validated.clone()));
        if tuned.points > 1 {
            choices.push(choice_line(ranker.name(), &tuned));
        }
        grids.push(grid);
    }
    // The ranker is a choice too: the default ranker's row in-sample, every grid's points
    // cross-validated.
    if let Some(first) = grids
        .iter()
        .position(|g| g.points[0].ranker == Ranker::DEFAULT)
    {
        grids.swap(0, first);
    }
    let any = ScoredGrid::join(grids).cross_validate(&fold);
    print_row("any ranker", &any);
    choices.push(choice_line("any ranker", &any));
    for line in choices {
        println!("{line}");
    }
    print_parts(&collection, encoder.as_deref(), args.alpha, &fold, &adopted)?;
    print_learned_folds(&learned_folds);
    Ok(())
}

/// A ranker's row of the grid: its defaults' figures, cross-validated ones, the grid's points
/// and the best in-sample MRR.
fn print_row(name: &str, tuned: &Tuned) {
    let (d, cv) = (&tuned.defaults, &tuned.cross_validated);
    println!(
        "{:<12} {:>6.3} {:>7.3} {:>8.3}   {:>6.3} {:>7.3} {:>8.3}   {:>6} {:>9.3}",
        name,
        d.precision,
        d.mrr,
        d.ndcg,
        cv.precision,
        cv.mrr,
        cv.ndcg,
        tuned.points,
        tuned.best_scores.mrr
    );
}

/// What each fold chose for a ranker, and what every query chooses.
fn choice_line(name: &str, tuned: &Tuned) -> String {
    format!(
        "{name}: folds chose {}; on every query: {}",
        tuned
            .chosen
            .iter()
            .map(weights_of)
            .collect::<Vec<_>>()
            .join(" | "),
        weights_of(&tuned.best)
    )
}

/// Stores the vector of every judged sentence, as a server's background job does; says so on
/// stderr (the figures on stdout keep their shape).
fn store_vectors(
    collection: &JudgedCollection,
    encoder: &tally_encoder::Encoder,
) -> anyhow::Result<()> {
    let never = std::sync::atomic::AtomicBool::new(false);
    let report = fill_vectors(
        &collection.index,
        encoder,
        FillControl::until(&never),
        |_| {},
    )?;
    eprintln!(
        "stored vectors: {} judged sentences encoded in {:.1} s ({:.0} per second), {} bytes each; \
         the dense and learned rankers read them",
        report.progress.encoded,
        report.seconds,
        report.progress.sentences_per_second,
        SentenceVectors::bytes_per_sentence(encoder.dimension())
    );
    Ok(())
}

/// The grid table's title and column heads.
fn print_grid_header(collection: &JudgedCollection, alpha: f64) {
    println!(
        "{} queries, {} judged sentences; α {} (the defaults' α); {} folds by query",
        collection.queries.len(),
        collection.index.len(),
        alpha,
        FOLDS
    );
    println!(
        "{:<12} {:>23}   {:>23}   {:>6} {:>9}",
        "", "in-sample, defaults", "cross-validated", "grid", "best in-"
    );
    println!(
        "{:<12} {:>6} {:>7} {:>8}   {:>6} {:>7} {:>8}   {:>6} {:>9}",
        "ranker", "P@10", "MRR@10", "NDCG@10", "P@10", "MRR@10", "NDCG@10", "points", "sample MRR"
    );
}

/// `--json`: the chosen ranker's figures with the defaults, in-sample (no grid).
fn print_chosen_ranker(
    collection: &JudgedCollection,
    encoder: Option<&Encoder>,
    ranker: Ranker,
    alpha: f64,
) -> anyhow::Result<()> {
    let settings = SearchSettings {
        ranker,
        alpha,
        ..SearchSettings::default()
    };
    let scores = evaluate(collection, encoder, &settings)?;
    println!(
        "{}",
        serde_json::json!({
            "ranker": ranker.name(),
            "queries": scores.queries,
            "p@10": scores.precision,
            "mrr@10": scores.mrr,
            "ndcg@10": scores.ndcg,
        })
    );
    Ok(())
}

/// Which parts help on held-out queries: each ranker's grid without them, and with each
/// (`adopted`: each ranker's cross-validated figures with its adopted parts, computed already).
fn print_parts(
    collection: &JudgedCollection,
    encoder: Option<&Encoder>,
    alpha: f64,
    fold: &[usize],
    adopted: &[(Ranker, RankerScores)],
) -> anyhow::Result<()> {
    println!("cross-validated P@10 / MRR@10 of each ranker's grid with each part:");
    let parts = [
        ("α, bare weight", Parts::default()),
        (
            "+ soft conditions",
            Parts {
                soft: true,
                balance: false,
            },
        ),
        (
            "+ balance by rarity",
            Parts {
                soft: false,
                balance: true,
            },
        ),
    ];
    for ranker in [Ranker::Qbm25, Ranker::Dense, Ranker::Entity] {
        let defaults = SearchSettings {
            alpha,
            ..SearchSettings::for_ranker(ranker)
        };
        let mut cells = Vec::new();
        for (name, part) in parts {
            let known = adopted
                .iter()
                .find(|(r, _)| *r == ranker && part == Parts::adopted(ranker));
            let cv = match known {
                Some((_, cv)) => cv.clone(),
                None => {
                    let points = grid(&defaults, part);
                    ScoredGrid::run(collection, encoder, points)?
                        .cross_validate(fold)
                        .cross_validated
                }
            };
            cells.push(format!("{name} {:.3} / {:.3}", cv.precision, cv.mrr));
        }
        println!("  {:<7} {}", ranker.name(), cells.join("   "));
    }
    Ok(())
}

/// The `learned` ranker's row: in-sample with the shipped weights (trained on every query, so
/// optimistic), cross-validated with each fold ranked by weights learned on the other folds.
/// Its grid (for choosing among rankers) holds those out-of-fold scores as its one point.
fn learned_tuned(
    collection: &JudgedCollection,
    encoder: &Encoder,
    defaults: SearchSettings,
    fold: &[usize],
) -> anyhow::Result<(
    Tuned,
    ScoredGrid,
    Vec<tally_engine::count::logistic::Logistic>,
)> {
    let pools = learned::pools(collection, encoder, None, defaults.pool)?;
    let (out_of_fold, models) = learned::cross_validate(&pools, fold);
    let shipped = ScoredGrid::run(collection, Some(encoder), vec![defaults.clone()])?;
    let grid = ScoredGrid {
        points: vec![defaults],
        scores: vec![out_of_fold],
    };
    let mut tuned = grid.cross_validate(fold);
    tuned.defaults = RankerScores::mean(Ranker::Learned, &shipped.scores[0]);
    tuned.best_scores = tuned.defaults.clone();
    Ok((tuned, grid, models))
}

/// Each fold's learned weights, per unit of each feature (they should agree).
fn print_learned_folds(models: &[tally_engine::count::logistic::Logistic]) {
    if models.is_empty() {
        return;
    }
    println!(
        "learned: pairwise logistic over the dense pool; features {}; weights per fold:",
        learned::FEATURES.join(", ")
    );
    for (i, model) in models.iter().enumerate() {
        let w = learned::weights_of(model, String::new());
        let shown: Vec<String> = w.weights.iter().map(|w| format!("{w:.2}")).collect();
        println!("  fold {}: {}", i + 1, shown.join(" "));
    }
}

/// `tally train search-ranker`: the `learned` ranker's weights on every judged query, written
/// where the engine ships them.
pub(crate) fn train_ranker(args: &TrainSearchRankerArgs) -> anyhow::Result<()> {
    let collection = JudgedCollection::load(&args.judged)?;
    let (encoder, _) = encoder_of(&args.models)?;
    let pool = SearchSettings::for_ranker(Ranker::Learned).pool;
    let token_vectors = match &args.token_vectors {
        Some(path) => Some(TokenVectors::from_bytes(
            &std::fs::read(path)
                .with_context(|| format!("{} could not be read", path.display()))?,
            encoder.tokenizer(),
        )?),
        None => None,
    };
    let pools = learned::pools(&collection, &encoder, token_vectors.as_ref(), pool)?;
    if args.generated > 0 {
        let shipped = learned::LearnedWeights::shipped();
        let weights = generated_ranker::train(args, args.generated, &encoder, &pools, shipped)?;
        return write_weights(&weights, &args.out);
    }
    let all: Vec<&learned::QueryPool> = pools.iter().collect();
    let model = learned::train(&all);
    let name = args.judged.file_name().map_or_else(
        || args.judged.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let weights = learned::weights_of(
        &model,
        format!(
            "{name}: all {} judged queries, the dense pool ({pool} by qbm25 and {} meeting every \
             condition in other words; tally train search-ranker)",
            collection.queries.len(),
            tally_engine::search::rankers::WITHOUT_WORDS
        ),
    );
    let texts: Vec<&str> = collection
        .queries
        .iter()
        .map(|q| q.query.as_str())
        .collect();
    let fold = folds(&texts);
    let (out_of_fold, _) = learned::cross_validate(&pools, &fold);
    let cv = RankerScores::mean(Ranker::Learned, &out_of_fold);
    // Candidate features, each measured by the same cross-validation (not shipped).
    let [margin, unit, token_cosine] = [0, 1, 2].map(learned::candidate_column);
    let with_shipped = |extra: &[usize]| -> Vec<usize> {
        extra.iter().chain(&learned::SHIPPED).copied().collect()
    };
    let mut sets = vec![
        with_shipped(&[margin]),
        with_shipped(&[unit]),
        with_shipped(&[margin, unit]),
    ];
    if token_vectors.is_some() {
        sets.push(with_shipped(&[token_cosine]));
        // The token vectors' cosine in place of the encoder's (column 0).
        let mut instead = learned::SHIPPED.to_vec();
        instead[0] = token_cosine;
        sets.push(instead);
    }
    for columns in sets {
        let (per_query, _) = learned::cross_validate_with(&pools, &fold, &columns);
        let with = RankerScores::mean(Ranker::Learned, &per_query);
        let names: Vec<&str> = columns.iter().map(|&c| learned::column_name(c)).collect();
        println!(
            "  {}: cross-validated P@10 {:.3}, MRR@10 {:.3}, NDCG@10 {:.3}",
            names.join(" + "),
            with.precision,
            with.mrr,
            with.ndcg
        );
    }
    write_weights(&weights, &args.out)?;
    println!(
        "cross-validated ({FOLDS} folds by query, each trained without its queries): P@10 {:.3}, \
         MRR@10 {:.3}, NDCG@10 {:.3}",
        cv.precision, cv.mrr, cv.ndcg
    );
    Ok(())
}

/// Writes the learned ranker's weights to `out` and says so.
fn write_weights(weights: &learned::LearnedWeights, out: &Path) -> anyhow::Result<()> {
    std::fs::write(out, serde_json::to_string_pretty(weights)? + "\n")
        .with_context(|| format!("{} could not be written", out.display()))?;
    println!(
        "weights ({}): {} → {}",
        learned::FEATURES.join(", "),
        weights
            .weights
            .iter()
            .map(|w| format!("{w:.3}"))
            .collect::<Vec<_>>()
            .join(" "),
        out.display()
    );
    Ok(())
}

/// The weights a grid point sets.
fn weights_of(settings: &SearchSettings) -> String {
    let mut text = format!(
        "{} α {} bare {} soft {} balance {}",
        settings.ranker.name(),
        settings.alpha,
        settings.bare_weight,
        settings.soft,
        settings.balance
    );
    if settings.ranker == Ranker::Dense {
        text.push_str(&format!(
            " cos {} text {}",
            settings.dense.cosine, settings.dense.text
        ));
    }
    text
}

/// Megabytes of the files in `dir` (an index directory) and its folders.
pub(crate) fn directory_megabytes(dir: &Path) -> f64 {
    fn bytes(dir: &Path) -> u64 {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| Some((e.path(), e.metadata().ok()?)))
                .map(|(path, m)| if m.is_dir() { bytes(&path) } else { m.len() })
                .sum()
        })
    }
    bytes(dir) as f64 / 1e6
}
