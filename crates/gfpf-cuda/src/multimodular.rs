//! Polynomial products over GF(p) through word-size primes on the device,
//! coefficient by coefficient (kernels/gfpf_multimodular.cuh with the
//! word-size NTT of [`crate::ntt`]): each coefficient is projected onto s
//! primes q_j ∈ (2^30, 2^31) in 32-bit words, or where the 31-bit primes
//! with 2^n | q − 1 run out (from N = 2^22 at t8) q_j ∈ (2^61, 2^62) in 64-bit
//! words ([`MultiModularPlan62`]) or q_j ∈ (2^49, 2^50) in 64-bit words whose
//! NTTs run in FP64 ([`MultiModularPlan50`]) (x = Σ d_i·r^i mod q_j), the residues' cyclic
//! convolutions are computed by forward NTTs and an inverse NTT whose first
//! launch makes their pointwise product, and each product coefficient's s residues are joined by the
//! explicit CRT (x = Σ y_j·M/q_j − k·M, k from a double sum) into its value
//! mod p. The primes' product exceeds every coefficient of the integer
//! product (below min(la, lb)·(p − 1)²) 2^10 times over, so the join is
//! exact and the product equals gfpf-cpu's.
//!
//! [`MultiModularPlan`] holds the primes, constant tables and launches;
//! [`CudaMultiModular`] queues them on a device (operands uploaded once, the
//! product read back once), and the block-level emulator runs the same
//! kernels on the host (`gfpf_testkit::emulator::EmulatedMultiModular`).

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaSlice, DevicePtr, DevicePtrMut};
use gfpf_field::{Element, Field};
use gfpf_kernels::DeviceConstants;
use gfpf_plan::Direction;
use gfpf_small::primes::{inv_mod, mul_mod};

use crate::ntt::{CudaNtt, F64Word, NttError, NttPlan, NttWord};
use crate::{CudaDevice, CudaError, DeviceBuffer};

/// The most primes a product may take: 2·log2(p)/30 and a little, so fields
/// up to k = 16 (t16 takes 68); the join holds K digit sums, not the primes.
pub const MULTIMODULAR_MAX_PRIMES: usize = 96;

/// Bits of room the primes' product leaves above every coefficient, so that
/// the join's double sum finds k exactly.
const JOIN_SLACK_BITS: u32 = 10;

/// Threads a block of the projection and join kernels.
pub const MULTIMODULAR_THREADS_PER_BLOCK: u32 = 128;

/// The kernels' symbols (32-bit words).
pub const PROJECT_KERNEL: &str = "gfpf_mm_project";
/// See [`PROJECT_KERNEL`].
pub const JOIN_KERNEL: &str = "gfpf_mm_join";
/// The kernels' symbols in 64-bit words (primes below 2^62).
pub const PROJECT62_KERNEL: &str = "gfpf_mm62_project";
/// See [`PROJECT62_KERNEL`].
pub const JOIN62_KERNEL: &str = "gfpf_mm62_join";
/// The end of the join above k = 8, either word width (in those modules
/// only): the carry past the top digit subtracted, a launch of its own,
/// since the join holding all 16 digits beside its sums spilled (NVRTC
/// 12.9: 52 bytes on sm_80 in 32-bit words, 48–56 on sm_90 in 64-bit ones).
pub const FINISH_KERNEL: &str = "gfpf_mm_finish";
/// Every multi-modular kernel: a product in 32-bit words launches the first
/// two, one in 64-bit words the next two, each in that order, and either
/// the last above k = 8 ([`join_is_split`]).
pub const MULTIMODULAR_KERNELS: [&str; 5] = [
    PROJECT_KERNEL,
    JOIN_KERNEL,
    PROJECT62_KERNEL,
    JOIN62_KERNEL,
    FINISH_KERNEL,
];

/// Whether a product over k digits ends with [`FINISH_KERNEL`] after its
/// join (either word width).
pub fn join_is_split(k: usize) -> bool {
    k > 8
}

