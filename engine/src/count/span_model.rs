//! Tally's span-prediction model: the MiniLM encoder with an extractive question-answering head.
//!
//! Input: "[CLS] question [SEP] passage [SEP]", where a passage is a sentence of the snippet with
//! a count candidate; long ones are cut into windows with a stride.
//! Output per token: start and end logits, turned into probabilities over the snippet's tokens
//! and [CLS] (the "no answer" position). The head is a two-layer perceptron over the encoder's
//! token states; the encoder stays frozen (see `train.rs` for why and how it is trained).
//!
//! Two decodings: [`best_span`] (any span up to a maximum length, as a general QA model) and
//! [`candidate_confidence`] (the probability of a known count candidate's span), which the count
//! pipeline uses because every answer it can use must be a count phrase anyway.

use crate::error::{EngineError, SpanModelError};
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use candle_core::{DType, Module, Tensor};
use candle_nn::{linear, Linear, VarBuilder};
use candle_transformers::models::bert::Config;
use serde::{Deserialize, Serialize};
use tokenizers::{Tokenizer, TruncationDirection, TruncationParams, TruncationStrategy};

use super::candidates::CountCandidate;
use tally_encoder::bert::{
    attention_bias, eight_bit_is_fast, run_layers, run_layers_batches, Bert, Layer,
};
use tally_encoder::{passes, Encoder, ROWS_PER_PASS};

mod passages;

pub use passages::{
    candidate_passages, candidate_passages_within, passages_around, Passage, CONTEXT_CHARS,
};

/// Window length in tokens (question included).
pub const WINDOW_TOKENS: usize = 256;
/// The overlap between consecutive windows, in tokens.
pub const WINDOW_STRIDE: usize = 64;
/// Question tokens a window keeps: a longer question is cut, so that every window still has
/// room for more passage tokens than the stride (the tokenizer refuses pairs that leave none).
pub const MAX_QUESTION_TOKENS: usize = 64;
/// Windows per padded batch: small, because a batch is padded to its longest window and the
/// reader's cost is its padded tokens (passages vary from 15 to 250 tokens). Batches of short
/// windows share a pass through the layers up to [`ROWS_PER_PASS`] rows (4 and 8 measured
/// alike; 16 pads so much that a question takes 1.5× as long).
const BATCH: usize = 8;
/// The file of the head's weights inside a span-model directory.
pub const WEIGHTS_FILE: &str = "span_head.safetensors";
/// The file of the head's description ([`SpanModelMeta`]).
pub const META_FILE: &str = "span_head.json";

/// The head: token state → (start, end) logits.
pub struct SpanHead {
    hidden: Linear,
    out: Linear,
}

impl SpanHead {
    /// A head of `hidden` units over `dimension`-wide token states.
    pub fn new(vb: VarBuilder, dimension: usize, hidden: usize) -> candle_core::Result<Self> {
        Ok(Self {
            hidden: linear(dimension, hidden, vb.pp("hidden"))?,
            out: linear(hidden, 2, vb.pp("out"))?,
        })
    }

    /// `(batch, tokens, dimension)` → `(batch, tokens, 2)` logits.
    pub fn forward(&self, states: &Tensor) -> candle_core::Result<Tensor> {
        self.out.forward(&self.hidden.forward(states)?.gelu()?)
    }
}

/// What a trained head directory says about itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SpanModelMeta {
    /// Encoder it was trained on (directory name).
    pub encoder: String,
    /// The sha256 of the encoder's weights.
    pub encoder_sha256: String,
    /// The width of the head's hidden layer.
    pub hidden: usize,
    /// How many of the encoder's top layers the reader fine-tuned (stored with the head, as
    /// `layer.0…`); 0 for a head over the frozen encoder.
    #[serde(default)]
    pub tuned_layers: usize,
    /// Free-form training record (data, epochs, cross-validation figures).
    #[serde(default)]
    pub training: serde_json::Value,
}

/// Where the project's trained head lives in the source tree.
pub fn builtin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/count-spans")
}

/// The reader trained on names as well as counts (`tally train count-spans
/// --silver-names-per-query 10`), which the reader's instance scorings read with: it read worse
/// counts than the count reader under the protocol, and far better names (docs/count.md).
pub fn builtin_name_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/name-spans")
}

