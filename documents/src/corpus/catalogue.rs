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

/// A data set file of the shared data directory: the one place its name and path are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dataset {
    /// Short stable name, e.g. `stresstest`.
    pub name: &'static str,
    /// Path relative to the data directory.
    pub path: &'static str,
    /// One line saying what the data set holds.
    pub description: &'static str,
}

/// CoQEx Stresstest count queries with their web snippets.
pub const STRESSTEST: Dataset = Dataset {
    name: "stresstest",
    path: "coqex/stresstest_v1/stresstest_bing_v1.json",
    description: "CoQEx Stresstest count queries: web snippets",
};
/// CoQEx LC-QuAD 2.0 count queries with their web snippets.
pub const LCQUAD_COUNT: Dataset = Dataset {
    name: "lcquad-count",
    path: "coqex/count_lcquad_v2/count_lcquadv2_bing_v1.json",
    description: "CoQEx LC-QuAD 2.0 count queries: web snippets",
};
/// Natural Questions count queries with their web snippets.
pub const NQ_COUNT: Dataset = Dataset {
    name: "nq-count",
    path: "coqex/natural_questions_dev/natural_questions_dev_bing_v1.json",
    description: "Natural Questions count queries: web snippets",
};
/// CoQuAD count queries with their gold counts (no snippets).
pub const COQUAD: Dataset = Dataset {
    name: "coquad",
    path: "coqex/CoQuAD_v2/inference/train.csv",
    description: "CoQuAD count queries with gold counts (no snippets)",
};
/// NewsQuant sentences with their gold quantities.
pub const NEWSQUANT: Dataset = Dataset {
    name: "newsquant",
    path: "quantities/newsquant_dev.json",
    description: "NewsQuant sentences with gold quantities",
};
/// Qsearch quantity queries with their judged sentences.
pub const QSEARCH: Dataset = Dataset {
    name: "qsearch",
    path: "qsearch/qsearch_text_dev.jsonl",
    description: "Qsearch quantity queries with judged sentences",
};

/// Every known data set.
pub const KNOWN: [Dataset; 6] = [
    STRESSTEST,
    LCQUAD_COUNT,
    NQ_COUNT,
    COQUAD,
    NEWSQUANT,
    QSEARCH,
];

/// Lists the known data sets present under `data_dir`. A missing directory yields an empty list.
pub fn discover_corpora(data_dir: &Path) -> Vec<CorpusInfo> {
    KNOWN
        .iter()
        .filter_map(|dataset| {
            let path: PathBuf = data_dir.join(dataset.path);
            let meta = std::fs::metadata(&path).ok()?;
            meta.is_file().then(|| CorpusInfo {
                name: dataset.name.to_string(),
                description: dataset.description.to_string(),
                relative_path: dataset.path.to_string(),
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
