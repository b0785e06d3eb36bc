//! The one decision: the records in scope first, then the question's kind and the engine it
//! needs — the readers' answer; then the learned ranker over a person's documents, weighed
//! against that answer, when it is sure, else the readers' answer through the gates; then the
//! answer's scope. The page, the API, the commands, the study
//! and the lab's evaluations all answer through [`answer`].

use std::collections::{BTreeSet, HashMap};
use std::ops::ControlFlow;

use tally_engine::candidates::rank::{ReadersAnswer, Scorer};

use tally_engine::search::search_in;
use tally_engine::KindDecision;
use tally_text::quantity::{parse_query, Condition as QueryCondition};
use tally_types::count::answer::QuestionAnalysis;
use tally_types::count::{SnippetOrigin, SnippetSource, StageTiming};
use tally_types::{Answer, AnswerBody, CountSettings, Mode, QuestionKind};

use crate::check::{check_corpus_of, decide_kind};
use crate::records::over_records;
use crate::{scope, suggest};
use crate::{AnswerError, Checked, Engines, Fetched, LocalIndex, Refused, Tables, WebSnippets};

/// How much of the decision runs: all of it for every entry point; the lab's ablations turn a
/// part off to measure what it adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Whether the record tables are asked first.
    pub records: bool,
    /// Whether the answer gates decline unsure answers over a person's documents (issue 86).
    /// Without them the answer is as the readers gave it: what the gates are trained on.
    pub gate: bool,
    /// Whether the learned ranker's sure answer over a person's documents comes first (issue
    /// 99).
    pub ranked: bool,
}

impl Options {
    /// The whole decision, as every entry point answers.
    pub const WHOLE: Options = Options {
        records: true,
        gate: true,
        ranked: true,
    };
}

/// The corpora of the loaded indexes a question may be asked of.
#[derive(Debug, Clone, Default)]
pub struct Corpora {
    /// Those offered: loaded, not being indexed or deleted.
    pub offered: Vec<String>,
    /// Those being indexed now.
    pub indexing: BTreeSet<String>,
}

/// What a question is answered from.
pub struct Sources<'a> {
    /// The indexes and models.
    pub engines: &'a Engines,
    /// The record tables.
    pub tables: Tables<'a>,
    /// The corpora that may be asked.
    pub corpora: &'a Corpora,
    /// The web search, when the server has one.
    pub web: Option<&'a dyn WebSnippets>,
}

/// What a cached answer is computed from: a value answer asked with other count settings, or
/// shown in another unit, is the same answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AnswerKey {
    /// The question, case and spacing aside.
    pub question: String,
    /// The mode asked in.
    pub mode: Mode,
    /// The kind it was answered as.
    pub kind: QuestionKind,
    /// The settings its kind is computed from, as JSON.
    pub settings: String,
}

/// What the caller puts around the decision: where an answer is computed, the answers kept, and
/// who follows it. Every method has the answer of a caller with nothing around it (the lab).
pub trait Around {
    /// Waits for a place to compute an answer in (the server's answer slots; `costly`: a count
    /// question with more snippets than the default or the reader's instances). Held until the
    /// computation ends.
    fn slot(&self, costly: bool) -> Result<Box<dyn Send>, AnswerError> {
        let _ = costly;
        Ok(Box::new(()))
    }

    /// A recent answer computed from the same key.
    fn cached(&self, key: &AnswerKey) -> Option<Answer> {
        let _ = key;
        None
    }

    /// Keeps a computed answer.
    fn keep(&self, key: AnswerKey, answer: &Answer) {
        let _ = (key, answer);
    }

    /// Told about each stage of a count answer as it finishes.
    fn on_stage(&self, timing: &StageTiming) {
        let _ = timing;
    }

    /// Whether the asker still waits: the computation stops at its next stage when not.
    fn wanted(&self) -> bool {
        true
    }
}

/// A caller with nothing around the decision.
impl Around for () {}

