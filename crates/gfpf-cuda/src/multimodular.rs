//! Polynomial products over GF(p) through word-size primes on the device,
//! coefficient by coefficient (kernels/gfpf_multimodular.cuh with the
//! word-size NTT of [`crate::ntt`]): each coefficient is projected onto s
//! primes q_j ∈ (2^30, 2^31) (x = Σ d_i·r^i mod q_j), the residues' cyclic
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
use gfpf_small::primes::inv_mod;

use crate::ntt::{CudaNtt31, NttError, NttPlan31, montgomery, ntt31_primes};
use crate::{CudaDevice, CudaError, DeviceBuffer};

/// The most primes a product may take: 2·log2(p)/30 and a little, so fields
/// up to k = 16 (t16 takes 68); the join holds K digit sums, not the primes.
pub const MULTIMODULAR_MAX_PRIMES: usize = 96;

/// Bits of room the primes' product leaves above every coefficient, so that
/// the join's double sum finds k exactly.
const JOIN_SLACK_BITS: u32 = 10;

/// Threads a block of the projection and join kernels.
pub const MULTIMODULAR_THREADS_PER_BLOCK: u32 = 128;

/// The kernels' symbols.
pub const PROJECT_KERNEL: &str = "gfpf_mm_project";
/// See [`PROJECT_KERNEL`].
pub const JOIN_KERNEL: &str = "gfpf_mm_join";
/// Every multi-modular kernel, in the order a product launches them.
pub const MULTIMODULAR_KERNELS: [&str; 2] = [PROJECT_KERNEL, JOIN_KERNEL];

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
        let count = (field.bits() + JOIN_SLACK_BITS).div_ceil(30) as usize;
        Self::with_primes(field, n, 1, n, count)
    }

    fn with_primes(field: &Field<K>, len_a: usize, len_b: usize, n: usize, count: usize) -> Result<Self, NttError> {
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

    /// Primes of 31 bits whose product exceeds the coefficients of products
    /// whose shorter operand has `shorter` coefficients, below
    /// shorter·(p − 1)², 2^10 times over: each prime adds more than 30
    /// bits, the bound has at most log2(shorter) + 2·bits(p) bits.
    fn primes_needed(field: &Field<K>, shorter: usize) -> usize {
        let bound_bits = usize::BITS - shorter.leading_zeros() + 2 * field.bits() + JOIN_SLACK_BITS;
        (bound_bits as usize).div_ceil(30)
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

    /// The projection's constants, u32 words:
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
pub struct CudaMultiModular<const K: usize> {
    device: Arc<CudaDevice>,
    plan: MultiModularPlan<K>,
    ntt: CudaNtt31,
    project: CudaFunction,
    join: CudaFunction,
    project_constants: CudaSlice<u32>,
    join_constants: CudaSlice<u32>,
}

impl<const K: usize> std::fmt::Debug for CudaMultiModular<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaMultiModular")
            .field("device", &self.device)
            .field("plan", &self.plan)
            .finish()
    }
}

impl<const K: usize> CudaMultiModular<K> {
    /// Loads the kernels and uploads the plan's tables.
    pub fn try_new(device: &Arc<CudaDevice>, plan: MultiModularPlan<K>) -> Result<Self, CudaError> {
        let module = device.module(&DeviceConstants::of(&plan.field), gfpf_kernels::device_base_sizes(K)[0])?;
        let load = |symbol: &str| {
            module
                .load_function(symbol)
                .map_err(|e| CudaError::driver("loading a multi-modular kernel", 0, e))
        };
        let upload = |what: &'static str, words: Vec<u32>| {
            device
                .stream()
                .clone_htod(&words)
                .map_err(|e| CudaError::driver(what, words.len() * 4, e))
        };
        Ok(CudaMultiModular {
            device: Arc::clone(device),
            ntt: CudaNtt31::try_new(device, plan.ntt.clone())?,
            project: load(PROJECT_KERNEL)?,
            join: load(JOIN_KERNEL)?,
            project_constants: upload("uploading the projection's constants", plan.project_constants())?,
            join_constants: upload("uploading the join's constants", plan.join_constants())?,
            plan,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &MultiModularPlan<K> {
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
                .alloc_zeros::<u32>(words)
                .map_err(|e| CudaError::driver("allocating residues", words * 4, e))
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
            let params = MultiModularParams {
                residues: x_ptr,
                elements: out,
                constants,
                ..self.plan.join_params(la + lb - 1)
            };
            // SAFETY: x holds s·N residues, the product la + lb − 1 elements
            // digit-major (pitch la + lb − 1 = count), the constants are the
            // plan's join constants.
            unsafe { self.launch(&self.join, &params)? };
        }
        Ok(product)
    }

    /// Queues the projection of `elements` onto every prime into `residues`.
    fn project(&self, elements: &DeviceBuffer<K>, residues: &mut CudaSlice<u32>) -> Result<(), CudaError> {
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
