//! Polynomial products over GF(r^K + 1) through word-size primes: the
//! multi-modular engine behind [`crate::MulAlgorithm::MultiModular`].
//!
//! **Idea.** A coefficient is x = Σ_i d_i·r^i with K digits below 2^64, and
//! r^K = −1 in GF(p). A polynomial a(X) = Σ_j a_j X^j is therefore the
//! bivariate A(X, Y) = Σ_{i,j} d_{j,i} X^j Y^i read at Y = r, and the
//! product a·b is A·B in Z[X, Y]/(Y^K + 1) read at Y = r and reduced mod p.
//! The integer coefficients of A·B are small: |c| ≤ min(la, lb)·K·r², about
//! 2^150 for t8 at n = 2^14, so s = 3 or 4 primes q < 2^50 hold them
//! (the exact bound decides s), where a coefficient-wise multi-modular product
//! would need 2·log2(p)/50 primes (21 for t8) and as many twiddle tables.
//! Per prime, one [`BivariateConvolution`] (cyclic of length N ≥ la + lb − 1
//! in X, negacyclic of length K in Y, AVX-512 IFMA where the CPU has it)
//! computes A·B mod q; Garner's CRT gives the signed integer coefficients
//! and [`Field::reduce_narrow_digit_sums`] turns each group of K into an
//! element.
//!
//! **Truncated lengths.** A product of length L with N' < L ≤ 1.5·N' (N' a
//! power of two) is not padded to 2N': it is computed modulo x^N' + 1 and
//! modulo x^M − 1, M the least power of two ≥ L − N' (at least 16; coprime,
//! as M divides N'), and joined per prime by
//! [`BivariateConvolution::join_with_cyclic`]; operands longer than a piece
//! are folded into it by the projection. Measured (t8, one thread, n × n,
//! one alternating run against the previous split, which always took
//! M = N'/2): L = 2^m + 1 now costs 1.08–1.17x L = 2^m − 1 (was 1.39–1.45x):
//! 0.76–0.86x the previous split's time for m = 12..16 (2^16 + 1: 17.0
//! against 22.3 ms); L = 1.5·2^m − 1 unchanged (M = N'/2 there). The first
//! split (always N'/2) took 0.74–0.80x the padded time. Above 1.5·N' the
//! product is padded (at most 4/3 of the work).
//!
//! **Layout.** Residues are digit-major (row i = digit i of every
//! coefficient), which is the layout the transform wants; the projection
//! ([`BivariateConvolution::project_words`], 8 × 8 blocks reduced and
//! transposed in registers) writes it directly and the CRT reads it back 64
//! coefficients at a time. With it, t8 products of length 2^12 to 2^15 took
//! 0.84–0.95x the time they took with the scalar projection (one run).
//!
//! **Measured** (the peers bench: gfpf, then NTL 11.5.1, FLINT 3.7-dev
//! built with `--enable-avx2` and FLINT 2.9 size by size, the project's
//! 2-core VM, AMD EPYC with AVX-512 IFMA, 2026-11-24, n × n, medians, two
//! threads being the caller and one other; gfpf / faster of NTL and FLINT
//! 3): t8 one thread 2^8 0.078 ms (0.33), 2^12 1.32 ms (0.28), 2^14 5.95 ms
//! (0.25), 2^16 29.5 ms (0.27), 2^18 163 ms (0.35); two threads 2^8 0.051
//! ms (0.21), 2^14 3.44 ms (0.26), 2^16 15.4 ms (0.26), 2^18 88.8 ms (0.35);
//! p8, t16 and t64 0.21–0.38. Two threads against one from 2^14: 1.73–2.03x
//! on t8, p8, t16 and t64 (1.81–1.91x at t8 2^14 alternating one and two
//! threads). The TFT over GF(p) itself took 32.8 ms at t8 2^14 (78 ms
//! before the FFT's base DFTs, twiddles and shifts ran fused in SIMD lanes). Earlier versions: 21 primes
//! over whole coefficients (a bench baseline) 103 ms; Garner in scalar code
//! and 192-bit digit sums 13.3 ms; nine passes (and parallel regions) per
//! prime instead of three: two threads gave 0.88–1.54x one thread in an
//! alternating test where three give 1.62–1.92x.
//!
//! **Memory.** Per call: the s residue arrays of the product (s·K·W words,
//! W = N padded, N' + M split) and one for the second operand (K·N or K·N'
//! words), against the inputs' and output's K·(la + lb + L) ≈ 2·K·L words.
//! For balanced operands that is (s + 1)/2 of it at L = N (2x for s = 3,
//! 2.5x for s = 4), about (s + 1)/2 again just past a power of two (M small),
//! (s + 2/3)/2 at L = 1.5·N' (1.83x, 2.33x), and at most (2s + 1)/3 at L =
//! 1.5·N' + 1, the worst padded case (2.33x, 3x). Measured (peak RSS growth
//! of one product after a first call built the plans, minus the output,
//! against inputs + output): t8 n = 2^18 + 1, 2^19 + 1 and 393 215 2.00x;
//! t64 n = 2^15 + 1 2.00x (3.00x with the previous split), 2^16 + 1 (s = 4)
//! 3.00x. NTL and FLINT 3 used 5.4x and 10x at t8 2^16 (same probe). The
//! transform plans of a size hold 4·N words per prime (6·N for negacyclic
//! rows: the twist tables) and are kept between calls, and so is the
//! working space of a product whose residues exceed 32 MiB (up to 512 MiB,
//! see [`MULTIMODULAR_FRESH_MAX_WORDS`]): fresh pages for every call cost
//! 14–21% of t8 n = 2^17 and t16 n = 2^16 products.