/// (projection, join) symbols of words `W`.
pub fn multimodular_kernels<W: NttWord>() -> (&'static str, &'static str) {
    if W::BITS == 64 {
        (PROJECT62_KERNEL, JOIN62_KERNEL)
    } else {
        (PROJECT_KERNEL, JOIN_KERNEL)
    }
}

/// The largest k whose kernel modules hold the multi-modular kernels
/// (kernels/gfpf_fft.cu includes them up to here; k = 32 would need more
/// than [`MULTIMODULAR_MAX_PRIMES`] primes).
pub const MULTIMODULAR_MAX_K: usize = 16;

/// The least theoretical occupancy on sm_90 the multi-modular kernels are
/// held to (with [`MULTIMODULAR_THREADS_PER_BLOCK`]), as the stage kernels
/// are: no stack frame, no spills, at most 64 registers.
pub const MULTIMODULAR_OCCUPANCY_BUDGET: f64 = 0.5;

/// The kernels' parameters (`GfpfMultiModularParams`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MultiModularParams {
    /// Digit-major elements (pitch `count`).
    pub elements: u64,
    /// Residues (words of the plan's width), prime-major, N a prime.
    pub residues: u64,
    /// The constants (projection or join).
    pub constants: u64,
    /// Coefficients read or written.
    pub count: u64,
    /// N.
    pub n: u64,
    /// s.
    pub primes: u64,
    /// Threads of the launch.
    pub threads: u64,
    /// 0, or the address of 2·`count` u64 words: a split join's carries past
    /// the top digit ([`join_is_split`]), which [`FINISH_KERNEL`] reads.
    pub carries: u64,
}

// SAFETY: #[repr(C)], u64 words only, the twin of GfpfMultiModularParams in
// kernels/gfpf_multimodular.cuh; kernels take it by value.
unsafe impl cudarc::driver::DeviceRepr for MultiModularParams {}

/// A product's plan in words `W` (31-bit primes by default; 62-bit with
/// `u64`, [`MultiModularPlan62`]; below 2^50 in FP64 with [`F64Word`],
/// [`MultiModularPlan50`]): lengths, primes, the NTT plan and the
/// constants.
#[derive(Debug, Clone)]
pub struct MultiModularPlan<const K: usize, W: NttWord = u32> {
    field: Field<K>,
    len_a: usize,
    len_b: usize,
    ntt: NttPlan<W>,
}

/// A product's word-size plan in the width the device takes: 31-bit primes
/// where enough of them have the 2-adicity the length asks; past that,
/// primes below 2^50 whose NTTs run in FP64 where the device's FP64 rate is
/// its integer rate ([`WordSizes::WithFp64`]: H100, H200), else 62-bit ones
/// (about half as many as 31-bit ones, four times the work a butterfly).
/// Where both reach, 31-bit primes are the cheaper (the time model's
/// word-size NTT and product rows, docs/DESIGN.md). `CudaPolyMul` and the
/// time model choose by it.
#[derive(Debug, Clone)]
pub enum WordSizePlan<const K: usize> {
    /// Primes below 2^31.
    Words32(MultiModularPlan<K, u32>),
    /// Primes c·2^32 + 1 below 2^62.
    Words64(MultiModularPlan<K, u64>),
    /// Primes c·2^32 + 1 below 2^50, NTTs in FP64.
    Fp64(MultiModularPlan<K, F64Word>),
}

/// The word sizes a device takes for products through word-size primes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordSizes {
    /// 31-bit primes, 62-bit ones past their reach (integer arithmetic: any
    /// GPU).
    Integer,
    /// 31-bit primes, primes below 2^50 in FP64 past their reach (a GPU
    /// whose FP64 rate is its integer rate:
    /// [`CudaDevice::fp64_at_integer_rate`](crate::CudaDevice::fp64_at_integer_rate)).
    WithFp64,
}

