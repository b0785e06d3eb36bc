//! Sentence vectors stored at ingestion (issue 76). The learned and dense rankers score their
//! pool by the encoder's cosine. Each sentence's vector is computed once, by a background job
//! (the engine's vector job (`tally_engine::search::vector_job`)), and kept beside the sentence index. A query then encodes only
//! itself, and its pool is scored by dot products.
//!
//! - A vector is 8 bits per dimension with one scale per sentence: 384 + 4 bytes for MiniLM,
//!   plus its 8-byte key.
//! - Vectors are content-addressed by the hash of the text they encode
//!   ([`SentenceVectors::key_of`]): a ranker reads a stored vector only for exactly the text it
//!   would encode. A sentence held by two corpora is encoded once. A replaced
//!   corpus keeps the vectors of its unchanged sentences. Every server of a cluster fills its
//!   own store from its own index.
//! - The file is append-only. A record cut short by a crash is dropped when the file is opened,
//!   so the job resumes where it stopped.
//! - The file names the encoder that wrote it. Vectors of another encoder are never compared
//!   with a query's; the job writes them again. A file of another format version reads as empty
//!   and is written again.
//! - One process writes a store (the server, or `tally ingest` on an index no server holds open).
//! - File work is serialised by its own lock and done outside the table's lock, so searches
//!   never wait for a rewrite of the file.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};

use sha2::{Digest, Sha256};

/// The first bytes of a vectors file, with its version.
const MAGIC: &[u8; 8] = b"TALLYVC1";

/// Why the stored vectors could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum VectorsError {
    /// A vectors file could not be read or written.
    #[error("the sentence vectors in {path} could not be {doing}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done with it.
        doing: &'static str,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A vector's dimensions do not match the store's.
    #[error("a vector of {found} dimensions does not fit a store of {expected}")]
    Dimension {
        /// The store's dimensions.
        expected: usize,
        /// The vector's dimensions.
        found: usize,
    },
    /// The numbers of keys and vectors given differ.
    #[error("{keys} keys were given for {vectors} vectors")]
    Lengths {
        /// Keys given.
        keys: usize,
        /// Vectors given.
        vectors: usize,
    },
}

/// Turns an IO error on `path` while `doing` something into a [`VectorsError`].
fn io_error<'p>(
    path: &'p Path,
    doing: &'static str,
) -> impl FnOnce(std::io::Error) -> VectorsError + 'p {
    move |source| VectorsError::Io {
        path: path.to_path_buf(),
        doing,
        source,
    }
}

/// The stored vectors of one sentence index: in memory, and in a file when the index has a
/// directory.
pub struct SentenceVectors {
    path: Option<PathBuf>,
    table: RwLock<Table>,
    /// Held while the file is written (one writer at a time; readers of the table never wait).
    file: Mutex<()>,
}

/// The vectors held, row by row.
#[derive(Default)]
struct Table {
    /// The encoder that wrote them ("" while there are none).
    encoder: String,
    dimension: usize,
    /// Each key's row.
    row_of: HashMap<u64, usize>,
    keys: Vec<u64>,
    scales: Vec<f32>,
    /// `rows × dimension` codes.
    codes: Vec<i8>,
}

impl Table {
    fn push(&mut self, key: u64, scale: f32, codes: &[i8]) {
        if self.row_of.contains_key(&key) {
            return;
        }
        self.row_of.insert(key, self.keys.len());
        self.keys.push(key);
        self.scales.push(scale);
        self.codes.extend_from_slice(codes);
    }

    fn codes_of(&self, row: usize) -> &[i8] {
        &self.codes[row * self.dimension..(row + 1) * self.dimension]
    }
}

/// A vector quantised to 8 bits: `value ≈ code · scale` (codes in −127…127; an all-zero
/// vector has scale 0).
pub fn quantise(vector: &[f32]) -> (f32, Vec<i8>) {
    let largest = vector.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    if largest == 0.0 {
        return (0.0, vec![0; vector.len()]);
    }
    let scale = largest / 127.0;
    let codes = vector
        .iter()
        .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8)
        .collect();
    (scale, codes)
}

impl SentenceVectors {
    /// Bytes a sentence's vector takes in the file: its key, scale and codes (in memory a little
    /// more: the key again in the row map, and the table's spare capacity).
    pub fn bytes_per_sentence(dimension: usize) -> usize {
        8 + 4 + dimension
    }

