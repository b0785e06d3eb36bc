//! The crops of scanned pages kept as evidence (issue 100), found by the evidence they show.
//!
//! A passage read by OCR carries the crop of the page it was read from ([`crate::corpus::
//! structure::crops`]). When its document is indexed, the crop is filed under a key for each
//! way an answer shows that passage: its context with its text (a count's snippet, or each
//! piece of a long one), with each of its sentences (a value's observation, a table cell's
//! sentence), and a table row's document and place with its cells (an aggregation's row).
//! Whoever shows the evidence asks for the crop by what it shows, with [`crop_key`]; a crop is
//! kept per corpus, once (under the hash of its bytes, each key a pointer to it), and deleted
//! with its corpus.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use sha2::{Digest, Sha256};

use crate::corpus::structure::snippet_pieces;
use crate::corpus::structure::PLACE_SEPARATOR;
use crate::corpus::structure::{passages_of, sentences_in_context, Passage, Record};

use tally_types::documents::{row_crop_source, ROW_CELLS_SEPARATOR};

/// The key of the crop shown beside the evidence `text` read in `source` (its context: title,
/// headings and place, or a table row's place alone): 32 hexadecimal digits.
pub fn crop_key(source: &str, text: &str) -> String {
    let digest = Sha256::new()
        .chain_update(source.as_bytes())
        .chain_update(b"\n")
        .chain_update(text.as_bytes())
        .finalize();
    hex_of_half(&digest)
}

/// The first half of a SHA-256 digest in hexadecimal: 32 digits, a key or a file name.
fn hex_of_half(digest: &[u8]) -> String {
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// The key of the crop of a table row, as an aggregation shows it: in `document` (its source),
/// at `place`, its `cells`.
pub fn row_crop_key(document: &str, place: &str, cells: &[String]) -> String {
    crop_key(
        &row_crop_source(document, place),
        &cells.join(ROW_CELLS_SEPARATOR),
    )
}

/// The crops of the passages of a stored document's `text` (`untitled` naming its passages
/// before a context), each under every key its evidence is shown by.
pub fn document_crops(text: &str, untitled: &str) -> Vec<(String, Arc<[u8]>)> {
    let mut out = Vec::new();
    for passage in passages_of(text, untitled) {
        let Some(crop) = &passage.crop else {
            continue;
        };
        for key in passage_keys(&passage, untitled) {
            out.push((key, Arc::clone(crop)));
        }
    }
    out
}

/// Every key the evidence of `passage`, of the document `source`, is shown by (see the module's
/// description): a long passage's snippets are its pieces.
fn passage_keys(passage: &Passage, source: &str) -> Vec<String> {
    let mut keys = vec![crop_key(&passage.context, &passage.text)];
    keys.extend(
        snippet_pieces(&passage.text)
            .iter()
            .map(|piece| crop_key(&passage.context, piece)),
    );
    keys.extend(
        sentences_in_context(passage)
            .iter()
            .map(|(sentence, context)| crop_key(context, sentence)),
    );
    if let Some(Record::TableRow { cells, .. } | Record::TotalRow { cells, .. }) =
        passage.record.as_deref()
    {
        // A row's place is its context's part after the headings ("page 1, read by OCR, …").
        // Split as the typed tables split it (`crate::tables`).
        let place = passage
            .context
            .split_once(PLACE_SEPARATOR)
            .map(|(_, place)| place);
        if let Some(place) = place {
            keys.push(row_crop_key(source, place, cells));
        }
    }
    keys.sort();
    keys.dedup();
    keys
}

/// Where the crops are kept: files in a folder beside an index on disk (a folder per corpus,
/// each crop once as `<hash of its bytes>.png`, each key a file `<key>.key` naming it), or
/// memory beside an index in memory.
#[derive(Debug)]
pub struct CropStore {
    dir: Option<PathBuf>,
    memory: RwLock<HashMap<String, CorpusCrops>>,
}

/// One corpus's crops held in memory, by key.
type CorpusCrops = HashMap<String, Arc<[u8]>>;

/// Whether `corpus` names a folder of its own under the store's: one plain name, no `..`, no
/// separator (a corpus named otherwise has no crops).
fn is_folder_name(corpus: &str) -> bool {
    let mut parts = Path::new(corpus).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(_)), None)
    )
}

