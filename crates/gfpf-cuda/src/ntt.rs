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
//! // Four short tables a prime: 3·2^8 + 2^14 + 64·16 words at 2^16.
//! assert_eq!(plan.twiddle_table(Direction::Inverse).len(), 2 * (3 * (1 << 8) + (1 << 14) + 64 * 16));
//! # Ok::<(), gfpf_cuda::ntt::NttError>(())
//! ```

use gfpf_plan::Direction;
use gfpf_small::Montgomery32;
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
    /// A multi-modular product would need more primes than it may take
    /// (coefficient by coefficient, about 2·log2(p)/30: k ≤ 16 fits).
    #[error("a product over this field needs {needed} primes below 2^31, more than the {most} it may take")]
    TooManyPrimes {
        /// Primes the coefficients' bound needs.
        needed: usize,
        /// The most a product takes (or the fewest that exist for its length).
        most: usize,
    },
    /// The data do not hold the plan's transforms.
    #[error("{len} words do not hold {transforms} transforms of {n} words")]
    DataLength {
        /// Words given.
        len: usize,
        /// Transforms asked for (primes × transforms a prime).
        transforms: usize,
        /// N.
        n: usize,
    },
    /// A value is not below its transform's prime.
    #[error("word {index} is {value}, not below its prime {q}")]
    NotReduced {
        /// Where, in the data.
        index: usize,
        /// The value.
        value: u32,
        /// The prime of its transform.
        q: u32,
    },
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

