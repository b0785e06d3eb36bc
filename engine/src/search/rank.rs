//! The rankers and the search itself.
//!
//! - `bm25`: text only.
//! - `bm25-filter`: BM25 over the sentences that meet every constraint (the others are dropped).
//! - `qbm25` (QFinder): BM25 / max BM25 + α · 1[meets every constraint] · qs. Computed exactly
//!   with two index queries: BM25 top-k over all sentences (which also gives max BM25), and the
//!   top-k of the formula among the sentences that meet the constraints (a fast-field filter
//!   inside tantivy, scored from the packed entries); the merge of both is the exact top-k.
//! - `dense`: the qbm25 pool re-ranked by MiniLM cosine(query, sentence) + α · 1[meets] · qs (the
//!   QColBERT idea with Tally's encoder).
//! - `entity` (Qsearch): quantity facts (entity, quantity, context) from the pool; facts that fail
//!   the condition are dropped; entities ranked by their best fact's context match (the encoder's
//!   cosine, or normalised BM25 without one) + α · qs, each with its evidence sentence.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;
pub use tally_types::{Ranker, SortOrder};

use serde::{Deserialize, Serialize};
use tantivy::collector::TopDocs;
use tantivy::query::Query;
use tantivy::{DocAddress, DocId, Score, SegmentReader};

use super::conditions::{self, Test};
use super::filter::{ConditionFilter, MAX_ENTRIES};
use super::index::{SearchIndexError, SentenceIndex, StoredSentence, PACKED_FIELD};
use super::keys::{self, Entry};
use super::results::{
    ConstraintView, EntityHit, Hit, QuantityMatch, QueryView, SearchResults, SearchTimings,
};
use crate::encoder::cosine;
use crate::quantity::{parse_query, Constraint, ParsedQuery};
use crate::text::names::name_spans;
use crate::text::offsets::char_offset;
use crate::{Encoder, EncoderError};

/// The largest k a search accepts; more is capped with a note, not an error.
pub const MAX_K: usize = 1000;
/// Dense score = 2 · cosine + 0.2 · normalised BM25 + α · qs: weights chosen by a grid search on
/// the Qsearch dev queries (cosine alone, or with BM25 at equal weight, ranked worse).
const DENSE_COSINE_WEIGHT: f64 = 2.0;
const DENSE_TEXT_WEIGHT: f64 = 0.2;