/// One window of a question–snippet pair.
#[derive(Debug, Clone)]
pub struct Window {
    /// Index of the snippet in the list that was windowed.
    pub snippet: usize,
    /// The token ids.
    pub ids: Vec<u32>,
    /// The token type ids (0 for the question, 1 for the passage).
    pub type_ids: Vec<u32>,
    /// Byte span in the snippet of each token; `None` for the question and special tokens.
    pub spans: Vec<Option<Range<usize>>>,
}

impl Window {
    /// Tokens covering `span` of the snippet: first and last token index, when any.
    pub fn token_range(&self, span: &Range<usize>) -> Option<(usize, usize)> {
        let mut first = None;
        let mut last = None;
        for (i, s) in self.spans.iter().enumerate() {
            if let Some(s) = s {
                if s.start < span.end && s.end > span.start {
                    first.get_or_insert(i);
                    last = Some(i);
                }
            }
        }
        Some((first?, last?))
    }
}

/// Start and end probabilities of one window (position 0 is [CLS]: "no answer here").
#[derive(Debug, Clone)]
pub struct WindowScores {
    /// The probability of each token starting the count span.
    pub start: Vec<f32>,
    /// The probability of each token ending the count span.
    pub end: Vec<f32>,
}

/// The reader's tokenizers: the pair one cuts (question, passage) into overlapping windows,
/// truncating only the passage; the plain one measures the question alone.
pub struct PairTokenizer {
    pair: Tokenizer,
    plain: Tokenizer,
}

/// The encoder's tokenizer, set up for question–passage windows.
pub fn pair_tokenizer(encoder: &Encoder) -> Result<PairTokenizer, EngineError> {
    let plain = encoder.tokenizer().clone();
    let mut pair = plain.clone();
    pair.with_truncation(Some(TruncationParams {
        max_length: WINDOW_TOKENS.min(encoder.max_seq_len()),
        stride: WINDOW_STRIDE,
        strategy: TruncationStrategy::OnlySecond,
        direction: TruncationDirection::Right,
    }))
    .map_err(SpanModelError::Tokenize)?;
    Ok(PairTokenizer { pair, plain })
}

/// Cuts every (question, passage) pair into windows; token spans are snippet offsets.
pub fn make_windows(
    tokenizer: &PairTokenizer,
    question: &str,
    passages: &[Passage],
) -> Result<Vec<Window>, EngineError> {
    Ok(windows_of(tokenizer, question, passages)?)
}

/// [`make_windows`] inside the span model, where its failure stays the span model's.
fn windows_of(
    tokenizer: &PairTokenizer,
    question: &str,
    passages: &[Passage],
) -> Result<Vec<Window>, SpanModelError> {
    let question = bounded_question(&tokenizer.plain, question)?;
    let inputs: Vec<tokenizers::EncodeInput> =
        passages.iter().map(|p| (question, p.text).into()).collect();
    let encodings = tokenizer
        .pair
        .encode_batch(inputs, true)
        .map_err(SpanModelError::Tokenize)?;
    let mut windows = Vec::new();
    for (passage, encoding) in passages.iter().zip(encodings) {
        // The first window, then the overflow windows the tokenizer cut off it.
        let overflow = encoding.get_overflowing().to_vec();
        for part in std::iter::once(encoding).chain(overflow) {
            let spans = part
                .get_sequence_ids()
                .iter()
                .zip(part.get_offsets())
                .zip(part.get_special_tokens_mask())
                .map(|((seq, &(a, b)), &special)| {
                    (*seq == Some(1) && special == 0 && b > a)
                        .then_some(passage.offset + a..passage.offset + b)
                })
                .collect();
            windows.push(Window {
                snippet: passage.snippet,
                ids: part.get_ids().to_vec(),
                type_ids: part.get_type_ids().to_vec(),
                spans,
            });
        }
    }
    Ok(windows)
}

/// The question's first [`MAX_QUESTION_TOKENS`] tokens (the whole question when shorter).
fn bounded_question<'q>(
    tokenizer: &Tokenizer,
    question: &'q str,
) -> Result<&'q str, SpanModelError> {
    let encoding = tokenizer
        .encode(question, false)
        .map_err(SpanModelError::Tokenize)?;
    match encoding.get_offsets().get(MAX_QUESTION_TOKENS) {
        // Offsets are byte offsets of the question, on character boundaries.
        Some(&(cut, _)) => Ok(question.get(..cut).unwrap_or(question).trim_end()),
        None => Ok(question),
    }
}

