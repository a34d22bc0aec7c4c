//! The f64-lane kernels of [`super::Isa::Avx2Fma`]: the data hold f64 bit patterns
//! of exact integers, |v| ≤ 2q + 1 between layers (signed: no offsets by 2q).
//!
//! x·w mod q for |x| < 2^52, w < q: h = fl(x·w) and ℓ = x·w − h exactly (one
//! FMA), k = round(x·(w/q)), then h − k·q (exact by FMA: the result is a
//! small integer) + ℓ, in [−1.5q, 1.5q]. Reduction x − round(x/q)·q gives
//! |v| ≤ q/2 + 1. DIF: (reduce(x + y), (x − y)·w); DIT: x reduced first,
//! then (x + y·w, x − y·w). Each stays within |v| ≤ 2q + 1 < 2^51.

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
/// ([`crate::conv52::columns::ColumnGroup`]) on R ≤ 8 rows, four columns a step
/// in registers: the rows times their twist factors when `TWIST`
/// (values < q in), then the DIF layers of half-distance R/2, …, 1,
/// their butterflies in [`crate::conv52::columns::pass_butterflies`]' order with
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
    how: super::Accumulate,
) {
    use super::Accumulate;
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
