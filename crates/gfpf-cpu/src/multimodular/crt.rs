//! Garner's CRT from the residues modulo the word-size primes straight into
//! radix-r digit sums.

use gfpf_small::{Garner52, Isa};
use rug::Integer;

use super::PRIMES;
use crate::CpuError;

/// Garner's CRT from s residues to the signed coefficient, written straight
/// into radix-r digit sums: with Q_l = q_0⋯q_(l−1) and M = Q_s in radix r,
/// the coefficient c = Σ_l v_l·Q_l − [c < 0]·M of digit position i adds
/// v_l·(digit t of Q_l) to position i + t (negated past K: r^K = −1). Every
/// such product is below 2^50·r, so the sums of a coefficient stay in 128
/// bits and the field reduces them with one word division per digit.
pub(super) struct Crt {
    /// Garner's mixed-radix conversion over the primes.
    pub(super) garner: Garner52,
    /// The radix-r digits of Q_l.
    pub(super) prefix: Vec<Vec<u64>>,
    /// The radix-r digits of M.
    pub(super) modulus: Vec<u64>,
    /// The value is negative when the top mixed-radix digit exceeds this.
    pub(super) top_half: u64,
    /// offset[i] for digit i: Σ offset_i·r^i = c·p ≡ 0, each above the most
    /// negative sum.
    pub(super) offsets: Vec<u128>,
}

/// The radix-r digits of v ≥ 0, least significant first.
fn radix_digits(v: &Integer, r: u64) -> Vec<u64> {
    let mut v = v.clone();
    let mut out = Vec::new();
    while v > 0 {
        let (q, d) = v.div_rem(Integer::from(r));
        out.push(d.to_u64().expect("a digit is below r"));
        v = q;
    }
    out
}

impl Crt {
    /// For coefficients of absolute value at most `bound`, in a field of
    /// radix r with K digits: the least number of primes whose product
    /// exceeds 4·bound; `None` when the primes do not suffice or the digit
    /// sums would not fit.
    pub(super) fn new(bound: &Integer, r: u64, k: usize, isa: Isa) -> Result<Option<Self>, CpuError> {
        let needed = Integer::from(bound * 4u32);
        let mut modulus = Integer::from(1);
        let mut primes = Vec::new();
        let mut prefix = Vec::new();
        for &q in PRIMES {
            if modulus > needed {
                break;
            }
            prefix.push(radix_digits(&modulus, r));
            modulus *= q;
            primes.push(q);
        }
        if modulus <= needed {
            return Ok(None);
        }
        let modulus = radix_digits(&modulus, r);
        // Every term is below 2^50·r in absolute value; a position gets at most
        // `terms` of them.
        let terms = prefix.iter().map(Vec::len).sum::<usize>() + modulus.len();
        let extreme = Integer::from(terms as u64) * (1u64 << 50) * r;
        // c·(r − 1) ≥ extreme: digit 0 gets c·(r + 1), the others c·(r − 1),
        // and Σ offset_i·r^i = c·(r^K + 1) = c·p.
        let c = Integer::from(&extreme / (r - 1)) + 1u32;
        let first = &c * (Integer::from(r) + 1u32);
        let rest = Integer::from(&c * (r - 1));
        // The largest sum, extreme + offset, must be below (r − 1)·2^64.
        let limit = Integer::from(r - 1) << 64u32;
        if Integer::from(&extreme + &first) >= limit {
            return Ok(None);
        }
        let offsets = (0..k)
            .map(|i| if i == 0 { &first } else { &rest }.to_u128().expect("below 2^128"))
            .collect();
        let top = *primes.last().expect("at least one prime");
        Ok(Some(Crt {
            garner: Garner52::try_new(&primes)?.with_isa(isa)?,
            prefix,
            modulus,
            top_half: top / 2,
            offsets,
        }))
    }

    /// Adds the coefficients at digit position i of a block of polynomial
    /// coefficients, given by their mixed-radix digits (`digits[l][j]`), to
    /// the block's digit sums (wrapping two's complement).
    pub(super) fn accumulate<const K: usize>(&self, digits: &[&mut [u64]], i: usize, sums: &mut [[u128; K]]) {
        // r^K = −1: negated once per wrap (twice is +1).
        let position = |t: usize| ((i + t) % K, (i + t) / K % 2 == 1);
        for (v, prefix) in digits.iter().zip(&self.prefix) {
            for (t, &e) in prefix.iter().enumerate() {
                let (at, negative) = position(t);
                for (sum, &x) in sums.iter_mut().zip(v.iter()) {
                    let term = x as u128 * e as u128;
                    sum[at] = if negative {
                        sum[at].wrapping_sub(term)
                    } else {
                        sum[at].wrapping_add(term)
                    };
                }
            }
        }
        // Negative coefficients: subtract M.
        let top = &digits[digits.len() - 1];
        for (t, &m) in self.modulus.iter().enumerate() {
            let (at, negative) = position(t);
            for (sum, &x) in sums.iter_mut().zip(top.iter()) {
                let term = if x > self.top_half { m as u128 } else { 0 };
                sum[at] = if negative {
                    sum[at].wrapping_add(term)
                } else {
                    sum[at].wrapping_sub(term)
                };
            }
        }
    }
}