/// Which weights the reader reads with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReaderWeights {
    /// 8-bit dense weights where the CPU's 8-bit dot products are fast, f32 elsewhere.
    Fast,
    /// f32 everywhere, as trained.
    Full,
}

impl ReaderWeights {
    /// Every choice of weights.
    pub const ALL: [ReaderWeights; 2] = [ReaderWeights::Fast, ReaderWeights::Full];

    /// The name the weights are chosen by.
    pub fn name(self) -> &'static str {
        match self {
            ReaderWeights::Fast => "fast",
            ReaderWeights::Full => "full",
        }
    }
}

impl std::str::FromStr for ReaderWeights {
    type Err = SpanModelError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|w| w.name() == name)
            .ok_or_else(|| SpanModelError::UnknownWeights {
                name: name.to_string(),
            })
    }
}

/// The reader: the encoder's lower layers, its own fine-tuned top layers and the span head.
pub struct SpanModel {
    encoder: Arc<Encoder>,
    tokenizer: PairTokenizer,
    top: ReaderTop,
    /// A copy of the encoder's layers with 8-bit weights, read through instead of the encoder's
    /// own ([`SpanModel::with_weights`]).
    lower: Option<Bert>,
    meta: SpanModelMeta,
    /// Characters read on each side of a candidate ([`CONTEXT_CHARS`] unless changed).
    context_chars: usize,
}

impl SpanModel {
    /// Loads a head directory (`span_head.safetensors` + `span_head.json`) for `encoder`.
    pub fn load(encoder: Arc<Encoder>, dir: &Path) -> Result<Self, EngineError> {
        let meta_path = dir.join(META_FILE);
        let meta_text =
            std::fs::read_to_string(&meta_path).map_err(|source| SpanModelError::Read {
                path: meta_path.clone(),
                source,
            })?;
        let meta: SpanModelMeta =
            serde_json::from_str(&meta_text).map_err(|source| SpanModelError::Parse {
                path: meta_path,
                source,
            })?;
        let weights = dir.join(WEIGHTS_FILE);
        let tensors =
            candle_core::safetensors::load(&weights, encoder.device()).map_err(|source| {
                SpanModelError::Weights {
                    path: weights.clone(),
                    source,
                }
            })?;
        let vb = VarBuilder::from_tensors(tensors, DType::F32, encoder.device());
        if meta.tuned_layers > encoder.config().num_hidden_layers {
            return Err(SpanModelError::Layers {
                tuned: meta.tuned_layers,
                layers: encoder.config().num_hidden_layers,
            }
            .into());
        }
        let top = ReaderTop::new(vb, encoder.config(), meta.hidden, meta.tuned_layers).map_err(
            |source| SpanModelError::Weights {
                path: weights,
                source,
            },
        )?;
        Ok(Self {
            tokenizer: pair_tokenizer(&encoder)?,
            encoder,
            top,
            lower: None,
            meta,
            context_chars: CONTEXT_CHARS,
        })
    }

    /// The reader with the weights `weights` asks for: with [`ReaderWeights::Fast`], its own
    /// layers and a copy of the encoder's lower layers take 8-bit dense weights where this CPU's
    /// 8-bit dot products are fast ([`eight_bit_is_fast`]); the sentence encoder keeps f32, so
    /// embeddings (search, names, CNPs) do not change.
    pub fn with_weights(self, weights: ReaderWeights) -> Result<Self, EngineError> {
        if weights == ReaderWeights::Full || !eight_bit_is_fast(self.encoder.device()) {
            return Ok(self);
        }
        let tuned = self
            .top
            .tuned
            .iter()
            .map(Layer::to_eight_bit)
            .collect::<candle_core::Result<_>>()
            .map_err(SpanModelError::from)?;
        Ok(Self {
            lower: Some(
                self.encoder
                    .bert()
                    .to_eight_bit()
                    .map_err(SpanModelError::from)?,
            ),
            top: ReaderTop {
                tuned,
                head: self.top.head,
            },
            ..self
        })
    }

    /// Whether the reader reads with 8-bit weights.
    pub fn is_eight_bit(&self) -> bool {
        self.lower.is_some()
    }

