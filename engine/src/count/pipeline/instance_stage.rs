//! The instance stage of the count pipeline: the snippets' candidate names, the evidence each
//! scoring needs (fit to the answer type, the reader's readings, type evidence for the learned
//! scorer), and their ranking.

use std::collections::HashMap;

use tally_types::count::answer::RankedInstance;
use tally_types::InstanceScoring;

use super::{CountPipeline, CountSettings};
use crate::count::instance_reading::read_instances;
use crate::count::instance_scorer::InstanceScorer;
use crate::count::instances::{
    find_instances, rank, reader_weighted, snippet_frequency, type_compatibility,
    type_compatibility_prior, Evidence, Instance, Reading,
};
use crate::count::membership::{features, KindWords, Membership, Seen};
use crate::count::prediction::Chosen;
use crate::count::question::{analyse, QuestionAnalysis};
use crate::count::relevance::Subject;
use crate::count::structured::passages_about;
use crate::error::EngineError;
use tally_documents::corpus::datasets::Snippet;
use tally_documents::snippet_index::SnippetIndex;
use tally_encoder::cosine;

impl CountPipeline {
    /// Instances of the snippets, scored and ranked, at most `max`; `chosen` (each snippet's
    /// count span) gives the snippets' confidences and the most confident snippet.
    pub fn instances_for(
        &self,
        analysis: &QuestionAnalysis,
        texts: &[&str],
        chosen: &[Chosen],
        scoring: InstanceScoring,
        max: usize,
    ) -> Result<Vec<Instance>, EngineError> {
        let evidence = self.instance_evidence(analysis, texts, scoring, max)?;
        Ok(rank_instances(evidence, chosen, texts.len(), scoring, max))
    }

    /// The snippets' instances with what ranking them under `scoring` needs besides the counts:
    /// their fit to the answer type, the reader's readings and the learned scorer's probability
    /// (for the scorings that use them).
    pub(super) fn instance_evidence(
        &self,
        analysis: &QuestionAnalysis,
        texts: &[&str],
        scoring: InstanceScoring,
        max: usize,
    ) -> Result<InstanceEvidence, EngineError> {
        let instances = find_instances(texts, analysis);
        // The learned scorer looks deeper than the top `max` by type compatibility: its evidence
        // can lift a name the prior ranks lower.
        let fit_depth = if scoring == InstanceScoring::Learned {
            LEARNED_DEPTH * max
        } else {
            max
        };
        let fits = self.type_fits(&instances, analysis, scoring, texts.len(), fit_depth)?;
        let fit_of = |inst: &Instance| fits.get(&inst.key).copied().unwrap_or(1.0);
        let readings = self.readings(&instances, analysis, texts, scoring, max, &fit_of)?;
        // Whatever ranks them, the names shown are those the learned scorer finds likely.
        let learned = InstanceScorer::builtin().map(|scorer| {
            candidate_features(&instances, analysis, texts, &fits)
                .map(|(inst, x)| (inst.key.clone(), scorer.probability(&x)))
                .collect()
        });
        Ok(InstanceEvidence {
            instances,
            fits,
            readings,
            learned,
        })
    }

    /// Every candidate name of a question asked of `index` with its type evidence
    /// ([`crate::count::membership::FEATURES`]), as the learned scoring computes it: what `tally
    /// train instances` learns from.
    pub fn instance_candidates(
        &self,
        index: &SnippetIndex,
        question: &str,
        settings: &CountSettings,
    ) -> Result<Vec<(Instance, Vec<f64>)>, EngineError> {
        let (snippets, _) =
            index.snippets_for(question, settings.snippets, settings.corpus.as_deref())?;
        let analysis = analyse(question);
        let subject = Subject::of(&analysis, index);
        let related = passages_about(question, &subject, &snippets, settings.min_relevance);
        let texts: Vec<&str> = snippets
            .iter()
            .zip(&related)
            .map(|(s, &related)| if related { s.text.as_str() } else { "" })
            .collect();
        let instances = find_instances(&texts, &analysis);
        let depth = LEARNED_DEPTH * settings.max_instances;
        let fits = self.type_fits(
            &instances,
            &analysis,
            settings.instances,
            texts.len(),
            depth,
        )?;
        Ok(candidate_features(&instances, &analysis, &texts, &fits)
            .map(|(inst, x)| (inst.clone(), x))
            .collect())
    }

