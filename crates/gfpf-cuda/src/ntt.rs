//! Word-size NTTs for the device (kernels/gfpf_ntt.cu): transforms of
//! length N = 2^n modulo primes q < 2^31 in 32-bit words ([`NttPlan31`]),
//! primes q = c·2^32 + 1 < 2^62 in 64-bit words ([`NttPlan62`], for lengths
//! past the 2^24 that 31-bit primes reach at most) or q = c·2^32 + 1 < 2^50
//! computed on in FP64 ([`NttPlan50`], [`F64Word`]: the same lengths, on
//! GPUs whose FP64 rate is their integer rate), a batch of transforms over
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
//! // 2^16 in two launches: 4 stages on tiles of 16 rows by 32 columns,
//! // then the last 12 on whole blocks of 4096 elements, whose last round
//! // runs on the tensor cores (compute capability 8.0 and later).
//! let launches = plan.launches(1, Direction::Forward);
//! assert_eq!(launches.iter().map(|l| (l.stages, l.log2_columns, l.tensor_cores)).collect::<Vec<_>>(), [(4, 5, 0), (12, 0, 1)]);
//! // Four short tables a prime, 3·2^8 + 16 + 2^14 words at 2^16, and the
//! // tensor cores' 1024.
//! assert_eq!(plan.twiddle_table(Direction::Inverse).len(), 2 * (3 * (1 << 8) + 16 + (1 << 14) + 1024));
//! # Ok::<(), gfpf_cuda::ntt::NttError>(())
//! ```
//!
//! 64-bit words take the same plans, three stages a round instead of four,
//! tiles of 128 KiB and blocks of up to 1024 threads:
//!
//! ```
//! use gfpf_cuda::ntt::{NTT_PRIMES_62, NttPlan62};
//! use gfpf_plan::Direction;
//!
//! let plan = NttPlan62::try_new(1 << 26, &NTT_PRIMES_62[..2])?;
//! // 2^26 in three passes, 2^24 in two, as with 32-bit words.
//! assert_eq!(plan.stage_groups().len(), 3);
//! assert_eq!(NttPlan62::try_new(1 << 24, &NTT_PRIMES_62[..2])?.stage_groups().len(), 2);
//! assert_eq!(plan.launches(1, Direction::Forward)[0].word_bytes, 8);
//! # Ok::<(), gfpf_cuda::ntt::NttError>(())
//! ```
//!
//! FP64 words take the 64-bit words' plans; their residues are integers in
//! device memory, their tables doubles:
//!
//! ```
//! use gfpf_cuda::ntt::{F64Word, NttPlan50, ntt50_primes};
//! use gfpf_plan::Direction;
//!
//! let primes = ntt50_primes(24, 2);
//! assert!(primes.iter().all(|&q| q < 1 << 50 && q % (1 << 32) == 1));
//! let plan = NttPlan50::try_new(1 << 24, &primes)?;
//! assert_eq!(plan.stage_groups().len(), 2);
//! // The first prime's q, as the kernel reads it.
//! assert_eq!(f64::from_bits(plan.prime_constants()[0].0), primes[0] as f64);
//! assert_eq!(plan.primes()[0], F64Word(primes[0]));
//! # Ok::<(), gfpf_cuda::ntt::NttError>(())
//! ```

use gfpf_plan::Direction;
/// Primes below 2^31 with 2^24 or more dividing q − 1 (gfpf-small's table),
/// for transforms up to 2^24.
pub use gfpf_small::primes::NTT_PRIMES_31;
/// The 64 largest primes c·2^32 + 1 below 2^62 (gfpf-small's table), for
/// [`NttPlan62`]'s transforms up to 2^32.
pub use gfpf_small::primes::NTT_PRIMES_62;
use gfpf_small::primes::{inv_mod, is_prime, mul_mod, root_of_unity, two_adicity};

/// Words of a tile at most (`GfpfNttWord<T>::TILE_LOG2`, the same for both
/// widths): 64 KiB of dynamic shared memory for 32-bit words, 128 KiB for
/// 64-bit ones, with their padding and roots ([`NttParams::shared_bytes`]),
/// so that 2^24 takes two passes over device memory (11 stages on tiles of
/// 2048 rows by 8 columns, then 13 on whole blocks of 8192 words).
pub const NTT_TILE_WORDS: usize = 1 << <u32 as NttWord>::TILE_LOG2;
/// Bytes of dynamic shared memory a block with a tile of `tile_words` words
/// of `word_bytes` bytes takes: the tile with a pad word after every 128
/// bytes, then 8 pairs of a root of order 16's powers (`GfpfNttShared` and
/// `roots_at` in kernels/gfpf_ntt.cu).
/// Whether a launch of `stages` stages with `after` stages after it, tiles
/// of 2^`log2_columns` columns, blocks of 2^`log2_threads` threads and
/// rounds of up to 2^`round_log2` words runs its last round of a forward
/// transform on the tensor cores (the kernel's condition, `tensor_cores` in
/// gfpf_ntt_stages): it ends the transform (G = 1), its last round is of
/// four stages (rounds of at most four, the longer ones last: 10 to 16
/// stages, or 7 and 8), its tile has 8 groups a warp and its blocks whole
/// warps.
fn last_round_on_tensor_cores(stages: u32, after: u32, log2_columns: u32, log2_threads: u32, round_log2: u32) -> bool {
    let longest_round = stages.div_ceil(stages.div_ceil(4));
    after == 0 && log2_columns == 0 && round_log2 == 4 && longest_round == 4 && stages >= 7 && log2_threads >= 5
}

const fn tile_shared_bytes(tile_words: usize, word_bytes: usize) -> u32 {
    (word_bytes * (tile_words + tile_words * word_bytes / 128 + 16)) as u32
}
/// A 32-bit tile's shared bytes with the tensor cores' DFT_16 operands after
/// it, from the next 16-byte boundary (`gfpf_ntt_mma_at` in kernels/gfpf_ntt.cu).
const fn with_mma_operands(tile_bytes: u32) -> u32 {
    tile_bytes.next_multiple_of(16) + 4 * DFT16_MMA_FRAGMENT_WORDS as u32
}
/// Bytes of dynamic shared memory the largest tile of 32-bit words takes
/// with the tensor cores' operands (67.6 KB and 4 KiB: 2^14 in one launch,
/// its last round on them): what a block of `gfpf_ntt31_stages` takes at
/// most, and what its occupancy is held to ([`NttWord::MOST_SHARED_BYTES`]
/// for each width).
pub const NTT_MOST_SHARED_BYTES: u32 = <u32 as NttWord>::MOST_SHARED_BYTES;
/// The fewest columns of a tile that is not contiguous: 8 words, one
/// 32-byte sector a row.
pub const NTT_LEAST_COLUMNS: usize = 8;
/// Threads of a block at most in 32-bit words (the kernel's
/// `__launch_bounds__`; [`NttWord::BLOCK_THREADS`] for each width).
pub const NTT_BLOCK_THREADS: usize = <u32 as NttWord>::BLOCK_THREADS as usize;
/// The words a thread holds in a round of 32-bit words, radix 16
/// ([`NttWord::ROUND_LOG2`] for each width): a block takes a tile's words
/// over 16 threads.
pub const NTT_ROUND_ELEMENTS: usize = 1 << <u32 as NttWord>::ROUND_LOG2;
/// Columns of a tile at most: 32 words, four 32-byte sectors a row.
pub const NTT_TILE_COLUMNS: usize = 32;
/// The 32-bit kernel's symbol ([`NttWord::KERNEL`] for each width).
pub const NTT_KERNEL: &str = <u32 as NttWord>::KERNEL;
/// Every kernel of the module (the stage kernel of each word, 32-bit,
/// 64-bit and FP64, and the tensor-core DFT_16) with the most threads a
/// block of it takes and the most dynamic shared memory (bytes): what its
/// occupancy is held to.
pub const NTT_KERNELS: [(&str, u32, u32); 4] = [
    ntt_kernel_limits::<u32>(),
    ntt_kernel_limits::<u64>(),
    ntt_kernel_limits::<F64Word>(),
    (
        DFT16_MMA_KERNEL,
        DFT16_MMA_BLOCK_THREADS,
        4 * DFT16_MMA_FRAGMENT_WORDS as u32,
    ),
];

