//! The count pipeline: question analysis → count candidates → span confidences → consolidation
//! → contextualization → instances, with per-stage timings, into one [`CountAnswer`].

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

pub(crate) use tally_types::count::answer::{
    Cnp, CnpGroups, CountAnswer, CountSpan, InstanceMark, RankedInstance, SnippetAnswer,
    StageTiming, StructuredReading,
};
pub(crate) use tally_types::count::origin::Retrieval;
pub(crate) use tally_types::count::settings::CountSettings;
pub(crate) use tally_types::count::stages::Stage;
use tally_types::count::Abstention;
use tally_types::Certainty;
pub(crate) use tally_types::ScorerKind;

use super::answer_support::{AnswerSupport, SupportRule, SUPPORT_FILE};
use super::candidates::{count_candidates, CountCandidate};
use super::contextualize::{classify, CnpClass, CnpInput};
use super::instances::Instance;
use super::lexical::lexical_confidence;
use super::name_cache::NameCache;
use super::prediction::{best_per_snippet, predict, Chosen, Prediction};
use super::question::{analyse, QuestionAnalysis};
use super::relevance::{Subject, WordRarity};
use super::structured::{passages_about, stated_count, Reading, StructuredCount};

use super::ranker::{
    credit_sources, entity_shares_with_sources, features, noun_fits, CandidateRanker,
    QueryEvidence, RANKER_FILE,
};
use super::span_model::{
    builtin_dir, builtin_name_dir, raise_candidate_probabilities, ReaderWeights, SpanModel,
    META_FILE,
};
use instance_stage::{likely_only, rank_instances, ranked_instances, InstanceEvidence};
use tally_documents::corpus::datasets::Snippet;
use tally_documents::snippet_index::SnippetIndex;
use tally_encoder::Encoder;
use tally_text::offsets::char_offset;

use crate::error::EngineError;

mod instance_stage;

/// Told about each stage as it finishes; `Break` stops the pipeline there with
/// [`EngineError::Cancelled`].
pub type StageCheckpoint<'a> = &'a mut dyn FnMut(&StageTiming) -> ControlFlow<()>;

/// Each stage's time, told to the caller's checkpoint as the stage ends (which may stop the
/// answer there).
struct StageClock<'a> {
    on_stage: StageCheckpoint<'a>,
    started: Instant,
    timings: Vec<StageTiming>,
}

impl<'a> StageClock<'a> {
    fn new(on_stage: StageCheckpoint<'a>) -> Self {
        StageClock {
            on_stage,
            started: Instant::now(),
            timings: Vec::new(),
        }
    }

    /// Ends `stage`: its time is kept and told; cancelled when the checkpoint says stop.
    fn lap(&mut self, stage: Stage) -> Result<(), EngineError> {
        let timing = StageTiming {
            stage,
            ms: self.started.elapsed().as_secs_f64() * 1e3,
        };
        let flow = (self.on_stage)(&timing);
        self.timings.push(timing);
        self.started = Instant::now();
        match flow {
            ControlFlow::Continue(()) => Ok(()),
            ControlFlow::Break(()) => Err(EngineError::Cancelled),
        }
    }
}

/// The checkpoint that lets every stage run and watches none: pass `&mut carry_on` where no
/// one follows the progress.
pub fn carry_on(_: &StageTiming) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// The count pipeline with its models, loaded once and shared.
pub struct CountPipeline {
    span_model: Option<SpanModel>,
    /// The reader trained on names as well ([`builtin_name_dir`]): the reader's instance
    /// scorings read with it; without it they read with `span_model`.
    name_reader: Option<SpanModel>,
    ranker: Option<CandidateRanker>,
    /// The model of an answer's support over the ranker's confidences (abstention reads it).
    support: Option<AnswerSupport>,
    /// The encoder, with the names it embedded (CNPs, count nouns, instances, answer types).
    names: Option<NameCache>,
}

impl CountPipeline {
    /// `span_model` is needed for the neural scorer; `encoder` for CNP similarity and instance
    /// type fit (without it, every phrase counts as similar and every instance as fitting).
    pub fn new(span_model: Option<SpanModel>, encoder: Option<Arc<Encoder>>) -> Self {
        let encoder = encoder.or_else(|| span_model.as_ref().map(|m| m.encoder().clone()));
        Self {
            span_model,
            name_reader: None,
            ranker: None,
            support: None,
            names: encoder.map(NameCache::new),
        }
    }

