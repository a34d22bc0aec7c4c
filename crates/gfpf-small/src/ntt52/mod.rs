//! Number-theoretic transforms modulo a prime q < 2^50 in 52-bit lanes: the
//! AVX-512 IFMA instructions (`vpmadd52luq` / `vpmadd52huq`) multiply eight
//! 52-bit words at once with their full 104-bit products, which is exactly
//! what Shoup's multiplication needs, so eight butterflies run per
//! instruction sequence.
//!
//! **Contract** (the same as [`crate::Plan`]'s): [`Plan52::forward`] maps
//! natural-order x (values < q) to the bit-reversed spectrum
//! `y[bitrev(i)] = Σ_j x_j ω^(ij)`, values < q, not scaled;
//! [`Plan52::inverse`] maps it back and scales by n^(-1). ω = θ², θ =
//! [`crate::root_of_unity`]`(q, m + 1)`: the same roots as [`crate::Plan`],
//! so both give identical outputs for the same prime.
//!
//! **Arithmetic.** Harvey's lazy butterflies with values in [0, 2q) between
//! layers (4q < 2^52, hence q < 2^50) and Shoup's multiplication in base
//! 2^52: for a fixed twiddle w < q with companion w' = ⌊w·2^52 / q⌋ and any
//! x < 2^52, q̂ = ⌊x·w' / 2^52⌋ and r = (x·w − q̂·q) mod 2^52 lies in [0, 2q).
//! "Subtract m if ≥ m" is `min(x, x − m)` in unsigned lanes (x − m wraps
//! above x when x < m): no branches, no masks.
//!
//! **Instruction sets**, chosen at run time ([`Isa::best`]): AVX-512 IFMA
//! where the CPU has it, else AVX2 with FMA, else the scalar path, which runs
//! the same arithmetic on `u128` and is what other CPUs (and aarch64) use.
//! [`Isa::available`] lists what this CPU can run; the tests check every one
//! against [`crate::Plan`]. With IFMA, layers of half-size ≥ 16 go two per
//! pass over memory, h = 8 alone, and the three smallest layers (h = 4, 2, 1)
//! run on 16 elements at a time entirely in registers, the butterflies'
//! inputs gathered and scattered with `vpermt2q`.
//!
//! **AVX2 + FMA** has no 52-bit integer multiplier, so that path computes in
//! f64 lanes, as FLINT's fft_small does: the values are converted once to
//! exact f64 integers, products are made exact by one FMA (h = fl(x·w),
//! ℓ = x·w − h), the quotient is estimated from w/q stored next to each
//! twiddle, and values stay signed in |v| ≤ 2q + 1 (see [`avx2`]). Same
//! passes as IFMA, four lanes, the small layers on 8 elements in registers.
//!
//! **Cache blocking.** Transforms longer than [`NTT52_BLOCK_LEN`] are rows
//! of one block each. The layers of half-size ≥ the block combine rows only:
//! they run strip by strip of columns ([`NTT52_STRIP_LEN`] words a strip,
//! all those layers while the strip is in L2), the smaller layers block by
//! block (each block a whole sub-transform). Two passes over memory for any
//! n; the forward reduction and the inverse scaling (first: it is linear)
//! go inside them.
//!
//! **Threads** (feature `parallel`, on by default): from
//! [`NTT52_PARALLEL_MIN_LEN`] words, when rayon has more than one thread,
//! [`Plan52::forward`] and [`Plan52::inverse`] give strips and blocks to
//! rayon's threads (blocks of n/4 or less, so that there are always at
//! least four). Same outputs bit for bit. The crate-internal lazy
//! transforms that [`crate::BivariateConvolution`] runs row by row stay on
//! one thread: its caller parallelises across rows.
//!
//! **Measured** (`cargo bench --bench ntt`, group `ntt/q50`, and one
//! alternating run of the same pairs; forward + inverse, one thread, the
//! project's 2-core AMD EPYC VM with AVX-512 IFMA, 2026-11-23, against
//! `concrete-ntt` 0.2 (AVX2) on the same 50-bit prime in the same run), ns
//! per butterfly and time ratio to concrete-ntt:
//!
//! | n | IFMA | AVX2 + FMA | scalar | concrete-ntt |
//! |---|---|---|---|---|
//! | 2^10 | 0.34 (0.47) | 0.33 (0.45) | 2.01 (2.79) | 0.72 |
//! | 2^14 | 0.28 (0.41) | 0.32 (0.46) | 1.95 (2.83) | 0.69 |
//! | 2^18 | 0.29 (0.41) | 0.33 (0.47) | 1.97 (2.77) | 0.71 |
//! | 2^20 | 0.34 (0.45) | 0.37 (0.50) | 1.98 (2.66) | 0.75 |
//! | 2^22 | 0.44 (0.57) | 0.50 (0.66) | 1.99 (2.63) | 0.76 |
//!
//! History: scalar small layers with radix-2 passes 1.0–1.5x concrete-ntt;
//! two layers per pass 0.78–1.33x; the small layers in registers gave
//! 0.37–0.56 up to 2^20 but 0.73–0.83 at 2^22 (11 passes over memory); the
//! blocking (4 passes) 0.55–0.57 there. Blocks of 2^12 words measured 0.60
//! at 2^22, 2^16 the same as 2^14. The strips (2 passes) measured the same
//! as 4 passes on one thread (0.44 ns at 2^22 both): the blocked transform
//! is compute-bound here; they are kept because they give threads
//! independent work.
//!
//! **Two threads** (same VM, IFMA, same run, ns per butterfly, one thread →
//! two): 2^14 0.28 → 0.28 (hence the threshold 2^15), 2^15 0.28 → 0.20,
//! 2^16 0.28 → 0.17–0.20, 2^18 0.28 → 0.15, 2^20 0.33 → 0.18, 2^22 0.44
//! → 0.22: 1.4x at 2^15, 1.9–2.0x from 2^18.