/// The tensor-core DFT_16 kernel's symbol: a batch of DFT_16 of 31-bit
/// residues as int8 matrix products (`mma.sync` m16n8k32, compute
/// capability 8.0 and later), a warp 8 columns; see
/// [`dft16_mma_fragments`]. The stage kernel runs the same DFT in a
/// transform's last round ([`NttPlan::with_tensor_cores`]); this kernel
/// takes it alone, for checking the layouts ([`dft16_mma_on_device`]).
pub const DFT16_MMA_KERNEL: &str = "gfpf_ntt31_dft16_mma";
/// The most threads a block of [`DFT16_MMA_KERNEL`] takes.
pub const DFT16_MMA_BLOCK_THREADS: u32 = 256;
/// Words of [`dft16_mma_fragments`]: 4 byte slices × 2 products of K = 32
/// × 32 lanes × 4 registers.
pub const DFT16_MMA_FRAGMENT_WORDS: usize = 1024;

/// The left operands of [`DFT16_MMA_KERNEL`] for a prime q < 2^31 with 16
/// dividing q − 1, in the lanes' register order (lane l's four registers of
/// product (a, h) at words ((2a + h)·32 + l)·4 …): byte a of V[p][4m + b] =
/// 2^(32+8b)·w16^(m·rev4(p)) mod q, w16 = [`root_of_unity`]`(q, 4)` (the
/// root the stage kernels' rounds take), for output places p < 16 and data
/// rows m < 16: lane 4g + t's registers of half h take places 2g (its
/// registers 0 and 2) and 2g + 1 (registers 1 and 3) against data rows 4t +
/// 2h (registers 0 and 1) and 4t + 2h + 1 (registers 2 and 3), the rows its
/// data registers 2h and 2h + 1 hold. With these, the kernel's products of the data's bytes sum to
/// 2^32·y_p mod q, y the DFT_16 in bit-reversed order. (Lane 4g + t reads
/// data rows 4t … 4t + 3 and writes places 2g and 2g + 1, so that a warp's
/// eight groups meet 32 distinct banks in the stage kernel's tile, where
/// rows t, t + 4, t + 8, t + 12 and places g, g + 8 put four lanes to a
/// bank.)
///
/// ```
/// let fragments = gfpf_cuda::ntt::dft16_mma_fragments(2013265921).unwrap();
/// assert_eq!(fragments.len(), gfpf_cuda::ntt::DFT16_MMA_FRAGMENT_WORDS);
/// assert!(gfpf_cuda::ntt::dft16_mma_fragments(2147483659).is_err()); // 2^31 + 11
/// ```
pub fn dft16_mma_fragments(q: u64) -> Result<Vec<u32>, NttError> {
    if q >= 1 << 31 || !is_prime(q) {
        return Err(NttError::NotPrime { q, bits: 31 });
    }
    let w16 = root_of_unity(q, 4).map_err(|_| NttError::NoRoot {
        q,
        two_adicity: two_adicity(q),
        log2_n: 4,
    })?;
    Ok(dft16_mma_fragments_of(q, w16))
}

/// [`dft16_mma_fragments`] for the root of order 16 `w16` (a plan's:
/// ω^(N/16), or its inverse's).
fn dft16_mma_fragments_of(q: u64, w16: u64) -> Vec<u32> {
    let pow = |b: u64, e: u64| gfpf_small::primes::pow_mod(b, e, q);
    // V[p][m][b], each below q < 2^31.
    let v = |p: usize, m: usize, b: usize| {
        let rev = (p.reverse_bits() >> (usize::BITS - 4)) as u64;
        mul_mod(pow(2, 32 + 8 * b as u64), pow(w16, m as u64 * rev), q)
    };
    let mut words = vec![0u32; DFT16_MMA_FRAGMENT_WORDS];
    for a in 0..4 {
        for h in 0..2 {
            for lane in 0..32 {
                let (g, t) = (lane >> 2, lane & 3);
                for r in 0..4 {
                    // Registers 0, 2: row g, output place p = 2g; 1, 3: row
                    // g + 8, place 2g + 1; 0, 1: K = 4t + b, data register
                    // 2h of lane t; 2, 3: K = 16 + 4t + b, its register 2h
                    // + 1; lane t's register k holds data row 4t + k, so m =
                    // 4t + 2h + r / 2.
                    let (p, m) = (2 * g + (r & 1), 4 * t + 2 * h + (r >> 1));
                    words[((2 * a + h) * 32 + lane) * 4 + r] =
                        (0..4).map(|b| ((v(p, m, b) >> (8 * a)) as u32 & 0xff) << (8 * b)).sum();
                }
            }
        }
    }
    words
}
/// One prime's constants as the kernels read them, for transforms of length
/// `n` ([`NttPlan::prime_constants`]).
fn prime_constants_of<W: NttWord>(q: u64, n: u64) -> [W; 8] {
    let n_inv = inv_mod(n % q, q);
    [
        W::number_form(q),
        W::number_form(n_inv),
        W::shoup_form(n_inv, q),
        W::reduction_form(q),
        W::product_form(1, q),
        W::product_form(W::radix_mod(q), q),
        W::default(),
        W::default(),
    ]
}

const fn ntt_kernel_limits<W: NttWord>() -> (&'static str, u32, u32) {
    (W::KERNEL, W::BLOCK_THREADS, W::MOST_SHARED_BYTES)
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
    impl Sealed for super::F64Word {}
}

/// A word width of the device's NTTs (`GfpfNttWord` in kernels/gfpf_ntt.cu):
/// `u32` for primes below 2^31 (the GPU's native multiplier width), `u64`
/// for primes c·2^32 + 1 below 2^62 (lengths past 2^24; Montgomery products
/// word by word, a 32 × 30-bit product a step, since −q^−1 ≡ −1 mod 2^32).
pub trait NttWord:
    Copy
    + Eq
    + Ord
    + Default
    + std::fmt::Debug
    + std::fmt::Display
    + Send
    + Sync
    + Unpin
    + cudarc::driver::DeviceRepr
    + cudarc::driver::ValidAsZeroBits
    + sealed::Sealed
    + 'static
{
    /// Bits of a word.
    const BITS: u32;
    /// Primes lie below 2^`PRIME_BITS` (values and sums stay in a word).
    const PRIME_BITS: u32;
    /// The kernel's symbol.
    const KERNEL: &'static str;
    /// log2 of a tile's words at most: 2^14 (64 KiB of 32-bit words, 128 KiB
    /// of 64-bit ones), so that 2^24 takes two passes either way.
    const TILE_LOG2: u32;
    /// Threads of a block at most (the kernel's `__launch_bounds__`): 512
    /// (two blocks an SM), 1024 with 64-bit words (one block an SM, whose
    /// 139 KB tile leaves no room for two), 64 registers and 50% occupancy
    /// on sm_90 either way.
    const BLOCK_THREADS: u32;
    /// log2 of the words a thread holds in a round (its radix): 16 words of
    /// 32 bits, 8 of 64 (16 registers of data either way; 16 words of 64
    /// bits spilled 216 bytes within a thread's 64 registers).
    const ROUND_LOG2: u32;
    /// Words a prime's twiddle table ends with for the tensor cores' DFT_16
    /// ([`dft16_mma_fragments`]): 1024 for 32-bit words, none for others.
    const MMA_FRAGMENT_WORDS: usize = 0;
    /// Bytes of dynamic shared memory a block takes at most (the largest
    /// tile's, with the tensor cores' operands where the word has them: 71.7
    /// KB for 32-bit words).
    const MOST_SHARED_BYTES: u32 = if Self::MMA_FRAGMENT_WORDS > 0 {
        with_mma_operands(tile_shared_bytes(1 << Self::TILE_LOG2, Self::BITS as usize / 8))
    } else {
        tile_shared_bytes(1 << Self::TILE_LOG2, Self::BITS as usize / 8)
    };
    /// The word holding `v` (below 2^`BITS`).
    fn from_u64(v: u64) -> Self;
    /// The word's value.
    fn to_u64(self) -> u64;
    /// Whether the kernel takes the prime q < 2^`PRIME_BITS`: every one for
    /// 32-bit words, those ≡ 1 mod 2^32 for 64-bit ones.
    fn takes(q: u64) -> bool;
    /// Up to `count` primes of this width with 2^`two_adicity` dividing
    /// q − 1, largest first: [`ntt31_primes`], [`ntt62_primes`].
    fn primes(two_adicity: u32, count: usize) -> Vec<u64>;
    /// −q^−1 mod 2^`BITS` for a prime of this width (Montgomery's constant
    /// as the integer kernels take it, the multi-modular ones included:
    /// gfpf-small's `Montgomery32`/`Montgomery64`).
    fn neg_q_inv(q: u64) -> u64;
    /// The NTT kernel's form of a factor w < q that it multiplies by (a
    /// twiddle table's entry, a constant): Montgomery's w·2^w mod q in
    /// integer words, w as a double in FP64.
    fn product_form(w: u64, q: u64) -> Self {
        Self::from_u64(montgomery_form::<Self>(w, q))
    }
    /// The NTT kernel's quotient for Shoup's product by w < q: ⌊w·2^w/q⌋ in
    /// integer words, w/q as a double in FP64.
    fn shoup_form(w: u64, q: u64) -> Self {
        Self::from_u64(shoup_quotient::<Self>(w, q))
    }
    /// A value the NTT kernel takes as a number (q, N^−1, a Shoup pair's w):
    /// the integer, or its double in FP64.
    fn number_form(v: u64) -> Self {
        Self::from_u64(v)
    }
    /// The NTT kernel's constant beside q: −q^−1 mod 2^w
    /// ([`NttWord::neg_q_inv`]), or 1/q as a double in FP64.
    fn reduction_form(q: u64) -> Self {
        Self::from_u64(Self::neg_q_inv(q))
    }
    /// The value whose [`NttWord::product_form`] turns a product form
    /// into its square's (2^w mod q, Montgomery's radix; 1 in FP64).
    fn radix_mod(q: u64) -> u64 {
        montgomery_form::<Self>(1, q)
    }
}

