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
/// [`crate::conv52::pass_butterflies`] reads its order from here.
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
/// ([`crate::conv52::ColumnGroup`]): three layers of four.
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

/// The butterfly kernels of one instruction set for one modulus. The
/// vector ones need slices of a multiple of 16 words (the plan guarantees
/// it: n ≥ 16, blocks and strips are powers of two ≥ 16).
#[derive(Debug, Clone, Copy)]
struct Kernels {
    isa: Isa,
    q: u64,
}

impl Kernels {
    /// (lo, hi) ← (lo + hi, (lo − hi)·w), lazy.
    fn dif2(self, lo: &mut [u64], hi: &mut [u64], w: Tw<'_>) {
        match self.isa {
            // SAFETY: the plan holds a vector ISA only where the CPU has it;
            // the lengths are equal multiples of 16.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::dif2(lo, hi, w, self.q) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::dif2(lo, hi, w, self.q) },
            _ => scalar::dif2(lo, hi, w, self.q),
        }
    }

    /// (lo, hi) ← (lo + hi·w, lo − hi·w), lazy.
    fn dit2(self, lo: &mut [u64], hi: &mut [u64], w: Tw<'_>) {
        match self.isa {
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::dit2(lo, hi, w, self.q) },
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::dit2(lo, hi, w, self.q) },
            _ => scalar::dit2(lo, hi, w, self.q),
        }
    }

    /// Two forward layers on the quarters a, b, c, d of a block: (a, c) and
    /// (b, d) with `w_ac` and `w_bd`, then (a, b) and (c, d) with `w_in`.
    fn dif4(self, [a, b, c, d]: [&mut [u64]; 4], w_ac: Tw<'_>, w_bd: Tw<'_>, w_in: Tw<'_>) {
        match self.isa {
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::dif4([a, b, c, d], w_ac, w_bd, w_in, self.q) },
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::dif4([a, b, c, d], w_ac, w_bd, w_in, self.q) },
            _ => {
                self.dif2(a, c, w_ac);
                self.dif2(b, d, w_bd);
                self.dif2(a, b, w_in);
                self.dif2(c, d, w_in);
            }
        }
    }

    /// Two inverse layers on the quarters: (a, b) and (c, d) with `w_in`,
    /// then (a, c) and (b, d) with `w_ac` and `w_bd`.
    fn dit4(self, [a, b, c, d]: [&mut [u64]; 4], w_in: Tw<'_>, w_ac: Tw<'_>, w_bd: Tw<'_>) {
        match self.isa {
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::dit4([a, b, c, d], w_in, w_ac, w_bd, self.q) },
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::dit4([a, b, c, d], w_in, w_ac, w_bd, self.q) },
            _ => {
                self.dit2(a, b, w_in);
                self.dit2(c, d, w_in);
                self.dit2(a, c, w_ac);
                self.dit2(b, d, w_bd);
            }
        }
    }

    /// The forward layers h = `top` … 1 on every 2·`top` words of `chunk`.
    fn forward_inner(self, tw: &Twiddles, chunk: &mut [u64], top: usize) {
        let mut h = top;
        while h >= 1 {
            match self.isa {
                Isa::Scalar => {}
                _ if h >= 16 => {
                    let (outer, inner) = (tw.layer(h), tw.layer(h / 2));
                    let quarter = h / 2;
                    for block in chunk.chunks_exact_mut(2 * h) {
                        let (lo, hi) = block.split_at_mut(h);
                        let (a, b) = lo.split_at_mut(quarter);
                        let (c, d) = hi.split_at_mut(quarter);
                        self.dif4(
                            [a, b, c, d],
                            part(outer, 0, quarter),
                            part(outer, quarter, quarter),
                            inner,
                        );
                    }
                    h /= 4;
                    continue;
                }
                _ if h == 4 && self.smallest_layers(tw, chunk, true) => break,
                _ => {}
            }
            let w = tw.layer(h);
            for block in chunk.chunks_exact_mut(2 * h) {
                let (lo, hi) = block.split_at_mut(h);
                self.dif2(lo, hi, w);
            }
            h /= 2;
        }
    }

    /// The three smallest layers in registers (forward: h = 4, 2, 1;
    /// inverse: h = 1, 2, 4), where this ISA has those kernels (true), else
    /// nothing (false: the caller runs them one by one).
    fn smallest_layers(self, tw: &Twiddles, chunk: &mut [u64], forward: bool) -> bool {
        let order = if forward { [4, 2, 1] } else { [1, 2, 4] };
        let small = order.map(|h| tw.layer(h));
        #[cfg(target_arch = "x86_64")]
        {
            type Kernel = for<'a, 'b> unsafe fn(&'a mut [u64], [Tw<'b>; 3], u64);
            let kernel: Kernel = match (self.isa, forward) {
                (Isa::Avx512Ifma, true) => ifma::forward_last3 as Kernel,
                (Isa::Avx512Ifma, false) => ifma::inverse_first3 as Kernel,
                (Isa::Avx2Fma, true) => avx2::forward_last3 as Kernel,
                (Isa::Avx2Fma, false) => avx2::inverse_first3 as Kernel,
                (Isa::Scalar, _) => return false,
            };
            // SAFETY: as in dif2 (the kernel's ISA is the plan's, which this
            // CPU has); the chunk is a multiple of 16.
            unsafe { kernel(chunk, small, self.q) };
            true
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (small, chunk);
            false
        }
    }

    /// The inverse layers h = 1 … `top` on every 2·`top` words of `chunk`.
    fn inverse_inner(self, tw: &Twiddles, chunk: &mut [u64], top: usize) {
        let mut h = 1;
        while h <= top {
            match self.isa {
                Isa::Scalar => {}
                _ if h == 1 && self.smallest_layers(tw, chunk, false) => {
                    h = 8;
                    continue;
                }
                _ if 2 * h <= top => {
                    let (inner, outer) = (tw.layer(h), tw.layer(2 * h));
                    for block in chunk.chunks_exact_mut(4 * h) {
                        let (lo, hi) = block.split_at_mut(2 * h);
                        let (a, b) = lo.split_at_mut(h);
                        let (c, d) = hi.split_at_mut(h);
                        self.dit4([a, b, c, d], inner, part(outer, 0, h), part(outer, h, h));
                    }
                    h *= 4;
                    continue;
                }
                _ => {}
            }
            let w = tw.layer(h);
            for block in chunk.chunks_exact_mut(2 * h) {
                let (lo, hi) = block.split_at_mut(h);
                self.dit2(lo, hi, w);
            }
            h *= 2;
        }
    }

    /// The forward layers of half-size ≥ `block` on one strip: `strip[r]`
    /// is row r's columns from `c0`. Layer h = H·block pairs rows r and
    /// r + H with the twiddles of positions (r mod 2H)·block + column.
    fn forward_outer(self, tw: &Twiddles, strip: &mut [&mut [u64]], block: usize, c0: usize) {
        let (rows, width) = (strip.len(), strip[0].len());
        let mut big = rows / 2;
        while big >= 2 {
            let (outer, inner) = (tw.layer(big * block), tw.layer(big * block / 2));
            let quarter = big / 2;
            for base in (0..rows).step_by(2 * big) {
                for t in 0..quarter {
                    let (j, jb) = (t * block + c0, (t + quarter) * block + c0);
                    let Ok([a, b, c, d]) = strip.get_disjoint_mut([
                        base + t,
                        base + t + quarter,
                        base + t + big,
                        base + t + big + quarter,
                    ]) else {
                        unreachable!("four distinct rows of the strip");
                    };
                    self.dif4(
                        [a, b, c, d],
                        part(outer, j, width),
                        part(outer, jb, width),
                        part(inner, j, width),
                    );
                }
            }
            big /= 4;
        }
        if big == 1 {
            let w = part(tw.layer(block), c0, width);
            for pair in strip.chunks_exact_mut(2) {
                let [lo, hi] = pair else { unreachable!("pairs") };
                self.dif2(lo, hi, w);
            }
        }
    }

    /// The inverse layers of half-size ≥ `block` on one strip (the mirror
    /// of [`Self::forward_outer`]).
    fn inverse_outer(self, tw: &Twiddles, strip: &mut [&mut [u64]], block: usize, c0: usize) {
        let (rows, width) = (strip.len(), strip[0].len());
        let mut big = 1;
        while big < rows {
            if 4 * big <= rows {
                let (inner, outer) = (tw.layer(big * block), tw.layer(2 * big * block));
                for base in (0..rows).step_by(4 * big) {
                    for t in 0..big {
                        let (j, jb) = (t * block + c0, (t + big) * block + c0);
                        let Ok([a, b, c, d]) =
                            strip.get_disjoint_mut([base + t, base + t + big, base + t + 2 * big, base + t + 3 * big])
                        else {
                            unreachable!("four distinct rows of the strip");
                        };
                        self.dit4(
                            [a, b, c, d],
                            part(inner, j, width),
                            part(outer, j, width),
                            part(outer, jb, width),
                        );
                    }
                }
                big *= 4;
            } else {
                let w = tw.layer(big * block);
                for base in (0..rows).step_by(2 * big) {
                    for t in 0..big {
                        let Ok([lo, hi]) = strip.get_disjoint_mut([base + t, base + t + big]) else {
                            unreachable!("two distinct rows of the strip");
                        };
                        self.dit2(lo, hi, part(w, t * block + c0, width));
                    }
                }
                big *= 2;
            }
        }
    }

    /// x ← x·n^(−1) for the inverse's scaling (lazy; (w, c) are the f64
    /// pair with [`Isa::Avx2Fma`]).
    fn scale(self, data: &mut [u64], (w, c): (u64, u64)) {
        match self.isa {
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::scale(data, w, c, self.q, false) },
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::scale(data, (w, c), self.q) },
            _ => data.iter_mut().for_each(|x| *x = mul_lazy(*x, w, c, self.q)),
        }
    }

    /// Words < 2^52 to f64 (the AVX2 path's representation).
    fn to_float(self, data: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if self.isa == Isa::Avx2Fma {
            // SAFETY: as in dif2.
            unsafe { avx2::to_float(data) };
        }
        let _ = data;
    }

    /// The end of a transform: f64 back to words in [0, q) with
    /// [`Isa::Avx2Fma`], else a reduction to [0, q) when `reduce`.
    fn finish(self, data: &mut [u64], reduce: bool) {
        #[cfg(target_arch = "x86_64")]
        if self.isa == Isa::Avx2Fma {
            // SAFETY: as in dif2.
            unsafe { avx2::to_words(data, self.q) };
            return;
        }
        if reduce {
            let q = self.q;
            data.iter_mut().for_each(|x| *x = sub_if_ge(*x, q));
        }
    }
}

