//! Token vectors: a static sentence encoder for ranking, distilled from the sentence encoder
//! (model2vec's idea) and fine-tuned on generated quantity queries
//! ([`super::generated`]). Each word piece of the encoder's vocabulary has one vector (the
//! encoder's embedding of that piece alone) and one weight (how rare the piece is in the
//! training text: a/(a + p), SIF); a text's vector is the weighted sum of its pieces' vectors,
//! at unit length. Embedding a sentence is a table look-up per piece, so the learned ranker can
//! score its whole pool in about a millisecond where the encoder takes the better part of one.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{Device, Tensor};
use tokenizers::Tokenizer;

use tally_documents::sentence_store::vectors::quantise;
use tally_encoder::{cosine, Encoder, EncoderError};
use tally_text::random::SplitMix64;

/// SIF's smoothing: a piece as frequent as a in the training text gets half the weight.
const SIF_A: f64 = 1e-3;

/// Why token vectors could not be made, loaded or used.
#[derive(Debug, thiserror::Error)]
pub enum TokenVectorsError {
    /// The encoder failed.
    #[error(transparent)]
    Encoder(#[from] EncoderError),
    /// A tensor operation failed.
    #[error("token vectors")]
    Tensor(#[from] candle_core::Error),
    /// The vectors were made for another vocabulary than the encoder's.
    #[error(
        "the token vectors were made for a vocabulary of {expected} pieces, the encoder has \
         {found}: they need all-MiniLM-L6-v2's"
    )]
    Vocabulary {
        /// Pieces in the vectors' vocabulary.
        expected: usize,
        /// Pieces in the encoder's vocabulary.
        found: usize,
    },
    /// The file lacks a tensor.
    #[error("the token vectors file lacks {0}")]
    Missing(&'static str),
}

/// The static encoder.
#[derive(Clone)]
pub struct TokenVectors {
    tokenizer: Tokenizer,
    dimension: usize,
    /// `vocabulary × dimension`, row by row.
    vectors: Vec<f32>,
    /// Per piece.
    weights: Vec<f32>,
}

/// One generated training query: its text as the ranker's encoder reads it, a sentence that
/// answers it, and sentences that do not (hard negatives first).
#[derive(Debug, Clone)]
pub struct Triple {
    /// The query's text.
    pub query: String,
    /// A sentence that answers it.
    pub positive: String,
    /// Sentences that do not, hard negatives first.
    pub negatives: Vec<String>,
}

/// How the vectors are fine-tuned.
#[derive(Debug, Clone, Copy)]
pub struct TrainSettings {
    /// Passes over the training queries.
    pub epochs: usize,
    /// Learning rate of the fine-tuning.
    pub learning_rate: f32,
    /// Softmax temperature of the contrastive loss.
    pub temperature: f32,
    /// Pull of every updated vector back to its distilled start.
    pub anchor: f32,
    /// Seed of the shuffles of the queries.
    pub seed: u64,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            epochs: 3,
            learning_rate: 0.05,
            temperature: 0.05,
            anchor: 0.01,
            seed: 62,
        }
    }
}

/// A text's pieces with their weights.
type Pieces = Vec<(usize, f32)>;

impl TokenVectors {
    /// Every piece of `encoder`'s vocabulary embedded alone (`[CLS] piece [SEP]`), weighted by
    /// its rarity in `texts`.
    pub fn distil(encoder: &Encoder, texts: &[&str]) -> Result<Self, TokenVectorsError> {
        let tokenizer = encoder.tokenizer().clone();
        let size = tokenizer.get_vocab_size(true);
        let special = |name: &str| tokenizer.token_to_id(name).unwrap_or(0);
        let (cls, sep) = (special("[CLS]"), special("[SEP]"));
        let sequences: Vec<Vec<u32>> = (0..size as u32).map(|id| vec![cls, id, sep]).collect();
        let embedded = encoder.embed_ids(&sequences)?;
        let dimension = encoder.dimension();
        let vectors: Vec<f32> = embedded.into_iter().flatten().collect();
        let mut counts = vec![0u64; size];
        let mut total = 0u64;
        for text in texts {
            let Ok(encoding) = tokenizer.encode(*text, false) else {
                continue;
            };
            for &id in encoding.get_ids() {
                if let Some(c) = counts.get_mut(id as usize) {
                    *c += 1;
                    total += 1;
                }
            }
        }
        let weights = counts
            .iter()
            .map(|&c| {
                let p = c as f64 / total.max(1) as f64;
                (SIF_A / (SIF_A + p)) as f32
            })
            .collect();
        Ok(TokenVectors {
            tokenizer,
            dimension,
            vectors,
            weights,
        })
    }