/// Answers a checked question from `sources`.
pub fn answer(
    checked: &Checked,
    sources: &Sources<'_>,
    around: &dyn Around,
    options: Options,
) -> Result<Answer, AnswerError> {
    let engines = sources.engines;
    if !checked.corpus_checked {
        check_corpus_of(
            &checked.count,
            &sources.corpora.offered,
            &sources.corpora.indexing,
        )?;
    }
    // The readers answer first, ungated: the ranker weighs its candidates against their number,
    // and their answer, gated, is the one given when the ranker is not sure.
    let ungated = Options {
        gate: false,
        ..options
    };
    let mut answer = match records_answer(checked, sources, ungated)? {
        Some(answer) => answer,
        None => by_kind(checked, sources, around)?,
    };
    match ranked_over(checked, sources, options, &answer.answer)? {
        Some(ranked) => answer = ranked,
        None if options.gate => gate(&mut answer.answer),
        None => {}
    }
    answer.scope = Some(scope::of(checked, &answer.answer));
    if suggest::unanswered(&answer.answer) {
        let known = |word: &str| engines.encoder.as_ref().is_some_and(|e| e.knows_word(word));
        answer.did_you_mean = suggest::did_you_mean(&engines.snippets, &known, checked.question());
    }
    Ok(answer)
}

/// Declines or marks unsure an answer over a person's documents that its gate doubts (issue
/// 86): the one gate of every kind, which [`answer`] applies unless told not to.
pub fn gate(answer: &mut AnswerBody) {
    match answer {
        AnswerBody::Count(count) => {
            tally_engine::trust::check_count(count);
        }
        AnswerBody::Value(value) => {
            tally_engine::trust::check_value(value);
        }
        AnswerBody::Search(_) => {}
    }
}

/// The corpora a question over the corpus is asked of: the one chosen, or every one offered.
fn corpora_in_scope(checked: &Checked, sources: &Sources<'_>) -> Vec<String> {
    match &checked.count.corpus {
        Some(corpus) => vec![corpus.clone()],
        None => sources.corpora.offered.clone(),
    }
}

/// The learned ranker's answer when it is sure: its best candidate among every reading of the
/// tables and passages of a person's documents in scope, weighed against what the readers
/// answered (`readers`, ungated; issue 99). `None` when it is not sure, when nothing in scope is
/// a person's documents, or when the question is asked of the web or as a value or a search;
/// then the readers' answer is given.
fn ranked_over(
    checked: &Checked,
    sources: &Sources<'_>,
    options: Options,
    readers: &AnswerBody,
) -> Result<Option<Answer>, AnswerError> {
    let allowed = checked
        .forced
        .is_none_or(|kind| kind == QuestionKind::Count);
    let scorer = Scorer::shipped();
    // A model whose bound no answer reaches (none met the 3% bound on the tuning halves) gives
    // nothing as sure: the candidates are not read at all.
    let reachable = scorer.ranker.sure_from < 1.0;
    let held = sources.tables.held();
    let Some(held) = held.filter(|_| {
        options.ranked && reachable && allowed && checked.snippet_source == SnippetSource::Corpus
    }) else {
        return Ok(None);
    };
    let scope = corpora_in_scope(checked, sources);
    let corpus = held
        .candidates(&sources.engines.snippets, &scope)
        .map_err(AnswerError::Tables)?;
    let Some(ranked) = crate::rank(
        checked.question(),
        &corpus,
        scorer,
        ReadersAnswer::of(readers),
    )
    .filter(crate::Ranked::is_sure) else {
        return Ok(None);
    };
    let count = crate::ranked_answer(checked.question(), &checked.count, &corpus, &ranked);
    Ok(Some(Answer {
        kind: QuestionKind::Count,
        kind_reason: "the learned ranker chose it among every reading of the documents in scope"
            .to_string(),
        chosen_by_user: checked.forced.is_some(),
        answer: AnswerBody::Count(Box::new(count)),
        scope: None,
        did_you_mean: None,
    }))
}

