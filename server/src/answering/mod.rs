//! The answering service of the web app and the API: the count pipeline and the quantity search
//! over their default corpora, loaded once in the background while the server already listens.
//! Answers are computed on the blocking pool, a bounded number at a time, and recent ones are
//! kept in a small cache (a popular demo question is answered once, not once per visitor).

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use tally_answer::{Around, Corpora, HeldTables, Limits, Options, Sources, Tables};
use tally_encoder::Encoder;
use tally_store::db::Database;
use tally_types::count::answer::StageTiming;
use tally_types::request::{Ask, Settings};
use tally_types::ValueAnswer;
use tally_types::{Answer, AnswerBody, Mode};

use crate::sources::{WebOnRuntime, WebSource};

mod cache;
mod slots;
mod summary;
mod vectors;

use cache::Cache;
use slots::Slot;
use slots::Slots;
pub use summary::summary_of;
pub use tally_answer::{
    count_settings, search_settings, validate_question, AnswerError, Checked, EngineConfig,
    Engines, ExampleQuestions, LoadFailure, Refused,
};

/// Told about each stage of an answer as it finishes.
pub type StageObserver = Arc<dyn Fn(&StageTiming) + Send + Sync>;

/// The observer for an answer whose progress nobody follows.
pub fn unobserved() -> StageObserver {
    Arc::new(|_| {})
}

/// Where the engines are, once loaded.
#[derive(Clone)]
pub struct Answerer {
    engines: Arc<OnceLock<Result<Arc<Engines>, LoadFailure>>>,
    /// The answers computed at once, and the questions waiting for a slot.
    slots: Arc<Slots>,
    /// The most snippets one count question may read: what bounds a question's cost (reading
    /// and instance scoring grow with it; 1,000 with the reader's instances took 30 s of CPU).
    max_snippets: usize,
    cache: Arc<Mutex<Cache>>,
    /// The web search for count snippets, when one is configured.
    web: Option<Arc<WebSource>>,
    /// The database whose record tables aggregations run over (issue 74); without one (`tally
    /// ask`), the tables are read back from the snippet index.
    records: Option<Database>,
    /// The tables read back from the snippet index, per corpus (without a database).
    held_tables: Arc<HeldTables>,
    /// Corpora being indexed (from the database) right now: not offered and not asked, so that
    /// no answer comes from half a corpus.
    /// Corpora hidden from questions, and why.
    hidden: Arc<Mutex<BTreeMap<String, Hidden>>>,
    /// The sentence-vector job, once the engines are loaded (none without the encoder, or when
    /// the server was told not to compute vectors).
    vectors: Arc<OnceLock<Arc<vectors::VectorWorker>>>,
}

/// Why a corpus is hidden from questions for a while.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hidden {
    /// Being indexed: a question about it is told to ask again.
    Indexing,
    /// Being deleted: a question about it finds no such corpus.
    Dropping,
}

/// Seconds a refused asker is told to wait: about one answer's time.
const BUSY_RETRY_AFTER_S: u64 = 5;

/// Whether an answer's asker still waits for it: true until the guard is dropped (the request's
/// future, and this guard with it, is dropped when its client goes).
struct Wanted(Arc<AtomicBool>);

impl Wanted {
    fn new() -> Self {
        Self(Arc::new(AtomicBool::new(true)))
    }

    fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

impl Drop for Wanted {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl Answerer {
    /// A service whose engines are not loaded yet; `concurrent` answers run at once and up to
    /// `queue` more wait for their turn (further ones are refused as [`AnswerError::Busy`]).
    pub fn new(concurrent: usize, queue: usize) -> Self {
        Answerer {
            engines: Arc::new(OnceLock::new()),
            slots: Slots::new(concurrent, queue),
            max_snippets: tally_types::count::DEFAULT_MAX_SNIPPETS,
            cache: Arc::new(Mutex::new(Cache::default())),
            web: None,
            records: None,
            held_tables: Arc::default(),
            hidden: Arc::default(),
            vectors: Arc::default(),
        }
    }

    /// Runs aggregations as SQL over `db`'s record tables.
    pub fn with_records(mut self, db: Database) -> Self {
        self.records = Some(db);
        self
    }

    /// Lets a count question read up to `max` snippets (the operator's `--max-snippets`).
    pub fn with_max_snippets(mut self, max: usize) -> Self {
        self.max_snippets = max.max(1);
        self
    }

    /// The most snippets a count question may read here.
    pub fn max_snippets(&self) -> usize {
        self.max_snippets
    }

    /// Lets count questions take their snippets from `web` (the `snippet_source=web` setting).
    pub fn with_web(mut self, web: Option<Arc<WebSource>>) -> Self {
        self.web = web;
        self
    }

    /// The configured web search, if any.
    pub fn web(&self) -> Option<&WebSource> {
        self.web.as_deref()
    }

