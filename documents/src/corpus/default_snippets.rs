//! The default snippet corpus: the CoQEx snippet files when the data directory has them, and
//! always a small demo corpus written for Tally (embedded in the binary) that the examples ask.

use std::path::Path;

use crate::corpus::catalogue::{LCQUAD_COUNT, NQ_COUNT, STRESSTEST};
use crate::corpus::datasets::{parse_jsonl, read_squad};
use crate::snippet_index::SnippetIndex;
use crate::DocumentsError;

/// Demo snippets: a few count questions with hand-written snippets.
pub const DEMO_SNIPPETS: &str = include_str!("../../data/demo_snippets.jsonl");

/// CoQEx snippet files under the data directory: (corpus name, path).
pub const DATASET_SNIPPETS: &[(&str, &str)] = &[
    (STRESSTEST.name, STRESSTEST.path),
    (LCQUAD_COUNT.name, LCQUAD_COUNT.path),
    (NQ_COUNT.name, NQ_COUNT.path),
];

/// Whether `data_dir` holds any of the datasets' snippet files (the default corpus is then
/// those datasets, beside the demo corpus).
pub fn has_dataset_snippets(data_dir: &Path) -> bool {
    DATASET_SNIPPETS
        .iter()
        .any(|(_, rel)| data_dir.join(rel).is_file())
}

/// Opens (or creates) the snippet index in `dir`, filled with the default corpus when it is
/// empty; also returns what was added, per corpus (nothing for an index that had snippets).
pub fn open_with_default(
    dir: &Path,
    data_dir: Option<&Path>,
) -> Result<(SnippetIndex, Vec<(String, usize)>), DocumentsError> {
    let index = SnippetIndex::open_or_create(dir)?;
    let added = ingest_default(&index, data_dir)?;
    Ok((index, added))
}

/// Fills an empty index with the default corpus; returns (corpus, snippets added) per corpus.
/// An index that already has snippets is left alone.
pub fn ingest_default(
    index: &SnippetIndex,
    data_dir: Option<&Path>,
) -> Result<Vec<(String, usize)>, DocumentsError> {
    if !index.is_empty() {
        return Ok(Vec::new());
    }
    let mut added = Vec::new();
    if let Some(dir) = data_dir {
        for (name, rel) in DATASET_SNIPPETS {
            let path = dir.join(rel);
            if path.is_file() {
                let sets = read_squad(&path)?;
                added.push((name.to_string(), index.add(name, &sets)?));
            }
        }
    }
    // The demo corpus always: the general facts the pages' and the README's examples ask
    // about (issue 73), beside the data sets when there are some.
    let sets = parse_jsonl(DEMO_SNIPPETS, Path::new("demo_snippets.jsonl"))?;
    added.push(("demo".to_string(), index.add("demo", &sets)?));
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_corpus_without_data() {
        let index = SnippetIndex::in_memory().unwrap();
        let added = ingest_default(&index, None).unwrap();
        assert_eq!(added[0].0, "demo");
        assert!(added[0].1 >= 10);
        let snippets = index
            .prefetched("How many languages are spoken in Indonesia?")
            .unwrap();
        assert!(snippets.len() >= 5);
        // A second call leaves a filled index alone.
        assert!(ingest_default(&index, None).unwrap().is_empty());
    }
}