    /// Fit of each instance to the answer: the mean encoder cosine of "‹instance›" with the
    /// answer type and with the "which …" question, in place of an NLI model. A name closer than
    /// [`SUBJECT_SIMILARITY`] to one of the question's entities is the question's subject under
    /// another name ("United States" for "america") and fits 0. Only computed for the scorings
    /// that use it, and only for the names that can still make the top `max` (see
    /// [`best_first`], bound: [`type_compatibility_prior`]); the others fit 0 and drop out.
    fn type_fits(
        &self,
        instances: &[Instance],
        analysis: &QuestionAnalysis,
        scoring: InstanceScoring,
        snippets: usize,
        max: usize,
    ) -> Result<Fits, EngineError> {
        let mut fits = Fits::new();
        let Some(cache) = &self.names else {
            return Ok(fits);
        };
        // The learned scorer reads the fit of every name it may show, whatever ranks them.
        let uses_fit = InstanceScorer::builtin().is_some()
            || matches!(
                scoring,
                InstanceScoring::TypeCompatibility | InstanceScoring::ReaderTypeCompatibility
            );
        if !uses_fit || instances.is_empty() {
            return Ok(fits);
        }
        let answer = cache.embed(&[
            analysis.answer_type_singular.as_str(),
            analysis.which_question.as_str(),
        ])?;
        let entities: Vec<&str> = analysis.entities.iter().map(String::as_str).collect();
        let entity_embeddings = if entities.is_empty() {
            Vec::new()
        } else {
            cache.embed(&entities)?
        };
        let bounds = instances
            .iter()
            .map(|i| (type_compatibility_prior(i, snippets), i));
        best_first(bounds, max, FIT_BATCH, |chunk| {
            let names: Vec<&str> = chunk.iter().map(|(_, i)| i.name.as_str()).collect();
            let mut scores = Vec::with_capacity(chunk.len());
            for ((bound, inst), e) in chunk.iter().zip(cache.embed(&names)?) {
                let is_subject = entity_embeddings
                    .iter()
                    .any(|s| cosine(&e, s) > SUBJECT_SIMILARITY);
                let fit = if is_subject {
                    0.0
                } else {
                    answer.iter().map(|a| cosine(&e, a) as f64).sum::<f64>() / answer.len() as f64
                };
                let fit = fit.clamp(0.0, 1.0);
                fits.insert(inst.key.clone(), fit);
                scores.push(type_compatibility(*bound, fit));
            }
            Ok(scores)
        })?;
        // Names never embedded cannot reach the top: they fit 0 (a missing entry would fit 1).
        for inst in instances {
            fits.entry(inst.key.clone()).or_insert(0.0);
        }
        Ok(fits)
    }

    /// The reader's readings of the names under the "which …" question, for the reader's
    /// scorings (`None` for the others, or without a reader). Only the names that can still make
    /// the top `max` are read (see [`best_first`]; bounds: the snippet frequency for
    /// [`InstanceScoring::Reader`], whose summed reading is at most that, and the type
    /// compatibility for [`InstanceScoring::ReaderTypeCompatibility`], which the reading scales
    /// by at most 1); the others read 0.
    fn readings(
        &self,
        instances: &[Instance],
        analysis: &QuestionAnalysis,
        texts: &[&str],
        scoring: InstanceScoring,
        max: usize,
        fit_of: &dyn Fn(&Instance) -> f64,
    ) -> Result<Option<HashMap<String, Reading>>, EngineError> {
        let Some(model) = self.name_reader.as_ref().or(self.span_model.as_ref()) else {
            return Ok(None);
        };
        if !matches!(
            scoring,
            InstanceScoring::Reader | InstanceScoring::ReaderTypeCompatibility
        ) {
            return Ok(None);
        }
        let bound = |inst: &Instance| match scoring {
            InstanceScoring::Reader => snippet_frequency(inst, texts.len()),
            _ => type_compatibility(type_compatibility_prior(inst, texts.len()), fit_of(inst)),
        };
        let score = |bound: f64, reading: Reading| match scoring {
            InstanceScoring::Reader => reading.summed,
            _ => reader_weighted(bound, reading),
        };
        let mut readings = HashMap::new();
        best_first(
            instances.iter().map(|i| (bound(i), i)),
            max,
            READ_BATCH,
            |chunk| {
                let names: Vec<&Instance> = chunk.iter().map(|(_, i)| *i).collect();
                let read = read_instances(model, &analysis.which_question, texts, &names)?;
                Ok(chunk
                    .iter()
                    .map(|(bound, inst)| {
                        let reading = read.get(&inst.key).copied().unwrap_or_default();
                        readings.insert(inst.key.clone(), reading);
                        score(*bound, reading)
                    })
                    .collect())
            },
        )?;
        Ok(Some(readings))
    }
}

/// A question's instances before ranking, with their evidence (see
/// [`CountPipeline::instance_evidence`]).
pub(super) struct InstanceEvidence {
    instances: Vec<Instance>,
    fits: Fits,
    readings: Option<HashMap<String, Reading>>,
    /// The learned scorer's probability of each name it may show.
    learned: Option<HashMap<String, f64>>,
}