    /// Loads the corpora (ingesting the default corpus into empty indexes) and the span model;
    /// blocking, meant for a background thread. The encoder is the server's, loaded already.
    pub fn load(&self, config: &EngineConfig, encoder: Option<Arc<Encoder>>) {
        let loaded = tally_answer::load(config, encoder).map(Arc::new);
        match &loaded {
            Ok(engines) => {
                tracing::info!(
                    "answering ready: {} snippets, {} sentences",
                    engines.snippets.len(),
                    engines.sentences.len()
                );
                if let Some(encoder) = engines.encoder.clone().filter(|_| config.sentence_vectors) {
                    let worker = vectors::VectorWorker::start(
                        Arc::clone(engines),
                        encoder,
                        self.service_state(),
                    );
                    let _ = self.vectors.set(worker);
                }
            }
            Err(e) => tracing::error!("answering unavailable: {}", tally_types::error::Causes(e)),
        }
        let _ = self.engines.set(loaded);
    }

    /// Whether the engines are loaded, still loading, or failed (with why).
    pub fn state(&self) -> Result<bool, LoadFailure> {
        match self.engines.get() {
            None => Ok(false),
            Some(Ok(_)) => Ok(true),
            Some(Err(e)) => Err(e.clone()),
        }
    }

    /// The loaded engines (their indexes take ingested documents), or why there are none.
    pub fn loaded(&self) -> Result<Arc<Engines>, AnswerError> {
        self.engines()
    }

    /// `corpus` is being indexed, or is indexed: it is hidden until [`Answerer::indexed`].
    pub fn indexing(&self, corpus: &str) {
        self.hide(corpus, Hidden::Indexing);
    }

    /// `corpus` is being deleted: hidden (and unknown to questions) until [`Answerer::indexed`].
    pub fn dropping(&self, corpus: &str) {
        self.hide(corpus, Hidden::Dropping);
    }

    fn hide(&self, corpus: &str, why: Hidden) {
        self.held_tables.forget(corpus);
        if let Ok(mut hidden) = self.hidden.lock() {
            hidden.insert(corpus.to_string(), why);
        }
    }

    /// `corpus` is indexed whole (or gone), and offered if it is there.
    pub fn indexed(&self, corpus: &str) {
        self.held_tables.forget(corpus);
        if let Ok(mut hidden) = self.hidden.lock() {
            hidden.remove(corpus);
        }
        self.corpora_changed();
    }

    /// The corpora of the loaded indexes that may be asked: those not being indexed or deleted.
    fn offered_corpora(&self, engines: &Engines) -> Vec<String> {
        let mut corpora = engines.snippets.corpora().unwrap_or_default();
        if let Ok(hidden) = self.hidden.lock() {
            corpora.retain(|c| !hidden.contains_key(c));
        }
        corpora
    }