/// Settings of one search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchSettings {
    pub ranker: Ranker,
    /// Weight of the quantity score (the paper uses 1, the authors' code 2; 1 ranked best on
    /// the dev queries).
    pub alpha: f64,
    /// Hits returned.
    pub k: usize,
    pub sort: SortOrder,
    /// Candidates re-ranked by `dense` and `entity`, and sorted by value.
    pub pool: usize,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            ranker: Ranker::Qbm25,
            alpha: 1.0,
            k: 10,
            sort: SortOrder::Relevance,
            pool: 100,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Index(#[from] SearchIndexError),
    #[error("search failed: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error(transparent)]
    Encoder(#[from] EncoderError),
    #[error("the {0} ranker needs the sentence encoder, which is not loaded")]
    NeedsEncoder(&'static str),
    #[error("the query is empty")]
    EmptyQuery,
    #[error("alpha must be a finite number ≥ 0, not {0}")]
    BadAlpha(f64),
}

/// A retrieved sentence before presentation.
struct Candidate {
    address: DocAddress,
    bm25: f64,
    /// The ranker's score before re-ranking (BM25, or the qbm25 formula).
    first_stage: f64,
}

/// Runs a quantity search.
pub fn search(
    index: &SentenceIndex,
    encoder: Option<&Encoder>,
    query: &str,
    settings: &SearchSettings,
) -> Result<SearchResults, SearchError> {
    let started = Instant::now();
    if query.trim().is_empty() {
        return Err(SearchError::EmptyQuery);
    }
    if !settings.alpha.is_finite() || settings.alpha < 0.0 {
        return Err(SearchError::BadAlpha(settings.alpha));
    }
    if settings.ranker.needs_encoder() && encoder.is_none() {
        return Err(SearchError::NeedsEncoder(settings.ranker.name()));
    }
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
    let tests: Vec<Test> = parsed.constraints.iter().map(Test::new).collect();
    let words = search_words(&parsed);
    let parse_ms = ms(started);

    let retrieve_started = Instant::now();
    let wide = settings.ranker == Ranker::Dense
        || settings.ranker == Ranker::Entity
        || settings.sort != SortOrder::Relevance;
    let n = if wide {
        settings.pool.clamp(k, MAX_K)
    } else {
        k
    };
    let searcher = index.searcher();
    let text_query = index.text_query(&words);
    let text_top = match &text_query {
        Some(q) => searcher.search(q, &TopDocs::with_limit(n).order_by_score())?,
        None => Vec::new(),
    };
    let max_bm25 = text_top
        .first()
        .map_or(1.0, |(s, _)| f64::from(*s).max(f64::MIN_POSITIVE));
    let mut candidates: Vec<Candidate> = Vec::new();
    match settings.ranker {
        _ if tests.is_empty() => push_all(&mut candidates, &text_top),
        Ranker::Bm25 => push_all(&mut candidates, &text_top),
        Ranker::Bm25Filter => {
            let top = meeting_top(&searcher, text_query.as_deref(), &tests, n, |bm25, _| bm25)?;
            push_all_scored(&mut candidates, &top);
        }
        Ranker::Qbm25 | Ranker::Dense | Ranker::Entity => {
            let alpha = settings.alpha;
            let top = meeting_top(
                &searcher,
                text_query.as_deref(),
                &tests,
                n,
                move |bm25, qs| bm25 / max_bm25 + alpha * qs,
            )?;
            push_all_scored(&mut candidates, &top);
            push_all(&mut candidates, &text_top);
        }
    }
    let retrieve_ms = ms(retrieve_started);

    let rerank_started = Instant::now();
    let alpha = settings.alpha;
    // First-stage scores from the fast field alone, so that only the sentences shown (or
    // re-ranked) are read from the document store.
    let mut seen = std::collections::HashSet::new();
    candidates.retain(|c| seen.insert(c.address));
    if settings.ranker != Ranker::Bm25 && settings.ranker != Ranker::Bm25Filter {
        let mut columns: HashMap<u32, Option<tantivy::columnar::Column<u64>>> = HashMap::new();
        for c in &mut candidates {
            let column = columns.entry(c.address.segment_ord).or_insert_with(|| {
                searcher
                    .segment_reader(c.address.segment_ord)
                    .fast_fields()
                    .u64(PACKED_FIELD)
                    .ok()
            });
            let entries: Vec<Entry> = column
                .as_ref()
                .map(|col| {
                    col.values_for_doc(c.address.doc_id)
                        .map(keys::unpack)
                        .collect()
                })
                .unwrap_or_default();
            let quantity = conditions::meeting_score(&tests, &entries).unwrap_or(0.0);
            c.first_stage = c.bm25 / max_bm25 + alpha * quantity;
        }
    }
    candidates.sort_by(|a, b| b.first_stage.total_cmp(&a.first_stage));
    candidates.truncate(n);
    let mut hits = Vec::with_capacity(candidates.len());
    for candidate in &candidates {
        let stored = index.stored(&searcher, candidate.address)?;
        hits.push(hit_of(&parsed, &tests, stored, candidate.bm25, max_bm25));
    }
    for hit in &mut hits {
        hit.score = match settings.ranker {
            Ranker::Bm25 | Ranker::Bm25Filter => hit.text_score,
            _ => hit.text_score_normalised + alpha * quantity_term(hit),
        };
    }
    if settings.ranker == Ranker::Dense {
        if let Some(encoder) = encoder {
            // The query without its numbers: what is asked about, and in which unit.
            let mut asked = words.join(" ");
            for unit in parsed.constraints.iter().filter_map(|c| c.unit.as_ref()) {
                asked.push(' ');
                asked.push_str(&unit.name);
            }
            let mut texts: Vec<&str> = vec![&asked];
            texts.extend(hits.iter().map(|h| h.text.as_str()));
            let vectors = encoder.embed(&texts)?;
            for (hit, vector) in hits.iter_mut().zip(&vectors[1..]) {
                let similarity = f64::from(cosine(&vectors[0], vector));
                hit.score = DENSE_COSINE_WEIGHT * similarity
                    + DENSE_TEXT_WEIGHT * hit.text_score_normalised
                    + alpha * quantity_term(hit);
            }
        }
    }
    sort_by_score(&mut hits);
    let entities = if settings.ranker == Ranker::Entity {
        entity_answers(&hits, !tests.is_empty(), alpha, k)
    } else {
        Vec::new()
    };
    sort_hits(&mut hits, settings.sort);
    hits.truncate(k);
    for (i, hit) in hits.iter_mut().enumerate() {
        hit.rank = i + 1;
    }
    let rerank_ms = ms(rerank_started);
    Ok(SearchResults {
        query: query.to_string(),
        understood: view_of(query, &parsed),
        ranker: settings.ranker,
        sort: settings.sort,
        alpha: settings.alpha,
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

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// The top `n` sentences that meet every test, by `score(bm25, qs)`, with their BM25: the text
/// matches scored with the conditions checked on the fly from the fast field (tantivy's collector
/// visits every text match), or, without words, a scan of the condition filter.
fn meeting_top(
    searcher: &tantivy::Searcher,
    text_query: Option<&dyn Query>,
    tests: &[Test],
    n: usize,
    score: impl Fn(f64, f64) -> f64 + Send + Sync + Copy + 'static,
) -> Result<Vec<(f64, DocAddress)>, SearchError> {
    let tests = Arc::new(tests.to_vec());
    let shared = Arc::clone(&tests);
    let collector = TopDocs::with_limit(n).tweak_score(move |segment: &SegmentReader| {
        let column = segment.fast_fields().u64(PACKED_FIELD).ok();
        let tests = Arc::clone(&shared);
        move |doc: DocId, bm25: Score| {
            let mut buffer = [Entry { key: 0, value: 0.0 }; MAX_ENTRIES];
            let mut len = 0;
            if let Some(column) = &column {
                for packed in column.values_for_doc(doc).take(MAX_ENTRIES) {
                    buffer[len] = keys::unpack(packed);
                    len += 1;
                }
            }
            let bm25 = f64::from(bm25);
            match conditions::meeting_score(&tests, &buffer[..len]) {
                Some(qs) => (score(bm25, qs), bm25),
                // Below every meeting sentence; dropped after collection.
                None => (f64::NEG_INFINITY, bm25),
            }
        }
    });
    let top = match text_query {
        Some(query) => searcher.search(query, &collector)?,
        None => searcher.search(&ConditionFilter::new(&tests), &collector)?,
    };
    Ok(top
        .into_iter()
        .filter(|((s, _), _)| s.is_finite())
        .map(|((_, bm25), address)| (bm25, address))
        .collect())
}

fn push_all_scored(candidates: &mut Vec<Candidate>, top: &[(f64, DocAddress)]) {
    candidates.extend(top.iter().map(|(bm25, address)| Candidate {
        address: *address,
        bm25: *bm25,
        first_stage: *bm25,
    }));
}

fn push_all(candidates: &mut Vec<Candidate>, top: &[(Score, DocAddress)]) {
    candidates.extend(top.iter().map(|(score, address)| Candidate {
        address: *address,
        bm25: f64::from(*score),
        first_stage: f64::from(*score),
    }));
}

/// 1[meets every constraint] · qs.
fn quantity_term(hit: &Hit) -> f64 {
    if hit.meets_all() {
        hit.quantity_score
    } else {
        0.0
    }
}

fn sort_by_score(hits: &mut [Hit]) {
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
}

/// The words searched as text: the query's terms, and the words of counted units ("users",
/// "grand slams", "megapixel camera"), which name what is counted.
fn search_words(parsed: &ParsedQuery) -> Vec<String> {
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

/// A stored sentence scored against the tests.
fn hit_of(
    parsed: &ParsedQuery,
    tests: &[Test],
    stored: StoredSentence,
    bm25: f64,
    max_bm25: f64,
) -> Hit {
    let mut entries = Vec::new();
    let mut owner = Vec::new();
    for (i, quantity) in stored.quantities.iter().enumerate() {
        for entry in keys::entries(quantity) {
            entries.push(entry);
            owner.push(i);
        }
    }
    let scored = conditions::score(tests, &entries);
    let matches = scored
        .best
        .iter()
        .enumerate()
        .filter_map(|(c, best)| {
            let entry = entries[(*best)?];
            let quantity = &stored.quantities[owner[(*best)?]];
            let constraint = &parsed.constraints[c];
            Some(QuantityMatch {
                constraint: c,
                start: char_offset(&stored.text, quantity.span.start),
                end: char_offset(&stored.text, quantity.span.end),
                surface: stored.text[quantity.span.clone()].to_string(),
                converted: keys::from_base(entry.value, constraint.unit.as_ref()),
                query_unit: constraint.unit.as_ref().map(|u| u.name.clone()),
            })
        })
        .collect();
    Hit {
        rank: 0,
        id: stored.id,
        source: stored.source,
        entity: stored.entity,
        text: stored.text,
        score: 0.0,
        text_score: bm25,
        text_score_normalised: bm25 / max_bm25,
        quantity_score: scored.score,
        meets: scored.best.iter().map(Option::is_some).collect(),
        matches,
    }
}

fn sort_hits(hits: &mut [Hit], order: SortOrder) {
    let value = |h: &Hit| h.matches.first().map(|m| m.converted);
    match order {
        SortOrder::Relevance => {}
        SortOrder::ValueAscending => hits.sort_by(|a, b| match (value(a), value(b)) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (a, b) => a.is_none().cmp(&b.is_none()),
        }),
        SortOrder::ValueDescending => hits.sort_by(|a, b| match (value(a), value(b)) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (a, b) => a.is_none().cmp(&b.is_none()),
        }),
    }
}

/// Entity mode: one answer per entity, from its best fact.
fn entity_answers(hits: &[Hit], constrained: bool, alpha: f64, k: usize) -> Vec<EntityHit> {
    let mut best: HashMap<String, EntityHit> = HashMap::new();
    for hit in hits {
        if constrained && !hit.meets_all() {
            continue;
        }
        let Some(entity) = entity_of(hit) else {
            continue;
        };
        let context_score = hit.score - alpha * quantity_term(hit);
        let answer = EntityHit {
            rank: 0,
            score: hit.score,
            context_score,
            quantity_score: hit.quantity_score,
            evidence: hit.clone(),
            entity: entity.clone(),
        };
        let key = entity.to_lowercase();
        match best.get(&key) {
            Some(existing) if existing.score >= answer.score => {}
            _ => {
                best.insert(key, answer);
            }
        }
    }
    let mut answers: Vec<EntityHit> = best.into_values().collect();
    answers.sort_by(|a, b| b.score.total_cmp(&a.score));
    answers.truncate(k);
    for (i, answer) in answers.iter_mut().enumerate() {
        answer.rank = i + 1;
    }
    answers
}

/// The entity of a fact: the corpus's entity for the sentence, else the sentence's subject — the
/// first entity-like span (capitalised run, quoted title) before the matched quantity, or the
/// first one after it.
fn entity_of(hit: &Hit) -> Option<String> {
    if let Some(entity) = &hit.entity {
        return Some(entity.clone());
    }
    let anchor = hit.matches.first().map_or(0, |m| m.start);
    let text = &hit.text;
    let spans: Vec<_> = name_spans(text)
        .into_iter()
        .map(|r| (char_offset(text, r.start), char_offset(text, r.end), r))
        .filter(|(s, e, _)| hit.matches.iter().all(|m| *e <= m.start || *s >= m.end))
        .collect();
    spans
        .iter()
        .find(|(_, e, _)| *e <= anchor)
        .or_else(|| spans.first())
        .map(|(_, _, r)| text[r.clone()].trim_start_matches("The ").to_string())
}

fn view_of(query: &str, parsed: &ParsedQuery) -> QueryView {
    QueryView {
        terms: parsed.terms.clone(),
        constraints: parsed
            .constraints
            .iter()
            .map(|c| constraint_view(query, c))
            .collect(),
    }
}

fn constraint_view(query: &str, c: &Constraint) -> ConstraintView {
    let keys = keys::constraint_keys(c);
    let compared_as = match keys.first().map(|(k, _)| k.as_str()) {
        Some(k) if k.starts_with("dim:") => format!("{}, converted", &k[4..]),
        Some(k) if k.starts_with("currency:") => {
            format!("{}, never converted to other currencies", &k[9..])
        }
        Some(k) if k.starts_with("count:") || k.starts_with("noun:") => {
            "a count; bare numbers also match".into()
        }
        Some(k) if k.starts_with("per:") => "a rate, compared without conversion".into(),
        _ => "a bare number".into(),
    };
    ConstraintView {
        text: c.describe(),
        source: query.get(c.span.clone()).unwrap_or_default().to_string(),
        condition: c.condition.symbol().to_string(),
        value: c.value,
        high: c.high,
        unit: c.unit.as_ref().map(|u| u.name.clone()),
        compared_as,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Document;

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

    fn fixture() -> SentenceIndex {
        let index = SentenceIndex::in_memory().unwrap();
        let documents: Vec<Document> = FIXTURE
            .iter()
            .enumerate()
            .map(|(i, text)| Document {
                id: format!("f{i}"),
                text: text.to_string(),
                source: "fixture".into(),
                entity: None,
            })
            .collect();
        index.add(&documents).unwrap();
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
            Err(SearchError::EmptyQuery)
        ));
        let dense = SearchSettings {
            ranker: Ranker::Dense,
            ..SearchSettings::default()
        };
        assert!(matches!(
            search(&index, None, "bags", &dense),
            Err(SearchError::NeedsEncoder(_))
        ));
    }
}
