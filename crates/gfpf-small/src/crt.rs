//! Chinese remaindering: mixed-radix reconstruction (thesis §7.1), centred
//! (signed) CRT for 2 and 3 primes, and RNS projection of multi-word integers.

use crate::SmallError;
use crate::primes::{inv_mod, is_prime};
use crate::shoup::ShoupFactor;

/// The most primes an [`RnsBasis`] holds.
pub const MAX_RNS_PRIMES: usize = 64;

/// A residue number system over distinct primes q_0, …, q_(s-1) < 2^62.
///
/// An integer 0 ≤ x < Q = Π q_i is represented by its residues x mod q_i, or
/// by its **mixed-radix digits** a_i (0 ≤ a_i < q_i) with
/// x = a_0 + q_0·(a_1 + q_1·(a_2 + …)); mixed-radix digits compare
/// lexicographically (from the last) like the integers they denote, which is
/// what makes the centred (signed) reconstruction cheap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RnsBasis {
    primes: Vec<u64>,
    /// inverses[j][i] = q_i^(-1) mod q_j for i < j, with Shoup companions.
    inverses: Vec<Vec<ShoupFactor>>,
    /// Mixed-radix digits of (Q - 1) / 2, for centring.
    half_digits: Vec<u64>,
}

impl RnsBasis {
    /// A basis of 1 to [`MAX_RNS_PRIMES`] distinct primes below 2^62.
    pub fn new(primes: &[u64]) -> Result<Self, SmallError> {
        if primes.is_empty() || primes.len() > MAX_RNS_PRIMES {
            return Err(SmallError::InvalidBasis("a basis needs 1 to 64 primes"));
        }
        for (i, &q) in primes.iter().enumerate() {
            if !(3..1 << 62).contains(&q) {
                return Err(SmallError::ModulusOutOfRange {
                    q,
                    what: "an RNS basis",
                    requirement: "3 <= q < 2^62",
                });
            }
            if !is_prime(q) {
                return Err(SmallError::NotPrime(q));
            }
            if primes[..i].contains(&q) {
                return Err(SmallError::InvalidBasis("the primes must be distinct"));
            }
        }
        let inverses = primes
            .iter()
            .enumerate()
            .map(|(j, &qj)| {
                primes[..j]
                    .iter()
                    .map(|&qi| ShoupFactor::new(inv_mod(qi % qj, qj), qj))
                    .collect()
            })
            .collect();
        let mut basis = Self {
            primes: primes.to_vec(),
            inverses,
            half_digits: Vec::new(),
        };
        // (Q - 1)/2 from the words of Q - 1, halved.
        let mut q_minus_1 = basis.product_words();
        q_minus_1[0] -= 1; // Q is odd and ≥ 3: no borrow
        let half = shr1(&q_minus_1);
        basis.half_digits = basis.mixed_radix(&basis.project(&half));
        Ok(basis)
    }

    /// The primes.
    pub fn primes(&self) -> &[u64] {
        &self.primes
    }

    /// Q = Π q_i as little-endian words.
    pub fn product_words(&self) -> Vec<u64> {
        let mut words = vec![1u64];
        for &q in &self.primes {
            mul_small_words(&mut words, q, 0);
        }
        words
    }

    /// The residues of a non-negative multi-word integer (little-endian words).
    pub fn project(&self, words: &[u64]) -> Vec<u64> {
        self.primes
            .iter()
            .map(|&q| {
                // Horner from the top word: acc = acc·2^64 + w (mod q).
                words
                    .iter()
                    .rev()
                    .fold(0u64, |acc, &w| ((((acc as u128) << 64) | w as u128) % q as u128) as u64)
            })
            .collect()
    }

    /// The mixed-radix digits of the x < Q with these residues (Garner).
    pub fn mixed_radix(&self, residues: &[u64]) -> Vec<u64> {
        let mut digits: Vec<u64> = Vec::with_capacity(self.primes.len());
        for (j, (&qj, &rj)) in self.primes.iter().zip(residues).enumerate() {
            // a_j = (((r_j - a_0)·q_0^(-1) - a_1)·q_1^(-1) - …) mod q_j
            let mut t = rj % qj;
            for (i, &ai) in digits.iter().enumerate() {
                let diff = t + qj - ai % qj;
                t = self.inverses[j][i].mul(if diff >= qj { diff - qj } else { diff }, qj);
            }
            digits.push(t);
        }
        digits
    }

