//! A tantivy index in a directory, created when missing: how the snippet index and the sentence
//! index both open theirs.

use std::path::{Path, PathBuf};

use tantivy::collector::Count;
use tantivy::query::TermQuery;
use tantivy::schema::{Field, IndexRecordOption, Schema};
use tantivy::{Index, IndexReader, Searcher, Term};

/// Why an index directory could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenIndexError {
    /// The directory could not be used.
    #[error("cannot use index directory {}", path.display())]
    Io {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The directory could not be opened as an index's.
    #[error("cannot open the index directory {}", path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: tantivy::directory::error::OpenDirectoryError,
    },
    /// The index in the directory could not be opened.
    #[error("cannot open the index in {}", path.display())]
    Index {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: tantivy::TantivyError,
    },
    /// The index was written by an older Tally, with another schema.
    #[error(
        "the index in {} was written by an older Tally; delete the directory and it is rebuilt \
         from the default corpus",
        path.display()
    )]
    Older {
        /// The directory.
        path: PathBuf,
        /// How its schema differs.
        #[source]
        source: tantivy::TantivyError,
    },
    /// Any other error of the index.
    #[error("the index failed")]
    Tantivy(#[from] tantivy::TantivyError),
}

/// The index with `schema` in `dir` (creating the directory and the index when there are none),
/// with its reader.
pub fn open_or_create(dir: &Path, schema: Schema) -> Result<(Index, IndexReader), OpenIndexError> {
    std::fs::create_dir_all(dir).map_err(|source| OpenIndexError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let directory = tantivy::directory::MmapDirectory::open(dir).map_err(|source| {
        OpenIndexError::Directory {
            path: dir.to_path_buf(),
            source,
        }
    })?;
    match Index::open_or_create(directory, schema) {
        Ok(index) => with_reader(index),
        Err(source @ tantivy::TantivyError::SchemaError(_)) => Err(OpenIndexError::Older {
            path: dir.to_path_buf(),
            source,
        }),
        Err(e) => Err(e.into()),
    }
}

/// The index in `dir` with the schema it was written with, when there is one (an index whose
/// schema changed since may still be read as it is).
pub fn open_existing(dir: &Path) -> Result<Option<(Index, IndexReader)>, OpenIndexError> {
    if !dir.join("meta.json").is_file() {
        return Ok(None);
    }
    let index = Index::open_in_dir(dir).map_err(|source| OpenIndexError::Index {
        path: dir.to_path_buf(),
        source,
    })?;
    with_reader(index).map(Some)
}

/// The live documents per value of the untokenized text field `field`, sorted by value
/// (values whose documents were all deleted are left out).
pub fn term_counts(searcher: &Searcher, field: Field) -> tantivy::Result<Vec<(String, u64)>> {
    let mut names = std::collections::BTreeSet::new();
    for segment in searcher.segment_readers() {
        let terms = segment.inverted_index(field)?;
        let mut stream = terms.terms().stream()?;
        while stream.advance() {
            names.insert(String::from_utf8_lossy(stream.key()).into_owned());
        }
    }
    let mut counts = Vec::with_capacity(names.len());
    for name in names {
        let query = TermQuery::new(
            Term::from_field_text(field, &name),
            IndexRecordOption::Basic,
        );
        let count = searcher.search(&query, &Count)? as u64;
        if count > 0 {
            counts.push((name, count));
        }
    }
    Ok(counts)
}

/// A new index with `schema` held in memory, with its reader.
pub fn in_memory(schema: Schema) -> Result<(Index, IndexReader), OpenIndexError> {
    with_reader(Index::create_in_ram(schema))
}

fn with_reader(index: Index) -> Result<(Index, IndexReader), OpenIndexError> {
    let reader = index.reader()?;
    Ok((index, reader))
}
