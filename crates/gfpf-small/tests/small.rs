//! gfpf-small against u128 / rug oracles.

use gfpf_small::primes::{self, FP_PRIMES_50, NTT_PRIMES_31, NTT_PRIMES_50, NTT_PRIMES_62, THESIS_30BIT_PRIMES};
use gfpf_small::{Barrett64, Crt2, Crt3, Montgomery32, Montgomery64, Plan, RnsBasis, ShoupFactor, SmallError};
use proptest::prelude::*;
use rug::Integer;
use rug::integer::{IsPrime, Order};

/// Moduli at the extremes each arithmetic supports.
const ODD_MODULI_63: [u64; 6] = [
    3,
    0x7fff_ffff_ffff_ffe7,
    (1 << 62) + 135,
    NTT_PRIMES_62[0],
    1_000_000_007,
    (1 << 32) + 15,
];
const MODULI_62: [u64; 5] = [2, 3, NTT_PRIMES_62[0], (1 << 62) - 1, (1 << 61) + 12345];

fn modulus_63() -> impl Strategy<Value = u64> {
    prop_oneof![
        proptest::sample::select(ODD_MODULI_63.to_vec()),
        (1u64..1 << 62).prop_map(|q| 2 * q + 1)
    ]
}

proptest! {
    #[test]
    fn montgomery64_matches_u128(q in modulus_63(), a in any::<u64>(), b in any::<u64>()) {
        let m = Montgomery64::new(q).unwrap();
        let (a, b) = (a % q, b % q);
        let (am, bm) = (m.to_montgomery(a), m.to_montgomery(b));
        prop_assert!(am < q && bm < q);
        let prod = m.mul(am, bm);
        prop_assert!(prod < q);
        prop_assert_eq!(m.from_montgomery(prod) as u128, a as u128 * b as u128 % q as u128);
        prop_assert_eq!(m.from_montgomery(am), a);
    }

    #[test]
    fn montgomery32_matches_u64(q in prop_oneof![Just(0x7fff_ffffu32), Just(3u32), Just(NTT_PRIMES_31[0] as u32), (1u32..1 << 30).prop_map(|q| 2 * q + 1)], a in any::<u32>(), b in any::<u32>()) {
        let m = Montgomery32::new(q).unwrap();
        let (a, b) = (a % q, b % q);
        let prod = m.mul(m.to_montgomery(a), m.to_montgomery(b));
        prop_assert!(prod < q);
        prop_assert_eq!(m.from_montgomery(prod) as u64, a as u64 * b as u64 % q as u64);
    }

    #[test]
    fn barrett_matches_u128(q in prop_oneof![proptest::sample::select(MODULI_62.to_vec()), 2u64..1 << 62], a in any::<u64>(), b in any::<u64>()) {
        let m = Barrett64::new(q).unwrap();
        let (a, b) = (a % q, b % q);
        prop_assert_eq!(m.mul(a, b) as u128, a as u128 * b as u128 % q as u128);
        let x = (q as u128 * q as u128) - 1;
        prop_assert_eq!(m.reduce(x) as u128, x % q as u128);
    }

    #[test]
    fn shoup_matches_u128(q in modulus_63(), w in any::<u64>(), x in any::<u64>()) {
        let f = ShoupFactor::new(w % q, q);
        let want = (x as u128 * (w % q) as u128 % q as u128) as u64;
        let lazy = f.mul_lazy(x, q);
        prop_assert!(lazy < 2 * q && lazy % q == want);
        prop_assert_eq!(f.mul(x, q), want);
    }

    #[test]
    fn is_prime_agrees_with_gmp(n in any::<u64>()) {
        prop_assert_eq!(primes::is_prime(n), Integer::from(n).is_probably_prime(40) != IsPrime::No);
    }

    #[test]
    fn crt2_is_centred(x in -(1i128 << 122)..(1i128 << 122)) {
        let (q0, q1) = (NTT_PRIMES_62[0], NTT_PRIMES_62[1]);
        let crt = Crt2::new(q0, q1).unwrap();
        let r = |q: u64| x.rem_euclid(q as i128) as u64;
        prop_assert_eq!(crt.reconstruct(r(q0), r(q1)), x);
    }

    #[test]
    fn crt3_is_centred(words in any::<[u64; 3]>(), negative in any::<bool>()) {
        let q = [NTT_PRIMES_62[0], NTT_PRIMES_62[1], NTT_PRIMES_62[2]];
        let crt = Crt3::new(q[0], q[1], q[2]).unwrap();
        // |x| < Q/2 ≈ 2^185
        let mut x = Integer::from_digits(&words, Order::Lsf) >> 8u32;
        if negative { x = -x; }
        let r = q.map(|qi| {
            let mut m = Integer::from(&x % qi);
            if m < 0 { m += qi; }
            m.to_u64().unwrap()
        });
        let got = crt.reconstruct(r);
        let mut want = x.clone();
        if want < 0 { want += Integer::from(1) << 192u32; }
        let mut want_words = [0u64; 3];
        want.write_digits(&mut want_words, Order::Lsf);
        prop_assert_eq!(got, want_words);
    }

    #[test]
    fn rns_round_trips(words in proptest::collection::vec(any::<u64>(), 1..5), s in 1usize..6) {
        let basis = RnsBasis::new(&NTT_PRIMES_62[..s]).unwrap();
        let q = Integer::from_digits(&basis.product_words(), Order::Lsf);
        let x = Integer::from_digits(&words, Order::Lsf) % &q;
        let x_words = x.to_digits::<u64>(Order::Lsf);
        let residues = basis.project(&x_words);
        for (&r, &p) in residues.iter().zip(basis.primes()) {
            prop_assert_eq!(Integer::from(r), Integer::from(&x % p));
        }
        let back = Integer::from_digits(&basis.reconstruct(&residues).unwrap(), Order::Lsf);
        prop_assert_eq!(&back, &x);
        // Centred: values above (Q-1)/2 come back negative.
        let (negative, magnitude) = basis.reconstruct_signed(&residues).unwrap();
        let signed = Integer::from_digits(&magnitude, Order::Lsf);
        let expect_negative = x.clone() * 2u32 > q;
        prop_assert_eq!(negative, expect_negative);
        if negative {
            prop_assert_eq!(signed, Integer::from(&q - &x));
        } else {
            prop_assert_eq!(signed, x);
        }
    }

    #[test]
    fn mixed_radix_compares_like_integers(a in any::<[u64; 3]>(), b in any::<[u64; 3]>()) {
        let basis = RnsBasis::new(&NTT_PRIMES_62[..3]).unwrap();
        let (x, y) = (Integer::from_digits(&a, Order::Lsf) >> 8u32, Integer::from_digits(&b, Order::Lsf) >> 8u32);
        let dx = basis.mixed_radix(&basis.project(&x.to_digits::<u64>(Order::Lsf)));
        let dy = basis.mixed_radix(&basis.project(&y.to_digits::<u64>(Order::Lsf)));
        prop_assert_eq!(dx.iter().rev().cmp(dy.iter().rev()), x.cmp(&y));
    }
}

