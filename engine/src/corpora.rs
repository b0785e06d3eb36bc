//! The data sets Tally can read from a data directory (`TALLY_DATA`, by default `../shared/data`
//! beside the project). Later modules ingest them; here we only find out which are present.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A data set file found under the data directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusInfo {
    /// Short stable name, e.g. `stresstest`.
    pub name: String,
    /// What the file is for, in a few words.
    pub description: String,
    /// Path relative to the data directory.
    pub relative_path: String,
    /// File size in bytes.
    pub bytes: u64,
}

/// Known data sets: (name, path under the data directory, description).
const KNOWN: &[(&str, &str, &str)] = &[
    (
        "stresstest",
        "coqex/stresstest_v1/stresstest_bing_v1.json",
        "CoQEx Stresstest count queries: web snippets",
    ),
    (
        "lcquad-count",
        "coqex/count_lcquad_v2/count_lcquadv2_bing_v1.json",
        "CoQEx LC-QuAD 2.0 count queries: web snippets",
    ),
    (
        "nq-count",
        "coqex/natural_questions_dev/natural_questions_dev_bing_v1.json",
        "Natural Questions count queries: web snippets",
    ),
    (
        "coquad",
        "coqex/CoQuAD_v2/inference/train.csv",
        "CoQuAD count queries with gold counts (no snippets)",
    ),
    (
        "newsquant",
        "quantities/newsquant_dev.json",
        "NewsQuant sentences with gold quantities",
    ),
    (
        "qsearch",
        "qsearch/qsearch_text_dev.jsonl",
        "Qsearch quantity queries with judged sentences",
    ),
];

/// Lists the known data sets present under `data_dir`. A missing directory yields an empty list.
pub fn discover_corpora(data_dir: &Path) -> Vec<CorpusInfo> {
    KNOWN
        .iter()
        .filter_map(|(name, rel, description)| {
            let path: PathBuf = data_dir.join(rel);
            let meta = std::fs::metadata(&path).ok()?;
            meta.is_file().then(|| CorpusInfo {
                name: (*name).to_string(),
                description: (*description).to_string(),
                relative_path: (*rel).to_string(),
                bytes: meta.len(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_directory_has_no_corpora() {
        assert!(discover_corpora(Path::new("/nonexistent/tally-data")).is_empty());
    }

    #[test]
    fn finds_only_files_that_exist() {
        let dir = std::env::temp_dir().join(format!("tally-corpora-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("qsearch")).unwrap();
        std::fs::write(dir.join("qsearch/qsearch_text_dev.jsonl"), "{}\n").unwrap();
        let found = discover_corpora(&dir);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name, "qsearch");
        assert_eq!(found[0].bytes, 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
