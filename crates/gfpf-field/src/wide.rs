//! Word-level helpers: division by the invariant radix and a 192-bit accumulator.

/// Division by a fixed 64-bit divisor with a precomputed reciprocal
/// (Möller & Granlund, "Improved division by invariant integers", 2011, Alg. 4):
/// two multiplications and a few additions instead of a hardware `div`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Divisor {
    /// The divisor shifted left so that its top bit is set.
    normalized: u64,
    /// floor((2^128 - 1) / normalized) - 2^64.
    reciprocal: u64,
    /// The left shift applied to the divisor.
    shift: u32,
}

impl Divisor {
    /// Precomputes the reciprocal of `d`, which must be non-zero.
    pub(crate) fn new(d: u64) -> Self {
        debug_assert!(d != 0);
        let shift = d.leading_zeros();
        let normalized = d << shift;
        let reciprocal = (u128::MAX / normalized as u128 - (1u128 << 64)) as u64;
        Self {
            normalized,
            reciprocal,
            shift,
        }
    }

    /// The divisor shifted so that its top bit is set.
    pub(crate) fn normalized(&self) -> u64 {
        self.normalized
    }

    /// floor((2^128 - 1) / normalized) - 2^64.
    pub(crate) fn reciprocal(&self) -> u64 {
        self.reciprocal
    }

    /// The left shift that normalises the divisor (its leading zeros).
    #[inline(always)]
    pub(crate) fn shift(&self) -> u32 {
        self.shift
    }

    /// Returns `(n / d, n % d)` for `n = hi·2^64 + lo < d · 2^64` (so the
    /// quotient fits a word).
    #[inline(always)]
    pub(crate) fn div_rem(&self, hi: u64, lo: u64) -> (u64, u64) {
        // n < d·2^64 implies n·2^shift < normalized·2^64: no bits are lost and
        // the high word is below `normalized`, as Alg. 4 requires.
        let s = self.shift;
        let (q, rem) = self.div_rem_scaled(shl_words(hi, lo, s), lo << s);
        (q, rem >> s)
    }

    /// Alg. 4 proper: for `n = u1·2^64 + u0` with `u1 < normalized`, returns
    /// `(n / normalized, n % normalized)`. Callers that keep their dividends
    /// pre-shifted by [`Divisor::shift`] get `(n / d, (n % d)·2^shift)` without
    /// shifting twice.
    #[inline(always)]
    pub(crate) fn div_rem_scaled(&self, u1: u64, u0: u64) -> (u64, u64) {
        let d = self.normalized;
        let q = (self.reciprocal as u128 * u1 as u128).wrapping_add(((u1 as u128 + 1) << 64) | u0 as u128);
        let mut q1 = (q >> 64) as u64;
        let q0 = q as u64;
        let mut rem = u0.wrapping_sub(q1.wrapping_mul(d));
        // The first correction happens for a good fraction of inputs: branch-free.
        let adjust = (rem > q0) as u64;
        q1 = q1.wrapping_sub(adjust);
        rem = rem.wrapping_add(d & adjust.wrapping_neg());
        // The second is rare (well predicted).
        if rem >= d {
            q1 = q1.wrapping_add(1);
            rem -= d;
        }
        (q1, rem)
    }
}

/// The high word of `(hi·2^64 + lo) << s` for `s < 64` (the bits of `hi` shifted
/// out are dropped). `(lo >> 1) >> (63 - s)` is 0 for `s = 0`, where `lo >> 64`
/// would overflow; word shifts are cheaper than a variable u128 shift.
#[inline(always)]
pub(crate) fn shl_words(hi: u64, lo: u64, s: u32) -> u64 {
    (hi << s) | ((lo >> 1) >> (63 - s))
}

/// A 192-bit two's-complement accumulator, wrapping modulo 2^192.
///
/// Negacyclic product coefficients reach k·r^2 > 2^128 for the t-primes, so a
/// `u128` alone would overflow; the extra word holds the excess (and the sign
/// of intermediate differences).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Acc192 {
    pub(crate) lo: u128,
    pub(crate) hi: u64,
}

impl Acc192 {
    #[inline(always)]
    pub(crate) const fn new(lo: u128, hi: u64) -> Self {
        Self { lo, hi }
    }

