//! [`Garner52`]: the mixed-radix conversion from residues modulo up to eight
//! word-size primes.

use crate::SmallError;
use crate::ntt52::{Isa, NTT52_MAX_MODULUS, companion52, mul_lazy, sub_if_ge};
use crate::primes::inv_mod;

/// Garner's mixed-radix conversion for up to 8 primes q < 2^50 within a
/// factor 2 of each other, on columns of residues (eight columns per step
/// with AVX-512 IFMA): x = v_0 + q_0·(v_1 + q_1·(v_2 + …)), 0 ≤ v_l < q_l.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Garner52 {
    primes: Vec<u64>,
    /// inverse[l][m] = q_m^(−1) mod q_l (m < l) with its Shoup companion.
    inverse: Vec<Vec<(u64, u64)>>,
    isa: Isa,
}

/// The most primes a [`Garner52`] takes.
pub const GARNER52_MAX_PRIMES: usize = 8;

impl Garner52 {
    /// For 1 to [`GARNER52_MAX_PRIMES`] distinct primes below 2^50, the
    /// largest less than twice the smallest.
    pub fn try_new(primes: &[u64]) -> Result<Self, SmallError> {
        if primes.is_empty() || primes.len() > GARNER52_MAX_PRIMES {
            return Err(SmallError::InvalidBasis("a Garner52 basis holds 1 to 8 primes"));
        }
        for &q in primes {
            if !(3..NTT52_MAX_MODULUS).contains(&q) {
                return Err(SmallError::ModulusOutOfRange {
                    q,
                    what: "a Garner52 basis",
                    requirement: "3 <= q < 2^50",
                });
            }
            if !crate::primes::is_prime(q) {
                return Err(SmallError::NotPrime(q));
            }
        }
        let (lo, hi) = (primes.iter().min().copied(), primes.iter().max().copied());
        if hi >= lo.map(|q| 2 * q) {
            return Err(SmallError::InvalidBasis(
                "the largest prime must be below twice the smallest",
            ));
        }
        for (i, q) in primes.iter().enumerate() {
            if primes[..i].contains(q) {
                return Err(SmallError::InvalidBasis("the primes must be distinct"));
            }
        }
        let inverse = primes
            .iter()
            .enumerate()
            .map(|(l, &ql)| {
                primes[..l]
                    .iter()
                    .map(|&qm| {
                        let w = inv_mod(qm % ql, ql);
                        (w, companion52(w, ql))
                    })
                    .collect()
            })
            .collect();
        Ok(Garner52 {
            primes: primes.to_vec(),
            inverse,
            isa: Isa::best(),
        })
    }

    /// The same on another instruction set; an error if this CPU lacks it.
    pub fn with_isa(mut self, isa: Isa) -> Result<Self, SmallError> {
        self.isa = isa.ensure_available()?;
        Ok(self)
    }

    /// The primes.
    pub fn primes(&self) -> &[u64] {
        &self.primes
    }

    /// For every column j < len: `digits[l][j]` = v_l of the integer whose
    /// residues are `residues[l][j]` (each below its prime). One slice per
    /// prime in both; each at least `len` long.
    pub fn mixed_radix(&self, residues: &[&[u64]], digits: &mut [&mut [u64]], len: usize) -> Result<(), SmallError> {
        let s = self.primes.len();
        if residues.len() != s || digits.len() != s {
            return Err(SmallError::LengthMismatch {
                expected: s,
                got: residues.len().min(digits.len()),
            });
        }
        if let Some(short) = residues
            .iter()
            .map(|r| r.len())
            .chain(digits.iter().map(|d| d.len()))
            .find(|&l| l < len)
        {
            return Err(SmallError::LengthMismatch {
                expected: len,
                got: short,
            });
        }
        let split = self.isa.vector_len(len);
        #[cfg(target_arch = "x86_64")]
        if split > 0 {
            let (primes, inverse) = (&self.primes, &self.inverse);
            match self.isa {
                // SAFETY: an ISA is only held where the CPU has it; the
                // slices were checked above; `inverse[l]` has l entries.
                Isa::Avx512Ifma => unsafe { crate::ntt52::ifma::mixed_radix(residues, digits, primes, inverse, split) },
                // SAFETY: as above.
                Isa::Avx2Fma => unsafe { crate::ntt52::avx2::mixed_radix(residues, digits, primes, inverse, split) },
                Isa::Scalar => unreachable!("no vector part in scalar code"),
            }
        }
        let mut v = [0u64; GARNER52_MAX_PRIMES];
        for j in split..len {
            for (l, &q) in self.primes.iter().enumerate() {
                let mut t = residues[l][j];
                for (m, &(w, c)) in self.inverse[l].iter().enumerate() {
                    // v_m < q_m < 2q_l: t + 2q_l − v_m lies in (0, 3q_l).
                    t = sub_if_ge(mul_lazy(t + 2 * q - v[m], w, c, q), q);
                }
                v[l] = t;
                digits[l][j] = t;
            }
        }
        Ok(())
    }
}
