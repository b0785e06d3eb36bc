//! The three count evaluations behind `tally eval count | cnp | instances`: they read the CoQEx
//! files, run the pipeline (or one stage of it) and score with [`tally_engine::count::metrics`].

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use tally_documents::DocumentsError;

use serde::Serialize;

use super::training::cross_validation::fold_assignment;
use super::training::settings::TrainSettings;
use tally_documents::corpus::datasets::{
    gold_for, read_aliases, read_gold_counts, read_gold_instances, read_squad, QuerySnippets,
    Snippet,
};
use tally_documents::rarity::WordRarity;
use tally_documents::snippet_index::SnippetIndex;
use tally_encoder::{Encoder, EncoderError};
use tally_engine::count::answer_support::SupportRule;
use tally_engine::count::contextualize::{classify, CnpInput};
use tally_engine::count::metrics::{
    class_accuracy, count_scores, instance_scores, relevance, ClassAccuracy, CountScores,
    InstanceScores,
};
use tally_engine::count::pipeline::CountPipeline;
use tally_engine::count::prediction::{best_per_snippet, predict, Chosen, Prediction};
use tally_engine::count::question::analyse;
use tally_engine::count::relevance::Subject;
use tally_engine::count::structured::{passages_about, stated_count};
use tally_engine::EngineError;
use tally_types::count::answer::CnpClass;
use tally_types::count::settings::ContextSettings;
use tally_types::CountSettings;
use tally_types::InstanceScoring;
use tally_types::Strategy;

