//! Polynomial products (schoolbook and TFT) and the truncated transforms
//! themselves, on every preset, against rug and the full FFT.

use gfpf_cpu::{CpuError, CpuFft, MulAlgorithm, MultiModular, PolyMul, Threading};
use gfpf_field::{Element, Field, SparseRadix};
use gfpf_plan::{Direction, Order};
use gfpf_small::Isa;
use gfpf_testkit::oracle::{rug_polynomial_product, sample};

/// (la, lb): lengths 1, 2, 2^j ± 1, unbalanced pairs, both sides of every
/// power of two up to 128, and products of length 1.5·2^j or less (the
/// multi-modular engine's split into x^N + 1 and x^(N/2) − 1).
const LENGTHS: [(usize, usize); 22] = [
    (1, 1),
    (1, 2),
    (2, 1),
    (2, 2),
    (3, 2),
    (4, 4),
    (5, 3),
    (7, 9),
    (8, 8),
    (9, 8),
    (15, 17),
    (16, 17),
    (17, 16),
    (31, 33),
    (32, 32),
    (33, 1),
    (63, 65),
    (64, 64),
    (65, 64),
    (100, 29),
    (40, 30),
    (90, 7),
];

fn products_match_rug<const K: usize>(field: &Field<K>) {
    for threading in [Threading::Parallel, Threading::Serial] {
        let pm = PolyMul::new(field).unwrap().with_threading(threading);
        for (i, &(la, lb)) in LENGTHS.iter().enumerate() {
            let a = sample(field, la, 2 * i as u64);
            // b starts with the edge values too, but in another order.
            let mut b = sample(field, lb, 2 * i as u64 + 1);
            b.reverse();
            let want = rug_polynomial_product(field, &a, &b);
            for algorithm in [
                MulAlgorithm::Tft,
                MulAlgorithm::Schoolbook,
                MulAlgorithm::MultiModular,
                MulAlgorithm::Auto,
            ] {
                let got = pm.mul(&a, &b, algorithm).unwrap();
                assert!(got == want, "{algorithm:?} {la}x{lb} {threading:?}");
            }
        }
        for la in [1, 2, 3, 16, 17, 31, 33, 40, 64, 65] {
            let a = sample(field, la, 99 + la as u64);
            let want = rug_polynomial_product(field, &a, &a);
            for algorithm in [MulAlgorithm::Tft, MulAlgorithm::Schoolbook, MulAlgorithm::MultiModular] {
                assert!(pm.square(&a, algorithm).unwrap() == want, "square {algorithm:?} {la}");
            }
        }
        assert!(pm.mul(&[], &[field.one()], MulAlgorithm::Tft).unwrap().is_empty());
        assert!(
            pm.mul(&[field.one()], &[], MulAlgorithm::MultiModular)
                .unwrap()
                .is_empty()
        );
        assert!(pm.square(&[], MulAlgorithm::Tft).unwrap().is_empty());
    }
}

/// The multi-modular engine on every instruction set this CPU runs, with the
/// largest coefficients (all p − 1, and all digits r − 1) where the CRT bound
/// is tightest, against the schoolbook product.
fn multimodular_on_every_isa<const K: usize>(field: &Field<K>) {
    let pm = PolyMul::new(field).unwrap();
    let all_top = |n| vec![field.minus_one(); n];
    let all_r_minus_1 = |n| vec![field.element([field.r() - 1; K]).unwrap(); n];
    // Padded (1x1, 129x128), split with operands longer than a piece (3x70,
    // 40x1, 300x257) and split at its limit (97x96: 192 = 1.5·128). Each
    // case's schoolbook product is computed once, then checked against every
    // instruction set and threading (at k = 128 the schoolbook products were
    // most of this test's time).
    let cases: Vec<_> = [(1, 1), (3, 70), (40, 1), (97, 96), (129, 128), (300, 257)]
        .into_iter()
        .map(|(la, lb)| {
            let (a, b) = (sample(field, la, la as u64), sample(field, lb, 5 + lb as u64));
            let products = [
                (a.clone(), b),
                (all_top(la), all_top(lb)),
                (all_r_minus_1(la), all_r_minus_1(lb)),
            ]
            .map(|(a, b)| {
                let want = pm.schoolbook(&a, &b);
                (a, b, want)
            });
            let square = pm.schoolbook_square(&a);
            (la, lb, products, a, square)
        })
        .collect();
    for isa in Isa::available() {
        for threading in [Threading::Serial, Threading::Parallel] {
            let mm = MultiModular::new(field)
                .with_isa(isa)
                .unwrap()
                .with_threading(threading);
            for (la, lb, products, a, square) in &cases {
                for (i, (a, b, want)) in products.iter().enumerate() {
                    let what = if i == 0 { "" } else { " extreme" };
                    assert!(mm.mul(a, b).unwrap() == *want, "{isa:?} {threading:?} {la}x{lb}{what}");
                }
                assert!(mm.square(a).unwrap() == *square, "{isa:?} {threading:?} square {la}");
            }
        }
    }
}