    /// The reader reading `context_chars` on each side of a candidate (`usize::MAX`: whole
    /// sentences).
    pub fn with_context_chars(self, context_chars: usize) -> Self {
        Self {
            context_chars,
            ..self
        }
    }

    /// Characters it reads on each side of what it reads for.
    pub fn context_chars(&self) -> usize {
        self.context_chars
    }

    /// The passages this reader reads of `snippets`: see [`candidate_passages`].
    pub fn passages<'a>(
        &self,
        snippets: &[&'a str],
        candidates: &[Vec<CountCandidate>],
    ) -> Vec<Passage<'a>> {
        candidate_passages_within(snippets, candidates, self.context_chars)
    }

    /// The head trained by the project (`engine/data/count-spans`).
    pub fn builtin(encoder: Arc<Encoder>) -> Result<Self, EngineError> {
        Self::load(encoder, &builtin_dir())
    }

    /// What the head directory says about itself.
    pub fn meta(&self) -> &SpanModelMeta {
        &self.meta
    }

    /// The encoder the reader runs on.
    pub fn encoder(&self) -> &Arc<Encoder> {
        &self.encoder
    }

    /// Windows of every passage with their start/end probabilities, batched by length.
    pub fn score(
        &self,
        question: &str,
        passages: &[Passage],
    ) -> Result<Vec<(Window, WindowScores)>, EngineError> {
        Ok(self.scores(question, passages)?)
    }

    /// [`Self::score`] inside the count pipeline, where its failure stays the span model's.
    pub(crate) fn scores(
        &self,
        question: &str,
        passages: &[Passage],
    ) -> Result<Vec<(Window, WindowScores)>, SpanModelError> {
        let windows = windows_of(&self.tokenizer, question, passages)?;
        // Web snippets repeat sentences word for word: each distinct window is read once.
        let mut first_of: HashMap<&[u32], usize> = HashMap::new();
        let reads: Vec<usize> = (0..windows.len())
            .map(|i| *first_of.entry(windows[i].ids.as_slice()).or_insert(i))
            .collect();
        let mut order: Vec<usize> = (0..windows.len()).filter(|&i| reads[i] == i).collect();
        order.sort_by_key(|&i| windows[i].ids.len());
        let mut logits: Vec<Option<Vec<[f32; 2]>>> = vec![None; windows.len()];
        let chunks: Vec<&[usize]> = order.chunks(BATCH).collect();
        let costs: Vec<usize> = chunks
            .iter()
            .map(|chunk| chunk.len() * chunk.last().map_or(0, |&i| windows[i].ids.len()))
            .collect();
        for pass in passes(&costs, ROWS_PER_PASS) {
            let batches: Vec<Vec<&Window>> = chunks[pass.clone()]
                .iter()
                .map(|chunk| chunk.iter().map(|&i| &windows[i]).collect())
                .collect();
            for (chunk, rows) in chunks[pass].iter().zip(self.logits(&batches)?) {
                for (&i, row) in chunk.iter().zip(rows) {
                    logits[i] = Some(row);
                }
            }
        }
        let scores: Vec<Option<WindowScores>> = windows
            .iter()
            .zip(&reads)
            .map(|(window, &read)| Some(probabilities(window, logits[read].as_deref()?)))
            .collect();
        Ok(windows
            .into_iter()
            .zip(scores)
            .filter_map(|(w, s)| Some((w, s?)))
            .collect())
    }

    /// Raw `(start, end)` logits per token for batches of windows, run together.
    fn logits(&self, batches: &[Vec<&Window>]) -> Result<Vec<Vec<Vec<[f32; 2]>>>, SpanModelError> {
        let sequences: Vec<Vec<(&[u32], &[u32])>> = batches
            .iter()
            .map(|batch| {
                batch
                    .iter()
                    .map(|w| (w.ids.as_slice(), w.type_ids.as_slice()))
                    .collect()
            })
            .collect();
        let sequences: Vec<&[(&[u32], &[u32])]> = sequences.iter().map(Vec::as_slice).collect();
        let frozen = self.encoder.config().num_hidden_layers - self.top.tuned.len();
        let states = match &self.lower {
            Some(lower) => self
                .encoder
                .token_states_after_batches_in(lower, &sequences, frozen)?,
            None => self
                .encoder
                .token_states_after_batches(&sequences, frozen)?,
        };
        let logits = self.top.forward_batches(&states)?;
        logits
            .into_iter()
            .zip(batches)
            .map(|(logits, batch)| rows_of(&logits, batch.iter().map(|w| w.ids.len())))
            .collect()
    }
}

