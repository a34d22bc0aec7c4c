//! Barrett reduction for word-size moduli (HAC 14.42).

use crate::SmallError;

/// Barrett arithmetic modulo 2 ≤ q < 2^62 (any q, not only odd ones).
///
/// [`Barrett64::reduce`] takes x < q² (so any product of two reduced values)
/// and returns x mod q in [0, q).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Barrett64 {
    q: u64,
    /// Bit length b of q.
    bits: u32,
    /// floor(2^(2b) / q) < 2^(b+1).
    mu: u64,
}

impl Barrett64 {
    /// For 2 ≤ q < 2^62.
    pub fn new(q: u64) -> Result<Self, SmallError> {
        if !(2..1 << 62).contains(&q) {
            return Err(SmallError::ModulusOutOfRange {
                q,
                what: "Barrett64",
                requirement: "2 <= q < 2^62",
            });
        }
        let bits = 64 - q.leading_zeros();
        let mu = ((1u128 << (2 * bits)) / q as u128) as u64;
        Ok(Self { q, bits, mu })
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.q
    }

    /// x mod q for x < q² (HAC 14.42: the estimate is at most 2 below the quotient).
    #[inline(always)]
    pub fn reduce(&self, x: u128) -> u64 {
        let q_hat = (((x >> (self.bits - 1)) * self.mu as u128) >> (self.bits + 1)) as u64;
        let mut r = (x as u64).wrapping_sub(q_hat.wrapping_mul(self.q));
        if r >= self.q {
            r -= self.q;
        }
        if r >= self.q {
            r -= self.q;
        }
        r
    }

    /// a·b mod q for a, b < q.
    #[inline(always)]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.reduce(a as u128 * b as u128)
    }
}