/// The scalar kernels (any CPU): the arithmetic of the vector ones on u128.
mod scalar {
    use super::{Tw, mul_lazy, sub_if_ge};

    pub(super) fn dif2(lo: &mut [u64], hi: &mut [u64], (w, c): Tw<'_>, q: u64) {
        let two_q = 2 * q;
        for (j, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
            let (a, b) = (*x, *y);
            *x = sub_if_ge(a + b, two_q);
            *y = mul_lazy(a + two_q - b, w[j], c[j], q);
        }
    }

    pub(super) fn dit2(lo: &mut [u64], hi: &mut [u64], (w, c): Tw<'_>, q: u64) {
        let two_q = 2 * q;
        for (j, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
            let t = mul_lazy(*y, w[j], c[j], q);
            let a = *x;
            *x = sub_if_ge(a + t, two_q);
            *y = sub_if_ge(a + two_q - t, two_q);
        }
    }
}

/// The butterfly kernels on slices, `dif2`, `dit2`, `dif4` and `dit4`, for
/// a module of vector kernels: the same loops for every instruction set,
/// written once. The module provides `Lanes::new(q)`, `load`, `store` and
/// the lane butterflies `dif` and `dit` for its vector type; `lanes` is the
/// number of words per vector.
#[cfg(target_arch = "x86_64")]
macro_rules! slice_kernels {
    (lanes = $lanes:literal, features = $features:literal, cpu = $cpu:literal) => {
        #[doc = concat!("(lo, hi) ← (lo + hi, (lo − hi)·w), lazy, ", $lanes, " butterflies a step.")]
        ///
        /// # Safety
        #[doc = concat!("The CPU must have ", $cpu, "; lo, hi and w have the same length, a")]
        #[doc = concat!("multiple of ", $lanes, ".")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn dif2(lo: &mut [u64], hi: &mut [u64], w: super::Tw<'_>, q: u64) {
            let l = Lanes::new(q);
            for j in (0..lo.len()).step_by($lanes) {
                // SAFETY: j + lanes ≤ lo.len() = hi.len() = w.0.len() = w.1.len().
                unsafe {
                    let (x, y) = dif(l, load(lo, j), load(hi, j), load(w.0, j), load(w.1, j));
                    store(lo, j, x);
                    store(hi, j, y);
                }
            }
        }

        /// (lo, hi) ← (lo + hi·w, lo − hi·w), lazy.
        ///
        /// # Safety
        /// As [`dif2`].
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn dit2(lo: &mut [u64], hi: &mut [u64], w: super::Tw<'_>, q: u64) {
            let l = Lanes::new(q);
            for j in (0..lo.len()).step_by($lanes) {
                // SAFETY: as in dif2.
                unsafe {
                    let (x, y) = dit(l, load(lo, j), load(hi, j), load(w.0, j), load(w.1, j));
                    store(lo, j, x);
                    store(hi, j, y);
                }
            }
        }

        /// Two forward layers on four quarters: (a, c) and (b, d) with `w_ac`
        /// and `w_bd`, then (a, b) and (c, d) with `w_in`, in registers.
        ///
        /// # Safety
        #[doc = concat!("The CPU must have ", $cpu, "; the quarters and twiddles have the same")]
        #[doc = concat!("length, a multiple of ", $lanes, ".")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn dif4(
            [a, b, c, d]: [&mut [u64]; 4],
            w_ac: super::Tw<'_>,
            w_bd: super::Tw<'_>,
            w_in: super::Tw<'_>,
            q: u64,
        ) {
            let l = Lanes::new(q);
            for j in (0..a.len()).step_by($lanes) {
                // SAFETY: j + lanes ≤ the common length.
                unsafe {
                    let (a0, c0) = dif(l, load(a, j), load(c, j), load(w_ac.0, j), load(w_ac.1, j));
                    let (b0, d0) = dif(l, load(b, j), load(d, j), load(w_bd.0, j), load(w_bd.1, j));
                    let (wi, ci) = (load(w_in.0, j), load(w_in.1, j));
                    let (a1, b1) = dif(l, a0, b0, wi, ci);
                    let (c1, d1) = dif(l, c0, d0, wi, ci);
                    store(a, j, a1);
                    store(b, j, b1);
                    store(c, j, c1);
                    store(d, j, d1);
                }
            }
        }

        /// Two inverse layers on four quarters: (a, b) and (c, d) with `w_in`,
        /// then (a, c) and (b, d) with `w_ac` and `w_bd`, in registers.
        ///
        /// # Safety
        /// As [`dif4`].
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn dit4(
            [a, b, c, d]: [&mut [u64]; 4],
            w_in: super::Tw<'_>,
            w_ac: super::Tw<'_>,
            w_bd: super::Tw<'_>,
            q: u64,
        ) {
            let l = Lanes::new(q);
            for j in (0..a.len()).step_by($lanes) {
                // SAFETY: j + lanes ≤ the common length.
                unsafe {
                    let (wi, ci) = (load(w_in.0, j), load(w_in.1, j));
                    let (a0, b0) = dit(l, load(a, j), load(b, j), wi, ci);
                    let (c0, d0) = dit(l, load(c, j), load(d, j), wi, ci);
                    let (a1, c1) = dit(l, a0, c0, load(w_ac.0, j), load(w_ac.1, j));
                    let (b1, d1) = dit(l, b0, d0, load(w_bd.0, j), load(w_bd.1, j));
                    store(a, j, a1);
                    store(b, j, b1);
                    store(c, j, c1);
                    store(d, j, d1);
                }
            }
        }
    };
}

