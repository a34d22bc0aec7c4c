//! Polynomial products over GF(p) the two ways people do without gfpf, for
//! side-by-side timing with the same inputs:
//!
//! * [`kronecker_mul`]: Kronecker substitution on GMP (rug): pack each
//!   operand into one big integer with slots wide enough for the integer
//!   product's coefficients, one `mpz_mul` (GMP's own FFT for these sizes),
//!   unpack and reduce each coefficient mod p. GMP is single-threaded.
//! * [`MultiModularMul`]: the small-prime approach (thesis ch. 7) for
//!   products: project both operands to s word-size NTT primes whose product
//!   exceeds the integer product's coefficients (< min(la, lb)·p²), one cyclic
//!   convolution per prime, CRT (mixed radix), reduce mod p.

use gfpf_field::{Element, Field};
use gfpf_small::primes::NTT_PRIMES_62;

use crate::small_primes::SmallPrimeDft;
use gfpf_small::{Plan, RnsBasis, SmallError};
use rayon::prelude::*;
use rug::Integer;
use rug::integer::Order;

/// Bits of the largest coefficient of the integer product of two vectors
/// of values < p, the shorter of length `shorter`.
fn product_coefficient_bits(p_bits: u32, shorter: usize) -> u32 {
    2 * p_bits + usize::BITS - shorter.leading_zeros()
}

/// a·b over GF(p) by Kronecker substitution and one GMP multiplication.
pub fn kronecker_mul<const K: usize>(field: &Field<K>, a: &[Element<K>], b: &[Element<K>]) -> Vec<Element<K>> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let slot = product_coefficient_bits(field.bits(), a.len().min(b.len())).div_ceil(64) as usize;
    let pack = |v: &[Element<K>]| {
        let mut limbs = vec![0u64; v.len() * slot];
        for (x, dst) in v.iter().zip(limbs.chunks_exact_mut(slot)) {
            dst[..K].copy_from_slice(&field.to_words(x));
        }
        Integer::from_digits(&limbs, Order::Lsf)
    };
    let product = pack(a) * pack(b);
    let len = a.len() + b.len() - 1;
    let mut limbs = vec![0u64; len * slot];
    let used = product.significant_digits::<u64>();
    product.write_digits(&mut limbs[..used], Order::Lsf);
    limbs
        .chunks_exact(slot)
        .map(|c| field.from_integer_reduced(&Integer::from_digits(c, Order::Lsf)))
        .collect()
}

/// Products of polynomials over GF(p) of a bounded product length by
/// word-size NTT convolutions and CRT.
pub struct MultiModularMul {
    size: usize,
    basis: RnsBasis,
    plans: Vec<Plan>,
}

impl MultiModularMul {
    /// For products of at most `max_len` coefficients whose shorter operand
    /// has at most `shorter` coefficients, over a field of `p_bits` bits;
    /// `None` when the prime table is too short for p (above about 1900 bits).
    pub fn new(p_bits: u32, max_len: usize, shorter: usize) -> Option<Result<Self, SmallError>> {
        let bits = product_coefficient_bits(p_bits, shorter) + 1;
        let s = SmallPrimeDft::primes_for_bits(bits);
        // primes_for_bits stops at the end of the table: check it sufficed.
        if NTT_PRIMES_62[..s].iter().map(|&q| (q as f64).log2()).sum::<f64>() <= bits as f64 {
            return None;
        }
        let qs = &NTT_PRIMES_62[..s];
        let size = max_len.next_power_of_two();
        let build = || {
            Ok(MultiModularMul {
                size,
                basis: RnsBasis::new(qs)?,
                plans: qs.iter().map(|&q| Plan::try_new(size, q)).collect::<Result<_, _>>()?,
            })
        };
        Some(build())
    }

    /// s, the number of primes.
    pub fn primes(&self) -> usize {
        self.plans.len()
    }

    /// a·b over `field` (la + lb − 1 ≤ the planned length), parallel over
    /// primes and coefficients when asked.
    pub fn mul<const K: usize>(
        &self,
        field: &Field<K>,
        a: &[Element<K>],
        b: &[Element<K>],
        parallel: bool,
    ) -> Vec<Element<K>> {
        if a.is_empty() || b.is_empty() {
            return Vec::new();
        }
        let len = a.len() + b.len() - 1;
        assert!(len <= self.size, "product longer than planned");
        let words = |v: &[Element<K>]| v.iter().map(|x| field.to_words(x)).collect::<Vec<[u64; K]>>();
        let (wa, wb) = (words(a), words(b));
        let n = self.size;
        let per_prime = |plan: &Plan| {
            let q = plan.modulus() as u128;
            let reduce = |w: &[u64; K]| {
                w.iter()
                    .rev()
                    .fold(0u64, |acc, &d| ((((acc as u128) << 64) | d as u128) % q) as u64)
            };
            let mut ra = vec![0u64; n];
            let mut rb = vec![0u64; n];
            ra.iter_mut().zip(&wa).for_each(|(r, w)| *r = reduce(w));
            rb.iter_mut().zip(&wb).for_each(|(r, w)| *r = reduce(w));
            let mut out = vec![0u64; n];
            plan.cyclic_convolution(&ra, &rb, &mut out).expect("planned length");
            out
        };
        let rows: Vec<Vec<u64>> = if parallel {
            self.plans.par_iter().map(per_prime).collect()
        } else {
            self.plans.iter().map(per_prime).collect()
        };
        let one = |j: usize| {
            let r: Vec<u64> = rows.iter().map(|row| row[j]).collect();
            let w = self.basis.from_mixed_radix(&self.basis.mixed_radix(&r));
            field.from_integer_reduced(&Integer::from_digits(&w, Order::Lsf))
        };
        if parallel {
            (0..len).into_par_iter().map(one).collect()
        } else {
            (0..len).map(one).collect()
        }
    }
}
