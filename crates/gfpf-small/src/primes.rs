//! Primality, roots of unity and the prime tables.

use crate::SmallError;

/// The first 16 30-bit Fourier primes of the thesis (Appendix A); 2^20 or
/// more divides each q - 1.
pub const THESIS_30BIT_PRIMES: [u64; 16] = [
    957349889, 950009857, 943718401, 940572673, 938475521, 925892609, 924844033, 919601153, 918552577, 899678209,
    897581057, 883949569, 880803841, 862978049, 833617921, 824180737,
];

/// The 64 largest primes q < 2^62 with 2^32 | q - 1 (2-adicity 32 to 37),
/// in decreasing order, for NTTs with Harvey's lazy butterflies (which need
/// 4q < 2^64); 64 cover an RNS of about 3900 bits (products of polynomials
/// over t16/p16 need 33).
pub const NTT_PRIMES_62: [u64; 64] = [
    0x3fffffee00000001,
    0x3fffffb400000001,
    0x3fffffa000000001,
    0x3fffff5d00000001,
    0x3fffff4900000001,
    0x3fffff4600000001,
    0x3fffff3000000001,
    0x3fffff2800000001,
    0x3fffff1c00000001,
    0x3fffff1800000001,
    0x3ffffed600000001,
    0x3ffffecb00000001,
    0x3ffffec700000001,
    0x3ffffeb800000001,
    0x3ffffeb300000001,
    0x3ffffe6a00000001,
    0x3ffffe4100000001,
    0x3ffffdf900000001,
    0x3ffffdd800000001,
    0x3ffffdd700000001,
    0x3ffffdc800000001,
    0x3ffffdc300000001,
    0x3ffffda700000001,
    0x3ffffd8300000001,
    0x3ffffd6600000001,
    0x3ffffd2d00000001,
    0x3ffffd2000000001,
    0x3ffffcfc00000001,
    0x3ffffcf700000001,
    0x3ffffce200000001,
    0x3ffffcc900000001,
    0x3ffffc7f00000001,
    0x3ffffc6c00000001,
    0x3ffffc4e00000001,
    0x3ffffbf700000001,
    0x3ffffbe200000001,
    0x3ffffbbf00000001,
    0x3ffffbb600000001,
    0x3ffffb9200000001,
    0x3ffffb6100000001,
    0x3ffffb5900000001,
    0x3ffffb5300000001,
    0x3ffffb3100000001,
    0x3ffffb0e00000001,
    0x3ffffaed00000001,
    0x3ffffade00000001,
    0x3ffffa9900000001,
    0x3ffffa9800000001,
    0x3ffffa8600000001,
    0x3ffffa7200000001,
    0x3ffffa6e00000001,
    0x3ffffa5a00000001,
    0x3ffffa5900000001,
    0x3ffffa3000000001,
    0x3ffffa1e00000001,
    0x3ffffa1400000001,
    0x3ffff9e500000001,
    0x3ffff9db00000001,
    0x3ffff9d800000001,
    0x3ffff9c400000001,
    0x3ffff99100000001,
    0x3ffff97600000001,
    0x3ffff96700000001,
    0x3ffff96000000001,
];

/// The largest primes q < 2^50 with 2^30 | q - 1, for the floating-point
/// (f64 + FMA) arithmetic, whose products must stay exact in 2 × 53 bits:
/// the first six of [`NTT_PRIMES_50`].
pub const FP_PRIMES_50: [u64; 6] = {
    let mut primes = [0u64; 6];
    let mut i = 0;
    while i < primes.len() {
        primes[i] = NTT_PRIMES_50[i];
        i += 1;
    }
    primes
};

/// The 32 largest primes q < 2^50 with 2^30 | q - 1, in decreasing order,
/// for [`crate::Plan52`] transforms over more primes than [`FP_PRIMES_50`]
/// holds (the small-prime DFT of big numbers needs up to 20 for 993-bit
/// values).
pub const NTT_PRIMES_50: [u64; 32] = [
    0x3fff340000001,
    0x3fff300000001,
    0x3ffeec0000001,
    0x3ffed00000001,
    0x3ffec80000001,
    0x3ffeb00000001,
    0x3ffe880000001,
    0x3ffe440000001,
    0x3ffe1c0000001,
    0x3ffc480000001,
    0x3ffc100000001,
    0x3ffc000000001,
    0x3ffbe80000001,
    0x3ffb7c0000001,
    0x3ffa480000001,
    0x3ffa440000001,
    0x3ffa000000001,
    0x3ff9c40000001,
    0x3ff9540000001,
    0x3ff8b80000001,
    0x3ff8ac0000001,
    0x3ff8880000001,
    0x3ff7f80000001,
    0x3ff7440000001,
    0x3ff73c0000001,
    0x3ff70c0000001,
    0x3ff7000000001,
    0x3ff6b80000001,
    0x3ff58c0000001,
    0x3ff5800000001,
    0x3ff4b00000001,
    0x3ff4240000001,
];

/// The largest primes q < 2^31 with 2^24 | q - 1, for 32-bit Montgomery.
pub const NTT_PRIMES_31: [u64; 4] = [2130706433, 2113929217, 2013265921, 1811939329];

/// a·b mod q (through a 128-bit product: any a, b, q ≥ 1).
pub fn mul_mod(a: u64, b: u64, q: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(q)) as u64
}

/// a^e mod q.
pub fn pow_mod(a: u64, mut e: u64, q: u64) -> u64 {
    let mut base = (a % q) as u128;
    let mut acc = 1u128 % q as u128;
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * base % q as u128;
        }
        base = base * base % q as u128;
        e >>= 1;
    }
    acc as u64
}

/// Deterministic primality for every u64 (Miller–Rabin with the first 12
/// prime bases, which is exact below 3.3·10^24).
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'bases: for a in BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = (x as u128 * x as u128 % n as u128) as u64;
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// The 2-adic valuation of q - 1 (q ≥ 2).
pub fn two_adicity(q: u64) -> u32 {
    (q - 1).trailing_zeros()
}

/// A primitive root of unity of order 2^log2_order modulo the prime q:
/// z^((q-1)/2^log2_order) for the least quadratic non-residue z ≥ 2
/// (deterministic, no factoring of q - 1).
pub fn root_of_unity(q: u64, log2_order: u32) -> Result<u64, SmallError> {
    if !is_prime(q) {
        return Err(SmallError::NotPrime(q));
    }
    let v = two_adicity(q);
    if log2_order > v {
        return Err(SmallError::NoRootOfUnity {
            q,
            order: 1u64.checked_shl(log2_order).unwrap_or(0),
            two_adicity: v,
        });
    }
    let z = (2..q)
        .find(|&z| pow_mod(z, (q - 1) / 2, q) == q - 1)
        .ok_or(SmallError::NotPrime(q))?;
    Ok(pow_mod(z, (q - 1) >> log2_order, q))
}

/// x^(-1) mod q for x ≢ 0 and q prime (Fermat).
pub fn inv_mod(x: u64, q: u64) -> u64 {
    pow_mod(x, q - 2, q)
}
