//! [`CudaPolyMul`]: polynomial products over GF(p) entirely on the GPU.
//!
//! For a product of length ℓ = la + lb − 1 and S = 2^⌈log2 ℓ⌉: both operands
//! are uploaded once, zero-padded to S; a forward DFT_S in digit-reversed
//! order (decimation in frequency, in place, no permutation) transforms
//! each, one kernel multiplies them pointwise, and the inverse DFT_S takes
//! the digit-reversed product back to natural order and scales it; only the
//! ℓ coefficients of the result are read back. No host round trip between
//! the steps: they queue on the device's stream in order.
//!
//! Padded to a power of two, not truncated (gfpf-cpu's TFT): on the GPU the
//! work of a transform is spread over the whole card, and whether the
//! truncated transform's smaller operation count pays there is still to be
//! measured on one.
//!
//! Or through word-size primes ([`CudaMultiModular`]): projections onto s
//! primes of 31 bits, word-size NTTs, the CRT back to GF(p).
//! [`CudaMulAlgorithm::Auto`] picks between the two.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cudarc::driver::{CudaFunction, DevicePtr, DevicePtrMut};
use gfpf_executor::TransformError;
use gfpf_field::{Element, Field};
use gfpf_kernels::DeviceConstants;
use gfpf_plan::{Direction, Order};

use crate::fft::launch_kernel;
use crate::multimodular::{CudaMultiModular, MultiModularPlan, WordSizePlan, WordSizes};
use crate::ntt::{F64Word, NttWord};
use crate::params::{block_threads, pointwise_mul};
use crate::{CudaDevice, CudaError, CudaFft, DeviceBuffer};

/// The least padded product length N (a power of two ≥ la + lb − 1) for
/// which [`CudaMulAlgorithm::Auto`] takes the word-size primes over a field
/// whose k the model's contest ([`ModelledProduct`]) has not counted (k = 2
/// and 4; every k it has counted, 8 and 16, is chosen by its table). From
/// the contest of commit b42ad0c (H100 SXM constants, 2026-11-29; modelled,
/// not measured): from n = 2^15 the word-size primes take t8 0.73–1.18 of
/// the big prime's time on the fitted path cost, p8 0.59–1.06, t16
/// 0.67–0.81; below, t8 0.92–1.42, p8 0.87–1.36, t16 1.48–1.67.
pub const AUTO_MULTIMODULAR_MIN_N: usize = 1 << 16;

/// One row of the time model's product contest (`cargo xtask gpu-model
/// --contest`, written into docs/benchmarks/gpu_contest.json and generated
/// from it into [`crate::product_contest::MODELLED_PRODUCTS`]): an n × n
/// product of padded length N = 2^log2_n over a preset, the word-size
/// primes' modelled time over the big prime's, both as the device runs
/// them (the big prime's two forward transforms, pointwise product and
/// inverse; the primes' projection, NTTs and CRT). Modelled, not measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelledProduct {
    /// The preset's name.
    pub preset: &'static str,
    /// Its number of digits.
    pub k: usize,
    /// log2 of the padded length N.
    pub log2_n: u32,
    /// Word-size primes over big prime on the model's fitted path cost;
    /// `None` where too few word-size primes reach N.
    pub small_over_big: Option<f64>,
    /// The same at the model's floor (every launch at its binding bound
    /// with the path at its issue rate).
    pub small_over_big_floor: Option<f64>,
}

impl ModelledProduct {
    /// A row of the table.
    pub const fn new(
        preset: &'static str,
        k: usize,
        log2_n: u32,
        small_over_big: Option<f64>,
        small_over_big_floor: Option<f64>,
    ) -> Self {
        ModelledProduct {
            preset,
            k,
            log2_n,
            small_over_big,
            small_over_big_floor,
        }
    }