/// A key is 32 hexadecimal digits ([`crop_key`]): a path never is one.
fn is_key(key: &str) -> bool {
    key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit())
}

impl CropStore {
    /// Crops kept in memory.
    pub fn in_memory() -> Self {
        Self {
            dir: None,
            memory: RwLock::default(),
        }
    }

    /// Crops kept in `dir` (made when first written).
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            dir: Some(dir.to_path_buf()),
            memory: RwLock::default(),
        }
    }

    /// Keeps `crops` (key and PNG) under `corpus`; a corpus name that is not one plain name is
    /// refused (`InvalidInput`).
    pub fn add(&self, corpus: &str, crops: &[(String, Arc<[u8]>)]) -> std::io::Result<()> {
        if crops.is_empty() {
            return Ok(());
        }
        if !is_folder_name(corpus) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("`{corpus}` is not a corpus name crops can be kept under"),
            ));
        }
        match &self.dir {
            Some(dir) => {
                let folder = dir.join(corpus);
                std::fs::create_dir_all(&folder)?;
                for (key, png) in crops {
                    let name = content_name(png);
                    let file = folder.join(&name);
                    if !file.exists() {
                        std::fs::write(&file, png)?;
                    }
                    std::fs::write(folder.join(format!("{key}.key")), &name)?;
                }
            }
            None => {
                let mut memory = self.memory.write().unwrap_or_else(|e| e.into_inner());
                let kept = memory.entry(corpus.to_string()).or_default();
                for (key, png) in crops {
                    kept.insert(key.clone(), Arc::clone(png));
                }
            }
        }
        Ok(())
    }

    /// The crop filed under `key` in any corpus; `None` for a key that is not one (any
    /// character but a hexadecimal digit) or is not kept.
    pub fn get(&self, key: &str) -> std::io::Result<Option<Arc<[u8]>>> {
        if !is_key(key) {
            return Ok(None);
        }
        let Some(dir) = &self.dir else {
            let memory = self.memory.read().unwrap_or_else(|e| e.into_inner());
            return Ok(memory.values().find_map(|kept| kept.get(key).cloned()));
        };
        let corpora = match std::fs::read_dir(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            other => other?,
        };
        for corpus in corpora {
            let folder = corpus?.path();
            let name = match std::fs::read_to_string(folder.join(format!("{key}.key"))) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                other => other?,
            };
            // Written by `add`: the name of a file in the same folder.
            if !is_folder_name(&name) {
                continue;
            }
            return Ok(Some(Arc::from(std::fs::read(folder.join(name))?)));
        }
        Ok(None)
    }

    /// Forgets the crops of `corpus` (none can be kept under a name that is not one plain name).
    pub fn delete_corpus(&self, corpus: &str) -> std::io::Result<()> {
        if !is_folder_name(corpus) {
            return Ok(());
        }
        match &self.dir {
            Some(dir) => match std::fs::remove_dir_all(dir.join(corpus)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
            None => {
                let mut memory = self.memory.write().unwrap_or_else(|e| e.into_inner());
                memory.remove(corpus);
                Ok(())
            }
        }
    }
}

