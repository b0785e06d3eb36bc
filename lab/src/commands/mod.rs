//! The `tally` sub-commands that drive the lab (`tally eval`, `tally train`, `tally bench`): each
//! turns its typed flags into a run of the lab and prints the papers' metrics.

pub mod aggregations;
pub mod asked;
pub mod bench;
pub mod candidates;
pub mod count;
pub mod eval;
pub mod feedback;
pub mod judged_instances;
pub mod own_document_instances;
pub mod own_document_values;
pub mod own_documents;
pub mod reading;
pub mod train_instances;
pub mod train_token_vectors;
pub mod train_trust;

/// Reads a file of one JSON value per line (blank lines skipped); an error names the line.
pub fn read_json_lines<T: serde::de::DeserializeOwned>(
    path: &std::path::Path,
) -> anyhow::Result<Vec<T>> {
    use anyhow::Context;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            serde_json::from_str(line)
                .with_context(|| format!("{}, line {}", path.display(), n + 1))
        })
        .collect()
}