impl<const K: usize> WordSizePlan<K> {
    /// [`MultiModularPlan::try_new`] in the width the device takes.
    pub fn try_new(field: &Field<K>, len_a: usize, len_b: usize, sizes: WordSizes) -> Result<Self, NttError> {
        Self::narrowest(
            sizes,
            || MultiModularPlan::try_new(field, len_a, len_b),
            || MultiModularPlan::try_new(field, len_a, len_b),
            || MultiModularPlan::try_new(field, len_a, len_b),
        )
    }

    /// [`MultiModularPlan::transform`] in the width the device takes.
    pub fn transform(field: &Field<K>, n: usize, sizes: WordSizes) -> Result<Self, NttError> {
        Self::narrowest(
            sizes,
            || MultiModularPlan::transform(field, n),
            || MultiModularPlan::transform(field, n),
            || MultiModularPlan::transform(field, n),
        )
    }

    /// The 31-bit plan, or where too few 31-bit primes reach it the FP64 or
    /// 62-bit one; the 31-bit primes' reason where the wider ones cannot
    /// take it either.
    fn narrowest(
        sizes: WordSizes,
        narrow: impl FnOnce() -> Result<MultiModularPlan<K, u32>, NttError>,
        wide: impl FnOnce() -> Result<MultiModularPlan<K, u64>, NttError>,
        fp64: impl FnOnce() -> Result<MultiModularPlan<K, F64Word>, NttError>,
    ) -> Result<Self, NttError> {
        match narrow() {
            Ok(plan) => Ok(WordSizePlan::Words32(plan)),
            Err(e @ NttError::TooManyPrimes { .. }) => match sizes {
                WordSizes::Integer => wide().map(WordSizePlan::Words64).map_err(|_| e),
                WordSizes::WithFp64 => fp64().map(WordSizePlan::Fp64).map_err(|_| e),
            },
            Err(e) => Err(e),
        }
    }

    /// Bits of its primes: 31, 62 or 50.
    pub fn prime_bits(&self) -> u32 {
        match self {
            WordSizePlan::Words32(_) => u32::PRIME_BITS,
            WordSizePlan::Words64(_) => u64::PRIME_BITS,
            WordSizePlan::Fp64(_) => F64Word::PRIME_BITS,
        }
    }

    /// Its primes.
    pub fn primes(&self) -> usize {
        match self {
            WordSizePlan::Words32(plan) => plan.ntt().primes().len(),
            WordSizePlan::Words64(plan) => plan.ntt().primes().len(),
            WordSizePlan::Fp64(plan) => plan.ntt().primes().len(),
        }
    }

    /// Its NTTs' length N.
    pub fn ntt_len(&self) -> usize {
        match self {
            WordSizePlan::Words32(plan) => plan.ntt().len(),
            WordSizePlan::Words64(plan) => plan.ntt().len(),
            WordSizePlan::Fp64(plan) => plan.ntt().len(),
        }
    }
}

/// Products through primes below 2^31 in 32-bit words (the default width).
pub type MultiModularPlan31<const K: usize> = MultiModularPlan<K, u32>;

/// Products through primes c·2^32 + 1 below 2^62, in 64-bit words: about
/// half as many primes, for lengths past the 31-bit primes' reach.
pub type MultiModularPlan62<const K: usize> = MultiModularPlan<K, u64>;

/// Products through primes c·2^32 + 1 below 2^50 whose NTTs run in FP64
/// ([`F64Word`]; projection and join as in 64-bit words).
pub type MultiModularPlan50<const K: usize> = MultiModularPlan<K, F64Word>;

impl<const K: usize, W: NttWord> MultiModularPlan<K, W> {
    /// A plan for products of `len_a` by `len_b` coefficients (both ≥ 1):
    /// cyclic convolutions of N = the next power of two of la + lb − 1 (at
    /// least 64), s primes for min(la, lb)·(p − 1)².
    pub fn try_new(field: &Field<K>, len_a: usize, len_b: usize) -> Result<Self, NttError> {
        let (n, count) = Self::shape(field, len_a, len_b)?;
        Self::with_primes(field, len_a, len_b, n, count)
    }