use std::sync::{Arc, Mutex, OnceLock};

use gfpf_field::{Element, Field, LaneArith, LaneIsa};
use gfpf_small::primes::FP_PRIMES_50;
use gfpf_small::{Accumulate, BivariateConvolution, GARNER52_MAX_PRIMES, Isa, RowWrap};
use rayon::prelude::*;
use rug::Integer;

use crate::CpuError;
use crate::cache::get_or_try_publish;
use crate::runner::Threading;
use gfpf_executor::check_fits;

mod crt;
use crt::Crt;

/// The primes: the largest q < 2^50 with 2^30 | q − 1 (any product length up
/// to 2^29 and any K up to 2^29 has its roots).
const PRIMES: &[u64] = &FP_PRIMES_50;

/// Digit sums (16 bytes each) the CRT keeps at once: 8 KiB.
const CRT_BLOCK_WORDS: usize = 512;

/// log2 of the longest row a convolution may have, plus one.
const ROW_SIZES: usize = MULTIMODULAR_MAX_LEN.trailing_zeros() as usize + 1;

/// The shortest product computed as two pieces (negacyclic N' plus a
/// short cyclic one, see [`pieces`]) rather than padded to 2N': below it the
/// rows are too short for the vector paths to matter.
const SPLIT_MIN_LEN: usize = 40;

/// The shortest cyclic piece of a split product (shorter rows would run
/// scalar code for little saving).
const SPLIT_MIN_CYCLIC: usize = 16;

/// One part of a product: the product modulo x^n − 1 or x^n + 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    wrap: RowWrap,
    n: usize,
}

/// How a product of length `len` ≥ 1 is computed: modulo x^N − 1 with N the
/// next power of two, or, where len ≤ 1.5·N' for the power of two N' < len,
/// modulo x^N' + 1 and x^M − 1 with M the least power of two ≥ len − N'
/// (at least [`SPLIT_MIN_CYCLIC`]): coprime, as M divides N', and together
/// about len instead of 2N' (the work and memory of a product just past a
/// power of two are those of N' plus a little).
fn pieces(len: usize) -> Vec<Piece> {
    let big = len.next_power_of_two();
    if len >= SPLIT_MIN_LEN && len <= big / 2 + big / 4 {
        let negacyclic = big / 2;
        vec![
            Piece {
                wrap: RowWrap::Negacyclic,
                n: negacyclic,
            },
            Piece {
                wrap: RowWrap::Cyclic,
                n: (len - negacyclic).next_power_of_two().max(SPLIT_MIN_CYCLIC),
            },
        ]
    } else {
        vec![Piece {
            wrap: RowWrap::Cyclic,
            n: big,
        }]
    }
}

/// A value built on first use, outside the cell (see `crate::cache`).
type Cached<T> = OnceLock<Arc<T>>;

/// Products over one field by word-size primes; the transforms of each
/// size and the CRT constants of each operand length are built on first use
/// and kept (thread-safe).
pub struct MultiModular<const K: usize> {
    field: Field<K>,
    threading: Threading,
    isa: Isa,
    /// `crts[m]`: for products whose shorter operand has at most 2^m
    /// coefficients.
    crts: Vec<Cached<Crt>>,
    /// The convolution of prime l with rows of 2^m columns and the given
    /// wrap, at `convolution_index`.
    convolutions: Vec<Cached<BivariateConvolution>>,
    /// The working space of the last large product, kept for the next one
    /// (see [`MULTIMODULAR_FRESH_MAX_WORDS`]).
    kept: Mutex<Vec<u64>>,
}

