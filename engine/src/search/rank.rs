//! A quantity search: parse the query → retrieve candidates (the ranker's first stage) → score
//! the hits (the ranker's second stage) → present them in the order asked for. The rankers are in
//! [`super::rankers`], one file each.

use std::time::Instant;

use super::present::{hit_of, merge_duplicates, sort_by_score, sort_hits, view_of};
use super::rankers::{ranker_for, QueryRead};
use super::results::{Hit, SearchResults, SearchTimings};
use super::settings::{SearchSettings, SortOrder};
use super::store::{FirstStageQuery, SentenceStore};
use crate::error::EngineError;
use tally_documents::sentence_store::conditions::Test;
use tally_encoder::Encoder;
use tally_text::quantity::{parse_query, ParsedQuery};

/// The note of a search whose results all miss a condition.
pub const NO_RESULT_MEETS: &str =
    "No result meets every condition: these are the nearest, ranked as if they did.";

/// The largest k a search accepts; more is capped with a note, not an error.
pub const MAX_K: usize = 1000;

/// Runs a quantity search over every corpus's sentences.
pub fn search(
    index: &dyn SentenceStore,
    encoder: Option<&Encoder>,
    query: &str,
    settings: &SearchSettings,
) -> Result<SearchResults, EngineError> {
    search_in(index, encoder, query, settings, None)
}

/// Runs a quantity search over the sentences of `corpus` (`None`: every corpus), so that a
/// person asking about their documents gets their documents (issue 87).
pub fn search_in(
    index: &dyn SentenceStore,
    encoder: Option<&Encoder>,
    query: &str,
    settings: &SearchSettings,
    corpus: Option<&str>,
) -> Result<SearchResults, EngineError> {
    let started = Instant::now();
    if query.trim().is_empty() {
        return Err(EngineError::EmptyQuery);
    }
    if !(0.0..=tally_types::search::MAX_ALPHA).contains(&settings.alpha) {
        return Err(EngineError::BadAlpha(settings.alpha));
    }
    let ranker = ranker_for(settings, encoder, index.vectors())?;
    let soft = if ranker.soft_conditions() {
        settings.soft
    } else {
        0.0
    };
    let mut notes = Vec::new();
    let parsed = parse_query(query);
    notes.extend(parsed.problems.iter().map(ToString::to_string));
    if parsed.constraints.is_empty() {
        notes.push("No quantity in the query: ranked by text only.".into());
    }
    let k = settings.k.clamp(1, MAX_K);
    if settings.k > MAX_K {
        notes.push(format!("k was capped at {MAX_K}."));
    }
    let tests: Vec<Test> = parsed
        .constraints
        .iter()
        .map(|c| Test::new(c, settings.bare_weight).with_softness(soft))
        .collect();
    let words = search_words(&parsed);
    let parse_ms = ms(started);

    let retrieve_started = Instant::now();
    let n = if ranker.reranks() || settings.sort != SortOrder::Relevance {
        settings.pool.clamp(k, MAX_K)
    } else {
        k
    };
    // The word statistics are only looked up when α depends on them.
    let alpha = if settings.balance == 0.0 {
        settings.alpha
    } else {
        balanced_alpha(settings, index.rarity(&words))
    };
    let retrieved = index.first_stage(&FirstStageQuery {
        words: &words,
        tests: &tests,
        n,
        alpha,
        stage: ranker.first_stage(),
        corpus,
    })?;
    let retrieve_ms = ms(retrieve_started);

    let rerank_started = Instant::now();
    let mut hits: Vec<Hit> = retrieved
        .candidates
        .into_iter()
        .map(|c| hit_of(&parsed, &tests, c.sentence, c.bm25, retrieved.max_bm25))
        .collect();
    let asked = QueryRead {
        parsed: &parsed,
        words: &words,
        alpha,
        soft: soft > 0.0,
    };
    ranker.score(&asked, &mut hits)?;
    sort_by_score(&mut hits);
    let mut hits = merge_duplicates(hits);
    let entities = ranker.entities(&hits, &asked, k);
    sort_hits(&mut hits, settings.sort);
    hits.truncate(k);
    // Said, so that nearest results are not taken for answers.
    if !tests.is_empty() && !hits.is_empty() && !hits.iter().any(|h| h.meets_all()) {
        notes.push(NO_RESULT_MEETS.to_string());
    }
    for (i, hit) in hits.iter_mut().enumerate() {
        hit.rank = i + 1;
    }
    let rerank_ms = ms(rerank_started);
    Ok(SearchResults {
        query: query.to_string(),
        understood: view_of(query, &parsed),
        ranker: settings.ranker,
        sort: settings.sort,
        alpha,
        k,
        notes,
        hits,
        entities,
        timings: SearchTimings {
            parse_ms,
            retrieve_ms,
            rerank_ms,
            total_ms: ms(started),
        },
    })
}

