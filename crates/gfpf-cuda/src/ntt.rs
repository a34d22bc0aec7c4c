//! Word-size NTTs for the device (kernels/gfpf_ntt.cu): transforms of
//! length N = 2^n modulo primes q < 2^31, a batch of transforms over
//! several primes per launch, with their twiddle tables and launches.
//!
//! Order and normalisation: the forward transform takes natural input to
//! bit-reversed output, unscaled: output i is Σ_j x_j·ω^(j·rev(i)), ω =
//! [`gfpf_small::primes::root_of_unity`]`(q, n)`; the inverse takes that
//! order back to natural order and scales by N^−1, so it undoes the forward
//! one, and the pointwise product of two forward transforms, inverted, is
//! the cyclic convolution. Values are fully reduced (in [0, q)) in and out.
//!
//! ```
//! use gfpf_cuda::ntt::NttPlan31;
//! use gfpf_plan::Direction;
//! use gfpf_small::primes::NTT_PRIMES_31;
//!
//! let plan = NttPlan31::try_new(1 << 16, &NTT_PRIMES_31[..2])?;
//! // 2^16 in two launches: 8 stages on tiles of 256 rows by 32 columns,
//! // then the last 8 on whole blocks of 256 elements.
//! assert_eq!(plan.launches(1, Direction::Forward).len(), 2);
//! assert_eq!(plan.twiddle_table(Direction::Inverse).len(), 2 * 2 * (1 << 16));
//! # Ok::<(), gfpf_cuda::ntt::NttError>(())
//! ```

use gfpf_plan::Direction;
/// Primes below 2^31 with 2^24 or more dividing q − 1 (gfpf-small's table),
/// for transforms up to 2^24.
pub use gfpf_small::primes::NTT_PRIMES_31;
use gfpf_small::primes::{inv_mod, is_prime, root_of_unity, two_adicity};

/// Words of shared memory a tile takes at most (`GFPF_NTT_TILE_WORDS`).
pub const NTT_TILE_WORDS: usize = 8192;
/// Threads of a block at most (the kernel's `__launch_bounds__`).
pub const NTT_BLOCK_THREADS: usize = 512;
/// The most elements a lane holds in the warp stages
/// (`GFPF_NTT_MAX_LANE_ELEMENTS`).
pub const NTT_MAX_LANE_ELEMENTS: usize = 16;
/// Columns of a tile at most: 32 words, four 32-byte sectors a row.
pub const NTT_TILE_COLUMNS: usize = 32;
/// The kernel's symbol.
pub const NTT_KERNEL: &str = "gfpf_ntt31_stages";

/// Why a word-size NTT plan was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NttError {
    /// The length is not a power of two of at least 64 (two warps' worth).
    #[error("NTT length {0} is not a power of two from 64 to 2^30")]
    Length(usize),
    /// A modulus is not a prime below 2^31.
    #[error("{0} is not a prime below 2^31")]
    NotPrime(u64),
    /// A prime has no root of unity of the length's order.
    #[error("prime {q} has 2-adicity {two_adicity}, below the length's 2^{log2_n}")]
    NoRoot {
        /// The prime.
        q: u64,
        /// The largest power of two dividing q − 1.
        two_adicity: u32,
        /// log2 of the length.
        log2_n: u32,
    },
    /// No primes were given.
    #[error("an NTT plan needs at least one prime")]
    NoPrimes,
}

/// The kernel's parameters (`GfpfNttParams` in kernels/gfpf_ntt.cu).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NttParams {
    /// Address of the u32 data: transform t's element i at t·N + i.
    pub data: u64,
    /// Address of the twiddle table ([`NttPlan31::twiddle_table`]).
    pub twiddles: u64,
    /// Address of the primes' constants ([`NttPlan31::prime_constants`]).
    pub primes: u64,
    /// Transform t is modulo prime t / `transforms_per_prime`.
    pub transforms_per_prime: u64,
    /// Threads of the launch.
    pub threads: u64,
    /// n.
    pub log2_n: u64,
    /// The first stage the launch runs.
    pub first: u64,
    /// How many stages it runs (L: tiles of 2^L rows).
    pub stages: u64,
    /// log2 of a tile's columns C.
    pub log2_columns: u64,
    /// log2 of a block's threads.
    pub log2_block_threads: u64,
    /// 1 for the inverse transform.
    pub inverse: u64,
}

impl NttParams {
    /// Threads of a block.
    pub fn block_threads(&self) -> u32 {
        1 << self.log2_block_threads
    }
}

/// Forward NTTs of one length over a set of primes: the twiddle tables and
/// the launches, built once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NttPlan31 {
    log2_n: u32,
    primes: Vec<u32>,
}

impl NttPlan31 {
    /// A plan for length `n` modulo each of `primes` (each prime < 2^31 with
    /// n | q − 1).
    pub fn try_new(n: usize, primes: &[u64]) -> Result<Self, NttError> {
        if !n.is_power_of_two() || !(64..=1 << 30).contains(&n) {
            return Err(NttError::Length(n));
        }
        if primes.is_empty() {
            return Err(NttError::NoPrimes);
        }
        let log2_n = n.trailing_zeros();
        for &q in primes {
            if q >= 1 << 31 || !is_prime(q) {
                return Err(NttError::NotPrime(q));
            }
            let two_adicity = two_adicity(q);
            if two_adicity < log2_n {
                return Err(NttError::NoRoot { q, two_adicity, log2_n });
            }
        }
        Ok(NttPlan31 {
            log2_n,
            primes: primes.iter().map(|&q| q as u32).collect(),
        })
    }