    /// The pipeline with the span model, candidate ranker and answer-support model of the model
    /// directory `dir` (the project's trained ones when `None`); a directory without a ranker
    /// (or support) file gives a pipeline without it.
    pub fn load(
        encoder: Arc<Encoder>,
        dir: Option<&Path>,
        context_chars: usize,
        weights: ReaderWeights,
    ) -> Result<Self, EngineError> {
        let dir = dir.map_or_else(builtin_dir, Path::to_path_buf);
        let span_model = SpanModel::load(encoder.clone(), &dir)?
            .with_context_chars(context_chars)
            .with_weights(weights)?;
        let mut pipeline = Self::new(Some(span_model), Some(encoder.clone()));
        let names_dir = builtin_name_dir();
        if names_dir.join(META_FILE).is_file() {
            pipeline.name_reader = Some(
                SpanModel::load(encoder, &names_dir)?
                    .with_context_chars(context_chars)
                    .with_weights(weights)?,
            );
        }
        if dir.join(RANKER_FILE).is_file() {
            pipeline = pipeline.with_ranker(CandidateRanker::load(&dir)?);
        }
        if dir.join(SUPPORT_FILE).is_file() {
            pipeline.support = Some(AnswerSupport::load(&dir)?);
        }
        Ok(pipeline)
    }

    /// The pipeline with `reader` reading names for the reader's instance scorings (in place of
    /// the shipped name reader): `tally train count-spans` scores the reader it just trained.
    pub fn with_name_reader(self, reader: SpanModel) -> Self {
        Self {
            name_reader: Some(reader),
            ..self
        }
    }