    /// (N, s) of the plan [`MultiModularPlan::try_new`] makes for these
    /// lengths, without looking for the primes (which takes about 0.1 ms):
    /// plans of one shape cover the same products, so it keys a cache of
    /// them. Errors: an empty operand, a length past the machine's words.
    pub fn shape(field: &Field<K>, len_a: usize, len_b: usize) -> Result<(usize, usize), NttError> {
        if len_a == 0 || len_b == 0 {
            return Err(NttError::Length(0));
        }
        let n = len_a
            .checked_add(len_b - 1)
            .and_then(usize::checked_next_power_of_two)
            .ok_or(NttError::Length(usize::MAX))?
            .max(64);
        Ok((n, Self::primes_needed(field, len_a.min(len_b))))
    }

    /// The thesis's benchmark 1 on the device (chapter 7), for the time
    /// model: N values of GF(p) projected onto the fewest primes that
    /// represent every value below p exactly (with the join's 2^10 of room),
    /// s forward NTTs of size N, and N values joined back. Its output has
    /// the big-prime DFT's size, not its values (the transform is over
    /// Z/mZ, m the primes' product); it multiplies nothing (it
    /// [covers](MultiModularPlan::covers) no product).
    pub fn transform(field: &Field<K>, n: usize) -> Result<Self, NttError> {
        if !n.is_power_of_two() || n < 64 {
            return Err(NttError::Length(n));
        }
        let count = (field.bits() + JOIN_SLACK_BITS).div_ceil(Self::BITS_A_PRIME) as usize;
        Self::with_primes(field, n, 1, n, count)
    }

    fn with_primes(field: &Field<K>, len_a: usize, len_b: usize, n: usize, count: usize) -> Result<Self, NttError> {
        if count > MULTIMODULAR_MAX_PRIMES {
            return Err(NttError::TooManyPrimes {
                needed: count,
                most: MULTIMODULAR_MAX_PRIMES,
            });
        }
        let primes = W::primes(n.trailing_zeros(), count);
        if primes.len() < count {
            return Err(NttError::TooManyPrimes {
                needed: count,
                most: primes.len(),
            });
        }
        Ok(MultiModularPlan {
            field: field.clone(),
            len_a,
            len_b,
            ntt: NttPlan::try_new(n, &primes)?,
        })
    }

    /// Bits each prime adds at least: its primes lie above 2^30 (31-bit),
    /// 2^61 (62-bit) or 2^49 (FP64's).
    const BITS_A_PRIME: u32 = W::PRIME_BITS - 1;

    /// Primes whose product exceeds the coefficients of products whose
    /// shorter operand has `shorter` coefficients, below shorter·(p − 1)²,
    /// 2^10 times over: each prime adds more than [`Self::BITS_A_PRIME`]
    /// bits, the bound has at most log2(shorter) + 2·bits(p) bits.
    fn primes_needed(field: &Field<K>, shorter: usize) -> usize {
        let bound_bits = usize::BITS - shorter.leading_zeros() + 2 * field.bits() + JOIN_SLACK_BITS;
        (bound_bits as usize).div_ceil(Self::BITS_A_PRIME as usize)
    }

    /// The word-size NTT plan (one transform a prime).
    pub fn ntt(&self) -> &NttPlan<W> {
        &self.ntt
    }

    /// The product's length, la + lb − 1.
    pub fn product_len(&self) -> usize {
        self.len_a + self.len_b - 1
    }

    /// (la, lb).
    pub fn operand_lens(&self) -> (usize, usize) {
        (self.len_a, self.len_b)
    }