/// The answer computed over the tables in scope (the corpus chosen, or every corpus offered
/// when none is) when the question asks to count, add up, average or compare their rows under a
/// condition (or a condition on a column a table lacks: declined); `None` when it asks none of
/// that, or its mode is a search. Asked before the kind is decided: "which station has the most
/// platforms" is computed, not read as a value.
fn records_answer(
    checked: &Checked,
    sources: &Sources<'_>,
    options: Options,
) -> Result<Option<Answer>, AnswerError> {
    let records_allowed = checked
        .forced
        .is_none_or(|kind| kind == QuestionKind::Count);
    if !options.records || checked.snippet_source != SnippetSource::Corpus || !records_allowed {
        return Ok(None);
    }
    let scope = corpora_in_scope(checked, sources);
    let computed = over_records(
        checked.question(),
        &checked.count,
        &sources.tables,
        &sources.engines.snippets,
        &scope,
    )?;
    Ok(computed.map(|answer| {
        // Gated by the caller, after the ranker has weighed it.
        let answer = AnswerBody::Count(Box::new(answer));
        Answer {
            kind: QuestionKind::Count,
            kind_reason: "it asks to count, add up or compare the rows of a table in the corpus"
                .to_string(),
            chosen_by_user: checked.forced.is_some(),
            answer,
            scope: None,
            did_you_mean: None,
        }
    }))
}

/// Whether a count question's settings make it costly: more snippets than the default, or an
/// instance scoring that runs the reader over them. Costly questions never hold the last answer
/// slot.
fn is_costly(count: &CountSettings) -> bool {
    use tally_types::count::InstanceScoring;
    count.snippets > tally_types::count::DEFAULT_SNIPPETS
        || matches!(
            count.instances,
            InstanceScoring::Reader | InstanceScoring::ReaderTypeCompatibility
        )
}

/// The answer of the question's kind: from a recent answer when one is kept, else computed in
/// a slot.
fn by_kind(
    checked: &Checked,
    sources: &Sources<'_>,
    around: &dyn Around,
) -> Result<Answer, AnswerError> {
    let engines = sources.engines;
    let question = checked.question();
    // A detected kind reads the question's stored snippet set once; a count question takes its
    // snippets from it (issue 98: the index was asked for the set twice).
    let stored = match checked.forced {
        None => Some(
            engines
                .snippets
                .prefetched_in(question, checked.count.corpus.as_deref())
                .unwrap_or_else(|e| {
                    tracing::warn!(
                        "the stored snippet sets could not be read ({})",
                        tally_types::error::Causes(&e)
                    );
                    Vec::new()
                }),
        ),
        Some(_) => None,
    };
    let decision = decide_kind(question, checked.forced, stored.as_deref().unwrap_or(&[]));
    // Web answers are not kept: whether a stored snippet set is reused is the store's decision.
    let from_web = checked.snippet_source == SnippetSource::Web;
    let key = AnswerKey {
        question: tally_types::request::question_key(question),
        mode: checked.ask.mode,
        kind: decision.kind,
        settings: serde_json::to_string(&checked.ask.settings.computing(decision.kind))
            .unwrap_or_default(),
    };
    if !from_web {
        if let Some(hit) = around.cached(&key) {
            return Ok(hit);
        }
    }
    let fetched = match decision.kind {
        QuestionKind::Count => Some(snippets(sources, question, checked, stored)?),
        _ => None,
    };
    let costly = decision.kind == QuestionKind::Count && is_costly(&checked.count);
    let _slot = around.slot(costly)?;
    if !around.wanted() {
        return Err(AnswerError::Cancelled);
    }
    let answer = compute(engines, checked, decision, fetched, around)?;
    if !from_web {
        around.keep(key, &answer);
    }
    Ok(answer)
}

