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
//! and [`Field::reduce_digit_sums`] turns each group of K into an element.
//!
//! **Layout.** Residues are digit-major (row i = digit i of every
//! coefficient), which is the layout the transform wants; the projection
//! writes it directly and the CRT reads it back 64 coefficients at a time.
//!
//! **Measured** (one run alternating gfpf with NTL 11.5.1 and FLINT 3.7-dev
//! built with `--enable-avx2`, the project's 2-core VM, AMD EPYC with
//! AVX-512 IFMA, 2026-11-23, n × n, medians; gfpf / faster peer):
//! t8 one thread 2^8 0.16 ms (0.51), 2^12 2.5 ms (0.46), 2^14 11.7 ms
//! (0.47), 2^16 56 ms (0.54); two threads 2^14 6.6 ms (0.36), 2^16 30 ms
//! (0.36); p8 0.33–0.53, t16 0.40–0.64, t64 (2^8–2^12) 0.35–0.73. The TFT
//! over GF(p) itself took 78 ms at t8 2^14 in the same build. Earlier
//! versions: 21 primes over whole coefficients (a bench baseline) 103 ms;
//! Garner in scalar code and 192-bit digit sums 13.3 ms.
//!
//! **Memory.** Per call: the s residue arrays of the product (s·K·N words)
//! and one more for the second operand: (s + 1)·K·N words, against the
//! inputs' and output's 2·K·(la + lb) words, about (s + 1)/2 times as much
//! for balanced operands. The s transform plans of a size hold 4·N words
//! each (twiddles and Shoup companions) and are kept between calls.

use std::sync::{Arc, OnceLock};

use gfpf_field::{Element, Field};
use gfpf_small::primes::FP_PRIMES_50;
use gfpf_small::{BivariateConvolution, GARNER52_MAX_PRIMES, Garner52, Isa};
use rayon::prelude::*;
use rug::Integer;

use crate::CpuError;
use crate::executor::{PARALLEL_MIN_WORDS, Threading};

/// The primes: the largest q < 2^50 with 2^30 | q − 1 (any product length up
/// to 2^29 and any K up to 2^29 has its roots).
const PRIMES: &[u64] = &FP_PRIMES_50;

/// Digit sums (16 bytes each) the CRT keeps at once: 8 KiB.
const CRT_BLOCK_WORDS: usize = 512;

/// The s transforms and the CRT constants of one product size N = 2^m.
struct Level {
    /// One convolution per prime.
    convolutions: Vec<BivariateConvolution>,
    crt: Crt,
}

/// Garner's CRT from s residues to the signed coefficient, written straight
/// into radix-r digit sums: with Q_l = q_0⋯q_(l−1) and M = Q_s in radix r,
/// the coefficient c = Σ_l v_l·Q_l − [c < 0]·M of digit position i adds
/// v_l·(digit t of Q_l) to position i + t (negated past K: r^K = −1). Every
/// such product is below 2^50·r, so the sums of a coefficient stay in 128
/// bits and the field reduces them with one word division per digit.
struct Crt {
    /// Garner's mixed-radix conversion over the primes.
    garner: Garner52,
    /// The radix-r digits of Q_l.
    prefix: Vec<Vec<u64>>,
    /// The radix-r digits of M.
    modulus: Vec<u64>,
    /// The value is negative when the top mixed-radix digit exceeds this.
    top_half: u64,
    /// offset[i] for digit i: Σ offset_i·r^i = c·p ≡ 0, each above the most
    /// negative sum.
    offsets: Vec<u128>,
}

/// The radix-r digits of v ≥ 0, least significant first.
fn radix_digits(v: &Integer, r: u64) -> Vec<u64> {
    let mut v = v.clone();
    let mut out = Vec::new();
    while v > 0 {
        let (q, d) = v.div_rem(Integer::from(r));
        out.push(d.to_u64().expect("a digit is below r"));
        v = q;
    }
    out
}

