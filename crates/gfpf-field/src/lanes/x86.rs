//! The AVX-512 transposes between eight elements and a [`Lanes`] block,
//! and the product in lanes with AVX-512 IFMA.

use std::arch::x86_64::*;

use super::{LANES, Lanes};
use crate::{Element, Field};

const MASK52: u64 = (1 << 52) - 1;

/// The field's constants for [`mul_ifma`], split into 52-bit limbs.
#[derive(Debug, Clone, Copy)]
pub(super) struct MulConsts {
    r: u64,
    /// r mod 2^52 and r div 2^52.
    r_limbs: [u64; 2],
    /// 1/r rounded to f64.
    r_inv: f64,
    /// The offset vector's first and other coefficients (value 0 mod p,
    /// making every product column non-negative; below 2^140).
    offset_first: [u64; 3],
    offset_rest: [u64; 3],
}

impl MulConsts {
    pub(super) fn new<const K: usize>(field: &Field<K>) -> Self {
        let limbs = |a: crate::wide::Acc192| {
            let v = a.lo;
            [
                (v as u64) & MASK52,
                ((v >> 52) as u64) & MASK52,
                ((v >> 104) as u64) | (a.hi << 24),
            ]
        };
        Self {
            r: field.r,
            r_limbs: [field.r & MASK52, field.r >> 52],
            r_inv: 1.0 / field.r as f64,
            offset_first: limbs(field.offset_first),
            offset_rest: limbs(field.offset_rest),
        }
    }
}

/// t = t0 + t1·2^52 + t2·2^104 (t0, t1 < 2^55, t < 2^140) divided by r:
/// (t mod r, and t div r as limbs q0 + q1·2^52 with q0 < 2^53).
///
/// The quotient is estimated in f64 (relative error below 2^-50, so
/// below 2^34 for quotients below 2^84) and lowered by 2^36, so that the
/// estimate never exceeds it; the exact remainder t − q_e·r (below
/// 2^37·r) gives a second estimate, lowered by 2^-12 before its floor
/// (its error is below 2^-14), and one exact correction finishes.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
#[inline]
fn div_rem_r(c: &MulConsts, t0: __m512i, t1: __m512i, t2: __m512i) -> (__m512i, __m512i, __m512i) {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let zero = _mm512_setzero_si512();
    let (rl, rh) = (
        _mm512_set1_epi64(c.r_limbs[0] as i64),
        _mm512_set1_epi64(c.r_limbs[1] as i64),
    );
    let r_inv = _mm512_set1_pd(c.r_inv);
    let two52 = _mm512_set1_pd(4503599627370496.0);
    let two104 = _mm512_set1_pd(20282409603651670423947251286016.0);
    let floor = |v: __m512d| _mm512_roundscale_pd::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(v);
    // First estimate, two limbs.
    let tf = _mm512_fmadd_pd(
        _mm512_cvtepu64_pd(t2),
        two104,
        _mm512_fmadd_pd(_mm512_cvtepu64_pd(t1), two52, _mm512_cvtepu64_pd(t0)),
    );
    let qf = _mm512_max_pd(
        _mm512_sub_pd(_mm512_mul_pd(tf, r_inv), _mm512_set1_pd(68719476736.0)),
        _mm512_setzero_pd(),
    );
    let qh_f = floor(_mm512_mul_pd(qf, _mm512_set1_pd(1.0 / 4503599627370496.0)));
    let ql_f = floor(_mm512_fnmadd_pd(qh_f, two52, qf));
    let (qh, ql) = (_mm512_cvttpd_epu64(qh_f), _mm512_cvttpd_epu64(ql_f));
    // s = t − q_e·r, in [0, 2^37·r): two limbs (the third is zero).
    let p0 = _mm512_madd52lo_epu64(zero, ql, rl);
    let p1 = _mm512_madd52lo_epu64(
        _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(zero, ql, rl), ql, rh),
        qh,
        rl,
    );
    let p2 = _mm512_madd52lo_epu64(
        _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, ql, rh), qh, rl),
        qh,
        rh,
    );
    let s0 = _mm512_sub_epi64(t0, p0);
    let s1 = _mm512_add_epi64(_mm512_sub_epi64(t1, p1), _mm512_srai_epi64::<52>(s0));
    let s2 = _mm512_add_epi64(_mm512_sub_epi64(t2, p2), _mm512_srai_epi64::<52>(s1));
    let s0 = _mm512_and_si512(s0, mask);
    let s1 = _mm512_add_epi64(_mm512_and_si512(s1, mask), _mm512_slli_epi64::<52>(s2));
    // Second estimate, one limb: s/r < 2^37 is estimated within 2^-14,
    // so lowering it by 2^-12 before the floor gives qc ≤ s div r ≤ qc + 1.
    let sf = _mm512_fmadd_pd(_mm512_cvtepu64_pd(s1), two52, _mm512_cvtepu64_pd(s0));
    let qc_f = _mm512_max_pd(
        floor(_mm512_fmsub_pd(sf, r_inv, _mm512_set1_pd(1.0 / 4096.0))),
        _mm512_setzero_pd(),
    );
    let mut qc = _mm512_cvttpd_epu64(qc_f);
    // u = s − qc·r in [0, 2r); qc·r_h < 2^50 has no high half.
    let u0 = _mm512_sub_epi64(s0, _mm512_madd52lo_epu64(zero, qc, rl));
    let u1 = _mm512_sub_epi64(
        _mm512_sub_epi64(s1, _mm512_madd52hi_epu64(zero, qc, rl)),
        _mm512_madd52lo_epu64(zero, qc, rh),
    );
    let mut u1 = _mm512_add_epi64(u1, _mm512_srai_epi64::<52>(u0));
    let mut u0 = _mm512_and_si512(u0, mask);
    {
        let v0 = _mm512_sub_epi64(u0, rl);
        let v1 = _mm512_add_epi64(_mm512_sub_epi64(u1, rh), _mm512_srai_epi64::<52>(v0));
        let ge = _mm512_cmpge_epi64_mask(v1, zero);
        u0 = _mm512_mask_blend_epi64(ge, u0, _mm512_and_si512(v0, mask));
        u1 = _mm512_mask_blend_epi64(ge, u1, v1);
        qc = _mm512_mask_add_epi64(qc, ge, qc, _mm512_set1_epi64(1));
    }
    let rem = _mm512_or_si512(u0, _mm512_slli_epi64::<52>(u1));
    (rem, _mm512_add_epi64(ql, qc), qh)
}