/// A residue below 2^50 that the NTT kernel computes on in FP64
/// (`gfpf_ntt50_stages`: doubles, about ten DFMA, DMUL and DADD a product,
/// Jean and Graillat's error-free products), held in device memory as a
/// 64-bit integer like the 62-bit words' residues (the multi-modular
/// kernels read and write both alike); the twiddle tables and prime
/// constants of its plans hold doubles' bits. Primes c·2^32 + 1 below 2^50
/// ([`ntt50_primes`]): the FP64 products are exact for them
/// (kernels/gfpf_ntt.cu, `gfpf_ntt_mul_fp`), and the multi-modular
/// kernels' word-by-word Montgomery products take them as 62-bit ones.
/// For the GPUs whose FP64 rate is their integer rate (A100, H100, H200);
/// most others run FP64 at 1/64 of it.
#[repr(transparent)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct F64Word(pub u64);

impl std::fmt::Display for F64Word {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

// SAFETY: #[repr(transparent)] over u64: the device reads and writes it as a
// 64-bit word.
unsafe impl cudarc::driver::DeviceRepr for F64Word {}
// SAFETY: as u64's, all-zero bits are the value 0 (and the double 0.0).
unsafe impl cudarc::driver::ValidAsZeroBits for F64Word {}

impl NttWord for F64Word {
    const BITS: u32 = 64;
    const PRIME_BITS: u32 = 50;
    const KERNEL: &'static str = "gfpf_ntt50_stages";
    const TILE_LOG2: u32 = 14;
    const BLOCK_THREADS: u32 = 1024;
    const ROUND_LOG2: u32 = 3;
    fn from_u64(v: u64) -> Self {
        F64Word(v)
    }
    fn to_u64(self) -> u64 {
        self.0
    }
    fn takes(q: u64) -> bool {
        q % (1 << 32) == 1
    }
    fn primes(two_adicity: u32, count: usize) -> Vec<u64> {
        ntt50_primes(two_adicity, count)
    }
    fn neg_q_inv(q: u64) -> u64 {
        u64::neg_q_inv(q)
    }
    fn product_form(w: u64, _: u64) -> Self {
        Self::number_form(w)
    }
    fn shoup_form(w: u64, q: u64) -> Self {
        // Both exact as doubles (below 2^53): IEEE's correctly rounded
        // quotient.
        F64Word((w as f64 / q as f64).to_bits())
    }
    fn number_form(v: u64) -> Self {
        F64Word((v as f64).to_bits())
    }
    fn reduction_form(q: u64) -> Self {
        F64Word((1.0 / q as f64).to_bits())
    }
    fn radix_mod(_: u64) -> u64 {
        1
    }
}

impl NttWord for u32 {
    const BITS: u32 = 32;
    const PRIME_BITS: u32 = 31;
    const KERNEL: &'static str = "gfpf_ntt31_stages";
    const TILE_LOG2: u32 = 14;
    const BLOCK_THREADS: u32 = 512;
    const ROUND_LOG2: u32 = 4;
    const MMA_FRAGMENT_WORDS: usize = DFT16_MMA_FRAGMENT_WORDS;
    fn from_u64(v: u64) -> Self {
        v as u32
    }
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    fn takes(_: u64) -> bool {
        true
    }
    fn primes(two_adicity: u32, count: usize) -> Vec<u64> {
        ntt31_primes(two_adicity, count)
    }
    fn neg_q_inv(q: u64) -> u64 {
        let m = gfpf_small::Montgomery32::new(q as u32).expect("an odd prime below 2^31");
        u64::from(m.neg_q_inv())
    }
}

impl NttWord for u64 {
    const BITS: u32 = 64;
    const PRIME_BITS: u32 = 62;
    const KERNEL: &'static str = "gfpf_ntt62_stages";
    const TILE_LOG2: u32 = 14;
    const BLOCK_THREADS: u32 = 1024;
    const ROUND_LOG2: u32 = 3;
    fn from_u64(v: u64) -> Self {
        v
    }
    fn to_u64(self) -> u64 {
        self
    }
    fn takes(q: u64) -> bool {
        q % (1 << 32) == 1
    }
    fn primes(two_adicity: u32, count: usize) -> Vec<u64> {
        ntt62_primes(two_adicity, count)
    }
    fn neg_q_inv(q: u64) -> u64 {
        gfpf_small::Montgomery64::new(q)
            .expect("an odd prime below 2^62")
            .neg_q_inv()
    }
}

/// Why a word-size NTT plan was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NttError {
    /// The length is not a power of two of at least 64 (two warps' worth).
    #[error("NTT length {0} is not a power of two from 64 to 2^30")]
    Length(usize),
    /// A modulus is not a prime below 2^`bits` (31 for 32-bit words, 62
    /// for 64-bit ones).
    #[error("{q} is not a prime below 2^{bits}")]
    NotPrime {
        /// The modulus.
        q: u64,
        /// log2 of the bound.
        bits: u32,
    },
    /// A prime the 64-bit kernel does not take: its Montgomery products
    /// need q ≡ 1 mod 2^32 ([`NTT_PRIMES_62`] are).
    #[error("{0} is not 1 mod 2^32, as primes of 64-bit NTTs must be")]
    PrimeForm(u64),
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
    /// Stage groups that do not make a transform of this length in tiles
    /// (see [`NttPlan31::with_stage_groups`]).
    #[error(
        "stage groups {groups:?} do not make 2^{log2_n} in tiles: they must sum to {log2_n}, the last take {least_last} to {most_last} stages and every other 1 to {most_other}"
    )]
    StageGroups {
        /// The groups given.
        groups: Vec<u32>,
        /// log2 of the length.
        log2_n: u32,
        /// The fewest stages the last launch takes.
        least_last: u32,
        /// The most stages the last launch takes (whole tiles of
        /// neighbouring words).
        most_last: u32,
        /// The most stages any other launch takes (tiles of 8 columns).
        most_other: u32,
    },
    /// A multi-modular product would need more primes than it may take
    /// (coefficient by coefficient, about 2·log2(p)/30 of 31 bits or
    /// 2·log2(p)/61 of 62 bits: k ≤ 16 fits).
    #[error("a product over this field needs {needed} word-size primes, more than the {most} it may take")]
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
        value: u64,
        /// The prime of its transform.
        q: u64,
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
    /// 0, or the address of words laid out as `data`: each word the launch
    /// reads from `data` is first multiplied by its twin there (the
    /// pointwise product, folded into the launch that reads it first).
    pub other: u64,
    /// Bytes of a word: 4 (`gfpf_ntt31_stages`) or 8 (`gfpf_ntt62_stages`).
    pub word_bytes: u64,
    /// 1: the launch ends a forward transform of 32-bit words with a round
    /// of four stages on the tensor cores ([`NttPlan::with_tensor_cores`]);
    /// the kernel then takes it where its tile allows.
    pub tensor_cores: u64,
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

    /// Words of the launch's tile: 2^L rows by C columns.
    pub fn tile_words(&self) -> usize {
        1 << (self.stages + self.log2_columns)
    }

    /// Bytes of dynamic shared memory a block takes: the tile with a pad
    /// word after every 128 bytes, then 8 pairs of a root of order 16's
    /// powers, then where the launch runs a round on the tensor cores the
    /// DFT_16's left operands from the next 16-byte boundary (`GfpfNttShared`,
    /// `roots_at` and `mma_at` in kernels/gfpf_ntt.cu).
    pub fn shared_bytes(&self) -> u32 {
        let tile = tile_shared_bytes(self.tile_words(), self.word_bytes as usize);
        if self.tensor_cores != 0 {
            with_mma_operands(tile)
        } else {
            tile
        }
    }
}