/// What the reader trains: its own copies of the encoder's top layers (variables `layer.0…`),
/// which replace the encoder's last `tuned.len()` layers, and the span head. Question and passage
/// attend to each other in those layers as trained for this task.
pub struct ReaderTop {
    /// The reader's own copies of the encoder's top layers.
    pub tuned: Vec<Layer>,
    /// The span head.
    pub head: SpanHead,
}

impl ReaderTop {
    /// The reader's top layers and head from `vb`, `tuned_layers` layers deep.
    pub fn new(
        vb: VarBuilder,
        config: &Config,
        hidden: usize,
        tuned_layers: usize,
    ) -> candle_core::Result<Self> {
        let tuned = (0..tuned_layers)
            .map(|i| Layer::load(vb.pp(format!("layer.{i}")), config))
            .collect::<candle_core::Result<_>>()?;
        Ok(Self {
            tuned,
            head: SpanHead::new(vb, config.hidden_size, hidden)?,
        })
    }

    /// States after the encoder's frozen layers `(batch, tokens, dim)` with their 0/1 mask →
    /// `(batch, tokens, 2)` start and end logits.
    pub fn forward(&self, states: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
        let bias = attention_bias(mask, states.dtype())?;
        self.head
            .forward(&run_layers(&self.tuned, states.clone(), &bias)?)
    }

    /// [`ReaderTop::forward`] for several batches `(states, mask)`, run layer by layer
    /// together.
    pub fn forward_batches(
        &self,
        batches: &[(Tensor, Tensor)],
    ) -> candle_core::Result<Vec<Tensor>> {
        let biases = batches
            .iter()
            .map(|(states, mask)| attention_bias(mask, states.dtype()))
            .collect::<candle_core::Result<Vec<_>>>()?;
        let states = batches.iter().map(|(states, _)| states.clone()).collect();
        run_layers_batches(&self.tuned, states, &biases)?
            .iter()
            .map(|states| self.head.forward(states))
            .collect()
    }
}

/// Runs the reader's top on `(batch, tokens, dim)` states and returns each row's logits, cut to
/// its length.
pub fn head_logits(
    top: &ReaderTop,
    states: &Tensor,
    mask: &Tensor,
    lengths: impl Iterator<Item = usize>,
) -> Result<Vec<Vec<[f32; 2]>>, EngineError> {
    let logits = top.forward(states, mask).map_err(SpanModelError::from)?;
    Ok(rows_of(&logits, lengths)?)
}

/// `(batch, tokens, 2)` logits as one row per window, cut to its length.
fn rows_of(
    logits: &Tensor,
    lengths: impl Iterator<Item = usize>,
) -> Result<Vec<Vec<[f32; 2]>>, SpanModelError> {
    let rows: Vec<Vec<Vec<f32>>> = logits.to_dtype(DType::F32)?.to_vec3()?;
    Ok(rows
        .into_iter()
        .zip(lengths)
        .map(|(row, len)| row.into_iter().take(len).map(|v| [v[0], v[1]]).collect())
        .collect())
}

/// Soft-max over the positions an answer may take: [CLS] and the snippet's tokens.
pub fn probabilities(window: &Window, logits: &[[f32; 2]]) -> WindowScores {
    let allowed = |i: usize| i == 0 || window.spans.get(i).is_some_and(Option::is_some);
    let softmax = |k: usize| -> Vec<f32> {
        let max = (0..logits.len())
            .filter(|&i| allowed(i))
            .map(|i| logits[i][k])
            .fold(f32::NEG_INFINITY, f32::max);
        let exp: Vec<f32> = (0..logits.len())
            .map(|i| {
                if allowed(i) {
                    (logits[i][k] - max).exp()
                } else {
                    0.0
                }
            })
            .collect();
        let total: f32 = exp.iter().sum::<f32>().max(f32::MIN_POSITIVE);
        exp.into_iter().map(|e| e / total).collect()
    };
    WindowScores {
        start: softmax(0),
        end: softmax(1),
    }
}

