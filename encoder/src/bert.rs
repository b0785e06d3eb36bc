//! A BERT encoder built only from differentiable candle ops, with its layers open to the caller.
//!
//! candle-transformers' `BertModel` hides its layers and uses candle-nn's fused layer norm, which
//! records no backward op (gradients silently stop there, see `shared/docs/stack-notes.md`). Tally
//! needs both: the sentence encoder runs all layers, the count reader runs the lower layers of the
//! shared encoder and then its own fine-tuned top layers, and training back-propagates through
//! those. So the layer norm here is written out (mean, variance, normalise, scale, shift) and
//! the attention soft-max is the composable one. The same code serves inference and training; the
//! reference-embedding test checks it against an independent implementation.

use std::ops::Range;

use candle_core::{DType, Module, Result, Tensor, D};
use candle_nn::{embedding, Embedding, VarBuilder};
use candle_transformers::models::bert::{Config, HiddenAct};

mod dense;
mod gelu;

pub use dense::{eight_bit_is_fast, Dense};

/// Added to the attention scores of padding positions: far below any real score, yet finite,
/// so neither the soft-max nor its gradient sees an infinity.
const MASKED: f64 = -1e4;

/// Layer norm over the last dimension, from ops that all have gradients when it trains.
#[derive(Clone)]
pub struct LayerNorm {
    weight: Tensor,
    bias: Tensor,
    eps: f64,
}

impl LayerNorm {
    /// Loads the norm's weight and bias of `size` from `vb`.
    pub fn load(vb: VarBuilder, size: usize, eps: f64) -> Result<Self> {
        Ok(Self {
            weight: vb.get(size, "weight")?,
            bias: vb.get(size, "bias")?,
            eps,
        })
    }
}

impl Module for LayerNorm {
    fn forward(&self, xs: &Tensor) -> Result<Tensor> {
        // Nothing to learn (the weights are not variables being trained, and nothing before
        // them is): candle-nn's fused kernel, several times faster than the plain ops.
        if !xs.track_op() && !self.weight.is_variable() {
            return candle_nn::ops::layer_norm(
                &xs.contiguous()?,
                &self.weight,
                &self.bias,
                self.eps as f32,
            );
        }
        let mean = xs.mean_keepdim(D::Minus1)?;
        let centred = xs.broadcast_sub(&mean)?;
        let variance = centred.sqr()?.mean_keepdim(D::Minus1)?;
        let normalised = centred.broadcast_div(&(variance + self.eps)?.sqrt()?)?;
        normalised
            .broadcast_mul(&self.weight)?
            .broadcast_add(&self.bias)
    }
}

/// Word, position and token-type embeddings, summed and normalised.
#[derive(Clone)]
pub struct Embeddings {
    words: Embedding,
    positions: Embedding,
    token_types: Embedding,
    norm: LayerNorm,
}

impl Embeddings {
    fn load(vb: VarBuilder, config: &Config) -> Result<Self> {
        let size = config.hidden_size;
        Ok(Self {
            words: embedding(config.vocab_size, size, vb.pp("word_embeddings"))?,
            positions: embedding(
                config.max_position_embeddings,
                size,
                vb.pp("position_embeddings"),
            )?,
            token_types: embedding(config.type_vocab_size, size, vb.pp("token_type_embeddings"))?,
            norm: LayerNorm::load(vb.pp("LayerNorm"), size, config.layer_norm_eps)?,
        })
    }

    /// `(batch, tokens)` ids and token types → `(batch, tokens, hidden)`.
    fn forward(&self, ids: &Tensor, token_types: &Tensor) -> Result<Tensor> {
        let (_, len) = ids.dims2()?;
        let positions = Tensor::arange(0u32, len as u32, ids.device())?;
        let sum = self
            .words
            .forward(ids)?
            .add(&self.token_types.forward(token_types)?)?
            .broadcast_add(&self.positions.forward(&positions)?)?;
        self.norm.forward(&sum)
    }
}

/// One transformer layer: self-attention and the feed-forward block, each with a residual
/// connection and a layer norm. Variable names follow the Hugging Face BERT checkpoints, so a
/// layer loads from `encoder.layer.N` of a model file or from a fine-tuned file alike.
pub struct Layer {
    /// Query, key and value side by side, when the layer reads with 8-bit weights (one product
    /// instead of three; see [`Layer::to_eight_bit`]); else each alone.
    query_key_value: Option<Dense>,
    query: Dense,
    key: Dense,
    value: Dense,
    attention_out: Dense,
    attention_norm: LayerNorm,
    intermediate: Dense,
    output: Dense,
    output_norm: LayerNorm,
    heads: usize,
    activation: HiddenAct,
}

