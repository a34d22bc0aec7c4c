//! Montgomery arithmetic for odd word-size moduli.
//!
//! Elements live in Montgomery form x·R mod q (R = 2^64, resp. 2^32).
//! [`Montgomery64::mul`] takes inputs below q and returns a value below q; the
//! lazy variant accepts inputs below 2q (for q < 2^62, so 2q·2q < q·R) and
//! returns a value below 2q.

use crate::SmallError;

/// Montgomery arithmetic modulo an odd q < 2^63, R = 2^64.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Montgomery64 {
    q: u64,
    /// q^(-1) mod 2^64.
    q_inv: u64,
    /// R² mod q, to enter Montgomery form.
    r2: u64,
}

impl Montgomery64 {
    /// For an odd modulus 3 ≤ q < 2^63.
    pub fn new(q: u64) -> Result<Self, SmallError> {
        if q < 3 || q.is_multiple_of(2) || q >= 1 << 63 {
            return Err(SmallError::ModulusOutOfRange {
                q,
                what: "Montgomery64",
                requirement: "an odd q with 3 <= q < 2^63",
            });
        }
        // Newton iteration doubles the correct low bits: 3 → 6 → … → 96 ≥ 64.
        let mut q_inv = q;
        for _ in 0..5 {
            q_inv = q_inv.wrapping_mul(2u64.wrapping_sub(q.wrapping_mul(q_inv)));
        }
        let r1 = ((1u128 << 64) % q as u128) as u64;
        let r2 = (r1 as u128 * r1 as u128 % q as u128) as u64;
        Ok(Self { q, q_inv, r2 })
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.q
    }

    /// −q^(-1) mod 2^64: the constant of a REDC that adds m·q instead of
    /// subtracting it (as the device's word-size kernels do).
    pub fn neg_q_inv(&self) -> u64 {
        self.q_inv.wrapping_neg()
    }

    /// t·R^(-1) mod q for t < q·R, in [0, q).
    #[inline(always)]
    pub fn redc(&self, t: u128) -> u64 {
        // m = t·q^(-1) mod R; t - m·q ≡ 0 mod R and (t - m·q)/R ∈ (-q, q).
        let m = (t as u64).wrapping_mul(self.q_inv);
        let mq_hi = ((m as u128 * self.q as u128) >> 64) as u64;
        let (d, borrow) = ((t >> 64) as u64).overflowing_sub(mq_hi);
        if borrow { d.wrapping_add(self.q) } else { d }
    }

    /// a·b·R^(-1) mod q for a, b < q (Montgomery forms), in [0, q).
    #[inline(always)]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(a as u128 * b as u128)
    }

    /// x·R mod q for any x (enters Montgomery form), in [0, q).
    #[inline(always)]
    pub fn to_montgomery(&self, x: u64) -> u64 {
        self.mul(x % self.q, self.r2)
    }

    /// x·R^(-1) mod q (leaves Montgomery form) for x < q·R, in [0, q).
    #[inline(always)]
    pub fn from_montgomery(&self, x: u64) -> u64 {
        self.redc(x as u128)
    }

    /// Σ a_i·b_i·R^(-1) mod q for Montgomery forms a_i, b_i < q (the integer
    /// reference for the floating-point dot products): one REDC per term, the
    /// reduced terms summed in a `u128` and reduced once at the end.
    pub fn dot(&self, a: &[u64], b: &[u64]) -> Result<u64, SmallError> {
        if a.len() != b.len() {
            return Err(SmallError::LengthMismatch {
                expected: a.len(),
                got: b.len(),
            });
        }
        let sum: u128 = a.iter().zip(b).map(|(&x, &y)| self.mul(x, y) as u128).sum();
        Ok((sum % self.q as u128) as u64)
    }
}

/// Montgomery arithmetic modulo an odd q < 2^31, R = 2^32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Montgomery32 {
    q: u32,
    q_inv: u32,
    r2: u32,
}

impl Montgomery32 {
    /// For an odd modulus 3 ≤ q < 2^31.
    pub fn new(q: u32) -> Result<Self, SmallError> {
        if q < 3 || q.is_multiple_of(2) || q >= 1 << 31 {
            return Err(SmallError::ModulusOutOfRange {
                q: q as u64,
                what: "Montgomery32",
                requirement: "an odd q with 3 <= q < 2^31",
            });
        }
        let mut q_inv = q;
        for _ in 0..4 {
            q_inv = q_inv.wrapping_mul(2u32.wrapping_sub(q.wrapping_mul(q_inv)));
        }
        let r1 = ((1u64 << 32) % q as u64) as u32;
        let r2 = (r1 as u64 * r1 as u64 % q as u64) as u32;
        Ok(Self { q, q_inv, r2 })
    }

    /// The modulus.
    pub fn modulus(&self) -> u32 {
        self.q
    }

    /// −q^(-1) mod 2^32: the constant of a REDC that adds m·q instead of
    /// subtracting it (as the device's word-size kernels do).
    pub fn neg_q_inv(&self) -> u32 {
        self.q_inv.wrapping_neg()
    }

    /// t·R^(-1) mod q for t < q·R, in [0, q).
    #[inline(always)]
    pub fn redc(&self, t: u64) -> u32 {
        let m = (t as u32).wrapping_mul(self.q_inv);
        let mq_hi = ((m as u64 * self.q as u64) >> 32) as u32;
        let (d, borrow) = ((t >> 32) as u32).overflowing_sub(mq_hi);
        if borrow { d.wrapping_add(self.q) } else { d }
    }

    /// a·b·R^(-1) mod q for a, b < q, in [0, q).
    #[inline(always)]
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.redc(a as u64 * b as u64)
    }

    /// x·R mod q for any x, in [0, q).
    #[inline(always)]
    pub fn to_montgomery(&self, x: u32) -> u32 {
        self.mul(x % self.q, self.r2)
    }

    /// x·R^(-1) mod q, in [0, q).
    #[inline(always)]
    pub fn from_montgomery(&self, x: u32) -> u32 {
        self.redc(x as u64)
    }
}