impl Crt {
    /// For coefficients of absolute value at most `bound`, in a field of
    /// radix r with K digits: the least number of primes whose product
    /// exceeds 4·bound; `None` when the primes do not suffice or the digit
    /// sums would not fit.
    fn new(bound: &Integer, r: u64, k: usize, isa: Isa) -> Result<Option<Self>, CpuError> {
        let needed = Integer::from(bound * 4u32);
        let mut modulus = Integer::from(1);
        let mut primes = Vec::new();
        let mut prefix = Vec::new();
        for &q in PRIMES {
            if modulus > needed {
                break;
            }
            prefix.push(radix_digits(&modulus, r));
            modulus *= q;
            primes.push(q);
        }
        if modulus <= needed {
            return Ok(None);
        }
        let modulus = radix_digits(&modulus, r);
        // Every term is below 2^50·r in absolute value; a position gets at most
        // `terms` of them.
        let terms = prefix.iter().map(Vec::len).sum::<usize>() + modulus.len();
        let extreme = Integer::from(terms as u64) * (1u64 << 50) * r;
        // c·(r − 1) ≥ extreme: digit 0 gets c·(r + 1), the others c·(r − 1),
        // and Σ offset_i·r^i = c·(r^K + 1) = c·p.
        let c = Integer::from(&extreme / (r - 1)) + 1u32;
        let first = &c * (Integer::from(r) + 1u32);
        let rest = Integer::from(&c * (r - 1));
        // The largest sum, extreme + offset, must be below (r − 1)·2^64.
        let limit = Integer::from(r - 1) << 64u32;
        if Integer::from(&extreme + &first) >= limit {
            return Ok(None);
        }
        let offsets = (0..k)
            .map(|i| if i == 0 { &first } else { &rest }.to_u128().expect("below 2^128"))
            .collect();
        let top = *primes.last().expect("at least one prime");
        Ok(Some(Crt {
            garner: Garner52::try_new(&primes)?.with_isa(isa)?,
            prefix,
            modulus,
            top_half: top / 2,
            offsets,
        }))
    }

    /// Adds the coefficients at digit position i of a block of polynomial
    /// coefficients, given by their mixed-radix digits (`digits[l][j]`), to
    /// the block's digit sums (wrapping two's complement).
    fn accumulate<const K: usize>(&self, digits: &[&mut [u64]], i: usize, sums: &mut [[u128; K]]) {
        let position = |t: usize| ((i + t) % K, i + t >= K);
        for (v, prefix) in digits.iter().zip(&self.prefix) {
            for (t, &e) in prefix.iter().enumerate() {
                let (at, negative) = position(t);
                for (sum, &x) in sums.iter_mut().zip(v.iter()) {
                    let term = x as u128 * e as u128;
                    sum[at] = if negative {
                        sum[at].wrapping_sub(term)
                    } else {
                        sum[at].wrapping_add(term)
                    };
                }
            }
        }
        // Negative coefficients: subtract M.
        let top = &digits[digits.len() - 1];
        for (t, &m) in self.modulus.iter().enumerate() {
            let (at, negative) = position(t);
            for (sum, &x) in sums.iter_mut().zip(top.iter()) {
                let term = if x > self.top_half { m as u128 } else { 0 };
                sum[at] = if negative {
                    sum[at].wrapping_add(term)
                } else {
                    sum[at].wrapping_sub(term)
                };
            }
        }
    }
}