/// What the working space's size counts, for errors.
const WORKING_SPACE: &str = "multi-modular working space, in 64-bit words";

/// Where the convolution for (wrap, 2^m, prime l) is cached.
fn convolution_index(wrap: RowWrap, m: usize, l: usize) -> usize {
    ((wrap == RowWrap::Negacyclic) as usize * ROW_SIZES + m) * GARNER52_MAX_PRIMES + l
}

impl<const K: usize> std::fmt::Debug for MultiModular<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MultiModular")
            .field("field", &self.field.name().unwrap_or("custom"))
            .field("threading", &self.threading)
            .field("isa", &self.isa)
            .finish_non_exhaustive()
    }
}

/// The least words (K·N per residue array, 8 bytes each) for which the
/// steps of a product called from outside rayon's pool run on several
/// threads: 256 KiB. Such a caller hands every step over to the pool's
/// threads and waits, so short products lose. Measured on 2 cores (EPYC VM,
/// n × n, two threads, alternating with the previous threshold of 2^18
/// words, i.e. one thread; minimum of 7): t8 n = 2^10 (2^14 words) 1.03x
/// the time, 2^11 (2^15) 0.64x, 2^12 0.59x, 2^13 0.57x; t16 2^10 (2^15)
/// 0.66x, 2^11 0.59x.
pub const MULTIMODULAR_PARALLEL_MIN_WORDS: usize = 1 << 15;

/// The same for a product called on one of the pool's threads (rayon's
/// `use_current_thread`, as the CLI and the benches set it up, or a product
/// inside parallel code): 32 KiB. Measured as above, with the caller in the
/// pool: t8 n = 2^8 (2^12 words) 0.65x the time, 2^9 0.62x, 2^10 0.57x,
/// 2^12 0.66x, 2^13 0.53x; t64 2^8 0.78x.
pub const MULTIMODULAR_PARALLEL_MIN_WORDS_IN_POOL: usize = 1 << 12;

/// The largest residue buffer (in words) a product allocates afresh: 32 MiB,
/// the largest block glibc's allocator recycles from call to call. Above it
/// the allocator maps fresh pages for every call, and faulting them in was
/// 20% of a t8 product at n = 2^17 (86.5 against 68.8 ms on one thread,
/// 48.2 against 38.0 on two; alternating, minimum of 3), so a
/// [`MultiModular`] keeps such a working space for its next product (up
/// to [`MULTIMODULAR_KEEP_MAX_WORDS`]). Below it, a recycled buffer was
/// faster than a kept one (n = 2^14 and 2^16: kept 1.00–1.04x the time).
pub const MULTIMODULAR_FRESH_MAX_WORDS: usize = 1 << 22;

/// The most working space (in words) a [`MultiModular`] keeps between
/// products: 512 MiB (t8 products up to n = 2^20).
pub const MULTIMODULAR_KEEP_MAX_WORDS: usize = 1 << 26;

/// The longest product (la + lb − 1) the primes' roots allow: 2^29.
pub const MULTIMODULAR_MAX_LEN: usize = 1 << 29;

impl<const K: usize> MultiModular<K> {
    /// Products over `field`; nothing is planned until a size is used.
    pub fn new(field: &Field<K>) -> Self {
        MultiModular {
            field: field.clone(),
            threading: Threading::default(),
            isa: Isa::best(),
            crts: (0..ROW_SIZES).map(|_| OnceLock::new()).collect(),
            convolutions: (0..2 * ROW_SIZES * GARNER52_MAX_PRIMES)
                .map(|_| OnceLock::new())
                .collect(),
            kept: Mutex::new(Vec::new()),
        }
    }

    /// The same with the given threading.
    pub fn with_threading(mut self, threading: Threading) -> Self {
        self.threading = threading;
        self
    }

    /// The same on another instruction set (an error if the CPU lacks it);
    /// cached transforms are dropped.
    pub fn with_isa(mut self, isa: Isa) -> Result<Self, CpuError> {
        self.isa = isa.ensure_available()?;
        self.crts.iter_mut().for_each(|c| *c = OnceLock::new());
        self.convolutions.iter_mut().for_each(|c| *c = OnceLock::new());
        Ok(self)
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        &self.field
    }