/// Why a count evaluation failed.
#[derive(Debug, thiserror::Error)]
pub enum EvaluateError {
    /// A data set could not be read, or the snippet index failed.
    #[error(transparent)]
    Documents(#[from] DocumentsError),
    /// The count pipeline failed.
    #[error(transparent)]
    Pipeline(#[from] EngineError),
    /// The encoder failed.
    #[error(transparent)]
    Encoder(#[from] EncoderError),
    /// A file could not be read as CSV.
    #[error("{path} is not a CSV file")]
    Csv {
        /// The file.
        path: String,
        /// What the CSV reader found.
        #[source]
        source: csv::Error,
    },
    /// A file's contents are not as expected.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

/// Count figures for every strategy, plus which scorer produced them.
#[derive(Debug, Clone, Serialize)]
pub struct CountReport {
    /// Which scorer produced the figures.
    pub scorer: String,
    /// The settings the questions were answered with.
    pub settings: CountSettings,
    /// Each consolidation strategy's figures, by name.
    pub strategies: BTreeMap<String, CountScores>,
    /// The chosen strategy's figures along the abstention threshold ([`ABSTENTION_STEPS`]).
    pub abstention_curve: Vec<AbstentionPoint>,
}

/// Figures when Tally answers only from support `abstain_below` upwards.
#[derive(Debug, Clone, Serialize)]
pub struct AbstentionPoint {
    /// The least support an answer needs here.
    pub abstain_below: f64,
    /// The figures at that bound.
    pub scores: CountScores,
}

/// Thresholds of the abstention curve: 0 (never abstain) to 0.6 by 0.05, the range the
/// cross-validated choice searches.
pub const ABSTENTION_STEPS: usize = 13;

/// Where an evaluated question's snippets come from (issue 47: the benchmarks' own snippet sets
/// are gathered for each question; a person's new question is answered from the whole corpus).
#[derive(Clone, Copy)]
pub enum EvalRetrieval<'a> {
    /// The question's own snippet set (the benchmarks' setting).
    Stored,
    /// BM25's top `settings.snippets` over `index` (the default corpus, the question's own
    /// snippets among all the others), as a question the corpus was not gathered for is answered.
    Open(&'a SnippetIndex),
    /// As `Open`, with the question's own snippets left out: the corpus holds no evidence for it,
    /// so almost any count given is wrong.
    OffCorpus(&'a SnippetIndex),
}

impl EvalRetrieval<'_> {
    /// The snippets `set`'s question is answered from.
    fn snippets(&self, set: &QuerySnippets, k: usize) -> Result<Vec<Snippet>, EvaluateError> {
        Ok(match self {
            EvalRetrieval::Stored => set.snippets.clone(),
            EvalRetrieval::Open(index) => index
                .search(&set.question, k)?
                .into_iter()
                .map(|hit| hit.snippet)
                .collect(),
            EvalRetrieval::OffCorpus(index) => {
                let own: HashSet<&str> = set.snippets.iter().map(|s| s.text.as_str()).collect();
                index
                    .search(&set.question, k + own.len())?
                    .into_iter()
                    .map(|hit| hit.snippet)
                    .filter(|snippet| !own.contains(snippet.text.as_str()))
                    .take(k)
                    .collect()
            }
        })
    }
}

/// One question answered for an evaluation: each snippet's most confident count, every count
/// its snippets state, a clear statement's count, and the gold count.
#[derive(Debug, Clone)]
pub struct ReplayedQuestion {
    /// The question as asked.
    pub question: String,
    /// Each snippet's most confident count.
    pub chosen: Vec<Chosen>,
    /// Every candidate count of every snippet (what a person can find in the evidence).
    pub stated: Vec<f64>,
    /// The count a clear statement gives, if any.
    pub statement: Option<f64>,
    /// The gold count.
    pub gold: f64,
}

impl ReplayedQuestion {
    /// The answer under `settings` and `rule`, as the pipeline gives it.
    pub fn predict(&self, settings: &CountSettings, rule: SupportRule) -> Prediction {
        predict(&self.chosen, settings, rule).with_statement(self.statement, settings.statements)
    }
}

/// Answers every question of a snippet file that has a gold count, with the settings as
/// applied (the scorer resolved): what every count evaluation reads.
pub fn replay_counts(
    pipeline: &CountPipeline,
    snippets: &Path,
    gold: &Path,
    settings: &CountSettings,
    retrieval: EvalRetrieval<'_>,
    rarity: &dyn WordRarity,
) -> Result<(CountSettings, Vec<ReplayedQuestion>), EvaluateError> {
    // The stored sets were gathered for their questions, as the server's prefetched ones.
    let resolved = settings.resolve(
        pipeline.effective_scorer(settings.scorer),
        matches!(retrieval, EvalRetrieval::Stored),
    );
    let settings = settings.applied(&resolved);
    let sets = read_squad(snippets)?;
    let gold = read_gold_counts(gold)?;
    let mut replayed = Vec::new();
    for set in &sets {
        let Some(g) = gold_for(set, &gold).and_then(|g| g.count) else {
            continue;
        };
        let retrieved = retrieval.snippets(set, settings.snippets)?;
        let texts: Vec<&str> = retrieved.iter().map(|s| s.text.as_str()).collect();
        let analysis = analyse(&set.question);
        let subject = Subject::of(&analysis, rarity);
        let related = passages_about(&set.question, &subject, &retrieved, settings.min_relevance);
        let scored = pipeline.score_candidates(
            &set.question,
            &analysis,
            &texts,
            settings.scorer,
            Some(&related),
            &retrieved
                .iter()
                .map(|s| s.source.as_str())
                .collect::<Vec<_>>(),
        )?;
        let (statement, _) = stated_count(&set.question, &analysis, &retrieved, &related, &scored);
        replayed.push(ReplayedQuestion {
            question: set.question.clone(),
            chosen: best_per_snippet(&scored),
            stated: scored.iter().flatten().map(|(c, _)| c.count).collect(),
            statement,
            gold: g,
        });
    }
    Ok((settings, replayed))
}

/// Answers every question of a snippet file that has a gold count; scores each strategy.
/// `rarity` weighs question words when deciding which snippets are about a question (as the
/// corpus answering a person's question does).
pub fn evaluate_counts(
    pipeline: &CountPipeline,
    snippets: &Path,
    gold: &Path,
    settings: &CountSettings,
    retrieval: EvalRetrieval<'_>,
    rarity: &dyn WordRarity,
) -> Result<CountReport, EvaluateError> {
    let (settings, per_query) =
        replay_counts(pipeline, snippets, gold, settings, retrieval, rarity)?;
    let settings = &settings;
    let rule = pipeline.support_rule(settings.scorer);
    let mut strategies = BTreeMap::new();
    for strategy in Strategy::ALL {
        let s = CountSettings {
            strategy,
            ..settings.clone()
        };
        let pairs: Vec<(Option<f64>, f64)> = per_query
            .iter()
            .map(|q| (q.predict(&s, rule).count, q.gold))
            .collect();
        strategies.insert(strategy.name().to_string(), count_scores(&pairs));
    }
    let abstention_curve = (0..ABSTENTION_STEPS)
        .map(|step| {
            let s = CountSettings {
                abstain_below: step as f64 / 20.0,
                ..settings.clone()
            };
            let pairs: Vec<(Option<f64>, f64)> = per_query
                .iter()
                .map(|q| (q.predict(&s, rule).count, q.gold))
                .collect();
            AbstentionPoint {
                abstain_below: s.abstain_below,
                scores: count_scores(&pairs),
            }
        })
        .collect();
    let scorer = pipeline.effective_scorer(settings.scorer).name();
    Ok(CountReport {
        scorer: scorer.to_string(),
        settings: settings.clone(),
        strategies,
        abstention_curve,
    })
}

/// One row of a CoQuAD contextualization file.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextRow {
    /// The question's id.
    pub qid: String,
    /// The question.
    pub query: String,
    /// The count the authors' system predicted.
    pub prediction: f64,
    /// (snippet id, confidence, span text, count)
    pub candidates: Vec<(String, f64, String, f64)>,
    /// Phrases annotated synonyms of the counted noun phrase.
    pub synonyms: Vec<String>,
    /// Phrases annotated subgroups of it.
    pub subgroups: Vec<String>,
    /// Phrases annotated incomparable with it.
    pub incomparables: Vec<String>,
}

/// Reads a `*_contexts.csv` file (columns qid, query, prediction, tf_answer, equivalent_ids,
/// subgroups_ids, unrelated_ids).
pub fn read_contexts(path: &Path) -> Result<Vec<ContextRow>, EvaluateError> {
    let format_error = |message: String| EvaluateError::Format {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|source| DocumentsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|source| EvaluateError::Csv {
            path: path.display().to_string(),
            source,
        })?
        .clone();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format_error(format!("no column named `{name}`")))
    };
    let cols = [
        column("qid")?,
        column("query")?,
        column("prediction")?,
        column("tf_answer")?,
        column("equivalent_ids")?,
        column("subgroups_ids")?,
        column("unrelated_ids")?,
    ];
    let mut rows = Vec::new();
    for (n, record) in reader.records().enumerate() {
        let record = record.map_err(|source| EvaluateError::Csv {
            path: path.display().to_string(),
            source,
        })?;
        let get = |i: usize| record.get(cols[i]).unwrap_or("").trim().to_string();
        let candidates = parse_tuples(&get(3)).map_err(|m| {
            format_error(format!(
                "row {}: tf_answer: {}",
                n + 2,
                tally_types::error::Causes(&m)
            ))
        })?;
        let ids = |i: usize| -> Vec<String> {
            get(i)
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .map(|s| s.trim().trim_matches('\'').to_string())
                .filter(|s| !s.is_empty())
                .collect()
        };
        rows.push(ContextRow {
            qid: get(0),
            query: get(1),
            prediction: get(2).parse().unwrap_or(f64::NAN),
            candidates,
            synonyms: ids(4),
            subgroups: ids(5),
            incomparables: ids(6),
        });
    }
    Ok(rows)
}

/// Why a Python list of 4-tuples could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TupleError {
    /// A `)` with no `(` before it.
    #[error("unbalanced )")]
    UnbalancedParenthesis,
    /// A tuple that is not (id, confidence, span, count).
    #[error("unexpected tuple {found}")]
    UnexpectedTuple {
        /// The tuple as read.
        found: String,
    },
    /// A number that does not parse.
    #[error("bad number {written}")]
    Number {
        /// The number as written.
        written: String,
        /// Why it does not parse.
        source: std::num::ParseFloatError,
    },
}