/// [`super::LaneArith::mul_assign`] in SIMD lanes (K ≤
/// [`super::LANE_MUL_MAX_K`], r ≥ [`super::LANE_MUL_MIN_R`]).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn mul_ifma<const K: usize>(c: &MulConsts, x: &mut Lanes<K>, y: &Lanes<K>) {
    mul_ifma_n::<K, 1>(c, [x], [y]);
}

/// N independent products at once: their columns one after the other,
/// then their carry chains step by step together, so that the chains'
/// latencies overlap.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn mul_ifma_n<const K: usize, const N: usize>(c: &MulConsts, x: [&mut Lanes<K>; N], y: [&Lanes<K>; N]) {
    // Each product's columns written in place: returned by value, they
    // were copied (a `memcpy` of 3K vectors per product).
    let mut z = [const { std::mem::MaybeUninit::<[[__m512i; 3]; K]>::uninit() }; N];
    for (ze, (xe, ye)) in z.iter_mut().zip(x.iter().zip(y)) {
        columns(c, xe, ye, ze);
    }
    // SAFETY: `columns` wrote every element; `MaybeUninit<T>` has the
    // layout of T.
    let z = unsafe { &*z.as_ptr().cast::<[[[__m512i; 3]; K]; N]>() };
    normalize_n(c, z, x);
}

/// N blocks of digit sums z_m (non-negative, each as 52-bit limbs, the
/// first two below 2^52, below 2^140) to the elements Σ z_m·r^m mod p:
/// the base-r carry chains of the N blocks step by step together, then
/// the carry out of the top digit subtracted (r^K = −1).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn normalize_n<const K: usize, const N: usize>(c: &MulConsts, z: &[[[__m512i; 3]; K]; N], mut out: [&mut Lanes<K>; N]) {
    let zero = _mm512_setzero_si512();
    let mut q: [(__m512i, __m512i); N] = [(zero, zero); N];
    for m in 0..K {
        for e in 0..N {
            let zm = &z[e][m];
            let (d, n0, n1) = div_rem_r(
                c,
                _mm512_add_epi64(zm[0], q[e].0),
                _mm512_add_epi64(zm[1], q[e].1),
                zm[2],
            );
            // SAFETY: a digit row of a `Lanes` block is 8 words.
            unsafe { _mm512_storeu_si512(out[e].digits[m].as_mut_ptr().cast(), d) };
            q[e] = (n0, n1);
        }
    }
    for (e, x) in out.iter_mut().enumerate() {
        let (b, a, _) = div_rem_r(c, q[e].0, q[e].1, zero);
        let (mut low, mut high) = ([0u64; LANES], [0u64; LANES]);
        // SAFETY: eight words each.
        unsafe {
            _mm512_storeu_si512(low.as_mut_ptr().cast(), b);
            _mm512_storeu_si512(high.as_mut_ptr().cast(), a);
        }
        super::sub_two_digits_body(c.r, x, low, high);
    }
}