/// The file a crop is kept in once: the hash of its bytes (32 hexadecimal digits) and `.png`.
fn content_name(png: &[u8]) -> String {
    format!("{}.png", hex_of_half(&Sha256::digest(png)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::structure::{passages, write_passages, Block, Outline};

    /// A receipt's stored text: a row with a crop, a paragraph without.
    fn stored() -> String {
        let outline = Outline {
            title: Some("Quayside Deli".into()),
            blocks: vec![
                Block {
                    kind: Record::TableRow {
                        header: Arc::from(vec!["Item".to_string(), "Price".to_string()]),
                        cells: vec!["Apple juice".into(), "£3.10".into()],
                    },
                    sections: vec!["Items".into()],
                    place: Some("page 1, read by OCR, 91% sure".into()),
                    crop: Some(Arc::from(&b"png"[..])),
                },
                Block {
                    kind: Record::Paragraph("Thank you".into()),
                    sections: Vec::new(),
                    place: Some("page 1, read by OCR, 88% sure".into()),
                    crop: None,
                },
            ],
        };
        write_passages(&passages(&outline, "receipt"))
    }

    #[test]
    fn a_crop_is_found_by_each_way_its_evidence_is_shown() {
        let crops = document_crops(&stored(), "receipt");
        let keys: Vec<&str> = crops.iter().map(|(k, _)| k.as_str()).collect();
        let context = "Quayside Deli › Items · page 1, read by OCR, 91% sure";
        // The snippet, the cell's sentence and the aggregation's row.
        for key in [
            crop_key(context, "Item: Apple juice — Price: £3.10"),
            row_crop_key(
                "receipt",
                "page 1, read by OCR, 91% sure",
                &["Apple juice".into(), "£3.10".into()],
            ),
        ] {
            assert!(keys.contains(&key.as_str()), "{key} in {keys:?}");
        }
        assert!(crops.iter().all(|(_, png)| &png[..] == b"png"));
        assert!(!keys.contains(&crop_key("Quayside Deli · page 1", "Thank you").as_str()));
    }

    #[test]
    fn each_row_of_a_scanned_table_finds_its_crop_as_an_aggregation_shows_it() {
        use crate::corpus::budget::ReadBudget;
        use crate::corpus::documents::read_file;
        use crate::corpus::format::Format;
        use crate::tables::tables_of;
        let scan = include_bytes!("../../tests/fixtures/scans/hollowmere-bowls-club.pdf");
        let budget = ReadBudget::for_bytes(scan.len());
        let document = read_file(scan, Format::Pdf, "bowls.pdf", &budget)
            .unwrap()
            .remove(0);
        let crops = document_crops(&document.text, &document.source);
        let keys: HashMap<&str, &[u8]> = crops
            .iter()
            .map(|(k, png)| (k.as_str(), &png[..]))
            .collect();
        let rows: Vec<_> = tables_of(&document.text, &document.source)
            .into_iter()
            .flat_map(|table| {
                table
                    .rows
                    .into_iter()
                    .map(move |row| (table.document.clone(), row))
            })
            .collect();
        // The league table's four teams, each row's crop its own line.
        assert!(rows.len() >= 4, "{rows:?}");
        let mut shown = std::collections::HashSet::new();
        for (document, row) in &rows {
            let cells: Vec<String> = row.cells.iter().map(|c| c.text.clone()).collect();
            let place = row.place.as_deref().unwrap();
            let crop = keys.get(row_crop_key(document, place, &cells).as_str());
            let crop = crop.unwrap_or_else(|| panic!("{place}: {cells:?}"));
            shown.insert(crop.to_vec());
        }
        assert_eq!(shown.len(), rows.len());
    }

    #[test]
    fn crops_are_kept_per_corpus_on_disk_and_in_memory_and_deleted_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let crops = document_crops(&stored(), "receipt");
        let key = crops[0].0.clone();
        // On disk, the row's crop once, whatever the number of keys it is filed under.
        let on_disk = CropStore::in_dir(&dir.path().join("crops"));
        on_disk.add("deli", &crops).unwrap();
        let files: Vec<_> = std::fs::read_dir(dir.path().join("crops/deli"))
            .unwrap()
            .flatten()
            .map(|f| f.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(crops.len() >= 2, "{crops:?}");
        assert_eq!(
            files.iter().filter(|f| f.ends_with(".png")).count(),
            1,
            "{files:?}"
        );
        on_disk.delete_corpus("deli").unwrap();
        for store in [on_disk, CropStore::in_memory()] {
            assert_eq!(store.get(&key).unwrap(), None);
            store.add("deli", &crops).unwrap();
            assert_eq!(store.get(&key).unwrap().as_deref(), Some(&b"png"[..]));
            // A key is hexadecimal: a path is never one.
            assert_eq!(store.get("../../etc/passwd").unwrap(), None);
            // A corpus is one plain name: nothing is kept or deleted above the store's folder.
            for name in ["..", "/tmp", "a/b", ""] {
                assert!(store.add(name, &crops).is_err(), "{name}");
                store.delete_corpus(name).unwrap();
            }
            assert_eq!(store.get(&key).unwrap().as_deref(), Some(&b"png"[..]));
            store.delete_corpus("deli").unwrap();
            assert_eq!(store.get(&key).unwrap(), None);
            store.delete_corpus("deli").unwrap();
        }
    }
}
