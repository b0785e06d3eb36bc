//! The data the count reader and ranker are trained on: the CoQEx questions with a gold count,
//! their snippets and each snippet's count candidates. Shared by the reader's training, the
//! ranker's and the silver-question generator.

use std::path::{Path, PathBuf};

use tally_documents::DocumentsError;

use tally_documents::corpus::datasets::{gold_for, read_gold_counts, read_squad, Snippet};
use tally_engine::count::candidates::{count_candidates, CountCandidate};

/// The data sets trained on: (name, snippet file, gold file) under the CoQEx data directory.
pub const TRAINING_SETS: &[(&str, &str, &str)] = &[
    (
        "stresstest",
        "stresstest_v1/stresstest_bing_v1.json",
        "stresstest_v1/stresstest.csv",
    ),
    (
        "lcquad-count",
        "count_lcquad_v2/count_lcquadv2_bing_v1.json",
        "count_lcquad_v2/count_lcquadv2.csv",
    ),
];

/// Why the training data could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TrainingDataError {
    /// A data set could not be read.
    #[error(transparent)]
    Documents(#[from] DocumentsError),
    /// No training set was found under the directory.
    #[error("no training data found under {0} (expected the CoQEx stresstest_v1 and count_lcquad_v2 folders)")]
    NoData(PathBuf),
}

/// A training question with its gold count and snippets.
pub struct TrainingQuery {
    /// The data set the question comes from.
    pub dataset: String,
    /// The question's id in its data set.
    pub qid: String,
    /// The question.
    pub question: String,
    /// The gold count.
    pub gold: f64,
    /// The question's snippets.
    pub snippets: Vec<Snippet>,
}

/// Reads the training sets present under `coqex_dir` (queries with a gold count only).
pub fn load_training_queries(coqex_dir: &Path) -> Result<Vec<TrainingQuery>, TrainingDataError> {
    let mut out = Vec::new();
    for (name, snippets, gold) in TRAINING_SETS {
        let (snippets, gold) = (coqex_dir.join(snippets), coqex_dir.join(gold));
        if !snippets.is_file() || !gold.is_file() {
            continue;
        }
        let gold = read_gold_counts(&gold)?;
        for set in read_squad(&snippets)? {
            if let Some(count) = gold_for(&set, &gold).and_then(|g| g.count) {
                out.push(TrainingQuery {
                    dataset: name.to_string(),
                    qid: set.qid,
                    question: set.question,
                    gold: count,
                    snippets: set.snippets,
                });
            }
        }
    }
    if out.is_empty() {
        return Err(TrainingDataError::NoData(coqex_dir.to_path_buf()));
    }
    Ok(out)
}

impl TrainingQuery {
    /// A training question over plain snippet texts (ids are their positions), for questions
    /// that come from elsewhere than a SQuAD file.
    pub fn from_texts(dataset: &str, question: &str, gold: f64, texts: &[&str]) -> Self {
        Self {
            dataset: dataset.into(),
            qid: question.into(),
            question: question.into(),
            gold,
            snippets: texts
                .iter()
                .enumerate()
                .map(|(i, text)| Snippet {
                    id: i.to_string(),
                    text: text.to_string(),
                    source: String::new(),
                    answers: Vec::new(),
                    record: None,
                })
                .collect(),
        }
    }
}

/// The count candidates of every snippet of every query.
pub fn query_candidates(queries: &[TrainingQuery]) -> Vec<QueryCandidates> {
    queries
        .iter()
        .map(|q| {
            q.snippets
                .iter()
                .map(|s| count_candidates(&s.text))
                .collect()
        })
        .collect()
}

/// Candidates of one query: per snippet.
pub type QueryCandidates = Vec<Vec<CountCandidate>>;