    /// Whether the word-size primes lead here: the geometric mean of the
    /// two ratios is below 1. Where the fitted figure and the floor
    /// disagree, the larger margin decides; only a GPU settles which
    /// figure holds (`gfpf bench --device cuda` prints both products).
    pub fn word_size_primes_lead(&self) -> bool {
        match (self.small_over_big, self.small_over_big_floor) {
            (Some(fitted), Some(floor)) => fitted * floor < 1.0,
            _ => false,
        }
    }

    /// The row [`CudaMulAlgorithm::Auto`] reads for a product of padded
    /// length 2^`log2_n` over `field`: its preset's rows, else (a custom
    /// field or a preset the contest lacks) those of the first preset of
    /// its k; below the least N counted the least one's row and above the
    /// largest the largest's. `None` where no preset of its k was counted.
    ///
    /// ```
    /// use gfpf_cuda::ModelledProduct;
    /// use gfpf_field::{Field, Preset};
    ///
    /// // A 2^20 × 2^20 product at t8 pads to N = 2^21.
    /// let t8 = Field::<8>::preset(Preset::T8)?;
    /// let row = ModelledProduct::for_product(&t8, 21).expect("t8 is in the contest");
    /// assert_eq!((row.preset, row.log2_n), ("t8", 21));
    /// println!(
    ///     "word-size primes / big prime: {:?} fitted, {:?} at the floor; Auto takes the {}",
    ///     row.small_over_big,
    ///     row.small_over_big_floor,
    ///     if row.word_size_primes_lead() { "word-size primes" } else { "big prime" },
    /// );
    /// # Ok::<(), gfpf_field::FieldError>(())
    /// ```
    pub fn for_product<const K: usize>(field: &Field<K>, log2_n: u32) -> Option<&'static ModelledProduct> {
        let rows = crate::product_contest::MODELLED_PRODUCTS;
        let preset = field
            .name()
            .filter(|name| rows.iter().any(|row| row.preset == *name))
            .or_else(|| rows.iter().find(|row| row.k == K).map(|row| row.preset))?;
        let of_preset = || rows.iter().filter(move |row| row.preset == preset);
        let least = of_preset().map(|row| row.log2_n).min()?;
        let largest = of_preset().map(|row| row.log2_n).max()?;
        let log2_n = log2_n.clamp(least, largest);
        of_preset().find(|row| row.log2_n == log2_n)
    }
}

impl CudaMulAlgorithm {
    /// What this comes to for a product of `len_a` by `len_b` coefficients
    /// over `field`: [`CudaMulAlgorithm::BigPrime`] or
    /// [`CudaMulAlgorithm::MultiModular`], never `Auto`. `Auto` takes the
    /// word-size primes where the model's contest has them lead at the
    /// padded length ([`ModelledProduct::for_product`], and from
    /// [`AUTO_MULTIMODULAR_MIN_N`] for a k it has not counted) and they can
    /// take the product: k ≤ 16,
    /// and enough primes with the 2-adicity its length asks (31-bit primes
    /// up to 2^21 coefficients at t8 and 2^20 at t16, 62-bit ones past
    /// that, up to 2^29), on a device of integer word sizes
    /// ([`CudaMulAlgorithm::resolve_with`] for another).
    pub fn resolve<const K: usize>(self, field: &Field<K>, len_a: usize, len_b: usize) -> CudaMulAlgorithm {
        self.resolve_with(field, len_a, len_b, WordSizes::Integer)
    }

    /// [`CudaMulAlgorithm::resolve`] on a device that takes the word sizes
    /// `sizes` (FP64 past the 31-bit primes' reach where its FP64 rate is
    /// its integer rate).
    pub fn resolve_with<const K: usize>(
        self,
        field: &Field<K>,
        len_a: usize,
        len_b: usize,
        sizes: WordSizes,
    ) -> CudaMulAlgorithm {
        match self {
            CudaMulAlgorithm::Auto
                if auto_tries_multimodular(field, len_a, len_b)
                    && WordSizePlan::try_new(field, len_a, len_b, sizes).is_ok() =>
            {
                CudaMulAlgorithm::MultiModular
            }
            CudaMulAlgorithm::Auto => CudaMulAlgorithm::BigPrime,
            other => other,
        }
    }
}

