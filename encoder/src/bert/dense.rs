//! A dense layer (`x · Wᵀ + b`) whose weights are either f32 (training, and any device) or 8-bit
//! (inference on a CPU whose 8-bit dot products are fast).
//!
//! candle's fast x86 kernels for 8-bit weights (`Q8_0`, AVX-512 VNNI) need the inner dimension
//! to be a multiple of 256; MiniLM's hidden size is 384, so the weights and each input are
//! padded with zero columns to 512 (the zeros add nothing to any product). Without the padding
//! every product took candle's generic path and ran 1.8× slower than f32 (docs/experiments.md,
//! 2026-11-24).

use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Module, Result, Tensor};
use candle_nn::{linear, Linear, VarBuilder};

/// The inner dimension the fast 8-bit kernels work in multiples of.
const EIGHT_BIT_BLOCK: usize = 256;

/// Whether 8-bit weights pay on `device`: a CPU with AVX-512 VNNI or AVX-VNNI dot products (the
/// kernels candle's fast path uses); elsewhere its generic path is slower than f32.
pub fn eight_bit_is_fast(device: &Device) -> bool {
    if !device.is_cpu() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        (is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vnni"))
            || (is_x86_feature_detected!("avxvnni") && is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A dense layer, as trained or with 8-bit weights.
#[derive(Debug, Clone)]
pub enum Dense {
    /// f32 weights, as trained.
    Full(Linear),
    /// 8-bit weights (q8_0) multiplied by candle's quantised kernel.
    EightBit {
        /// The quantised weight matrix.
        weights: QMatMul,
        /// The bias, in f32.
        bias: Option<Tensor>,
        /// Zero columns added to each input.
        padding: usize,
    },
}

impl Dense {
    /// An f32 layer from the variables `weight` `(output, input)` and `bias` of `vb`.
    pub fn load(input: usize, output: usize, vb: VarBuilder) -> Result<Self> {
        Ok(Self::Full(linear(input, output, vb)?))
    }

    /// One layer computing `parts` side by side (their outputs concatenated), e.g. a layer's
    /// query, key and value: one product instead of three. `None` unless every part is f32.
    pub fn side_by_side(parts: &[&Dense]) -> Result<Option<Self>> {
        let mut weights = Vec::with_capacity(parts.len());
        let mut biases = Vec::with_capacity(parts.len());
        for part in parts {
            let Self::Full(full) = part else {
                return Ok(None);
            };
            weights.push(full.weight().clone());
            match full.bias() {
                Some(bias) => biases.push(bias.clone()),
                None => return Ok(None),
            }
        }
        Ok(Some(Self::Full(Linear::new(
            Tensor::cat(&weights, 0)?,
            Some(Tensor::cat(&biases, 0)?),
        ))))
    }

    /// The same layer with 8-bit weights, its inner dimension padded to the kernels' block.
    pub fn to_eight_bit(&self) -> Result<Self> {
        let Self::Full(full) = self else {
            return Ok(self.clone());
        };
        let weight = full.weight();
        let (_, input) = weight.dims2()?;
        let padding = input.div_ceil(EIGHT_BIT_BLOCK) * EIGHT_BIT_BLOCK - input;
        let padded = weight.pad_with_zeros(1, 0, padding)?;
        Ok(Self::EightBit {
            weights: QMatMul::from_qtensor(QTensor::quantize(&padded, GgmlDType::Q8_0)?)?,
            bias: full.bias().cloned(),
            padding,
        })
    }
}

impl Module for Dense {
    fn forward(&self, xs: &Tensor) -> Result<Tensor> {
        match self {
            Self::Full(full) => full.forward(xs),
            Self::EightBit {
                weights,
                bias,
                padding,
            } => {
                let last = xs.rank() - 1;
                let padded = if *padding == 0 {
                    xs.contiguous()?
                } else {
                    xs.pad_with_zeros(last, 0, *padding)?
                };
                let out = weights.forward(&padded)?;
                match bias {
                    Some(bias) => out.broadcast_add(bias),
                    None => Ok(out),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    #[test]
    fn eight_bit_weights_give_the_f32_products_within_a_percent() {
        let device = Device::Cpu;
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
        let full = Dense::load(384, 64, vb).unwrap();
        let eight = full.to_eight_bit().unwrap();
        assert!(matches!(eight, Dense::EightBit { padding: 128, .. }));
        let xs = Tensor::randn(0f32, 1.0, (7, 384), &device).unwrap();
        let (a, b) = (full.forward(&xs).unwrap(), eight.forward(&xs).unwrap());
        assert_eq!(a.dims(), b.dims());
        let error = (a.clone() - b).unwrap().abs().unwrap().mean_all().unwrap();
        let scale = a.abs().unwrap().mean_all().unwrap();
        let relative = error.to_scalar::<f32>().unwrap() / scale.to_scalar::<f32>().unwrap();
        assert!(relative < 0.01, "{relative}");
    }

    #[test]
    fn layers_side_by_side_give_each_layer_s_output() {
        let device = Device::Cpu;
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
        let (a, b) = (
            Dense::load(8, 3, vb.pp("a")).unwrap(),
            Dense::load(8, 5, vb.pp("b")).unwrap(),
        );
        let both = Dense::side_by_side(&[&a, &b])
            .unwrap()
            .expect("both are f32");
        let xs = Tensor::randn(0f32, 1.0, (4, 8), &device).unwrap();
        let out = both.forward(&xs).unwrap();
        let expected = Tensor::cat(&[a.forward(&xs).unwrap(), b.forward(&xs).unwrap()], 1).unwrap();
        let diff = (out - expected).unwrap().abs().unwrap().max_all().unwrap();
        assert!(diff.to_scalar::<f32>().unwrap() < 1e-6);
    }
}