// SAFETY: NttParams is #[repr(C)], made only of u64 words (no padding, no
// pointers the driver would need to translate), and matches GfpfNttParams in
// kernels/gfpf_ntt.cu field for field; the kernel takes it by value.
unsafe impl cudarc::driver::DeviceRepr for NttParams {}

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
    max_stages: u32,
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
            max_stages: NTT_TILE_WORDS.trailing_zeros(),
        })
    }

    /// The same plan with at most `max_stages` stages a launch (at least 1;
    /// the last launch takes 6 at least, or all N's if fewer): more
    /// launches, smaller tiles. What the tiles allow is the default; fewer
    /// make small N run launches between the first and the last, for tests.
    pub fn with_max_stages(mut self, max_stages: u32) -> Self {
        self.max_stages = max_stages.clamp(1, NTT_TILE_WORDS.trailing_zeros());
        self
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

    /// The primes' constants as the kernel reads them: eight words a prime,
    /// q, N^−1 mod q, ⌊N^−1·2^32/q⌋, −q^−1 mod 2^32 (Montgomery's), 2^32
    /// mod q and three zeros.
    pub fn prime_constants(&self) -> Vec<u32> {
        self.primes
            .iter()
            .flat_map(|&q| {
                let q64 = u64::from(q);
                let n_inv = inv_mod(self.len() as u64 % q64, q64);
                let m = montgomery(q);
                [
                    q,
                    n_inv as u32,
                    ((n_inv << 32) / q64) as u32,
                    m.neg_q_inv(),
                    m.to_montgomery(1),
                    0,
                    0,
                    0,
                ]
            })
            .collect()
    }

    /// Words of one prime's twiddle tables: 3·2^⌊n/2⌋ + 2^(min(n, 13) + 1)
    /// + 64n.
    pub fn twiddle_words_per_prime(&self) -> usize {
        (3 << (self.log2_n / 2)) + (2 << self.log2_n.min(13)) + 64 * self.log2_n as usize
    }

    /// Per prime, four short tables the kernel makes every twiddle w^e of
    /// (w = ω forward, ω^−1 inverse; see `GfpfNttTwiddles` in
    /// kernels/gfpf_ntt.cu), [`NttPlan31::twiddle_words_per_prime`] words a
    /// prime, primes in order: with s = ⌊n/2⌋ and m = min(n, 13),
    /// - 2^s pairs (w^lo, ⌊w^lo·2^32/q⌋);
    /// - 2^s words w^(hi·2^s)·2^32 mod q (the first 2^(n−1−s) used);
    /// - for each level ℓ < m, 2^ℓ pairs (ρ^j, its Shoup quotient), ρ =
    ///   w^(N/2^(ℓ+1)) of order 2^(ℓ+1), level ℓ from pair 2^ℓ − 1 (one
    ///   pair unused at the end);
    /// - for each stage g < n, 32 pairs (w^(c·2^g), its Shoup quotient),
    ///   c < 32.
    ///
    /// At most 82 KiB a prime up to 2^24: they stay in cache, where a table
    /// of every w^e would be read from memory at every stage.
    pub fn twiddle_table(&self, direction: Direction) -> Vec<u32> {
        let split = self.log2_n / 2;
        let roots_log2 = self.log2_n.min(13);
        let mut table = Vec::with_capacity(self.primes.len() * self.twiddle_words_per_prime());
        for &q in &self.primes {
            let q = u64::from(q);
            let omega = root_of_unity(q, self.log2_n).expect("checked at construction");
            let root = match direction {
                Direction::Forward => omega,
                Direction::Inverse => inv_mod(omega, q),
            };
            let shoup_pairs = |table: &mut Vec<u32>, step: u64, count: u64| {
                let mut w = 1u64;
                for _ in 0..count {
                    table.push(w as u32);
                    table.push(((w << 32) / q) as u32);
                    w = w * step % q;
                }
            };
            shoup_pairs(&mut table, root, 1 << split);
            // The high table's step: root^(2^s).
            let step = gfpf_small::primes::pow_mod(root, 1 << split, q);
            let m = montgomery(q as u32);
            let mut w = 1u64;
            for _ in 0..1u64 << split {
                table.push(m.to_montgomery(w as u32));
                w = w * step % q;
            }
            for level in 0..roots_log2 {
                let rho = gfpf_small::primes::pow_mod(root, 1 << (self.log2_n - 1 - level), q);
                shoup_pairs(&mut table, rho, 1 << level);
            }
            table.extend([0, 0]);
            for g in 0..self.log2_n {
                shoup_pairs(&mut table, gfpf_small::primes::pow_mod(root, 1 << g, q), 32);
            }
        }
        table
    }

    /// The launches of `transforms_per_prime` transforms a prime (data:
    /// prime-major, N words a transform), their addresses left 0 for the
    /// caller: stages grouped so that a tile of 2^L rows by C = min(G, 32)
    /// columns fits [`NTT_TILE_WORDS`]: as few launches as those allow (the
    /// last up to 13 stages on whole blocks of 2^13 elements, the others up
    /// to 8 on 32-column tiles), the stages shared as evenly as they allow;
    /// the inverse runs the same groups in reverse order. Up to N = 2^21: 2
    /// launches (2^20: 8 + 12); up to 2^29: 3 (2^24: 8 + 8 + 8).
    pub fn launches(&self, transforms_per_prime: usize, direction: Direction) -> Vec<NttParams> {
        let n = self.log2_n;
        let transforms = (self.primes.len() * transforms_per_prime) as u64;
        let tile_log2 = NTT_TILE_WORDS.trailing_zeros();
        let mut out = Vec::new();
        // As few launches as the tiles allow (the last one up to 13 stages
        // on whole blocks of neighbouring rows, G = 1; the others up to 8 on
        // 32-column tiles), the stages shared as evenly as they allow: even
        // groups keep every launch's tile, and its twiddles' reuse, large.
        let column_log2 = NTT_TILE_COLUMNS.trailing_zeros();
        // The last launch's tiles hold 64 words at least: two a lane of a
        // warp, which its warp stages need.
        let least_last = n.min(6);
        let most_last = tile_log2.min(self.max_stages).max(least_last);
        let most_other = (tile_log2 - column_log2).min(self.max_stages);
        let launches = 1 + n.saturating_sub(most_last).div_ceil(most_other);
        let last = n
            .saturating_sub(most_other * (launches - 1))
            .max(n.div_ceil(launches))
            .clamp(least_last, most_last);
        let rest = n - last;
        let others = launches - 1;
        let mut sizes: Vec<u32> = (0..others)
            .map(|i| rest / others + u32::from(i < rest % others))
            .collect();
        sizes.push(last);
        let mut first = 0;
        for stages in sizes {
            let remaining = n - first;
            let log2_g = remaining - stages;
            let log2_columns = log2_g.min(column_log2);
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

impl NttPlan31 {
    /// Checks that `len` words are `transforms_per_prime` (≥ 1) transforms
    /// of N words for every prime.
    pub fn check_len(&self, len: usize, transforms_per_prime: usize) -> Result<(), NttError> {
        let transforms = self.primes.len() * transforms_per_prime;
        if transforms_per_prime == 0 || len != transforms * self.len() {
            return Err(NttError::DataLength {
                len,
                transforms,
                n: self.len(),
            });
        }
        Ok(())
    }

    /// Checks that `data` holds `transforms_per_prime` transforms a prime
    /// (prime-major), every word below its prime.
    pub fn check_data(&self, data: &[u32], transforms_per_prime: usize) -> Result<(), NttError> {
        self.check_len(data.len(), transforms_per_prime)?;
        let n = self.len();
        for (index, &value) in data.iter().enumerate() {
            let q = self.primes[index / (transforms_per_prime * n)];
            if value >= q {
                return Err(NttError::NotReduced { index, value, q });
            }
        }
        Ok(())
    }
}

/// Word-size NTTs on a device: a plan's tables kept there, its launches
/// queued on the device's stream.
pub struct CudaNtt31 {
    device: std::sync::Arc<crate::CudaDevice>,
    plan: NttPlan31,
    function: cudarc::driver::CudaFunction,
    forward_table: cudarc::driver::CudaSlice<u32>,
    inverse_table: cudarc::driver::CudaSlice<u32>,
    constants: cudarc::driver::CudaSlice<u32>,
}

impl std::fmt::Debug for CudaNtt31 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaNtt31")
            .field("device", &self.device)
            .field("plan", &self.plan)
            .finish()
    }
}

impl CudaNtt31 {
    /// Loads the kernel (compiled once per device) and uploads the plan's
    /// tables.
    pub fn try_new(device: &std::sync::Arc<crate::CudaDevice>, plan: NttPlan31) -> Result<Self, crate::CudaError> {
        let function = device
            .ntt_module()?
            .load_function(NTT_KERNEL)
            .map_err(|e| crate::CudaError::driver("loading the NTT kernel", 0, e))?;
        let stream = device.stream();
        let upload = |what: &'static str, words: Vec<u32>| {
            stream
                .clone_htod(&words)
                .map_err(|e| crate::CudaError::driver(what, words.len() * 4, e))
        };
        Ok(CudaNtt31 {
            forward_table: upload("uploading the NTT's twiddles", plan.twiddle_table(Direction::Forward))?,
            inverse_table: upload("uploading the NTT's twiddles", plan.twiddle_table(Direction::Inverse))?,
            constants: upload("uploading the NTT's primes", plan.prime_constants())?,
            device: device.clone(),
            function,
            plan,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &NttPlan31 {
        &self.plan
    }

    /// Queues the transforms of `data` on the device's stream, in place:
    /// `transforms_per_prime` transforms a prime, prime-major, N words each,
    /// every word below its prime (not checked here: see [`Self::process`]).
    pub fn process_device(
        &self,
        data: &mut cudarc::driver::CudaSlice<u32>,
        transforms_per_prime: usize,
        direction: Direction,
    ) -> Result<(), crate::CudaError> {
        use cudarc::driver::{DevicePtr, DevicePtrMut};
        self.plan.check_len(data.len(), transforms_per_prime)?;
        let stream = self.device.stream();
        let table = match direction {
            Direction::Forward => &self.forward_table,
            Direction::Inverse => &self.inverse_table,
        };
        let (data_ptr, _data_sync) = data.device_ptr_mut(stream);
        let (table_ptr, _table_sync) = table.device_ptr(stream);
        let (constants_ptr, _constants_sync) = self.constants.device_ptr(stream);
        for launch in self.plan.launches(transforms_per_prime, direction) {
            let params = NttParams {
                data: data_ptr,
                twiddles: table_ptr,
                primes: constants_ptr,
                ..launch
            };
            // SAFETY: the kernel's only argument is GfpfNttParams by value
            // (NttParams mirrors it); data holds the launch's transforms
            // (checked above), the tables and constants are the plan's.
            unsafe {
                crate::fft::launch_with(
                    &self.device,
                    &self.function,
                    &params,
                    params.threads,
                    params.block_threads(),
                )?
            };
        }
        Ok(())
    }

    /// Host words: checked ([`NttPlan31::check_data`]), uploaded,
    /// transformed, downloaded.
    pub fn process(
        &self,
        data: &mut [u32],
        transforms_per_prime: usize,
        direction: Direction,
    ) -> Result<(), crate::CudaError> {
        self.plan.check_data(data, transforms_per_prime)?;
        let stream = self.device.stream();
        let mut words = stream
            .clone_htod(&*data)
            .map_err(|e| crate::CudaError::driver("uploading NTT data", data.len() * 4, e))?;
        self.process_device(&mut words, transforms_per_prime, direction)?;
        stream
            .memcpy_dtoh(&words, data)
            .map_err(|e| crate::CudaError::driver("downloading NTT data", data.len() * 4, e))?;
        Ok(())
    }
}

/// Montgomery arithmetic modulo a prime of a plan (odd, below 2^31: checked
/// when the plan was made).
pub(crate) fn montgomery(q: u32) -> Montgomery32 {
    Montgomery32::new(q).expect("a plan's primes are odd and below 2^31")
}

/// Up to `count` primes in (2^30, 2^31) with 2^`two_adicity` dividing
/// q − 1, largest first: the primes a multi-modular product of length up to
/// 2^`two_adicity` can take (fewer where fewer exist).
pub fn ntt31_primes(two_adicity: u32, count: usize) -> Vec<u64> {
    let step = 1u64 << two_adicity.min(30);
    let mut out = Vec::with_capacity(count);
    let mut c = ((1u64 << 31) - 2) / step;
    while out.len() < count && c > 0 {
        let q = c * step + 1;
        if q <= 1 << 30 {
            break;
        }
        if is_prime(q) {
            out.push(q);
        }
        c -= 1;
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    fn stages(log2_n: u32) -> Vec<u64> {
        let plan = NttPlan31::try_new(1 << log2_n, &NTT_PRIMES_31[..1]).unwrap();
        plan.launches(1, Direction::Forward).iter().map(|l| l.stages).collect()
    }

    #[test]
    fn launches_group_the_stages_evenly_within_the_tiles() {
        assert_eq!(stages(6), [6]);
        assert_eq!(stages(13), [13]);
        assert_eq!(stages(16), [8, 8]);
        assert_eq!(stages(20), [8, 12]);
        assert_eq!(stages(21), [8, 13]);
        assert_eq!(stages(24), [8, 8, 8]);
        let plan = NttPlan31::try_new(1 << 24, &NTT_PRIMES_31).unwrap();
        let forward = plan.launches(3, Direction::Forward);
        let inverse = plan.launches(3, Direction::Inverse);
        // The inverse undoes the same groups, last first.
        assert!(
            forward
                .iter()
                .rev()
                .zip(&inverse)
                .all(|(f, i)| f.first == i.first && i.inverse == 1)
        );
        for l in &forward {
            let tile = 1u64 << (l.stages + l.log2_columns);
            assert!(tile <= NTT_TILE_WORDS as u64 && tile >= 64);
            assert!(l.block_threads() as usize <= NTT_BLOCK_THREADS);
            assert!(tile / u64::from(l.block_threads()) <= NTT_MAX_LANE_ELEMENTS as u64);
        }
    }

    #[test]
    fn refuses_what_it_cannot_transform() {
        assert_eq!(NttPlan31::try_new(32, &NTT_PRIMES_31), Err(NttError::Length(32)));
        assert_eq!(NttPlan31::try_new(100, &NTT_PRIMES_31), Err(NttError::Length(100)));
        assert_eq!(NttPlan31::try_new(64, &[]), Err(NttError::NoPrimes));
        assert_eq!(NttPlan31::try_new(64, &[1 << 31]), Err(NttError::NotPrime(1 << 31)));
        assert_eq!(NttPlan31::try_new(64, &[91]), Err(NttError::NotPrime(91)));
        assert!(matches!(
            NttPlan31::try_new(1 << 25, &[2130706433]),
            Err(NttError::NoRoot {
                two_adicity: 24,
                log2_n: 25,
                ..
            })
        ));
    }

    #[test]
    fn data_are_checked_before_they_reach_a_device() {
        let plan = NttPlan31::try_new(64, &NTT_PRIMES_31[..2]).unwrap();
        let q = plan.primes()[1];
        let mut data = vec![0u32; 2 * 3 * 64];
        assert_eq!(plan.check_data(&data, 3), Ok(()));
        assert_eq!(
            plan.check_data(&data[1..], 3),
            Err(NttError::DataLength {
                len: 383,
                transforms: 6,
                n: 64
            })
        );
        assert!(matches!(plan.check_data(&[], 0), Err(NttError::DataLength { .. })));
        data[3 * 64 + 5] = q;
        assert_eq!(
            plan.check_data(&data, 3),
            Err(NttError::NotReduced {
                index: 3 * 64 + 5,
                value: q,
                q
            })
        );
    }

    #[test]
    fn constants_hold_what_the_kernel_assumes() {
        let plan = NttPlan31::try_new(1 << 10, &NTT_PRIMES_31).unwrap();
        for (c, &q) in plan.prime_constants().chunks(8).zip(plan.primes()) {
            let q64 = u64::from(q);
            assert_eq!(c[0], q);
            assert_eq!(u64::from(c[1]) * 1024 % q64, 1, "N^-1");
            assert_eq!(c[3].wrapping_mul(q), u32::MAX, "-q^-1 mod 2^32");
            assert_eq!(u64::from(c[4]), (1u64 << 32) % q64);
        }
        assert_eq!(
            plan.twiddle_table(Direction::Forward).len(),
            plan.primes().len() * plan.twiddle_words_per_prime()
        );
    }
}