    /// How the support of an answer is read under `scorer`: the model when there is one (it was
    /// fitted on the ranker's confidences), the best confidence otherwise.
    pub fn support_rule(&self, scorer: ScorerKind) -> SupportRule<'_> {
        match (&self.support, self.effective_scorer(scorer)) {
            (Some(model), ScorerKind::Ranker) => SupportRule::Model(model),
            _ => SupportRule::BestConfidence,
        }
    }

    /// Adds the candidate ranker (used by [`ScorerKind::Ranker`], with the span model).
    pub fn with_ranker(mut self, ranker: CandidateRanker) -> Self {
        self.ranker = Some(ranker);
        self
    }

    /// Forgets the cached name embeddings (so that a benchmark measures a new question).
    pub fn forget_names(&self) {
        if let Some(names) = &self.names {
            names.clear();
        }
    }

    /// Whether the span model is loaded.
    pub fn has_span_model(&self) -> bool {
        self.span_model.is_some()
    }

    /// The scorer that runs for `wanted`: without the models it needs, the next best one
    /// (ranker → neural → lexical).
    pub fn effective_scorer(&self, wanted: ScorerKind) -> ScorerKind {
        match wanted {
            ScorerKind::Ranker if self.ranker.is_none() => {
                self.effective_scorer(ScorerKind::Neural)
            }
            ScorerKind::Neural | ScorerKind::Hybrid | ScorerKind::Ranker
                if self.span_model.is_none() =>
            {
                ScorerKind::Lexical
            }
            other => other,
        }
    }

    /// Candidates with confidences for each snippet: `scores[s]` lists (candidate, confidence).
    /// With `related`, the snippets marked unrelated to the question are not read and their
    /// candidates get confidence 0 ([`super::relevance`]); a related snippet whose text names
    /// none of the question's entities is read when its source (`sources[s]`) names them.
    pub fn score_candidates(
        &self,
        question: &str,
        analysis: &QuestionAnalysis,
        snippets: &[&str],
        scorer: ScorerKind,
        related: Option<&[bool]>,
        sources: &[&str],
    ) -> Result<PerSnippet, EngineError> {
        let is_related = |s: usize| related.is_none_or(|r| r.get(s).copied().unwrap_or(true));
        let candidates: Vec<Vec<CountCandidate>> =
            snippets.iter().map(|s| count_candidates(s)).collect();
        let lexical = || -> Vec<Vec<f64>> {
            candidates
                .iter()
                .enumerate()
                .map(|(s, cs)| {
                    cs.iter()
                        .map(|c| lexical_confidence(analysis, snippets[s], c))
                        .collect()
                })
                .collect()
        };
        // The name cache is there whenever the span model is (`new` takes its encoder).
        let confidences = match (
            self.effective_scorer(scorer),
            &self.span_model,
            &self.ranker,
            &self.names,
        ) {
            (ScorerKind::Neural, Some(model), _, _) => {
                span_probabilities(model, question, snippets, &candidates, related)?
            }
            (ScorerKind::Hybrid, Some(model), _, _) => {
                let neural = span_probabilities(model, question, snippets, &candidates, related)?;
                neural
                    .iter()
                    .zip(lexical())
                    .map(|(n, l)| n.iter().zip(l).map(|(n, l)| 0.5 * n + 0.5 * l).collect())
                    .collect()
            }
            (ScorerKind::Ranker, Some(model), Some(ranker), Some(names)) => {
                // Snippets the ranker gives 0 whatever the reader says are not read.
                // Sources count only where the relevance gate read them too.
                let sources = if related.is_some() { sources } else { &[] };
                let shares = entity_shares_with_sources(analysis, snippets, sources);
                let read: Vec<bool> = shares
                    .iter()
                    .enumerate()
                    .map(|(s, &share)| share > 0.0 && is_related(s))
                    .collect();
                let span = span_probabilities(model, question, snippets, &candidates, Some(&read))?;
                let noun_fit = noun_fits(names, analysis, &candidates)?;
                let mut features = features(&QueryEvidence {
                    analysis,
                    texts: snippets,
                    candidates: &candidates,
                    span: &span,
                    noun_fit: &noun_fit,
                });
                credit_sources(&mut features, &shares);
                features
                    .iter()
                    .map(|fs| fs.iter().map(|x| ranker.probability(x)).collect())
                    .collect()
            }
            _ => lexical(),
        };
        Ok(candidates
            .into_iter()
            .zip(confidences)
            .enumerate()
            .map(|(s, (cs, ps))| {
                let weight = if is_related(s) { 1.0 } else { 0.0 };
                cs.into_iter()
                    .zip(ps.into_iter().map(|p| weight * p))
                    .collect()
            })
            .collect())
    }

    /// Answers `question` with the snippets of `index`: its stored snippet set when it is a
    /// dataset question, otherwise BM25 top-`settings.snippets`; `on_stage` is told about each
    /// stage as it finishes (progress while the answer is computed; [`carry_on`] for none).
    pub fn answer_from_index(
        &self,
        index: &SnippetIndex,
        question: &str,
        settings: &CountSettings,
        on_stage: StageCheckpoint,
    ) -> Result<CountAnswer, EngineError> {
        let started = Instant::now();
        let (snippets, retrieval) =
            index.snippets_for(question, settings.snippets, settings.corpus.as_deref())?;
        let retrieval_timing = StageTiming {
            stage: Stage::Retrieval,
            ms: started.elapsed().as_secs_f64() * 1e3,
        };
        if on_stage(&retrieval_timing).is_break() {
            return Err(EngineError::Cancelled);
        }
        let mut answer = self.answer(question, &snippets, retrieval, settings, index, on_stage)?;
        answer.timings.insert(0, retrieval_timing);
        Ok(answer)
    }

    /// Answers `question` from `snippets`; `rarity` weighs the question's subject words when
    /// deciding which snippets are about it (the corpus's word frequencies); `on_stage` is told
    /// about each stage as it finishes ([`carry_on`] for none).
    pub fn answer(
        &self,
        question: &str,
        snippets: &[Snippet],
        retrieval: Retrieval,
        settings: &CountSettings,
        rarity: &dyn WordRarity,
        on_stage: StageCheckpoint,
    ) -> Result<CountAnswer, EngineError> {
        let analysis = analyse(question);
        self.answer_analysed(
            question, analysis, snippets, retrieval, settings, rarity, on_stage,
        )
    }

    /// [`answer`](Self::answer) for a question already analysed (deciding
    /// its kind analyses it).
    #[allow(clippy::too_many_arguments)]
    pub fn answer_analysed(
        &self,
        question: &str,
        analysis: QuestionAnalysis,
        snippets: &[Snippet],
        retrieval: Retrieval,
        settings: &CountSettings,
        rarity: &dyn WordRarity,
        on_stage: StageCheckpoint,
    ) -> Result<CountAnswer, EngineError> {
        let mut clock = StageClock::new(on_stage);

        let texts: Vec<&str> = snippets.iter().map(|s| s.text.as_str()).collect();
        let subject = Subject::of(&analysis, rarity);
        // What applies is recorded beside the settings as asked, which stay as they were.
        let stored_set = retrieval == Retrieval::Prefetched;
        let resolved = settings.resolve(self.effective_scorer(settings.scorer), stored_set);
        let (asked, settings) = (settings, &settings.applied(&resolved));
        let scorer = resolved.scorer;
        let related = passages_about(question, &subject, snippets, settings.min_relevance);
        let sources: Vec<&str> = snippets.iter().map(|s| s.source.as_str()).collect();
        clock.lap(Stage::Analysis)?;

        let (per_snippet, evidence) = self.read_snippets(
            question, &analysis, &texts, &related, settings, scorer, &sources,
        )?;
        clock.lap(Stage::SpanScoring)?;

        let chosen = best_per_snippet(&per_snippet);
        let rule = self.support_rule(scorer);
        let (statement, structured) =
            stated_count(question, &analysis, snippets, &related, &per_snippet);
        let prediction =
            predict(&chosen, settings, rule).with_statement(statement, settings.statements);
        let not_for_year = not_for_year(structured.as_ref());
        let abstention =
            not_for_year.or_else(|| abstention_of(&prediction, rule, settings, &related, &subject));
        let Prediction {
            threshold_used,
            kept,
            consolidated,
            count,
            support,
        } = prediction;
        let count = count.filter(|_| !matches!(abstention, Some(Abstention::NotForYear { .. })));
        clock.lap(Stage::Consolidation)?;

        let Contextualised {
            classes,
            cnp_rep,
            groups,
            confidence,
        } = self.contextualise(snippets, &chosen, &kept, consolidated, settings)?;
        clock.lap(Stage::Contextualization)?;

        // Instances: only those the learned scorer finds likely enough are shown.
        let instances = likely_only(rank_instances(
            evidence,
            &chosen,
            texts.len(),
            settings.instances,
            settings.max_instances,
        ));
        clock.lap(Stage::Instances)?;

        let answer_snippets =
            snippet_answers(snippets, &per_snippet, &chosen, &classes, &instances);
        let read_from = structured.filter(|s| count == Some(s.count));
        let ranked = names_shown(read_from.as_ref(), &instances, snippets);

        let certainty = certainty_of(
            abstention.as_ref(),
            count,
            consolidated,
            support,
            settings.abstain_below,
            rule,
        );
        Ok(CountAnswer {
            question: question.to_string(),
            analysis,
            count,
            support,
            certainty,
            abstention: abstention.as_ref().map(Abstention::sentence),
            abstention_reason: abstention,
            read_from: read_from.map(|s| StructuredReading {
                snippet_id: snippets[s.snippet].id.clone(),
                how: s.reading.sentence(),
            }),
            aggregation: None,
            cnp_rep,
            confidence,
            groups,
            instances: ranked,
            snippets: answer_snippets,
            retrieval,
            origin: None,
            threshold_used,
            settings: asked.clone(),
            resolved: Some(resolved),
            timings: clock.timings,
        })
    }

    /// Reads every snippet's count candidates and gathers the instances' evidence. The
    /// evidence (names, their fit to the answer type) does not depend on the counts: it is
    /// gathered on a second thread while the reader reads, which leaves the cores idle between
    /// its matrix products. Only the passages about the question give instances (`related`).
    #[allow(clippy::too_many_arguments)]
    fn read_snippets(
        &self,
        question: &str,
        analysis: &QuestionAnalysis,
        texts: &[&str],
        related: &[bool],
        settings: &CountSettings,
        scorer: ScorerKind,
        sources: &[&str],
    ) -> Result<(PerSnippet, InstanceEvidence), EngineError> {
        let instance_texts: Vec<&str> = texts
            .iter()
            .zip(related)
            .map(|(text, &related)| if related { *text } else { "" })
            .collect();
        let (per_snippet, evidence) = std::thread::scope(|scope| {
            let gathering = scope.spawn(|| {
                self.instance_evidence(
                    analysis,
                    &instance_texts,
                    settings.instances,
                    settings.max_instances,
                )
            });
            let per_snippet =
                self.score_candidates(question, analysis, texts, scorer, Some(related), sources);
            let evidence = gathering
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (per_snippet, evidence)
        });
        Ok((per_snippet?, evidence?))
    }

    /// Sorts the counts kept for the answer into its representative, synonyms, subgroups and
    /// incomparables (CoQEx's Algorithm 2), with the share of confidence that agrees.
    fn contextualise(
        &self,
        snippets: &[Snippet],
        chosen: &[Chosen],
        kept: &[usize],
        consolidated: Option<f64>,
        settings: &CountSettings,
    ) -> Result<Contextualised, EngineError> {
        let mut classes: Vec<Option<CnpClass>> = vec![None; chosen.len()];
        let mut cnp_rep = None;
        let mut groups = CnpGroups::default();
        let mut confidence = 0.0;
        if let Some(prediction) = consolidated {
            let phrases: Vec<&str> = kept
                .iter()
                .map(|&i| chosen[i].candidate.text.as_str())
                .collect();
            let embeddings = match &self.names {
                Some(names) => names.embed(&phrases)?,
                None => vec![vec![1.0]; phrases.len()],
            };
            let inputs: Vec<CnpInput> = kept
                .iter()
                .zip(&embeddings)
                .map(|(&i, e)| CnpInput {
                    count: chosen[i].candidate.count,
                    confidence: chosen[i].confidence,
                    embedding: e,
                })
                .collect();
            let kept_classes = classify(&inputs, prediction, &settings.context);
            let total: f64 = inputs.iter().map(|c| c.confidence).sum();
            let mut agreeing = 0.0;
            for ((&i, class), input) in kept.iter().zip(&kept_classes).zip(&inputs) {
                classes[i] = Some(*class);
                let cnp = Cnp {
                    snippet_id: snippets[chosen[i].snippet].id.clone(),
                    text: chosen[i].candidate.text.clone(),
                    count: chosen[i].candidate.count,
                    confidence: chosen[i].confidence,
                };
                match class {
                    CnpClass::Representative => {
                        agreeing += input.confidence;
                        cnp_rep = Some(cnp);
                    }
                    CnpClass::Synonym => {
                        agreeing += input.confidence;
                        groups.synonyms.push(cnp);
                    }
                    CnpClass::Subgroup => groups.subgroups.push(cnp),
                    CnpClass::Incomparable => groups.incomparables.push(cnp),
                }
            }
            confidence = if total > 0.0 { agreeing / total } else { 0.0 };
        }
        for group in [
            &mut groups.synonyms,
            &mut groups.subgroups,
            &mut groups.incomparables,
        ] {
            group.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
        }
        Ok(Contextualised {
            classes,
            cnp_rep,
            groups,
            confidence,
        })
    }
}