/// Each instance with its type evidence; names never embedded (fit 0) cannot be shown and are
/// left out.
fn candidate_features<'i>(
    instances: &'i [Instance],
    analysis: &QuestionAnalysis,
    texts: &'i [&str],
    fits: &'i Fits,
) -> impl Iterator<Item = (&'i Instance, Vec<f64>)> + 'i {
    let kind = KindWords::of(analysis);
    let fit_of = |inst: &Instance| fits.get(&inst.key).copied().unwrap_or(0.0);
    let embedded: Vec<&Instance> = instances.iter().filter(|i| fit_of(i) > 0.0).collect();
    // The question's best fit and prior: a name is judged against the other names of its
    // question, not against every question's.
    let best = Best {
        fit: embedded.iter().map(|i| fit_of(i)).fold(0.0, f64::max),
        prior: embedded
            .iter()
            .map(|i| type_compatibility_prior(i, texts.len()))
            .fold(0.0, f64::max),
    };
    embedded.into_iter().map(move |inst| {
        let membership = Membership::of(inst, texts, &kind);
        let seen = Seen {
            fit: fit_of(inst),
            best_fit: best.fit,
            best_prior: best.prior,
        };
        (inst, features(inst, texts.len(), &seen, &membership))
    })
}

/// Each name's fit to the answer type, by its key.
type Fits = HashMap<String, f64>;

/// The question's best fit and prior among its embedded names.
struct Best {
    fit: f64,
    prior: f64,
}

/// How many times the shown names' number the learned scoring embeds (and `tally train
/// instances` reads).
const LEARNED_DEPTH: usize = 3;

/// Ranks the instances by `scoring`, at most `max`; `chosen` (each snippet's count span) gives
/// the snippets' confidences and the most confident snippet.
pub(super) fn rank_instances(
    evidence: InstanceEvidence,
    chosen: &[Chosen],
    snippets: usize,
    scoring: InstanceScoring,
    max: usize,
) -> Vec<Instance> {
    let InstanceEvidence {
        mut instances,
        fits,
        readings,
        learned,
    } = evidence;
    let mut snippet_confidence = vec![0.0; snippets];
    for c in chosen {
        if let Some(slot) = snippet_confidence.get_mut(c.snippet) {
            *slot = c.confidence;
        }
    }
    let best_snippet = chosen
        .iter()
        .max_by(|a, b| a.confidence.total_cmp(&b.confidence))
        .map(|c| c.snippet);
    let fit_of = |inst: &Instance| fits.get(&inst.key).copied().unwrap_or(1.0);
    let reading_of = |inst: &Instance| {
        readings
            .as_ref()
            .map(|r| r.get(&inst.key).copied().unwrap_or_default())
    };
    let learned_of = |inst: &Instance| {
        learned
            .as_ref()
            .map(|l| l.get(&inst.key).copied().unwrap_or(0.0))
    };
    let evidence = Evidence {
        type_fit: &fit_of,
        reading: &reading_of,
        learned: &learned_of,
    };
    rank(
        &mut instances,
        &snippet_confidence,
        best_snippet,
        scoring,
        &evidence,
    );
    instances.retain(|i| i.score > 0.0);
    instances.truncate(max);
    for inst in &mut instances {
        inst.likely = learned.as_ref().and_then(|l| l.get(&inst.key).copied());
    }
    instances
}

/// The instances a person is shown: those the learned scorer finds likely enough (all of them
/// without a scorer).
pub(super) fn likely_only(mut instances: Vec<Instance>) -> Vec<Instance> {
    if let Some(scorer) = InstanceScorer::builtin() {
        instances.retain(|i| i.likely.is_some_and(|p| p >= scorer.show_above));
    }
    instances
}

/// Scores instances best bound first, `chunk` at a time, until `max` scores found are above the
/// next bound (no instance left can reach the top `max`). `score_chunk` gives each instance's
/// score, at most its bound; instances never scored are those that cannot reach the top.
fn best_first<'i>(
    bounds: impl Iterator<Item = (f64, &'i Instance)>,
    max: usize,
    chunk: usize,
    mut score_chunk: impl FnMut(&[(f64, &'i Instance)]) -> Result<Vec<f64>, EngineError>,
) -> Result<(), EngineError> {
    let mut by_bound: Vec<(f64, &Instance)> = bounds.collect();
    by_bound.sort_by(|a, b| b.0.total_cmp(&a.0));
    let top = max.max(1);
    let mut scores: Vec<f64> = Vec::new();
    for part in by_bound.chunks(chunk) {
        let next_bound = part[0].0;
        if scores.len() >= top && scores[top - 1] > next_bound {
            break;
        }
        scores.extend(score_chunk(part)?);
        scores.sort_by(|a, b| b.total_cmp(a));
    }
    Ok(())
}

/// Cosine above which an instance is taken for one of the question's own entities (chosen on
/// the NQ dev instances).
const SUBJECT_SIMILARITY: f32 = 0.5;
/// Instance names embedded per encoder call while looking for the top ones.
const FIT_BATCH: usize = 32;
/// Instance names whose sentences the reader reads per call while looking for the top ones (a
/// sentence naming names of two calls is read twice).
const READ_BATCH: usize = 32;

/// The ranked instances with the snippets that name them.
pub(super) fn ranked_instances(
    instances: &[Instance],
    snippets: &[Snippet],
) -> Vec<RankedInstance> {
    instances
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
        .collect()
}
