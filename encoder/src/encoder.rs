//! Sentence encoder: a BERT-family model (all-MiniLM-L6-v2 by default) turned into sentence
//! embeddings the way sentence-transformers does it: mean pooling over the real (unpadded) tokens,
//! then L2 normalisation.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::Config;
use tokenizers::{Tokenizer, TruncationParams};

use crate::bert::Bert;
use crate::device::device_name;
use crate::model_dir::ModelDir;
use crate::EncoderError;

/// Sentences encoded per forward pass. Inputs are sorted by length first, so little is padded.
const MAX_BATCH: usize = 64;
/// Most padded token rows run together through the layers: enough for a few short batches to
/// share each weight product, few enough that a layer's activations stay in cache (measured on
/// a count question: 256–512 rows p50 ~300 ms, 1,024 ~340 ms, 4,096 ~400 ms).
pub const ROWS_PER_PASS: usize = 512;

/// Used when the model directory does not say its maximum sequence length.
const DEFAULT_MAX_SEQ_LEN: usize = 256;

/// A loaded sentence encoder. Cheap to share behind an `Arc`; `embed` takes `&self`.
pub struct Encoder {
    model: Bert,
    config: Config,
    weights: PathBuf,
    tokenizer: Tokenizer,
    device: Device,
    name: String,
    dimension: usize,
    max_seq_len: usize,
    /// Embeddings by text, when [`Encoder::remember_embeddings`] turned remembering on.
    remembered: Mutex<Option<HashMap<String, Vec<f32>>>>,
}

impl Encoder {
    /// The MiniLM `scripts/setup.sh` provisions in the workspace's `models/`, on the best
    /// device: the one home of what every crate's tests that need a real encoder load.
    pub fn provisioned_minilm() -> Result<std::sync::Arc<Self>, EncoderError> {
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
        let dir = ModelDir::resolve("all-MiniLM-L6-v2", &models)?;
        Ok(std::sync::Arc::new(Encoder::load(
            &dir,
            crate::device::best_device(),
        )?))
    }

