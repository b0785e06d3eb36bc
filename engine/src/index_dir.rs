//! A tantivy index in a directory, created when missing: how the snippet index and the sentence
//! index both open theirs.

use std::path::{Path, PathBuf};

use tantivy::schema::Schema;
use tantivy::{Index, IndexReader};

#[derive(Debug, thiserror::Error)]
pub enum OpenIndexError {
    #[error("cannot use index directory {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot open {0}: {1}")]
    Open(PathBuf, String),
    #[error("index error: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
}

/// The index with `schema` in `dir` (creating the directory and the index when there are none),
/// with its reader.
pub fn open_or_create(dir: &Path, schema: Schema) -> Result<(Index, IndexReader), OpenIndexError> {
    std::fs::create_dir_all(dir).map_err(|source| OpenIndexError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let directory = tantivy::directory::MmapDirectory::open(dir)
        .map_err(|e| OpenIndexError::Open(dir.to_path_buf(), e.to_string()))?;
    with_reader(Index::open_or_create(directory, schema)?)
}

/// A new index with `schema` held in memory, with its reader.
pub fn in_memory(schema: Schema) -> Result<(Index, IndexReader), OpenIndexError> {
    with_reader(Index::create_in_ram(schema))
}

fn with_reader(index: Index) -> Result<(Index, IndexReader), OpenIndexError> {
    let reader = index.reader()?;
    Ok((index, reader))
}