    #[inline(always)]
    pub(crate) fn add(&mut self, x: u128) {
        let (lo, carry) = self.lo.overflowing_add(x);
        self.lo = lo;
        self.hi = self.hi.wrapping_add(carry as u64);
    }

    /// `a · b` for a word `a` and a double word `b` (exact modulo 2^192).
    #[inline(always)]
    pub(crate) fn mul_u64_u128(a: u64, b: u128) -> Self {
        let low = a as u128 * (b as u64) as u128;
        let high = a as u128 * (b >> 64);
        let mut acc = Self::new(low, (high >> 64) as u64);
        acc.add(high << 64);
        acc
    }
}

/// A signed sum of word products as a 192-bit two's-complement integer
/// (wrapping): each product is added or subtracted by one carry chain
/// (add, adc, adc), three word operations (t128: 182384 against 214506
/// instructions per product with [`HalfSums`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ProductSum {
    words: [u64; 3],
}

impl ProductSum {
    #[inline(always)]
    fn add_words(&mut self, lo: u64, mid: u64, hi: u64) {
        let [a, b, c] = &mut self.words;
        let (x, carry) = a.carrying_add(lo, false);
        let (y, carry) = b.carrying_add(mid, carry);
        let (z, _) = c.carrying_add(hi, carry);
        self.words = [x, y, z];
    }

    #[inline(always)]
    fn sub_words(&mut self, lo: u64, mid: u64, hi: u64) {
        let [a, b, c] = &mut self.words;
        let (x, borrow) = a.borrowing_sub(lo, false);
        let (y, borrow) = b.borrowing_sub(mid, borrow);
        let (z, _) = c.borrowing_sub(hi, borrow);
        self.words = [x, y, z];
    }
}

/// A signed sum of word products, kept as two independent wrapping 128-bit
/// sums of their low and high halves: four additions (or subtractions) per
/// product, no carry chain between products. Faster than [`ProductSum`] when
/// the product loops are fully unrolled (k ≤ 8: t8 1621 against 2235
/// instructions per product), slower otherwise. Exact as long as the true value
/// of each half-sum fits an `i128` and the total lies in [0, 2^191).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HalfSums {
    low_halves: u128,
    high_halves: u128,
}

impl ProductAccumulator for HalfSums {
    #[inline(always)]
    fn add_product(&mut self, a: u64, b: u64) {
        let p = a as u128 * b as u128;
        self.low_halves = self.low_halves.wrapping_add(p as u64 as u128);
        self.high_halves = self.high_halves.wrapping_add(p >> 64);
    }
    #[inline(always)]
    fn sub_product(&mut self, a: u64, b: u64) {
        let p = a as u128 * b as u128;
        self.low_halves = self.low_halves.wrapping_sub(p as u64 as u128);
        self.high_halves = self.high_halves.wrapping_sub(p >> 64);
    }
    #[inline(always)]
    fn double(&mut self) {
        self.low_halves <<= 1;
        self.high_halves <<= 1;
    }
    #[inline(always)]
    fn add_wide(&mut self, x: Acc192) {
        self.low_halves = self.low_halves.wrapping_add(x.lo as u64 as u128);
        self.high_halves = self.high_halves.wrapping_add((x.lo >> 64) | ((x.hi as u128) << 64));
    }
}

/// A signed sum of products for the coefficients of a negacyclic product: the
/// 192-bit [`ProductSum`] in general, a plain wrapping `u128` when the
/// field's bounds allow (see `MulKernel`).
pub(crate) trait ProductAccumulator: Copy + Default {
    /// self += a·b.
    fn add_product(&mut self, a: u64, b: u64);
    /// self -= a·b.
    fn sub_product(&mut self, a: u64, b: u64);
    /// self *= 2.
    fn double(&mut self);
    /// self += x, for a non-negative x < 2^192.
    fn add_wide(&mut self, x: Acc192);
}

impl ProductAccumulator for ProductSum {
    #[inline(always)]
    fn add_product(&mut self, a: u64, b: u64) {
        let p = a as u128 * b as u128;
        self.add_words(p as u64, (p >> 64) as u64, 0);
    }
    #[inline(always)]
    fn sub_product(&mut self, a: u64, b: u64) {
        let p = a as u128 * b as u128;
        self.sub_words(p as u64, (p >> 64) as u64, 0);
    }
    #[inline(always)]
    fn double(&mut self) {
        let [lo, mid, hi] = self.words;
        self.words = [lo << 1, (mid << 1) | (lo >> 63), (hi << 1) | (mid >> 63)];
    }
    #[inline(always)]
    fn add_wide(&mut self, x: Acc192) {
        self.add_words(x.lo as u64, (x.lo >> 64) as u64, x.hi);
    }
}