/// The most probable answer span of a window, at most `max_tokens` long, with its probability;
/// `None` when "no answer" ([CLS]) is more probable than any span.
pub fn best_span(
    window: &Window,
    scores: &WindowScores,
    max_tokens: usize,
) -> Option<(Range<usize>, f32)> {
    let null = scores.start[0] * scores.end[0];
    let mut best: Option<(usize, usize, f32)> = None;
    for s in 1..window.spans.len() {
        if window.spans[s].is_none() {
            continue;
        }
        for e in s..window.spans.len().min(s + max_tokens) {
            if window.spans[e].is_none() {
                break;
            }
            let p = scores.start[s] * scores.end[e];
            if best.is_none_or(|(_, _, b)| p > b) {
                best = Some((s, e, p));
            }
        }
    }
    let (s, e, p) = best.filter(|&(_, _, p)| p > null)?;
    let start = window.spans[s].as_ref()?.start;
    let end = window.spans[e].as_ref()?.end;
    Some((start..end, p))
}

/// The probability of the best answer span inside `span` of the snippet (a name): the best
/// start token times the best end token at or after it, both within the span.
pub fn span_probability(
    window: &Window,
    scores: &WindowScores,
    span: &Range<usize>,
) -> Option<f32> {
    let (first, last) = window.token_range(span)?;
    let mut best_start = 0.0f32;
    let mut best = 0.0f32;
    for i in first..=last {
        best_start = best_start.max(scores.start[i]);
        best = best.max(best_start * scores.end[i]);
    }
    Some(best)
}

/// Raises each candidate's probability to what `window` gives it: a candidate near a window's
/// edge is read in two windows, and the better reading counts. Candidates outside the window
/// keep theirs.
pub fn raise_candidate_probabilities(
    window: &Window,
    scores: &WindowScores,
    candidates: &[CountCandidate],
    probabilities: &mut [f64],
) {
    for (c, p) in candidates.iter().zip(probabilities) {
        if let Some(q) = candidate_confidence(window, scores, &c.span, &c.number_span) {
            *p = p.max(f64::from(q));
        }
    }
}