/// Forward NTTs of one length over a set of primes in words `W`
/// ([`NttPlan31`], [`NttPlan62`]): the twiddle tables and the launches,
/// built once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NttPlan<W: NttWord> {
    log2_n: u32,
    primes: Vec<W>,
    max_stages: u32,
    /// log2 of the most words a tile takes (64 KiB unless a device allows
    /// less: [`NttPlan::with_max_tile_words`]).
    tile_log2: u32,
    /// The stages of each launch where the caller chose them
    /// ([`NttPlan::with_stage_groups`]).
    groups: Option<Vec<u32>>,
    /// Whether a forward transform's last round may run on the tensor
    /// cores ([`NttPlan::with_tensor_cores`]).
    tensor_cores: bool,
}

/// NTTs modulo primes below 2^31 in 32-bit words.
pub type NttPlan31 = NttPlan<u32>;
/// NTTs modulo primes c·2^32 + 1 below 2^62 in 64-bit words.
pub type NttPlan62 = NttPlan<u64>;
/// NTTs modulo primes c·2^32 + 1 below 2^50 in FP64 ([`F64Word`]).
pub type NttPlan50 = NttPlan<F64Word>;

impl<W: NttWord> NttPlan<W> {
    /// A plan for length `n` modulo each of `primes` (each prime below
    /// 2^`W::PRIME_BITS`, one the kernel takes ([`NttWord::takes`]), with
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
            if q >= 1 << W::PRIME_BITS || !is_prime(q) {
                return Err(NttError::NotPrime { q, bits: W::PRIME_BITS });
            }
            if !W::takes(q) {
                return Err(NttError::PrimeForm(q));
            }
            let two_adicity = two_adicity(q);
            if two_adicity < log2_n {
                return Err(NttError::NoRoot { q, two_adicity, log2_n });
            }
        }
        Ok(NttPlan {
            log2_n,
            primes: primes.iter().map(|&q| W::from_u64(q)).collect(),
            max_stages: W::TILE_LOG2,
            tile_log2: W::TILE_LOG2,
            groups: None,
            tensor_cores: W::MMA_FRAGMENT_WORDS > 0,
        })
    }

    /// The same plan with the forward transform's last round on the tensor
    /// cores or not (32-bit words; on by default): where the last launch's
    /// rounds are of four stages (its stages a multiple of four, as at
    /// 2^12, 2^16 and 2^20), the last round's groups, 16 neighbouring words
    /// whose twiddles are all 1, are DFT_16 as int8 matrix products
    /// (`mma.sync`, compute capability 8.0 and later; [`CudaNtt`] turns it
    /// off on older devices), 16 instructions an element against 28.5 for
    /// the round in registers (machine-code counts, NVRTC 12.9, sm_90,
    /// 2026-11-27). Results are the same bits either way.
    pub fn with_tensor_cores(mut self, on: bool) -> Self {
        self.tensor_cores = on && W::MMA_FRAGMENT_WORDS > 0;
        self
    }

    /// Whether the plan may run a forward transform's last round on the
    /// tensor cores ([`NttPlan::with_tensor_cores`]).
    pub fn tensor_cores(&self) -> bool {
        self.tensor_cores
    }

    /// The same plan with the stages of each launch given, first to last,
    /// in place of [`NttPlan::stage_groups`]'s choice (for tests and
    /// measurements of other groupings): they must sum to n, the last take
    /// 6 to 14 stages (or all of n below 6), and every other 11 at most
    /// (fewer where [`NttPlan::with_max_tile_words`] made tiles smaller).
    pub fn with_stage_groups(mut self, groups: &[u32]) -> Result<Self, NttError> {
        let n = self.log2_n;
        let (least_last, most_last, most_other) = self.group_bounds();
        let fits = match groups.split_last() {
            Some((&last, others)) => {
                groups.iter().sum::<u32>() == n
                    && (least_last..=most_last).contains(&last)
                    && others.iter().all(|&g| (1..=most_other).contains(&g))
            }
            None => false,
        };
        if !fits {
            return Err(NttError::StageGroups {
                groups: groups.to_vec(),
                log2_n: n,
                least_last,
                most_last,
                most_other,
            });
        }
        self.groups = Some(groups.to_vec());
        Ok(self)
    }

    /// (the fewest stages of the last launch, the most, the most of any
    /// other) that the tiles allow: the last launch's tiles hold 64 words at
    /// least (two a thread of a warp) and at most the tile, on whole blocks
    /// of neighbouring words; the others' tiles have 8 columns or more.
    fn group_bounds(&self) -> (u32, u32, u32) {
        let least_last = self.log2_n.min(6);
        (
            least_last,
            self.tile_log2.max(least_last),
            self.tile_log2 - NTT_LEAST_COLUMNS.trailing_zeros(),
        )
    }

    /// The same plan with at most `max_stages` stages a launch (at least 1;
    /// the last launch takes 6 at least, or all N's if fewer): more
    /// launches, smaller tiles. What the tiles allow is the default; fewer
    /// make small N run launches between the first and the last, for tests.
    pub fn with_max_stages(mut self, max_stages: u32) -> Self {
        self.max_stages = max_stages.clamp(1, W::TILE_LOG2);
        self
    }

    /// The same plan with tiles of at most `words` words (rounded down to a
    /// power of two, 2^10 to [`NTT_TILE_WORDS`]): for devices that give a
    /// block less than [`NttParams::shared_bytes`] of the largest tile
    /// (67.6 KB with 32-bit words, 139.4 KB with 64-bit ones; sm_75 gives
    /// 64 KiB), at the cost of more launches past 2^21. Stage groups chosen
    /// before are dropped.
    pub fn with_max_tile_words(mut self, words: usize) -> Self {
        let log2 = words.max(1).ilog2().clamp(10, W::TILE_LOG2);
        self.tile_log2 = log2;
        self.groups = None;
        self
    }

    /// Bytes of dynamic shared memory the plan's largest block takes.
    pub fn most_shared_bytes(&self) -> u32 {
        self.launches(1, Direction::Forward)
            .iter()
            .map(NttParams::shared_bytes)
            .max()
            .unwrap_or(0)
    }

    /// The length N.
    pub fn len(&self) -> usize {
        1 << self.log2_n
    }

    /// Always false: a plan's length is at least 64.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The symbol of the kernel its launches take ([`NttWord::KERNEL`]: the
    /// launches' `word_bytes` alone do not tell 64-bit words from FP64).
    pub fn kernel(&self) -> &'static str {
        W::KERNEL
    }

    /// The primes.
    pub fn primes(&self) -> &[W] {
        &self.primes
    }

    /// The primes' constants as the kernel reads them: eight words a prime
    /// (w bits a word), q, N^−1 mod q, ⌊N^−1·2^w/q⌋, −q^−1 mod 2^w
    /// (Montgomery's), 2^w mod q, 2^2w mod q and two zeros.
    pub fn prime_constants(&self) -> Vec<W> {
        self.primes
            .iter()
            .flat_map(|&q| prime_constants_of::<W>(q.to_u64(), self.len() as u64))
            .collect()
    }

    /// Words of one prime's twiddle tables: 3·2^⌊n/2⌋ + 16 + 2^min(n, t),
    /// 2^t a tile's words at most (t = 14).
    pub fn twiddle_words_per_prime(&self) -> usize {
        (3 << (self.log2_n / 2)) + 16 + (1 << self.log2_n.min(W::TILE_LOG2)) + W::MMA_FRAGMENT_WORDS
    }

    /// Per prime, four short tables the kernel makes every twiddle w^e of
    /// (w = ω forward, ω^−1 inverse; see `GfpfNttTwiddles` in
    /// kernels/gfpf_ntt.cu), [`NttPlan::twiddle_words_per_prime`] words a
    /// prime (w bits a word), primes in order: with s = ⌊n/2⌋,
    /// - 2^s pairs (w^lo, ⌊w^lo·2^w/q⌋);
    /// - 2^s words w^(hi·2^s)·2^w mod q (the first 2^(n−1−s) used);
    /// - 8 pairs (w16^t, ⌊w16^t·2^w/q⌋), t < 8, w16 = w^(N/16) of order 16
    ///   (a round's radix-2^r roots are its powers);
    /// - for each order 2^m, m = 1 … min(n, t) (t as in
    ///   [`NttPlan::twiddle_words_per_prime`]), from word 2^(m−1) − 1, the
    ///   2^(m−1) words ρ_m^j·2^w mod q, ρ_m = w^(N/2^m) (a group's row
    ///   factor; one word unused at the end);
    /// - with 32-bit words, [`NttWord::MMA_FRAGMENT_WORDS`] words: the
    ///   tensor cores' DFT_16 operands ([`dft16_mma_fragments`]) for w16
    ///   (read by the launch that ends a forward transform; the inverse
    ///   table has them for its root, unread, so that both tables keep one
    ///   layout).
    ///
    /// 88.6 KiB a prime at 2^24 with 32-bit words: they stay in cache, where
    /// a table of every w^e would be read from memory at every stage.
    pub fn twiddle_table(&self, direction: Direction) -> Vec<W> {
        let split = self.log2_n / 2;
        let mut table = Vec::with_capacity(self.primes.len() * self.twiddle_words_per_prime());
        for &q in &self.primes {
            let q = q.to_u64();
            let omega = root_of_unity(q, self.log2_n).expect("checked at construction");
            let root = match direction {
                Direction::Forward => omega,
                Direction::Inverse => inv_mod(omega, q),
            };
            let shoup_pairs = |table: &mut Vec<W>, step: u64, count: u64| {
                let mut w = 1u64;
                for _ in 0..count {
                    table.push(W::number_form(w));
                    table.push(W::shoup_form(w, q));
                    w = mul_mod(w, step, q);
                }
            };
            shoup_pairs(&mut table, root, 1 << split);
            // The high table's step: root^(2^s).
            let step = gfpf_small::primes::pow_mod(root, 1 << split, q);
            let m_form = |w: u64| W::product_form(w, q);
            let mut w = 1u64;
            for _ in 0..1u64 << split {
                table.push(m_form(w));
                w = mul_mod(w, step, q);
            }
            // w16 = root^(N/16) (N ≥ 64).
            shoup_pairs(
                &mut table,
                gfpf_small::primes::pow_mod(root, 1 << (self.log2_n - 4), q),
                8,
            );
            for m in 1..=self.log2_n.min(W::TILE_LOG2) {
                let rho = gfpf_small::primes::pow_mod(root, 1 << (self.log2_n - m), q);
                let mut w = 1u64;
                for _ in 0..1u64 << (m - 1) {
                    table.push(m_form(w));
                    w = mul_mod(w, rho, q);
                }
            }
            table.push(W::default());
            if W::MMA_FRAGMENT_WORDS > 0 {
                let w16 = gfpf_small::primes::pow_mod(root, 1 << (self.log2_n - 4), q);
                table.extend(
                    dft16_mma_fragments_of(q, w16)
                        .into_iter()
                        .map(|w| W::from_u64(w.into())),
                );
            }
        }
        table
    }

    /// The launches of `transforms_per_prime` transforms a prime (data:
    /// prime-major, N words a transform), their addresses left 0 for the
    /// caller: the stages grouped ([`NttPlan::stage_groups`]) into tiles of
    /// 2^L rows by C columns, C = min(G, 32, tile/2^L) (8 at least where G
    /// allows), the words of a round's group a thread (16 of 32 bits: four
    /// stages; 8 of 64 bits: three), more where that would pass the block's
    /// most threads ([`NttWord::BLOCK_THREADS`]), 2 to 8 where it would
    /// leave a block less than a warp; the inverse runs the same groups in
    /// reverse order.
    pub fn launches(&self, transforms_per_prime: usize, direction: Direction) -> Vec<NttParams> {
        let n = self.log2_n;
        let transforms = (self.primes.len() * transforms_per_prime) as u64;
        let mut out = Vec::new();
        let mut first = 0;
        for stages in self.stage_groups() {
            let remaining = n - first;
            let log2_g = remaining - stages;
            let log2_columns = launch_columns_log2(stages, log2_g, self.tile_log2);
            let tile_log2 = stages + log2_columns;
            let log2_threads = block_threads_log2(tile_log2, W::ROUND_LOG2, W::BLOCK_THREADS);
            let blocks = transforms << (n - tile_log2);
            let round_log2 = (tile_log2 - log2_threads).min(W::ROUND_LOG2);
            let tensor_cores = self.tensor_cores
                && direction == Direction::Forward
                && last_round_on_tensor_cores(stages, remaining - stages, log2_columns, log2_threads, round_log2);
            out.push(NttParams {
                transforms_per_prime: transforms_per_prime as u64,
                threads: blocks << log2_threads,
                log2_n: u64::from(n),
                first: u64::from(first),
                stages: u64::from(stages),
                log2_columns: u64::from(log2_columns),
                log2_block_threads: u64::from(log2_threads),
                inverse: u64::from(direction == Direction::Inverse),
                word_bytes: u64::from(W::BITS / 8),
                tensor_cores: u64::from(tensor_cores),
                ..NttParams::default()
            });
            first += stages;
        }
        if direction == Direction::Inverse {
            out.reverse();
        }
        out
    }

    /// The stages of each launch, first to last: as few launches as the
    /// tiles allow (each a pass over device memory: the last up to 14
    /// stages on whole blocks of neighbouring words, G = 1; the others up to
    /// 11 on tiles of 8 columns or more), and of those groupings the one
    /// with the fewest rounds (a round: four stages or fewer through a
    /// thread's registers, three with 64-bit words, then shared memory),
    /// then with the tensor cores ([`NttPlan::with_tensor_cores`]) one whose
    /// last launch has a multiple of four stages, then the one whose
    /// smallest blocks are largest, then the most even.
    /// 32-bit words: 2^20 in 8 + 12 (five rounds), 2^24 in 11 + 13 (seven,
    /// two passes where tiles of 32 KiB took three); either width: up to
    /// 2^25 two launches, up to 2^30 three.
    pub fn stage_groups(&self) -> Vec<u32> {
        if let Some(groups) = &self.groups {
            return groups.clone();
        }
        let n = self.log2_n;
        let tile_log2 = self.tile_log2;
        let (least_last, most_last, most_other) = self.group_bounds();
        let most_last = most_last.min(self.max_stages).max(least_last);
        let most_other = most_other.min(self.max_stages);
        let launches = 1 + n.saturating_sub(most_last).div_ceil(most_other) as usize;
        // (rounds, smallest block's threads, largest launch) of a
        // grouping: fewer rounds, then larger blocks, then the most even
        // (the first pass has room for instructions under its memory time
        // where the last, issue-bound, has none: 2^24 in 11 + 13 models
        // 0.89 ms against 0.93 in 10 + 14, cargo xtask gpu-model, 2026-11-26).
        let cost = |sizes: &[u32]| {
            let mut rounds = 0;
            let mut least_threads = u32::MAX;
            let mut remaining = n;
            for &stages in sizes {
                remaining -= stages;
                let tile = stages + launch_columns_log2(stages, remaining, tile_log2);
                let threads = block_threads_log2(tile, W::ROUND_LOG2, W::BLOCK_THREADS);
                let most = (tile - threads).min(W::ROUND_LOG2);
                rounds += stages.div_ceil(most);
                least_threads = least_threads.min(threads);
            }
            // With the tensor cores, a last launch of rounds of four stages
            // each, not only its last (2^22 in 10 + 12 0.462 ms against
            // 0.516 in 8 + 14 for 18 primes, 2^21 0.445 against 0.474 for
            // 34, 2^15 and 2^18 2% faster, 2^17 2% slower; cargo xtask
            // gpu-model, 2026-11-27).
            let all_four = self.tensor_cores && sizes.last().is_some_and(|last| last.is_multiple_of(4));
            (
                rounds,
                std::cmp::Reverse(all_four),
                std::cmp::Reverse(least_threads),
                sizes.iter().copied().max().unwrap_or(0),
            )
        };
        let mut best: Option<Vec<u32>> = None;
        let mut sizes = Vec::with_capacity(launches);
        // Every grouping of n into `launches` parts within the bounds.
        fn each(sizes: &mut Vec<u32>, left: u32, parts: usize, bounds: (u32, u32, u32), visit: &mut dyn FnMut(&[u32])) {
            let (most_other, least_last, most_last) = bounds;
            if parts == 1 {
                if (least_last..=most_last).contains(&left) {
                    sizes.push(left);
                    visit(sizes);
                    sizes.pop();
                }
                return;
            }
            for stages in 1..=most_other.min(left) {
                sizes.push(stages);
                each(sizes, left - stages, parts - 1, bounds, visit);
                sizes.pop();
            }
        }
        each(
            &mut sizes,
            n,
            launches,
            (most_other, least_last, most_last),
            &mut |sizes| {
                if best.as_deref().is_none_or(|b| cost(sizes) < cost(b)) {
                    best = Some(sizes.to_vec());
                }
            },
        );
        best.expect("the launch count allows a grouping")
    }
}