use crate::SmallError;
use crate::ntt::{checked_roots, for_each_layer_power};
use crate::primes::inv_mod;

/// The largest modulus (exclusive): lazy values stay below 4q < 2^52.
pub const NTT52_MAX_MODULUS: u64 = 1 << 50;

/// Transforms longer than this run their layers of half-size below it block
/// by block (each block a whole sub-transform that stays in the L2 cache),
/// the larger layers over the whole array: a transform of 2^22 words then
/// makes 4 passes over memory instead of 11.
pub const NTT52_BLOCK_LEN: usize = 1 << 14;

/// About how many words a strip of columns holds while the layers of
/// half-size ≥ [`NTT52_BLOCK_LEN`] run on it (it stays in L2).
pub const NTT52_STRIP_LEN: usize = 1 << 15;

/// Transforms of at least this many words use several threads in
/// [`Plan52::forward`] and [`Plan52::inverse`] (feature `parallel`).
pub const NTT52_PARALLEL_MIN_LEN: usize = 1 << 15;

pub(crate) const MASK52: u64 = (1 << 52) - 1;

/// How [`crate::BivariateConvolution::project_words`] writes into the rows
/// (its kernels live in the instruction sets' modules here, so the type
/// does too: the convolutions use this module, never the reverse).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Accumulate {
    /// Overwrite.
    Store,
    /// Add modulo q.
    Add,
    /// Subtract modulo q.
    Subtract,
}

/// The instruction set a [`Plan52`] runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Isa {
    /// Plain 64-bit code (any CPU).
    Scalar,
    /// AVX2 with FMA: four f64 lanes holding the values as exact integers
    /// (error-free products by FMA, as FLINT's fft_small does).
    Avx2Fma,
    /// AVX-512F with IFMA: eight 52-bit lanes.
    Avx512Ifma,
}