    /// Vectors written by [`TokenVectors::save`], for `tokenizer`'s vocabulary.
    pub fn from_bytes(bytes: &[u8], tokenizer: &Tokenizer) -> Result<Self, TokenVectorsError> {
        let tensors = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)?;
        let get = |name: &'static str| tensors.get(name).ok_or(TokenVectorsError::Missing(name));
        let codes = get("codes")?;
        let (size, dimension) = codes.dims2()?;
        let found = tokenizer.get_vocab_size(true);
        if found != size {
            return Err(TokenVectorsError::Vocabulary {
                expected: size,
                found,
            });
        }
        let codes = codes.flatten_all()?.to_vec1::<u8>()?;
        let scales = get("scales")?.to_vec1::<f32>()?;
        let weights = get("weights")?.to_vec1::<f32>()?;
        let vectors = codes
            .chunks(dimension)
            .zip(&scales)
            .flat_map(|(row, scale)| row.iter().map(move |&c| (f32::from(c) - 128.0) * scale))
            .collect();
        Ok(TokenVectors {
            tokenizer: tokenizer.clone(),
            dimension,
            vectors,
            weights,
        })
    }

    /// Writes the vectors in 8 bits (one scale per piece) and the weights.
    pub fn save(&self, path: &Path) -> Result<(), TokenVectorsError> {
        let size = self.weights.len();
        let mut codes = Vec::with_capacity(self.vectors.len());
        let mut scales = Vec::with_capacity(size);
        for row in self.vectors.chunks(self.dimension) {
            // The stored sentence vectors' 8 bits, offset by 128 into bytes.
            let (scale, row_codes) = quantise(row);
            scales.push(scale);
            codes.extend(row_codes.iter().map(|&c| (i16::from(c) + 128) as u8));
        }
        let tensors: HashMap<String, Tensor> = [
            (
                "codes".to_string(),
                Tensor::from_vec(codes, (size, self.dimension), &Device::Cpu)?,
            ),
            (
                "scales".to_string(),
                Tensor::from_vec(scales, size, &Device::Cpu)?,
            ),
            (
                "weights".to_string(),
                Tensor::from_vec(self.weights.clone(), size, &Device::Cpu)?,
            ),
        ]
        .into_iter()
        .collect();
        candle_core::safetensors::save(&tensors, path)?;
        Ok(())
    }

    fn pieces(&self, text: &str) -> Pieces {
        let Ok(encoding) = self.tokenizer.encode(text, false) else {
            return Vec::new();
        };
        encoding
            .get_ids()
            .iter()
            .filter_map(|&id| {
                let id = id as usize;
                self.weights.get(id).map(|&w| (id, w))
            })
            .collect()
    }

    fn sum(&self, pieces: &Pieces) -> Vec<f32> {
        let mut sum = vec![0f32; self.dimension];
        for &(id, weight) in pieces {
            let row = &self.vectors[id * self.dimension..(id + 1) * self.dimension];
            for (s, x) in sum.iter_mut().zip(row) {
                *s += weight * x;
            }
        }
        sum
    }

    /// A text's vector at unit length (zeros for a text without pieces).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let mut sum = self.sum(&self.pieces(text));
        let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            sum.iter_mut().for_each(|x| *x /= norm);
        }
        sum
    }

    /// Fine-tunes the vectors so that each query's vector is nearer its positive than its
    /// negatives and the other queries' positives (a softmax over the cosines, as sentence-
    /// transformers' multiple-negatives loss), each changed vector pulled back towards where it
    /// started. Returns the mean loss of each epoch.
    pub fn train(&mut self, triples: &[Triple], settings: &TrainSettings) -> Vec<f64> {
        const BATCH: usize = 16;
        let start = self.vectors.clone();
        let encoded: Vec<(Pieces, Vec<Pieces>)> = triples
            .iter()
            .map(|t| {
                let mut documents = vec![self.pieces(&t.positive)];
                documents.extend(t.negatives.iter().map(|n| self.pieces(n)));
                (self.pieces(&t.query), documents)
            })
            .collect();
        let mut random = SplitMix64::new(settings.seed);
        let mut order: Vec<usize> = (0..encoded.len()).collect();
        let mut losses = Vec::with_capacity(settings.epochs);
        for _ in 0..settings.epochs {
            random.shuffle(&mut order);
            let mut total = 0.0;
            for batch in order.chunks(BATCH) {
                total += self.step(&encoded, batch, &start, settings);
            }
            losses.push(total / encoded.len().max(1) as f64);
        }
        losses
    }

    /// One gradient step on a batch; returns the batch's summed loss.
    fn step(
        &mut self,
        encoded: &[(Pieces, Vec<Pieces>)],
        batch: &[usize],
        start: &[f32],
        settings: &TrainSettings,
    ) -> f64 {
        let d = self.dimension;
        // Every document of the batch: each query's own, then the others' positives.
        let mut documents: Vec<&Pieces> = Vec::new();
        let mut own: Vec<Vec<usize>> = Vec::new();
        for &i in batch {
            let first = documents.len();
            documents.extend(encoded[i].1.iter());
            own.push((first..documents.len()).collect());
        }
        let positives: Vec<usize> = own.iter().map(|o| o[0]).collect();
        let document_sums: Vec<Vec<f32>> = documents.iter().map(|p| self.sum(p)).collect();
        let mut document_gradients = vec![vec![0f32; d]; documents.len()];
        let mut gradients: HashMap<usize, Vec<f32>> = HashMap::new();
        let mut loss = 0.0;
        for (b, &i) in batch.iter().enumerate() {
            let query = &encoded[i].0;
            let u = self.sum(query);
            // The candidates: this query's documents, then the other queries' positives.
            let mut candidates = own[b].clone();
            candidates.extend(positives.iter().filter(|p| !own[b].contains(p)));
            let cosines: Vec<f32> = candidates
                .iter()
                .map(|&c| cosine(&u, &document_sums[c]))
                .collect();
            let logits: Vec<f32> = cosines.iter().map(|c| c / settings.temperature).collect();
            let largest = logits.iter().fold(f32::MIN, |m, &x| m.max(x));
            let exps: Vec<f32> = logits.iter().map(|x| (x - largest).exp()).collect();
            let sum: f32 = exps.iter().sum();
            loss += f64::from((sum.ln() + largest) - logits[0]);
            let mut query_gradient = vec![0f32; d];
            for (k, &c) in candidates.iter().enumerate() {
                let target = if k == 0 { 1.0 } else { 0.0 };
                let dl = (exps[k] / sum - target) / settings.temperature;
                if dl.abs() < 1e-6 {
                    continue;
                }
                let v = &document_sums[c];
                accumulate_cosine_gradient(&mut query_gradient, &u, v, cosines[k], dl);
                accumulate_cosine_gradient(&mut document_gradients[c], v, &u, cosines[k], dl);
            }
            self.spread(&mut gradients, query, &query_gradient);
        }
        for (pieces, gradient) in documents.iter().zip(&document_gradients) {
            self.spread(&mut gradients, pieces, gradient);
        }
        let rate = settings.learning_rate / batch.len() as f32;
        for (id, gradient) in gradients {
            let row = &mut self.vectors[id * d..(id + 1) * d];
            let anchor = &start[id * d..(id + 1) * d];
            for ((x, g), a) in row.iter_mut().zip(&gradient).zip(anchor) {
                *x -= rate * g + settings.anchor * (*x - a);
            }
        }
        loss
    }

    /// Adds a text vector's gradient to its pieces' (each piece gets its weight's share).
    fn spread(&self, gradients: &mut HashMap<usize, Vec<f32>>, pieces: &Pieces, gradient: &[f32]) {
        if gradient.iter().all(|g| *g == 0.0) {
            return;
        }
        for &(id, weight) in pieces {
            let row = gradients
                .entry(id)
                .or_insert_with(|| vec![0.0; self.dimension]);
            for (r, g) in row.iter_mut().zip(gradient) {
                *r += weight * g;
            }
        }
    }
}

