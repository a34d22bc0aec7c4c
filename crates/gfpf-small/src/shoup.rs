//! Shoup multiplication by a fixed operand with a precomputed companion.

/// A fixed multiplier w < q with its Shoup companion floor(w·2^64 / q)
/// (Harvey 2014): multiplying any x < 2^64 by w costs two multiplications and
/// gives a value in [0, 2q) (lazy) or [0, q).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ShoupFactor {
    /// The multiplier w, below q.
    pub value: u64,
    /// floor(w·2^64 / q).
    pub companion: u64,
}

impl ShoupFactor {
    /// Precomputes the companion of w < q (q < 2^63).
    pub fn new(w: u64, q: u64) -> Self {
        debug_assert!(w < q);
        Self {
            value: w,
            companion: (((w as u128) << 64) / q as u128) as u64,
        }
    }

    /// x·w mod q up to one q: a value in [0, 2q), for any x < 2^64 (q < 2^63).
    #[inline(always)]
    pub fn mul_lazy(&self, x: u64, q: u64) -> u64 {
        let quotient = ((x as u128 * self.companion as u128) >> 64) as u64;
        x.wrapping_mul(self.value).wrapping_sub(quotient.wrapping_mul(q))
    }

    /// x·w mod q in [0, q), for any x < 2^64.
    #[inline(always)]
    pub fn mul(&self, x: u64, q: u64) -> u64 {
        let r = self.mul_lazy(x, q);
        if r >= q { r - q } else { r }
    }
}