impl Isa {
    /// The fastest instruction set this CPU has.
    pub fn best() -> Isa {
        *Isa::available().last().unwrap_or(&Isa::Scalar)
    }

    /// `Ok(self)` when this CPU can run it, else
    /// [`SmallError::IsaUnavailable`]: the check behind every `with_isa`.
    pub fn ensure_available(self) -> Result<Isa, SmallError> {
        if Isa::available().contains(&self) {
            Ok(self)
        } else {
            Err(SmallError::IsaUnavailable(format!("{self:?}")))
        }
    }

    /// How many leading elements of a slice of `len` the vector code takes
    /// (whole groups of eight lanes with IFMA, none in scalar code); the
    /// scalar loop does the rest.
    pub(crate) fn vector_len(self, len: usize) -> usize {
        match self {
            Isa::Avx512Ifma => len / 8 * 8,
            Isa::Avx2Fma => len / 4 * 4,
            Isa::Scalar => 0,
        }
    }

    /// Every instruction set this CPU can run (the tests run each).
    /// The order is slowest first.
    pub fn available() -> Vec<Isa> {
        #[allow(unused_mut)]
        let mut out = vec![Isa::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx2") && has!("fma") {
                out.push(Isa::Avx2Fma);
            }
            if has!("avx512f") && has!("avx512ifma") {
                out.push(Isa::Avx512Ifma);
            }
        }
        out
    }
}

/// A fixed multiplier w < q and its 52-bit Shoup companion ⌊w·2^52 / q⌋,
/// stored as two parallel tables so that vector code loads eight of each.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Twiddles {
    pub(crate) value: Vec<u64>,
    pub(crate) companion: Vec<u64>,
}

impl Twiddles {
    /// The layer of half-size h: its h values and companions.
    fn layer(&self, h: usize) -> (&[u64], &[u64]) {
        (&self.value[h - 1..2 * h - 1], &self.companion[h - 1..2 * h - 1])
    }

    pub(crate) fn push(&mut self, w: u64, q: u64) {
        self.value.push(w);
        self.companion.push(companion52(w, q));
    }
}

/// The butterflies of one pass of a column transform on R ∈ {1, 2, 4, 8}
/// values, written out so that they run in registers: forward (DIF) the
/// layer of half-distance R/2 first, down to 1; inverse (DIT) from 1 up;
/// within a layer by increasing position. `butterfly(x, y, b, unit)` gives
/// the new pair for butterfly b; `unit` says that its factor is 1 when the
/// group's rows are consecutive (the pass of half-size 1, where the pair
/// (lo, lo + d) has factor ω_(2d)^(lo mod 2d)).
/// [`crate::conv52::columns::pass_butterflies`] reads its order from here.
#[inline(always)]
pub(crate) fn pass_in_registers<T: Copy, const R: usize>(
    v: &mut [T; R],
    forward: bool,
    mut butterfly: impl FnMut(T, T, usize, bool) -> (T, T),
) {
    // Written out pair by pair: as a loop over a table of pairs, LLVM kept
    // the values on the stack (and the kernels took 1.1x the layer-by-layer
    // passes they replace).
    macro_rules! run {
        ($(($lo:literal, $hi:literal)),*) => {{
            let mut b = 0;
            $(
                (v[$lo], v[$hi]) = butterfly(v[$lo], v[$hi], b, $lo % (2 * ($hi - $lo)) == 0);
                b += 1;
            )*
            let _ = b;
        }};
    }
    match (R, forward) {
        (2, _) => run!((0, 1)),
        (4, true) => run!((0, 2), (1, 3), (0, 1), (2, 3)),
        (4, false) => run!((0, 1), (2, 3), (0, 2), (1, 3)),
        (8, true) => run!(
            (0, 4),
            (1, 5),
            (2, 6),
            (3, 7),
            (0, 2),
            (1, 3),
            (4, 6),
            (5, 7),
            (0, 1),
            (2, 3),
            (4, 5),
            (6, 7)
        ),
        (8, false) => run!(
            (0, 1),
            (2, 3),
            (4, 5),
            (6, 7),
            (0, 2),
            (1, 3),
            (4, 6),
            (5, 7),
            (0, 4),
            (1, 5),
            (2, 6),
            (3, 7)
        ),
        _ => {}
    }
}