/// The span model's probability of every candidate; the model reads only the sentences with a
/// count candidate, and only in the snippets `read` marks (all when `None`; the others' candidates
/// get 0).
fn span_probabilities(
    model: &SpanModel,
    question: &str,
    snippets: &[&str],
    candidates: &[Vec<CountCandidate>],
    read: Option<&[bool]>,
) -> Result<Vec<Vec<f64>>, EngineError> {
    let mut passages = model.passages(snippets, candidates);
    if let Some(read) = read {
        passages.retain(|p| read.get(p.snippet).copied().unwrap_or(true));
    }
    let mut out: Vec<Vec<f64>> = candidates.iter().map(|cs| vec![0.0; cs.len()]).collect();
    for (window, scores) in &model.score(question, &passages)? {
        let s = window.snippet;
        raise_candidate_probabilities(window, scores, &candidates[s], &mut out[s]);
    }
    Ok(out)
}

/// Each snippet's count candidates with their confidences.
pub type PerSnippet = Vec<Vec<(CountCandidate, f64)>>;

/// The counts' contexts: each chosen candidate's class, the representative, the groups and the
/// share of confidence that agrees with the answer.
struct Contextualised {
    classes: Vec<Option<CnpClass>>,
    cnp_rep: Option<Cnp>,
    groups: CnpGroups,
    confidence: f64,
}