/// A count question's snippets from the source the settings choose: the local index, or the
/// web search, replaced by the local index (with the reason in the answer) when it fails.
fn snippets(
    sources: &Sources<'_>,
    question: &str,
    checked: &Checked,
    stored: Option<Vec<tally_documents::corpus::datasets::Snippet>>,
) -> Result<Fetched, AnswerError> {
    let local =
        LocalIndex::new(std::sync::Arc::clone(&sources.engines.snippets)).with_stored(stored);
    let web = match (sources.web, checked.snippet_source) {
        (Some(web), SnippetSource::Web) => web,
        _ => return Ok(local.fetch(question, &checked.count)?),
    };
    if let Some(id) = checked.snippet_set {
        return match web.stored(question, id) {
            Ok(Some(fetched)) => Ok(fetched),
            Ok(None) => Err(Refused::NoSnippetSet { id }.into()),
            Err(why) => Err(why.into()),
        };
    }
    match web.fetch(question) {
        Ok(fetched) => Ok(fetched),
        Err(failure) => {
            let mut fetched = local.fetch(question, &checked.count)?;
            fetched.origin = Some(SnippetOrigin {
                source: SnippetSource::Corpus,
                provider: Some(web.provider()),
                set_id: None,
                fetched_at: None,
                reused: false,
                // Said where the answer shows it.
                failure: Some(tally_types::error::Causes(&failure.cause).to_string()),
            });
            // The failed search's time is a stage of the answer too.
            fetched.timings.insert(0, failure.timing);
            Ok(fetched)
        }
    }
}

/// A count question's answer from its `fetched` snippets, each stage told to `around`, which
/// stops it when nobody waits for it any more.
fn count_body(
    engines: &Engines,
    checked: &Checked,
    analysis: QuestionAnalysis,
    fetched: Option<Fetched>,
    around: &dyn Around,
) -> Result<AnswerBody, AnswerError> {
    let used = fetched.ok_or(AnswerError::NoSnippets)?;
    for timing in &used.timings {
        around.on_stage(timing);
    }
    let mut on_stage = |stage: &StageTiming| {
        around.on_stage(stage);
        if around.wanted() {
            ControlFlow::Continue(())
        } else {
            tracing::info!(stage = %stage.stage, "answer stopped: its asker left");
            ControlFlow::Break(())
        }
    };
    let mut answer = engines
        .pipeline
        .answer_analysed(
            checked.question(),
            analysis,
            &used.snippets,
            used.retrieval,
            &checked.count,
            engines.snippets.as_ref(),
            &mut on_stage,
        )
        .map_err(AnswerError::of_count)?;
    let links: HashMap<_, _> = used.links.into_iter().collect();
    for snippet in &mut answer.snippets {
        snippet.link = links.get(&snippet.id).cloned();
    }
    answer.origin = used.origin;
    answer.timings.splice(0..0, used.timings);
    Ok(AnswerBody::Count(Box::new(answer)))
}

/// Answers with the engine the kind needs; a count question from the `fetched` snippets.
fn compute(
    engines: &Engines,
    checked: &Checked,
    decision: KindDecision,
    fetched: Option<Fetched>,
    around: &dyn Around,
) -> Result<Answer, AnswerError> {
    let question = checked.question();
    let KindDecision {
        kind,
        reason,
        analysis,
    } = decision;
    let answer = match kind {
        QuestionKind::Count => count_body(engines, checked, analysis, fetched, around)?,
        QuestionKind::Value => AnswerBody::Value(Box::new(
            engines.answer_value(question, checked.count.corpus.as_deref())?,
        )),
        QuestionKind::Quantity | QuestionKind::Search => {
            let mut settings = checked.search.clone();
            if kind == QuestionKind::Search {
                // Plain search ranks by text; the quantity rankers would only add a note.
                settings = settings.with_ranker(tally_types::Ranker::Bm25);
            }
            if settings.ranker.needs_encoder() && engines.encoder.is_none() {
                settings = settings.with_ranker(tally_types::Ranker::Qbm25);
            }
            // Kept to the corpus asked, as counts and values are (issue 87).
            AnswerBody::Search(Box::new(
                search_in(
                    &engines.sentences,
                    engines.encoder.as_deref(),
                    question,
                    &settings,
                    checked.count.corpus.as_deref(),
                )
                .map_err(AnswerError::of_search)?,
            ))
        }
    };
    if may_be_a_value(checked, kind) {
        let mut gated = answer.clone();
        gate(&mut gated);
        // A search answers nothing itself (it lists sentences); a count may be sure.
        if matches!(gated, AnswerBody::Search(_)) || suggest::unanswered(&gated) {
            if let Some(value) = sure_value(engines, checked, kind)? {
                return Ok(value);
            }
        }
    }
    // Unsure answers over a person's documents are declined by the caller (issue 86).
    Ok(Answer {
        kind,
        kind_reason: reason,
        chosen_by_user: checked.forced.is_some(),
        answer,
        scope: None,
        did_you_mean: None,
    })
}