    /// Whether the integer with these mixed-radix digits exceeds (Q - 1)/2,
    /// i.e. stands for a negative value in the centred representation.
    pub fn is_upper_half(&self, digits: &[u64]) -> bool {
        digits.iter().rev().cmp(self.half_digits.iter().rev()) == std::cmp::Ordering::Greater
    }

    /// The integer with these mixed-radix digits, as little-endian words.
    pub fn from_mixed_radix(&self, digits: &[u64]) -> Vec<u64> {
        // Horner from the last digit: x = a_(s-1); x = x·q_i + a_i.
        let mut words = vec![0u64];
        for (i, &a) in digits.iter().enumerate().rev() {
            mul_small_words(&mut words, self.primes[i], a);
        }
        while words.len() > 1 && *words.last().unwrap() == 0 {
            words.pop();
        }
        words
    }

    /// Reconstructs x in [0, Q) from its residues, as little-endian words.
    pub fn reconstruct(&self, residues: &[u64]) -> Result<Vec<u64>, SmallError> {
        if residues.len() != self.primes.len() {
            return Err(SmallError::LengthMismatch {
                expected: self.primes.len(),
                got: residues.len(),
            });
        }
        Ok(self.from_mixed_radix(&self.mixed_radix(residues)))
    }

    /// The centred value x ∈ (-Q/2, Q/2] with these residues, as a sign and
    /// the little-endian words of |x|.
    pub fn reconstruct_signed(&self, residues: &[u64]) -> Result<(bool, Vec<u64>), SmallError> {
        if residues.len() != self.primes.len() {
            return Err(SmallError::LengthMismatch {
                expected: self.primes.len(),
                got: residues.len(),
            });
        }
        let digits = self.mixed_radix(residues);
        let x = self.from_mixed_radix(&digits);
        if self.is_upper_half(&digits) {
            let mut q = self.product_words();
            sub_words(&mut q, &x);
            while q.len() > 1 && *q.last().unwrap() == 0 {
                q.pop();
            }
            Ok((true, q))
        } else {
            Ok((false, x))
        }
    }
}

/// CRT for two primes with a centred (signed) result, precomputed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crt2 {
    q0: u64,
    q1: u64,
    q0_inv: ShoupFactor,
    product: u128,
}

impl Crt2 {
    /// For two distinct primes below 2^62.
    pub fn new(q0: u64, q1: u64) -> Result<Self, SmallError> {
        RnsBasis::new(&[q0, q1])?;
        Ok(Self {
            q0,
            q1,
            q0_inv: ShoupFactor::new(inv_mod(q0 % q1, q1), q1),
            product: q0 as u128 * q1 as u128,
        })
    }

    /// x ∈ (-q0·q1/2, q0·q1/2] with x ≡ r0 (mod q0), x ≡ r1 (mod q1), for
    /// r0 < q0, r1 < q1.
    #[inline(always)]
    pub fn reconstruct(&self, r0: u64, r1: u64) -> i128 {
        let diff = r1 + self.q1 - r0 % self.q1;
        let a1 = self
            .q0_inv
            .mul(if diff >= self.q1 { diff - self.q1 } else { diff }, self.q1);
        let x = r0 as u128 + self.q0 as u128 * a1 as u128;
        if x > self.product / 2 {
            x as i128 - self.product as i128
        } else {
            x as i128
        }
    }
}

/// CRT for three primes with a centred (signed) result as a 192-bit two's
/// complement integer (little-endian words), precomputed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crt3 {
    q: [u64; 3],
    q0_inv_mod_q1: ShoupFactor,
    q0_inv_mod_q2: ShoupFactor,
    q1_inv_mod_q2: ShoupFactor,
    /// q0·q1.
    q01: u128,
    /// Q = q0·q1·q2 and (Q - 1)/2, as words.
    product: [u64; 3],
    half: [u64; 3],
}