#[test]
fn prime_tables_are_what_they_claim() {
    for &q in &THESIS_30BIT_PRIMES {
        assert!(
            primes::is_prime(q) && primes::two_adicity(q) >= 20 && q < 1 << 30,
            "{q}"
        );
    }
    for &q in &NTT_PRIMES_62 {
        assert!(
            primes::is_prime(q) && primes::two_adicity(q) >= 32 && q < 1 << 62 && q > 1 << 61,
            "{q}"
        );
    }
    // And they are the largest such primes: nothing of the form c·2^32 + 1
    // is prime between 2^62 and the last entry except the entries.
    let mut c = (1u64 << 30) - 1;
    for &q in &NTT_PRIMES_62 {
        while c << 32 > q {
            assert!(!primes::is_prime((c << 32) + 1), "missing NTT prime {}", (c << 32) + 1);
            c -= 1;
        }
        c -= 1;
    }
    for &q in &FP_PRIMES_50 {
        assert!(
            primes::is_prime(q) && primes::two_adicity(q) >= 30 && q < 1 << 50 && q > 1 << 49,
            "{q}"
        );
    }
    // NTT_PRIMES_50: the largest such primes in decreasing order, none
    // skipped, and FP_PRIMES_50 is its start.
    assert_eq!(FP_PRIMES_50[..], NTT_PRIMES_50[..FP_PRIMES_50.len()]);
    let mut c = (1u64 << 20) - 1;
    for &q in &NTT_PRIMES_50 {
        assert!(
            primes::is_prime(q) && primes::two_adicity(q) >= 30 && q > 1 << 49,
            "{q}"
        );
        while (c << 30) + 1 > q {
            assert!(!primes::is_prime((c << 30) + 1), "missing prime {}", (c << 30) + 1);
            c -= 1;
        }
        assert_eq!((c << 30) + 1, q);
        c -= 1;
    }
    for &q in &NTT_PRIMES_31 {
        assert!(
            primes::is_prime(q) && primes::two_adicity(q) >= 24 && q < 1 << 31,
            "{q}"
        );
    }
    // Each table is sorted and free of repeats.
    for table in [&NTT_PRIMES_62[..], &FP_PRIMES_50[..], &NTT_PRIMES_31[..]] {
        assert!(table.windows(2).all(|w| w[0] > w[1]));
    }
    assert_eq!(THESIS_30BIT_PRIMES[0], 957349889);
    assert_eq!(THESIS_30BIT_PRIMES[15], 824180737);
    for (q, m) in [(NTT_PRIMES_62[0], 33), (THESIS_30BIT_PRIMES[0], 20), (17, 4)] {
        let w = primes::root_of_unity(q, m).unwrap();
        assert_eq!(primes::pow_mod(w, 1 << (m - 1), q), q - 1, "order exactly 2^{m}");
    }
}

