//! Which version of each database corpus this server's indexes hold, and whether whole: a small
//! JSON file beside the snippet index, written before a corpus is indexed (as incomplete) and
//! after (as complete), so that a server killed halfway knows on its next start that the
//! corpus must be indexed again from scratch.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

/// A corpus as these indexes hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    /// The database version indexed (when complete), or the one indexed before this pass began.
    pub version: i64,
    /// False while it is being indexed, and after a crash during it.
    pub complete: bool,
    /// The database version being indexed, while it is (`None` in files written before
    /// issue 84).
    #[serde(default)]
    pub indexing: Option<i64>,
    /// Indexing was stopped on purpose (a shutdown), not by a crash.
    #[serde(default)]
    pub interrupted: bool,
}

impl Held {
    /// `version` held whole.
    pub fn whole(version: i64) -> Self {
        Self {
            version,
            complete: true,
            indexing: None,
            interrupted: false,
        }
    }

    /// Being indexed up to `target`, from what `version` held.
    pub fn indexing(version: i64, target: i64) -> Self {
        Self {
            version,
            complete: false,
            indexing: Some(target),
            interrupted: false,
        }
    }

    /// The version whose indexing took the server down: one was under way and was not
    /// stopped on purpose.
    pub fn crashed_at(&self) -> Option<i64> {
        self.indexing
            .filter(|_| !self.complete && !self.interrupted)
    }
}

/// The held corpora, and the file that keeps them.
pub struct HeldCorpora {
    path: PathBuf,
    corpora: Mutex<BTreeMap<String, Held>>,
}