    /// Loads config, tokenizer and safetensors weights from a model directory onto `device`.
    pub fn load(dir: &ModelDir, device: Device) -> Result<Self, EncoderError> {
        let config_path = dir.config_file();
        let config_text =
            std::fs::read_to_string(&config_path).map_err(|source| EncoderError::Io {
                path: config_path.clone(),
                source,
            })?;
        let config: Config =
            serde_json::from_str(&config_text).map_err(|source| EncoderError::Config {
                path: config_path.clone(),
                source,
            })?;
        let max_seq_len = read_max_seq_len(dir)
            .unwrap_or(DEFAULT_MAX_SEQ_LEN)
            .min(config.max_position_embeddings);

        let tokenizer_path = dir.tokenizer_file();
        let mut tokenizer =
            Tokenizer::from_file(&tokenizer_path).map_err(|source| EncoderError::Tokenizer {
                path: tokenizer_path.clone(),
                source,
            })?;
        // The shipped tokenizer.json pads every input to 128 tokens; we pad per batch ourselves
        // and mask the padding, so turn its padding off.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_seq_len,
                ..Default::default()
            }))
            .map_err(|source| EncoderError::Tokenizer {
                path: tokenizer_path,
                source,
            })?;

        // SAFETY: the weights file is memory-mapped read-only; Tally never writes model files
        // while running.
        let vb = unsafe {
            VarBuilder::from_mmaped_safetensors(&[dir.weights_file()], DType::F32, &device)?
        };
        let model = Bert::load(vb, &config)?;
        Ok(Self {
            model,
            config: config.clone(),
            weights: dir.weights_file(),
            tokenizer,
            device,
            name: dir.name(),
            dimension: config.hidden_size,
            max_seq_len,
            remembered: Mutex::new(None),
        })
    }

    /// The model's name (its directory name, e.g. `all-MiniLM-L6-v2`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether `word` (lower case) is a whole word of the tokenizer's vocabulary: a word of
    /// the language, so not one to correct as misspelt.
    pub fn knows_word(&self, word: &str) -> bool {
        self.tokenizer.token_to_id(word).is_some()
    }

    /// Length of every embedding.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Longest input in tokens; longer inputs are truncated.
    pub fn max_seq_len(&self) -> usize {
        self.max_seq_len
    }

    /// The device the model runs on ("cpu", "cuda:0").
    pub fn device_name(&self) -> String {
        device_name(&self.device)
    }

    /// The word pieces the model sees for `text`, special tokens included.
    pub fn tokens(&self, text: &str) -> Result<Vec<String>, EncoderError> {
        let encoding = self
            .tokenizer
            .encode(text, true)
            .map_err(EncoderError::Tokenize)?;
        Ok(encoding.get_tokens().to_vec())
    }

    /// Embeds one text.
    pub fn embed_one(&self, text: &str) -> Result<Vec<f32>, EncoderError> {
        let mut embeddings = self.embed(&[text])?;
        Ok(embeddings.pop().unwrap_or_default())
    }

    /// From now on, remembers every text's embedding and never computes it twice (for
    /// evaluations that embed the same sentences under many settings; unbounded, so not for a
    /// server).
    pub fn remember_embeddings(&self) {
        let mut remembered = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        remembered.get_or_insert_with(HashMap::new);
    }

    /// Embeds texts: one unit-length vector per text, in input order.
    pub fn embed<S: AsRef<str>>(&self, texts: &[S]) -> Result<Vec<Vec<f32>>, EncoderError> {
        let mut remembered = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        let Some(memory) = remembered.as_mut() else {
            drop(remembered);
            return self.compute(texts);
        };
        let missing: Vec<&str> = texts
            .iter()
            .map(AsRef::as_ref)
            .filter(|t| !memory.contains_key(*t))
            .collect();
        for (text, vector) in missing.iter().zip(self.compute(&missing)?) {
            memory.insert(text.to_string(), vector);
        }
        Ok(texts
            .iter()
            .map(|t| memory.get(t.as_ref()).cloned().unwrap_or_default())
            .collect())
    }

    fn compute<S: AsRef<str>>(&self, texts: &[S]) -> Result<Vec<Vec<f32>>, EncoderError> {
        let encodings = self
            .tokenizer
            .encode_batch(texts.iter().map(|t| t.as_ref()).collect::<Vec<_>>(), true)
            .map_err(EncoderError::Tokenize)?;
        // Batch similar lengths together so that little compute goes to padding.
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| encodings[i].get_ids().len());

        let lengths: Vec<usize> = order
            .iter()
            .map(|&i| encodings[i].get_ids().len())
            .collect();
        let batches = length_batches(&lengths, MAX_BATCH);
        let ids: Vec<Vec<&[u32]>> = batches
            .iter()
            .map(|range| {
                order[range.clone()]
                    .iter()
                    .map(|&i| encodings[i].get_ids())
                    .collect()
            })
            .collect();
        let costs: Vec<usize> = batches
            .iter()
            .map(|range| range.len() * lengths[range.end - 1])
            .collect();
        let mut out = vec![Vec::new(); encodings.len()];
        for pass in passes(&costs, ROWS_PER_PASS) {
            let pooled = self.forward_pooled(&ids[pass.clone()])?;
            for (range, pooled) in batches[pass].iter().zip(pooled) {
                for (&i, embedding) in order[range.clone()].iter().zip(pooled) {
                    out[i] = embedding;
                }
            }
        }
        Ok(out)
    }

    /// Mean-pooled, unit-length embeddings of token id sequences given as they are (special
    /// tokens included by the caller): a static encoder is distilled from single word pieces.
    pub fn embed_ids(&self, sequences: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, EncoderError> {
        let mut out = Vec::with_capacity(sequences.len());
        for chunk in sequences.chunks(MAX_BATCH * 4) {
            let batch: Vec<&[u32]> = chunk.iter().map(Vec::as_slice).collect();
            out.extend(self.forward_pooled(&[batch])?.into_iter().flatten());
        }
        Ok(out)
    }

    /// The tokenizer (padding off, truncation at [`Encoder::max_seq_len`]). Clone it to change
    /// truncation, e.g. for question–snippet pairs with a stride.
    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// The device tensors must live on to go through the model.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The model's configuration (layer count, sizes).
    /// The BERT layers themselves (the reader copies them with 8-bit weights).
    pub fn bert(&self) -> &Bert {
        &self.model
    }

    /// The model's configuration (sizes, layers).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The safetensors file the weights were loaded from (fine-tuning starts from it).
    pub fn weights_file(&self) -> &Path {
        &self.weights
    }

    /// Per-token hidden states for a batch of (token ids, token type ids) sequences, padded to
    /// the longest: `(batch, longest, dimension)`, with the `(batch, longest)` 0/1 mask.
    pub fn token_states(
        &self,
        sequences: &[(&[u32], &[u32])],
    ) -> Result<(Tensor, Tensor), EncoderError> {
        self.token_states_after(sequences, self.model.layer_count())
    }

    /// Like [`Encoder::token_states`], but the states after the first `layers` layers only (the
    /// count reader runs its own fine-tuned layers on top).
    pub fn token_states_after(
        &self,
        sequences: &[(&[u32], &[u32])],
        layers: usize,
    ) -> Result<(Tensor, Tensor), EncoderError> {
        let mut states = self.token_states_after_batches(&[sequences], layers)?;
        Ok(states.remove(0))
    }

    /// [`Encoder::token_states_after`] for several batches, run layer by layer together (one
    /// product per dense layer for all of them: see [`crate::bert::Layer::forward_batches`]).
    pub fn token_states_after_batches(
        &self,
        batches: &[&[(&[u32], &[u32])]],
        layers: usize,
    ) -> Result<Vec<(Tensor, Tensor)>, EncoderError> {
        self.token_states_after_batches_in(&self.model, batches, layers)
    }

    /// [`Encoder::token_states_after_batches`] through `model`, a copy of this encoder's own
    /// (the reader's copy with 8-bit weights, [`crate::bert::Bert::to_eight_bit`]).
    pub fn token_states_after_batches_in(
        &self,
        model: &Bert,
        batches: &[&[(&[u32], &[u32])]],
        layers: usize,
    ) -> Result<Vec<(Tensor, Tensor)>, EncoderError> {
        let inputs = batches
            .iter()
            .map(|sequences| self.padded(sequences))
            .collect::<Result<Vec<_>, _>>()?;
        let layers = layers.min(model.layer_count());
        let hidden = model.states_batches(&inputs, 0..layers)?;
        Ok(hidden
            .into_iter()
            .zip(inputs)
            .map(|(states, (_, _, mask))| (states, mask))
            .collect())
    }

    /// `(ids, token types, mask)` of a batch, each `(batch, longest)`, padded with zeros.
    fn padded(
        &self,
        sequences: &[(&[u32], &[u32])],
    ) -> Result<(Tensor, Tensor, Tensor), EncoderError> {
        let batch = sequences.len();
        let len = sequences
            .iter()
            .map(|(ids, _)| ids.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut flat_ids = vec![0u32; batch * len];
        let mut flat_types = vec![0u32; batch * len];
        let mut flat_mask = vec![0u32; batch * len];
        for (row, (ids, types)) in sequences.iter().enumerate() {
            flat_ids[row * len..row * len + ids.len()].copy_from_slice(ids);
            flat_types[row * len..row * len + types.len()].copy_from_slice(types);
            flat_mask[row * len..row * len + ids.len()].fill(1);
        }
        Ok((
            Tensor::from_vec(flat_ids, (batch, len), &self.device)?,
            Tensor::from_vec(flat_types, (batch, len), &self.device)?,
            Tensor::from_vec(flat_mask, (batch, len), &self.device)?,
        ))
    }

    /// Mean-pooled, unit-length embeddings of batches of token id sequences (each batch padded
    /// to its longest, with a mask), all batches run together.
    fn forward_pooled(&self, batches: &[Vec<&[u32]>]) -> Result<Vec<Vec<Vec<f32>>>, EncoderError> {
        // A sentence is one segment: every token type is 0.
        let longest = batches.iter().flatten().map(|s| s.len()).max().unwrap_or(0);
        let zeros = vec![0u32; longest];
        let inputs = batches
            .iter()
            .map(|ids| {
                let sequences: Vec<(&[u32], &[u32])> =
                    ids.iter().map(|&seq| (seq, &zeros[..seq.len()])).collect();
                self.padded(&sequences)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let hidden = self
            .model
            .states_batches(&inputs, 0..self.model.layer_count())?;
        hidden
            .iter()
            .zip(&inputs)
            .map(|(hidden, (_, _, mask))| mean_pooled(hidden, mask))
            .collect()
    }
}

/// Mean over real tokens only (padded positions are zeroed and not counted), scaled to unit
/// length.
fn mean_pooled(hidden: &Tensor, mask: &Tensor) -> Result<Vec<Vec<f32>>, EncoderError> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
    let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
    let counts = mask.sum(1)?.clamp(1e-9f32, f32::MAX)?;
    let mean = summed.broadcast_div(&counts)?;
    let norms = mean
        .sqr()?
        .sum_keepdim(1)?
        .sqrt()?
        .clamp(1e-12f32, f32::MAX)?;
    let normalised = mean.broadcast_div(&norms)?;
    Ok(normalised.to_vec2::<f32>()?)
}

/// Consecutive batches grouped into passes of at most `max` rows in all (a batch costing more
/// runs alone).
pub fn passes(costs: &[usize], max: usize) -> Vec<std::ops::Range<usize>> {
    let mut passes = Vec::new();
    let (mut start, mut rows) = (0, 0);
    for (i, &cost) in costs.iter().enumerate() {
        if i > start && rows + cost > max {
            passes.push(start..i);
            (start, rows) = (i, 0);
        }
        rows += cost;
    }
    if start < costs.len() {
        passes.push(start..costs.len());
    }
    passes
}

/// Cuts sorted `lengths` into batches of at most `max` whose padding stays small: a batch ends
/// where the next sequence would be more than a quarter (plus one token) longer than its shortest. The
/// cost of a batch is its size times its longest sequence, so short names are not padded to a
/// long one's length.
fn length_batches(lengths: &[usize], max: usize) -> Vec<std::ops::Range<usize>> {
    let mut batches = Vec::new();
    let mut start = 0;
    for i in 1..=lengths.len() {
        let full = i - start >= max;
        let too_long = lengths
            .get(i)
            .is_some_and(|&l| l > lengths[start] + lengths[start] / PADDING_SLACK_DIVISOR + 1);
        if i == lengths.len() || full || too_long {
            batches.push(start..i);
            start = i;
        }
    }
    batches
}

/// A batch takes sequences up to a quarter (plus one token) longer than its shortest.
const PADDING_SLACK_DIVISOR: usize = 4;

/// Cosine similarity of two vectors (plain dot product for unit vectors, but safe for any).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

/// `max_seq_length` from sentence-transformers' `sentence_bert_config.json`, when present.
fn read_max_seq_len(dir: &ModelDir) -> Option<usize> {
    let text = std::fs::read_to_string(dir.path().join("sentence_bert_config.json")).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value.get("max_seq_length")?.as_u64().map(|n| n as usize)
}

#[cfg(test)]
mod tests {
    use super::{cosine, length_batches, passes, Encoder};

    #[test]
    fn batches_run_together_give_the_states_each_gives_alone() {
        let encoder =
            Encoder::provisioned_minilm().expect("the MiniLM is provisioned (scripts/setup.sh)");
        let tokenize = |text: &str| encoder.tokenizer().encode(text, true).unwrap();
        let texts = [
            "how many moons does Mars have",
            "Mars has two small moons, Phobos and Deimos.",
            "The Beatles released 13 studio albums between 1963 and 1970 in the United Kingdom.",
        ];
        let encodings: Vec<_> = texts.iter().map(|t| tokenize(t)).collect();
        let pair = |i: usize| (encodings[i].get_ids(), encodings[i].get_type_ids());
        // Two batches of different lengths, one of them padded.
        let first = [pair(0), pair(1)];
        let second = [pair(2)];
        let together = encoder
            .token_states_after_batches(&[&first, &second], 4)
            .unwrap();
        for (batch, (states, _)) in [&first[..], &second[..]].iter().zip(&together) {
            let (alone, _) = encoder.token_states_after(batch, 4).unwrap();
            let gap = (alone - states)
                .unwrap()
                .abs()
                .unwrap()
                .max_all()
                .unwrap()
                .to_scalar::<f32>()
                .unwrap();
            assert!(gap < 1e-4, "largest difference {gap}");
        }
    }

    #[test]
    fn passes_bound_their_rows_and_cover_every_batch_once() {
        assert_eq!(passes(&[100, 200, 300, 50], 400), vec![0..2, 2..4]);
        // A batch larger than the bound runs alone.
        assert_eq!(passes(&[10, 900, 10], 400), vec![0..1, 1..2, 2..3]);
        assert_eq!(passes(&[], 400), Vec::<std::ops::Range<usize>>::new());
    }

    #[test]
    fn batches_keep_similar_lengths_together_and_cover_everything() {
        let lengths = [3, 3, 4, 4, 5, 9, 10, 11, 40];
        let batches = length_batches(&lengths, 4);
        assert_eq!(batches, vec![0..4, 4..5, 5..8, 8..9]);
        assert_eq!(length_batches(&[], 4), Vec::<std::ops::Range<usize>>::new());
        let many = [7; 10];
        assert_eq!(length_batches(&many, 4), vec![0..4, 4..8, 8..10]);
    }

    #[test]
    fn cosine_of_parallel_and_orthogonal_vectors() {
        assert!((cosine(&[1.0, 2.0], &[2.0, 4.0]) - 1.0).abs() < 1e-6);
        assert!(cosine(&[1.0, 0.0], &[0.0, 3.0]).abs() < 1e-6);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 1.0]), 0.0);
    }
}