/// Whether `Auto` tries the word-size primes for a product of these
/// lengths over `field`: where the model's contest has them lead at the
/// padded length, or past [`AUTO_MULTIMODULAR_MIN_N`] for a k it has not
/// counted (whether they reach it is then their plan's to say).
fn auto_tries_multimodular<const K: usize>(field: &Field<K>, len_a: usize, len_b: usize) -> bool {
    let Some(n) = len_a
        .saturating_add(len_b)
        .saturating_sub(1)
        .checked_next_power_of_two()
    else {
        // Past usize: the plans refuse it with their own error.
        return true;
    };
    match ModelledProduct::for_product(field, n.trailing_zeros()) {
        Some(row) => row.word_size_primes_lead(),
        None => n >= AUTO_MULTIMODULAR_MIN_N,
    }
}

/// A word-size primes' engine in any width.
enum MultiModularEngine<const K: usize> {
    Words32(CudaMultiModular<K, u32>),
    Words64(CudaMultiModular<K, u64>),
    Fp64(CudaMultiModular<K, F64Word>),
}

impl<const K: usize> MultiModularEngine<K> {
    fn mul(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, CudaError> {
        match self {
            MultiModularEngine::Words32(e) => e.mul(a, b),
            MultiModularEngine::Words64(e) => e.mul(a, b),
            MultiModularEngine::Fp64(e) => e.mul(a, b),
        }
    }
}

/// How [`CudaPolyMul`] computes a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum CudaMulAlgorithm {
    /// Word-size primes where the model's contest has them lead
    /// ([`ModelledProduct`]) and they can take the product (k ≤ 16; up to
    /// 2^29 coefficients), otherwise the big prime (the default).
    #[default]
    Auto,
    /// Padded transforms over GF(p) itself, up to 2^v coefficients.
    BigPrime,
    /// Word-size primes and the CRT ([`CudaMultiModular`]): fields up to
    /// k = 16; 31-bit primes where they reach the product's length, past it
    /// primes below 2^50 in FP64 on devices whose FP64 rate is their integer
    /// rate and 62-bit ones on others, up to 2^29 coefficients.
    MultiModular,
}

/// The transforms and kernel of one padded size S.
struct SizePlans<const K: usize> {
    forward: CudaFft<K>,
    inverse: CudaFft<K>,
    pointwise: CudaFunction,
}

/// Polynomial products over one field on one GPU; the plans of each padded
/// size are built on first use and kept.
pub struct CudaPolyMul<const K: usize> {
    device: Arc<CudaDevice>,
    field: Field<K>,
    sizes: Mutex<HashMap<usize, Arc<SizePlans<K>>>>,
    /// Multi-modular engines by (bits of a prime, N, number of primes),
    /// which fix the products they cover.
    multimodular: Mutex<HashMap<(u32, usize, usize), Arc<MultiModularEngine<K>>>>,
}

impl<const K: usize> std::fmt::Debug for CudaPolyMul<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaPolyMul")
            .field("device", &self.device)
            .field("field", &self.field.name().unwrap_or("custom"))
            .finish()
    }
}

impl<const K: usize> CudaPolyMul<K> {
    /// Products over `field` on `device`.
    pub fn new(device: &Arc<CudaDevice>, field: &Field<K>) -> Self {
        CudaPolyMul {
            device: Arc::clone(device),
            field: field.clone(),
            sizes: Mutex::new(HashMap::new()),
            multimodular: Mutex::new(HashMap::new()),
        }
    }

    /// What `algorithm` comes to for a product of `len_a` by `len_b`
    /// coefficients over this field ([`CudaMulAlgorithm::resolve`]).
    pub fn resolve(&self, algorithm: CudaMulAlgorithm, len_a: usize, len_b: usize) -> CudaMulAlgorithm {
        algorithm.resolve_with(&self.field, len_a, len_b, self.word_sizes())
    }