/// The most butterflies one pass of a column transform has
/// ([`crate::conv52::columns::ColumnGroup`]): three layers of four.
#[cfg(target_arch = "x86_64")]
pub(crate) const PASS_FACTORS: usize = 12;

/// The 52-bit Shoup companion ⌊w·2^52 / q⌋ of a fixed multiplier w < q.
#[inline]
pub(crate) fn companion52(w: u64, q: u64) -> u64 {
    (((w as u128) << 52) / q as u128) as u64
}

/// x·w mod q in [0, 2q) for x < 2^52 (Shoup in base 2^52).
#[inline(always)]
pub(crate) fn mul_lazy(x: u64, w: u64, companion: u64, q: u64) -> u64 {
    let estimate = ((x as u128 * companion as u128) >> 52) as u64;
    (x.wrapping_mul(w).wrapping_sub(estimate.wrapping_mul(q))) & MASK52
}

/// x − m if x ≥ m, else x (branch-free).
#[inline(always)]
pub(crate) fn sub_if_ge(x: u64, m: u64) -> u64 {
    x.min(x.wrapping_sub(m))
}

/// A transform of length n modulo q < 2^50, with its twiddle tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan52 {
    n: usize,
    q: u64,
    /// Forward twiddles, layer by layer: the layer of half-size h holds
    /// ω_(2h)^j, j < h, from offset h − 1.
    forward: Twiddles,
    /// Inverse twiddles, same layout, powers of ω^(-1).
    inverse: Twiddles,
    /// n^(-1) and its companion.
    n_inv: (u64, u64),
    isa: Isa,
    /// The tables as f64 (value, value / q), built for [`Isa::Avx2Fma`] only.
    float: Option<Box<FloatTables>>,
}

/// A plan's twiddles and n^(−1) as f64 bit patterns: each value w < q as an
/// exact f64 and its companion w / q rounded (the quotient estimate of
/// [`avx2`]'s multiplication).
#[derive(Debug, Clone, PartialEq, Eq)]
struct FloatTables {
    forward: Twiddles,
    inverse: Twiddles,
    n_inv: (u64, u64),
}

impl FloatTables {
    fn new(plan: &Plan52) -> Self {
        let q = plan.q as f64;
        let pair = |w: u64| ((w as f64).to_bits(), (w as f64 / q).to_bits());
        let convert = |t: &Twiddles| {
            let (value, companion) = t.value.iter().map(|&w| pair(w)).unzip();
            Twiddles { value, companion }
        };
        FloatTables {
            forward: convert(&plan.forward),
            inverse: convert(&plan.inverse),
            n_inv: pair(plan.n_inv.0),
        }
    }
}

impl Plan52 {
    /// A plan for length n (a power of two ≥ 1) modulo the prime q < 2^50
    /// with 2n | q − 1, on the fastest instruction set of this CPU.
    pub fn try_new(n: usize, q: u64) -> Result<Self, SmallError> {
        let (_, omega) = checked_roots(n, q, NTT52_MAX_MODULUS, "a 52-bit-lane NTT plan", "3 <= q < 2^50")?;
        let layers = |root: u64| {
            let mut t = Twiddles::default();
            for_each_layer_power(n, root, q, |power| t.push(power, q));
            t
        };
        let n_inv = inv_mod(n as u64 % q, q);
        Plan52 {
            n,
            q,
            forward: layers(omega),
            inverse: layers(inv_mod(omega, q)),
            n_inv: (n_inv, companion52(n_inv, q)),
            isa: Isa::Scalar,
            float: None,
        }
        .with_isa(Isa::best())
    }