impl Layer {
    /// Loads one encoder layer (attention, intermediate and output) from `vb`.
    pub fn load(vb: VarBuilder, config: &Config) -> Result<Self> {
        let size = config.hidden_size;
        let attention = vb.pp("attention");
        let own = attention.pp("self");
        Ok(Self {
            query_key_value: None,
            query: Dense::load(size, size, own.pp("query"))?,
            key: Dense::load(size, size, own.pp("key"))?,
            value: Dense::load(size, size, own.pp("value"))?,
            attention_out: Dense::load(size, size, attention.pp("output").pp("dense"))?,
            attention_norm: LayerNorm::load(
                attention.pp("output").pp("LayerNorm"),
                size,
                config.layer_norm_eps,
            )?,
            intermediate: Dense::load(
                size,
                config.intermediate_size,
                vb.pp("intermediate").pp("dense"),
            )?,
            output: Dense::load(config.intermediate_size, size, vb.pp("output").pp("dense"))?,
            output_norm: LayerNorm::load(
                vb.pp("output").pp("LayerNorm"),
                size,
                config.layer_norm_eps,
            )?,
            heads: config.num_attention_heads,
            activation: config.hidden_act,
        })
    }

    /// The same layer with 8-bit dense weights where they are faster, for inference only (no
    /// gradients pass them). Measured on 512 rows (the reader's pass), 2 cores with AVX-512 VNNI:
    /// the feed-forward products (384 → 1,536 and back) and query, key and value side by side
    /// (384 → 1,152) run 1.3–1.8× faster in 8 bits; a 384 × 384 product alone does not gain, so
    /// the attention output stays f32 (docs/experiments.md, 2026-11-26).
    pub fn to_eight_bit(&self) -> Result<Self> {
        let query_key_value = Dense::side_by_side(&[&self.query, &self.key, &self.value])?
            .map(|fused| fused.to_eight_bit())
            .transpose()?;
        Ok(Self {
            query_key_value,
            query: self.query.clone(),
            key: self.key.clone(),
            value: self.value.clone(),
            attention_out: self.attention_out.clone(),
            attention_norm: self.attention_norm.clone(),
            intermediate: self.intermediate.to_eight_bit()?,
            output: self.output.to_eight_bit()?,
            output_norm: self.output_norm.clone(),
            heads: self.heads,
            activation: self.activation,
        })
    }

    /// `(batch, tokens, hidden)` with the attention bias of [`attention_bias`].
    pub fn forward(&self, xs: &Tensor, bias: &Tensor) -> Result<Tensor> {
        let mut out = self.forward_batches(std::slice::from_ref(xs), std::slice::from_ref(bias))?;
        Ok(out.remove(0))
    }

    /// Several padded batches of different lengths, each `(batch, tokens, hidden)` with its
    /// attention bias. The dense layers see every batch's rows as one `(rows, hidden)` matrix:
    /// on a 3-d input candle's `Linear` runs one product per window, and each product packs the
    /// weight matrix again, which costs as much as the product for short windows. Attention runs
    /// per batch.
    pub fn forward_batches(&self, xs: &[Tensor], biases: &[Tensor]) -> Result<Vec<Tensor>> {
        let shapes = xs.iter().map(Tensor::dims3).collect::<Result<Vec<_>>>()?;
        let rows = stack_rows(xs, &shapes)?;
        let (q, k, v) = match &self.query_key_value {
            Some(fused) => {
                let all = fused.forward(&rows)?;
                let size = rows.dim(1)?;
                (
                    all.narrow(1, 0, size)?,
                    all.narrow(1, size, size)?,
                    all.narrow(1, 2 * size, size)?,
                )
            }
            None => (
                self.query.forward(&rows)?,
                self.key.forward(&rows)?,
                self.value.forward(&rows)?,
            ),
        };
        let mut contexts = Vec::with_capacity(xs.len());
        let mut start = 0;
        for (&(batch, len, size), bias) in shapes.iter().zip(biases) {
            let head_size = size / self.heads;
            let split = |t: &Tensor| -> Result<Tensor> {
                t.narrow(0, start, batch * len)?
                    .reshape((batch, len, self.heads, head_size))?
                    .transpose(1, 2)?
                    .contiguous()
            };
            let (q, k, v) = (split(&q)?, split(&k)?, split(&v)?);
            let scores = (q.matmul(&k.t()?)? / (head_size as f64).sqrt())?.broadcast_add(bias)?;
            let weights = candle_nn::ops::softmax(&scores, D::Minus1)?;
            contexts.push(
                weights
                    .matmul(&v)?
                    .transpose(1, 2)?
                    .contiguous()?
                    .reshape((batch * len, size))?,
            );
            start += batch * len;
        }
        let context = Tensor::cat(&contexts, 0)?;
        let attended = self
            .attention_norm
            .forward(&(self.attention_out.forward(&context)? + rows)?)?;
        let inner = self.intermediate.forward(&attended)?;
        let inner = match self.activation {
            HiddenAct::Gelu => gelu::gelu_erf(&inner)?,
            HiddenAct::GeluApproximate => inner.gelu()?,
            HiddenAct::Relu => inner.relu()?,
        };
        let out = self
            .output_norm
            .forward(&(self.output.forward(&inner)? + attended)?)?;
        let mut start = 0;
        shapes
            .iter()
            .map(|&(batch, len, size)| {
                let part = out
                    .narrow(0, start, batch * len)?
                    .reshape((batch, len, size));
                start += batch * len;
                part
            })
            .collect()
    }
}