fn bit_reverse(i: usize, log2n: u32) -> usize {
    if log2n == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS - log2n)
    }
}

fn check_plan(n: usize, q: u64, seed: u64) {
    let plan = Plan::try_new(n, q).unwrap();
    let log2n = n.trailing_zeros();
    let mut state = seed;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 1) % q
    };
    let mut x: Vec<u64> = (0..n).map(|_| next()).collect();
    // Edge values at the start.
    for (i, v) in [q - 1, 0, 1, q - 2].into_iter().enumerate().take(n) {
        x[i] = v;
    }
    let theta = primes::root_of_unity(q, log2n + 1).unwrap();
    let omega = (theta as u128 * theta as u128 % q as u128) as u64;
    let mut y = x.clone();
    plan.forward(&mut y).unwrap();
    // Every output for small n; for large n (the cache-blocked passes) a
    // sample of outputs, each the naive sum with its powers of ω along.
    let indices: Vec<usize> = if n <= 256 {
        (0..n).collect()
    } else {
        [
            0,
            1,
            2,
            3,
            n / 2 - 1,
            n / 2,
            n / 2 + 1,
            n - 1,
            2047,
            2048,
            2049,
            n / 3,
            5 * n / 7,
        ]
        .into_iter()
        .filter(|&i| i < n)
        .collect()
    };
    for i in indices {
        let w = primes::pow_mod(omega, i as u64, q) as u128;
        let (mut acc, mut power) = (0u128, 1u128);
        for &xj in &x {
            acc = (acc + xj as u128 * power) % q as u128;
            power = power * w % q as u128;
        }
        assert_eq!(y[bit_reverse(i, log2n)] as u128, acc, "n={n} q={q} i={i}");
    }
    assert!(y.iter().all(|&v| v < q));
    plan.inverse(&mut y).unwrap();
    assert_eq!(y, x, "inverse(forward(x)) = x, n={n} q={q}");

    // Convolutions against schoolbook.
    let a: Vec<u64> = (0..n).map(|_| next()).collect();
    let b: Vec<u64> = (0..n).map(|_| next()).collect();
    let mut cyc = vec![0u128; n];
    let mut neg = vec![0u128; n];
    let qq = q as u128;
    if n <= 512 {
        for i in 0..n {
            for j in 0..n {
                let p = a[i] as u128 * b[j] as u128 % qq;
                let k = (i + j) % n;
                cyc[k] = (cyc[k] + p) % qq;
                neg[k] = if i + j < n {
                    (neg[k] + p) % qq
                } else {
                    (neg[k] + qq - p) % qq
                };
            }
        }
        let mut out = vec![0u64; n];
        plan.cyclic_convolution(&a, &b, &mut out).unwrap();
        assert!(
            out.iter().zip(&cyc).all(|(&o, &c)| o as u128 == c),
            "cyclic n={n} q={q}"
        );
        plan.negacyclic_convolution(&a, &b, &mut out).unwrap();
        assert!(
            out.iter().zip(&neg).all(|(&o, &c)| o as u128 == c),
            "negacyclic n={n} q={q}"
        );
    }
}