    /// The word sizes this device takes: FP64 past the 31-bit primes' reach
    /// where its FP64 rate is its integer rate, else 62-bit integers.
    pub fn word_sizes(&self) -> WordSizes {
        if self.device.fp64_at_integer_rate() {
            WordSizes::WithFp64
        } else {
            WordSizes::Integer
        }
    }

    /// The word-size primes' engine for these lengths, from the cache when
    /// one of its shape was made: a plan looks for its primes only once.
    fn multimodular_engine(&self, len_a: usize, len_b: usize) -> Result<Arc<MultiModularEngine<K>>, CudaError> {
        // 31-bit primes' shape first: where their plan is cached, it reaches.
        let sizes = self.word_sizes();
        let (n, primes) = MultiModularPlan::<K, u32>::shape(&self.field, len_a, len_b)?;
        let cache = self.multimodular.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(engine) = cache.get(&(u32::PRIME_BITS, n, primes)) {
            return Ok(Arc::clone(engine));
        }
        let wide = match sizes {
            WordSizes::Integer => (
                u64::PRIME_BITS,
                MultiModularPlan::<K, u64>::shape(&self.field, len_a, len_b)?,
            ),
            WordSizes::WithFp64 => (
                F64Word::PRIME_BITS,
                MultiModularPlan::<K, F64Word>::shape(&self.field, len_a, len_b)?,
            ),
        };
        if let Some(engine) = cache.get(&(wide.0, wide.1.0, wide.1.1)) {
            return Ok(Arc::clone(engine));
        }
        drop(cache);
        let plan = WordSizePlan::try_new(&self.field, len_a, len_b, sizes)?;
        let key = (plan.prime_bits(), plan.ntt_len(), plan.primes());
        let engine = match plan {
            WordSizePlan::Words32(plan) => MultiModularEngine::Words32(CudaMultiModular::try_new(&self.device, plan)?),
            WordSizePlan::Words64(plan) => MultiModularEngine::Words64(CudaMultiModular::try_new(&self.device, plan)?),
            WordSizePlan::Fp64(plan) => MultiModularEngine::Fp64(CudaMultiModular::try_new(&self.device, plan)?),
        };
        let engine = Arc::new(engine);
        self.multimodular
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, Arc::clone(&engine));
        Ok(engine)
    }

    /// The longest product: 2^v coefficients (v the 2-adicity of p − 1).
    pub fn max_product_len(&self) -> usize {
        1usize
            .checked_shl(self.field.two_adicity())
            .filter(|&m| m != 0)
            .unwrap_or(1 << (usize::BITS - 1))
    }

    fn plans(&self, s: usize) -> Result<Arc<SizePlans<K>>, CudaError> {
        if let Some(p) = self.sizes.lock().unwrap_or_else(|e| e.into_inner()).get(&s) {
            return Ok(Arc::clone(p));
        }
        let plan = |direction| CudaFft::try_new(&self.device, &self.field, s, direction, Order::DigitReversed);
        let forward = plan(Direction::Forward)?;
        let inverse = plan(Direction::Inverse)?;
        let radix = forward.plan().radices()[0];
        let pointwise_kernel = gfpf_kernels::device_elementwise_kernels(K).1;
        let pointwise = self
            .device
            .module(&DeviceConstants::of(&self.field), radix, pointwise_kernel.module_part())?
            .load_function(&pointwise_kernel.symbol())
            .map_err(|e| CudaError::driver("loading a kernel", 0, e))?;
        let plans = Arc::new(SizePlans {
            forward,
            inverse,
            pointwise,
        });
        self.sizes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(s, Arc::clone(&plans));
        Ok(plans)
    }

    /// The product of two coefficient vectors (lowest degree first), exactly
    /// la + lb − 1 coefficients (none if either is empty), by
    /// [`CudaMulAlgorithm::Auto`]. Errors: a product longer than the chosen
    /// path reaches, device memory, the driver.
    pub fn mul(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, CudaError> {
        self.mul_with(a, b, CudaMulAlgorithm::Auto)
    }

    /// As [`CudaPolyMul::mul`], by `algorithm`. Errors as there, and
    /// [`crate::ntt::NttError::TooManyPrimes`] for word-size primes over a
    /// field above k = 16.
    pub fn mul_with(
        &self,
        a: &[Element<K>],
        b: &[Element<K>],
        algorithm: CudaMulAlgorithm,
    ) -> Result<Vec<Element<K>>, CudaError> {
        if a.is_empty() || b.is_empty() {
            return Ok(Vec::new());
        }
        match algorithm {
            CudaMulAlgorithm::MultiModular => self.multimodular_engine(a.len(), b.len())?.mul(a, b),
            // As CudaMulAlgorithm::resolve decides, through the engines'
            // cache: where the primes do not reach, the plan says so.
            CudaMulAlgorithm::Auto if auto_tries_multimodular(&self.field, a.len(), b.len()) => {
                match self.multimodular_engine(a.len(), b.len()) {
                    Ok(engine) => engine.mul(a, b),
                    Err(CudaError::Ntt(_)) => self.mul_big_prime(a, b),
                    Err(e) => Err(e),
                }
            }
            _ => self.mul_big_prime(a, b),
        }
    }

    fn mul_big_prime(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, CudaError> {
        let len = a.len() + b.len() - 1;
        let s = len.checked_next_power_of_two().ok_or(TransformError::TooLarge {
            n: len,
            what: "product length",
        })?;
        let plans = self.plans(s)?;
        let padded = |x: &[Element<K>]| -> Result<Vec<Element<K>>, CudaError> {
            let mut v = Vec::new();
            v.try_reserve_exact(s).map_err(|_| TransformError::TooLarge {
                n: s,
                what: "padded operand length",
            })?;
            v.extend_from_slice(x);
            v.resize(s, Element::ZERO);
            Ok(v)
        };
        let mut da = DeviceBuffer::upload(&self.device, &padded(a)?)?;
        let mut db = DeviceBuffer::upload(&self.device, &padded(b)?)?;
        self.mul_device(&plans, &mut da, &mut db)?;
        let mut out = da.download(&self.device, &self.field)?;
        out.truncate(len);
        Ok(out)
    }

    /// a ← a·b on device buffers of S elements each (S a power of two; both
    /// zero beyond their polynomials' lengths, the product shorter than S),
    /// queued on the stream; `b` is overwritten by its transform.
    fn mul_device(
        &self,
        plans: &SizePlans<K>,
        a: &mut DeviceBuffer<K>,
        b: &mut DeviceBuffer<K>,
    ) -> Result<(), CudaError> {
        let s = a.len();
        plans.forward.process_device(a, None)?;
        plans.forward.process_device(b, None)?;
        {
            let stream = self.device.stream();
            let (a_ptr, _a_sync) = a.words.device_ptr_mut(stream);
            let (b_ptr, _b_sync) = b.words.device_ptr(stream);
            let (kernel, params) = pointwise_mul(K, a_ptr, b_ptr, s);
            // SAFETY: a and b hold S elements each, digit-major with pitch S,
            // which is all the pointwise kernel addresses for these parameters.
            unsafe { launch_kernel(&self.device, &plans.pointwise, &params, block_threads(&kernel, K), 0)? };
        }
        plans.inverse.process_device(a, None)
    }
}

#[cfg(test)]
mod tests {
    use gfpf_field::{Field, Preset};

    use super::{AUTO_MULTIMODULAR_MIN_N, CudaMulAlgorithm, ModelledProduct};
    use crate::multimodular::{MultiModularPlan31 as MultiModularPlan, MultiModularPlan62};

    fn auto<const K: usize>(preset: Preset, len_a: usize, len_b: usize) -> CudaMulAlgorithm {
        CudaMulAlgorithm::Auto.resolve(&Field::<K>::preset(preset).unwrap(), len_a, len_b)
    }

    #[test]
    fn auto_takes_word_size_primes_on_long_products() {
        use CudaMulAlgorithm::{BigPrime, MultiModular};
        // Fields whose k the contest has not counted (t4, p4): from a padded
        // length of AUTO_MULTIMODULAR_MIN_N.
        let min = AUTO_MULTIMODULAR_MIN_N;
        for (la, lb) in [
            (min / 2, min / 2),
            (min / 2, 2),
            (min / 2 + 1, min / 2),
            (1 << 19, 1 << 19),
        ] {
            assert_eq!(auto::<4>(Preset::T4, la, lb), MultiModular, "t4 {la}x{lb}");
            assert_eq!(auto::<4>(Preset::P4, la, lb), MultiModular, "p4 {la}x{lb}");
        }
        for (la, lb) in [
            (1, 1),
            (3, 70),
            (min / 4, min / 4),
            (min / 2, 1),
            (min / 4, min / 4 + 1),
        ] {
            assert_eq!(auto::<4>(Preset::T4, la, lb), BigPrime, "t4 {la}x{lb}");
        }
        // Too few primes of 31 bits have the 2-adicity (18 at 2^22 for t8's
        // 35, 41 at 2^21 for t16's 68): 62-bit ones take those products (18
        // at t8 for 2^21 × 2^21), up to 2^29 coefficients.
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        for (la, lb) in [(1 << 21, 1 << 21), (1 << 28, 1 << 28), (1 << 29, 1)] {
            assert_eq!(MultiModular.resolve(&t8, la, lb), MultiModular, "t8 {la}x{lb}");
        }
        let t16 = Field::<16>::preset(Preset::T16).unwrap();
        assert!(matches!(
            MultiModularPlan::try_new(&t16, 1 << 20, 1 << 20),
            Err(crate::ntt::NttError::TooManyPrimes { needed: 68, most: 41 })
        ));
        let plan = MultiModularPlan62::try_new(&t16, 1 << 20, 1 << 20).unwrap();
        assert_eq!(plan.ntt().primes().len(), 34);
        // k = 32 would take 68 of the 64 there are.
        let t32 = Field::<32>::preset(Preset::T32).unwrap();
        assert!(matches!(
            MultiModularPlan62::try_new(&t32, 64, 64),
            Err(crate::ntt::NttError::TooManyPrimes { most: 64, .. })
        ));
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        assert!(MultiModularPlan::try_new(&t8, 1 << 21, 1 << 21).is_err());
        let plan = MultiModularPlan62::try_new(&t8, 1 << 21, 1 << 21).unwrap();
        assert_eq!((plan.ntt().len(), plan.ntt().primes().len()), (1 << 22, 18));
        use crate::multimodular::{WordSizePlan, WordSizes};
        assert!(matches!(
            WordSizePlan::try_new(&t8, 1 << 21, 1 << 21, WordSizes::Integer),
            Ok(WordSizePlan::Words64(_))
        ));
        // Where FP64 runs at the integer rate, primes below 2^50 in FP64
        // instead: 22 of them (1056 bits with the join's 10, 49 a prime).
        let plan = WordSizePlan::try_new(&t8, 1 << 21, 1 << 21, WordSizes::WithFp64).unwrap();
        assert!(matches!(plan, WordSizePlan::Fp64(_)));
        assert_eq!((plan.prime_bits(), plan.primes()), (50, 22));
        for sizes in [WordSizes::Integer, WordSizes::WithFp64] {
            assert!(matches!(
                WordSizePlan::try_new(&t8, 1 << 20, 1 << 20, sizes),
                Ok(WordSizePlan::Words32(_))
            ));
            // Either reaches what the other does, to 2^29 at t16.
            assert!(WordSizePlan::try_new(&t16, 1 << 29, 1 << 29, sizes).is_ok());
            assert_eq!(MultiModular.resolve_with(&t8, 1 << 28, 1 << 28, sizes), MultiModular);
        }
        // Past 2^30, no prime of either width has the 2-adicity.
        assert_eq!(auto::<8>(Preset::T8, 1 << 30, 1 << 30), BigPrime);
        // t64 would need more primes than the device takes.
        assert_eq!(auto::<64>(Preset::T64, 1 << 16, 1 << 16), BigPrime);
        // Explicit choices stay as asked.
        let t64 = Field::<64>::preset(Preset::T64).unwrap();
        assert_eq!(MultiModular.resolve(&t64, 100, 100), MultiModular);
        assert_eq!(BigPrime.resolve(&t64, 100, 100), BigPrime);
    }

    /// Every row of the contest's table: `Auto` takes the word-size primes
    /// for n × n products of its N exactly where the row has them lead, and
    /// a product one longer takes the next row's choice.
    #[test]
    fn auto_follows_the_modelled_contest() {
        use crate::product_contest::MODELLED_PRODUCTS;
        let choice = |lead: bool| {
            if lead {
                CudaMulAlgorithm::MultiModular
            } else {
                CudaMulAlgorithm::BigPrime
            }
        };
        let mut checked = 0;
        for row in MODELLED_PRODUCTS {
            let n = 1usize << row.log2_n;
            let (half, longer) = ((n / 2, n / 2), (n / 2 + 1, n / 2 + 1));
            let next = MODELLED_PRODUCTS
                .iter()
                .find(|r| r.preset == row.preset && r.log2_n == row.log2_n + 1)
                .unwrap_or(row);
            let preset = Preset::from_name(row.preset).unwrap();
            let (got, got_longer) = match row.k {
                8 => (auto::<8>(preset, half.0, half.1), auto::<8>(preset, longer.0, longer.1)),
                16 => (
                    auto::<16>(preset, half.0, half.1),
                    auto::<16>(preset, longer.0, longer.1),
                ),
                k => panic!("{}: k = {k} has no case here", row.preset),
            };
            assert_eq!(
                got,
                choice(row.word_size_primes_lead()),
                "{} 2^{}",
                row.preset,
                row.log2_n
            );
            assert_eq!(
                got_longer,
                choice(next.word_size_primes_lead()),
                "{} past 2^{}",
                row.preset,
                row.log2_n
            );
            checked += 1;
        }
        // The thesis's contest: t8, p8 and t16 from 2^12 to 2^24.
        assert_eq!(checked, 3 * 13);
        for preset in ["t8", "p8", "t16"] {
            let sizes: Vec<u32> = MODELLED_PRODUCTS
                .iter()
                .filter(|r| r.preset == preset)
                .map(|r| r.log2_n)
                .collect();
            assert_eq!(sizes, (12..=24).collect::<Vec<_>>(), "{preset}");
        }
    }

    /// Below and above the sizes counted, the nearest row decides; a preset
    /// the contest lacks (p16) and a custom field take the rows of the
    /// first preset of their k.
    #[test]
    fn auto_reads_the_nearest_row_and_the_same_k() {
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        let row = |field: &Field<8>, log2_n| ModelledProduct::for_product(field, log2_n).unwrap();
        assert_eq!(row(&t8, 0).log2_n, 12);
        assert_eq!(row(&t8, 5).log2_n, 12);
        assert_eq!(row(&t8, 30).log2_n, 24);
        assert_eq!(row(&t8, 17).preset, "t8");
        let p8 = Field::<8>::preset(Preset::P8).unwrap();
        assert_eq!(row(&p8, 17).preset, "p8");
        let custom = Field::<8>::custom(t8.r(), t8.sparse()).unwrap();
        assert_eq!(custom.name(), None);
        assert_eq!(row(&custom, 17), row(&t8, 17));
        let p16 = Field::<16>::preset(Preset::P16).unwrap();
        assert_eq!(ModelledProduct::for_product(&p16, 20).unwrap().preset, "t16");
        for (la, lb) in [(1, 1), (1 << 19, 1 << 19), (1 << 22, 1 << 22)] {
            let n = (la + lb - 1usize).next_power_of_two().trailing_zeros();
            let lead = ModelledProduct::for_product(&p16, n).unwrap().word_size_primes_lead();
            assert_eq!(
                auto::<16>(Preset::P16, la, lb) == CudaMulAlgorithm::MultiModular,
                lead,
                "p16 {la}x{lb}"
            );
        }
        let t4 = Field::<4>::preset(Preset::T4).unwrap();
        assert_eq!(ModelledProduct::for_product(&t4, 20), None);
    }

    /// The geometric mean of the two figures decides where they disagree.
    #[test]
    fn word_size_primes_lead_on_the_two_figures_together() {
        let row = |fitted, floor| ModelledProduct::new("t8", 8, 20, fitted, floor);
        assert!(row(Some(0.9), Some(0.95)).word_size_primes_lead());
        assert!(row(Some(1.2), Some(0.8)).word_size_primes_lead());
        assert!(!row(Some(0.9), Some(1.2)).word_size_primes_lead());
        assert!(!row(Some(1.0), Some(1.0)).word_size_primes_lead());
        assert!(!row(None, None).word_size_primes_lead());
    }

    /// The engines' cache key: the shape of the plan `try_new` makes,
    /// found without its primes; absurd lengths are refused, not a panic.
    #[test]
    fn a_plans_shape_is_its_n_and_primes() {
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        let t16 = Field::<16>::preset(Preset::T16).unwrap();
        for (la, lb) in [(1, 1), (3, 70), (1000, 24), (1 << 15, 1 << 15), (1 << 19, 3)] {
            let plan = MultiModularPlan::try_new(&t8, la, lb).unwrap();
            let shape = (plan.ntt().len(), plan.ntt().primes().len());
            assert_eq!(MultiModularPlan::shape(&t8, la, lb), Ok(shape), "t8 {la}x{lb}");
            let plan = MultiModularPlan::try_new(&t16, la, lb).unwrap();
            let shape = (plan.ntt().len(), plan.ntt().primes().len());
            assert_eq!(MultiModularPlan::shape(&t16, la, lb), Ok(shape), "t16 {la}x{lb}");
        }
        assert!(MultiModularPlan::shape(&t8, 0, 5).is_err());
        assert!(MultiModularPlan::shape(&t8, usize::MAX, 2).is_err());
        assert_eq!(auto::<8>(Preset::T8, usize::MAX, 2), CudaMulAlgorithm::BigPrime);
    }

    #[test]
    fn a_plan_covers_the_lengths_of_its_n_and_primes() {
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        let plan = MultiModularPlan::try_new(&t8, 1000, 24).unwrap();
        assert_eq!(plan.ntt().len(), 1024);
        // Swapped, shorter, or as long as N allows with the shorter side
        // no longer than the primes bound: covered.
        for (la, lb) in [(1000, 24), (24, 1000), (1, 1), (1001, 24), (990, 30)] {
            assert!(plan.covers(la, lb), "{la}x{lb}");
        }
        // Empty, or past N.
        for (la, lb) in [(0, 5), (5, 0), (1000, 26), (1024, 2)] {
            assert!(!plan.covers(la, lb), "{la}x{lb}");
        }
        // A shorter operand past the primes' bound: a t16 plan of 2^16 × 1
        // covers square products exactly up to the shorter length whose
        // own plan needs more primes, though N would hold them.
        let t16 = Field::<16>::preset(Preset::T16).unwrap();
        let long = MultiModularPlan::try_new(&t16, 1 << 16, 1).unwrap();
        let primes = long.ntt().primes().len();
        let mut flipped = false;
        for log2 in 0..=15 {
            let needs = MultiModularPlan::try_new(&t16, 1 << log2, 1 << log2)
                .unwrap()
                .ntt()
                .primes()
                .len();
            assert_eq!(long.covers(1 << log2, 1 << log2), needs <= primes, "2^{log2} squared");
            flipped |= needs > primes;
        }
        assert!(
            flipped,
            "some square product up to 2^15 × 2^15 needs more than {primes} primes"
        );
    }
}