/// A [`ProductAccumulator`] whose exact value is read out in 192 bits.
pub(crate) trait WideAccumulator: ProductAccumulator {
    /// The sum, exactly, for a total in [0, 2^191).
    fn value(&self) -> Acc192;
}

impl WideAccumulator for ProductSum {
    #[inline(always)]
    fn value(&self) -> Acc192 {
        let [lo, mid, hi] = self.words;
        Acc192::new(lo as u128 | (mid as u128) << 64, hi)
    }
}

impl WideAccumulator for HalfSums {
    #[inline(always)]
    fn value(&self) -> Acc192 {
        // Two's-complement: sign-extend each half-sum to 192 bits and add.
        let low_sign = ((self.low_halves as i128) >> 127) as u64;
        let high_top = ((self.high_halves as i128) >> 64) as u64;
        let mut acc = Acc192::new(self.low_halves, low_sign.wrapping_add(high_top));
        acc.add(self.high_halves << 64);
        acc
    }
}

impl ProductAccumulator for u128 {
    #[inline(always)]
    fn add_product(&mut self, a: u64, b: u64) {
        *self = self.wrapping_add(a as u128 * b as u128);
    }
    #[inline(always)]
    fn sub_product(&mut self, a: u64, b: u64) {
        *self = self.wrapping_sub(a as u128 * b as u128);
    }
    #[inline(always)]
    fn double(&mut self) {
        *self <<= 1;
    }
    #[inline(always)]
    fn add_wide(&mut self, x: Acc192) {
        *self = self.wrapping_add(x.lo);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisor_matches_hardware_division_at_the_extremes() {
        for d in [
            (1u64 << 32) + 1,
            (1 << 59) + (1 << 58) + (1 << 11),
            (1 << 63) + (1 << 53),
            u64::MAX - (1 << 28) + 1,
            u64::MAX,
            3,
        ] {
            let div = Divisor::new(d);
            let limit = (d as u128) << 64;
            for n in [
                0u128,
                1,
                d as u128 - 1,
                d as u128,
                limit - 1,
                limit / 2,
                limit / 3 + 12345,
                (d as u128) * (d as u128 - 1),
            ] {
                if n < limit {
                    assert_eq!(
                        div.div_rem((n >> 64) as u64, n as u64),
                        ((n / d as u128) as u64, (n % d as u128) as u64),
                        "n={n} d={d}"
                    );
                }
            }
        }
    }

    #[test]
    fn accumulator_wraps_and_signs() {
        let mut a = Acc192::default();
        a.add(u128::MAX);
        a.add(1);
        assert_eq!(a, Acc192::new(0, 1));
        assert_eq!(Acc192::mul_u64_u128(3, u128::MAX), Acc192::new(u128::MAX - 2, 2));
    }

    #[test]
    fn signed_product_sums_are_exact() {
        check_signed_sums::<ProductSum>();
        check_signed_sums::<HalfSums>();
    }

    fn check_signed_sums<S: WideAccumulator>() {
        let mut s = S::default();
        s.add_wide(Acc192::new(5, 1));
        s.sub_product(u64::MAX, u64::MAX);
        s.sub_product(u64::MAX, 3);
        s.add_product(u64::MAX, u64::MAX);
        s.add_product(2, 3);
        s.double();
        // 2·(2^128 + 5 - 3·(2^64 - 1) + 6) = 2^129 - 6·2^64 + 28
        let expected = Acc192::new(28u128.wrapping_sub(6u128 << 64), 1);
        assert_eq!(s.value(), expected);
        // Intermediate negative half-sums are fine as long as the total is not.
        let mut t = S::default();
        t.sub_product(u64::MAX, u64::MAX);
        t.add_wide(Acc192::new(u128::MAX, 0));
        t.add_product(1, 1);
        assert_eq!(
            t.value(),
            Acc192::new(u128::MAX - u64::MAX as u128 * u64::MAX as u128 + 1, 0)
        );
    }
}