/// [`super::LaneArith::reduce_narrow_digit_sums`] on N blocks of eight
/// coefficients' digit sums (each below 2^128) into `out`.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn reduce_sums_ifma_n<const K: usize, const N: usize>(
    c: &MulConsts,
    sums: [&[[u128; K]]; N],
    out: [&mut Lanes<K>; N],
) {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let zero = _mm512_setzero_si512();
    let mut z = [[[zero; 3]; K]; N];
    for (e, ze) in z.iter_mut().enumerate() {
        if K.is_multiple_of(4) {
            // The 2K words of eight coefficients' sums, 8 × 8 tiles
            // transposed: words 2m and 2m + 1 are sum m's halves.
            for t in 0..K / 4 {
                // SAFETY: words 8t .. 8t + 8 of 2K (K a multiple of 4).
                let rows = std::array::from_fn(|l| unsafe {
                    _mm512_loadu_si512(sums[e][l].as_ptr().cast::<u64>().add(8 * t).cast())
                });
                let words = transpose8(rows);
                for h in 0..4 {
                    let (lo, hi) = (words[2 * h], words[2 * h + 1]);
                    ze[4 * t + h] = [
                        _mm512_and_si512(lo, mask),
                        _mm512_and_si512(
                            _mm512_or_si512(_mm512_srli_epi64::<52>(lo), _mm512_slli_epi64::<12>(hi)),
                            mask,
                        ),
                        _mm512_srli_epi64::<40>(hi),
                    ];
                }
            }
        } else {
            for (m, zm) in ze.iter_mut().enumerate() {
                let limb = |shift: u32, mask: u128| {
                    let words: [u64; LANES] = std::array::from_fn(|l| ((sums[e][l][m] >> shift) & mask) as u64);
                    // SAFETY: eight words.
                    unsafe { _mm512_loadu_si512(words.as_ptr().cast()) }
                };
                *zm = [limb(0, MASK52 as u128), limb(52, MASK52 as u128), limb(104, u128::MAX)];
            }
        }
    }
    normalize_n(c, &z, out);
}

/// A digit in 52-bit limbs (l, h): l < 2^52, h < 2^(12 + s) for a digit
/// that sums 2^s digits below 2^64 (Karatsuba's operand halves).
type Digit = (__m512i, __m512i);

/// A column of a product in three 52-bit limbs, each a signed 64-bit sum
/// of limb parts (the value is c0 + c1·2^52 + c2·2^104).
type Column = [__m512i; 3];

/// Adds x·y to a column: (l + h·2^52)(l' + h'·2^52) spread over three
/// limbs (seven multiply-adds; h·h' < 2^52 has no high half).
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn add_product(acc: Column, (xl, xh): Digit, (yl, yh): Digit) -> Column {
    let a0 = _mm512_madd52lo_epu64(acc[0], xl, yl);
    let a1 = _mm512_madd52hi_epu64(acc[1], xl, yl);
    let a1 = _mm512_madd52lo_epu64(a1, xh, yl);
    let a1 = _mm512_madd52lo_epu64(a1, xl, yh);
    let a2 = _mm512_madd52hi_epu64(acc[2], xh, yl);
    let a2 = _mm512_madd52hi_epu64(a2, xl, yh);
    let a2 = _mm512_madd52lo_epu64(a2, xh, yh);
    [a0, a1, a2]
}

/// The digits of an operand in limbs.
#[target_feature(enable = "avx512f")]
#[inline]
fn digits_in_limbs<const K: usize>(x: &Lanes<K>) -> [Digit; K] {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    std::array::from_fn(|i| {
        // SAFETY: a digit row of a `Lanes` block is 8 words.
        let d = unsafe { _mm512_loadu_si512(x.digits[i].as_ptr().cast()) };
        (_mm512_and_si512(d, mask), _mm512_srli_epi64::<52>(d))
    })
}

/// The acyclic product of N digits by N digits into `out`, column by
/// column: 2N columns (the last zero), each unnormalised (limbs below
/// N·3·2^52).
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn schoolbook<const N: usize>(x: &[Digit], y: &[Digit], out: &mut [Column]) {
    let zero = _mm512_setzero_si512();
    for (m, column) in out[..2 * N].iter_mut().enumerate() {
        let mut acc = [zero; 3];
        for i in m.saturating_sub(N - 1)..=m.min(N - 1) {
            acc = add_product(acc, x[i], y[m - i]);
        }
        *column = acc;
    }
}