/// Adds `scale` · ∂cos(u, v)/∂u to `gradient`: (v/|v| − cos · u/|u|) / |u|.
fn accumulate_cosine_gradient(gradient: &mut [f32], u: &[f32], v: &[f32], cos: f32, scale: f32) {
    let nu = u.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nv = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if nu == 0.0 || nv == 0.0 {
        return;
    }
    for ((g, a), b) in gradient.iter_mut().zip(u).zip(v) {
        *g += scale * (b / nv - cos * a / nu) / nu;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vectors over MiniLM's vocabulary (the piece's id in its first coordinates), without the
    /// distillation's 30,522 encoder passes.
    fn made_up() -> TokenVectors {
        let encoder = tally_encoder::Encoder::provisioned_minilm()
            .expect("the MiniLM is provisioned (scripts/setup.sh)");
        let tokenizer = encoder.tokenizer().clone();
        let size = tokenizer.get_vocab_size(true);
        let dimension = 8;
        let vectors = (0..size * dimension)
            .map(|i| ((i / dimension) as f32 * 0.37 + (i % dimension) as f32).sin())
            .collect();
        TokenVectors {
            tokenizer,
            dimension,
            vectors,
            weights: (0..size).map(|i| 1.0 / (1.0 + (i % 7) as f32)).collect(),
        }
    }

    #[test]
    fn saved_vectors_read_back_within_their_eight_bits_and_train_toward_the_positive() {
        let mut vectors = made_up();
        let path = std::env::temp_dir().join(format!("tally-tv-{}.st", std::process::id()));
        vectors.save(&path).unwrap();
        let read =
            TokenVectors::from_bytes(&std::fs::read(&path).unwrap(), &vectors.tokenizer).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read.weights, vectors.weights);
        let text = "stadium capacity of more than 80000 people";
        let cos = cosine(&vectors.embed(text), &read.embed(text));
        assert!(cos > 0.999, "{cos}");
        // Training pulls the query towards its positive and away from its negative.
        let triple = Triple {
            query: "stadium capacity person".into(),
            positive: "The arena holds 90,000 fans.".into(),
            negatives: vec!["The phone has a 5000 mAh battery.".into()],
        };
        let gap = |v: &TokenVectors| {
            let q = v.embed(&triple.query);
            cosine(&q, &v.embed(&triple.positive)) - cosine(&q, &v.embed(&triple.negatives[0]))
        };
        let before = gap(&vectors);
        let losses = vectors.train(
            std::slice::from_ref(&triple),
            &TrainSettings {
                epochs: 20,
                ..TrainSettings::default()
            },
        );
        assert!(gap(&vectors) > before, "{before} → {}", gap(&vectors));
        assert!(losses.last() < losses.first(), "{losses:?}");
    }

    #[test]
    fn the_cosine_gradient_matches_a_finite_difference() {
        let u = [0.3f32, -0.2, 0.9];
        let v = [0.5f32, 0.4, -0.1];
        let mut gradient = [0f32; 3];
        accumulate_cosine_gradient(&mut gradient, &u, &v, cosine(&u, &v), 1.0);
        for i in 0..3 {
            let mut moved = u;
            moved[i] += 1e-3;
            let numeric = (cosine(&moved, &v) - cosine(&u, &v)) / 1e-3;
            assert!(
                (numeric - gradient[i]).abs() < 1e-2,
                "{i}: {numeric} {gradient:?}"
            );
        }
    }
}