/// The f64-lane kernels of [`Isa::Avx2Fma`]: the data hold f64 bit patterns
/// of exact integers, |v| ≤ 2q + 1 between layers (signed: no offsets by 2q).
///
/// x·w mod q for |x| < 2^52, w < q: h = fl(x·w) and ℓ = x·w − h exactly (one
/// FMA), k = round(x·(w/q)), then h − k·q (exact by FMA: the result is a
/// small integer) + ℓ, in [−1.5q, 1.5q]. Reduction x − round(x/q)·q gives
/// |v| ≤ q/2 + 1. DIF: (reduce(x + y), (x − y)·w); DIT: x reduced first,
/// then (x + y·w, x − y·w). Each stays within |v| ≤ 2q + 1 < 2^51.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use std::arch::x86_64::*;

    /// 2^52 (a value v < 2^52 is the low mantissa of 2^52 + v).
    const TWO_52: f64 = 4_503_599_627_370_496.0;

    /// The constants of a modulus in lanes.
    #[derive(Clone, Copy)]
    struct Lanes {
        q: __m256d,
        q_inv: __m256d,
    }

    impl Lanes {
        #[target_feature(enable = "avx2,fma")]
        fn new(q: u64) -> Self {
            Lanes {
                q: _mm256_set1_pd(q as f64),
                q_inv: _mm256_set1_pd(1.0 / q as f64),
            }
        }
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn round(x: __m256d) -> __m256d {
        _mm256_round_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(x)
    }

    /// x − round(x/q)·q, |x| < 2^52: |result| ≤ q/2 + 1.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn reduce(l: Lanes, x: __m256d) -> __m256d {
        _mm256_fnmadd_pd(round(_mm256_mul_pd(x, l.q_inv)), l.q, x)
    }

    /// x·w mod q in [−1.5q, 1.5q] for |x| < 2^52, with c = w/q.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn mul(l: Lanes, x: __m256d, w: __m256d, c: __m256d) -> __m256d {
        let high = _mm256_mul_pd(x, w);
        let low = _mm256_fmsub_pd(x, w, high);
        let k = round(_mm256_mul_pd(x, c));
        _mm256_add_pd(_mm256_fnmadd_pd(k, l.q, high), low)
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn dif(l: Lanes, x: __m256d, y: __m256d, w: __m256d, c: __m256d) -> (__m256d, __m256d) {
        (reduce(l, _mm256_add_pd(x, y)), mul(l, _mm256_sub_pd(x, y), w, c))
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn dit(l: Lanes, x: __m256d, y: __m256d, w: __m256d, c: __m256d) -> (__m256d, __m256d) {
        let x = reduce(l, x);
        let t = mul(l, y, w, c);
        (_mm256_add_pd(x, t), _mm256_sub_pd(x, t))
    }

    /// Four f64 at `p + j`.
    ///
    /// # Safety
    /// `j + 4 ≤ p.len()`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(p: &[u64], j: usize) -> __m256d {
        debug_assert!(j + 4 <= p.len());
        // SAFETY: the caller keeps j + 4 ≤ p.len().
        unsafe { _mm256_loadu_pd(p.as_ptr().add(j).cast()) }
    }

    /// Stores four f64 at `p + j`.
    ///
    /// # Safety
    /// As [`load`].
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(p: &mut [u64], j: usize, v: __m256d) {
        debug_assert!(j + 4 <= p.len());
        // SAFETY: the caller keeps j + 4 ≤ p.len().
        unsafe { _mm256_storeu_pd(p.as_mut_ptr().add(j).cast(), v) }
    }

    /// Words < 2^52 to f64 in place (2^52 + v's bits, minus 2^52).
    ///
    /// # Safety
    /// The CPU must have AVX2; `data.len()` is a multiple of 4.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn to_float(data: &mut [u64]) {
        let magic = _mm256_set1_pd(TWO_52);
        for j in (0..data.len()).step_by(4) {
            // SAFETY: j + 4 ≤ data.len().
            unsafe {
                let bits = _mm256_loadu_si256(data.as_ptr().add(j).cast());
                let v = _mm256_sub_pd(_mm256_or_pd(_mm256_castsi256_pd(bits), magic), magic);
                store(data, j, v);
            }
        }
    }

    /// f64 values |v| < 2^52 to words in [0, q) in place.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; `data.len()` is a multiple of 4.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn to_words(data: &mut [u64], q: u64) {
        let l = Lanes::new(q);
        let magic = _mm256_set1_pd(TWO_52);
        let zero = _mm256_setzero_pd();
        for j in (0..data.len()).step_by(4) {
            // SAFETY: j + 4 ≤ data.len().
            unsafe {
                let v = reduce(l, load(data, j));
                // |v| ≤ (q + 1)/2: one q more for the negative ones.
                let v = _mm256_add_pd(v, _mm256_and_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(v, zero), l.q));
                let bits = _mm256_xor_pd(_mm256_add_pd(v, magic), magic);
                _mm256_storeu_si256(data.as_mut_ptr().add(j).cast(), _mm256_castpd_si256(bits));
            }
        }
    }

    /// x ← x·w mod q for every f64 x, with (w, w/q) as bit patterns.
    ///
    /// # Safety
    /// As [`to_words`].
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn scale(data: &mut [u64], (w, c): (u64, u64), q: u64) {
        let l = Lanes::new(q);
        let (w, c) = (_mm256_set1_pd(f64::from_bits(w)), _mm256_set1_pd(f64::from_bits(c)));
        for j in (0..data.len()).step_by(4) {
            // SAFETY: j + 4 ≤ data.len().
            unsafe { store(data, j, mul(l, load(data, j), w, c)) };
        }
    }

    slice_kernels!(lanes = 4, features = "avx2,fma", cpu = "AVX2 and FMA");

    /// The twiddles of the three smallest layers in the lanes' order: h = 4
    /// as it is, h = 2 for the lanes [e0, e1, e4, e5], h = 1 broadcast.
    #[target_feature(enable = "avx2")]
    fn small_twiddles(tw: [(&[u64], &[u64]); 3]) -> [(__m256d, __m256d); 3] {
        let [t4, t2, t1] = tw;
        let f = |x: u64| f64::from_bits(x);
        let four = |t: &[u64]| _mm256_set_pd(f(t[3]), f(t[2]), f(t[1]), f(t[0]));
        let two = |t: &[u64]| _mm256_set_pd(f(t[1]), f(t[0]), f(t[1]), f(t[0]));
        [
            (four(t4.0), four(t4.1)),
            (two(t2.0), two(t2.1)),
            (_mm256_set1_pd(f(t1.0[0])), _mm256_set1_pd(f(t1.1[0]))),
        ]
    }

    /// The forward layers h = 4, 2, 1 on every 8 elements, in registers:
    /// h = 4 pairs the two vectors, h = 2 their 128-bit halves, h = 1
    /// their even and odd lanes.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; the twiddles hold 4, 2, 1 entries,
    /// `data` a multiple of 8.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn forward_last3(data: &mut [u64], tw: [(&[u64], &[u64]); 3], q: u64) {
        let l = Lanes::new(q);
        let [(w4, c4), (w2, c2), (w1, c1)] = small_twiddles(tw);
        for chunk in data.chunks_exact_mut(8) {
            // SAFETY: the chunk holds 8 values: two vectors.
            unsafe {
                let (v0, v1) = dif(l, load(chunk, 0), load(chunk, 4), w4, c4);
                let (x, y) = dif(
                    l,
                    _mm256_permute2f128_pd::<0x20>(v0, v1),
                    _mm256_permute2f128_pd::<0x31>(v0, v1),
                    w2,
                    c2,
                );
                let (v0, v1) = (
                    _mm256_permute2f128_pd::<0x20>(x, y),
                    _mm256_permute2f128_pd::<0x31>(x, y),
                );
                let (x, y) = dif(l, _mm256_unpacklo_pd(v0, v1), _mm256_unpackhi_pd(v0, v1), w1, c1);
                store(chunk, 0, _mm256_unpacklo_pd(x, y));
                store(chunk, 4, _mm256_unpackhi_pd(x, y));
            }
        }
    }

    /// The inverse layers h = 1, 2, 4 on every 8 elements, in registers.
    ///
    /// # Safety
    /// As [`forward_last3`] (twiddles in the order h = 1, 2, 4).
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn inverse_first3(data: &mut [u64], tw: [(&[u64], &[u64]); 3], q: u64) {
        let l = Lanes::new(q);
        let [(w4, c4), (w2, c2), (w1, c1)] = small_twiddles([tw[2], tw[1], tw[0]]);
        for chunk in data.chunks_exact_mut(8) {
            // SAFETY: the chunk holds 8 values: two vectors.
            unsafe {
                let (v0, v1) = (load(chunk, 0), load(chunk, 4));
                let (x, y) = dit(l, _mm256_unpacklo_pd(v0, v1), _mm256_unpackhi_pd(v0, v1), w1, c1);
                let (v0, v1) = (_mm256_unpacklo_pd(x, y), _mm256_unpackhi_pd(x, y));
                let (x, y) = dit(
                    l,
                    _mm256_permute2f128_pd::<0x20>(v0, v1),
                    _mm256_permute2f128_pd::<0x31>(v0, v1),
                    w2,
                    c2,
                );
                let (v0, v1) = (
                    _mm256_permute2f128_pd::<0x20>(x, y),
                    _mm256_permute2f128_pd::<0x31>(x, y),
                );
                let (v0, v1) = dit(l, v0, v1, w4, c4);
                store(chunk, 0, v0);
                store(chunk, 4, v1);
            }
        }
    }

    // The convolution's passes over whole rows (conv52), on words < 2^52 in
    // and out: each vector is converted to f64 on load and back on store,
    // so the passes keep the word contracts of the IFMA and scalar code.

    /// Four words < 2^52 at `p + j` as f64.
    ///
    /// # Safety
    /// `j + 4 ≤ p.len()`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_words(p: &[u64], j: usize) -> __m256d {
        debug_assert!(j + 4 <= p.len());
        let magic = _mm256_set1_pd(TWO_52);
        // SAFETY: the caller keeps j + 4 ≤ p.len().
        let bits = unsafe { _mm256_loadu_si256(p.as_ptr().add(j).cast()) };
        _mm256_sub_pd(_mm256_or_pd(_mm256_castsi256_pd(bits), magic), magic)
    }

    /// Stores four f64 holding integers in [0, 2^52) as words at `p + j`.
    ///
    /// # Safety
    /// As [`load_words`].
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_words(p: &mut [u64], j: usize, v: __m256d) {
        debug_assert!(j + 4 <= p.len());
        let magic = _mm256_set1_pd(TWO_52);
        let bits = _mm256_xor_pd(_mm256_add_pd(v, magic), magic);
        // SAFETY: the caller keeps j + 4 ≤ p.len().
        unsafe { _mm256_storeu_si256(p.as_mut_ptr().add(j).cast(), _mm256_castpd_si256(bits)) }
    }

    /// v + m where v < 0: [−m, m) to [0, m).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn add_if_negative(v: __m256d, m: __m256d) -> __m256d {
        let negative = _mm256_cmp_pd::<_CMP_LT_OQ>(v, _mm256_setzero_pd());
        _mm256_add_pd(v, _mm256_and_pd(negative, m))
    }

    /// v − m where v ≥ m: [0, 2m) to [0, m).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn sub_if_ge(v: __m256d, m: __m256d) -> __m256d {
        let ge = _mm256_cmp_pd::<_CMP_GE_OQ>(v, m);
        _mm256_sub_pd(v, _mm256_and_pd(ge, m))
    }

    /// |v| < 2^52 to [0, q): x − round(x/q)·q lies in [−q/2 − 1, q/2 + 1].
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn reduce_full(l: Lanes, v: __m256d) -> __m256d {
        add_if_negative(reduce(l, v), l.q)
    }

    /// x·y mod q in [−1.5q − 2^48, 1.5q + 2^48] for 0 ≤ x, y < 2q (both
    /// operands variable, x·y < 2^102): the quotient k is estimated from the
    /// rounded product h (off by less than one), h − k·q is exact by FMA
    /// (an integer below 2^52), and ℓ = x·y − h (|ℓ| ≤ 2^48) is added after.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn mul_variable(l: Lanes, x: __m256d, y: __m256d) -> __m256d {
        let high = _mm256_mul_pd(x, y);
        let low = _mm256_fmsub_pd(x, y, high);
        let k = round(_mm256_mul_pd(high, l.q_inv));
        _mm256_add_pd(_mm256_fnmadd_pd(k, l.q, high), low)
    }

    /// (w, w/q) in lanes for a fixed factor w < q.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn factor(w: u64, q: u64) -> (__m256d, __m256d) {
        (_mm256_set1_pd(w as f64), _mm256_set1_pd(w as f64 / q as f64))
    }

    /// The first N factors (w, w/q) in lanes (zeros past the end; the
    /// companions of the pairs are the IFMA kernels').
    #[inline]
    #[target_feature(enable = "avx2")]
    fn factors_in_lanes<const N: usize>(pairs: &[(u64, u64)], q: u64) -> [(__m256d, __m256d); N] {
        std::array::from_fn(|i| factor(pairs.get(i).map_or(0, |f| f.0), q))
    }

    /// One pass of the forward column transform
    /// ([`crate::conv52::ColumnGroup`]) on R ≤ 8 rows, four columns a step
    /// in registers: the rows times their twist factors when `TWIST`
    /// (values < q in), then the DIF layers of half-distance R/2, …, 1,
    /// their butterflies in [`crate::conv52::pass_butterflies`]' order with
    /// `factors[b]` for butterfly b (values in [0, 2q) out, as
    /// the layer-by-layer passes gave them).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; the rows have one length, a multiple
    /// of 4; `twist` has R entries when `TWIST`; `factors` has R/2·log2 R.
    #[target_feature(enable = "avx2,fma")]
    pub(crate) unsafe fn columns_forward<const R: usize, const TWIST: bool, const CONSECUTIVE: bool>(
        mut rows: [&mut [u64]; R],
        twist: &[(u64, u64)],
        factors: &[(u64, u64)],
        q: u64,
    ) {
        let l = Lanes::new(q);
        let two_q = _mm256_add_pd(l.q, l.q);
        let (t, f) = (
            factors_in_lanes::<R>(twist, q),
            factors_in_lanes::<{ super::PASS_FACTORS }>(factors, q),
        );
        for j in (0..rows[0].len()).step_by(4) {
            // SAFETY: j + 4 ≤ the rows' common length.
            let mut v: [__m256d; R] = std::array::from_fn(|i| unsafe { load_words(rows[i], j) });
            if TWIST {
                for (x, &(w, c)) in v.iter_mut().zip(&t) {
                    *x = add_if_negative(mul(l, *x, w, c), two_q);
                }
            }
            super::pass_in_registers(&mut v, true, |x, y, b, unit| {
                let d = _mm256_sub_pd(x, y);
                let d = if CONSECUTIVE && unit {
                    d
                } else {
                    mul(l, d, f[b].0, f[b].1)
                };
                (sub_if_ge(_mm256_add_pd(x, y), two_q), add_if_negative(d, two_q))
            });
            for (row, x) in rows.iter_mut().zip(v) {
                // SAFETY: as above.
                unsafe { store_words(row, j, x) };
            }
        }
    }

    /// One pass of the inverse column transform: the DIT layers of
    /// half-distance 1, …, R/2 (values in [0, 2q) in, as the forward leaves
    /// them), then, when `UNTWIST`, the rows times their untwist factors
    /// reduced into [0, q).
    ///
    /// # Safety
    /// As [`columns_forward`].
    #[target_feature(enable = "avx2,fma")]
    pub(crate) unsafe fn columns_inverse<const R: usize, const UNTWIST: bool, const CONSECUTIVE: bool>(
        mut rows: [&mut [u64]; R],
        untwist: &[(u64, u64)],
        factors: &[(u64, u64)],
        q: u64,
    ) {
        let l = Lanes::new(q);
        let two_q = _mm256_add_pd(l.q, l.q);
        let (t, f) = (
            factors_in_lanes::<R>(untwist, q),
            factors_in_lanes::<{ super::PASS_FACTORS }>(factors, q),
        );
        for j in (0..rows[0].len()).step_by(4) {
            // SAFETY: j + 4 ≤ the rows' common length.
            let mut v: [__m256d; R] = std::array::from_fn(|i| unsafe { load_words(rows[i], j) });
            super::pass_in_registers(&mut v, false, |x, y, b, unit| {
                let y = if CONSECUTIVE && unit {
                    y
                } else {
                    add_if_negative(mul(l, y, f[b].0, f[b].1), two_q)
                };
                (
                    sub_if_ge(_mm256_add_pd(x, y), two_q),
                    sub_if_ge(_mm256_add_pd(_mm256_sub_pd(x, y), two_q), two_q),
                )
            });
            if UNTWIST {
                for (x, &(w, c)) in v.iter_mut().zip(&t) {
                    *x = reduce_full(l, mul(l, *x, w, c));
                }
            }
            for (row, x) in rows.iter_mut().zip(v) {
                // SAFETY: as above.
                unsafe { store_words(row, j, x) };
            }
        }
    }

    /// x[j] ← x[j]·w[j] mod q in [0, 2q) for words x < 2^51 and factors
    /// w[j] < q (their quotients w/q are formed here: within one unit in
    /// the last place, which moves the estimate by at most one for
    /// x·w/q < 2^51).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; w is at least as long as x, whose
    /// length is a multiple of 4.
    #[target_feature(enable = "avx2,fma")]
    pub(crate) unsafe fn mul_table(x: &mut [u64], w: &[u64], q: u64) {
        let l = Lanes::new(q);
        let two_q = _mm256_add_pd(l.q, l.q);
        for j in (0..x.len()).step_by(4) {
            // SAFETY: j + 4 ≤ x.len() ≤ w.len().
            unsafe {
                let f = load_words(w, j);
                let v = mul(l, load_words(x, j), f, _mm256_mul_pd(f, l.q_inv));
                store_words(x, j, add_if_negative(v, two_q));
            }
        }
    }

    /// a ← a·b·2^(−52) mod q in [0, 2q) for a, b < 2q (b = a when `None`):
    /// the product of two spectra in Montgomery form, as the IFMA and
    /// scalar code compute it, here as a·b mod q times the fixed factor
    /// `r_inv` = 2^(−52) mod q.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; a and b have the same length, a
    /// multiple of 4.
    #[target_feature(enable = "avx2,fma")]
    pub(crate) unsafe fn mul_pointwise(a: &mut [u64], b: Option<&[u64]>, r_inv: u64, q: u64) {
        let l = Lanes::new(q);
        let two_q = _mm256_add_pd(l.q, l.q);
        let (w, c) = factor(r_inv, q);
        for j in (0..a.len()).step_by(4) {
            // SAFETY: j + 4 ≤ a.len() = b.len().
            unsafe {
                let x = load_words(a, j);
                let y = match b {
                    Some(b) => load_words(b, j),
                    None => x,
                };
                // |x·y mod q| ≤ 1.5q + 2^48 < 2^52: a valid input of `mul`.
                let v = mul(l, mul_variable(l, x, y), w, c);
                store_words(a, j, add_if_negative(v, two_q));
            }
        }
    }

    /// Four full 64-bit words at `p + j` reduced mod q into [0, q): the
    /// halves are exact in f64, x = hi·2^32 + lo ≡ lo + hi·(2^32 mod q).
    ///
    /// # Safety
    /// `j + 4 ≤ p.len()`.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn load_reduced(l: Lanes, p: &[u64], j: usize, (w, c): (__m256d, __m256d)) -> __m256d {
        debug_assert!(j + 4 <= p.len());
        // SAFETY: the caller keeps j + 4 ≤ p.len().
        let x = unsafe { _mm256_loadu_si256(p.as_ptr().add(j).cast()) };
        let magic = _mm256_set1_pd(TWO_52);
        let to_f64 = |v: __m256i| _mm256_sub_pd(_mm256_or_pd(_mm256_castsi256_pd(v), magic), magic);
        let low = to_f64(_mm256_and_si256(x, _mm256_set1_epi64x(0xFFFF_FFFF)));
        let high = to_f64(_mm256_srli_epi64::<32>(x));
        reduce_full(l, _mm256_add_pd(low, mul(l, high, w, c)))
    }

    /// rows[i][j] ← (or +=, −=, as `how` says, modulo q) words[j·k + i] mod q,
    /// for i < k and j < count: k-word groups reduced and transposed, a
    /// 4 × 4 block of words at a time (values in the rows < q in and out).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; k and count are multiples of 4,
    /// `words` holds count·k words, `rows` k rows of at least count.
    #[target_feature(enable = "avx2,fma")]
    pub(crate) unsafe fn project_words(
        words: &[u64],
        k: usize,
        rows: &mut [&mut [u64]],
        count: usize,
        q: u64,
        how: crate::conv52::Accumulate,
    ) {
        use crate::conv52::Accumulate;
        let l = Lanes::new(q);
        let high = factor(((1u128 << 32) % q as u128) as u64, q);
        for j in (0..count).step_by(4) {
            for g in (0..k).step_by(4) {
                // SAFETY: (j + e)·k + g + 4 ≤ count·k = words.len().
                let v: [__m256d; 4] = std::array::from_fn(|e| unsafe { load_reduced(l, words, (j + e) * k + g, high) });
                // [e0d0 e1d0 e0d2 e1d2], … then the 128-bit halves.
                let (lo01, hi01) = (_mm256_unpacklo_pd(v[0], v[1]), _mm256_unpackhi_pd(v[0], v[1]));
                let (lo23, hi23) = (_mm256_unpacklo_pd(v[2], v[3]), _mm256_unpackhi_pd(v[2], v[3]));
                let digit = [
                    _mm256_permute2f128_pd::<0x20>(lo01, lo23),
                    _mm256_permute2f128_pd::<0x20>(hi01, hi23),
                    _mm256_permute2f128_pd::<0x31>(lo01, lo23),
                    _mm256_permute2f128_pd::<0x31>(hi01, hi23),
                ];
                for (i, &t) in digit.iter().enumerate() {
                    let row = &mut *rows[g + i];
                    let v = match how {
                        Accumulate::Store => t,
                        // SAFETY: j + 4 ≤ count ≤ row.len().
                        Accumulate::Add => sub_if_ge(_mm256_add_pd(unsafe { load_words(row, j) }, t), l.q),
                        // SAFETY: as above.
                        Accumulate::Subtract => add_if_negative(_mm256_sub_pd(unsafe { load_words(row, j) }, t), l.q),
                    };
                    // SAFETY: j + 4 ≤ count ≤ row.len().
                    unsafe { store_words(row, j, v) };
                }
            }
        }
    }

    /// Garner's mixed-radix digits of four columns at a time: for every
    /// column j, v_l[j] (l < s) from the residues y_l[j] < q_l, with
    /// `inverse[l][m]` = q_m^(−1) mod q_l (first of each pair) and q_m < 2q_l.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; every slice of `residues` and
    /// `digits` has at least `len` elements, `len` a multiple of 4, and
    /// `inverse[l]` has l entries.
    #[target_feature(enable = "avx2,fma")]
    pub(crate) unsafe fn mixed_radix(
        residues: &[&[u64]],
        digits: &mut [&mut [u64]],
        primes: &[u64],
        inverse: &[Vec<(u64, u64)>],
        len: usize,
    ) {
        const MAX: usize = crate::GARNER52_MAX_PRIMES;
        // The primes' constants and the factors with their quotients, formed
        // once: inside the loop their divisions took a third of its time.
        let mut lanes = [Lanes::new(1); MAX];
        let mut factors = [[(_mm256_setzero_pd(), _mm256_setzero_pd()); MAX]; MAX];
        for (l, &q) in primes.iter().enumerate().take(MAX) {
            lanes[l] = Lanes::new(q);
            for (m, &(w, _)) in inverse[l].iter().enumerate().take(MAX) {
                factors[l][m] = factor(w, q);
            }
        }
        let mut v = [_mm256_setzero_pd(); MAX];
        for j in (0..len).step_by(4) {
            for l in 0..primes.len().min(MAX) {
                // SAFETY: j + 4 ≤ len ≤ residues[l].len().
                let mut t = unsafe { load_words(residues[l], j) };
                for (m, &(w, c)) in factors[l].iter().enumerate().take(l) {
                    // t − v_m lies in (−2q_l, q_l): a valid input of `mul`.
                    t = reduce_full(lanes[l], mul(lanes[l], _mm256_sub_pd(t, v[m]), w, c));
                }
                v[l] = t;
                // SAFETY: j + 4 ≤ len ≤ digits[l].len().
                unsafe { store_words(digits[l], j, t) };
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma {
    use std::arch::x86_64::*;

    /// The constants of a modulus in lanes.
    #[derive(Clone, Copy)]
    struct Lanes {
        q: __m512i,
        two_q: __m512i,
        mask: __m512i,
        zero: __m512i,
    }

    impl Lanes {
        #[target_feature(enable = "avx512f")]
        fn new(q: u64) -> Self {
            Lanes {
                q: _mm512_set1_epi64(q as i64),
                two_q: _mm512_set1_epi64(2 * q as i64),
                mask: _mm512_set1_epi64(super::MASK52 as i64),
                zero: _mm512_setzero_si512(),
            }
        }
    }

    /// x·w mod q in [0, 2q), eight lanes (Shoup in base 2^52).
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn mul_lazy(l: Lanes, x: __m512i, w: __m512i, c: __m512i) -> __m512i {
        let estimate = _mm512_madd52hi_epu64(l.zero, x, c);
        let low = _mm512_madd52lo_epu64(l.zero, x, w);
        _mm512_and_si512(
            _mm512_sub_epi64(low, _mm512_madd52lo_epu64(l.zero, estimate, l.q)),
            l.mask,
        )
    }

    /// x − 2q where x ≥ 2q (unsigned min against the wrapped difference).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn reduce(l: Lanes, x: __m512i) -> __m512i {
        _mm512_min_epu64(x, _mm512_sub_epi64(x, l.two_q))
    }

    /// The DIF butterfly (x + y, (x − y)·w), lazy.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn dif(l: Lanes, x: __m512i, y: __m512i, w: __m512i, c: __m512i) -> (__m512i, __m512i) {
        let s = reduce(l, _mm512_add_epi64(x, y));
        (s, mul_lazy(l, _mm512_sub_epi64(_mm512_add_epi64(x, l.two_q), y), w, c))
    }

    /// The DIT butterfly (x + y·w, x − y·w), lazy.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn dit(l: Lanes, x: __m512i, y: __m512i, w: __m512i, c: __m512i) -> (__m512i, __m512i) {
        let t = mul_lazy(l, y, w, c);
        (
            reduce(l, _mm512_add_epi64(x, t)),
            reduce(l, _mm512_sub_epi64(_mm512_add_epi64(x, l.two_q), t)),
        )
    }

    /// Eight words at `p + j`.
    ///
    /// # Safety
    /// `p + j + 8` must be within one allocation.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn load(p: &[u64], j: usize) -> __m512i {
        debug_assert!(j + 8 <= p.len());
        // SAFETY: the caller keeps j + 8 ≤ p.len().
        unsafe { _mm512_loadu_si512(p.as_ptr().add(j).cast()) }
    }

    /// Stores eight words at `p + j`.
    ///
    /// # Safety
    /// As [`load`].
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn store(p: &mut [u64], j: usize, v: __m512i) {
        debug_assert!(j + 8 <= p.len());
        // SAFETY: the caller keeps j + 8 ≤ p.len().
        unsafe { _mm512_storeu_si512(p.as_mut_ptr().add(j).cast(), v) }
    }

    slice_kernels!(lanes = 8, features = "avx512f,avx512ifma", cpu = "AVX-512F and IFMA");

    /// The positions, among 16 consecutive elements, of the first inputs
    /// ("lo") of the butterflies of half-size h ∈ {1, 2, 4}, in order; the
    /// second inputs are at position + h.
    const fn lo_positions(h: usize) -> [usize; 8] {
        let mut out = [0; 8];
        let (mut i, mut k) = (0, 0);
        while i < 16 {
            if i % (2 * h) < h {
                out[k] = i;
                k += 1;
            }
            i += 1;
        }
        out
    }

    /// For one half-size h ∈ {1, 2, 4}: index vectors that split two vectors
    /// of 16 consecutive elements into the butterflies' first and second
    /// inputs and merge them back, and the layer's twiddles in lo order.
    struct SmallLayer {
        lo: __m512i,
        hi: __m512i,
        back0: __m512i,
        back1: __m512i,
        w: __m512i,
        c: __m512i,
    }

    impl SmallLayer {
        #[target_feature(enable = "avx512f")]
        fn new(h: usize, tw: (&[u64], &[u64])) -> Self {
            let lo = lo_positions(h);
            let mut back = [0i64; 16];
            let mut w = [0i64; 8];
            let mut c = [0i64; 8];
            for (k, &p) in lo.iter().enumerate() {
                back[p] = k as i64; // lo[k] is element p
                back[p + h] = 8 + k as i64; // hi[k] is element p + h
                w[k] = tw.0[p % (2 * h)] as i64;
                c[k] = tw.1[p % (2 * h)] as i64;
            }
            let vec = |v: [i64; 8]| _mm512_set_epi64(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]);
            let lo_idx: [i64; 8] = std::array::from_fn(|k| lo[k] as i64);
            let hi_idx: [i64; 8] = std::array::from_fn(|k| (lo[k] + h) as i64);
            SmallLayer {
                lo: vec(lo_idx),
                hi: vec(hi_idx),
                back0: vec(std::array::from_fn(|i| back[i])),
                back1: vec(std::array::from_fn(|i| back[8 + i])),
                w: vec(w),
                c: vec(c),
            }
        }

        /// Splits (v0, v1) into the butterflies' inputs.
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn split(&self, v0: __m512i, v1: __m512i) -> (__m512i, __m512i) {
            (
                _mm512_permutex2var_epi64(v0, self.lo, v1),
                _mm512_permutex2var_epi64(v0, self.hi, v1),
            )
        }

        /// Merges the butterflies' outputs back into element order.
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn merge(&self, lo: __m512i, hi: __m512i) -> (__m512i, __m512i) {
            (
                _mm512_permutex2var_epi64(lo, self.back0, hi),
                _mm512_permutex2var_epi64(lo, self.back1, hi),
            )
        }
    }

    /// The forward layers h = 4, 2, 1 on every 16 elements, in registers.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; each twiddle pair holds its
    /// layer's h entries, and `data` a multiple of 16.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn forward_last3(data: &mut [u64], tw: [(&[u64], &[u64]); 3], q: u64) {
        let l = Lanes::new(q);
        let layers = [
            SmallLayer::new(4, tw[0]),
            SmallLayer::new(2, tw[1]),
            SmallLayer::new(1, tw[2]),
        ];
        for chunk in data.chunks_exact_mut(16) {
            // SAFETY: the chunk holds 16 words: two vectors.
            unsafe {
                let (mut v0, mut v1) = (load(chunk, 0), load(chunk, 8));
                for layer in &layers {
                    let (x, y) = layer.split(v0, v1);
                    let (x, y) = dif(l, x, y, layer.w, layer.c);
                    (v0, v1) = layer.merge(x, y);
                }
                store(chunk, 0, v0);
                store(chunk, 8, v1);
            }
        }
    }

    /// The inverse layers h = 1, 2, 4 on every 16 elements, in registers.
    ///
    /// # Safety
    /// As [`forward_last3`] (twiddles in the order h = 1, 2, 4).
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn inverse_first3(data: &mut [u64], tw: [(&[u64], &[u64]); 3], q: u64) {
        let l = Lanes::new(q);
        let layers = [
            SmallLayer::new(1, tw[0]),
            SmallLayer::new(2, tw[1]),
            SmallLayer::new(4, tw[2]),
        ];
        for chunk in data.chunks_exact_mut(16) {
            // SAFETY: the chunk holds 16 words: two vectors.
            unsafe {
                let (mut v0, mut v1) = (load(chunk, 0), load(chunk, 8));
                for layer in &layers {
                    let (x, y) = layer.split(v0, v1);
                    let (x, y) = dit(l, x, y, layer.w, layer.c);
                    (v0, v1) = layer.merge(x, y);
                }
                store(chunk, 0, v0);
                store(chunk, 8, v1);
            }
        }
    }

    /// x ← x·w mod q for x < 2^52: in [0, 2q), or in [0, q) when `full`.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; x.len() is a multiple of 8.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn scale(x: &mut [u64], w: u64, c: u64, q: u64, full: bool) {
        let l = Lanes::new(q);
        let (w, c) = (_mm512_set1_epi64(w as i64), _mm512_set1_epi64(c as i64));
        for j in (0..x.len()).step_by(8) {
            // SAFETY: j + 8 ≤ x.len().
            unsafe {
                let mut v = mul_lazy(l, load(x, j), w, c);
                if full {
                    v = _mm512_min_epu64(v, _mm512_sub_epi64(v, l.q));
                }
                store(x, j, v);
            }
        }
    }

    /// The first N (value, companion) pairs in lanes (zeros past the end).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn splat_factors<const N: usize>(pairs: &[(u64, u64)]) -> [(__m512i, __m512i); N] {
        std::array::from_fn(|i| {
            let (w, c) = pairs.get(i).copied().unwrap_or_default();
            (_mm512_set1_epi64(w as i64), _mm512_set1_epi64(c as i64))
        })
    }

    /// The butterfly with factor 1, lazy: (x + y, x − y) in [0, 2q).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn add_sub(l: Lanes, x: __m512i, y: __m512i) -> (__m512i, __m512i) {
        (
            reduce(l, _mm512_add_epi64(x, y)),
            reduce(l, _mm512_sub_epi64(_mm512_add_epi64(x, l.two_q), y)),
        )
    }

    /// [`super::avx2::columns_forward`] in eight 52-bit lanes, with the
    /// factors' Shoup companions.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; the rows have one length, a
    /// multiple of 8; `twist` has R entries when `TWIST`; `factors` has
    /// R/2·log2 R.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn columns_forward<const R: usize, const TWIST: bool, const CONSECUTIVE: bool>(
        mut rows: [&mut [u64]; R],
        twist: &[(u64, u64)],
        factors: &[(u64, u64)],
        q: u64,
    ) {
        let l = Lanes::new(q);
        let (t, f) = (
            splat_factors::<R>(twist),
            splat_factors::<{ super::PASS_FACTORS }>(factors),
        );
        for j in (0..rows[0].len()).step_by(8) {
            // SAFETY: j + 8 ≤ the rows' common length.
            let mut v: [__m512i; R] = std::array::from_fn(|i| unsafe { load(rows[i], j) });
            if TWIST {
                for (x, &(w, c)) in v.iter_mut().zip(&t) {
                    *x = mul_lazy(l, *x, w, c);
                }
            }
            super::pass_in_registers(&mut v, true, |x, y, b, unit| {
                if CONSECUTIVE && unit {
                    add_sub(l, x, y)
                } else {
                    dif(l, x, y, f[b].0, f[b].1)
                }
            });
            for (row, x) in rows.iter_mut().zip(v) {
                // SAFETY: as above.
                unsafe { store(row, j, x) };
            }
        }
    }

    /// [`super::avx2::columns_inverse`] in eight 52-bit lanes.
    ///
    /// # Safety
    /// As [`columns_forward`].
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn columns_inverse<const R: usize, const UNTWIST: bool, const CONSECUTIVE: bool>(
        mut rows: [&mut [u64]; R],
        untwist: &[(u64, u64)],
        factors: &[(u64, u64)],
        q: u64,
    ) {
        let l = Lanes::new(q);
        let (t, f) = (
            splat_factors::<R>(untwist),
            splat_factors::<{ super::PASS_FACTORS }>(factors),
        );
        for j in (0..rows[0].len()).step_by(8) {
            // SAFETY: j + 8 ≤ the rows' common length.
            let mut v: [__m512i; R] = std::array::from_fn(|i| unsafe { load(rows[i], j) });
            super::pass_in_registers(&mut v, false, |x, y, b, unit| {
                if CONSECUTIVE && unit {
                    add_sub(l, x, y)
                } else {
                    dit(l, x, y, f[b].0, f[b].1)
                }
            });
            if UNTWIST {
                for (x, &(w, c)) in v.iter_mut().zip(&t) {
                    let y = mul_lazy(l, *x, w, c);
                    *x = _mm512_min_epu64(y, _mm512_sub_epi64(y, l.q));
                }
            }
            for (row, x) in rows.iter_mut().zip(v) {
                // SAFETY: as above.
                unsafe { store(row, j, x) };
            }
        }
    }

    /// x[j] ← x[j]·w[j] mod q in [0, 2q) for x < 2^52, with the Shoup
    /// companions c[j] of the factors.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; w and c are at least as long as
    /// x, whose length is a multiple of 8.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn mul_table(x: &mut [u64], w: &[u64], c: &[u64], q: u64) {
        let l = Lanes::new(q);
        for j in (0..x.len()).step_by(8) {
            // SAFETY: j + 8 ≤ x.len() ≤ w.len(), c.len().
            unsafe {
                let v = mul_lazy(l, load(x, j), load(w, j), load(c, j));
                store(x, j, v);
            }
        }
    }

    /// rows[i][j] ← (or +=, −=, as `how` says, modulo q) words[j·k + i] mod q,
    /// for i < k and j < count: k-word groups reduced and transposed, an 8 × 8
    /// block of words at a time (values in the rows < q in and out).
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; k and count are multiples of 8,
    /// `words` holds count·k words, `rows` k rows of at least count.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn project_words(
        words: &[u64],
        k: usize,
        rows: &mut [&mut [u64]],
        count: usize,
        q: u64,
        how: crate::conv52::Accumulate,
    ) {
        use crate::conv52::Accumulate;
        let l = Lanes::new(q);
        // x mod q = (x mod 2^52)·1 + ⌊x/2^52⌋·(2^52 mod q), each term by Shoup.
        let one = _mm512_set1_epi64(1);
        let one_c = _mm512_set1_epi64(super::companion52(1, q) as i64);
        let high_w = ((1u128 << 52) % q as u128) as u64;
        let high_c = _mm512_set1_epi64(super::companion52(high_w, q) as i64);
        let high_w = _mm512_set1_epi64(high_w as i64);
        let reduce = |x: __m512i| {
            let low = mul_lazy(l, _mm512_and_si512(x, l.mask), one, one_c);
            let high = mul_lazy(l, _mm512_srli_epi64(x, 52), high_w, high_c);
            let t = reduce(l, _mm512_add_epi64(low, high));
            _mm512_min_epu64(t, _mm512_sub_epi64(t, l.q))
        };
        let pairs_even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
        let pairs_odd = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
        for j in (0..count).step_by(8) {
            for g in (0..k).step_by(8) {
                // SAFETY: (j + e)·k + g + 8 ≤ count·k = words.len().
                let v: [__m512i; 8] = std::array::from_fn(|e| unsafe { load(words, (j + e) * k + g) });
                // 2 × 2 blocks, then 4 × 4 within 256-bit halves, then halves.
                let lo: [__m512i; 4] = std::array::from_fn(|e| _mm512_unpacklo_epi64(v[2 * e], v[2 * e + 1]));
                let hi: [__m512i; 4] = std::array::from_fn(|e| _mm512_unpackhi_epi64(v[2 * e], v[2 * e + 1]));
                // d04[h]: digits 0 and 4 of elements 4h..4h+4, and so on.
                let d04: [__m512i; 2] =
                    std::array::from_fn(|h| _mm512_permutex2var_epi64(lo[2 * h], pairs_even, lo[2 * h + 1]));
                let d26: [__m512i; 2] =
                    std::array::from_fn(|h| _mm512_permutex2var_epi64(lo[2 * h], pairs_odd, lo[2 * h + 1]));
                let d15: [__m512i; 2] =
                    std::array::from_fn(|h| _mm512_permutex2var_epi64(hi[2 * h], pairs_even, hi[2 * h + 1]));
                let d37: [__m512i; 2] =
                    std::array::from_fn(|h| _mm512_permutex2var_epi64(hi[2 * h], pairs_odd, hi[2 * h + 1]));
                let digit = [
                    _mm512_shuffle_i64x2::<0x44>(d04[0], d04[1]),
                    _mm512_shuffle_i64x2::<0x44>(d15[0], d15[1]),
                    _mm512_shuffle_i64x2::<0x44>(d26[0], d26[1]),
                    _mm512_shuffle_i64x2::<0x44>(d37[0], d37[1]),
                    _mm512_shuffle_i64x2::<0xEE>(d04[0], d04[1]),
                    _mm512_shuffle_i64x2::<0xEE>(d15[0], d15[1]),
                    _mm512_shuffle_i64x2::<0xEE>(d26[0], d26[1]),
                    _mm512_shuffle_i64x2::<0xEE>(d37[0], d37[1]),
                ];
                for (i, &x) in digit.iter().enumerate() {
                    let row = &mut *rows[g + i];
                    let t = reduce(x);
                    let v = match how {
                        Accumulate::Store => t,
                        Accumulate::Add | Accumulate::Subtract => {
                            // SAFETY: j + 8 ≤ count ≤ row.len().
                            let old = unsafe { load(row, j) };
                            let s = match how {
                                Accumulate::Add => _mm512_add_epi64(old, t),
                                _ => _mm512_sub_epi64(_mm512_add_epi64(old, l.q), t),
                            };
                            _mm512_min_epu64(s, _mm512_sub_epi64(s, l.q))
                        }
                    };
                    // SAFETY: j + 8 ≤ count ≤ row.len().
                    unsafe { store(row, j, v) };
                }
            }
        }
    }

    /// a ← a·b·2^(−52) mod q in [0, 2q) for a, b < 2q (Montgomery in base
    /// 2^52; `q_neg_inv` = −q^(−1) mod 2^52); b = a when `None`.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; a and b have the same length, a
    /// multiple of 8.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn mul_montgomery(a: &mut [u64], b: Option<&[u64]>, q: u64, q_neg_inv: u64) {
        let l = Lanes::new(q);
        let q_neg_inv = _mm512_set1_epi64(q_neg_inv as i64);
        let one = _mm512_set1_epi64(1);
        for j in (0..a.len()).step_by(8) {
            // SAFETY: j + 8 ≤ a.len() = b.len().
            unsafe {
                let x = load(a, j);
                let y = match b {
                    Some(b) => load(b, j),
                    None => x,
                };
                let low = _mm512_madd52lo_epu64(l.zero, x, y);
                let high = _mm512_madd52hi_epu64(l.zero, x, y);
                let m = _mm512_madd52lo_epu64(l.zero, low, q_neg_inv);
                // low + (m·q mod 2^52) is 0 or 2^52: the carry is low ≠ 0.
                let carry = _mm512_min_epu64(low, one);
                let v = _mm512_madd52hi_epu64(_mm512_add_epi64(high, carry), m, l.q);
                store(a, j, v);
            }
        }
    }

    /// Garner's mixed-radix digits of eight columns at a time: for every
    /// column j, v_l[j] (l < s) from the residues y_l[j] < q_l, with
    /// `inverse[l][m]` = (q_m^(−1) mod q_l, companion) and q_m < 2q_l.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; every slice of `residues` and
    /// `digits` has at least `len` elements, `len` a multiple of 8, and
    /// `inverse[l]` has l entries.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn mixed_radix(
        residues: &[&[u64]],
        digits: &mut [&mut [u64]],
        primes: &[u64],
        inverse: &[Vec<(u64, u64)>],
        len: usize,
    ) {
        let mut v = [_mm512_setzero_si512(); 8];
        for j in (0..len).step_by(8) {
            for (l, &q) in primes.iter().enumerate() {
                let lanes = Lanes::new(q);
                // SAFETY: j + 8 ≤ len ≤ residues[l].len().
                let mut t = unsafe { load(residues[l], j) };
                for (m, &(w, c)) in inverse[l].iter().enumerate() {
                    let x = _mm512_sub_epi64(_mm512_add_epi64(t, lanes.two_q), v[m]);
                    let y = mul_lazy(lanes, x, _mm512_set1_epi64(w as i64), _mm512_set1_epi64(c as i64));
                    t = _mm512_min_epu64(y, _mm512_sub_epi64(y, lanes.q));
                }
                v[l] = t;
                // SAFETY: j + 8 ≤ len ≤ digits[l].len().
                unsafe { store(digits[l], j, t) };
            }
        }
    }
}
