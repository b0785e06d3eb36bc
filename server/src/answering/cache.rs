//! Recent answers, so that a popular question is answered once, not once per visitor.

use super::*;

/// Answers kept in the cache.
pub(super) const CACHE_ENTRIES: usize = 256;

/// What a cached answer is computed from (the decision names it).
pub(super) use tally_answer::AnswerKey as CacheKey;

/// Recent answers by question, mode and settings, oldest evicted first.
#[derive(Default)]
pub(super) struct Cache {
    pub(super) entries: HashMap<CacheKey, Answer>,
    pub(super) order: VecDeque<CacheKey>,
}

impl Cache {
    pub(super) fn get(&self, key: &CacheKey) -> Option<Answer> {
        self.entries.get(key).cloned()
    }

    pub(super) fn put(&mut self, key: CacheKey, answer: Answer) {
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
    use tally_types::QuestionKind;

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
                ranker: tally_types::Ranker::Bm25,
                sort: tally_types::SortOrder::Relevance,
                alpha: 1.0,
                k: 10,
                notes: vec![],
                hits: vec![],
                entities: vec![],
                timings: Default::default(),
            })),
            scope: None,
            did_you_mean: None,
        };
        let key = |n: usize| CacheKey {
            question: n.to_string(),
            mode: Mode::Search,
            kind: QuestionKind::Search,
            settings: String::new(),
        };
        for n in 0..=CACHE_ENTRIES {
            cache.put(key(n), answer(n));
        }
        assert!(cache.get(&key(0)).is_none());
        assert!(cache.get(&key(1)).is_some());
        assert_eq!(cache.entries.len(), CACHE_ENTRIES);
    }
}