/// log2 of a launch's columns C: min(G, 32) within 2^tile_log2 words, and 8
/// at least where G allows ([`NttPlan::stage_groups`] keeps the stages
/// within that).
fn launch_columns_log2(stages: u32, log2_g: u32, tile_log2: u32) -> u32 {
    let most = tile_log2 - stages;
    log2_g.min(NTT_TILE_COLUMNS.trailing_zeros()).min(most)
}

/// log2 of a block's threads for a tile of 2^tile_log2 words: a round's
/// group of 2^round_log2 words a thread, at most `most` threads (more
/// words a thread then), at least a warp where the tile has two words a
/// thread for it.
fn block_threads_log2(tile_log2: u32, round_log2: u32, most: u32) -> u32 {
    let elements_log2 = round_log2;
    tile_log2
        .saturating_sub(elements_log2)
        .max(5.min(tile_log2 - 1))
        .min(most.trailing_zeros())
}

impl<W: NttWord> NttPlan<W> {
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
    pub fn check_data(&self, data: &[W], transforms_per_prime: usize) -> Result<(), NttError> {
        self.check_len(data.len(), transforms_per_prime)?;
        let n = self.len();
        for (index, &value) in data.iter().enumerate() {
            let q = self.primes[index / (transforms_per_prime * n)];
            if value >= q {
                return Err(NttError::NotReduced {
                    index,
                    value: value.to_u64(),
                    q: q.to_u64(),
                });
            }
        }
        Ok(())
    }
}

