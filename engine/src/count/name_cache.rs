//! Embeddings of short names (instance names, count nouns, answer types), each computed once.
//!
//! The same names come back question after question ("songs", "United States", "Swahili"), and
//! every one is a pass through the encoder. The cache keeps the most recently used ones, bounded
//! so that a long-running server does not grow with every name it ever saw.

use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;

use tally_encoder::{Encoder, EncoderError};

/// Names kept: 384 floats each, so about 15 MB for MiniLM.
pub const CACHED_NAMES: usize = 10_000;

/// An encoder with a bounded, least-recently-used cache of the names it embedded.
pub struct NameCache {
    encoder: Arc<Encoder>,
    names: Mutex<LruCache<String, Vec<f32>>>,
}

impl NameCache {
    /// A cache of [`CACHED_NAMES`] names.
    pub fn new(encoder: Arc<Encoder>) -> Self {
        Self::with_capacity(encoder, CACHED_NAMES)
    }

    /// A cache of `capacity` names (at least one).
    pub fn with_capacity(encoder: Arc<Encoder>, capacity: usize) -> Self {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        Self {
            encoder,
            names: Mutex::new(LruCache::new(capacity)),
        }
    }

    /// The encoder that embeds the names.
    pub fn encoder(&self) -> &Arc<Encoder> {
        &self.encoder
    }

    /// The embedding of every name, in order: cached ones from the cache, the others computed in
    /// one batch (each distinct name once) and remembered.
    pub fn embed<S: AsRef<str>>(&self, names: &[S]) -> Result<Vec<Vec<f32>>, EncoderError> {
        let mut found: Vec<Option<Vec<f32>>> = {
            let mut cache = self.lock();
            names
                .iter()
                .map(|n| cache.get(n.as_ref()).cloned())
                .collect()
        };
        let mut missing: Vec<&str> = names
            .iter()
            .zip(&found)
            .filter(|(_, f)| f.is_none())
            .map(|(n, _)| n.as_ref())
            .collect();
        missing.sort_unstable();
        missing.dedup();
        if !missing.is_empty() {
            // Computed without the lock: other questions' names stay available meanwhile.
            let computed: HashMap<&str, Vec<f32>> = missing
                .iter()
                .copied()
                .zip(self.encoder.embed(&missing)?)
                .collect();
            for (slot, name) in found.iter_mut().zip(names) {
                if slot.is_none() {
                    *slot = computed.get(name.as_ref()).cloned();
                }
            }
            let mut cache = self.lock();
            for (name, embedding) in computed {
                cache.put(name.to_string(), embedding);
            }
        }
        Ok(found.into_iter().map(Option::unwrap_or_default).collect())
    }

    /// How many names are cached.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no name is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every name (benchmarks that measure a question never seen before).
    pub fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<String, Vec<f32>>> {
        self.names.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_names_embed_as_the_encoder_does_and_the_cache_stays_bounded() {
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let cache = NameCache::with_capacity(encoder.clone(), 3);
        let names = ["Swahili", "Amharic", "Swahili", "Yoruba"];
        let first = cache.embed(&names).unwrap();
        let direct = encoder.embed(&names).unwrap();
        assert_eq!(first, direct, "a computed name is the encoder's embedding");
        assert_eq!(cache.len(), 3, "each distinct name once");
        // A fourth name evicts the least recently used one, and every answer is still whole,
        // even when a batch holds more new names than the cache keeps.
        let more = ["Zulu", "Hausa", "Igbo", "Swahili"];
        let second = cache.embed(&more).unwrap();
        assert_eq!(second, encoder.embed(&more).unwrap());
        assert!(second.iter().all(|e| e.len() == encoder.dimension()));
        assert_eq!(cache.len(), 3);
        cache.clear();
        assert!(cache.is_empty());
    }
}
