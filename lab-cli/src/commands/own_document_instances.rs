//! The instances of `tally eval own-documents`: for the collection's questions whose document
//! names the things counted (`instances.jsonl`), how many of them the answer's top 5 instances
//! hold, and how many of the top 5 are none of them — an opener, a place or a person for a
//! question about mines is an instance of the wrong type. Report only: nothing is chosen on it.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde::Deserialize;
use tally_types::count::RankedInstance;

/// How many instances of an answer are checked.
const TOP: usize = 5;

#[derive(Debug, Deserialize)]
struct InstanceGold {
    question: String,
    instances: Vec<String>,
}

/// One question's check: its top instances, how many gold ones they hold, how many are wrong.
#[derive(Debug, Clone)]
pub(crate) struct InstanceRow {
    /// The question as asked.
    pub(crate) question: String,
    /// The instances shown first, best first.
    pub(crate) top: Vec<String>,
    /// Gold instances of the question.
    pub(crate) gold: usize,
    /// Gold instances among the top ones.
    pub(crate) found: usize,
    /// Top instances that are not gold.
    pub(crate) wrong: usize,
}

/// The gold instances of the collection, by question; empty when it has no `instances.jsonl`.
#[derive(Debug, Default)]
pub(crate) struct InstanceCheck {
    gold: BTreeMap<String, Vec<String>>,
    /// One row per checked question.
    pub(crate) rows: Vec<InstanceRow>,
}

/// Lower-cased words, for matching a found name with a gold one ("The Salt Road" and "Salt
/// Road" match: either holds the other's words).
fn name_words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && *w != "the")
        .map(str::to_lowercase)
        .collect()
}

fn same_thing(found: &str, gold: &str) -> bool {
    let (f, g) = (name_words(found), name_words(gold));
    !f.is_empty()
        && !g.is_empty()
        && (f.iter().all(|w| g.contains(w)) || g.iter().all(|w| f.contains(w)))
}

impl InstanceCheck {
    /// Reads `dir/instances.jsonl` when it exists.
    pub(crate) fn read(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join("instances.jsonl");
        let mut check = Self::default();
        if !path.is_file() {
            return Ok(check);
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let gold: InstanceGold = serde_json::from_str(line)
                .with_context(|| format!("{}, line {}", path.display(), n + 1))?;
            check
                .gold
                .insert(gold.question.to_lowercase(), gold.instances);
        }
        Ok(check)
    }

    /// Checks an answer's instances when its question has gold instances.
    pub(crate) fn add(&mut self, question: &str, instances: &[RankedInstance]) {
        let Some(gold) = self.gold.get(&question.to_lowercase()) else {
            return;
        };
        let top: Vec<String> = instances.iter().take(TOP).map(|i| i.name.clone()).collect();
        let found = gold
            .iter()
            .filter(|g| top.iter().any(|t| same_thing(t, g)))
            .count();
        let wrong = top
            .iter()
            .filter(|t| !gold.iter().any(|g| same_thing(t, g)))
            .count();
        self.rows.push(InstanceRow {
            question: question.to_string(),
            top,
            gold: gold.len(),
            found,
            wrong,
        });
    }

    /// The per-question lines and the totals.
    pub(crate) fn print(&self) {
        if self.rows.is_empty() {
            return;
        }
        println!("\ninstances over the documents alone (top {TOP}; report only):");
        for row in &self.rows {
            println!(
                "  {} — {}/{} named, {} of another kind: {}",
                row.question,
                row.found,
                row.gold.min(TOP),
                row.wrong,
                row.top.join(", ")
            );
        }
        let found: usize = self.rows.iter().map(|r| r.found).sum();
        let named: usize = self.rows.iter().map(|r| r.gold.min(TOP)).sum();
        let wrong: usize = self.rows.iter().map(|r| r.wrong).sum();
        let shown: usize = self.rows.iter().map(|r| r.top.len()).sum();
        println!(
            "  in all: {found}/{named} gold instances in the top {TOP}; {wrong} of {shown} shown are of another kind; {} of {} questions with none",
            self.rows.iter().filter(|r| r.wrong == 0).count(),
            self.rows.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::same_thing;

    #[test]
    fn names_match_by_their_words() {
        assert!(same_thing("Salt Road", "The Salt Road"));
        assert!(same_thing("Ada Linn", "Ada Linn"));
        assert!(!same_thing("Selbury", "Ada Linn"));
        assert!(!same_thing("North Halden", "South Halden"));
    }
}