/// x·2^w mod q, w = `W::BITS` (Montgomery form).
fn montgomery_form<W: NttWord>(x: u64, q: u64) -> u64 {
    ((u128::from(x) << W::BITS) % u128::from(q)) as u64
}

/// ⌊x·2^w/q⌋ for x < q (Shoup's quotient).
fn shoup_quotient<W: NttWord>(x: u64, q: u64) -> u64 {
    ((u128::from(x) << W::BITS) / u128::from(q)) as u64
}

/// Word-size NTTs on a device ([`CudaNtt31`], [`CudaNtt62`]): a plan's
/// tables kept there, its launches queued on the device's stream.
pub struct CudaNtt<W: NttWord> {
    device: std::sync::Arc<crate::CudaDevice>,
    plan: NttPlan<W>,
    function: cudarc::driver::CudaFunction,
    forward_table: cudarc::driver::CudaSlice<W>,
    inverse_table: cudarc::driver::CudaSlice<W>,
    constants: cudarc::driver::CudaSlice<W>,
}

/// NTTs modulo primes below 2^31 on a device.
pub type CudaNtt31 = CudaNtt<u32>;
/// NTTs modulo primes c·2^32 + 1 below 2^62 on a device.
pub type CudaNtt62 = CudaNtt<u64>;
/// NTTs modulo primes c·2^32 + 1 below 2^50 on a device, in FP64.
pub type CudaNtt50 = CudaNtt<F64Word>;

impl<W: NttWord> std::fmt::Debug for CudaNtt<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaNtt")
            .field("device", &self.device)
            .field("plan", &self.plan)
            .finish()
    }
}