    /// The same plan on another instruction set; an error if this CPU lacks it.
    pub fn with_isa(mut self, isa: Isa) -> Result<Self, SmallError> {
        self.isa = isa.ensure_available()?;
        self.float = (isa == Isa::Avx2Fma).then(|| Box::new(FloatTables::new(&self)));
        Ok(self)
    }

    /// The instruction set it runs on.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// The length n.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether n = 0 (never: plans have n ≥ 1).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The modulus q.
    pub fn modulus(&self) -> u64 {
        self.q
    }

    fn check(&self, data: &[u64]) -> Result<(), SmallError> {
        SmallError::check_len(self.n, data.len())
    }

    /// Forward transform in place: natural order in (values < q),
    /// bit-reversed order out (values < q), not scaled. Transforms of at
    /// least [`NTT52_PARALLEL_MIN_LEN`] words use rayon's threads (feature
    /// `parallel`, on by default).
    pub fn forward(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.run(data, Direction::Forward, true, true)
    }

    /// [`Self::forward`] on the calling thread only, whatever its length:
    /// for callers that already spread many transforms over the threads
    /// (one transform per thread, each in its own cache, beats every
    /// transform shared by all of them). Same output.
    pub fn forward_one_thread(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.run(data, Direction::Forward, true, false)
    }

    /// [`Self::forward`] without the final reduction and on one thread:
    /// values < 2q in and out (for callers whose next step accepts them).
    pub(crate) fn forward_lazy(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.run(data, Direction::Forward, false, false)
    }

    /// Inverse transform in place: bit-reversed order in (values < q),
    /// natural order out (values < q), scaled by n^(-1); threads as
    /// [`Self::forward`].
    pub fn inverse(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.run(data, Direction::Inverse { scale: true }, true, true)
    }

    /// [`Self::inverse`] without the scaling by n^(−1), on one thread: values
    /// < 2q in and out.
    pub(crate) fn inverse_unscaled(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.run(data, Direction::Inverse { scale: false }, false, false)
    }

    /// The kernels this plan runs: its instruction set, or scalar code for
    /// n < 16 (the vector kernels' smallest layers take 16 words) and, as a
    /// guard, for the f64 kernels without their tables (`with_isa` builds
    /// them).
    fn kernels(&self) -> Kernels {
        let isa = match self.isa {
            _ if self.n < 16 => Isa::Scalar,
            Isa::Avx2Fma if self.float.is_none() => Isa::Scalar,
            isa => isa,
        };
        Kernels { isa, q: self.q }
    }

