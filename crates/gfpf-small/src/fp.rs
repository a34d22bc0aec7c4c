//! Modular arithmetic and exact dot products for q < 2^50 in f64 with FMA
//! (after Jean & Graillat, "A parallel algorithm for dot product over
//! word-size finite field using floating-point arithmetic").
//!
//! The paper works in rounding toward zero; Rust's f64 rounds to nearest,
//! so the error-free transformations used here are their round-to-nearest
//! forms: `TwoProduct` (h = fl(ab), l = fma(a, b, -h), ab = h + l exactly)
//! holds in any rounding mode, and splitting uses Rump's `σ + x - σ` with
//! signed remainders. Every value below is an integer held exactly in an f64.

use crate::SmallError;

/// The largest modulus (exclusive) of [`FpModulus`].
pub const FP_MAX_MODULUS: u64 = 1 << 50;

/// Terms the splitting dot product sums before folding its four partial sums
/// modulo q: pieces are at most 2^25 + 1 in magnitude, so 2^26 of them sum
/// exactly (< 2^52), in any order.
pub const SPLIT_CHUNK: usize = 1 << 26;

/// Independent accumulators per column in the splitting dot product.
const LANES: usize = 4;

/// A modulus 2 ≤ q < 2^50 for f64 arithmetic. Values are f64 integers in [0, q).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FpModulus {
    q: f64,
    /// 1/q, rounded.
    q_inv: f64,
    /// λ = floor((2^53 - 1) / (q - 1)): that many values below q sum exactly.
    lambda: usize,
}

impl FpModulus {
    /// For 2 ≤ q < 2^50.
    pub fn new(q: u64) -> Result<Self, SmallError> {
        if !(2..FP_MAX_MODULUS).contains(&q) {
            return Err(SmallError::ModulusOutOfRange {
                q,
                what: "floating-point arithmetic",
                requirement: "2 <= q < 2^50",
            });
        }
        Ok(Self {
            q: q as f64,
            q_inv: 1.0 / q as f64,
            lambda: (((1u64 << 53) - 1) / (q - 1)) as usize,
        })
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.q as u64
    }

    /// λ of the λ-algorithm: how many values below q are summed between reductions.
    pub fn lambda(&self) -> usize {
        self.lambda
    }

    /// x mod q for an integer-valued |x| < 2^53 (any sign), in [0, q).
    #[inline(always)]
    pub fn reduce(&self, x: f64) -> f64 {
        // x - floor(x/q)·q is exact (an integer below 2^53 in magnitude); the
        // rounded quotient is off by at most one.
        let c = (x * self.q_inv).floor();
        let r = (-c).mul_add(self.q, x);
        if r < 0.0 {
            r + self.q
        } else if r >= self.q {
            r - self.q
        } else {
            r
        }
    }

    /// a·b mod q for a, b in [0, q), in [0, q).
    #[inline(always)]
    pub fn mul(&self, a: f64, b: f64) -> f64 {
        // TwoProduct: ab = h + l exactly, |l| ≤ ulp(h)/2 ≤ 2^47.
        let h = a * b;
        let l = a.mul_add(b, -h);
        // c ≈ h/q to within 1 + 2^-50 relative: h - c·q is an integer of
        // magnitude < 2q < 2^51, exact under the FMA's single rounding.
        let c = (h * self.q_inv).floor();
        let d = (-c).mul_add(self.q, h);
        // d + l: integers below 2^52 in magnitude, exact.
        self.reduce(d + l)
    }

    /// a + b mod q for a, b in [0, q).
    #[inline(always)]
    pub fn add(&self, a: f64, b: f64) -> f64 {
        let s = a + b;
        if s >= self.q { s - self.q } else { s }
    }

    /// a - b mod q for a, b in [0, q).
    #[inline(always)]
    pub fn sub(&self, a: f64, b: f64) -> f64 {
        let d = a - b;
        if d < 0.0 { d + self.q } else { d }
    }

    fn check(&self, a: &[f64], b: &[f64]) -> Result<(), SmallError> {
        if a.len() == b.len() {
            Ok(())
        } else {
            Err(SmallError::LengthMismatch {
                expected: a.len(),
                got: b.len(),
            })
        }
    }

