//! Sentence vectors stored at ingestion (issue 76). The learned and dense rankers score their
//! pool by the encoder's cosine. Each pooled sentence's vector is computed once, by a background
//! job ([`super::vector_job`]), and kept beside the sentence index. A query then encodes only
//! itself, and its pool is scored by dot products.
//!
//! - A vector is 8 bits per dimension with one scale per sentence: 384 + 4 bytes for MiniLM,
//!   plus its 8-byte key.
//! - Vectors are content-addressed by the hash of their sentence's text
//!   ([`SentenceVectors::key_of`]). A sentence held by two corpora is encoded once. A replaced
//!   corpus keeps the vectors of its unchanged sentences. Every server of a cluster fills its
//!   own store from its own index.
//! - The file is append-only. A record cut short by a crash is dropped when the file is opened,
//!   so the job resumes where it stopped.
//! - The file names the encoder that wrote it. Vectors of another encoder are never compared
//!   with a query's; the job writes them again.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use sha2::{Digest, Sha256};

/// The first bytes of a vectors file, with its version.
const MAGIC: &[u8; 8] = b"TALLYVC1";

/// Why the stored vectors could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum VectorsError {
    #[error("the sentence vectors in {path} could not be {doing}: {source}")]
    Io {
        path: PathBuf,
        doing: &'static str,
        source: std::io::Error,
    },
    #[error("a vector of {found} dimensions does not fit a store of {expected}")]
    Dimension { expected: usize, found: usize },
}

/// The stored vectors of one sentence index: in memory, and in a file when the index has a
/// directory.
pub struct SentenceVectors {
    path: Option<PathBuf>,
    table: RwLock<Table>,
}

/// The vectors held, row by row.
#[derive(Default)]
struct Table {
    /// The encoder that wrote them ("" while there are none).
    encoder: String,
    dimension: usize,
    rows: HashMap<u64, usize>,
    keys: Vec<u64>,
    scales: Vec<f32>,
    /// `rows × dimension` codes.
    codes: Vec<i8>,
}

impl Table {
    fn push(&mut self, key: u64, scale: f32, codes: &[i8]) {
        if self.rows.contains_key(&key) {
            return;
        }
        self.rows.insert(key, self.keys.len());
        self.keys.push(key);
        self.scales.push(scale);
        self.codes.extend_from_slice(codes);
    }

    fn codes_of(&self, row: usize) -> &[i8] {
        &self.codes[row * self.dimension..(row + 1) * self.dimension]
    }
}