impl Crt3 {
    /// For three distinct primes below 2^62.
    pub fn new(q0: u64, q1: u64, q2: u64) -> Result<Self, SmallError> {
        let basis = RnsBasis::new(&[q0, q1, q2])?;
        let mut product = [0u64; 3];
        product.copy_from_slice(&basis.product_words()[..3]);
        let mut q_minus_1 = product.to_vec();
        q_minus_1[0] -= 1;
        let mut half = [0u64; 3];
        half.copy_from_slice(&shr1(&q_minus_1)[..3]);
        Ok(Self {
            q: [q0, q1, q2],
            q0_inv_mod_q1: ShoupFactor::new(inv_mod(q0 % q1, q1), q1),
            q0_inv_mod_q2: ShoupFactor::new(inv_mod(q0 % q2, q2), q2),
            q1_inv_mod_q2: ShoupFactor::new(inv_mod(q1 % q2, q2), q2),
            q01: q0 as u128 * q1 as u128,
            product,
            half,
        })
    }

    /// The centred x with x ≡ r_i (mod q_i), r_i < q_i, as 192-bit two's
    /// complement words (least significant first).
    #[inline(always)]
    pub fn reconstruct(&self, r: [u64; 3]) -> [u64; 3] {
        let [q0, q1, q2] = self.q;
        let sub_mod = |a: u64, b: u64, q: u64| {
            let d = a + q - b % q;
            if d >= q { d - q } else { d }
        };
        // Garner: x = a0 + q0·a1 + q0·q1·a2.
        let a0 = r[0];
        let a1 = self.q0_inv_mod_q1.mul(sub_mod(r[1], a0, q1), q1);
        let t = self.q0_inv_mod_q2.mul(sub_mod(r[2], a0, q2), q2);
        let a2 = self.q1_inv_mod_q2.mul(sub_mod(t, a1, q2), q2);
        let low = a0 as u128 + q0 as u128 * a1 as u128; // < q0·q1
        let p_lo = (self.q01 as u64) as u128 * a2 as u128;
        let p_hi = (self.q01 >> 64) * a2 as u128;
        // x = low + p_lo + p_hi·2^64, below 2^186.
        let (s, c1) = low.overflowing_add(p_lo);
        let (s, c2) = s.overflowing_add(p_hi << 64);
        let top = (p_hi >> 64) as u64 + c1 as u64 + c2 as u64;
        let x = [s as u64, (s >> 64) as u64, top];
        if x.iter().rev().cmp(self.half.iter().rev()) == std::cmp::Ordering::Greater {
            // x - Q, negative: two's complement in 192 bits.
            let mut out = [0u64; 3];
            let mut borrow = 0u64;
            for i in 0..3 {
                let (d, b1) = x[i].overflowing_sub(self.product[i]);
                let (d, b2) = d.overflowing_sub(borrow);
                out[i] = d;
                borrow = (b1 | b2) as u64;
            }
            out
        } else {
            x
        }
    }
}

/// words = words·m + add (little-endian, grows as needed).
fn mul_small_words(words: &mut Vec<u64>, m: u64, add: u64) {
    let mut carry = add as u128;
    for w in words.iter_mut() {
        let t = *w as u128 * m as u128 + carry;
        *w = t as u64;
        carry = t >> 64;
    }
    if carry != 0 {
        words.push(carry as u64);
    }
}

/// a -= b for a ≥ b (little-endian).
fn sub_words(a: &mut [u64], b: &[u64]) {
    let mut borrow = false;
    for (i, w) in a.iter_mut().enumerate() {
        let (d, b1) = w.overflowing_sub(b.get(i).copied().unwrap_or(0));
        let (d, b2) = d.overflowing_sub(borrow as u64);
        *w = d;
        borrow = b1 | b2;
    }
}

/// x >> 1 (little-endian).
fn shr1(x: &[u64]) -> Vec<u64> {
    (0..x.len())
        .map(|i| (x[i] >> 1) | x.get(i + 1).map_or(0, |&h| h << 63))
        .collect()
}