    /// A transform, blocked. With n > [`NTT52_BLOCK_LEN`] the data are
    /// n / block rows of one block each; the layers of half-size ≥ block
    /// combine rows only, so they run strip by strip of columns (all those
    /// layers on a strip that stays in cache, one pass over memory), and the
    /// smaller layers block by block (another pass). Strips and blocks are
    /// independent: they are the units given to threads.
    fn run(&self, data: &mut [u64], direction: Direction, reduce: bool, parallel: bool) -> Result<(), SmallError> {
        self.check(data)?;
        let kernels = self.kernels();
        // The f64 tables go with the f64 kernels (`kernels` checks they exist).
        let float = self.float.as_deref().filter(|_| kernels.isa == Isa::Avx2Fma);
        let n = self.n;
        let parallel = parallel && n >= NTT52_PARALLEL_MIN_LEN && several_threads();
        // Threads need several blocks and strips: at least four rows.
        let block = if parallel {
            (n / 4).min(NTT52_BLOCK_LEN)
        } else {
            n.min(NTT52_BLOCK_LEN)
        };
        let rows = n / block;
        let convert = |part: &mut [u64]| kernels.to_float(part);
        let finish = |part: &mut [u64]| kernels.finish(part, reduce);
        match direction {
            Direction::Forward => {
                let tw = float.map_or(&self.forward, |f| &f.forward);
                if rows > 1 {
                    for_each_part(strips(data, block, parallel), parallel, |s, mut strip| {
                        strip.iter_mut().for_each(|piece| convert(piece));
                        let c0 = s * strip[0].len();
                        kernels.forward_outer(tw, &mut strip, block, c0);
                    });
                }
                for_each_part(data.chunks_exact_mut(block).collect(), parallel, |_, chunk| {
                    if rows == 1 {
                        convert(chunk);
                    }
                    kernels.forward_inner(tw, chunk, block / 2);
                    finish(chunk);
                });
            }
            Direction::Inverse { scale } => {
                let tw = float.map_or(&self.inverse, |f| &f.inverse);
                let n_inv = float.map_or(self.n_inv, |f| f.n_inv);
                for_each_part(data.chunks_exact_mut(block).collect(), parallel, |_, chunk| {
                    convert(chunk);
                    if scale {
                        // Linear: it goes first, while the block is in cache.
                        kernels.scale(chunk, n_inv);
                    }
                    kernels.inverse_inner(tw, chunk, block / 2);
                    if rows == 1 {
                        finish(chunk);
                    }
                });
                if rows > 1 {
                    for_each_part(strips(data, block, parallel), parallel, |s, mut strip| {
                        let c0 = s * strip[0].len();
                        kernels.inverse_outer(tw, &mut strip, block, c0);
                        strip.iter_mut().for_each(|piece| finish(piece));
                    });
                }
            }
        }
        Ok(())
    }
}

/// Which transform [`Plan52::run`] computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Forward,
    /// The inverse, scaled by n^(−1) or not.
    Inverse {
        scale: bool,
    },
}

/// The data as rows of `block` words cut into strips of columns: strip s
/// holds every row's columns [s·w, (s + 1)·w), w a power of two such that a
/// strip has about [`NTT52_STRIP_LEN`] words (at least 16 columns, and at
/// least 8 strips when threads share them).
fn strips(data: &mut [u64], block: usize, parallel: bool) -> Vec<Vec<&mut [u64]>> {
    let rows = data.len() / block;
    let mut width = (NTT52_STRIP_LEN / rows).clamp(16, block);
    if parallel {
        width = width.min(block / 8).max(16);
    }
    let mut strips: Vec<Vec<&mut [u64]>> = (0..block / width).map(|_| Vec::with_capacity(rows)).collect();
    for row in data.chunks_exact_mut(block) {
        for (strip, piece) in strips.iter_mut().zip(row.chunks_exact_mut(width)) {
            strip.push(piece);
        }
    }
    strips
}

/// Whether rayon has more than one thread to give (never without the
/// feature `parallel`).
fn several_threads() -> bool {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads() > 1;
    #[cfg(not(feature = "parallel"))]
    false
}

/// f(index, part) for every part, on rayon's threads when `parallel` (and
/// the feature `parallel` is on).
fn for_each_part<T: Send>(parts: Vec<T>, parallel: bool, f: impl Fn(usize, T) + Send + Sync) {
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        parts.into_par_iter().enumerate().for_each(|(i, part)| f(i, part));
        return;
    }
    let _ = parallel;
    parts.into_iter().enumerate().for_each(|(i, part)| f(i, part));
}

/// Twiddle values and companions, side by side.
type Tw<'a> = (&'a [u64], &'a [u64]);

/// `len` twiddles of `t` from `start`.
fn part(t: Tw<'_>, start: usize, len: usize) -> Tw<'_> {
    (&t.0[start..start + len], &t.1[start..start + len])
}

// One module per instruction set behind one kernel table (`Kernels`);
// the loops the vector sets share are written once (`slice_kernels!`).
mod kernels;
mod scalar;
#[cfg(target_arch = "x86_64")]
#[macro_use]
mod slice_kernels;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma;

use kernels::Kernels;