/// With n = S the TFT is the digit-reversed FFT; for every n < S the ITFT
/// recovers the unknown head from n values and a (random, non-zero) tail.
fn truncated_transforms<const K: usize>(field: &Field<K>) {
    let pm = PolyMul::new(field).unwrap();
    for s in [1usize, 2, 4, 16, 64] {
        let x = sample(field, s, s as u64);
        let mut full = x.clone();
        if s > 1 {
            CpuFft::try_new(field, s, Direction::Forward, Order::DigitReversed)
                .unwrap()
                .process(&mut full)
                .unwrap();
        }
        let mut t = x.clone();
        pm.truncated_forward(&mut t, s, s).unwrap();
        assert!(t == full, "TFT with n = S = {s}");
        for n in 1..=s {
            let mut values = x.clone();
            pm.truncated_forward(&mut values, s, n).unwrap();
            // The first n values depend on all of x; keep x's tail as known.
            let mut y = x.clone();
            y[..n].copy_from_slice(&values[..n]);
            pm.truncated_inverse(&mut y, n).unwrap();
            assert!(y == x, "ITFT S = {s}, n = {n}");
        }
    }
}

macro_rules! presets {
    ($($name:ident $preset:ident $k:literal),*) => {$(
        mod $name {
            fn field() -> gfpf_field::Field<$k> {
                gfpf_field::Field::preset(gfpf_field::Preset::$preset).unwrap()
            }
            #[test]
            fn products_match_rug() {
                super::products_match_rug(&field());
            }
            #[test]
            fn multimodular_on_every_isa() {
                super::multimodular_on_every_isa(&field());
            }
            #[test]
            fn truncated_transforms() {
                super::truncated_transforms(&field());
            }
        }
    )*};
}

gfpf_field::for_each_preset!(presets!());

/// Long products, both sides of powers of two, against the (rug-checked)
/// schoolbook product.
#[test]
fn long_products_match_schoolbook() {
    let t8 = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let p4 = Field::<4>::preset(gfpf_field::Preset::P4).unwrap();
    let pm8 = PolyMul::new(&t8).unwrap();
    let pm4 = PolyMul::new(&p4).unwrap();
    for (la, lb) in [(255, 258), (512, 513), (1023, 1), (700, 325), (1025, 1024)] {
        let (a, b) = (sample(&t8, la, 7), sample(&t8, lb, 8));
        assert!(
            pm8.mul(&a, &b, MulAlgorithm::Tft).unwrap() == pm8.schoolbook(&a, &b),
            "t8 {la}x{lb}"
        );
        let (a, b) = (sample(&p4, la, 9), sample(&p4, lb, 10));
        assert!(
            pm4.mul(&a, &b, MulAlgorithm::Tft).unwrap() == pm4.schoolbook(&a, &b),
            "p4 {la}x{lb}"
        );
    }
    let a = sample(&t8, 2049, 11);
    assert!(pm8.square(&a, MulAlgorithm::Tft).unwrap() == pm8.schoolbook_square(&a));
}

/// Multi-modular products long enough for the parallel steps (K·N ≥ 2^16
/// words), split (9000 ≤ 1.5·2^13) and padded, against the TFT.
#[test]
fn long_multimodular_products_match_the_tft() {
    let t8 = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let pm = PolyMul::new(&t8).unwrap();
    // 20000 x 15000: one prime's residues are 8 x 2^15 words, above
    // MULTIMODULAR_PARALLEL_MIN_WORDS, so the parallel steps run.
    let cases: Vec<_> = [(5000, 4001), (20000, 15000), (12000, 3)]
        .into_iter()
        .map(|(la, lb)| {
            let (a, b) = (sample(&t8, la, 21), sample(&t8, lb, 22));
            let want = pm.mul(&a, &b, MulAlgorithm::Tft).unwrap();
            (a, b, want)
        })
        .collect();
    let a = sample(&t8, 6000, 23);
    let square = pm.square(&a, MulAlgorithm::Tft).unwrap();
    for threading in [Threading::Parallel, Threading::Serial] {
        let mm = MultiModular::new(&t8).with_threading(threading);
        for (x, y, want) in &cases {
            assert!(mm.mul(x, y).unwrap() == *want, "{}x{} {threading:?}", x.len(), y.len());
        }
        assert!(mm.square(&a).unwrap() == square);
    }
}