impl HeldCorpora {
    /// The file for the snippet index at `snippet_index`.
    pub fn beside(snippet_index: &Path) -> PathBuf {
        let name = snippet_index
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "index".into());
        snippet_index.with_file_name(format!("{name}.held-corpora.json"))
    }

    /// Reads `path`; a missing or unreadable file holds nothing (every database corpus is then
    /// indexed again from scratch, which is always safe).
    pub fn open(path: PathBuf) -> Self {
        let corpora = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).unwrap_or_else(|e| {
                tracing::warn!(
                    "{} is not readable ({e}); corpora are indexed again",
                    path.display()
                );
                BTreeMap::new()
            }),
            Err(_) => BTreeMap::new(),
        };
        Self {
            path,
            corpora: Mutex::new(corpora),
        }
    }

    pub fn get(&self, corpus: &str) -> Option<Held> {
        self.corpora.lock().ok()?.get(corpus).copied()
    }

    /// The corpora that were being indexed when the server stopped.
    pub fn incomplete(&self) -> Vec<String> {
        self.held_where(|h| !h.complete)
            .into_iter()
            .map(|(name, _)| name)
            .collect()
    }

    /// The corpora whose indexing took the server down, with the version that did (see
    /// [`Held::crashed_at`]).
    pub fn crashed(&self) -> Vec<(String, i64)> {
        self.held_where(|h| h.crashed_at().is_some())
            .into_iter()
            .filter_map(|(name, h)| Some((name, h.crashed_at()?)))
            .collect()
    }

    fn held_where(&self, keep: impl Fn(&Held) -> bool) -> Vec<(String, Held)> {
        self.corpora
            .lock()
            .map(|c| {
                c.iter()
                    .filter(|(_, h)| keep(h))
                    .map(|(name, h)| (name.clone(), *h))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Records `held` for `corpus` (`None`: the corpus is gone), on disk before returning.
    pub fn set(&self, corpus: &str, held: Option<Held>) -> std::io::Result<()> {
        let mut corpora = self
            .corpora
            .lock()
            .map_err(|_| std::io::Error::other("the held corpora's lock is poisoned"))?;
        match held {
            Some(held) => corpora.insert(corpus.to_string(), held),
            None => corpora.remove(corpus),
        };
        let text = serde_json::to_string_pretty(&*corpora).map_err(std::io::Error::other)?;
        // Written whole or not at all: a new file renamed over the old.
        let partial = self.path.with_extension("json.partial");
        std::fs::write(&partial, text)?;
        std::fs::rename(&partial, &self.path)
    }
}

/// What a server does to make its copy of a database corpus current.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// It is current (or gone in both).
    Nothing,
    /// Deleted in the database: drop the copy.
    Drop,
    /// Index only the documents added after the version held.
    Add { after: i64 },
    /// Drop any copy and index every document: nothing is held, or only part of it, or a
    /// version older than the last replacement.
    Rebuild,
}

/// The step from what is `held` to the database's `version` (raised by every change),
/// `base_version` (of the last replacement), `deleted`, and `failed` (indexing this version
/// failed or took a server down: it is not tried again, and a part of it held is dropped).
pub(crate) fn step(
    held: Option<Held>,
    version: i64,
    base_version: i64,
    deleted: bool,
    failed: bool,
) -> Step {
    if deleted {
        return if held.is_some() {
            Step::Drop
        } else {
            Step::Nothing
        };
    }
    if failed {
        return match held {
            Some(h) if !h.complete => Step::Drop,
            _ => Step::Nothing,
        };
    }
    match held {
        Some(h) if h.complete && h.version == version => Step::Nothing,
        Some(h) if h.complete && h.version >= base_version && h.version < version => {
            Step::Add { after: h.version }
        }
        _ => Step::Rebuild,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHOLE_3: Held = Held {
        version: 3,
        complete: true,
        indexing: None,
        interrupted: false,
    };

    #[test]
    fn each_copy_takes_the_step_that_makes_it_current() {
        // Current, or gone in both.
        assert_eq!(step(Some(WHOLE_3), 3, 1, false, false), Step::Nothing);
        assert_eq!(step(None, 4, 1, true, false), Step::Nothing);
        // Documents added since: only they are indexed.
        assert_eq!(
            step(Some(WHOLE_3), 5, 1, false, false),
            Step::Add { after: 3 }
        );
        assert_eq!(
            step(Some(WHOLE_3), 5, 3, false, false),
            Step::Add { after: 3 }
        );
        // Replaced since the version held, never held, or held in part: from scratch.
        assert_eq!(step(Some(WHOLE_3), 5, 4, false, false), Step::Rebuild);
        assert_eq!(step(None, 1, 1, false, false), Step::Rebuild);
        let half = Held::indexing(3, 4);
        assert_eq!(step(Some(half), 3, 1, false, false), Step::Rebuild);
        assert_eq!(step(Some(half), 5, 1, false, false), Step::Rebuild);
        // Deleted: the copy goes, whole or not.
        assert_eq!(step(Some(WHOLE_3), 4, 1, true, false), Step::Drop);
        assert_eq!(step(Some(half), 4, 1, true, false), Step::Drop);
        // A version whose indexing failed or crashed is not tried again; a part held goes.
        assert_eq!(step(Some(half), 4, 1, false, true), Step::Drop);
        assert_eq!(step(None, 4, 1, false, true), Step::Nothing);
        assert_eq!(step(Some(WHOLE_3), 4, 1, false, true), Step::Nothing);
    }

    #[test]
    fn the_file_keeps_what_was_set_and_a_bad_file_holds_nothing() {
        let dir = std::env::temp_dir().join(format!("tally-held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = HeldCorpora::beside(&dir.join("snippets"));
        assert!(path.ends_with("snippets.held-corpora.json"));
        let held = HeldCorpora::open(path.clone());
        held.set("reports", Some(WHOLE_3)).unwrap();
        held.set("notes", Some(Held::indexing(1, 2))).unwrap();
        let stopped = Held {
            interrupted: true,
            ..Held::indexing(0, 1)
        };
        held.set("stopped", Some(stopped)).unwrap();
        held.set("gone", Some(WHOLE_3)).unwrap();
        held.set("gone", None).unwrap();
        let again = HeldCorpora::open(path.clone());
        assert_eq!(again.get("reports"), Some(WHOLE_3));
        assert_eq!(again.get("gone"), None);
        assert_eq!(
            again.incomplete(),
            vec!["notes".to_string(), "stopped".into()]
        );
        // Only the one that was under way when the process died crashed it.
        assert_eq!(again.crashed(), vec![("notes".to_string(), 2)]);
        // A file written before issue 84 reads, with no version under way.
        std::fs::write(&path, r#"{"old": {"version": 2, "complete": false}}"#).unwrap();
        assert_eq!(HeldCorpora::open(path.clone()).crashed(), vec![]);
        std::fs::write(&path, "{not json").unwrap();
        assert_eq!(HeldCorpora::open(path).get("reports"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