/// Each snippet as the answer shows it: its count spans (which was chosen, used and how
/// classed) and where its instances are named.
fn snippet_answers(
    snippets: &[Snippet],
    per_snippet: &PerSnippet,
    chosen: &[Chosen],
    classes: &[Option<CnpClass>],
    instances: &[Instance],
) -> Vec<SnippetAnswer> {
    snippets
        .iter()
        .enumerate()
        .map(|(s, snippet)| {
            let chosen_here = chosen.iter().position(|c| c.snippet == s);
            let spans = per_snippet[s]
                .iter()
                .map(|(c, p)| {
                    let is_chosen = chosen_here.is_some_and(|i| chosen[i].candidate.span == c.span);
                    let class = chosen_here.filter(|_| is_chosen).and_then(|i| classes[i]);
                    CountSpan {
                        start: char_offset(&snippet.text, c.span.start),
                        end: char_offset(&snippet.text, c.span.end),
                        text: c.text.clone(),
                        count: c.count,
                        confidence: *p,
                        chosen: is_chosen,
                        used: class.is_some(),
                        cnp_class: class,
                    }
                })
                .collect();
            let marks = instances
                .iter()
                .flat_map(|inst| {
                    inst.mentions
                        .iter()
                        .filter(|m| m.snippet == s)
                        .map(|m| InstanceMark {
                            start: char_offset(&snippet.text, m.span.start),
                            end: char_offset(&snippet.text, m.span.end),
                            instance: inst.name.clone(),
                        })
                })
                .collect();
            SnippetAnswer {
                id: snippet.id.clone(),
                source: snippet.source.clone(),
                text: snippet.text.clone(),
                spans,
                instances: marks,
                link: None,
            }
        })
        .collect()
}

