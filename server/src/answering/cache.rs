//! Recent answers, so that a popular question is answered once, not once per visitor.

use super::*;

/// Answers kept in the cache.
pub(super) const CACHE_ENTRIES: usize = 256;

/// Recent answers by question, mode and settings, oldest evicted first.
#[derive(Default)]
pub(super) struct Cache {
    pub(super) entries: HashMap<String, Answer>,
    pub(super) order: VecDeque<String>,
}

impl Cache {
    pub(super) fn get(&self, key: &str) -> Option<Answer> {
        self.entries.get(key).cloned()
    }

    pub(super) fn put(&mut self, key: String, answer: Answer) {
        if self.entries.insert(key.clone(), answer).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > CACHE_ENTRIES {
            if let Some(old) = self.order.pop_front() {
                self.entries.remove(&old);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_evicts_the_oldest() {
        let mut cache = Cache::default();
        let answer = |n: usize| Answer {
            kind: QuestionKind::Search,
            kind_reason: String::new(),
            chosen_by_user: false,
            answer: AnswerBody::Search(Box::new(tally_types::SearchResults {
                query: n.to_string(),
                understood: tally_types::search::QueryView {
                    terms: vec![],
                    constraints: vec![],
                },
                ranker: tally_engine::search::Ranker::Bm25,
                sort: tally_engine::search::SortOrder::Relevance,
                alpha: 1.0,
                k: 10,
                notes: vec![],
                hits: vec![],
                entities: vec![],
                timings: Default::default(),
            })),
        };
        for n in 0..=CACHE_ENTRIES {
            cache.put(n.to_string(), answer(n));
        }
        assert!(cache.get("0").is_none());
        assert!(cache.get("1").is_some());
        assert_eq!(cache.entries.len(), CACHE_ENTRIES);
    }
}