#[test]
fn ntt_matches_naive_dft_and_schoolbook() {
    for log2n in 0..=10 {
        let n = 1 << log2n;
        for (s, &q) in [
            NTT_PRIMES_62[0],
            NTT_PRIMES_62[7],
            THESIS_30BIT_PRIMES[0],
            NTT_PRIMES_31[2],
            FP_PRIMES_50[0],
        ]
        .iter()
        .enumerate()
        {
            check_plan(n, q, (log2n * 10 + s) as u64);
        }
    }
    // Larger sizes, across the cache-blocking threshold (NTT_BLOCK = 2^11),
    // odd and even log2 n: sampled outputs and round trips.
    for (log2n, q) in [
        (11, NTT_PRIMES_62[1]),
        (12, NTT_PRIMES_62[1]),
        (13, NTT_PRIMES_31[2]),
        (14, NTT_PRIMES_62[1]),
        (15, FP_PRIMES_50[0]),
        (16, NTT_PRIMES_62[1]),
    ] {
        check_plan(1 << log2n, q, 99 + log2n as u64);
    }
}

#[test]
fn errors_name_the_problem() {
    assert!(matches!(
        Montgomery64::new(4),
        Err(SmallError::ModulusOutOfRange { q: 4, .. })
    ));
    assert!(matches!(
        Montgomery64::new(1 << 63 | 1),
        Err(SmallError::ModulusOutOfRange { .. })
    ));
    assert!(matches!(
        Montgomery32::new(1 << 31 | 1),
        Err(SmallError::ModulusOutOfRange { .. })
    ));
    assert!(matches!(
        Barrett64::new(1 << 62),
        Err(SmallError::ModulusOutOfRange { .. })
    ));
    assert_eq!(
        Plan::try_new(12, NTT_PRIMES_62[0]).unwrap_err(),
        SmallError::LengthNotPowerOfTwo(12)
    );
    assert_eq!(
        Plan::try_new(0, NTT_PRIMES_62[0]).unwrap_err(),
        SmallError::LengthNotPowerOfTwo(0)
    );
    assert_eq!(Plan::try_new(8, 15).unwrap_err(), SmallError::NotPrime(15));
    assert!(matches!(
        Plan::try_new(8, 1 << 62),
        Err(SmallError::ModulusOutOfRange { .. })
    ));
    assert_eq!(
        Plan::try_new(1 << 20, THESIS_30BIT_PRIMES[0]).unwrap_err(),
        SmallError::NoRootOfUnity {
            q: THESIS_30BIT_PRIMES[0],
            order: 1 << 21,
            two_adicity: 20
        }
    );
    let plan = Plan::try_new(8, NTT_PRIMES_62[0]).unwrap();
    assert_eq!(
        plan.forward(&mut [0; 7]).unwrap_err(),
        SmallError::LengthMismatch { expected: 8, got: 7 }
    );
    assert!(matches!(RnsBasis::new(&[]), Err(SmallError::InvalidBasis(_))));
    assert!(matches!(RnsBasis::new(&[17, 17]), Err(SmallError::InvalidBasis(_))));
    assert_eq!(RnsBasis::new(&[17, 21]).unwrap_err(), SmallError::NotPrime(21));
    assert!(matches!(
        RnsBasis::new(&[17]).unwrap().reconstruct(&[1, 2]),
        Err(SmallError::LengthMismatch { .. })
    ));
    assert!(matches!(
        primes::root_of_unity(17, 5),
        Err(SmallError::NoRootOfUnity { .. })
    ));
    assert_eq!(
        SmallError::LengthNotPowerOfTwo(12).to_string(),
        "transform length 12 is not a power of two"
    );
}