    /// An empty store kept in memory only (indexes in memory: tests, evaluations).
    pub fn in_memory() -> Self {
        SentenceVectors {
            path: None,
            table: RwLock::new(Table::default()),
            file: Mutex::new(()),
        }
    }

    /// The store in `path`, read whole; an empty one when there is no file yet. A record cut
    /// short at the end is dropped, and the file cut back to the last whole record.
    pub fn open(path: &Path) -> Result<Self, VectorsError> {
        let table = match File::open(path) {
            Ok(file) => {
                let length = file.metadata().map_err(io_error(path, "read"))?.len();
                let (table, whole) = read_table(file).map_err(io_error(path, "read"))?;
                if whole < length {
                    OpenOptions::new()
                        .write(true)
                        .open(path)
                        .and_then(|f| f.set_len(whole))
                        .map_err(io_error(path, "cut back to their last whole record"))?;
                }
                table
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Table::default(),
            Err(e) => return Err(io_error(path, "opened")(e)),
        };
        Ok(SentenceVectors {
            path: Some(path.to_path_buf()),
            table: RwLock::new(table),
            file: Mutex::new(()),
        })
    }

    /// The key of the vector of `text` (what the encoder reads of a sentence): the first 8 bytes
    /// of its SHA-256 (stable across versions and machines).
    pub fn key_of(text: &str) -> u64 {
        let digest = Sha256::digest(text.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first)
    }

    /// The file the vectors are kept in (`None` in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Vectors held.
    pub fn len(&self) -> usize {
        self.read().keys.len()
    }

    /// Whether no vectors are held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the vector of `key` is held, written by `encoder`.
    pub fn contains(&self, encoder: &str, key: u64) -> bool {
        let table = self.read();
        table.encoder == encoder && table.row_of.contains_key(&key)
    }

    /// The vector of `key` (dequantised), when `encoder` wrote it.
    pub fn vector(&self, encoder: &str, key: u64) -> Option<Vec<f32>> {
        let table = self.read();
        if table.encoder != encoder {
            return None;
        }
        let row = *table.row_of.get(&key)?;
        let scale = table.scales[row];
        Some(
            table
                .codes_of(row)
                .iter()
                .map(|&c| f32::from(c) * scale)
                .collect(),
        )
    }

    /// The cosine of `query` with each key's vector when `encoder` wrote it (`None` for the keys
    /// without one). The scale of a vector cancels out of its cosine.
    pub fn cosines(&self, encoder: &str, query: &[f32], keys: &[u64]) -> Vec<Option<f32>> {
        let table = self.read();
        if table.encoder != encoder || table.dimension != query.len() {
            return vec![None; keys.len()];
        }
        let query_norm = query.iter().map(|x| x * x).sum::<f32>().sqrt();
        keys.iter()
            .map(|key| {
                let codes = table.codes_of(*table.row_of.get(key)?);
                let (dot, norm) = codes.iter().zip(query).fold((0.0, 0.0), |(d, n), (&c, q)| {
                    let c = f32::from(c);
                    (d + c * q, n + c * c)
                });
                let denominator = norm.sqrt() * query_norm;
                Some(if denominator > 0.0 {
                    dot / denominator
                } else {
                    0.0
                })
            })
            .collect()
    }

    /// Stores the vectors `encoder` made for `keys`, quantised, at the end of the file and then
    /// in memory. Vectors of another encoder (or dimension) are dropped first. A failed write
    /// leaves the file as it was.
    pub fn insert(
        &self,
        encoder: &str,
        keys: &[u64],
        vectors: &[Vec<f32>],
    ) -> Result<(), VectorsError> {
        if keys.len() != vectors.len() {
            return Err(VectorsError::Lengths {
                keys: keys.len(),
                vectors: vectors.len(),
            });
        }
        let Some(dimension) = vectors.first().map(Vec::len) else {
            return Ok(());
        };
        if let Some(other) = vectors.iter().find(|v| v.len() != dimension) {
            return Err(VectorsError::Dimension {
                expected: dimension,
                found: other.len(),
            });
        }
        let _writing = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let fits = {
            let table = self.read();
            table.encoder == encoder && table.dimension == dimension
        };
        if !fits {
            let fresh = Table {
                encoder: encoder.to_string(),
                dimension,
                ..Table::default()
            };
            self.rewrite(&fresh)?;
            *self.write() = fresh;
        }
        let mut added: Vec<(u64, f32, Vec<i8>)> = Vec::new();
        {
            let table = self.read();
            let mut seen = std::collections::HashSet::new();
            for (key, vector) in keys.iter().zip(vectors) {
                if !table.row_of.contains_key(key) && seen.insert(*key) {
                    let (scale, codes) = quantise(vector);
                    added.push((*key, scale, codes));
                }
            }
        }
        self.append(&added)?;
        let mut table = self.write();
        for (key, scale, codes) in &added {
            table.push(*key, *scale, codes);
        }
        Ok(())
    }

    /// Appends `records` to the file (nothing in memory); on a failed write the file is cut back
    /// to its length before, so that the next append starts on a record's boundary.
    fn append(&self, records: &[(u64, f32, Vec<i8>)]) -> Result<(), VectorsError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_error(path, "opened"))?;
        let before = file.metadata().map_err(io_error(path, "read"))?.len();
        let write = |file: &File| -> std::io::Result<()> {
            let mut out = BufWriter::new(file);
            for (key, scale, codes) in records {
                write_record(&mut out, *key, *scale, codes)?;
            }
            out.flush()?;
            file.sync_data()
        };
        write(&file).map_err(|source| {
            // Best effort: the error said is the write's.
            let _ = file.set_len(before);
            io_error(path, "written")(source)
        })
    }

    /// Keeps only the vectors of `live` keys (the sentences the index holds now), rewriting the
    /// file; returns how many were dropped.
    pub fn retain(&self, live: &HashSet<u64>) -> Result<usize, VectorsError> {
        let _writing = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let kept = {
            let table = self.read();
            if table.keys.iter().all(|key| live.contains(key)) {
                return Ok(0);
            }
            let mut kept = Table {
                encoder: table.encoder.clone(),
                dimension: table.dimension,
                ..Table::default()
            };
            for (row, key) in table.keys.iter().enumerate() {
                if live.contains(key) {
                    kept.push(*key, table.scales[row], table.codes_of(row));
                }
            }
            kept
        };
        // Written without the table's lock: searches read the old table meanwhile.
        self.rewrite(&kept)?;
        let mut table = self.write();
        let dropped = table.keys.len() - kept.keys.len();
        *table = kept;
        Ok(dropped)
    }

    /// Writes `table` whole to a new file that replaces the old one.
    fn rewrite(&self, table: &Table) -> Result<(), VectorsError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let fresh = path.with_extension("new");
        let write = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut file = BufWriter::new(File::create(&fresh)?);
            write_header(&mut file, &table.encoder, table.dimension)?;
            for (row, key) in table.keys.iter().enumerate() {
                write_record(&mut file, *key, table.scales[row], table.codes_of(row))?;
            }
            file.into_inner()?.sync_data()?;
            std::fs::rename(&fresh, path)
        };
        write().map_err(io_error(path, "rewritten"))
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Table> {
        // A panic while holding the lock leaves whole rows behind: the table stays usable.
        self.table.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Table> {
        self.table.write().unwrap_or_else(|e| e.into_inner())
    }
}