/// The names an answer shows: a count read from a list or a table's column names its items,
/// and no others (issue 71); any other count, the instances the learned scorer ranks.
fn names_shown(
    read_from: Option<&StructuredCount>,
    instances: &[Instance],
    snippets: &[Snippet],
) -> Vec<RankedInstance> {
    match read_from.and_then(|s| Some((s, s.listed_names(snippets)?))) {
        Some((structured, items)) => items
            .iter()
            .map(|name| RankedInstance {
                name: name.clone(),
                score: 1.0,
                snippets: vec![snippets[structured.snippet].id.clone()],
            })
            .collect(),
        None => ranked_instances(instances, snippets),
    }
}

/// The passages date their counts, none for the year asked: declined, saying which years they
/// give (issue 86).
fn not_for_year(structured: Option<&StructuredCount>) -> Option<Abstention> {
    match &structured?.reading {
        Reading::NotForYear { year, years } => Some(Abstention::NotForYear {
            year: *year,
            years: years.clone(),
        }),
        _ => None,
    }
}

/// Why no count is given though the passages were read: too little support for the count they
/// point to, or no passage about the question's subject.
fn abstention_of(
    prediction: &Prediction,
    rule: SupportRule,
    settings: &CountSettings,
    related: &[bool],
    subject: &Subject,
) -> Option<Abstention> {
    match (prediction.consolidated, prediction.count) {
        (Some(closest), None) => Some(Abstention::WeakSupport {
            support: prediction.support,
            measure: rule.measure(),
            abstain_below: settings.abstain_below,
            closest,
        }),
        (None, _) if !related.is_empty() && !related.contains(&true) => {
            Some(Abstention::NothingAbout {
                passages: related.len(),
                subject: subject.describe(),
            })
        }
        _ => None,
    }
}

/// The count's certainty from the pipeline's support (issue 87). The support is the count's
/// probability only where it decided: a statement that lifted an abstention, or a year asked
/// for, answers by another rule, and then there is none.
fn certainty_of(
    abstention: Option<&Abstention>,
    count: Option<f64>,
    consolidated: Option<f64>,
    support: f64,
    abstain_below: f64,
    rule: SupportRule,
) -> Option<Certainty> {
    let reading = match (abstention, count) {
        (Some(Abstention::WeakSupport { .. }), _) => consolidated,
        (None, Some(count)) if support >= abstain_below => Some(count),
        _ => None,
    }?;
    Some(Certainty {
        probability: support,
        bound: abstain_below,
        measure: rule.measure().into(),
        reading: Some(reading),
    })
}