    /// The number of word-size primes a product of operands of `la` and `lb`
    /// coefficients uses, or `None` where the product is longer than
    /// [`MULTIMODULAR_MAX_LEN`] or the primes do not suffice.
    pub fn primes_for(&self, la: usize, lb: usize) -> Option<usize> {
        if la.checked_add(lb)? > MULTIMODULAR_MAX_LEN + 1 {
            return None;
        }
        self.crt(la.min(lb)).ok().map(|c| c.garner.primes().len())
    }

    /// The CRT for products whose shorter operand has `shorter` ≥ 1
    /// coefficients: their coefficients are at most 2^m·K·r² in absolute
    /// value, 2^m ≥ shorter (digits are at most r).
    fn crt(&self, shorter: usize) -> Result<Arc<Crt>, CpuError> {
        let m = shorter.max(1).next_power_of_two().trailing_zeros() as usize;
        let too_large = gfpf_executor::TransformError::TooLarge {
            n: shorter,
            what: "multi-modular operand length (the primes' product is too small)",
        };
        let cell = self.crts.get(m).ok_or(too_large.clone())?;
        get_or_try_publish(cell, || {
            let r = self.field.r();
            let bound = (Integer::from(1) << m as u32) * K as u64 * Integer::from(r) * r;
            let crt = Crt::new(&bound, r, K, self.isa)?.ok_or(too_large)?;
            Ok(Arc::new(crt))
        })
        .cloned()
    }

    /// The convolution for prime l (of [`PRIMES`]) with rows of `piece.n`
    /// columns.
    fn convolution(&self, piece: Piece, l: usize) -> Result<Arc<BivariateConvolution>, CpuError> {
        let m = piece.n.trailing_zeros() as usize;
        if !piece.n.is_power_of_two() || m >= ROW_SIZES || l >= GARNER52_MAX_PRIMES {
            return Err(gfpf_executor::TransformError::TooLarge {
                n: piece.n,
                what: "multi-modular product length",
            }
            .into());
        }
        get_or_try_publish(&self.convolutions[convolution_index(piece.wrap, m, l)], || {
            let conv = BivariateConvolution::try_with_wrap(K, piece.n, PRIMES[l], piece.wrap)?.with_isa(self.isa)?;
            Ok(Arc::new(conv))
        })
        .cloned()
    }

    fn parallel(&self, words: usize) -> bool {
        let least = if rayon::current_thread_index().is_some() {
            MULTIMODULAR_PARALLEL_MIN_WORDS_IN_POOL
        } else {
            MULTIMODULAR_PARALLEL_MIN_WORDS
        };
        self.threading == Threading::Parallel && words >= least
    }