/// Carries a column's limbs along (signed): c0, c1 in [0, 2^52), the
/// rest in c2; the value is unchanged.
#[target_feature(enable = "avx512f")]
#[inline]
fn carry_column(c: Column) -> Column {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let t1 = _mm512_add_epi64(c[1], _mm512_srai_epi64::<52>(c[0]));
    let t2 = _mm512_add_epi64(c[2], _mm512_srai_epi64::<52>(t1));
    [_mm512_and_si512(c[0], mask), _mm512_and_si512(t1, mask), t2]
}

/// One Karatsuba step on N = 2H digits into `out` (2N columns):
/// x = x0 + x1·R^H, likewise y; A = x0·y0, B = x1·y1, C = (x0 + x1)(y0 + y1),
/// and the product is A + (C − A − B)·R^H + B·R^2H, its columns formed
/// limb by limb (signed sums: the value of every column is exact, its
/// limbs may run negative). `half` multiplies H digits by H; `carry`
/// says whether its columns are carried first.
///
/// Why the limbs fit in i64: a schoolbook column of eight digits has
/// limbs below 8·3·2^52 < 2^57 (a sum digit's high limb, below 2^16 at
/// the fourth step, still leaves each multiply-add's low half below
/// 2^52); a step adds up to five columns' limbs (below 2^60), the
/// negacyclic fold two of those. Steps fed by steps carry their inputs
/// first (limbs then below 2^52), so the bound does not compound.
macro_rules! karatsuba_step {
    ($name:ident, $n:literal, $h:literal, $half:expr, $carry:literal) => {
        #[target_feature(enable = "avx512f,avx512ifma")]
        #[inline]
        fn $name(x: &[Digit], y: &[Digit], out: &mut [Column]) {
            let mask = _mm512_set1_epi64(MASK52 as i64);
            let zero = _mm512_setzero_si512();
            // The halves' sums, their low limbs carried into the high.
            let sum = |v: &[Digit]| -> [Digit; $h] {
                std::array::from_fn(|j| {
                    let (l0, h0) = v[j];
                    let (l1, h1) = v[$h + j];
                    let l = _mm512_add_epi64(l0, l1);
                    (
                        _mm512_and_si512(l, mask),
                        _mm512_add_epi64(_mm512_add_epi64(h0, h1), _mm512_srli_epi64::<52>(l)),
                    )
                })
            };
            let (sx, sy) = (sum(x), sum(y));
            let mut c = [[zero; 3]; 2 * $h];
            $half(&sx, &sy, &mut c);
            let (a, b) = out[..2 * $n].split_at_mut(2 * $h);
            $half(&x[..$h], &y[..$h], a);
            $half(&x[$h..], &y[$h..], b);
            // C − A − B, added at R^H.
            for j in 0..2 * $h {
                if $carry {
                    a[j] = carry_column(a[j]);
                    b[j] = carry_column(b[j]);
                    c[j] = carry_column(c[j]);
                }
                c[j] = std::array::from_fn(|e| _mm512_sub_epi64(c[j][e], _mm512_add_epi64(a[j][e], b[j][e])));
            }
            for (j, m) in c.iter().enumerate() {
                let column = &mut out[$h + j];
                *column = std::array::from_fn(|e| _mm512_add_epi64(column[e], m[e]));
            }
        }
    };
}
karatsuba_step!(karatsuba16, 16, 8, schoolbook::<8>, false);
karatsuba_step!(karatsuba32, 32, 16, karatsuba16, true);
karatsuba_step!(karatsuba64, 64, 32, karatsuba32, true);
karatsuba_step!(karatsuba128, 128, 64, karatsuba64, true);