/// A vector quantised to 8 bits: `value ≈ code · scale`.
fn quantise(vector: &[f32]) -> (f32, Vec<i8>) {
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
    /// Bytes a sentence's vector takes in the file and in memory (its key, scale and codes).
    pub fn bytes_per_sentence(dimension: usize) -> usize {
        8 + 4 + dimension
    }

    /// An empty store kept in memory only (indexes in memory: tests, evaluations).
    pub fn in_memory() -> Self {
        SentenceVectors {
            path: None,
            table: RwLock::new(Table::default()),
        }
    }

    /// The store in `path`, read whole; an empty one when there is no file yet. A record cut
    /// short at the end is dropped, and the file cut back to the last whole record.
    pub fn open(path: &Path) -> Result<Self, VectorsError> {
        let io = |doing: &'static str| {
            move |source| VectorsError::Io {
                path: path.to_path_buf(),
                doing,
                source,
            }
        };
        let table = match File::open(path) {
            Ok(file) => {
                let (table, whole) = read_table(file).map_err(io("read"))?;
                let length = std::fs::metadata(path).map_err(io("read"))?.len();
                if whole < length {
                    OpenOptions::new()
                        .write(true)
                        .open(path)
                        .and_then(|f| f.set_len(whole))
                        .map_err(io("cut back to their last whole record"))?;
                }
                table
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Table::default(),
            Err(e) => return Err(io("opened")(e)),
        };
        Ok(SentenceVectors {
            path: Some(path.to_path_buf()),
            table: RwLock::new(table),
        })
    }

    /// The key of a sentence's vector: the first 8 bytes of the SHA-256 of its text (stable
    /// across versions and machines).
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

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the vector of `key` is held, written by `encoder`.
    pub fn contains(&self, encoder: &str, key: u64) -> bool {
        let table = self.read();
        table.encoder == encoder && table.rows.contains_key(&key)
    }

    /// The vector of `key` (dequantised), when `encoder` wrote it.
    pub fn vector(&self, encoder: &str, key: u64) -> Option<Vec<f32>> {
        let table = self.read();
        if table.encoder != encoder {
            return None;
        }
        let row = *table.rows.get(&key)?;
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
                let codes = table.codes_of(*table.rows.get(key)?);
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

    /// Stores the vectors `encoder` made for `keys`, quantised, in memory and at the end of the
    /// file. Vectors of another encoder (or dimension) are dropped first.
    pub fn insert(
        &self,
        encoder: &str,
        keys: &[u64],
        vectors: &[Vec<f32>],
    ) -> Result<(), VectorsError> {
        let Some(dimension) = vectors.first().map(Vec::len) else {
            return Ok(());
        };
        if let Some(other) = vectors.iter().find(|v| v.len() != dimension) {
            return Err(VectorsError::Dimension {
                expected: dimension,
                found: other.len(),
            });
        }
        let mut table = self.write();
        if table.encoder != encoder || table.dimension != dimension {
            *table = Table {
                encoder: encoder.to_string(),
                dimension,
                ..Table::default()
            };
            self.rewrite(&table)?;
        }
        let mut added = Vec::new();
        for (key, vector) in keys.iter().zip(vectors) {
            if table.rows.contains_key(key) {
                continue;
            }
            let (scale, codes) = quantise(vector);
            table.push(*key, scale, &codes);
            added.push((*key, scale, codes));
        }
        if let Some(path) = &self.path {
            let write = || -> std::io::Result<()> {
                let mut file = BufWriter::new(OpenOptions::new().append(true).open(path)?);
                for (key, scale, codes) in &added {
                    write_record(&mut file, *key, *scale, codes)?;
                }
                file.into_inner()?.sync_data()
            };
            write().map_err(|source| VectorsError::Io {
                path: path.clone(),
                doing: "written",
                source,
            })?;
        }
        Ok(())
    }

    /// Keeps only the vectors of `live` keys (the sentences the index holds now), rewriting the
    /// file; returns how many were dropped.
    pub fn retain(&self, live: &HashSet<u64>) -> Result<usize, VectorsError> {
        let mut table = self.write();
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
        let dropped = table.keys.len() - kept.keys.len();
        if dropped > 0 {
            self.rewrite(&kept)?;
            *table = kept;
        }
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
        write().map_err(|source| VectorsError::Io {
            path: path.clone(),
            doing: "rewritten",
            source,
        })
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

/// The table in `file`, and the length of its whole records (with the header). A file that is
/// not a vectors file (or of an unknown version) reads as empty: the job writes it again.
fn read_table(file: File) -> std::io::Result<(Table, u64)> {
    let mut bytes = Vec::new();
    std::io::BufReader::new(file).read_to_end(&mut bytes)?;
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    let header = (|| {
        if bytes.get(..8)? != MAGIC {
            return None;
        }
        let dimension = word(8)? as usize;
        let name_length = word(12)? as usize;
        let encoder = std::str::from_utf8(bytes.get(16..16 + name_length)?).ok()?;
        Some((dimension, encoder.to_string(), 16 + name_length))
    })();
    let Some((dimension, encoder, start)) = header.filter(|(d, _, _)| *d > 0) else {
        return Ok((Table::default(), 0));
    };
    let mut table = Table {
        encoder,
        dimension,
        ..Table::default()
    };
    let record = 12 + dimension;
    let mut at = start;
    while let Some(chunk) = bytes.get(at..at + record) {
        let key = u64::from_le_bytes(chunk[..8].try_into().expect("8 bytes"));
        let scale = f32::from_le_bytes(chunk[8..12].try_into().expect("4 bytes"));
        let codes: Vec<i8> = chunk[12..].iter().map(|&b| b as i8).collect();
        table.push(key, scale, &codes);
        at += record;
    }
    Ok((table, at as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(seed: u64, dimension: usize) -> Vec<f32> {
        let mut random = crate::random::SplitMix64::new(seed);
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
    }
}