/// Parses a Python list of 4-tuples `[('1', 0.47, '3 songs', 3.0), …]`.
fn parse_tuples(text: &str) -> Result<Vec<(String, f64, String, f64)>, TupleError> {
    #[derive(Debug)]
    enum Item {
        Str(String),
        Num(f64),
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut tuples = Vec::new();
    let mut current: Option<Vec<Item>> = None;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '(' => current = Some(Vec::new()),
            ')' => {
                let items = current.take().ok_or(TupleError::UnbalancedParenthesis)?;
                match items.as_slice() {
                    [Item::Str(id), Item::Num(conf), Item::Str(span), Item::Num(count)] => {
                        tuples.push((id.clone(), *conf, span.clone(), *count));
                    }
                    other => {
                        return Err(TupleError::UnexpectedTuple {
                            found: format!("{other:?}"),
                        })
                    }
                }
            }
            '\'' | '"' => {
                let quote = c;
                let mut s = String::new();
                i += 1;
                while i < chars.len() && chars[i] != quote {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    s.push(chars[i]);
                    i += 1;
                }
                if let Some(items) = current.as_mut() {
                    items.push(Item::Str(s));
                }
            }
            c if c.is_ascii_digit() || c == '-' || c == '.' => {
                let start = i;
                while i + 1 < chars.len()
                    && (chars[i + 1].is_ascii_alphanumeric()
                        || matches!(chars[i + 1], '.' | '-' | '+'))
                {
                    i += 1;
                }
                let number: String = chars[start..=i].iter().collect();
                let value = number.parse::<f64>().map_err(|source| TupleError::Number {
                    written: number.clone(),
                    source,
                })?;
                if let Some(items) = current.as_mut() {
                    items.push(Item::Num(value));
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(tuples)
}

/// CNP classification accuracy per gold class.
#[derive(Debug, Clone, Serialize)]
pub struct CnpReport {
    /// Queries classified.
    pub queries: usize,
    /// Candidate phrases classified.
    pub candidates: usize,
    /// The settings the phrases were classified with.
    pub settings: ContextSettings,
    /// Accuracy on the phrases annotated synonyms.
    pub synonyms: ClassAccuracy,
    /// Accuracy on the phrases annotated subgroups.
    pub subgroups: ClassAccuracy,
    /// Accuracy on the phrases annotated incomparable.
    pub incomparables: ClassAccuracy,
}

/// Classifies every candidate of every row with Algorithm 2 (the file's prediction as the count)
/// and compares with the annotated categories. CNP_rep counts as a synonym.
pub fn evaluate_cnp(
    rows: &[ContextRow],
    encoder: &Encoder,
    settings: &ContextSettings,
) -> Result<CnpReport, EvaluateError> {
    let mut pairs = Vec::new();
    let mut candidates = 0;
    for row in rows {
        if !row.prediction.is_finite() || row.candidates.is_empty() {
            continue;
        }
        let spans: Vec<&str> = row.candidates.iter().map(|c| c.2.as_str()).collect();
        let embeddings = encoder.embed(&spans)?;
        let inputs: Vec<CnpInput> = row
            .candidates
            .iter()
            .zip(&embeddings)
            .map(|(c, e)| CnpInput {
                count: c.3,
                confidence: c.1,
                embedding: e,
            })
            .collect();
        let classes = classify(&inputs, row.prediction, settings);
        for (c, class) in row.candidates.iter().zip(classes) {
            let gold = if row.synonyms.contains(&c.0) {
                "synonym"
            } else if row.subgroups.contains(&c.0) {
                "subgroup"
            } else if row.incomparables.contains(&c.0) {
                "incomparable"
            } else {
                continue;
            };
            let predicted = match class {
                CnpClass::Representative | CnpClass::Synonym => "synonym",
                CnpClass::Subgroup => "subgroup",
                CnpClass::Incomparable => "incomparable",
            };
            candidates += 1;
            pairs.push((gold.to_string(), predicted.to_string()));
        }
    }
    let by_class = class_accuracy(&pairs);
    let get = |k: &str| by_class.get(k).cloned().unwrap_or_default();
    Ok(CnpReport {
        queries: rows.len(),
        candidates,
        settings: *settings,
        synonyms: get("synonym"),
        subgroups: get("subgroup"),
        incomparables: get("incomparable"),
    })
}

/// Instance figures for every scoring.
#[derive(Debug, Clone, Serialize)]
pub struct InstanceReport {
    /// Each scoring's figures, by name.
    pub scorings: BTreeMap<String, InstanceScores>,
    /// Choosing the scoring by 5-fold cross-validation by query (each fold takes the scoring
    /// with the best Hit@10, then MRR, on the other folds): the figure to report, since the
    /// instance file is the only one to choose on.
    pub cross_validated: InstanceScores,
    /// The scoring each fold chose.
    pub fold_choices: Vec<String>,
}

/// Folds of the instance cross-validation (the seed of the count training's folds).
const INSTANCE_FOLDS: usize = 5;

/// Ranks instances for every question with gold instances and a snippet set; scores each of
/// `scorings` with the alias rule (the cross-validation chooses among them).
pub fn evaluate_instances(
    pipeline: &CountPipeline,
    snippets: &Path,
    gold: &Path,
    aliases: &Path,
    settings: &CountSettings,
    scorings: &[InstanceScoring],
) -> Result<InstanceReport, EvaluateError> {
    let sets = read_squad(snippets)?;
    let gold = read_gold_instances(gold)?;
    let aliases = read_aliases(aliases)?;
    let find = |qid: &str, query: &str| -> Option<&QuerySnippets> {
        sets.iter().find(|s| s.qid == qid).or_else(|| {
            sets.iter()
                .find(|s| s.question.trim().eq_ignore_ascii_case(query.trim()))
        })
    };
    let mut per_scoring: BTreeMap<&'static str, Vec<(Vec<bool>, usize)>> = BTreeMap::new();
    for g in &gold {
        let Some(set) = find(&g.qid, &g.query) else {
            continue;
        };
        let gold_aliases: Vec<Vec<String>> = g
            .instances
            .iter()
            .map(|i| aliases.get(i).cloned().unwrap_or_else(|| vec![i.clone()]))
            .collect();
        // The span model runs once per question; only the instance ranking differs.
        let texts: Vec<&str> = set.snippets.iter().map(|s| s.text.as_str()).collect();
        let analysis = analyse(&set.question);
        let scored = pipeline.score_candidates(
            &set.question,
            &analysis,
            &texts,
            settings.scorer,
            None,
            &[],
        )?;
        let chosen = best_per_snippet(&scored);
        for &scoring in scorings {
            let ranked = pipeline.instances_for(&analysis, &texts, &chosen, scoring, 100)?;
            let names: Vec<String> = ranked.into_iter().map(|i| i.name).collect();
            per_scoring
                .entry(scoring.name())
                .or_default()
                .push((relevance(&names, &gold_aliases), g.instances.len()));
        }
    }
    let queries = per_scoring.values().next().map_or(0, Vec::len);
    let fold_of = fold_assignment(queries, INSTANCE_FOLDS, TrainSettings::default().seed);
    let mut held_out = Vec::with_capacity(queries);
    let mut fold_choices = Vec::new();
    for fold in 0..INSTANCE_FOLDS {
        let score_on = |rows: &[(Vec<bool>, usize)], keep: &dyn Fn(usize) -> bool| {
            let picked: Vec<(Vec<bool>, usize)> = rows
                .iter()
                .enumerate()
                .filter(|(q, _)| keep(*q))
                .map(|(_, r)| r.clone())
                .collect();
            instance_scores(&picked)
        };
        let Some((name, rows)) = per_scoring.iter().max_by(|a, b| {
            let (sa, sb) = (
                score_on(a.1, &|q| fold_of[q] != fold),
                score_on(b.1, &|q| fold_of[q] != fold),
            );
            // On a tie `max_by` keeps the later name: `type-compatibility`, the default.
            (sa.hit10, sa.mrr)
                .partial_cmp(&(sb.hit10, sb.mrr))
                .unwrap_or(std::cmp::Ordering::Equal)
        }) else {
            break;
        };
        fold_choices.push(name.to_string());
        held_out.extend(
            rows.iter()
                .enumerate()
                .filter(|(q, _)| fold_of[*q] == fold)
                .map(|(_, r)| r.clone()),
        );
    }
    Ok(InstanceReport {
        scorings: per_scoring
            .iter()
            .map(|(k, v)| (k.to_string(), instance_scores(v)))
            .collect(),
        cross_validated: instance_scores(&held_out),
        fold_choices,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_tuples() {
        let t =
            parse_tuples("[('1', 0.47, '3', 3.0), ('13', 0.79, \"3-movie 'collection'\", 3.0)]")
                .unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(
            t[1],
            ("13".into(), 0.79, "3-movie 'collection'".into(), 3.0)
        );
        assert_eq!(parse_tuples("[('1', 1e-05, 'x', 1e6)]").unwrap()[0].3, 1e6);
    }
}