/// Products over one field by word-size primes; the transforms of each
/// size are built on first use and kept (thread-safe).
pub struct MultiModular<const K: usize> {
    field: Field<K>,
    threading: Threading,
    isa: Isa,
    levels: Vec<OnceLock<Result<Arc<Level>, CpuError>>>,
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

/// The least words (K·N per residue array) for which the steps of a
/// product run on several threads. Measured on 2 cores (t8, n × n, so
/// K·N = 16n): n = 2^11 took 1.45 ms on 2 threads against 1.23 ms on one,
/// n = 2^12 1.9 against 2.5 ms.
pub const MULTIMODULAR_PARALLEL_MIN_WORDS: usize = 1 << 16;

/// The longest product (la + lb − 1) the primes' roots allow: 2^29.
pub const MULTIMODULAR_MAX_LEN: usize = 1 << 29;

impl<const K: usize> MultiModular<K> {
    /// Products over `field`; nothing is planned until a size is used.
    pub fn new(field: &Field<K>) -> Self {
        MultiModular {
            field: field.clone(),
            threading: Threading::default(),
            isa: Isa::best(),
            levels: (0..=MULTIMODULAR_MAX_LEN.trailing_zeros())
                .map(|_| OnceLock::new())
                .collect(),
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
        self.levels.iter_mut().for_each(|l| *l = OnceLock::new());
        Ok(self)
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        &self.field
    }

    /// The number of word-size primes a product of length `len` uses, or
    /// `None` above [`MULTIMODULAR_MAX_LEN`].
    pub fn primes_for(&self, len: usize) -> Option<usize> {
        let n = len.max(1).checked_next_power_of_two()?;
        self.level(n).ok().map(|l| l.convolutions.len())
    }

    fn level(&self, n: usize) -> Result<Arc<Level>, CpuError> {
        if n > MULTIMODULAR_MAX_LEN {
            return Err(gfpf_executor::TransformError::TooLarge {
                n,
                what: "multi-modular product length",
            }
            .into());
        }
        self.levels[n.trailing_zeros() as usize]
            .get_or_init(|| {
                // min(la, lb) ≤ N/2 + 1 when la + lb − 1 ≤ N; digits ≤ r.
                let r = self.field.r();
                let bound = Integer::from(n / 2 + 1) * K as u64 * Integer::from(r) * r;
                let crt = Crt::new(&bound, r, K, self.isa)?.ok_or(gfpf_executor::TransformError::TooLarge {
                    n,
                    what: "multi-modular product length (the primes' product is too small)",
                })?;
                let convolutions = crt
                    .garner
                    .primes()
                    .iter()
                    .map(|&q| BivariateConvolution::try_new(K, n, q).and_then(|c| c.with_isa(self.isa)))
                    .collect::<Result<_, _>>()?;
                Ok(Arc::new(Level { convolutions, crt }))
            })
            .clone()
    }

    fn parallel(&self, words: usize) -> bool {
        self.threading == Threading::Parallel && words >= MULTIMODULAR_PARALLEL_MIN_WORDS
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
        let n = len
            .checked_next_power_of_two()
            .ok_or(gfpf_executor::TransformError::TooLarge {
                n: len,
                what: "product length",
            })?;
        let level = self.level(n)?;
        let size = K * n;
        let s = level.convolutions.len();
        let mut residues = try_zeroed(s * size)?;
        let mut other = if b.is_some() { try_zeroed(size)? } else { Vec::new() };
        for (conv, row) in level.convolutions.iter().zip(residues.chunks_exact_mut(size)) {
            self.project(a, conv.modulus(), row, n);
            self.forward(conv, row)?;
            if let Some(b) = b {
                other.fill(0);
                self.project(b, conv.modulus(), &mut other, n);
                self.forward(conv, &mut other)?;
                self.pointwise(conv, row, Some(&other))?;
            } else {
                self.pointwise(conv, row, None)?;
            }
            self.inverse(conv, row)?;
        }
        drop(other);
        let mut out = vec![Element::ZERO; len];
        self.reconstruct(&level.crt, &residues, n, &mut out)?;
        Ok(out)
    }

    /// Digit i of a[j] mod q into row i, column j (digit-major): each
    /// element is read once, its digits go to the K rows.
    fn project(&self, a: &[Element<K>], q: u64, rows: &mut [u64], n: usize) {
        // Barrett with μ = ⌊2^64/q⌋: d − ⌊d·μ/2^64⌋·q lies in [0, 3q).
        let mu = ((1u128 << 64) / q as u128) as u64;
        let reduce = |d: u64| {
            let estimate = ((d as u128 * mu as u128) >> 64) as u64;
            let t = d - estimate * q;
            let t = t.min(t.wrapping_sub(q));
            t.min(t.wrapping_sub(q))
        };
        let run = |start: usize, rows: &mut [&mut [u64]]| {
            let width = rows[0].len();
            let end = a.len().min(start + width);
            for (j, x) in a.iter().enumerate().take(end).skip(start) {
                for (row, &d) in rows.iter_mut().zip(x.digits()) {
                    row[j - start] = reduce(d);
                }
            }
        };
        let live = &mut rows[..];
        if self.parallel(a.len() * K) {
            for_column_blocks(live, K, n, |start, rows| {
                run(start, rows);
                Ok::<(), std::convert::Infallible>(())
            })
            .unwrap_or_else(|never| match never {});
        } else {
            let mut all: Vec<&mut [u64]> = live.chunks_exact_mut(n).collect();
            run(0, &mut all);
        }
    }

    fn forward(&self, conv: &BivariateConvolution, data: &mut [u64]) -> Result<(), CpuError> {
        let n = conv.row_len();
        if !self.parallel(data.len()) {
            return Ok(conv.forward(data)?);
        }
        for_column_blocks(data, K, n, |_, rows| conv.forward_columns(rows))?;
        data.par_chunks_mut(n).try_for_each(|row| conv.forward_row(row))?;
        Ok(())
    }

    fn inverse(&self, conv: &BivariateConvolution, data: &mut [u64]) -> Result<(), CpuError> {
        let n = conv.row_len();
        if !self.parallel(data.len()) {
            return Ok(conv.inverse(data)?);
        }
        data.par_chunks_mut(n).try_for_each(|row| conv.inverse_row(row))?;
        for_column_blocks(data, K, n, |_, rows| conv.inverse_columns(rows))?;
        Ok(())
    }

    fn pointwise(&self, conv: &BivariateConvolution, a: &mut [u64], b: Option<&[u64]>) -> Result<(), CpuError> {
        let chunk = PARALLEL_MIN_WORDS;
        let run = |(i, x): (usize, &mut [u64])| match b {
            Some(b) => conv.mul_spectra(x, &b[i * chunk..i * chunk + x.len()]),
            None => conv.square_spectra(x),
        };
        if self.parallel(a.len()) {
            a.par_chunks_mut(chunk).enumerate().try_for_each(run)?;
        } else {
            a.chunks_mut(chunk).enumerate().try_for_each(run)?;
        }
        Ok(())
    }

    /// Garner and the field's digit-sum reduction, a block of coefficients
    /// at a time (their digit sums stay in L1).
    fn reconstruct(&self, crt: &Crt, residues: &[u64], n: usize, out: &mut [Element<K>]) -> Result<(), CpuError> {
        let size = K * n;
        let s = crt.garner.primes().len();
        let block = (CRT_BLOCK_WORDS / K).max(8);
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
                    *row = &residues[l * size + i * n + start..][..len];
                }
                crt.garner.mixed_radix(&rows[..s], &mut digits, len)?;
                crt.accumulate(&digits, i, &mut sums);
            }
            for (x, sum) in part.iter_mut().zip(&sums) {
                *x = self.field.reduce_narrow_digit_sums(sum)?;
            }
            Ok(())
        };
        if self.parallel(out.len() * K) {
            out.par_chunks_mut(block).enumerate().try_for_each(run)
        } else {
            out.chunks_mut(block).enumerate().try_for_each(run)
        }
    }
}

