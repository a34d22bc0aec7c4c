//! Polynomial products over GF(p) through word-size primes on the device,
//! coefficient by coefficient (kernels/gfpf_multimodular.cuh with the
//! word-size NTT of [`crate::ntt`]): each coefficient is projected onto s
//! primes q_j ∈ (2^30, 2^31) (x = Σ d_i·r^i mod q_j), the residues' cyclic
//! convolutions are computed by forward NTTs, a pointwise product and an
//! inverse NTT, and each product coefficient's s residues are joined by the
//! explicit CRT (x = Σ y_j·M/q_j − k·M, k from a double sum) into its value
//! mod p. The primes' product exceeds every coefficient of the integer
//! product (below min(la, lb)·(p − 1)²) 2^10 times over, so the join is
//! exact and the product equals gfpf-cpu's.
//!
//! This module holds the plan (primes, constant tables, launches); the
//! block-level emulator runs it (`gfpf_testkit::emulator::EmulatedMultiModular`).
//! The device launches are not written yet.

use gfpf_field::{Element, Field};
use gfpf_small::primes::inv_mod;

use crate::ntt::{NttError, NttPlan31, montgomery, ntt31_primes};

/// The most primes a product may take: 2·log2(p)/30 and a little, so fields
/// up to k = 16 (t16 takes 68); the join holds K digit sums, not the primes.
pub const MULTIMODULAR_MAX_PRIMES: usize = 96;

/// Bits of room the primes' product leaves above every coefficient, so that
/// the join's double sum finds k exactly.
const JOIN_SLACK_BITS: u32 = 10;

/// Threads a block of the projection, pointwise and join kernels.
pub const MULTIMODULAR_THREADS_PER_BLOCK: u32 = 128;

/// The kernels' symbols.
pub const PROJECT_KERNEL: &str = "gfpf_mm_project";
/// See [`PROJECT_KERNEL`].
pub const POINTWISE_KERNEL: &str = "gfpf_mm_pointwise";
/// See [`PROJECT_KERNEL`].
pub const JOIN_KERNEL: &str = "gfpf_mm_join";
/// Every multi-modular kernel, in the order a product launches them.
pub const MULTIMODULAR_KERNELS: [&str; 3] = [PROJECT_KERNEL, POINTWISE_KERNEL, JOIN_KERNEL];

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
    /// Residues, u32, prime-major, N a prime.
    pub residues: u64,
    /// The pointwise product's second operand.
    pub other: u64,
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
}

// SAFETY: #[repr(C)], u64 words only, the twin of GfpfMultiModularParams in
// kernels/gfpf_multimodular.cuh; kernels take it by value.
unsafe impl cudarc::driver::DeviceRepr for MultiModularParams {}

/// A product's plan: lengths, primes, the NTT plan and the constants.
#[derive(Debug, Clone)]
pub struct MultiModularPlan<const K: usize> {
    field: Field<K>,
    len_a: usize,
    len_b: usize,
    ntt: NttPlan31,
}

impl<const K: usize> MultiModularPlan<K> {
    /// A plan for products of `len_a` by `len_b` coefficients (both ≥ 1):
    /// cyclic convolutions of N = the next power of two of la + lb − 1 (at
    /// least 64), s primes for min(la, lb)·(p − 1)².
    pub fn try_new(field: &Field<K>, len_a: usize, len_b: usize) -> Result<Self, NttError> {
        if len_a == 0 || len_b == 0 {
            return Err(NttError::Length(0));
        }
        let n = (len_a + len_b - 1).next_power_of_two().max(64);
        // Each prime adds more than 30 bits; the bound has at most
        // log2(min) + 2·bits(p) bits.
        let bound_bits = usize::BITS - len_a.min(len_b).leading_zeros() + 2 * field.bits() + JOIN_SLACK_BITS;
        let count = (bound_bits as usize).div_ceil(30);
        if count > MULTIMODULAR_MAX_PRIMES {
            return Err(NttError::TooManyPrimes {
                needed: count,
                most: MULTIMODULAR_MAX_PRIMES,
            });
        }
        let primes = ntt31_primes(n.trailing_zeros(), count);
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
            ntt: NttPlan31::try_new(n, &primes)?,
        })
    }

    /// The word-size NTT plan (one transform a prime).
    pub fn ntt(&self) -> &NttPlan31 {
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

    /// The projection's (and pointwise product's) constants, u32 words:
    /// per prime q, −q^−1 mod 2^32, 2^64 mod q, 0, then for each digit i
    /// (r^i·2^64 mod q, r^i·2^32 mod q).
    pub fn project_constants(&self) -> Vec<u32> {
        let r = self.field.r();
        let mut out = Vec::new();
        for &q in self.ntt.primes() {
            let q64 = u64::from(q);
            let m = montgomery(q);
            // x·2^64 mod q: Montgomery form twice.
            let twice = |x: u32| m.to_montgomery(m.to_montgomery(x));
            out.extend([q, m.neg_q_inv(), twice(1), 0]);
            let mut ri = 1u64;
            for _ in 0..K {
                out.extend([twice(ri as u32), m.to_montgomery(ri as u32)]);
                ri = ri * (r % q64) % q64;
            }
        }
        out
    }

    /// The join's constants, u32 words (see kernels/gfpf_multimodular.cuh):
    /// per prime q_j, −q_j^−1 mod 2^32, (M_j^−1 mod q_j)·2^32 mod q_j, 0 and
    /// 1/q_j as a double (M = Π q_i, M_j = M/q_j); for each j the element
    /// M_j mod p, then −M mod p, as K digits of two words, low first.
    pub fn join_constants(&self) -> Vec<u32> {
        let primes = self.ntt.primes();
        let mut out = Vec::new();
        for (j, &q) in primes.iter().enumerate() {
            let q64 = u64::from(q);
            let m_j = primes
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != j)
                .fold(1u64, |acc, (_, &qi)| acc * (u64::from(qi) % q64) % q64);
            let m = montgomery(q);
            let inverse = m.to_montgomery(inv_mod(m_j, q64) as u32);
            let reciprocal = (1.0 / q as f64).to_bits();
            out.extend([
                q,
                m.neg_q_inv(),
                inverse,
                0,
                reciprocal as u32,
                (reciprocal >> 32) as u32,
            ]);
        }
        let element_of = |q: u32| self.field.from_u64(u64::from(q));
        let m = primes
            .iter()
            .fold(self.field.one(), |acc, &q| self.field.mul(&acc, &element_of(q)));
        let mut push = |x: &Element<K>| {
            for d in x.digits() {
                out.extend([*d as u32, (*d >> 32) as u32]);
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
        out
    }

    /// The launches' parameters, addresses left 0: the projection of
    /// `count` coefficients (one thread a coefficient of N), the pointwise
    /// product, the join of the product's coefficients.
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

    /// See [`MultiModularPlan::project_params`]: one thread a residue.
    pub fn pointwise_params(&self) -> MultiModularParams {
        let p = self.project_params(0);
        MultiModularParams {
            threads: p.primes * p.n,
            ..p
        }
    }

    /// See [`MultiModularPlan::project_params`].
    pub fn join_params(&self) -> MultiModularParams {
        let count = self.product_len() as u64;
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
}