    /// Σ a_i·b_i mod q by the λ-algorithm: each product is reduced (FMA), and
    /// the running sum only every λ terms (N/λ reductions in all).
    pub fn dot_lambda(&self, a: &[f64], b: &[f64]) -> Result<f64, SmallError> {
        self.check(a, b)?;
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has FMA and AVX2 (checked just above), which is
            // all `dot_lambda_fma` requires.
            return Ok(unsafe { self.dot_lambda_fma(a, b) });
        }
        Ok(self.dot_lambda_impl(a, b))
    }

    /// Σ a_i·b_i mod q by the (α, β, γ, δ) splitting: every product is split
    /// exactly into four signed pieces of at most 25 bits at weights 2^75,
    /// 2^50, 2^25 and 1, the four columns are summed without any reduction
    /// (exact for [`SPLIT_CHUNK`] terms), and reduced once per chunk.
    pub fn dot_split(&self, a: &[f64], b: &[f64]) -> Result<f64, SmallError> {
        self.check(a, b)?;
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has FMA and AVX2 (checked just above), which is
            // all `dot_split_fma` requires.
            return Ok(unsafe { self.dot_split_fma(a, b) });
        }
        Ok(self.dot_split_impl(a, b))
    }

    // The same code compiled with hardware FMA: without it, `mul_add` is a
    // libm call (measured 3x slower on the split dot product).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "fma,avx2")]
    fn dot_lambda_fma(&self, a: &[f64], b: &[f64]) -> f64 {
        self.dot_lambda_impl(a, b)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "fma,avx2")]
    fn dot_split_fma(&self, a: &[f64], b: &[f64]) -> f64 {
        self.dot_split_impl(a, b)
    }

    #[inline(always)]
    fn dot_lambda_impl(&self, a: &[f64], b: &[f64]) -> f64 {
        let mut total = 0.0;
        for (ca, cb) in a.chunks(self.lambda.max(1)).zip(b.chunks(self.lambda.max(1))) {
            // At most λ values below q: the sum is exact.
            let mut s = 0.0;
            for (&x, &y) in ca.iter().zip(cb) {
                s += self.mul(x, y);
            }
            total = self.add(total, self.reduce(s));
        }
        total
    }

    #[inline(always)]
    fn dot_split_impl(&self, a: &[f64], b: &[f64]) -> f64 {
        let two25 = self.reduce_pow2(25);
        let two50 = self.reduce_pow2(50);
        let two75 = self.reduce_pow2(75);
        let mut total = 0.0;
        for (ca, cb) in a.chunks(SPLIT_CHUNK).zip(b.chunks(SPLIT_CHUNK)) {
            // Four lanes per column: every partial sum is an exact integer,
            // so the order of additions is free and the lanes vectorise.
            let mut lanes = [[0.0f64; LANES]; 4];
            let (ca4, cb4) = (ca.chunks_exact(LANES), cb.chunks_exact(LANES));
            let (ra, rb) = (ca4.remainder(), cb4.remainder());
            for (xa, xb) in ca4.zip(cb4) {
                for l in 0..LANES {
                    let p = split_product(xa[l], xb[l]);
                    for c in 0..4 {
                        lanes[c][l] += p[c];
                    }
                }
            }
            for (&x, &y) in ra.iter().zip(rb) {
                let p = split_product(x, y);
                for c in 0..4 {
                    lanes[c][0] += p[c];
                }
            }
            let [s3, s2, s1, s0] = lanes.map(|lane| lane.iter().sum::<f64>());
            // Σ = s3·2^75 + s2·2^50 + s1·2^25 + s0, each |s| < 2^52.
            let t = self.add(self.mul(self.reduce(s3), two75), self.mul(self.reduce(s2), two50));
            let u = self.add(self.mul(self.reduce(s1), two25), self.reduce(s0));
            total = self.add(total, self.add(t, u));
        }
        total
    }

    /// 2^e mod q.
    fn reduce_pow2(&self, e: u32) -> f64 {
        let mut x = 1.0;
        for _ in 0..e {
            x = self.add(x, x);
        }
        x
    }
}

/// Rump's split of an integer-valued x with |x| < 2^(e+51) into x = hi + lo,
/// hi a multiple of 2^e, |lo| ≤ 2^(e-1): σ = 1.5·2^(e+52), hi = (σ + x) - σ.
#[inline(always)]
fn split_at(x: f64, sigma: f64) -> (f64, f64) {
    let hi = (sigma + x) - sigma;
    (hi, x - hi)
}

/// 2^e as an f64 (normal range), at compile time.
const fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// a·b (a, b < 2^50, non-negative integers) as p3·2^75 + p2·2^50 + p1·2^25 + p0
/// exactly, every |p_i| ≤ 2^25 + 1.
#[inline(always)]
fn split_product(a: f64, b: f64) -> [f64; 4] {
    // σ_e = 1.5·2^(e+52): (σ_e + x) - σ_e rounds x to a multiple of 2^e.
    const SIGMA75: f64 = 1.5 * pow2(127);
    const SIGMA50: f64 = 1.5 * pow2(102);
    const SIGMA25: f64 = 1.5 * pow2(77);
    let h = a * b; // ≤ 2^100
    let l = a.mul_add(b, -h); // ab = h + l exactly, |l| ≤ 2^47
    let (h3, r) = split_at(h, SIGMA75); // h3 ∈ 2^75·Z, |r| ≤ 2^74 (exact: a multiple of ulp(h))
    let (h2, r) = split_at(r, SIGMA50); // h2 ∈ 2^50·Z, |r| ≤ 2^49
    let m = r + l; // integers, |m| < 2^50: exact
    let (h1, h0) = split_at(m, SIGMA25); // h1 ∈ 2^25·Z, |h0| ≤ 2^24
    [h3 * pow2(-75), h2 * pow2(-50), h1 * pow2(-25), h0]
}
