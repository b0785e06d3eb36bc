//! GELU with the exact (erf) form, as BERT checkpoints define it, computed in a loop the compiler
//! vectorises. candle's `gelu_erf` calls libm's scalar `erf` per element: profiled, 13% of a
//! count question's time went there. Training keeps candle's op, which has a gradient.

use candle_core::{CpuStorage, CustomOp1, DType, Layout, Result, Shape, Tensor};

/// `x · Φ(x)` with Φ the standard normal distribution function.
pub(crate) fn gelu_erf(xs: &Tensor) -> Result<Tensor> {
    if xs.track_op() || !xs.device().is_cpu() || xs.dtype() != DType::F32 {
        return xs.gelu_erf();
    }
    xs.contiguous()?.apply_op1_no_bwd(&GeluErf)
}

struct GeluErf;

impl CustomOp1 for GeluErf {
    fn name(&self) -> &'static str {
        "gelu-erf-f32"
    }

    fn cpu_fwd(&self, storage: &CpuStorage, layout: &Layout) -> Result<(CpuStorage, Shape)> {
        let CpuStorage::F32(values) = storage else {
            candle_core::bail!("gelu-erf-f32 reads f32 only");
        };
        let Some((start, end)) = layout.contiguous_offsets() else {
            candle_core::bail!("gelu-erf-f32 reads a contiguous tensor only");
        };
        let out: Vec<f32> = values[start..end].iter().map(|&x| gelu(x)).collect();
        Ok((CpuStorage::F32(out), layout.shape().clone()))
    }
}

#[inline(always)]
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2))
}

/// erf as a rational function of x (odd numerator, even denominator) on [−4, 4], where it is
/// within a few units in the last place of f32; beyond, erf is ±1 in f32. The coefficients are
/// Eigen's and XLA's `erf` for f32: only multiplications, additions and one division (no `mul_add`,
/// which is a libm call without FMA in the target), so the loop above becomes vector instructions.
#[inline(always)]
fn erf(x: f32) -> f32 {
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let mut p = x2 * -2.726_142_3e-10 + 2.770_681_4e-8;
    p = x2 * p - 2.101_024e-6;
    p = x2 * p - 5.692_506_4e-5;
    p = x2 * p - 7.349_906_3e-4;
    p = x2 * p - 2.954_6e-3;
    p = x2 * p - 1.609_603_3e-2;
    let mut q = x2 * -1.456_607_2e-5 - 2.133_740_6e-4;
    q = x2 * q - 1.682_827e-3;
    q = x2 * q - 7.373_329e-3;
    q = x2 * q - 1.426_474e-2;
    x * p / q
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn erf_matches_libm_everywhere() {
        let mut worst = 0.0f64;
        for i in -60_000..=60_000 {
            let x = i as f32 / 10_000.0;
            let exact = libm_erf(f64::from(x));
            worst = worst.max((f64::from(erf(x)) - exact).abs());
        }
        assert!(worst < 1e-6, "largest error {worst}");
    }

    #[test]
    fn gelu_matches_candles_op() -> Result<()> {
        let xs = Tensor::arange(-800f32, 800f32, &Device::Cpu)?.affine(0.01, 0.0)?;
        let fast = gelu_erf(&xs)?.to_vec1::<f32>()?;
        let reference = xs.gelu_erf()?.to_vec1::<f32>()?;
        for (a, b) in fast.iter().zip(&reference) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        Ok(())
    }

    /// erf in f64 by its series and continued fraction: independent of the code under test.
    fn libm_erf(x: f64) -> f64 {
        let t = 1.0 / (1.0 + 0.5 * x.abs());
        // Numerical Recipes' erfc, fractional error below 1.2e-7.
        let poly = -x * x - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77))))))));
        let erfc = t * poly.exp();
        if x >= 0.0 {
            1.0 - erfc
        } else {
            erfc - 1.0
        }
    }
}
