//! The last stage of a search: stored sentences as hits with their quantities matched to the
//! constraints, hits in the order asked for, and the query as Tally understood it.

use std::collections::HashMap;

use tally_types::search::{ConstraintView, Hit, QuantityMatch, QueryView};
use tally_types::SortOrder;

use tally_documents::sentence_store::conditions::{self, Test};
use tally_documents::sentence_store::index::StoredSentence;
use tally_documents::sentence_store::keys;
use tally_text::offsets::char_offset;
use tally_text::quantity::{Constraint, ParsedQuery};

/// A stored sentence scored against the tests.
pub(crate) fn hit_of(
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
        also_in: Vec::new(),
    }
}

/// Each sentence once: hits (best first) whose text is a better hit's, ignoring case and
/// spacing, are dropped, and their sources listed in the better hit's `also_in`.
pub(crate) fn merge_duplicates(hits: Vec<Hit>) -> Vec<Hit> {
    let mut kept: Vec<Hit> = Vec::with_capacity(hits.len());
    let mut by_text: HashMap<String, usize> = HashMap::new();
    for hit in hits {
        let key = hit
            .text
            .split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join(" ");
        match by_text.get(&key) {
            Some(&i) => {
                let first = &mut kept[i];
                if hit.source != first.source && !first.also_in.contains(&hit.source) {
                    first.also_in.push(hit.source);
                }
            }
            None => {
                by_text.insert(key, kept.len());
                kept.push(hit);
            }
        }
    }
    kept
}

/// Best score first.
pub(crate) fn sort_by_score(hits: &mut [Hit]) {
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
}

/// Hits by their first match's value in the query's unit (hits without one last).
pub(crate) fn sort_hits(hits: &mut [Hit], order: SortOrder) {
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

/// The query as understood, for the user.
pub(crate) fn view_of(query: &str, parsed: &ParsedQuery) -> QueryView {
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
    let keys = keys::constraint_keys(c, keys::BARE_WEIGHT);
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