mod floating_point {
    use super::*;
    use gfpf_small::FpModulus;

    fn fp_modulus() -> impl Strategy<Value = u64> {
        prop_oneof![
            proptest::sample::select(vec![2u64, 3, (1 << 50) - 27, FP_PRIMES_50[0], (1 << 25) + 35, 65537]),
            2u64..1 << 50
        ]
    }

    proptest! {
        #[test]
        fn fma_mul_add_sub_match_integers(q in fp_modulus(), a in any::<u64>(), b in any::<u64>()) {
            let m = FpModulus::new(q).unwrap();
            let (a, b) = (a % q, b % q);
            let (x, y) = (a as f64, b as f64);
            prop_assert_eq!(m.mul(x, y) as u128, a as u128 * b as u128 % q as u128);
            prop_assert_eq!(m.add(x, y) as u64, (a + b) % q);
            prop_assert_eq!(m.sub(x, y) as u64, (a + q - b) % q);
            let top = (q - 1) as f64;
            prop_assert_eq!(m.mul(top, top) as u128, (q as u128 - 1) * (q as u128 - 1) % q as u128);
        }

        #[test]
        fn dot_products_are_exact(q in fp_modulus(), seed in any::<u64>(), n in 0usize..600) {
            let m = FpModulus::new(q).unwrap();
            let mut state = seed;
            let mut next = || {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                // Mix in the extreme value q - 1.
                if state >> 60 == 0 { q - 1 } else { (state >> 8) % q }
            };
            let a: Vec<u64> = (0..n).map(|_| next()).collect();
            let b: Vec<u64> = (0..n).map(|_| next()).collect();
            let want = a.iter().zip(&b).fold(0u128, |acc, (&x, &y)| (acc + x as u128 * y as u128) % q as u128);
            let (af, bf): (Vec<f64>, Vec<f64>) = (a.iter().map(|&x| x as f64).collect(), b.iter().map(|&x| x as f64).collect());
            prop_assert_eq!(m.dot_lambda(&af, &bf).unwrap() as u128, want);
            if q % 2 == 1 && q > 2 {
                let mont = Montgomery64::new(q).unwrap();
                let (am, bm): (Vec<u64>, Vec<u64>) = (a.iter().map(|&x| mont.to_montgomery(x)).collect(), b.iter().map(|&x| mont.to_montgomery(x)).collect());
                prop_assert_eq!(mont.from_montgomery(mont.dot(&am, &bm).unwrap()) as u128, want);
            }
            prop_assert_eq!(m.dot_split(&af, &bf).unwrap() as u128, want);
        }
    }