/// Whether a question the kind detection did not read as a value question may still ask for
/// one (issue 98: the kind is not a gate): a count or a plain search, or a quantity condition
/// asked as a question ("how long will the clinic pay for two contracts") or naming a quantity
/// without comparing ("price of a 750 ml tin"), when the kind was detected, not chosen.
fn may_be_a_value(checked: &Checked, kind: QuestionKind) -> bool {
    if checked.forced.is_some() {
        return false;
    }
    match kind {
        QuestionKind::Value => false,
        QuestionKind::Count | QuestionKind::Search => true,
        QuestionKind::Quantity => {
            // A quantity that names a thing ("a 750 ml tin", "the 5 GHz radio") compares
            // nothing: the question may ask a value of it.
            let question = checked.question();
            let lower = question.to_lowercase();
            let asked = ["how ", "what ", "which ", "when "]
                .iter()
                .any(|word| lower.starts_with(word));
            let names_only = parse_query(question)
                .constraints
                .iter()
                .all(|c| c.condition == QueryCondition::Equal);
            asked || names_only
        }
    }
}

/// The value the corpus states surely for a question whose detected kind gave nothing sure:
/// the answer becomes a value answer, and says why; `None` when the value reader is not sure
/// either (the gates decide, as for any value answer).
fn sure_value(
    engines: &Engines,
    checked: &Checked,
    detected: QuestionKind,
) -> Result<Option<Answer>, AnswerError> {
    let read = engines.answer_value(checked.question(), checked.count.corpus.as_deref())?;
    let mut gated = AnswerBody::Value(Box::new(read.clone()));
    gate(&mut gated);
    if suggest::unanswered(&gated) {
        return Ok(None);
    }
    let stated = match &gated {
        AnswerBody::Value(value) => value.representative.clone().unwrap_or_default(),
        _ => String::new(),
    };
    let detected = match detected {
        QuestionKind::Count => "a count",
        QuestionKind::Quantity => "a quantity condition",
        _ => "a search",
    };
    Ok(Some(Answer {
        kind: QuestionKind::Value,
        kind_reason: format!(
            "read as {detected} it found nothing sure, and the corpus states one value for it \
             surely (“{stated}”)"
        ),
        chosen_by_user: false,
        // Gated by the caller, as every answer is.
        answer: AnswerBody::Value(Box::new(read)),
        scope: None,
        did_you_mean: None,
    }))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::path::Path;
    use std::sync::Arc;

    use tally_documents::corpus::budget::ReadBudget;
    use tally_documents::corpus::format::Format;
    use tally_documents::corpus::indexing::{self, Indexes};
    use tally_documents::sentence_store::SentenceIndex;
    use tally_documents::snippet_index::SnippetIndex;
    use tally_engine::count::CountPipeline;
    use tally_types::count::Retrieval;
    use tally_types::request::{Ask, Settings};

    use super::*;
    use crate::{check, HeldTables, Limits};

    const CORPUS: &str = "stations";

    /// The aggregation collection's stations table, uploaded as a corpus of its own, with the
    /// lexical count pipeline (no encoder).
    fn engines(dir: &Path) -> Engines {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/aggregations/documents/01-sandmere-line-stations.csv");
        let bytes = std::fs::read(&file).expect("the fixture is there");
        let documents = tally_documents::corpus::documents::read_file(
            &bytes,
            Format::Csv,
            "01-sandmere-line-stations",
            &ReadBudget::for_bytes(bytes.len()),
        )
        .expect("the CSV reads");
        let snippets = SnippetIndex::open_or_create(&dir.join("snippets")).expect("opens");
        let sentences = SentenceIndex::open_or_create(&dir.join("sentences")).expect("opens");
        indexing::ingest(
            &Indexes {
                snippets: Some(&snippets),
                sentences: Some(&sentences),
            },
            CORPUS,
            &documents,
            &mut |_| {},
        )
        .expect("ingests");
        Engines {
            corpora_at_load: snippets.corpora().expect("lists"),
            snippets: Arc::new(snippets),
            pipeline: Arc::new(CountPipeline::new(None, None)),
            sentences,
            encoder: None,
            examples: Default::default(),
        }
    }

    fn asked(question: &str, mode: Mode, corpus: Option<&str>) -> Checked {
        let mut settings = Settings::default();
        settings.count.corpus = corpus.map(str::to_string);
        let ask = Ask {
            q: question.to_string(),
            mode,
            settings,
        };
        check(
            &ask,
            &Limits {
                max_snippets: tally_types::count::DEFAULT_MAX_SNIPPETS,
                ..Limits::default()
            },
        )
        .expect("a good question")
    }

    /// Counts what the decision asks of what is around it.
    #[derive(Default)]
    struct Counting {
        slots: Cell<usize>,
        kept: std::cell::RefCell<Option<(AnswerKey, Answer)>>,
    }

    impl Around for Counting {
        fn slot(&self, _costly: bool) -> Result<Box<dyn Send>, AnswerError> {
            self.slots.set(self.slots.get() + 1);
            Ok(Box::new(()))
        }

        fn cached(&self, key: &AnswerKey) -> Option<Answer> {
            let kept = self.kept.borrow();
            kept.as_ref()
                .filter(|(k, _)| k == key)
                .map(|(_, a)| a.clone())
        }

        fn keep(&self, key: AnswerKey, answer: &Answer) {
            *self.kept.borrow_mut() = Some((key, answer.clone()));
        }
    }

    #[test]
    fn a_question_over_a_tables_rows_is_answered_by_the_records_first() {
        let dir = tempfile::tempdir().expect("a scratch dir");
        let engines = engines(dir.path());
        let held = HeldTables::default();
        let corpora = Corpora {
            offered: engines.corpora_at_load.clone(),
            indexing: Default::default(),
        };
        let sources = Sources {
            engines: &engines,
            tables: Tables::Held(&held),
            corpora: &corpora,
            web: None,
        };
        // The collection's gold: 3 stations have more than 4 platforms.
        let question = "how many stations have more than 4 platforms";
        let checked = asked(question, Mode::Auto, Some(CORPUS));
        let around = Counting::default();
        let answer = super::answer(&checked, &sources, &around, Options::WHOLE).expect("answers");
        let AnswerBody::Count(count) = &answer.answer else {
            panic!("a count, not {:?}", answer.kind);
        };
        assert_eq!(count.retrieval, Retrieval::Records);
        assert_eq!(count.count, Some(3.0));
        assert_eq!(
            answer.scope.as_ref().map(|s| s.corpus.clone()),
            Some(Some(CORPUS.into()))
        );
        // Computed from the records: no slot taken, nothing cached.
        assert_eq!(around.slots.get(), 0);
        assert!(around.kept.borrow().is_none());

        // Without the records the count reader answers, in a slot, and the answer is kept; asked
        // again, the kept answer comes back without a slot.
        let without = Options {
            records: false,
            gate: true,
            ranked: false,
        };
        let first = super::answer(&checked, &sources, &around, without).expect("answers");
        let AnswerBody::Count(read) = &first.answer else {
            panic!("a count");
        };
        assert_ne!(read.retrieval, Retrieval::Records);
        assert_eq!(around.slots.get(), 1);
        let again = super::answer(&checked, &sources, &around, without).expect("answers");
        assert_eq!(around.slots.get(), 1);
        assert_eq!(
            serde_json::to_string(&again.answer).unwrap(),
            serde_json::to_string(&first.answer).unwrap()
        );
    }

    #[test]
    fn a_corpus_not_offered_is_refused_and_a_search_never_reads_the_records() {
        let dir = tempfile::tempdir().expect("a scratch dir");
        let engines = engines(dir.path());
        let held = HeldTables::default();
        let corpora = Corpora {
            offered: engines.corpora_at_load.clone(),
            indexing: [CORPUS.to_string()].into(),
        };
        let sources = Sources {
            engines: &engines,
            tables: Tables::Held(&held),
            corpora: &corpora,
            web: None,
        };
        let question = "how many stations have more than 4 platforms";
        // Checked before the corpora were known, then answered while the corpus is indexed.
        let e = super::answer(
            &asked(question, Mode::Auto, Some(CORPUS)),
            &sources,
            &(),
            Options::WHOLE,
        )
        .unwrap_err();
        assert!(matches!(e, AnswerError::Indexing { .. }), "{e}");
        let e = super::answer(
            &asked(question, Mode::Auto, Some("nowhere")),
            &sources,
            &(),
            Options::WHOLE,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("unknown corpus `nowhere`"), "{e}");

        let corpora = Corpora {
            offered: engines.corpora_at_load.clone(),
            indexing: Default::default(),
        };
        let sources = Sources {
            corpora: &corpora,
            ..sources
        };
        let searched = super::answer(
            &asked(question, Mode::Search, Some(CORPUS)),
            &sources,
            &(),
            Options::WHOLE,
        )
        .expect("answers");
        assert!(matches!(searched.answer, AnswerBody::Search(_)));
        assert_eq!(searched.kind, QuestionKind::Search);
    }

    #[test]
    fn the_ranker_reads_a_corpus_s_tables_and_passages_and_its_sure_answer_carries_its_reading() {
        let dir = tempfile::tempdir().expect("a scratch dir");
        let engines = engines(dir.path());
        let held = HeldTables::default();
        let read = held
            .candidates(&engines.snippets, &[CORPUS.to_string()])
            .expect("reads");
        assert_eq!(read.tables.tables().len(), 1, "the stations table");
        assert_eq!(
            read.tables.tables()[0].rows.len(),
            12,
            "its twelve stations"
        );
        // A data set's corpus is no one's documents: no passage of it is read.
        let none = held
            .candidates(&engines.snippets, &["no-such-corpus".to_string()])
            .expect("reads");
        assert!(none.passages.is_empty() && none.tables.tables().is_empty());
        // Held: asked again, the same corpus comes back; forgotten, it is read anew.
        let again = held
            .candidates(&engines.snippets, &[CORPUS.to_string()])
            .expect("reads");
        assert!(Arc::ptr_eq(&read, &again));
        held.forget(CORPUS);
        let anew = held
            .candidates(&engines.snippets, &[CORPUS.to_string()])
            .expect("reads");
        assert!(!Arc::ptr_eq(&read, &anew));

        // The collection's gold: 4 stations are in zone 2.
        let question = "how many stations are in zone 2";
        let mut model = Scorer::shipped().ranker.clone();
        model.sure_from = 0.0;
        let scorer = Scorer::new(model);
        let ranked = crate::rank(question, &read, &scorer, None).expect("candidates");
        assert!(ranked.is_sure());
        assert_eq!(ranked.candidate.value, 4.0, "{ranked:?}");
        let settings = CountSettings::default();
        let count = crate::ranked_answer(question, &settings, &read, &ranked);
        assert_eq!(count.count, Some(4.0));
        let certainty = count.certainty.expect("a certainty");
        assert_eq!(certainty.measure, tally_types::CertaintyMeasure::Ranker);
        assert_eq!(certainty.probability, ranked.probability);
        let reading = count.read_from.expect("its reading");
        assert!(
            reading.how.contains("Zone") && reading.how.contains("01-sandmere-line-stations"),
            "{reading:?}"
        );
    }
}
