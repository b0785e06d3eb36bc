//! What an answer was asked over and where its evidence comes from (issue 87): the corpus the
//! settings named (or all of them), the web when its snippets answered, and whether the
//! passages the answer rests on are a person's documents or the built-in corpus.

use tally_documents::snippet_index::is_document_passage;
use tally_types::count::{CountAnswer, SnippetSource};
use tally_types::{AnswerBody, EvidenceSource, Scope};

use crate::Checked;

/// The scope of `answer`, asked with `checked`.
pub(crate) fn of(checked: &Checked, answer: &AnswerBody) -> Scope {
    let web = match answer {
        AnswerBody::Count(count) => count
            .origin
            .as_ref()
            .filter(|o| o.source == SnippetSource::Web && o.failure.is_none())
            .map(|o| o.provider.clone().unwrap_or_else(|| "the web".into())),
        _ => None,
    };
    let evidence = match answer {
        _ if web.is_some() => Some(EvidenceSource::Web),
        // Rows of a table read from a document.
        AnswerBody::Count(count) if count.aggregation.is_some() => Some(EvidenceSource::Documents),
        _ => from_ids(evidence_ids(answer)),
    };
    Scope {
        corpus: checked.count.corpus.clone(),
        web,
        evidence,
    }
}

/// The ids of the passages or sentences the answer rests on (a table's cells are `cell#…`).
fn evidence_ids(answer: &AnswerBody) -> Vec<String> {
    match answer {
        AnswerBody::Count(count) => count_evidence(count),
        AnswerBody::Value(value) => {
            use tally_types::value::ObservationGroup;
            let agreeing: Vec<String> = value
                .observations
                .iter()
                .filter(|o| o.group == ObservationGroup::Agrees)
                .map(|o| o.sentence_id.clone())
                .collect();
            if agreeing.is_empty() {
                value
                    .observations
                    .iter()
                    .take(1)
                    .map(|o| o.sentence_id.clone())
                    .collect()
            } else {
                agreeing
            }
        }
        AnswerBody::Search(results) => results.hits.iter().map(|h| h.id.clone()).collect(),
    }
}

fn count_evidence(count: &CountAnswer) -> Vec<String> {
    if let Some(reading) = &count.read_from {
        return vec![reading.snippet_id.clone()];
    }
    let stated: Vec<String> = count
        .snippets
        .iter()
        .filter(|s| s.spans.iter().any(|c| c.chosen && c.used))
        .map(|s| s.id.clone())
        .collect();
    match &count.cnp_rep {
        Some(rep) if stated.is_empty() => vec![rep.snippet_id.clone()],
        _ => stated,
    }
}

fn from_ids(ids: Vec<String>) -> Option<EvidenceSource> {
    let documents = ids.iter().filter(|id| is_document_passage(id)).count();
    match (documents, ids.len()) {
        (_, 0) => None,
        (0, _) => Some(EvidenceSource::BuiltIn),
        (d, n) if d == n => Some(EvidenceSource::Documents),
        _ => Some(EvidenceSource::Mixed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_and_the_built_in_corpus_are_told_apart_by_their_ids() {
        assert_eq!(from_ids(vec![]), None);
        assert_eq!(
            from_ids(vec!["q12_3".into()]),
            Some(EvidenceSource::BuiltIn)
        );
        assert_eq!(
            from_ids(vec!["clubs.xlsx#4".into(), "cell#9".into()]),
            Some(EvidenceSource::Documents)
        );
        assert_eq!(
            from_ids(vec!["clubs.xlsx#4".into(), "q12_3".into()]),
            Some(EvidenceSource::Mixed)
        );
    }
}