/// A zeroed buffer, or a typed error when the memory is not there.
fn try_zeroed(len: usize) -> Result<Vec<u64>, CpuError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| gfpf_executor::TransformError::TooLarge {
            n: len,
            what: "multi-modular residue buffer",
        })?;
    v.resize(len, 0);
    Ok(v)
}

/// Runs `f(first column, rows)` on blocks of columns of the `k` rows of
/// length `n` in `data`, in parallel: each call gets the same columns of
/// every row.
fn for_column_blocks<E: Send>(
    data: &mut [u64],
    k: usize,
    n: usize,
    f: impl Fn(usize, &mut [&mut [u64]]) -> Result<(), E> + Sync,
) -> Result<(), E> {
    // Blocks of at least 512 columns (4 KiB per row), at most 16 per thread.
    let width = (n / (16 * rayon::current_num_threads())).max(512).min(n);
    let mut blocks: Vec<Vec<&mut [u64]>> = (0..n.div_ceil(width)).map(|_| Vec::with_capacity(k)).collect();
    for row in data.chunks_exact_mut(n) {
        for (block, part) in blocks.iter_mut().zip(row.chunks_mut(width)) {
            block.push(part);
        }
    }
    blocks
        .par_iter_mut()
        .enumerate()
        .try_for_each(|(i, rows)| f(i * width, rows))
}