    /// The product of two coefficient vectors (lowest degree first): la + lb − 1
    /// coefficients, or none if either is empty. Inputs must be canonical.
    pub fn mul(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, CpuError> {
        self.product(a, Some(b))
    }

    /// The square of a coefficient vector: 2·la − 1 coefficients.
    pub fn square(&self, a: &[Element<K>]) -> Result<Vec<Element<K>>, CpuError> {
        self.product(a, None)
    }

    fn product(&self, a: &[Element<K>], b: Option<&[Element<K>]>) -> Result<Vec<Element<K>>, CpuError> {
        let lb = b.map_or(a.len(), |b| b.len());
        if a.is_empty() || lb == 0 {
            return Ok(Vec::new());
        }
        let len = a.len() + lb - 1;
        if len > MULTIMODULAR_MAX_LEN {
            return Err(gfpf_executor::TransformError::TooLarge {
                n: len,
                what: "multi-modular product length",
            }
            .into());
        }
        let crt = self.crt(a.len().min(lb))?;
        let pieces = pieces(len);
        // Per prime, the pieces' K × n blocks one after the other.
        let width: usize = pieces.iter().map(|p| p.n).sum();
        let s = crt.garner.primes().len();
        let widest = pieces.iter().map(|p| p.n).max().unwrap_or(0);
        let residue_words = s * K * width;
        let mut space = self.working_space(residue_words, if b.is_some() { K * widest } else { 0 })?;
        let (residues, other) = space.parts(residue_words);
        for (l, blocks) in residues.chunks_exact_mut(K * width).enumerate() {
            let convolutions = pieces
                .iter()
                .map(|&piece| self.convolution(piece, l))
                .collect::<Result<Vec<_>, _>>()?;
            let mut rest = &mut blocks[..];
            for (&piece, conv) in pieces.iter().zip(&convolutions) {
                let (block, tail) = rest.split_at_mut(K * piece.n);
                rest = tail;
                // Three steps, each one pass (and one parallel region) over
                // the data: both operands' projections and column DFTs block
                // by block of columns, then row by row the forward NTTs, the
                // pointwise product and the inverse NTT while the row is in
                // cache, then the inverse column DFTs.
                let other = match b {
                    Some(b) => {
                        let other = &mut other[..K * piece.n];
                        self.project_forward_columns(a, Some((b, &mut *other)), conv, block)?;
                        Some(other)
                    }
                    None => {
                        self.project_forward_columns(a, None, conv, block)?;
                        None
                    }
                };
                self.rows(conv, block, other, (a.len().min(piece.n), lb.min(piece.n)))?;
                let parallel = self.parallel(block.len());
                for_column_blocks(vec![&mut *block], K, piece.n, parallel, |_, rows| {
                    conv.inverse_columns(rows)
                })?;
            }
            if let [first, _] = pieces[..] {
                let (negacyclic, cyclic) = blocks.split_at_mut(K * first.n);
                self.combine(&convolutions[0], negacyclic, cyclic)?;
            }
        }
        // Freed before the output is allocated, which may take its (warm) memory.
        space.drop_other();
        // Zeroed by the allocator: a large output comes as fresh zero pages,
        // faulted in by the CRT's threads rather than written here first.
        let mut out: Vec<Element<K>> = try_zeroed(len, "multi-modular product length")?;
        // The product's coefficients j < n of the first piece are in its
        // block, the rest (after `combine`) in the second piece's.
        let mut segments = Vec::with_capacity(2);
        let (mut offset, mut done) = (0, 0);
        for piece in &pieces {
            let count = piece.n.min(len - done);
            segments.push((offset, piece.n, done..done + count));
            offset += K * piece.n;
            done += count;
        }
        self.reconstruct(&crt, space.parts(residue_words).0, K * width, &segments, &mut out)?;
        if let WorkingSpace::Kept(buffer) = space
            && let Ok(mut kept) = self.kept.lock()
            && kept.len() < buffer.len()
        {
            *kept = buffer;
        }
        Ok(out)
    }

    /// Buffers for a product's residues and second operand: fresh zeroed
    /// ones, or for a large product the engine's kept buffer, whose old
    /// contents are overwritten before they are read (or a fresh one that
    /// will be kept).
    fn working_space(&self, residue_words: usize, other_words: usize) -> Result<WorkingSpace, CpuError> {
        let words = residue_words + other_words;
        // Refused at once when it cannot fit (Linux would grant the pages,
        // then end the process when they are touched).
        check_fits::<1>(words, words as u128, WORKING_SPACE)?;
        if residue_words <= MULTIMODULAR_FRESH_MAX_WORDS || words > MULTIMODULAR_KEEP_MAX_WORDS {
            return Ok(WorkingSpace::Fresh {
                residues: try_zeroed(residue_words, WORKING_SPACE)?,
                other: try_zeroed(other_words, WORKING_SPACE)?,
            });
        }
        // Taken, so that a product running at the same time on another
        // thread makes its own.
        let kept = self
            .kept
            .lock()
            .map(|mut kept| std::mem::take(&mut *kept))
            .unwrap_or_default();
        if kept.len() >= words {
            return Ok(WorkingSpace::Kept(kept));
        }
        drop(kept);
        Ok(WorkingSpace::Kept(try_zeroed(words, WORKING_SPACE)?))
    }

    /// The polynomial CRT of a split product (see
    /// [`BivariateConvolution::join_with_cyclic`]), row by row: afterwards
    /// the negacyclic block (rows of N') holds the product's coefficients
    /// j < N', the cyclic block (rows of M) those from N' on.
    fn combine(&self, conv: &BivariateConvolution, negacyclic: &mut [u64], cyclic: &mut [u64]) -> Result<(), CpuError> {
        let (n, m) = (conv.row_len(), cyclic.len() / K);
        let rows = |(c1, c2): (&mut [u64], &mut [u64])| conv.join_with_cyclic(c1, c2);
        if self.parallel(negacyclic.len() + cyclic.len()) {
            negacyclic
                .par_chunks_exact_mut(n)
                .zip(cyclic.par_chunks_exact_mut(m))
                .try_for_each(rows)?;
        } else {
            negacyclic
                .chunks_exact_mut(n)
                .zip(cyclic.chunks_exact_mut(m))
                .try_for_each(rows)?;
        }
        Ok(())
    }

    /// Columns [start, start + width) of a modulo x^n ∓ 1 (the piece's ring)
    /// and q, digit-major: digit i of the coefficients a_j with j ≡ t (mod n),
    /// signed by the wrap, summed into row i, column t − start. Returns how
    /// many columns of the block (from its first) coefficients reach: the
    /// columns past them are left as they are, for [`Self::rows`] to zero
    /// (while each row is in cache, instead of here as a pass over memory).
    fn project_block(
        &self,
        a: &[Element<K>],
        conv: &BivariateConvolution,
        start: usize,
        rows: &mut [&mut [u64]],
    ) -> Result<usize, CpuError> {
        let n = conv.row_len();
        let negacyclic = conv.wrap() == RowWrap::Negacyclic;
        let words: &[u64] = bytemuck::cast_slice(a);
        let width = rows[0].len();
        // Wrap t covers the coefficients t·n + [start, start + width).
        for (t, wrapped) in a.chunks(n).enumerate() {
            let end = wrapped.len().min(start + width);
            if end <= start {
                continue;
            }
            let how = match t {
                0 => Accumulate::Store,
                _ if negacyclic && t % 2 == 1 => Accumulate::Subtract,
                _ => Accumulate::Add,
            };
            let mut parts: [&mut [u64]; K] = std::array::from_fn(|_| &mut [][..]);
            for (part, row) in parts.iter_mut().zip(rows.iter_mut()) {
                *part = &mut row[..end - start];
            }
            conv.project_words(&words[(t * n + start) * K..(t * n + end) * K], &mut parts, how)?;
        }
        Ok(a.len().clamp(start, start + width) - start)
    }

    /// The projection of `x` into `data` and the column half of the forward
    /// transform, a block of columns at a time; the same for `y` into its
    /// buffer in the same blocks (one parallel region for both operands).
    fn project_forward_columns(
        &self,
        x: &[Element<K>],
        y: Option<(&[Element<K>], &mut [u64])>,
        conv: &BivariateConvolution,
        data: &mut [u64],
    ) -> Result<(), CpuError> {
        let parallel = self.parallel(data.len());
        let (y, buffers) = match y {
            Some((y, other)) => (Some(y), vec![data, other]),
            None => (None, vec![data]),
        };
        for_column_blocks(buffers, K, conv.row_len(), parallel, |start, rows| {
            let (first, second) = rows.split_at_mut(K);
            // Columns past the operand (the upper half of a balanced
            // product's) are zeros, and so are their column DFTs: only the
            // reached ones are transformed.
            let transform = |a: &[Element<K>], rows: &mut [&mut [u64]]| -> Result<(), CpuError> {
                let reached = self.project_block(a, conv, start, rows)?;
                if reached > 0 {
                    let mut heads: [&mut [u64]; K] = std::array::from_fn(|_| &mut [][..]);
                    for (head, row) in heads.iter_mut().zip(rows.iter_mut()) {
                        *head = &mut row[..reached];
                    }
                    conv.forward_columns(&mut heads)?;
                }
                Ok(())
            };
            transform(x, first)?;
            if let Some(y) = y {
                transform(y, second)?;
            }
            Ok(())
        })
    }

    /// Row by row: the forward NTTs of both operands' rows, their pointwise
    /// product (or the square when `other` is `None`) and the inverse NTT.
    /// `reached` holds how many columns of each operand's rows the
    /// projection wrote; the rest are zeroed first.
    fn rows(
        &self,
        conv: &BivariateConvolution,
        data: &mut [u64],
        other: Option<&mut [u64]>,
        reached: (usize, usize),
    ) -> Result<(), CpuError> {
        let n = conv.row_len();
        let run = |x: &mut [u64], y: Option<&mut [u64]>| -> Result<(), CpuError> {
            x[reached.0..].fill(0);
            conv.forward_row(x)?;
            match y {
                Some(y) => {
                    y[reached.1..].fill(0);
                    conv.forward_row(y)?;
                    conv.mul_spectra(x, y)?;
                }
                None => conv.square_spectra(x)?,
            }
            Ok(conv.inverse_row(x)?)
        };
        match (other, self.parallel(data.len())) {
            (Some(other), true) => data
                .par_chunks_mut(n)
                .zip(other.par_chunks_mut(n))
                .try_for_each(|(x, y)| run(x, Some(y))),
            (Some(other), false) => data
                .chunks_mut(n)
                .zip(other.chunks_mut(n))
                .try_for_each(|(x, y)| run(x, Some(y))),
            (None, true) => data.par_chunks_mut(n).try_for_each(|x| run(x, None)),
            (None, false) => data.chunks_mut(n).try_for_each(|x| run(x, None)),
        }
    }

    /// Garner and the field's digit-sum reduction, a block of coefficients
    /// at a time (their digit sums stay in L1). Prime l's residues start at
    /// l·`stride`; a segment (offset, row length, range) says that the output
    /// coefficients in the range are the columns 0.. of the K rows at that
    /// offset.
    fn reconstruct(
        &self,
        crt: &Crt,
        residues: &[u64],
        stride: usize,
        segments: &[(usize, usize, std::ops::Range<usize>)],
        out: &mut [Element<K>],
    ) -> Result<(), CpuError> {
        let s = crt.garner.primes().len();
        let block = (CRT_BLOCK_WORDS / K).max(8);
        // The digit sums' normalisation in SIMD lanes with the engine's IFMA
        // only: an engine held to AVX2 stays what a CPU without IFMA runs
        // (the portable lanes normalise four at a time on the elements).
        let lane_isa = match self.isa {
            Isa::Avx512Ifma => LaneIsa::Avx512,
            _ => LaneIsa::Portable,
        };
        let lanes = LaneArith::new(&self.field, lane_isa)?;
        for (offset, n, range) in segments {
            let (offset, n) = (*offset, *n);
            let run = |(index, part): (usize, &mut [Element<K>])| -> Result<(), CpuError> {
                let (start, len) = (index * block, part.len());
                let mut sums = vec![[0u128; K]; len];
                for sum in sums.iter_mut() {
                    sum.copy_from_slice(&crt.offsets);
                }
                let mut scratch = vec![0u64; s * len];
                let mut digits: Vec<&mut [u64]> = scratch.chunks_exact_mut(len).collect();
                let mut rows: [&[u64]; GARNER52_MAX_PRIMES] = [&[]; GARNER52_MAX_PRIMES];
                for i in 0..K {
                    for (l, row) in rows[..s].iter_mut().enumerate() {
                        *row = &residues[l * stride + offset + i * n + start..][..len];
                    }
                    crt.garner.mixed_radix(&rows[..s], &mut digits, len)?;
                    crt.accumulate(&digits, i, &mut sums);
                }
                // Eight at a time in IFMA lanes, four blocks together, else
                // four at a time (their chains of divisions overlap).
                lanes.reduce_narrow_digit_sums(&sums, part)?;
                Ok(())
            };
            let part = &mut out[range.clone()];
            // The same decision as the steps before it (on one prime's residues).
            if self.parallel(stride) {
                part.par_chunks_mut(block).enumerate().try_for_each(run)?;
            } else {
                part.chunks_mut(block).enumerate().try_for_each(run)?;
            }
        }
        Ok(())
    }
}

/// Where a product's residues and second operand's buffer live.
enum WorkingSpace {
    /// Zeroed buffers of their own, freed after the product.
    Fresh { residues: Vec<u64>, other: Vec<u64> },
    /// One buffer, residues first, that the engine keeps for the next
    /// product: every word a product reads it has written first (the
    /// projection writes the columns its operand reaches, the rows step
    /// zeroes the rest of each row before its NTT), so a kept buffer's old
    /// contents never reach a result.
    Kept(Vec<u64>),
}

impl WorkingSpace {
    /// The residues (`residue_words` words) and the second operand's buffer.
    fn parts(&mut self, residue_words: usize) -> (&mut [u64], &mut [u64]) {
        match self {
            WorkingSpace::Fresh { residues, other } => (&mut residues[..], &mut other[..]),
            WorkingSpace::Kept(buffer) => buffer.split_at_mut(residue_words),
        }
    }