/// Called on one of rayon's threads (here a two-thread pool's), a product
/// spreads its steps over the threads from `MULTIMODULAR_PARALLEL_MIN_WORDS_IN_POOL`
/// words on, far below the threshold for callers outside the pool: short
/// products, padded and split, must match the serial engine's.
#[test]
fn short_products_inside_a_pool_match_the_serial_engine() {
    let t8 = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let serial = MultiModular::new(&t8).with_threading(Threading::Serial);
    let parallel = MultiModular::new(&t8).with_threading(Threading::Parallel);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for (la, lb) in [(300, 257), (512, 512), (1000, 700), (2049, 1)] {
        let (a, b) = (sample(&t8, la, 41), sample(&t8, lb, 42));
        let want = serial.mul(&a, &b).unwrap();
        let got = pool.install(|| parallel.mul(&a, &b)).unwrap();
        assert!(got == want, "{la}x{lb}");
        assert!(
            pool.install(|| parallel.square(&a)).unwrap() == serial.square(&a).unwrap(),
            "{la}^2"
        );
    }
}

/// A large product's working space is kept by the engine for the next one
/// (residues above `MULTIMODULAR_FRESH_MAX_WORDS`): the second product,
/// of other lengths (split into two pieces, where the first was padded),
/// starts from the first one's leftovers and must still match the same
/// product in a fresh engine, whose working space comes zeroed.
#[test]
fn a_kept_working_space_leaves_no_trace() {
    let t8 = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let kept = MultiModular::new(&t8);
    let (a, b) = (sample(&t8, 1 << 17, 31), sample(&t8, 1 << 17, 32));
    kept.mul(&a, &b).unwrap();
    let (x, y) = (sample(&t8, 100_000, 33), sample(&t8, 90_000, 34));
    let want = MultiModular::new(&t8).mul(&x, &y).unwrap();
    assert!(kept.mul(&x, &y).unwrap() == want);
    assert!(kept.square(&x).unwrap() == MultiModular::new(&t8).square(&x).unwrap());
}

#[test]
fn bad_truncated_lengths_are_errors() {
    let f = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let pm = PolyMul::new(&f).unwrap();
    let mut x = vec![Element::ZERO; 8];
    for n in [0, 9] {
        let e = pm.truncated_forward(&mut x, 8, n).unwrap_err();
        assert_eq!(e, CpuError::TruncatedLength { n, size: 8 });
    }
    let mut x = vec![Element::ZERO; 6];
    assert!(matches!(
        pm.truncated_forward(&mut x, 6, 3),
        Err(CpuError::TruncatedLength { .. })
    ));
    assert!(matches!(
        pm.truncated_inverse(&mut x, 3),
        Err(CpuError::TruncatedLength { .. })
    ));
}

/// A field with a small 2-adicity: products longer than 2^v are errors,
/// not panics, and the longest allowed one is right.
#[test]
fn products_above_the_two_adicity_are_errors() {
    // r = 2^a + 2^1 has v = 2·1 = 2 for k = 2: find one with r^2 + 1 prime.
    let field = (32..64)
        .find_map(|a| Field::<2>::from_sparse(format!("2^{a}+2^1").parse::<SparseRadix>().unwrap()).ok())
        .expect("a prime (2^a + 2)^2 + 1 with 32 <= a < 64");
    assert_eq!(field.two_adicity(), 2);
    let pm = PolyMul::new(&field).unwrap();
    assert_eq!(pm.max_product_len(), 4);
    let a = sample(&field, 3, 1);
    let b = sample(&field, 2, 2);
    assert!(pm.mul(&a, &b, MulAlgorithm::Tft).unwrap() == rug_polynomial_product(&field, &a, &b));
    let e = pm.mul(&a, &a, MulAlgorithm::Tft).unwrap_err();
    assert_eq!(
        e,
        CpuError::Transform(gfpf_executor::TransformError::AboveTwoAdicity { n: 8, two_adicity: 2 })
    );
    // Schoolbook needs no root of unity; Auto falls back to it.
    let want = rug_polynomial_product(&field, &a, &a);
    assert!(pm.mul(&a, &a, MulAlgorithm::Schoolbook).unwrap() == want);
    let long = sample(&field, 40, 3);
    assert!(pm.mul(&long, &long, MulAlgorithm::Auto).unwrap() == rug_polynomial_product(&field, &long, &long));
    assert!(pm.square(&long, MulAlgorithm::Auto).unwrap() == rug_polynomial_product(&field, &long, &long));
    assert!(pm.square(&long, MulAlgorithm::Tft).is_err());
}