    /// The projection's constants (see kernels/gfpf_multimodular.cuh), in
    /// 32-bit words: per prime q, −q^−1 mod 2^32, 2^64 mod q, 0, then for
    /// each digit i (r^i·2^64 mod q, r^i·2^32 mod q); in 64-bit words: per
    /// prime q, −q^−1 mod 2^64, 2^64 mod q, 2^128 mod q, then for each digit
    /// i (r^i·2^32 mod q, r^i mod q).
    pub fn project_constants(&self) -> Vec<W> {
        let r = self.field.r();
        let mut out = Vec::new();
        for &q in self.ntt.primes() {
            let q = q.to_u64();
            let pow2 = |e: u32| gfpf_small::primes::pow_mod(2, u64::from(e), q);
            let r_mod_q = (u128::from(r) % u128::from(q)) as u64;
            out.extend([q, W::neg_q_inv(q), pow2(64), if W::BITS == 32 { 0 } else { pow2(128) }]);
            let (high, low) = if W::BITS == 32 {
                (pow2(64), pow2(32))
            } else {
                (pow2(32), 1)
            };
            let mut ri = 1u64;
            for _ in 0..K {
                out.extend([mul_mod(ri, high, q), mul_mod(ri, low, q)]);
                ri = mul_mod(ri, r_mod_q, q);
            }
        }
        out.into_iter().map(W::from_u64).collect()
    }

    /// The join's constants (see kernels/gfpf_multimodular.cuh), in words
    /// `W`: per prime q_j, −q_j^−1 mod 2^w, (M_j^−1 mod q_j)·2^w mod q_j and
    /// 1/q_j as a double's bits (M = Π q_i, M_j = M/q_j; in 32-bit words a 0
    /// before the double, whose bits take two words, low first); for each j
    /// the element M_j mod p, then −M mod p, as K digits (two words each in
    /// 32-bit words, low first).
    pub fn join_constants(&self) -> Vec<W> {
        let primes: Vec<u64> = self.ntt.primes().iter().map(|q| q.to_u64()).collect();
        let mut out: Vec<u64> = Vec::new();
        // A 64-bit value: one word, or two (low first).
        let push_u64 = |out: &mut Vec<u64>, v: u64| {
            if W::BITS == 32 {
                out.extend([v & 0xffff_ffff, v >> 32]);
            } else {
                out.push(v);
            }
        };
        for (j, &q) in primes.iter().enumerate() {
            let m_j = primes
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != j)
                .fold(1u64, |acc, (_, &qi)| mul_mod(acc, qi, q));
            let inverse = mul_mod(
                inv_mod(m_j, q),
                gfpf_small::primes::pow_mod(2, u64::from(W::BITS), q),
                q,
            );
            out.extend([q, W::neg_q_inv(q), inverse]);
            if W::BITS == 32 {
                out.push(0);
            }
            push_u64(&mut out, (1.0 / q as f64).to_bits());
        }
        let element_of = |q: u64| self.field.from_u64(q);
        let m = primes
            .iter()
            .fold(self.field.one(), |acc, &q| self.field.mul(&acc, &element_of(q)));
        let mut push = |x: &Element<K>| {
            for &d in x.digits() {
                push_u64(&mut out, d);
            }
        };
        for (j, _) in primes.iter().enumerate() {
            let m_j = primes
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != j)
                .fold(self.field.one(), |acc, (_, &qi)| self.field.mul(&acc, &element_of(qi)));
            push(&m_j);
        }
        push(&self.field.neg(&m));
        out.into_iter().map(W::from_u64).collect()
    }

    /// The launches' parameters, addresses left 0: the projection of
    /// `count` coefficients (one thread a coefficient of N), the join of the
    /// product's coefficients.
    pub fn project_params(&self, count: usize) -> MultiModularParams {
        let n = self.ntt.len() as u64;
        MultiModularParams {
            count: count as u64,
            n,
            primes: self.ntt.primes().len() as u64,
            threads: n,
            ..MultiModularParams::default()
        }
    }

    /// See [`MultiModularPlan::project_params`]: the join of `count`
    /// product coefficients (at most N).
    pub fn join_params(&self, count: usize) -> MultiModularParams {
        let count = count as u64;
        MultiModularParams {
            threads: count,
            count,
            ..self.project_params(0)
        }
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        &self.field
    }

    /// Whether the plan computes products of `len_a` by `len_b` coefficients
    /// exactly: both at least 1, the product no longer than N, and its
    /// coefficients within the primes' bound. Every plan with the same N
    /// and number of primes covers the same lengths.
    pub fn covers(&self, len_a: usize, len_b: usize) -> bool {
        len_a >= 1
            && len_b >= 1
            && len_a + len_b - 1 <= self.ntt.len()
            && Self::primes_needed(&self.field, len_a.min(len_b)) <= self.ntt.primes().len()
    }
}

