//! The count pipeline: question analysis → count candidates → span confidences → consolidation
//! → contextualization → instances, with per-stage timings, into one [`CountAnswer`].

use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::candidates::{count_candidates, CountCandidate};
use super::consolidate::{consolidate, select, Scored, Strategy};
use super::contextualize::{classify, CnpClass, CnpInput, ContextSettings};
use super::dataset::Snippet;
use super::instances::{find_instances, rank, Instance, InstanceScoring};
use super::lexical::lexical_confidence;
use super::question::{analyse, QuestionAnalysis};
use super::snippet_index::{IndexError, SnippetIndex};
use super::span_model::{candidate_confidence, SpanModel, SpanModelError};
use crate::encoder::{cosine, Encoder, EncoderError};

#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error(transparent)]
    SpanModel(#[from] SpanModelError),
    #[error(transparent)]
    Encoder(#[from] EncoderError),
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// How count spans get their confidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ScorerKind {
    /// Tally's span model (encoder + trained QA head).
    #[default]
    Neural,
    /// Lexical overlap of question and candidate context (baseline, and fallback without a model).
    Lexical,
    /// The mean of the two: the span model's reading of the snippet, and the lexical match of
    /// the counted noun with the answer type.
    Hybrid,
}

impl ScorerKind {
    pub fn name(self) -> &'static str {
        match self {
            ScorerKind::Neural => "neural",
            ScorerKind::Lexical => "lexical",
            ScorerKind::Hybrid => "hybrid",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        [ScorerKind::Neural, ScorerKind::Lexical, ScorerKind::Hybrid]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// Every setting of the count pipeline; stored with each answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountSettings {
    /// Snippets retrieved for a question without a stored snippet set.
    pub snippets: usize,
    /// Minimum span confidence for a count to take part.
    pub threshold: f64,
    /// Lower the threshold by 0.1 until `min_counts` counts pass (the authors' relaxation).
    pub relax_threshold: bool,
    pub min_counts: usize,
    pub strategy: Strategy,
    pub context: ContextSettings,
    pub instance_scoring: InstanceScoring,
    pub scorer: ScorerKind,
    /// Instances returned.
    pub max_instances: usize,
    /// Retrieve only from this corpus of the snippet index (`None`: all of them).
    pub corpus: Option<String>,
}

impl Default for CountSettings {
    fn default() -> Self {
        Self {
            snippets: 50,
            threshold: 0.5,
            relax_threshold: true,
            min_counts: 5,
            strategy: Strategy::WeightedMedian,
            context: ContextSettings::default(),
            instance_scoring: InstanceScoring::default(),
            scorer: ScorerKind::Neural,
            max_instances: 20,
            corpus: None,
        }
    }
}

/// A count phrase of a snippet with its confidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountSpan {
    /// Character offsets in the snippet text (what a browser highlights).
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub count: f64,
    pub confidence: f64,
    /// The snippet's answer (its most confident count span).
    pub chosen: bool,
    /// Took part in consolidation (chosen and above the threshold used).
    pub used: bool,
    pub cnp_class: Option<CnpClass>,
}

/// An instance mention in a snippet, character offsets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstanceMark {
    pub start: usize,
    pub end: usize,
    pub instance: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SnippetAnswer {
    pub id: String,
    pub source: String,
    pub text: String,
    pub spans: Vec<CountSpan>,
    pub instances: Vec<InstanceMark>,
}

/// A CNP in a group: which snippet, its phrase, count and confidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cnp {
    pub snippet_id: String,
    pub text: String,
    pub count: f64,
    pub confidence: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct CnpGroups {
    pub synonyms: Vec<Cnp>,
    pub subgroups: Vec<Cnp>,
    pub incomparables: Vec<Cnp>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankedInstance {
    pub name: String,
    pub score: f64,
    /// Snippet ids mentioning it.
    pub snippets: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageTiming {
    pub stage: String,
    pub ms: f64,
}

/// Everything Tally answers to a count question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountAnswer {
    pub question: String,
    pub analysis: QuestionAnalysis,
    /// The predicted count; `None` when no snippet has a usable count.
    pub count: Option<f64>,
    /// The representative count phrase.
    pub cnp_rep: Option<Cnp>,
    /// Share of the used confidence that agrees with the prediction (synonyms and CNP_rep).
    pub confidence: f64,
    pub groups: CnpGroups,
    pub instances: Vec<RankedInstance>,
    pub snippets: Vec<SnippetAnswer>,
    /// How the snippets were found ("prefetched", "bm25", "given").
    pub retrieval: String,
    /// The threshold after relaxation.
    pub threshold_used: f64,
    pub settings: CountSettings,
    pub timings: Vec<StageTiming>,
}

/// The count pipeline with its models, loaded once and shared.
pub struct CountPipeline {
    span_model: Option<SpanModel>,
    encoder: Option<Arc<Encoder>>,
}

impl CountPipeline {
    /// `span_model` is needed for the neural scorer; `encoder` for CNP similarity and instance
    /// type fit (without it, every phrase counts as similar and every instance as fitting).
    pub fn new(span_model: Option<SpanModel>, encoder: Option<Arc<Encoder>>) -> Self {
        let encoder = encoder.or_else(|| span_model.as_ref().map(|m| m.encoder().clone()));
        Self {
            span_model,
            encoder,
        }
    }

    pub fn has_span_model(&self) -> bool {
        self.span_model.is_some()
    }

    /// Candidates with confidences for each snippet: `scores[s]` lists (candidate, confidence).
    pub fn score_candidates(
        &self,
        question: &str,
        analysis: &QuestionAnalysis,
        snippets: &[&str],
        scorer: ScorerKind,
    ) -> Result<Vec<Vec<(CountCandidate, f64)>>, PipelineError> {
        let candidates: Vec<Vec<CountCandidate>> =
            snippets.iter().map(|s| count_candidates(s)).collect();
        match (scorer, &self.span_model) {
            (ScorerKind::Neural | ScorerKind::Hybrid, Some(model)) => {
                // Only snippets with a count candidate go through the model.
                let with: Vec<usize> = (0..snippets.len())
                    .filter(|&s| !candidates[s].is_empty())
                    .collect();
                let texts: Vec<&str> = with.iter().map(|&s| snippets[s]).collect();
                let scored = model.score(question, &texts)?;
                let mut out: Vec<Vec<(CountCandidate, f64)>> = candidates
                    .into_iter()
                    .map(|cs| cs.into_iter().map(|c| (c, 0.0)).collect())
                    .collect();
                for (window, scores) in &scored {
                    let s = with[window.snippet];
                    for (c, conf) in out[s].iter_mut() {
                        if let Some(p) =
                            candidate_confidence(window, scores, &c.span, &c.number_span)
                        {
                            *conf = conf.max(p as f64);
                        }
                    }
                }
                if scorer == ScorerKind::Hybrid {
                    for (s, cs) in out.iter_mut().enumerate() {
                        for (c, conf) in cs.iter_mut() {
                            *conf =
                                0.5 * *conf + 0.5 * lexical_confidence(analysis, snippets[s], c);
                        }
                    }
                }
                Ok(out)
            }
            _ => Ok(candidates
                .into_iter()
                .enumerate()
                .map(|(s, cs)| {
                    cs.into_iter()
                        .map(|c| {
                            let p = lexical_confidence(analysis, snippets[s], &c);
                            (c, p)
                        })
                        .collect()
                })
                .collect()),
        }
    }

    /// Answers `question` with the snippets of `index`: its stored snippet set when it is a
    /// dataset question, otherwise BM25 top-`settings.snippets`.
    pub fn answer_from_index(
        &self,
        index: &SnippetIndex,
        question: &str,
        settings: &CountSettings,
    ) -> Result<CountAnswer, PipelineError> {
        self.answer_from_index_observed(index, question, settings, &mut |_| {})
    }

    /// [`answer_from_index`](Self::answer_from_index), telling `on_stage` about each stage as
    /// it finishes (for progress shown while the answer is computed).
    pub fn answer_from_index_observed(
        &self,
        index: &SnippetIndex,
        question: &str,
        settings: &CountSettings,
        on_stage: &mut dyn FnMut(&StageTiming),
    ) -> Result<CountAnswer, PipelineError> {
        let started = Instant::now();
        let corpus = settings.corpus.as_deref();
        let mut snippets = index.prefetched_in(question, corpus)?;
        let mut retrieval = "prefetched";
        if snippets.is_empty() {
            retrieval = "bm25";
            snippets = index
                .search_in(question, settings.snippets, corpus)?
                .into_iter()
                .map(|h| h.snippet)
                .collect();
        }
        let retrieval_timing = StageTiming {
            stage: "retrieval".to_string(),
            ms: started.elapsed().as_secs_f64() * 1e3,
        };
        on_stage(&retrieval_timing);
        let mut answer =
            self.answer_observed(question, &snippets, retrieval, settings, on_stage)?;
        answer.timings.insert(0, retrieval_timing);
        Ok(answer)
    }

    /// Answers `question` from `snippets`.
    pub fn answer(
        &self,
        question: &str,
        snippets: &[Snippet],
        retrieval: &str,
        settings: &CountSettings,
    ) -> Result<CountAnswer, PipelineError> {
        self.answer_observed(question, snippets, retrieval, settings, &mut |_| {})
    }

    /// [`answer`](Self::answer), telling `on_stage` about each stage as it finishes.
    pub fn answer_observed(
        &self,
        question: &str,
        snippets: &[Snippet],
        retrieval: &str,
        settings: &CountSettings,
        on_stage: &mut dyn FnMut(&StageTiming),
    ) -> Result<CountAnswer, PipelineError> {
        let mut timings = Vec::new();
        let mut clock = Instant::now();
        let mut lap = |stage: &str, timings: &mut Vec<StageTiming>| {
            let timing = StageTiming {
                stage: stage.to_string(),
                ms: clock.elapsed().as_secs_f64() * 1e3,
            };
            on_stage(&timing);
            timings.push(timing);
            clock = Instant::now();
        };

        let analysis = analyse(question);
        let texts: Vec<&str> = snippets.iter().map(|s| s.text.as_str()).collect();
        lap("analysis", &mut timings);

        let scorer = if self.span_model.is_some() {
            settings.scorer
        } else {
            ScorerKind::Lexical
        };
        let per_snippet = self.score_candidates(question, &analysis, &texts, scorer)?;
        lap("span scoring", &mut timings);

        let chosen = best_per_snippet(&per_snippet);
        let (threshold_used, kept, count) = predict(&chosen, settings);
        lap("consolidation", &mut timings);

        // Contextualization over the used candidates.
        let mut classes: Vec<Option<CnpClass>> = vec![None; chosen.len()];
        let mut cnp_rep = None;
        let mut groups = CnpGroups::default();
        let mut confidence = 0.0;
        if let Some(prediction) = count {
            let phrases: Vec<&str> = kept
                .iter()
                .map(|&i| chosen[i].candidate.text.as_str())
                .collect();
            let embeddings = match &self.encoder {
                Some(encoder) => encoder.embed(&phrases)?,
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
        lap("contextualization", &mut timings);

        // Instances.
        let instances = self.instances_for(
            &analysis,
            &texts,
            &chosen,
            settings.instance_scoring,
            settings.max_instances,
        )?;
        lap("instances", &mut timings);

        let answer_snippets = snippets
            .iter()
            .enumerate()
            .map(|(s, snippet)| {
                let chosen_here = chosen.iter().position(|c| c.snippet == s);
                let spans = per_snippet[s]
                    .iter()
                    .map(|(c, p)| {
                        let is_chosen =
                            chosen_here.is_some_and(|i| chosen[i].candidate.span == c.span);
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
                }
            })
            .collect();
        let ranked = instances
            .iter()
            .map(|inst| {
                let mut ids: Vec<String> = inst
                    .mentions
                    .iter()
                    .map(|m| snippets[m.snippet].id.clone())
                    .collect();
                ids.dedup();
                RankedInstance {
                    name: inst.name.clone(),
                    score: inst.score,
                    snippets: ids,
                }
            })
            .collect();

        Ok(CountAnswer {
            question: question.to_string(),
            analysis,
            count,
            cnp_rep,
            confidence,
            groups,
            instances: ranked,
            snippets: answer_snippets,
            retrieval: retrieval.to_string(),
            threshold_used,
            settings: CountSettings {
                scorer,
                ..settings.clone()
            },
            timings,
        })
    }

    /// Instances of the snippets, scored and ranked, at most `max`; `chosen` (each snippet's
    /// count span) gives the snippets' confidences and the most confident snippet.
    pub fn instances_for(
        &self,
        analysis: &QuestionAnalysis,
        texts: &[&str],
        chosen: &[Chosen],
        scoring: InstanceScoring,
        max: usize,
    ) -> Result<Vec<Instance>, PipelineError> {
        let mut snippet_confidence = vec![0.0; texts.len()];
        for c in chosen {
            snippet_confidence[c.snippet] = c.confidence;
        }
        let best_snippet = chosen
            .iter()
            .max_by(|a, b| a.confidence.total_cmp(&b.confidence))
            .map(|c| c.snippet);
        let mut instances = find_instances(texts, analysis);
        let fits = self.type_fits(&instances, analysis, scoring)?;
        let fit_of = |inst: &Instance| fits.get(&inst.key).copied().unwrap_or(1.0);
        rank(
            &mut instances,
            &snippet_confidence,
            best_snippet,
            scoring,
            &fit_of,
        );
        instances.retain(|i| i.score > 0.0);
        instances.truncate(max);
        Ok(instances)
    }

    /// Fit of each instance to the answer type: encoder cosine of "‹instance›" and the answer
    /// type, mapped to [0, 1]. Only computed for the scoring that uses it.
    fn type_fits(
        &self,
        instances: &[Instance],
        analysis: &QuestionAnalysis,
        scoring: InstanceScoring,
    ) -> Result<std::collections::HashMap<String, f64>, PipelineError> {
        let mut fits = std::collections::HashMap::new();
        let Some(encoder) = &self.encoder else {
            return Ok(fits);
        };
        if scoring != InstanceScoring::TypeCompatibility || instances.is_empty() {
            return Ok(fits);
        }
        let type_embedding = encoder.embed_one(&analysis.answer_type_singular)?;
        let names: Vec<&str> = instances.iter().map(|i| i.name.as_str()).collect();
        for (inst, e) in instances.iter().zip(encoder.embed(&names)?) {
            let c = cosine(&e, &type_embedding) as f64;
            fits.insert(inst.key.clone(), c.clamp(0.0, 1.0));
        }
        Ok(fits)
    }
}

/// A snippet's answer: its most confident count candidate.
pub struct Chosen {
    pub snippet: usize,
    pub candidate: CountCandidate,
    pub confidence: f64,
}

/// One answer per snippet: its most confident count span (snippets without one give none).
pub fn best_per_snippet(per_snippet: &[Vec<(CountCandidate, f64)>]) -> Vec<Chosen> {
    per_snippet
        .iter()
        .enumerate()
        .filter_map(|(s, cs)| {
            cs.iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(c, p)| Chosen {
                    snippet: s,
                    candidate: c.clone(),
                    confidence: *p,
                })
        })
        .collect()
}

/// Threshold (with relaxation) and consolidation: the threshold used, the indices of `chosen`
/// that took part, and the predicted count.
pub fn predict(chosen: &[Chosen], settings: &CountSettings) -> (f64, Vec<usize>, Option<f64>) {
    let scored: Vec<Scored> = chosen
        .iter()
        .map(|c| Scored {
            count: c.candidate.count,
            confidence: c.confidence,
        })
        .collect();
    let (threshold_used, kept) = select(
        &scored,
        settings.threshold,
        settings.relax_threshold,
        settings.min_counts,
    );
    let kept_scored: Vec<Scored> = kept.iter().map(|&i| scored[i]).collect();
    let count = consolidate(&kept_scored, settings.strategy);
    (threshold_used, kept, count)
}

/// Character offset of byte offset `byte` in `text`.
pub fn char_offset(text: &str, byte: usize) -> usize {
    text.get(..byte.min(text.len()))
        .map_or(0, |prefix| prefix.chars().count())
}