fn write_header(out: &mut impl Write, encoder: &str, dimension: usize) -> std::io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&(dimension as u32).to_le_bytes())?;
    out.write_all(&(encoder.len() as u32).to_le_bytes())?;
    out.write_all(encoder.as_bytes())
}

fn write_record(out: &mut impl Write, key: u64, scale: f32, codes: &[i8]) -> std::io::Result<()> {
    out.write_all(&key.to_le_bytes())?;
    out.write_all(&scale.to_le_bytes())?;
    let bytes: Vec<u8> = codes.iter().map(|&c| c as u8).collect();
    out.write_all(&bytes)
}

/// The table in `file`, and the length of its whole records (with the header), read record by
/// record. A file that is not a vectors file (or of another version) reads as empty: the job
/// writes it again.
fn read_table(file: File) -> std::io::Result<(Table, u64)> {
    let mut input = std::io::BufReader::new(file);
    let word = |input: &mut std::io::BufReader<File>| -> std::io::Result<Option<u32>> {
        let mut bytes = [0u8; 4];
        match input.read_exact(&mut bytes) {
            Ok(()) => Ok(Some(u32::from_le_bytes(bytes))),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(e),
        }
    };
    let mut magic = [0u8; 8];
    if input.read_exact(&mut magic).is_err() || &magic != MAGIC {
        return Ok((Table::default(), 0));
    }
    let (Some(dimension), Some(name_length)) = (word(&mut input)?, word(&mut input)?) else {
        return Ok((Table::default(), 0));
    };
    let mut name = vec![0u8; name_length as usize];
    if dimension == 0 || input.read_exact(&mut name).is_err() {
        return Ok((Table::default(), 0));
    }
    let Ok(encoder) = String::from_utf8(name) else {
        return Ok((Table::default(), 0));
    };
    let mut table = Table {
        encoder,
        dimension: dimension as usize,
        ..Table::default()
    };
    let mut whole = 16 + u64::from(name_length);
    let mut record = vec![0u8; 12 + table.dimension];
    loop {
        match input.read_exact(&mut record) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
        let key = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
        let scale = f32::from_le_bytes(record[8..12].try_into().expect("4 bytes"));
        let codes: Vec<i8> = record[12..].iter().map(|&b| b as i8).collect();
        table.push(key, scale, &codes);
        whole += record.len() as u64;
    }
    Ok((table, whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(seed: u64, dimension: usize) -> Vec<f32> {
        let mut random = tally_text::random::SplitMix64::new(seed);
        let v: Vec<f32> = (0..dimension).map(|_| random.unit() as f32 - 0.5).collect();
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / norm).collect()
    }

    #[test]
    fn vectors_are_read_back_from_the_file_close_to_what_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vectors.bin");
        let store = SentenceVectors::open(&path).unwrap();
        let keys = [SentenceVectors::key_of("a"), SentenceVectors::key_of("b")];
        let vectors = [unit(1, 384), unit(2, 384)];
        store.insert("mini", &keys, &vectors).unwrap();
        let again = SentenceVectors::open(&path).unwrap();
        assert_eq!(again.len(), 2);
        let read = again.vector("mini", keys[0]).unwrap();
        let error = read
            .iter()
            .zip(&vectors[0])
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(error < 0.01, "{error}");
        // Another encoder's vectors are not this one's.
        assert!(again.vector("other", keys[0]).is_none());
        let cosines = again.cosines("mini", &vectors[0], &[keys[0], keys[1], 7]);
        assert!(cosines[0].unwrap() > 0.999, "{cosines:?}");
        assert!(cosines[1].unwrap() < 0.5, "{cosines:?}");
        assert_eq!(cosines[2], None);
        assert_eq!(
            std::fs::metadata(&path).unwrap().len() as usize,
            16 + 4 + 2 * SentenceVectors::bytes_per_sentence(384)
        );
    }

    #[test]
    fn a_record_cut_short_is_dropped_and_the_next_one_appended_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vectors.bin");
        let store = SentenceVectors::open(&path).unwrap();
        store
            .insert("mini", &[1, 2], &[unit(1, 8), unit(2, 8)])
            .unwrap();
        let length = std::fs::metadata(&path).unwrap().len();
        // A crash in the middle of the second record.
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(length - 5).unwrap();
        let reopened = SentenceVectors::open(&path).unwrap();
        assert_eq!(reopened.len(), 1);
        reopened
            .insert("mini", &[2, 3], &[unit(2, 8), unit(3, 8)])
            .unwrap();
        let third = SentenceVectors::open(&path).unwrap();
        assert_eq!(third.len(), 3);
        assert!(third.vector("mini", 3).is_some());
    }

    #[test]
    fn another_encoder_replaces_the_vectors_and_retain_drops_the_dead() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vectors.bin");
        let store = SentenceVectors::open(&path).unwrap();
        store
            .insert("mini", &[1, 2, 3], &[unit(1, 8), unit(2, 8), unit(3, 8)])
            .unwrap();
        assert_eq!(store.retain(&HashSet::from([1, 3])).unwrap(), 1);
        assert_eq!(SentenceVectors::open(&path).unwrap().len(), 2);
        store.insert("other", &[4], &[unit(4, 16)]).unwrap();
        let reopened = SentenceVectors::open(&path).unwrap();
        assert_eq!(reopened.len(), 1);
        assert!(reopened.contains("other", 4));
        assert!(!reopened.contains("mini", 1));
        assert!(matches!(
            store.insert("other", &[5, 6], &[unit(5, 16), unit(6, 8)]),
            Err(VectorsError::Dimension { .. })
        ));
        assert!(matches!(
            store.insert("other", &[5, 6], &[unit(5, 16)]),
            Err(VectorsError::Lengths {
                keys: 2,
                vectors: 1
            })
        ));
    }
}
