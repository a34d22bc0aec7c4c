//! The AVX-512 IFMA kernels: eight 52-bit integer lanes.

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
    how: super::Accumulate,
) {
    use super::Accumulate;
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