/// Products through word-size primes on one device: a plan's kernels
/// (compiled once per device and field), its NTTs and constant tables kept
/// on the device.
pub struct CudaMultiModular<const K: usize, W: NttWord = u32> {
    device: Arc<CudaDevice>,
    plan: MultiModularPlan<K, W>,
    ntt: CudaNtt<W>,
    project: CudaFunction,
    join: CudaFunction,
    /// [`FINISH_KERNEL`] where the join is split ([`join_is_split`]).
    finish: Option<CudaFunction>,
    project_constants: CudaSlice<W>,
    join_constants: CudaSlice<W>,
}

impl<const K: usize, W: NttWord> std::fmt::Debug for CudaMultiModular<K, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaMultiModular")
            .field("device", &self.device)
            .field("plan", &self.plan)
            .finish()
    }
}

impl<const K: usize, W: NttWord> CudaMultiModular<K, W> {
    /// Loads the kernels and uploads the plan's tables.
    pub fn try_new(device: &Arc<CudaDevice>, plan: MultiModularPlan<K, W>) -> Result<Self, CudaError> {
        // The element-wise kernels' part of the smallest base size's module.
        let module = device.module(
            &DeviceConstants::of(&plan.field),
            gfpf_kernels::device_base_sizes(K)[0],
            gfpf_kernels::ModulePart::Teams,
        )?;
        let load = |symbol: &str| {
            module
                .load_function(symbol)
                .map_err(|e| CudaError::driver("loading a multi-modular kernel", 0, e))
        };
        let upload = |what: &'static str, words: Vec<W>| {
            device
                .stream()
                .clone_htod(&words)
                .map_err(|e| CudaError::driver(what, std::mem::size_of_val(&words[..]), e))
        };
        let (project, join) = multimodular_kernels::<W>();
        Ok(CudaMultiModular {
            device: Arc::clone(device),
            ntt: CudaNtt::try_new(device, plan.ntt.clone())?,
            project: load(project)?,
            join: load(join)?,
            finish: if join_is_split(K) {
                Some(load(FINISH_KERNEL)?)
            } else {
                None
            },
            project_constants: upload("uploading the projection's constants", plan.project_constants())?,
            join_constants: upload("uploading the join's constants", plan.join_constants())?,
            plan,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &MultiModularPlan<K, W> {
        &self.plan
    }

    /// The product a·b of host coefficient vectors (lengths the plan
    /// [covers](MultiModularPlan::covers)), la + lb − 1 coefficients: both
    /// uploaded once, the product read back once.
    pub fn mul(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, CudaError> {
        let a = DeviceBuffer::upload(&self.device, a)?;
        let b = DeviceBuffer::upload(&self.device, b)?;
        self.mul_device(&a, &b)?.download(&self.device, &self.plan.field)
    }

    /// The product of two device buffers (lengths the plan covers), queued
    /// on the device's stream: projections, forward NTTs, the inverse NTT
    /// (its first launch making the pointwise product) and the join, with 2·s·N words of residues
    /// as scratch.
    pub fn mul_device(&self, a: &DeviceBuffer<K>, b: &DeviceBuffer<K>) -> Result<DeviceBuffer<K>, CudaError> {
        let (la, lb) = (a.len(), b.len());
        if !self.plan.covers(la, lb) {
            return Err(CudaError::OperandLengths {
                len_a: la,
                len_b: lb,
                n: self.plan.ntt.len(),
                primes: self.plan.ntt.primes().len(),
            });
        }
        let stream = self.device.stream();
        let words = self.plan.ntt.primes().len() * self.plan.ntt.len();
        let residues = || {
            stream
                .alloc_zeros::<W>(words)
                .map_err(|e| CudaError::driver("allocating residues", words * std::mem::size_of::<W>(), e))
        };
        let (mut x, mut y) = (residues()?, residues()?);
        self.project(a, &mut x)?;
        self.project(b, &mut y)?;
        self.ntt.process_device(&mut x, 1, Direction::Forward)?;
        self.ntt.process_device(&mut y, 1, Direction::Forward)?;
        // The pointwise product made as the inverse's first launch reads x.
        self.ntt.process_device_times(&mut x, &y, 1, Direction::Inverse)?;
        let mut product = DeviceBuffer::zeros(&self.device, la + lb - 1)?;
        {
            let (x_ptr, _x_sync) = x.device_ptr(stream);
            let (out, _out_sync) = product.words.device_ptr_mut(stream);
            let (constants, _constants_sync) = self.join_constants.device_ptr(stream);
            // A split join's carries go where y's residues were, no longer
            // read: 2·(la + lb − 1) ≤ 2N u64 words, where y holds s·N words
            // of W, and s ≥ 34 wherever the join is split (k > 8).
            debug_assert!(self.finish.is_none() || 16 * (la + lb - 1) <= words * std::mem::size_of::<W>());
            let (carries, _carries_sync) = y.device_ptr_mut(stream);
            let params = MultiModularParams {
                residues: x_ptr,
                elements: out,
                constants,
                carries: if self.finish.is_some() { carries } else { 0 },
                ..self.plan.join_params(la + lb - 1)
            };
            // SAFETY: x holds s·N residues, the product la + lb − 1 elements
            // digit-major (pitch la + lb − 1 = count), the constants are the
            // plan's join constants.
            unsafe { self.launch(&self.join, &params)? };
            if let Some(finish) = &self.finish {
                // SAFETY: as the join's: it reads and writes the product's
                // elements and reads the carries the join left in y.
                unsafe { self.launch(finish, &params)? };
            }
        }
        Ok(product)
    }

    /// Queues the projection of `elements` onto every prime into `residues`.
    fn project(&self, elements: &DeviceBuffer<K>, residues: &mut CudaSlice<W>) -> Result<(), CudaError> {
        let stream = self.device.stream();
        let (out, _out_sync) = residues.device_ptr_mut(stream);
        let (words, _words_sync) = elements.words.device_ptr(stream);
        let (constants, _constants_sync) = self.project_constants.device_ptr(stream);
        let params = MultiModularParams {
            elements: words,
            residues: out,
            constants,
            ..self.plan.project_params(elements.len())
        };
        // SAFETY: the elements are `count` digit-major (pitch count ≤ N, the
        // plan covers the operand), the residues s·N words, the constants
        // the plan's projection constants.
        unsafe { self.launch(&self.project, &params) }
    }

    /// # Safety
    /// `params` must address live buffers of the sizes the kernel reads and
    /// writes for them.
    unsafe fn launch(&self, function: &CudaFunction, params: &MultiModularParams) -> Result<(), CudaError> {
        // SAFETY: the multi-modular kernels take GfpfMultiModularParams by
        // value (MultiModularParams mirrors it); the caller vouches for the
        // addresses.
        unsafe {
            crate::fft::launch_with(
                &self.device,
                function,
                params,
                params.threads,
                MULTIMODULAR_THREADS_PER_BLOCK,
            )
        }
    }
}