    #[test]
    fn long_dot_product_of_extremes() {
        // 2^16 products of (q-1)²: the split columns carry their largest pieces.
        let q = FP_PRIMES_50[0];
        let m = FpModulus::new(q).unwrap();
        let n = 1 << 16;
        let a = vec![(q - 1) as f64; n];
        let want = (q as u128 - 1) * (q as u128 - 1) % q as u128 * n as u128 % q as u128;
        assert_eq!(m.dot_split(&a, &a).unwrap() as u128, want);
        assert_eq!(m.dot_lambda(&a, &a).unwrap() as u128, want);
        assert_eq!(m.lambda(), ((1u64 << 53) - 1) as usize / (q as usize - 1));
        assert!(matches!(
            FpModulus::new(1 << 50),
            Err(SmallError::ModulusOutOfRange { .. })
        ));
        assert!(matches!(
            m.dot_split(&a, &a[1..]),
            Err(SmallError::LengthMismatch { .. })
        ));
    }
}

/// The 52-bit-lane NTT on every instruction set this CPU has equals the
/// 62-bit one on the same prime (same roots), checked itself against naive
/// sums above; round trips; edge values; the errors.
#[test]
fn ntt52_matches_ntt_on_every_instruction_set() {
    use gfpf_small::{Isa, Plan52};
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    for &q in &FP_PRIMES_50[..2] {
        for log2n in [0, 1, 2, 3, 4, 5, 8, 11, 14, 15, 16, 17] {
            let n = 1usize << log2n;
            let reference = Plan::try_new(n, q).unwrap();
            let mut state = q ^ n as u64;
            let mut x: Vec<u64> = (0..n)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 3) % q
                })
                .collect();
            for (i, v) in [q - 1, 0, 1, q - 2].into_iter().enumerate().take(n) {
                x[i] = v;
            }
            let mut want = x.clone();
            reference.forward(&mut want).unwrap();
            for isa in Isa::available() {
                let plan = Plan52::try_new(n, q).unwrap().with_isa(isa).unwrap();
                assert_eq!(plan.isa(), isa);
                let mut y = x.clone();
                plan.forward(&mut y).unwrap();
                assert_eq!(y, want, "forward, n = {n}, q = {q}, {isa:?}");
                plan.inverse(&mut y).unwrap();
                assert_eq!(y, x, "inverse(forward(x)) = x, n = {n}, q = {q}, {isa:?}");
                // On one thread long transforms take the serial path
                // (blocks of NTT52_BLOCK_LEN, wide strips): the same output.
                one_thread.install(|| {
                    let mut z = x.clone();
                    plan.forward(&mut z).unwrap();
                    assert_eq!(z, want, "forward on one thread, n = {n}, {isa:?}");
                    plan.inverse(&mut z).unwrap();
                    assert_eq!(z, x, "round trip on one thread, n = {n}, {isa:?}");
                });
                // On the calling thread while rayon has more: the same.
                let mut z = x.clone();
                plan.forward_one_thread(&mut z).unwrap();
                assert_eq!(z, want, "forward_one_thread, n = {n}, {isa:?}");
            }
        }
    }
    assert!(matches!(
        Plan52::try_new(12, FP_PRIMES_50[0]),
        Err(SmallError::LengthNotPowerOfTwo(12))
    ));
    assert!(matches!(
        Plan52::try_new(8, NTT_PRIMES_62[0]),
        Err(SmallError::ModulusOutOfRange { .. })
    ));
    assert!(matches!(
        Plan52::try_new(8, (1 << 49) + 2),
        Err(SmallError::NotPrime(_))
    ));
    assert!(matches!(
        Plan52::try_new(1 << 31, FP_PRIMES_50[0]),
        Err(SmallError::NoRootOfUnity { .. })
    ));
    let plan = Plan52::try_new(16, FP_PRIMES_50[0]).unwrap();
    assert!(matches!(
        plan.forward(&mut [0; 8]),
        Err(SmallError::LengthMismatch { expected: 16, got: 8 })
    ));
    if !Isa::available().contains(&Isa::Avx512Ifma) {
        assert!(matches!(
            plan.with_isa(Isa::Avx512Ifma),
            Err(SmallError::IsaUnavailable(_))
        ));
    }
}