/// The rows of every `(batch, tokens, hidden)` tensor, one after the other.
fn stack_rows(xs: &[Tensor], shapes: &[(usize, usize, usize)]) -> Result<Tensor> {
    let rows = xs
        .iter()
        .zip(shapes)
        .map(|(x, &(batch, len, size))| x.reshape((batch * len, size)))
        .collect::<Result<Vec<_>>>()?;
    match rows.as_slice() {
        [one] => Ok(one.clone()),
        _ => Tensor::cat(&rows, 0),
    }
}

/// `(batch, tokens)` 0/1 mask → `(batch, 1, 1, tokens)` additive attention bias.
pub fn attention_bias(mask: &Tensor, dtype: DType) -> Result<Tensor> {
    let mask = mask.to_dtype(dtype)?;
    ((mask.ones_like()? - mask)? * MASKED)?
        .unsqueeze(1)?
        .unsqueeze(1)
}

/// The embeddings and every layer of a BERT checkpoint.
pub struct Bert {
    embeddings: Embeddings,
    layers: Vec<Layer>,
}

impl Bert {
    /// Loads from a checkpoint's variables (with or without a `bert.` prefix).
    pub fn load(vb: VarBuilder, config: &Config) -> Result<Self> {
        let vb = if vb.contains_tensor("bert.embeddings.word_embeddings.weight") {
            vb.pp("bert")
        } else {
            vb
        };
        let layers = (0..config.num_hidden_layers)
            .map(|i| Layer::load(vb.pp(format!("encoder.layer.{i}")), config))
            .collect::<Result<_>>()?;
        Ok(Self {
            embeddings: Embeddings::load(vb.pp("embeddings"), config)?,
            layers,
        })
    }

    /// Every layer with 8-bit dense weights (see [`Layer::to_eight_bit`]).
    pub fn to_eight_bit(&self) -> Result<Self> {
        Ok(Self {
            embeddings: self.embeddings.clone(),
            layers: self
                .layers
                .iter()
                .map(Layer::to_eight_bit)
                .collect::<Result<_>>()?,
        })
    }

    /// How many encoder layers the model has.
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// Hidden states after the layers in `layers` (`0..n` runs the first `n`): the embeddings
    /// followed by those layers.
    pub fn states(
        &self,
        ids: &Tensor,
        token_types: &Tensor,
        mask: &Tensor,
        layers: Range<usize>,
    ) -> Result<Tensor> {
        let embedded = self.embeddings.forward(ids, token_types)?;
        let bias = attention_bias(mask, embedded.dtype())?;
        run_layers(&self.layers[layers], embedded, &bias)
    }

    /// [`Bert::states`] for several padded batches at once (see [`Layer::forward_batches`]):
    /// each batch is `(ids, token types, mask)`.
    pub fn states_batches(
        &self,
        batches: &[(Tensor, Tensor, Tensor)],
        layers: Range<usize>,
    ) -> Result<Vec<Tensor>> {
        let mut states = Vec::with_capacity(batches.len());
        let mut biases = Vec::with_capacity(batches.len());
        for (ids, token_types, mask) in batches {
            let embedded = self.embeddings.forward(ids, token_types)?;
            biases.push(attention_bias(mask, embedded.dtype())?);
            states.push(embedded);
        }
        run_layers_batches(&self.layers[layers], states, &biases)
    }

    /// Hidden states after every layer.
    pub fn forward(&self, ids: &Tensor, token_types: &Tensor, mask: &Tensor) -> Result<Tensor> {
        self.states(ids, token_types, mask, 0..self.layers.len())
    }
}

/// Runs `layers` in order over `states`.
pub fn run_layers(layers: &[Layer], states: Tensor, bias: &Tensor) -> Result<Tensor> {
    layers
        .iter()
        .try_fold(states, |states, layer| layer.forward(&states, bias))
}

/// [`run_layers`] for several padded batches at once (see [`Layer::forward_batches`]).
pub fn run_layers_batches(
    layers: &[Layer],
    states: Vec<Tensor>,
    biases: &[Tensor],
) -> Result<Vec<Tensor>> {
    layers.iter().try_fold(states, |states, layer| {
        layer.forward_batches(&states, biases)
    })
}