/// α for a query whose words have `rarity` (see [`SearchSettings::balance`]).
fn balanced_alpha(settings: &SearchSettings, rarity: f64) -> f64 {
    settings.alpha * (1.0 + settings.balance * (0.5 - rarity)).max(0.0)
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// The words searched as text: the query's terms, and the words of counted units ("users",
/// "grand slams", "megapixel camera"), which name what is counted.
pub fn search_words(parsed: &ParsedQuery) -> Vec<String> {
    let mut words = parsed.terms.clone();
    for constraint in &parsed.constraints {
        let counted = constraint
            .unit
            .as_ref()
            .filter(|u| u.unit_id.is_none() || u.dimension.as_deref() == Some("count"));
        if let Some(unit) = counted {
            words.extend(unit.surface.split_whitespace().map(str::to_string));
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_documents::sentence_store::index::Layout;
    use tally_documents::sentence_store::{Document, SentenceIndex};
    use tally_types::Ranker;

    const FIXTURE: &[&str] = &[
        "The Alpha Arena has a capacity of 95,000 people.",
        "The Beta Arena has a capacity of 40,000 people.",
        "The Gamma Arena, opened in 1990, has a capacity of 82,500.",
        "The coastal race covers 26.2 miles along the bay.",
        "The city race covers 5 km through the park.",
        "The Orion phone costs $250 and has 256 GB of storage.",
        "The Vega phone costs $250 and has 64 GB of storage.",
        "The Lyra phone costs $450 and has 512 GB of storage.",
        "The Nova phone costs €250 and has 128 GB of storage.",
        "The travel bag weighs 7 kg when empty.",
        "The camping bag weighs 12 kg when empty.",
        "The shopping bag weighs 0.4 kg when empty.",
    ];

    fn fixture_documents() -> Vec<Document> {
        FIXTURE
            .iter()
            .enumerate()
            .map(|(i, text)| Document {
                id: format!("f{i}"),
                text: text.to_string(),
                source: "fixture".into(),
                entity: None,
            })
            .collect()
    }

    fn fixture() -> SentenceIndex {
        let index = SentenceIndex::in_memory().unwrap();
        index.add(&fixture_documents()).unwrap();
        index
    }

    fn run(index: &SentenceIndex, query: &str, ranker: Ranker) -> SearchResults {
        let settings = SearchSettings {
            ranker,
            ..SearchSettings::default()
        };
        search(index, None, query, &settings).unwrap()
    }

    fn texts(results: &SearchResults) -> Vec<&str> {
        results.hits.iter().map(|h| h.text.as_str()).collect()
    }

    /// The hits' texts with their scores (rounded to 1e-6), best first, ties in text order.
    fn by_score(results: &SearchResults) -> Vec<(i64, &str)> {
        let mut hits: Vec<(i64, &str)> = results
            .hits
            .iter()
            .map(|h| (-(h.score * 1e6).round() as i64, h.text.as_str()))
            .collect();
        hits.sort_unstable();
        hits
    }

    /// Each hit as (sentence id, score, whether it meets every condition).
    fn ranking(results: &SearchResults) -> Vec<(String, f64, bool)> {
        results
            .hits
            .iter()
            .map(|h| (h.id.clone(), h.score, h.meets_all()))
            .collect()
    }

    /// Indexed comparison keys change which sentences are visited, never the results: on the
    /// Qsearch dev file's sentences and queries (and condition-only queries), every ranker that
    /// reads conditions in the index ranks the same sentences with the same scores as an index
    /// without keys, which checks every text match as before.
    #[test]
    fn indexed_keys_leave_every_ranking_as_it_was() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
        let path = data.join(tally_documents::corpus::catalogue::QSEARCH.path);
        let text =
            std::fs::read_to_string(&path).expect("the Qsearch dev file is in ../shared/data");
        let judged = tally_documents::corpus::sentences::parse_judged(&text, &path).unwrap();
        let documents = tally_documents::corpus::sentences::parse_documents(
            &text,
            tally_documents::corpus::Format::Qsearch,
            "judged",
            &path,
        )
        .unwrap();
        let without_keys = SentenceIndex::in_memory_with(Layout::Plain).unwrap();
        without_keys.add_unsplit(&documents).unwrap();
        let keyed_index = SentenceIndex::in_memory().unwrap();
        keyed_index.add_unsplit(&documents).unwrap();
        let mut queries: Vec<String> = judged.iter().map(|q| q.query.clone()).collect();
        queries.extend(
            [
                "more than 100 km",
                "between 1 and 5 billion dollars",
                "not above 10 s",
            ]
            .map(String::from),
        );
        let mut compared = 0;
        for query in &queries {
            for ranker in [Ranker::Qbm25, Ranker::Bm25Filter, Ranker::Entity] {
                let keyed = run(&keyed_index, query, ranker);
                let reference = run(&without_keys, query, ranker);
                assert_eq!(ranking(&keyed), ranking(&reference), "{query} ({ranker:?})");
                compared += keyed.hits.len();
            }
        }
        assert!(compared > 1000, "only {compared} hits compared");
    }

    /// Every condition a query can state, across the units of one dimension: the sentences
    /// bm25-filter returns (those that meet the condition) are exactly the ones whose length
    /// does, with and without indexed keys. Lengths in metres: 800, 1,500, 3,200, 5,000,
    /// 8,046.7 and 12,000.
    #[test]
    fn every_condition_selects_the_same_sentences_across_units_with_and_without_keys() {
        let lengths = [
            ("r1", "The first trail is 800 m long."),
            ("r2", "The second trail is 1.5 km long."),
            ("r3", "The third trail is 3,200 metres long."),
            ("r4", "The fourth trail is 5 kilometres long."),
            ("r5", "The fifth trail is 5 miles long."),
            ("r6", "The sixth trail is 12 km long."),
            ("n1", "The seventh trail opened in 1998 and is popular."),
        ];
        let documents: Vec<Document> = lengths
            .iter()
            .map(|(id, text)| Document {
                id: id.to_string(),
                text: text.to_string(),
                source: "trails".into(),
                entity: None,
            })
            .collect();
        let ranged = SentenceIndex::in_memory_with(Layout::Ranges).unwrap();
        let keyed = SentenceIndex::in_memory_with(Layout::Keys).unwrap();
        let unkeyed = SentenceIndex::in_memory_with(Layout::Plain).unwrap();
        for index in [&ranged, &keyed, &unkeyed] {
            index.add_unsplit(&documents).unwrap();
        }
        let cases: &[(&str, &[&str])] = &[
            ("trails longer than 5 km", &["r5", "r6"]),
            ("trails of at least 5,000 m", &["r4", "r5", "r6"]),
            // 2 miles are 3,218.7 m.
            ("trails shorter than 2 miles", &["r1", "r2", "r3"]),
            ("trails of at most 1.5 km", &["r1", "r2"]),
            ("trails between 1 and 4 km", &["r2", "r3"]),
            ("trails of 5 km", &["r4"]),
            ("trails not 5 km", &["r1", "r2", "r3", "r5", "r6"]),
            ("more than 3 km", &["r3", "r4", "r5", "r6"]),
            // The ends: strict and inclusive bounds at a value a sentence has (5 km), and an
            // exact number met within ±5% (3,200 m is 3.2 km; 8,046.7 m is 5 miles).
            ("trails longer than 5000 m", &["r5", "r6"]),
            ("trails of at most 5 km", &["r1", "r2", "r3", "r4"]),
            ("trails of 3.1 km", &["r3"]),
            ("trails of 8 km", &["r5"]),
            ("trails not between 1 and 5 km", &["r1", "r5", "r6"]),
        ];
        for &(query, expected) in cases {
            for index in [&ranged, &keyed, &unkeyed] {
                let mut ids: Vec<String> = run(index, query, Ranker::Bm25Filter)
                    .hits
                    .iter()
                    .map(|h| h.id.clone())
                    .collect();
                ids.sort();
                assert_eq!(ids, expected, "{query}");
            }
        }
    }

    #[test]
    fn an_index_written_before_keys_opens_and_answers_as_a_new_one() {
        let dir = tempfile::tempdir().unwrap();
        let documents = fixture_documents();
        {
            let old = SentenceIndex::open_or_create_with(dir.path(), Layout::Plain).unwrap();
            old.add(&documents).unwrap();
        }
        let reopened = SentenceIndex::open_or_create(dir.path()).unwrap();
        assert_eq!(reopened.len(), FIXTURE.len() as u64);
        let new = fixture();
        for query in [
            "arenas with a capacity of more than 80000 people",
            "phones under $300 with at least 128 GB",
            "more than 5 kg",
        ] {
            let (old, new) = (
                run(&reopened, query, Ranker::Qbm25),
                run(&new, query, Ranker::Qbm25),
            );
            assert!(!new.hits.is_empty(), "{query}");
            // Hits of equal score come in index order, which differs between the two indexes
            // (it failed now and then): compare each score's sentences as a set.
            assert_eq!(by_score(&old), by_score(&new), "{query}");
        }
        // It still takes new sentences.
        reopened.add(&documents[..1]).unwrap();
        assert_eq!(reopened.len(), FIXTURE.len() as u64 + 1);
    }

    #[test]
    fn a_sentence_held_twice_is_one_hit_listing_its_other_sources() {
        let index = fixture();
        let copy = |id: &str, text: &str, source: &str| Document {
            id: id.into(),
            text: text.into(),
            source: source.into(),
            entity: None,
        };
        index
            .add(&[
                copy(
                    "w1",
                    "The Orion phone costs $250 and has 256 GB of storage.",
                    "web",
                ),
                copy(
                    "w2",
                    "the Orion phone costs  $250 and has 256 GB of storage.",
                    "web",
                ),
                copy(
                    "n1",
                    "The Orion phone costs $250 and has 256 GB of storage.",
                    "news",
                ),
            ])
            .unwrap();
        for ranker in [Ranker::Bm25, Ranker::Qbm25, Ranker::Bm25Filter] {
            let results = run(&index, "orion phone under $300", ranker);
            let orion: Vec<_> = results
                .hits
                .iter()
                .filter(|h| h.text.to_lowercase().contains("orion"))
                .collect();
            assert_eq!(orion.len(), 1, "{ranker:?}: {:?}", texts(&results));
            let mut sources = vec![orion[0].source.clone()];
            sources.extend(orion[0].also_in.iter().cloned());
            sources.sort();
            assert_eq!(sources, ["fixture", "news", "web"], "{ranker:?}");
            let ranks: Vec<usize> = results.hits.iter().map(|h| h.rank).collect();
            assert_eq!(ranks, (1..=results.hits.len()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn soft_conditions_rank_a_near_miss_above_a_far_one_and_below_every_meeting_sentence() {
        let index = fixture();
        index
            .add(&[Document {
                id: "near".into(),
                text: "The harbour arena has a capacity of 78,000 people.".into(),
                source: "fixture".into(),
                entity: None,
            }])
            .unwrap();
        let query = "arena with a capacity of more than 80000 people";
        let rank_of = |results: &SearchResults, needle: &str| {
            results.hits.iter().position(|h| h.text.contains(needle))
        };
        let soft = search(
            &index,
            None,
            query,
            &SearchSettings {
                soft: 0.5,
                ..SearchSettings::default()
            },
        )
        .unwrap();
        let near = rank_of(&soft, "78,000").unwrap();
        let far = rank_of(&soft, "40,000").unwrap();
        assert!(near < far, "{:?}", texts(&soft));
        assert!(soft.hits[..near].iter().all(|h| h.meets_all()));
        assert!(!soft.hits[near].meets_all() && soft.hits[near].quantity_score > 0.0);
        // The strict reading gives the near miss nothing.
        let strict = search(
            &index,
            None,
            query,
            &SearchSettings {
                soft: 0.0,
                ..SearchSettings::default()
            },
        )
        .unwrap();
        let near = rank_of(&strict, "78,000").unwrap();
        assert_eq!(strict.hits[near].quantity_score, 0.0);
        // A filter stays a filter.
        let filtered = search(
            &index,
            None,
            query,
            &SearchSettings {
                soft: 0.5,
                ..SearchSettings::for_ranker(Ranker::Bm25Filter)
            },
        )
        .unwrap();
        assert!(filtered.hits.iter().all(|h| h.meets_all()));
    }

    #[test]
    fn with_soft_conditions_meeting_more_constraints_ranks_higher() {
        let index = SentenceIndex::in_memory().unwrap();
        let phone = |id: &str, text: &str| Document {
            id: id.into(),
            text: text.into(),
            source: "fixture".into(),
            entity: None,
        };
        index
            .add(&[
                phone(
                    "none",
                    "The Kappa phone costs $900, has 16 GB and a 2000 mAh battery.",
                ),
                phone(
                    "one",
                    "The Delta phone costs $250, has 16 GB and a 2000 mAh battery.",
                ),
                phone(
                    "two",
                    "The Sigma phone costs $250, has 16 GB and a 5000 mAh battery.",
                ),
                phone(
                    "all",
                    "The Omega phone costs $250, has 256 GB and a 5000 mAh battery.",
                ),
            ])
            .unwrap();
        let query = "phone under $300 with at least 128 GB and more than 4000 mAh";
        let ids = |soft: f64| -> Vec<String> {
            let settings = SearchSettings {
                soft,
                ..SearchSettings::default()
            };
            let results = search(&index, None, query, &settings).unwrap();
            assert_eq!(results.understood.constraints.len(), 3, "{results:?}");
            // Sentence ids are the document's with the sentence's number.
            results
                .hits
                .iter()
                .map(|h| h.id.trim_end_matches("#0").to_string())
                .collect()
        };
        assert_eq!(ids(0.25), ["all", "two", "one", "none"]);
        // Read strictly, only the sentence meeting all three gains from its quantities.
        assert_eq!(ids(0.0)[0], "all");
    }

    #[test]
    fn balance_lowers_alpha_for_queries_with_rare_words_and_zero_keeps_it() {
        let index = fixture();
        let searcher = index.searcher();
        let terms = |text: &str| {
            let words: Vec<String> = text.split(' ').map(String::from).collect();
            index.terms(&words)
        };
        let rare = index.rarity(&searcher, &terms("orion lyra"));
        let common = index.rarity(&searcher, &terms("phone costs storage"));
        assert!(
            rare > common && (0.0..=1.0).contains(&rare),
            "{rare} {common}"
        );
        let balanced = SearchSettings {
            balance: 1.0,
            ..SearchSettings::default()
        };
        assert!(balanced_alpha(&balanced, rare) < balanced_alpha(&balanced, common));
        let plain = SearchSettings::default();
        assert_eq!(balanced_alpha(&plain, rare), plain.alpha);
        assert_eq!(index.rarity(&searcher, &[]), 0.0);
    }

    #[test]
    fn a_search_that_no_result_meets_says_so() {
        let index = fixture();
        let met = run(
            &index,
            "arena with a capacity of more than 80000 people",
            Ranker::Qbm25,
        );
        assert!(
            !met.notes.iter().any(|n| n == NO_RESULT_MEETS),
            "{:?}",
            met.notes
        );
        let none = run(&index, "arena wider than 900 km", Ranker::Qbm25);
        assert!(!none.hits.is_empty());
        assert!(
            none.notes.iter().any(|n| n == NO_RESULT_MEETS),
            "{:?}",
            none.notes
        );
    }

    #[test]
    fn qbm25_puts_sentences_meeting_the_condition_first_and_bm25_does_not_care() {
        let index = fixture();
        let query = "arena with a capacity of more than 80000 people";
        let q = run(&index, query, Ranker::Qbm25);
        assert!(q.hits[0].meets_all() && q.hits[1].meets_all(), "{q:#?}");
        assert!(!q.hits[2].meets_all());
        assert!(q.hits[2].text.contains("40,000"));
        let filtered = run(&index, query, Ranker::Bm25Filter);
        assert_eq!(filtered.hits.len(), 2, "{:?}", texts(&filtered));
        let bm25 = run(&index, query, Ranker::Bm25);
        assert_eq!(bm25.hits.len(), 3);
    }

    #[test]
    fn units_convert_across_a_dimension_and_values_are_shown_in_the_query_unit() {
        let index = fixture();
        let q = run(&index, "races longer than 40 km", Ranker::Qbm25);
        let top = &q.hits[0];
        assert!(top.text.contains("26.2 miles"), "{q:#?}");
        let m = &top.matches[0];
        assert!((m.converted - 42.16).abs() < 0.05, "{m:?}");
        assert_eq!(m.query_unit.as_deref(), Some("kilometre"));
        assert_eq!(
            &top.text.chars().collect::<Vec<_>>()[m.start..m.end]
                .iter()
                .collect::<String>(),
            "26.2 miles"
        );
        let filtered = run(&index, "races longer than 40 km", Ranker::Bm25Filter);
        assert_eq!(texts(&filtered), vec![top.text.as_str()]);
    }

    #[test]
    fn ranges_and_negation() {
        let index = fixture();
        let range = run(
            &index,
            "bags weighing between 5 and 10 kg",
            Ranker::Bm25Filter,
        );
        assert_eq!(
            texts(&range),
            vec!["The travel bag weighs 7 kg when empty."]
        );
        let not = run(&index, "bags other than 7 kg", Ranker::Bm25Filter);
        let found = texts(&not);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found.iter().all(|t| !t.contains(" 7 kg")));
    }

    #[test]
    fn several_constraints_must_all_hold_and_each_is_reported() {
        let index = fixture();
        let q = run(
            &index,
            "phones under $300 with at least 128 GB",
            Ranker::Qbm25,
        );
        assert_eq!(q.understood.constraints.len(), 2);
        let top = &q.hits[0];
        assert!(top.text.contains("Orion"), "{q:#?}");
        assert_eq!(top.meets, vec![true, true]);
        // Euros never become dollars; 64 GB is too little; $450 too much.
        let vega = q.hits.iter().find(|h| h.text.contains("Vega")).unwrap();
        assert_eq!(vega.meets, vec![true, false]);
        let nova = q.hits.iter().find(|h| h.text.contains("Nova")).unwrap();
        assert_eq!(nova.meets, vec![false, true]);
        let filtered = run(
            &index,
            "phones under $300 with at least 128 GB",
            Ranker::Bm25Filter,
        );
        assert_eq!(filtered.hits.len(), 1);
    }

    #[test]
    fn results_sort_by_value_in_the_query_unit() {
        let index = fixture();
        let settings = SearchSettings {
            sort: SortOrder::ValueAscending,
            ..SearchSettings::default()
        };
        let q = search(&index, None, "phones with at least 100 GB", &settings).unwrap();
        let values: Vec<f64> = q
            .hits
            .iter()
            .filter_map(|h| h.matches.first().map(|m| m.converted))
            .collect();
        assert_eq!(values, vec![128.0, 256.0, 512.0]);
        let settings = SearchSettings {
            sort: SortOrder::ValueDescending,
            ..settings
        };
        let q = search(&index, None, "phones with at least 100 GB", &settings).unwrap();
        assert_eq!(q.hits[0].matches[0].converted, 512.0);
    }

    #[test]
    fn entity_mode_answers_with_entities_and_evidence() {
        let index = fixture();
        let q = run(
            &index,
            "arena with a capacity of more than 80000 people",
            Ranker::Entity,
        );
        let names: Vec<&str> = q.entities.iter().map(|e| e.entity.as_str()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names.contains(&"Alpha Arena"), "{names:?}");
        assert!(q.entities.iter().all(|e| e.evidence.meets_all()));
    }

    #[test]
    fn odd_queries_get_notes_not_errors() {
        let index = fixture();
        let plain = run(&index, "arena", Ranker::Qbm25);
        assert!(
            plain.notes.iter().any(|n| n.contains("text only")),
            "{:?}",
            plain.notes
        );
        assert!(!plain.hits.is_empty());
        let contradiction = run(&index, "bags more than 5 and less than 3 kg", Ranker::Qbm25);
        assert!(contradiction
            .notes
            .iter()
            .any(|n| n.contains("cannot both hold")));
        let settings = SearchSettings {
            k: 1_000_000,
            ..SearchSettings::default()
        };
        let capped = search(&index, None, "bags heavier than 1 kg", &settings).unwrap();
        assert_eq!(capped.k, MAX_K);
        assert!(capped.notes.iter().any(|n| n.contains("capped")));
        assert!(matches!(
            search(&index, None, "  ", &SearchSettings::default()),
            Err(EngineError::EmptyQuery)
        ));
        let dense = SearchSettings {
            ranker: Ranker::Dense,
            ..SearchSettings::default()
        };
        assert!(matches!(
            search(&index, None, "bags", &dense),
            Err(EngineError::NeedsEncoder(_))
        ));
    }

    #[test]
    fn a_search_in_one_corpus_finds_only_its_sentences() {
        let index = SentenceIndex::in_memory().unwrap();
        index
            .add_unsplit_in(
                "clubs",
                &Document::numbered(&["The rowing club keeps 14 boats."]),
            )
            .unwrap();
        index
            .add_unsplit_in(
                "towns",
                &Document::numbered(&["The harbour holds 40 boats."]),
            )
            .unwrap();
        for ranker in [Ranker::Bm25, Ranker::Qbm25] {
            let settings = SearchSettings {
                ranker,
                ..SearchSettings::default()
            };
            let query = "boats more than 10";
            let everywhere = search(&index, None, query, &settings).unwrap();
            assert_eq!(everywhere.hits.len(), 2, "{ranker:?}");
            let clubs = search_in(&index, None, query, &settings, Some("clubs")).unwrap();
            assert_eq!(
                texts(&clubs),
                ["The rowing club keeps 14 boats."],
                "{ranker:?}"
            );
        }
    }
}