/// The columns of the negacyclic product x·y, P − N + offset, in 52-bit
/// limbs (the first two below 2^52): the acyclic product's columns m
/// and m + K subtracted (r^K = −1).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
#[inline]
fn columns<const K: usize>(
    c: &MulConsts,
    x: &Lanes<K>,
    y: &Lanes<K>,
    out: &mut std::mem::MaybeUninit<[[__m512i; 3]; K]>,
) {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let zero = _mm512_setzero_si512();
    let (x, y) = (digits_in_limbs(x), digits_in_limbs(y));
    // The acyclic product's 2K columns, by Karatsuba steps down to
    // schoolbook products of eight digits where K is 16 to 128.
    let mut p = [[[zero; 3]; K]; 2];
    let flat = p.as_flattened_mut();
    match K {
        16 => karatsuba16(&x, &y, flat),
        32 => karatsuba32(&x, &y, flat),
        64 => karatsuba64(&x, &y, flat),
        128 => karatsuba128(&x, &y, flat),
        _ => schoolbook::<K>(&x, &y, flat),
    }
    let columns = out.as_mut_ptr().cast::<[__m512i; 3]>();
    for m in 0..K {
        let (pos, neg) = (p[0][m], p[1][m]);
        let off = if m == 0 { c.offset_first } else { c.offset_rest };
        let limb = |e: usize| _mm512_sub_epi64(_mm512_add_epi64(pos[e], _mm512_set1_epi64(off[e] as i64)), neg[e]);
        let t0 = limb(0);
        let t1 = _mm512_add_epi64(limb(1), _mm512_srai_epi64::<52>(t0));
        let t2 = _mm512_add_epi64(limb(2), _mm512_srai_epi64::<52>(t1));
        // SAFETY: column m < K of the K the output holds.
        unsafe {
            columns
                .add(m)
                .write([_mm512_and_si512(t0, mask), _mm512_and_si512(t1, mask), t2])
        };
    }
}

/// The transpose of an 8 × 8 tile of words (its own inverse): pairs of
/// rows interleaved, then 128-bit and 256-bit halves combined (24
/// shuffles).
#[target_feature(enable = "avx512f")]
fn transpose8(r: [__m512i; 8]) -> [__m512i; 8] {
    let t: [__m512i; 8] = std::array::from_fn(|j| {
        let (a, b) = (r[j & !1], r[j | 1]);
        if j & 1 == 0 {
            _mm512_unpacklo_epi64(a, b)
        } else {
            _mm512_unpackhi_epi64(a, b)
        }
    });
    let lo128 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    let hi128 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    // u[4h + 2s + e]: from t[4h + s] and t[4h + 2 + s], even or odd 128-bit halves.
    let u: [__m512i; 8] = std::array::from_fn(|j| {
        let (h, s, e) = (j / 4, (j / 2) % 2, j % 2);
        let idx = if e == 0 { lo128 } else { hi128 };
        _mm512_permutex2var_epi64(t[4 * h + s], idx, t[4 * h + 2 + s])
    });
    let lo256 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    let hi256 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    // u[2s + e] holds columns (2e + s) and (2e + s) + 4 of rows 0–3,
    // u[4 + 2s + e] the same of rows 4–7.
    let mut out = [_mm512_setzero_si512(); 8];
    for j in 0..4 {
        let (s, e) = (j % 2, j / 2);
        let (a, b) = (u[2 * s + e], u[4 + 2 * s + e]);
        out[2 * e + s] = _mm512_permutex2var_epi64(a, lo256, b);
        out[2 * e + s + 4] = _mm512_permutex2var_epi64(a, hi256, b);
    }
    out
}

/// [`super::LaneArith::gather`] for K a multiple of 8.
#[target_feature(enable = "avx512f")]
pub(super) fn gather_avx512<const K: usize>(elements: [&Element<K>; LANES], out: &mut Lanes<K>) {
    for c in 0..K / 8 {
        // SAFETY: digits c·8 .. c·8 + 8 of a K-digit element are in
        // bounds (K is a multiple of 8); unaligned loads.
        let rows = std::array::from_fn(|l| unsafe { _mm512_loadu_si512(elements[l].0.as_ptr().add(8 * c).cast()) });
        for (j, col) in transpose8(rows).into_iter().enumerate() {
            // SAFETY: a digit row of a `Lanes` block is 8 words.
            unsafe { _mm512_storeu_si512(out.digits[8 * c + j].as_mut_ptr().cast(), col) };
        }
    }
}

/// [`super::LaneArith::scatter`] for K a multiple of 8.
#[target_feature(enable = "avx512f")]
pub(super) fn scatter_avx512<const K: usize>(x: &Lanes<K>, elements: [&mut Element<K>; LANES]) {
    for c in 0..K / 8 {
        // SAFETY: a digit row of a `Lanes` block is 8 words.
        let rows = std::array::from_fn(|j| unsafe { _mm512_loadu_si512(x.digits[8 * c + j].as_ptr().cast()) });
        for (l, col) in transpose8(rows).into_iter().enumerate() {
            // SAFETY: digits c·8 .. c·8 + 8 of a K-digit element are in bounds.
            unsafe { _mm512_storeu_si512(elements[l].0.as_mut_ptr().add(8 * c).cast(), col) };
        }
    }
}