    /// Frees a fresh second-operand buffer.
    fn drop_other(&mut self) {
        if let WorkingSpace::Fresh { other, .. } = self {
            *other = Vec::new();
        }
    }
}

/// A zeroed buffer of `len` values, or a typed error naming `what` (which
/// says what `len` counts) when the memory is not there. Zeroed
/// by the allocator: large buffers come as fresh zero pages, with no pass
/// over them (measured: a `memset` of the residues was 5% of a t8 product
/// at n = 2^16).
fn try_zeroed<T: bytemuck::Zeroable>(len: usize, what: &'static str) -> Result<Vec<T>, CpuError> {
    let too_large = gfpf_executor::TransformError::TooLarge { n: len, what };
    if len == 0 || std::mem::size_of::<T>() == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(len).map_err(|_| too_large.clone())?;
    // SAFETY: the layout has a non-zero size (len > 0, T not zero-sized).
    let pointer = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if pointer.is_null() {
        return Err(too_large.into());
    }
    // SAFETY: the pointer comes from the global allocator with the layout of
    // `len` T (so capacity `len`), and all-zero bytes are a valid T (Zeroable).
    Ok(unsafe { Vec::from_raw_parts(pointer, len, len) })
}

/// Runs `f(first column, rows)` on blocks of columns of the `k` rows of
/// length `n` of every buffer (in parallel or not): each call gets the same
/// columns of every row, the first buffer's k rows first. Blocks of at
/// least 512 columns (4 KiB per row, so that a block of a K-row element
/// stays in L2 while it is worked on), at most 16 per thread.
fn for_column_blocks<E: Send>(
    buffers: Vec<&mut [u64]>,
    k: usize,
    n: usize,
    parallel: bool,
    f: impl Fn(usize, &mut [&mut [u64]]) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let threads = if parallel { rayon::current_num_threads() } else { 1 };
    let width = (n / (16 * threads)).max(512).min(n);
    let mut blocks: Vec<Vec<&mut [u64]>> = (0..n.div_ceil(width))
        .map(|_| Vec::with_capacity(k * buffers.len()))
        .collect();
    for data in buffers {
        for row in data.chunks_exact_mut(n) {
            for (block, part) in blocks.iter_mut().zip(row.chunks_mut(width)) {
                block.push(part);
            }
        }
    }
    if parallel {
        blocks
            .par_iter_mut()
            .enumerate()
            .try_for_each(|(i, rows)| f(i * width, rows))
    } else {
        blocks
            .iter_mut()
            .enumerate()
            .try_for_each(|(i, rows)| f(i * width, rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_field::Preset;

    /// The CRT's digit sums rebuild c·r^i mod p for coefficients c up to the
    /// bound, at every source digit i, also where the constants' digits wrap
    /// past r^K more than once (K = 2 with a bound that needs M of 4 digits:
    /// r^(2K) = +1, not −1).
    #[test]
    fn crt_digit_sums_rebuild_the_coefficient_at_every_position() {
        let field = Field::<2>::preset(Preset::T2).unwrap();
        let r = field.r();
        for bits in [140u32, 160, 199] {
            let bound = Integer::from(1) << bits;
            for isa in Isa::available() {
                let crt = Crt::new(&bound, r, 2, isa).unwrap().unwrap();
                let primes = crt.garner.primes().to_vec();
                let s = primes.len();
                let mut values: Vec<Integer> = [0i64, 1, -1, 12345, -987654321]
                    .iter()
                    .map(|&v| Integer::from(v))
                    .collect();
                values.push(bound.clone());
                values.push(-bound.clone());
                values.push(Integer::from(&bound - 3u32));
                values.push(-Integer::from(&bound / 7u32));
                for i in 0..2 {
                    for c in &values {
                        let residues: Vec<Vec<u64>> = primes
                            .iter()
                            .map(|&q| vec![Integer::from(c % q).to_i64().unwrap().rem_euclid(q as i64) as u64])
                            .collect();
                        let rows: Vec<&[u64]> = residues.iter().map(Vec::as_slice).collect();
                        let mut scratch = vec![0u64; s];
                        let mut digits: Vec<&mut [u64]> = scratch.chunks_exact_mut(1).collect();
                        crt.garner.mixed_radix(&rows, &mut digits, 1).unwrap();
                        let mut sums = [[0u128; 2]];
                        sums[0].copy_from_slice(&crt.offsets);
                        crt.accumulate(&digits, i, &mut sums);
                        let got = field.to_integer(&field.reduce_narrow_digit_sums(&sums[0]).unwrap());
                        let scaled = if i == 0 { c.clone() } else { Integer::from(c * r) };
                        let want = (scaled % field.p() + field.p()) % field.p();
                        assert_eq!(got, want, "c = {c}, i = {i}, bound 2^{bits}, {s} primes, {isa:?}");
                    }
                }
            }
        }
    }
}