impl<W: NttWord> CudaNtt<W> {
    /// Loads the kernel (compiled once per device) and uploads the plan's
    /// tables; where the device gives a block less shared memory than the
    /// plan's largest tile takes, the plan's tiles are made smaller
    /// ([`NttPlan::with_max_tile_words`]; [`CudaNtt::plan`] says).
    pub fn try_new(device: &std::sync::Arc<crate::CudaDevice>, plan: NttPlan<W>) -> Result<Self, crate::CudaError> {
        let function = device
            .ntt_module()?
            .load_function(W::KERNEL)
            .map_err(|e| crate::CudaError::driver("loading the NTT kernel", 0, e))?;
        // Tiles within what the device gives a block (71.7 KB for the
        // largest; sm_75 gives 64 KiB), and the kernel's limit raised to
        // them (past the 48 KiB a kernel gets without asking).
        let allowed = device.shape().max_shared_bytes_per_block;
        // int8 mma.sync from compute capability 8.0.
        let on = plan.tensor_cores() && device.compute_capability() >= (8, 0);
        let mut plan = plan.with_tensor_cores(on);
        let mut words = 1usize << W::TILE_LOG2;
        while plan.most_shared_bytes() > allowed && words > 1 << 10 {
            words /= 2;
            plan = plan.with_max_tile_words(words);
        }
        crate::device::allow_dynamic_shared(&function, plan.most_shared_bytes())?;
        let stream = device.stream();
        let upload = |what: &'static str, words: Vec<W>| {
            stream
                .clone_htod(&words)
                .map_err(|e| crate::CudaError::driver(what, std::mem::size_of_val(&words[..]), e))
        };
        Ok(CudaNtt {
            forward_table: upload("uploading the NTT's twiddles", plan.twiddle_table(Direction::Forward))?,
            inverse_table: upload("uploading the NTT's twiddles", plan.twiddle_table(Direction::Inverse))?,
            constants: upload("uploading the NTT's primes", plan.prime_constants())?,
            device: device.clone(),
            function,
            plan,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &NttPlan<W> {
        &self.plan
    }

    /// Queues the transforms of `data` on the device's stream, in place:
    /// `transforms_per_prime` transforms a prime, prime-major, N words each,
    /// every word below its prime (not checked here: see [`Self::process`]).
    pub fn process_device(
        &self,
        data: &mut cudarc::driver::CudaSlice<W>,
        transforms_per_prime: usize,
        direction: Direction,
    ) -> Result<(), crate::CudaError> {
        self.queue(data, None, transforms_per_prime, direction)
    }

    /// As [`Self::process_device`], of the pointwise product of `data` and
    /// `other` (the same layout, left as it is): the product made as the
    /// first launch reads `data`, where a launch of its own would read and
    /// write every word once more. The inverse of two forward transforms'
    /// product is their cyclic convolution.
    pub fn process_device_times(
        &self,
        data: &mut cudarc::driver::CudaSlice<W>,
        other: &cudarc::driver::CudaSlice<W>,
        transforms_per_prime: usize,
        direction: Direction,
    ) -> Result<(), crate::CudaError> {
        if other.len() != data.len() {
            return Err(NttError::DataLength {
                len: other.len(),
                transforms: self.plan.primes.len() * transforms_per_prime,
                n: self.plan.len(),
            }
            .into());
        }
        self.queue(data, Some(other), transforms_per_prime, direction)
    }

    fn queue(
        &self,
        data: &mut cudarc::driver::CudaSlice<W>,
        other: Option<&cudarc::driver::CudaSlice<W>>,
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
        let other = other.map(|o| o.device_ptr(stream));
        for (i, launch) in self
            .plan
            .launches(transforms_per_prime, direction)
            .into_iter()
            .enumerate()
        {
            let params = NttParams {
                data: data_ptr,
                twiddles: table_ptr,
                primes: constants_ptr,
                // The first launch makes the pointwise product.
                other: match &other {
                    Some((ptr, _)) if i == 0 => *ptr,
                    _ => 0,
                },
                ..launch
            };
            // SAFETY: the kernel's only argument is GfpfNttParams by value
            // (NttParams mirrors it); data (and other, of the same length)
            // hold the launch's transforms (checked above), the tables and
            // constants are the plan's.
            unsafe {
                crate::fft::launch_with_shared(
                    &self.device,
                    &self.function,
                    &params,
                    params.threads,
                    params.block_threads(),
                    params.shared_bytes(),
                )?
            };
        }
        Ok(())
    }

    /// Host words: checked ([`NttPlan::check_data`]), uploaded,
    /// transformed, downloaded.
    pub fn process(
        &self,
        data: &mut [W],
        transforms_per_prime: usize,
        direction: Direction,
    ) -> Result<(), crate::CudaError> {
        self.plan.check_data(data, transforms_per_prime)?;
        let stream = self.device.stream();
        let mut words = stream
            .clone_htod(&*data)
            .map_err(|e| crate::CudaError::driver("uploading NTT data", std::mem::size_of_val(&data[..]), e))?;
        self.process_device(&mut words, transforms_per_prime, direction)?;
        stream
            .memcpy_dtoh(&words, data)
            .map_err(|e| crate::CudaError::driver("downloading NTT data", std::mem::size_of_val(&data[..]), e))?;
        Ok(())
    }
}

/// Runs [`DFT16_MMA_KERNEL`] on the device: `data` holds 16 rows of C =
/// `data.len()/16` words (row m of column c at m·C + c; C a power of two,
/// at least 8), every word below q, and each column becomes y_p =
/// A_c^rev4(p)·Σ_m x_m·w16^(m·rev4(p)) mod q in place (a round of four
/// forward stages on a group), A_c·2^32 mod q at `factors[c]` (A_c = 1 where
/// `factors` is `None`). Uploads, one launch, downloads: for checking the
/// tensor cores' arithmetic on a GPU, not for speed.
pub fn dft16_mma_on_device(
    device: &std::sync::Arc<crate::CudaDevice>,
    q: u64,
    data: &mut [u32],
    factors: Option<&[u32]>,
) -> Result<(), crate::CudaError> {
    use cudarc::driver::{DevicePtr, DevicePtrMut};
    let columns = data.len() / 16;
    let length_error = || NttError::DataLength {
        len: data.len(),
        transforms: columns,
        n: 16,
    };
    if !data.len().is_multiple_of(16) || !columns.is_power_of_two() || columns < 8 {
        return Err(length_error().into());
    }
    if factors.is_some_and(|f| f.len() != columns) {
        return Err(length_error().into());
    }
    let fragments = dft16_mma_fragments(q)?;
    if let Some((index, &value)) = data
        .iter()
        .chain(factors.unwrap_or(&[]))
        .enumerate()
        .find(|&(_, &v)| u64::from(v) >= q)
    {
        return Err(NttError::NotReduced {
            index,
            value: value.into(),
            q,
        }
        .into());
    }
    if device.compute_capability() < (8, 0) {
        return Err(crate::CudaError::ComputeCapability {
            what: "the tensor-core DFT_16 (int8 mma.sync)",
            needs: (8, 0),
            has: device.compute_capability(),
        });
    }
    let function = device
        .ntt_module()?
        .load_function(DFT16_MMA_KERNEL)
        .map_err(|e| crate::CudaError::driver("loading the tensor-core DFT kernel", 0, e))?;
    // A DFT_16's: 16 | q − 1 is all it asks (dft16_mma_fragments checked it).
    let constants = prime_constants_of::<u32>(q, 16);
    let stream = device.stream();
    let upload = |what: &'static str, words: &[u32]| {
        stream
            .clone_htod(words)
            .map_err(|e| crate::CudaError::driver(what, std::mem::size_of_val(words), e))
    };
    let mut words = upload("uploading the DFT's data", data)?;
    let fragments = upload("uploading the DFT's fragments", &fragments)?;
    let constants = upload("uploading the prime's constants", &constants)?;
    let factors = factors.map(|f| upload("uploading the group factors", f)).transpose()?;
    {
        let (data_ptr, _data_sync) = words.device_ptr_mut(stream);
        let (fragments_ptr, _fragments_sync) = fragments.device_ptr(stream);
        let (constants_ptr, _constants_sync) = constants.device_ptr(stream);
        let factors = factors.as_ref().map(|f| f.device_ptr(stream));
        let params = NttParams {
            data: data_ptr,
            twiddles: fragments_ptr,
            primes: constants_ptr,
            other: factors.as_ref().map_or(0, |(ptr, _)| *ptr),
            threads: (columns / 8 * 32) as u64,
            log2_columns: u64::from(columns.trailing_zeros()),
            word_bytes: 4,
            ..Default::default()
        };
        // SAFETY: the kernel's only argument is GfpfNttParams by value;
        // data holds 16 rows of `columns` words, the fragments 1024 words,
        // the constants the prime's eight, the factors (where given)
        // `columns` words (all checked above).
        unsafe {
            crate::fft::launch_with_shared(
                device,
                &function,
                &params,
                params.threads,
                DFT16_MMA_BLOCK_THREADS,
                4 * DFT16_MMA_FRAGMENT_WORDS as u32,
            )?
        };
    }
    stream
        .memcpy_dtoh(&words, data)
        .map_err(|e| crate::CudaError::driver("downloading the DFT's data", std::mem::size_of_val(&data[..]), e))?;
    Ok(())
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

/// Up to `count` primes c·2^32 + 1 below 2^62 with 2^`two_adicity`
/// dividing q − 1, largest first (from [`NTT_PRIMES_62`], whose 2-adicity is
/// 32 or more): the primes a multi-modular product in 64-bit words of
/// length up to 2^`two_adicity` can take.
pub fn ntt62_primes(two_adicity: u32, count: usize) -> Vec<u64> {
    NTT_PRIMES_62
        .iter()
        .copied()
        .filter(|&q| gfpf_small::primes::two_adicity(q) >= two_adicity)
        .take(count)
        .collect()
}

/// Up to `count` primes c·2^32 + 1 in (2^49, 2^50) with 2^`two_adicity`
/// dividing q − 1, largest first (every such prime has 2-adicity 32 or
/// more): the primes of [`F64Word`]'s transforms and products.
pub fn ntt50_primes(least_two_adicity: u32, count: usize) -> Vec<u64> {
    (1u64 << 17..1 << 18)
        .rev()
        .map(|c| (c << 32) + 1)
        .filter(|&q| two_adicity(q) >= least_two_adicity && is_prime(q))
        .take(count)
        .collect()
}

/// The forward transform as the kernel computes it, on the host (an O(N²)
/// sum for checking small lengths): output i is Σ_j x_j·ω^(j·rev_n(i)).
pub fn ntt_reference<W: NttWord>(x: &[W], q: W) -> Vec<W> {
    ntt_reference_outputs(x, q, 0..x.len())
}

/// Outputs `at` of [`ntt_reference`], each an O(N) sum.
pub fn ntt_reference_outputs<W: NttWord>(x: &[W], q: W, at: impl IntoIterator<Item = usize>) -> Vec<W> {
    let n = x.len();
    let log2_n = n.trailing_zeros();
    let q = q.to_u64();
    let omega = root_of_unity(q, log2_n).expect("a root of the length's order");
    at.into_iter()
        .map(|i| {
            let k = (i.reverse_bits() >> (usize::BITS - log2_n)) as u64;
            let step = gfpf_small::primes::pow_mod(omega, k, q);
            let (mut acc, mut w) = (0u64, 1u64);
            for &xj in x {
                // Both below q < 2^62: the sum stays in a word.
                acc = (acc + mul_mod(xj.to_u64(), w, q)) % q;
                w = mul_mod(w, step, q);
            }
            W::from_u64(acc)
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
    fn launches_group_the_stages_in_the_fewest_passes_and_rounds() {
        assert_eq!(stages(6), [6]);
        assert_eq!(stages(14), [14]);
        assert_eq!(stages(16), [4, 12]);
        assert_eq!(stages(20), [8, 12]);
        assert_eq!(stages(24), [11, 13]);
        // The last launch's last round on the tensor cores from 2^10 (its
        // rounds the longer last: 13 stages in 3 + 3 + 3 + 4), and where
        // the rounds allow, its rounds all of four stages.
        let plan = NttPlan31::try_new(1 << 21, &NTT_PRIMES_31[..1]).unwrap();
        assert_eq!(plan.stage_groups(), [9, 12]);
        assert_eq!(plan.clone().with_tensor_cores(false).stage_groups(), [8, 13]);
        assert_eq!(stages(22), [10, 12]);
        let flags = |plan: &NttPlan31, direction| -> Vec<u64> {
            plan.launches(1, direction).iter().map(|l| l.tensor_cores).collect()
        };
        assert_eq!(flags(&plan, Direction::Forward), [0, 1]);
        assert_eq!(flags(&plan, Direction::Inverse), [0, 0]);
        assert_eq!(
            flags(&plan.clone().with_tensor_cores(false), Direction::Forward),
            [0, 0]
        );
        let plan_24 = NttPlan31::try_new(1 << 24, &NTT_PRIMES_31[..1]).unwrap();
        assert_eq!(flags(&plan_24, Direction::Forward), [0, 1]);
        let plan_9 = NttPlan31::try_new(1 << 9, &NTT_PRIMES_31[..1]).unwrap();
        assert_eq!(flags(&plan_9, Direction::Forward), [0]);
        // Its launch takes the DFT's left operands in shared memory besides
        // its tile, from the next 16-byte boundary.
        let last = plan.launches(1, Direction::Forward)[1];
        assert_eq!(
            last.shared_bytes(),
            (4 * (4096 + 128 + 16) as u32).next_multiple_of(16) + 4096
        );
        assert!(
            NttPlan62::try_new(1 << 20, &NTT_PRIMES_62[..1])
                .unwrap()
                .launches(1, Direction::Forward)
                .iter()
                .all(|l| l.tensor_cores == 0)
        );
        // 15·2^27 + 1: the longest transforms a 31-bit prime has.
        let baby_bear = [2013265921];
        for n in 6u32..=27 {
            let plan = NttPlan31::try_new(1 << n, &baby_bear).unwrap();
            let forward = plan.launches(3, Direction::Forward);
            assert_eq!(forward.len(), 1 + usize::from(n > 14) + usize::from(n > 25), "2^{n}");
            assert_eq!(forward.iter().map(|l| l.stages).sum::<u64>(), u64::from(n));
            for l in &forward {
                let tile = l.tile_words() as u64;
                assert!(tile <= NTT_TILE_WORDS as u64 && tile >= 64, "2^{n}: {l:?}");
                // Rows of whole sectors, or a contiguous tile.
                let log2_g = u64::from(n) - l.first - l.stages;
                assert!(l.log2_columns >= 3 || l.log2_columns == log2_g, "2^{n}: {l:?}");
                assert!(l.block_threads() as usize <= NTT_BLOCK_THREADS);
                let per_thread = tile / u64::from(l.block_threads());
                assert!((2..=32).contains(&per_thread), "2^{n}: {l:?}");
                assert!(l.shared_bytes() <= NTT_MOST_SHARED_BYTES);
            }
            // The inverse undoes the same groups, last first.
            let inverse = plan.launches(3, Direction::Inverse);
            assert!(
                forward
                    .iter()
                    .rev()
                    .zip(&inverse)
                    .all(|(f, i)| f.first == i.first && f.stages == i.stages && i.inverse == 1)
            );
        }
    }

    #[test]
    fn smaller_tiles_for_devices_that_give_less_shared_memory() {
        let plan = NttPlan31::try_new(1 << 24, &NTT_PRIMES_31[..1]).unwrap();
        assert_eq!(plan.most_shared_bytes(), 4 * (16384 + 512 + 16));
        // sm_75: 64 KiB a block at most.
        let small = plan.clone().with_max_tile_words(8192);
        assert!(small.most_shared_bytes() <= 64 * 1024);
        assert_eq!(small.stage_groups().len(), 3);
        assert!(
            small
                .launches(1, Direction::Forward)
                .iter()
                .all(|l| l.tile_words() <= 8192)
        );
        assert_eq!(plan.with_max_tile_words(1).stage_groups().len(), 3);
    }

    #[test]
    fn refuses_what_it_cannot_transform() {
        assert_eq!(NttPlan31::try_new(32, &NTT_PRIMES_31), Err(NttError::Length(32)));
        assert_eq!(NttPlan31::try_new(100, &NTT_PRIMES_31), Err(NttError::Length(100)));
        assert_eq!(NttPlan31::try_new(64, &[]), Err(NttError::NoPrimes));
        assert_eq!(
            NttPlan31::try_new(64, &[1 << 31]),
            Err(NttError::NotPrime { q: 1 << 31, bits: 31 })
        );
        assert_eq!(
            NttPlan31::try_new(64, &[91]),
            Err(NttError::NotPrime { q: 91, bits: 31 })
        );
        // 64-bit words: primes below 2^62, 1 mod 2^32.
        assert_eq!(
            NttPlan62::try_new(64, &[(1 << 62) + 135]),
            Err(NttError::NotPrime {
                q: (1 << 62) + 135,
                bits: 62
            })
        );
        assert_eq!(
            NttPlan62::try_new(64, &[2130706433]),
            Err(NttError::PrimeForm(2130706433))
        );
        assert!(NttPlan62::try_new(1 << 30, &NTT_PRIMES_62).is_ok());
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
                value: u64::from(q),
                q: u64::from(q)
            })
        );
    }

    #[test]
    fn sixty_four_bit_words_take_three_stages_a_round_and_blocks_of_1024_threads() {
        let groups = |log2_n: u32| {
            NttPlan62::try_new(1 << log2_n, &NTT_PRIMES_62[..1])
                .unwrap()
                .stage_groups()
        };
        assert_eq!(groups(14), [14]);
        assert_eq!(groups(23).len(), 2);
        assert_eq!(groups(24).len(), 2);
        assert_eq!(groups(26).len(), 3);
        for n in 6u32..=30 {
            let plan = NttPlan62::try_new(1 << n, &NTT_PRIMES_62[..1]).unwrap();
            assert_eq!(plan.kernel(), "gfpf_ntt62_stages");
            for l in plan.launches(2, Direction::Forward) {
                assert_eq!(l.word_bytes, 8);
                assert!(l.tile_words() <= 16384 && l.shared_bytes() <= <u64 as NttWord>::MOST_SHARED_BYTES);
                assert!(l.block_threads() <= 1024);
                let per_thread = l.tile_words() as u64 / u64::from(l.block_threads());
                assert!((2..=16).contains(&per_thread), "2^{n}: {l:?}");
            }
        }
        // 139.4 KB: one block an SM on sm_90 (227 KB) and sm_80 (163 KB).
        assert_eq!(<u64 as NttWord>::MOST_SHARED_BYTES, 8 * (16384 + 1024 + 16));
        assert_eq!(ntt62_primes(33, 3).len(), 3);
        assert!(ntt62_primes(33, 3).iter().all(|q| (q - 1) % (1 << 33) == 0));
        // FP64's plans: the same word bytes, their own kernel.
        let fp64 = NttPlan50::try_new(1 << 20, &ntt50_primes(20, 1)).unwrap();
        assert_eq!(fp64.kernel(), "gfpf_ntt50_stages");
        assert!(fp64.launches(1, Direction::Forward).iter().all(|l| l.word_bytes == 8));
    }

    #[test]
    fn constants_hold_what_the_kernel_assumes() {
        let plan = NttPlan62::try_new(1 << 10, &NTT_PRIMES_62[..8]).unwrap();
        for (c, &q) in plan.prime_constants().chunks(8).zip(plan.primes()) {
            let q128 = u128::from(q);
            assert_eq!(c[0], q);
            assert_eq!(u128::from(c[1]) * 1024 % q128, 1, "N^-1");
            assert_eq!(u128::from(c[2]), (u128::from(c[1]) << 64) / q128);
            assert_eq!(c[3].wrapping_mul(q), u64::MAX, "-q^-1 mod 2^64");
            assert_eq!(u128::from(c[4]), (1u128 << 64) % q128);
            assert_eq!(u128::from(c[5]), u128::from(c[4]) * u128::from(c[4]) % q128);
        }
        let plan = NttPlan31::try_new(1 << 10, &NTT_PRIMES_31).unwrap();
        for (c, &q) in plan.prime_constants().chunks(8).zip(plan.primes()) {
            let q64 = u64::from(q);
            assert_eq!(c[0], q);
            assert_eq!(u64::from(c[1]) * 1024 % q64, 1, "N^-1");
            assert_eq!(c[3].wrapping_mul(q), u32::MAX, "-q^-1 mod 2^32");
            assert_eq!(u64::from(c[4]), (1u64 << 32) % q64);
            assert_eq!(u128::from(c[5]), (1u128 << 64) % u128::from(q64));
        }
        assert_eq!(
            plan.twiddle_table(Direction::Forward).len(),
            plan.primes().len() * plan.twiddle_words_per_prime()
        );
    }
}