    /// The corpora being indexed now (not those being deleted).
    pub fn indexing_now(&self) -> BTreeSet<String> {
        self.hidden
            .lock()
            .map(|hidden| {
                hidden
                    .iter()
                    .filter(|(_, why)| **why == Hidden::Indexing)
                    .map(|(corpus, _)| corpus.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The corpora changed (documents were ingested or deleted): cached answers are forgotten.
    pub fn corpora_changed(&self) {
        if let Ok(mut cache) = self.cache.lock() {
            *cache = Cache::default();
        }
        if let Some(worker) = self.vectors.get() {
            worker.wake();
        }
    }

    /// What the sentence-vector job reads of this service: whether answers are computing, and
    /// whether a corpus is being indexed.
    fn service_state(&self) -> vectors::ServiceState {
        let slots = Arc::clone(&self.slots);
        let hidden = Arc::clone(&self.hidden);
        vectors::ServiceState {
            answering: Box::new(move || slots.computing() > 0),
            indexing: Box::new(move || {
                hidden
                    .lock()
                    .map(|h| h.values().any(|why| *why == Hidden::Indexing))
                    .unwrap_or(false)
            }),
        }
    }

    /// Where the sentence-vector job stands (`None` when the server computes no vectors, or
    /// before the job's first count).
    pub fn vector_progress(&self) -> Option<tally_engine::search::vector_job::VectorProgress> {
        self.vectors.get()?.progress()
    }

    fn engines(&self) -> Result<Arc<Engines>, AnswerError> {
        match self.engines.get() {
            None => Err(AnswerError::Loading),
            Some(Ok(engines)) => Ok(engines.clone()),
            Some(Err(e)) => Err(AnswerError::Unavailable(e.clone())),
        }
    }

    /// Names the loaded corpora, for the key an answer is stored under: an answer from other
    /// corpora is another answer. (Their sizes: the indexes are filled once and only grow.)
    pub fn corpus_version(&self) -> String {
        match self.engines.get() {
            Some(Ok(e)) => format!(
                "{} snippets, {} sentences, corpora {}",
                e.snippets.len(),
                e.sentences.len(),
                e.corpora_at_load.join(",")
            ),
            _ => "not loaded".into(),
        }
    }

    /// Questions the loaded corpora answer (none while loading).
    pub fn example_questions(&self) -> ExampleQuestions {
        self.engines()
            .map(|e| e.examples.clone())
            .unwrap_or_default()
    }

    /// The corpora a question may name now: those loaded, less those being indexed or deleted
    /// (none while loading).
    pub fn corpora(&self) -> Vec<String> {
        self.engines()
            .map(|e| self.offered_corpora(&e))
            .unwrap_or_default()
    }

    /// Checks a question once, before any work: its text (cleaned, then its length), the
    /// mode's kind and the settings of the pipelines it may use (the others stay at their
    /// defaults). The corpus is checked once the engines are loaded (before, answering says
    /// "still loading" anyway, and checks it then).
    pub fn check(&self, ask: &Ask) -> Result<Checked, AnswerError> {
        let offered = self
            .engines
            .get()
            .and_then(|e| e.as_ref().ok())
            .map(|engines| self.offered_corpora(engines));
        tally_answer::check(
            ask,
            &Limits {
                max_snippets: self.max_snippets,
                web: self.web.is_some(),
                offered,
                indexing: self.indexing_now(),
            },
        )
    }

    /// A value question (`GET /api/value`), checked as the page's value mode checks it: its
    /// text cleaned and within limits, and the corpus it is asked of (`None`: every corpus).
    pub fn check_value(
        &self,
        question: &str,
        corpus: Option<String>,
    ) -> Result<Checked, AnswerError> {
        let mut settings = Settings::default();
        settings.count.corpus = corpus;
        self.check(&Ask {
            q: question.to_string(),
            mode: Mode::Value,
            settings,
        })
    }

    /// Answers a value question [`check_value`](Self::check_value) accepted, through the route
    /// the page, `tally ask --mode value` and `tally value` take: the same answer, scope and
    /// certainty (the answer gate), in an answer slot off the threads that serve requests.
    pub async fn value(&self, checked: &Checked) -> Result<ValueAnswer, AnswerError> {
        let answered = self.answer_checked(checked, unobserved()).await?;
        match answered.answer {
            AnswerBody::Value(found) => Ok(*found),
            // A question checked in the value mode is answered as a value question.
            _ => Err(AnswerError::NotAValue),
        }
    }

    /// Answers `question` as `mode`.
    pub async fn answer(
        &self,
        question: &str,
        mode: Mode,
        settings: &Settings,
    ) -> Result<Answer, AnswerError> {
        let checked = self.check(&Ask {
            q: question.to_string(),
            mode,
            settings: settings.clone(),
        })?;
        self.answer_checked(&checked, unobserved()).await
    }

    /// Answers a question [`check`](Self::check) accepted through the one decision
    /// (`tally_answer::answer`), telling `on_stage` about each stage of the count pipeline as it
    /// finishes (nothing for cached answers and searches, which take milliseconds). The decision
    /// runs on the blocking pool; it waits there for an answer slot when it computes.
    pub async fn answer_checked(
        &self,
        checked: &Checked,
        on_stage: StageObserver,
    ) -> Result<Answer, AnswerError> {
        let engines = self.engines()?;
        let corpora = Corpora {
            offered: self.offered_corpora(&engines),
            indexing: self.indexing_now(),
        };
        let runtime = tokio::runtime::Handle::current();
        // When the asker goes (its request dropped, so this future is dropped), the computation
        // stops at its next stage; until then it keeps its slot, so the slots count the work
        // that really runs. Identical questions are not shared in flight: each asker's answer
        // is its own computation, so stopping one never leaves another without its answer.
        let wanted = Wanted::new();
        let served = Served {
            slots: Arc::clone(&self.slots),
            client: crate::login_throttle::Attempt::client(),
            runtime: runtime.clone(),
            cache: Arc::clone(&self.cache),
            on_stage,
            wanted: wanted.flag(),
        };
        let web = self.web.clone().map(|web| WebOnRuntime {
            web,
            runtime: runtime.clone(),
        });
        let db = self.records.clone();
        let held = Arc::clone(&self.held_tables);
        let checked = checked.clone();
        tokio::task::spawn_blocking(move || {
            let tables = match &db {
                Some(db) => Tables::Stored {
                    db,
                    runtime,
                    held: &held,
                },
                None => Tables::Held(&held),
            };
            let sources = Sources {
                engines: &engines,
                tables,
                corpora: &corpora,
                web: web.as_ref().map(|w| w as &dyn tally_answer::WebSnippets),
            };
            tally_answer::answer(&checked, &sources, &served, Options::WHOLE)
        })
        .await?
    }
}

/// What the server puts around the decision: its answer slots (handed fairly between the
/// askers' addresses), its cache of recent answers, and the asker following the answer.
struct Served {
    slots: Arc<Slots>,
    client: Option<std::net::IpAddr>,
    runtime: tokio::runtime::Handle,
    cache: Arc<Mutex<Cache>>,
    on_stage: StageObserver,
    wanted: Arc<AtomicBool>,
}

impl Around for Served {
    fn slot(&self, costly: bool) -> Result<Box<dyn Send>, AnswerError> {
        let slot: Slot = self
            .runtime
            .block_on(self.slots.take(self.client, costly))
            .map_err(|_| AnswerError::Busy(BUSY_RETRY_AFTER_S))?;
        Ok(Box::new(slot))
    }

    fn cached(&self, key: &cache::CacheKey) -> Option<Answer> {
        self.cache.lock().ok().and_then(|c| c.get(key))
    }

    fn keep(&self, key: cache::CacheKey, answer: &Answer) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.put(key, answer.clone());
        }
    }

    fn on_stage(&self, timing: &StageTiming) {
        (self.on_stage)(timing);
    }

    fn wanted(&self) -> bool {
        self.wanted.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_engine::search::SearchSettings;
    use tally_types::count::SnippetSource;
    use tally_types::{CountSettings, QuestionKind};

    fn asked(mode: Mode, settings: &Settings) -> Ask {
        Ask {
            q: "how many moons".into(),
            mode,
            settings: settings.clone(),
        }
    }

    #[test]
    fn the_question_is_cleaned_and_checked_once_with_its_settings() {
        let answerer = Answerer::new(1, 0);
        let mut ask = asked(Mode::Count, &Settings::default());
        ask.q = "  how many\0 moons \u{7}".into();
        let checked = answerer.check(&ask).unwrap();
        assert_eq!(checked.question(), "how many moons");
        assert_eq!(checked.ask.mode, Mode::Count);
        ask.q = "\0 \u{7} ".into();
        let e = answerer.check(&ask).unwrap_err().to_string();
        assert_eq!(e, "the question is empty");
    }

    #[test]
    fn the_pages_defaults_are_the_engines_defaults() {
        let page = Settings::default();
        assert_eq!(count_settings(&page).unwrap(), CountSettings::default());
        let search = search_settings(&page).unwrap();
        // The best cross-validated ranker on the Qsearch dev queries is learned (docs/search.md).
        assert_eq!(search.ranker, tally_types::Ranker::Learned);
        assert_eq!(search.alpha, SearchSettings::default().alpha);
        assert_eq!(search.k, SearchSettings::default().k);
    }

    #[test]
    fn bad_settings_and_questions_are_explained() {
        let mut s = Settings::default();
        s.count.context.theta = 1.5;
        let e = count_settings(&s).unwrap_err().to_string();
        assert_eq!(e, "theta must be between 0 and 1, not 1.5");
        let s = Settings {
            alpha: -1.0,
            ..Settings::default()
        };
        assert!(search_settings(&s)
            .unwrap_err()
            .to_string()
            .contains("alpha must be between 0 and 100"));
        assert!(validate_question("   ").is_err());
        let long = "x".repeat(501);
        assert!(validate_question(&long)
            .unwrap_err()
            .to_string()
            .contains("501 characters"));
    }

    #[test]
    fn a_question_is_checked_for_the_pipelines_its_mode_may_use() {
        let answerer = Answerer::new(1, 0);
        let bad_alpha = Settings {
            alpha: -1.0,
            ..Settings::default()
        };
        // A count question never searches: its search settings are not read.
        let checked = answerer.check(&asked(Mode::Count, &bad_alpha)).unwrap();
        assert_eq!(checked.forced, Some(QuestionKind::Count));
        assert_eq!(checked.search, SearchSettings::default());
        for mode in [Mode::Auto, Mode::Quantity, Mode::Search] {
            let e = answerer
                .check(&asked(mode, &bad_alpha))
                .unwrap_err()
                .to_string();
            assert!(e.contains("alpha must be"), "{mode:?}: {e}");
        }
    }

    #[test]
    fn web_snippets_are_refused_without_a_web_search() {
        let answerer = Answerer::new(1, 0);
        let web = Settings {
            snippet_source: SnippetSource::Web,
            ..Settings::default()
        };
        let e = answerer
            .check(&asked(Mode::Count, &web))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no web search configured"), "{e}");
        // A search never takes snippets: its snippet source is not read.
        let checked = answerer.check(&asked(Mode::Search, &web)).unwrap();
        assert_eq!(checked.snippet_source, SnippetSource::Corpus);
        assert_eq!(
            answerer
                .check(&asked(Mode::Count, &Settings::default()))
                .unwrap()
                .snippet_source,
            SnippetSource::Corpus
        );
    }
}