    /// The length N.
    pub fn len(&self) -> usize {
        1 << self.log2_n
    }

    /// Always false: a plan's length is at least 64.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The primes.
    pub fn primes(&self) -> &[u32] {
        &self.primes
    }

    /// The primes' constants as the kernel reads them: four words a prime,
    /// q, N^−1 mod q, ⌊N^−1·2^32/q⌋ and 0.
    pub fn prime_constants(&self) -> Vec<u32> {
        self.primes
            .iter()
            .flat_map(|&q| {
                let q64 = u64::from(q);
                let n_inv = inv_mod(self.len() as u64 % q64, q64);
                [q, n_inv as u32, ((n_inv << 32) / q64) as u32, 0]
            })
            .collect()
    }

    /// Per prime, each stage's twiddles as one run of pairs (w^e,
    /// ⌊w^e·2^32/q⌋), w = ω (forward) or ω^−1 (inverse): stage g's
    /// e = m·2^g for m < N/2^(g+1), from pair N − N/2^g on, so that the
    /// neighbouring butterflies of a stage read neighbouring pairs; 2N words
    /// a prime (N − 1 pairs and one unused), primes in order.
    pub fn twiddle_table(&self, direction: Direction) -> Vec<u32> {
        let n = self.len();
        let mut table = Vec::with_capacity(self.primes.len() * 2 * n);
        for &q in &self.primes {
            let q = u64::from(q);
            let omega = root_of_unity(q, self.log2_n).expect("checked at construction");
            let root = match direction {
                Direction::Forward => omega,
                Direction::Inverse => inv_mod(omega, q),
            };
            // Stage g's step is root^(2^g): square as the stages go.
            let mut step = root;
            for g in 0..self.log2_n {
                let mut w = 1u64;
                for _ in 0..n >> (g + 1) {
                    table.push(w as u32);
                    table.push(((w << 32) / q) as u32);
                    w = w * step % q;
                }
                step = step * step % q;
            }
            table.extend([0, 0]);
        }
        table
    }

    /// The launches of `transforms_per_prime` transforms a prime (data:
    /// prime-major, N words a transform), their addresses left 0 for the
    /// caller: stages grouped so that a tile of 2^L rows by C = min(G, 32)
    /// columns fits [`NTT_TILE_WORDS`], the largest groups first; the
    /// inverse runs the same groups in reverse order. Up to N = 2^24: 3
    /// launches (8 + 8 + 8 stages).
    pub fn launches(&self, transforms_per_prime: usize, direction: Direction) -> Vec<NttParams> {
        let n = self.log2_n;
        let transforms = (self.primes.len() * transforms_per_prime) as u64;
        let tile_log2 = NTT_TILE_WORDS.trailing_zeros();
        let mut out = Vec::new();
        let mut first = 0;
        while first < n {
            let remaining = n - first;
            // With 32 columns a tile takes 2^(13 − 5) rows; once the rows
            // left fit a tile whole (G = 1 after them), take them all.
            let stages = if remaining <= tile_log2 {
                remaining
            } else {
                (tile_log2 - NTT_TILE_COLUMNS.trailing_zeros()).min(remaining - NTT_TILE_COLUMNS.trailing_zeros())
            };
            let log2_g = remaining - stages;
            let log2_columns = log2_g.min(NTT_TILE_COLUMNS.trailing_zeros());
            let tile_log2 = stages + log2_columns;
            // E = tile / threads elements a lane, at most 16; at least 2 so
            // that every lane holds a pair's partner group (tiles of 64+).
            let log2_threads = (tile_log2 - 1)
                .min(NTT_BLOCK_THREADS.trailing_zeros())
                .max(tile_log2.saturating_sub(NTT_MAX_LANE_ELEMENTS.trailing_zeros()));
            let blocks = transforms << (n - tile_log2);
            out.push(NttParams {
                transforms_per_prime: transforms_per_prime as u64,
                threads: blocks << log2_threads,
                log2_n: u64::from(n),
                first: u64::from(first),
                stages: u64::from(stages),
                log2_columns: u64::from(log2_columns),
                log2_block_threads: u64::from(log2_threads),
                inverse: u64::from(direction == Direction::Inverse),
                ..NttParams::default()
            });
            first += stages;
        }
        if direction == Direction::Inverse {
            out.reverse();
        }
        out
    }
}

/// The forward transform as the kernel computes it, on the host (an O(N²)
/// sum for checking small lengths): output i is Σ_j x_j·ω^(j·rev_n(i)).
pub fn ntt31_reference(x: &[u32], q: u32) -> Vec<u32> {
    ntt31_reference_outputs(x, q, 0..x.len())
}

/// Outputs `at` of [`ntt31_reference`], each an O(N) sum.
pub fn ntt31_reference_outputs(x: &[u32], q: u32, at: impl IntoIterator<Item = usize>) -> Vec<u32> {
    let n = x.len();
    let log2_n = n.trailing_zeros();
    let q64 = u64::from(q);
    let omega = root_of_unity(q64, log2_n).expect("a root of the length's order");
    at.into_iter()
        .map(|i| {
            let k = (i.reverse_bits() >> (usize::BITS - log2_n)) as u64;
            let step = gfpf_small::primes::pow_mod(omega, k, q64);
            let (mut acc, mut w) = (0u64, 1u64);
            for &xj in x {
                acc = (acc + u64::from(xj) * w) % q64;
                w = w * step % q64;
            }
            acc as u32
        })
        .collect()
}