/// The probability of a count candidate's span in a window: the best start among the tokens from
/// the phrase start to the number, times the best end among the tokens from the number to the
/// phrase end ("estimated 700 languages", "700 languages" and "700" all stand for it).
pub fn candidate_confidence(
    window: &Window,
    scores: &WindowScores,
    phrase: &Range<usize>,
    number: &Range<usize>,
) -> Option<f32> {
    let (phrase_first, phrase_last) = window.token_range(phrase)?;
    let (number_first, number_last) = window.token_range(number)?;
    let start = (phrase_first..=number_first.max(phrase_first))
        .map(|i| scores.start[i])
        .fold(0.0f32, f32::max);
    let end = (number_last.min(phrase_last)..=phrase_last)
        .map(|i| scores.end[i])
        .fold(0.0f32, f32::max);
    Some(start * end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 8-bit reader (where this CPU makes it the fast one) reads what the f32 reader reads:
    /// every start and end probability within 0.03, and the same best start.
    #[test]
    fn eight_bit_weights_read_as_the_trained_ones() {
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let full = SpanModel::builtin(encoder.clone()).unwrap();
        let fast = SpanModel::builtin(encoder)
            .unwrap()
            .with_weights(ReaderWeights::Fast)
            .unwrap();
        assert_eq!(
            fast.is_eight_bit(),
            eight_bit_is_fast(&candle_core::Device::Cpu)
        );
        let text = "The Beatles released 13 studio albums and 22 singles in the UK between 1963 \
                    and 1970.";
        let passage = [Passage {
            snippet: 0,
            offset: 0,
            text,
        }];
        let question = "how many studio albums did the beatles release";
        let (a, b) = (
            full.score(question, &passage).unwrap(),
            fast.score(question, &passage).unwrap(),
        );
        assert_eq!(a.len(), b.len());
        let argmax = |p: &[f32]| {
            (0..p.len())
                .max_by(|&i, &j| p[i].total_cmp(&p[j]))
                .unwrap_or(0)
        };
        for ((_, x), (_, y)) in a.iter().zip(&b) {
            for (p, q) in x
                .start
                .iter()
                .chain(&x.end)
                .zip(y.start.iter().chain(&y.end))
            {
                assert!((p - q).abs() < 0.03, "{p} vs {q}");
            }
            assert_eq!(argmax(&x.start), argmax(&y.start));
        }
    }
    use crate::count::candidates::count_candidates;

    #[test]
    fn a_long_sentence_is_read_around_its_counts_and_a_count_at_its_edge_whole() {
        let filler = "and then the crowd walked along the river past the old mill ".repeat(8);
        let text = format!("In 1990 {filler}until they reached the bridge with 14 arches");
        let snippets = [text.as_str()];
        let candidates = vec![count_candidates(&text)];
        let arches = candidates[0]
            .iter()
            .find(|c| c.text.contains("14 arches"))
            .expect("the count at the end is a candidate");
        let passages = candidate_passages(&snippets, &candidates);
        let windowed = passages
            .iter()
            .find(|p| p.offset <= arches.span.start && arches.span.end <= p.offset + p.text.len())
            .expect("a count at the sentence's end is inside a passage");
        assert!(windowed.text.len() <= 2 * CONTEXT_CHARS + arches.text.len() + 16);
        assert!(windowed.text.len() < text.len(), "the long sentence is cut");
        assert!(windowed.text.ends_with("14 arches"));
        assert!(
            !windowed.text.starts_with(' '),
            "cut between words: {:?}",
            windowed.text
        );
        // Whole sentences when asked, as before.
        let whole = candidate_passages_within(&snippets, &candidates, usize::MAX);
        assert_eq!(whole.len(), 1);
        assert_eq!(whole[0].text, text);
    }

    #[test]
    fn a_span_reads_its_best_start_and_an_end_at_or_after_it() {
        let text = "Gujarat, Rajasthan and Punjab border Pakistan.";
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let tokenizer = pair_tokenizer(&encoder).unwrap();
        let passage = Passage {
            snippet: 0,
            offset: 0,
            text,
        };
        let window = make_windows(&tokenizer, "which states border pakistan", &[passage])
            .unwrap()
            .remove(0);
        let n = window.ids.len();
        let at = |word: &str| {
            let start = text.find(word).unwrap();
            window.token_range(&(start..start + word.len())).unwrap()
        };
        let (rajasthan, _) = at("Rajasthan");
        let (_, punjab) = at("Punjab");
        let mut scores = WindowScores {
            start: vec![0.0; n],
            end: vec![0.0; n],
        };
        // An end before the best start does not count: "Rajasthan and Punjab" reads 0.5 × 0.4.
        scores.start[rajasthan] = 0.5;
        scores.end[rajasthan - 1] = 0.9;
        scores.end[punjab] = 0.4;
        let whole = text.find("Rajasthan").unwrap()..text.find(" border").unwrap();
        assert!((span_probability(&window, &scores, &whole).unwrap() - 0.2).abs() < 1e-6);
        // A name the window does not hold reads nothing.
        assert_eq!(span_probability(&window, &scores, &(500..510)), None);
        // Passages around names are their sentences, each once.
        let snippets = ["Intro. Gujarat, Rajasthan and Punjab border Pakistan. Outro."];
        let g = snippets[0].find("Gujarat").unwrap();
        let p = snippets[0].find("Punjab").unwrap();
        let passages = passages_around(&snippets, &[vec![g..g + 7, p..p + 6]], CONTEXT_CHARS);
        assert_eq!(passages.len(), 1);
        assert_eq!(passages[0].text, text);
    }

    #[test]
    fn passages_are_the_sentences_with_a_count_each_once() {
        let snippets = [
            "The band formed in Liverpool. McCartney wrote 71 songs and Lennon 61 songs. They split.",
            "No count here at all.",
        ];
        let candidates: Vec<Vec<CountCandidate>> =
            snippets.iter().map(|s| count_candidates(s)).collect();
        let passages = candidate_passages(&snippets, &candidates);
        assert_eq!(passages.len(), 1, "{passages:?}");
        let p = passages[0];
        assert_eq!(p.snippet, 0);
        assert_eq!(p.text, "McCartney wrote 71 songs and Lennon 61 songs.");
        assert_eq!(&snippets[0][p.offset..p.offset + p.text.len()], p.text);
        // Every candidate lies inside its passage, so its tokens can be found in the windows.
        for c in &candidates[0] {
            assert!(p.offset <= c.span.start && c.span.end <= p.offset + p.text.len());
        }
    }
}
