//! Every field operation against GMP (rug) on every preset, with edge values.

use crate::common;

use std::sync::OnceLock;

use common::arb_element;
use gfpf_field::{Element, Field, FieldError, LANES, LaneArith, LaneIsa, Lanes, MulMethod, Preset};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rug::Integer;
use rug::ops::Pow;

fn int<const K: usize>(f: &Field<K>, x: &Element<K>) -> Integer {
    f.to_integer(x)
}

fn modp<const K: usize>(f: &Field<K>, v: Integer) -> Integer {
    let mut v = v % f.p();
    if v < 0 {
        v += f.p();
    }
    v
}

fn canonical<const K: usize>(f: &Field<K>, z: &Element<K>) -> Result<(), TestCaseError> {
    prop_assert!(f.check(z).is_ok(), "non-canonical result {z:?}");
    Ok(())
}

fn check_ring_ops<const K: usize>(f: &Field<K>, x: &Element<K>, y: &Element<K>) -> Result<(), TestCaseError> {
    let (a, b) = (int(f, x), int(f, y));
    let (sum, diff) = f.add_sub(x, y);
    let (mut sum_in_place, mut diff_in_place) = (*x, *y);
    f.add_sub_assign(&mut sum_in_place, &mut diff_in_place);
    let cases = [
        (f.add(x, y), modp(f, Integer::from(&a + &b)), "add"),
        (sum, modp(f, Integer::from(&a + &b)), "add_sub (sum)"),
        (diff, modp(f, Integer::from(&a - &b)), "add_sub (difference)"),
        (sum_in_place, modp(f, Integer::from(&a + &b)), "add_sub_assign (sum)"),
        (
            diff_in_place,
            modp(f, Integer::from(&a - &b)),
            "add_sub_assign (difference)",
        ),
        (f.sub(x, y), modp(f, Integer::from(&a - &b)), "sub"),
        (f.neg(x), modp(f, Integer::from(-&a)), "neg"),
        (f.double(x), modp(f, Integer::from(&a * 2u32)), "double"),
        (f.mul(x, y), modp(f, Integer::from(&a * &b)), "mul"),
        (f.square(x), modp(f, Integer::from(&a * &a)), "square"),
    ];
    for (got, want, op) in cases {
        canonical(f, &got)?;
        prop_assert_eq!(int(f, &got), want, "{} of {} and {}", op, a, b);
    }
    // Several products at once, in every lane position.
    let [xy, yx] = f.mul_lanes([x, y], [y, x]);
    let [xy3, yy3, xx3] = f.mul_lanes([x, y, x], [y, y, x]);
    let lanes = [
        (xy, Integer::from(&a * &b)),
        (yx, Integer::from(&a * &b)),
        (xy3, Integer::from(&a * &b)),
        (yy3, Integer::from(&b * &b)),
        (xx3, Integer::from(&a * &a)),
    ];
    for (got, want) in lanes {
        canonical(f, &got)?;
        prop_assert_eq!(int(f, &got), modp(f, want), "mul_lanes of {} and {}", a, b);
    }
    Ok(())
}

fn check_laws<const K: usize>(
    f: &Field<K>,
    x: &Element<K>,
    y: &Element<K>,
    z: &Element<K>,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(f.mul(x, y), f.mul(y, x));
    prop_assert_eq!(f.add(x, y), f.add(y, x));
    prop_assert_eq!(f.mul(&f.mul(x, y), z), f.mul(x, &f.mul(y, z)));
    prop_assert_eq!(f.add(&f.add(x, y), z), f.add(x, &f.add(y, z)));
    prop_assert_eq!(f.mul(x, &f.add(y, z)), f.add(&f.mul(x, y), &f.mul(x, z)));
    prop_assert_eq!(f.add(x, &f.neg(x)), f.zero());
    prop_assert_eq!(f.sub(x, x), f.zero());
    prop_assert_eq!(f.mul(x, &f.one()), *x);
    prop_assert_eq!(f.square(x), f.mul(x, x));
    Ok(())
}

fn check_mul_pow_r<const K: usize>(f: &Field<K>, x: &Element<K>) -> Result<(), TestCaseError> {
    let a = int(f, x);
    let r = Integer::from(f.r());
    let mut r_pow = Integer::from(1);
    let mut r_pow_element = f.one();
    for i in 0..2 * K {
        let got = f.mul_pow_r(x, i);
        canonical(f, &got)?;
        prop_assert_eq!(int(f, &got), modp(f, Integer::from(&a * &r_pow)), "x·r^{}", i);
        prop_assert_eq!(got, f.mul(x, &r_pow_element), "mul_pow_r({}) = mul by r^{}", i, i);
        prop_assert_eq!(f.mul_pow_r(x, i + 2 * K), got, "r has order 2k");
        let mut in_place = *x;
        f.mul_pow_r_assign(&mut in_place, i);
        prop_assert_eq!(in_place, got, "mul_pow_r_assign({})", i);
        r_pow = modp(f, r_pow * &r);
        r_pow_element = f.mul(&r_pow_element, &f.r_element());
    }
    Ok(())
}

fn check_pow_and_inverse<const K: usize>(f: &Field<K>, x: &Element<K>, e: [u64; 2]) -> Result<(), TestCaseError> {
    let a = int(f, x);
    let e_int = Integer::from(e[0]) + (Integer::from(e[1]) << 64);
    let want = a.clone().pow_mod(&e_int, f.p()).expect("p > 0");
    prop_assert_eq!(int(f, &f.pow(x, &e)), want);
    prop_assert_eq!(
        int(f, &f.pow_u64(x, e[0])),
        a.clone().pow_mod(&Integer::from(e[0]), f.p()).expect("p > 0")
    );
    match f.inverse(x) {
        Ok(inv) => {
            canonical(f, &inv)?;
            prop_assert!(!x.is_zero());
            prop_assert_eq!(f.mul(x, &inv), f.one());
            prop_assert_eq!(int(f, &inv), a.invert(f.p()).expect("non-zero"));
        }
        Err(e) => {
            prop_assert!(x.is_zero());
            prop_assert_eq!(e, FieldError::ZeroInverse { index: 0 });
        }
    }
    Ok(())
}

fn check_batch_inverse<const K: usize>(f: &Field<K>, xs: Vec<Element<K>>) -> Result<(), TestCaseError> {
    let mut batch = xs.clone();
    match f.batch_inverse(&mut batch) {
        Ok(()) => {
            for (x, inv) in xs.iter().zip(&batch) {
                prop_assert_eq!(*inv, f.inverse(x).expect("non-zero"));
            }
        }
        Err(FieldError::ZeroInverse { index }) => {
            prop_assert!(xs[index].is_zero());
            prop_assert!(xs[..index].iter().all(|x| !x.is_zero()));
            prop_assert_eq!(batch, xs, "the slice is untouched on error");
        }
        Err(e) => prop_assert!(false, "unexpected error {e}"),
    }
    Ok(())
}

/// `reduce_digit_sums` against GMP: random sums scaled into range (`top`
/// picks how: full range, the largest allowed value, zero, or small), and
/// the first value out of range is an error.
fn check_digit_sums<const K: usize>(f: &Field<K>, words: &[[u64; 3]], top: usize) -> Result<(), TestCaseError> {
    let r = Integer::from(f.r());
    let limit: Integer = (r.clone() - 1u32) * &r * &r;
    let mut sums = [[0u64; 3]; K];
    let mut expected = Integer::new();
    for (i, (w, slot)) in words.iter().zip(sums.iter_mut()).enumerate() {
        let raw = Integer::from_digits(w, rug::integer::Order::Lsf);
        let v = match (top + i) % 4 {
            0 => raw % &limit,
            1 => limit.clone() - 1u32,
            2 => Integer::new(),
            _ => raw % &r,
        };
        let digits = v.to_digits::<u64>(rug::integer::Order::Lsf);
        slot[..digits.len()].copy_from_slice(&digits);
        expected += v * r.clone().pow(i as u32);
    }
    let z = f
        .reduce_digit_sums(&sums)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    canonical(f, &z)?;
    prop_assert_eq!(int(f, &z), modp(f, expected));
    let mut bad = sums;
    let over = limit.to_digits::<u64>(rug::integer::Order::Lsf);
    bad[K - 1] = [0; 3];
    bad[K - 1][..over.len()].copy_from_slice(&over);
    let rejected =
        matches!(f.reduce_digit_sums(&bad), Err(FieldError::DigitSumTooLarge { index, .. }) if index == K - 1);
    prop_assert!(rejected, "a sum of (r - 1)·r² must be rejected");
    // The narrow form: the same sums cut below (r − 1)·2^64.
    let narrow_limit: Integer = (r.clone() - 1u32) << 64u32;
    let mut narrow = [0u128; K];
    let mut expected = Integer::new();
    for (i, slot) in narrow.iter_mut().enumerate() {
        let v = match (top + i) % 4 {
            1 => narrow_limit.clone() - 1u32,
            _ => Integer::from_digits(&sums[i], rug::integer::Order::Lsf) % &narrow_limit,
        };
        *slot = v.to_u128().expect("below 2^128");
        expected += v * r.clone().pow(i as u32);
    }
    let z = f
        .reduce_narrow_digit_sums(&narrow)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    canonical(f, &z)?;
    prop_assert_eq!(int(f, &z), modp(f, expected));
    // Several at once: the same elements, in every lane.
    let zero = [0u128; K];
    let lanes = f
        .reduce_narrow_digit_sums_lanes([&narrow, &zero, &narrow])
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(lanes, [z, f.zero(), z]);
    let good = narrow;
    narrow[0] = narrow_limit.to_u128().expect("below 2^128");
    let rejected = matches!(
        f.reduce_narrow_digit_sums_lanes([&good, &narrow]),
        Err(FieldError::DigitSumTooLarge { index: 0, .. })
    );
    prop_assert!(
        rejected,
        "a narrow sum of (r - 1)·2^64 in a later lane must be rejected"
    );
    let rejected = matches!(
        f.reduce_narrow_digit_sums(&narrow),
        Err(FieldError::DigitSumTooLarge { index: 0, .. })
    );
    prop_assert!(rejected, "a narrow sum of (r - 1)·2^64 must be rejected");
    // Many coefficients through the lanes (four blocks of eight, one block,
    // then four and one at a time): variants of `good`, each against the
    // one-element form, on every lane instruction set.
    let variant = |j: usize| -> [u128; K] {
        std::array::from_fn(|i| match (i + j) % 5 {
            0 => 0,
            1 => good[(i + j) % K],
            2 => narrow_limit.to_u128().expect("below 2^128") - 1 - (j as u128),
            _ => good[i] / (j as u128 + 1),
        })
    };
    let many: Vec<[u128; K]> = (0..45).map(variant).collect();
    let want: Vec<Element<K>> = many
        .iter()
        .map(|z| f.reduce_narrow_digit_sums(z))
        .collect::<Result<_, _>>()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    for isa in LaneIsa::available() {
        let lanes = LaneArith::new(f, isa).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for count in [0, 5, 8, 37, 45] {
            let mut out = vec![f.one(); count];
            lanes
                .reduce_narrow_digit_sums(&many[..count], &mut out)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&out[..], &want[..count], "{:?} {} coefficients", isa, count);
        }
        let mut out = vec![f.one(); 40];
        let mut bad = many[..40].to_vec();
        bad[35] = narrow;
        let rejected = matches!(
            lanes.reduce_narrow_digit_sums(&bad, &mut out),
            Err(FieldError::DigitSumTooLarge { index: 0, .. })
        );
        prop_assert!(
            rejected && out.iter().all(|x| *x == f.one()),
            "{:?} a bad sum leaves the output alone",
            isa
        );
        let mismatched = matches!(
            lanes.reduce_narrow_digit_sums(&many[..8], &mut out[..7]),
            Err(FieldError::LengthMismatch {
                expected: 8,
                got: 7,
                ..
            })
        );
        prop_assert!(mismatched, "{:?} lengths must agree", isa);
    }
    Ok(())
}

fn check_conversions<const K: usize>(f: &Field<K>, x: &Element<K>, y: &Element<K>) -> Result<(), TestCaseError> {
    let a = int(f, x);
    prop_assert!(a >= 0 && a < *f.p());
    prop_assert_eq!(f.from_integer(&a).unwrap(), *x);
    prop_assert_eq!(f.from_integer_reduced(&(Integer::from(&a) + f.p())), *x);
    prop_assert_eq!(
        f.from_integer_reduced(&(Integer::from(&a) - Integer::from(f.p()) * 3u32)),
        *x
    );
    let bytes = f.to_le_bytes(x);
    prop_assert_eq!(bytes.len(), 8 * K);
    prop_assert_eq!(Integer::from_digits(&bytes, rug::integer::Order::Lsf), a.clone());
    prop_assert_eq!(f.from_le_bytes(&bytes).unwrap(), *x);
    prop_assert_eq!(f.from_words(&f.to_words(x)).unwrap(), *x);
    let dec = f.to_decimal(x);
    prop_assert_eq!(&dec, &a.to_string());
    prop_assert_eq!(f.parse(&dec).unwrap(), *x);
    prop_assert_eq!(format!("{}", f.display(x)), dec);
    let hex = f.to_hex(x);
    prop_assert_eq!(&hex, &format!("0x{}", a.to_string_radix(16)));
    prop_assert_eq!(f.parse(&hex).unwrap(), *x);
    prop_assert_eq!(f.parse(&hex.to_uppercase().replacen("0X", "0x", 1)).unwrap(), *x);
    prop_assert_eq!(f.element(*x.digits()).unwrap(), *x);
    prop_assert_eq!(x.cmp(y), a.cmp(&int(f, y)), "ordering is by value");
    Ok(())
}

/// The lane arithmetic on every instruction set this CPU has: eight
/// butterflies and eight shifts at once equal the one-element forms (which
/// `check_ring_ops` and `check_mul_pow_r` hold to GMP), lane by lane.
fn check_lanes<const K: usize>(
    f: &Field<K>,
    xs: &[Element<K>],
    ys: &[Element<K>],
    shifts: std::ops::Range<usize>,
) -> Result<(), TestCaseError> {
    let x = Lanes::from_fn(|l| xs[l % xs.len()]);
    let y = Lanes::from_fn(|l| ys[l % ys.len()]);
    for isa in LaneIsa::available() {
        let lanes = LaneArith::new(f, isa).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (mut sum, mut diff) = (x, y);
        lanes.add_sub_assign(&mut sum, &mut diff);
        let mut product = x;
        lanes.mul_assign(&mut product, &y);
        // Gathered lane by lane, digit by digit, and scattered back (with
        // another block, so that a permutation undone by the way back
        // shows).
        let gathered = lanes.gather(std::array::from_fn(|l| &xs[l % xs.len()]));
        prop_assert_eq!(gathered.digits, x.digits, "{:?} gather", isa);
        let mut scattered = [Element::ZERO; LANES];
        lanes.scatter(&y, scattered.each_mut());
        for l in 0..LANES {
            prop_assert_eq!(scattered[l], ys[l % ys.len()], "{:?} scatter, lane {}", isa, l);
            prop_assert_eq!(
                product.lane(l),
                f.mul(&x.lane(l), &y.lane(l)),
                "{:?} product (in lanes: {}), lane {}",
                isa,
                lanes.mul_in_lanes(),
                l
            );
            let (a, b) = (x.lane(l), y.lane(l));
            let (want_sum, want_diff) = f.add_sub(&a, &b);
            prop_assert_eq!(sum.lane(l), want_sum, "{:?} butterfly sum, lane {}", isa, l);
            prop_assert_eq!(diff.lane(l), want_diff, "{:?} butterfly difference, lane {}", isa, l);
        }
        // Many blocks at once (four at a time in lanes, then the last one to
        // three together): each block's lanes hold other pairs.
        for count in [1, 2, 3, 6, 9] {
            let block = |v: &[Element<K>], b: usize, step: usize| Lanes::from_fn(|l| v[(l + step * b) % v.len()]);
            let mut products: Vec<Lanes<K>> = (0..count).map(|b| block(xs, b, 1)).collect();
            let factors: Vec<Lanes<K>> = (0..count).map(|b| block(ys, b, 3)).collect();
            lanes.mul_assign_each(&mut products, &factors);
            for (b, (product, factor)) in products.iter().zip(&factors).enumerate() {
                let x = block(xs, b, 1);
                for l in 0..LANES {
                    prop_assert_eq!(
                        product.lane(l),
                        f.mul(&x.lane(l), &factor.lane(l)),
                        "{:?} mul_assign_each of {}, block {}, lane {}",
                        isa,
                        count,
                        b,
                        l
                    );
                }
            }
        }
        // Slices of different lengths: pairs up to the shorter, the rest of
        // the products untouched.
        let mut products = [x; 9];
        lanes.mul_assign_each(&mut products, &[y; 7]);
        for (b, block) in products.iter().enumerate() {
            let want = if b < 7 { product } else { x };
            prop_assert!(block == &want, "{:?} mul_assign_each 9 by 7, block {}", isa, b);
        }
        for shift in shifts.clone() {
            // The butterfly with its difference shifted, fused: lanes
            // holding p − 1 take the two-step path, the others one chain.
            let (mut sum, mut moved) = (x, y);
            lanes.add_sub_mul_pow_r_assign(&mut sum, &mut moved, shift);
            for l in 0..LANES {
                let (a, b) = (x.lane(l), y.lane(l));
                prop_assert_eq!(
                    sum.lane(l),
                    f.add(&a, &b),
                    "{:?} fused sum, r^{}, lane {}",
                    isa,
                    shift,
                    l
                );
                let want = f.mul_pow_r(&f.sub(&a, &b), shift);
                prop_assert_eq!(moved.lane(l), want, "{:?} fused (x − y)·r^{}, lane {}", isa, shift, l);
            }
            let mut shifted = x;
            lanes.mul_pow_r_assign(&mut shifted, shift);
            for l in 0..LANES {
                let want = f.mul_pow_r(&x.lane(l), shift);
                prop_assert_eq!(shifted.lane(l), want, "{:?} r^{}, lane {}", isa, shift, l);
            }
            // The same shift in every lane through the per-lane form (which
            // takes the one-shift form then).
            let mut shifted = x;
            lanes.mul_pow_r_each_assign(&mut shifted, [shift; LANES]);
            for l in 0..LANES {
                let want = f.mul_pow_r(&x.lane(l), shift);
                prop_assert_eq!(shifted.lane(l), want, "{:?} r^{} in every lane, lane {}", isa, shift, l);
            }
            // A shift of its own in every lane (some past 2k, lanes 4 and
            // 5 sharing one).
            let each: [usize; LANES] =
                std::array::from_fn(|l| shift + [0, 1, 3, K, 2 * K - 1, 2 * K - 1, 5 * K + 2, 7][l]);
            let mut shifted = x;
            lanes.mul_pow_r_each_assign(&mut shifted, each);
            for l in 0..LANES {
                let want = f.mul_pow_r(&x.lane(l), each[l]);
                prop_assert_eq!(shifted.lane(l), want, "{:?} r^{} in lane {}", isa, each[l], l);
            }
        }
    }
    Ok(())
}

/// Runs one property over `cases` cases as `proptest!` runs it (this
/// file's regressions replayed first, a failure's seed saved beside them).
fn run_property<S: Strategy>(
    name: &'static str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let mut config = ProptestConfig::with_cases(cases);
    config.source_file = Some(file!());
    config.test_name = Some(name);
    let mut runner = proptest::test_runner::TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{name}: {e}\n{runner}");
    }
}

/// The properties every preset is held to, generic over k: instantiated
/// per digit count (7) instead of per preset (13), as `proptest!` blocks in
/// `oracle_suite!` were; the field tests built in 75.8 s of CPU so, 51.4 s
/// this way (project VM, 2026-11-27).
mod properties {
    use super::*;

    pub fn ring_ops_match_gmp<const K: usize>(name: &'static str, cases: u32, f: &'static Field<K>) {
        run_property(name, cases, (arb_element(f), arb_element(f)), |(x, y)| {
            check_ring_ops(f, &x, &y)
        });
    }

    pub fn other_mul_method_matches_gmp<const K: usize>(
        name: &'static str,
        cases: u32,
        f: &'static Field<K>,
        other: &'static Field<K>,
    ) {
        run_property(name, cases, (arb_element(f), arb_element(f)), |(x, y)| {
            check_ring_ops(other, &x, &y)?;
            prop_assert_eq!(other.mul(&x, &y), f.mul(&x, &y));
            Ok(())
        });
    }

    pub fn ring_laws<const K: usize>(name: &'static str, cases: u32, f: &'static Field<K>) {
        run_property(
            name,
            cases,
            (arb_element(f), arb_element(f), arb_element(f)),
            |(x, y, z)| check_laws(f, &x, &y, &z),
        );
    }

    pub fn mul_pow_r_is_multiplication_by_r_pow<const K: usize>(name: &'static str, cases: u32, f: &'static Field<K>) {
        run_property(name, cases, arb_element(f), |x| check_mul_pow_r(f, &x));
    }

    pub fn pow_and_inverse_match_gmp<const K: usize>(name: &'static str, cases: u32, f: &'static Field<K>) {
        run_property(name, cases, (arb_element(f), any::<[u64; 2]>()), |(x, e)| {
            check_pow_and_inverse(f, &x, e)
        });
    }

    pub fn batch_inverse_matches_single<const K: usize>(name: &'static str, cases: u32, f: &'static Field<K>) {
        run_property(name, cases, proptest::collection::vec(arb_element(f), 0..6), |xs| {
            check_batch_inverse(f, xs)
        });
    }

    pub fn digit_sums_reduce_as_gmp<const K: usize>(name: &'static str, cases: u32, f: &'static Field<K>) {
        run_property(
            name,
            cases,
            (proptest::collection::vec(any::<[u64; 3]>(), K), 0usize..4),
            |(words, top)| check_digit_sums(f, &words, top),
        );
    }

    pub fn lanes_match_one_by_one<const K: usize>(name: &'static str, cases: u32, f: &'static Field<K>) {
        run_property(
            name,
            cases,
            (
                proptest::collection::vec(arb_element(f), LANES),
                proptest::collection::vec(arb_element(f), LANES),
                0usize..4 * K,
            ),
            |(xs, ys, shift)| check_lanes(f, &xs, &ys, shift..shift + 1),
        );
    }

    pub fn conversions_round_trip<const K: usize>(name: &'static str, cases: u32, f: &'static Field<K>) {
        run_property(name, cases, (arb_element(f), arb_element(f)), |(x, y)| {
            check_conversions(f, &x, &y)
        });
    }
}

/// A test per property of `properties`, each on the preset's `field()`
/// (and what follows its name in brackets), `$cases` cases.
macro_rules! property_tests {
    ($cases:expr; $($name:ident $(($extra:expr))?),* $(,)?) => {$(
        #[test]
        fn $name() {
            properties::$name(concat!(module_path!(), "::", stringify!($name)), $cases, field() $(, $extra)?);
        }
    )*};
}

macro_rules! oracle_suite {
    ($($module:ident: $k:literal = $preset:ident, cases = $cases:expr;)*) => {$(
        mod $module {
            use super::*;

            fn field() -> &'static Field<$k> {
                static FIELD: OnceLock<Field<$k>> = OnceLock::new();
                FIELD.get_or_init(|| Field::preset(Preset::$preset).expect("preset"))
            }

            /// The same field with the other multiplication method.
            fn other_method() -> &'static Field<$k> {
                static FIELD: OnceLock<Field<$k>> = OnceLock::new();
                FIELD.get_or_init(|| {
                    let f = Field::preset(Preset::$preset).expect("preset");
                    match f.mul_method() {
                        MulMethod::Schoolbook => f.with_convolution().expect("convolution"),
                        _ => f.with_mul_method(MulMethod::Schoolbook).expect("schoolbook"),
                    }
                })
            }

            // The properties (see `properties`), `$cases` cases each.
            property_tests!(
                $cases;
                ring_ops_match_gmp,
                other_mul_method_matches_gmp(other_method()),
                ring_laws,
                mul_pow_r_is_multiplication_by_r_pow,
                pow_and_inverse_match_gmp,
                batch_inverse_matches_single,
                digit_sums_reduce_as_gmp,
                lanes_match_one_by_one,
                conversions_round_trip
            );

            /// Every pair of edge values (their powers of r spread out
            /// from k = 64), and each edge value with the few that carry
            /// most (0, 1, p − 1, r, p − r) and itself.
            #[test]
            fn all_edge_pairs_match_gmp() {
                let f = field();
                let edges = common::spread_edge_elements(f);
                for x in &edges {
                    for y in &edges {
                        check_ring_ops(f, x, y).unwrap();
                        check_ring_ops(other_method(), x, y).unwrap();
                    }
                }
                let all = common::edge_elements(f);
                // 0, 1, p − 1, r and p − r, as common::edge_integers lists them.
                let carriers = [0, 1, 3, 6, 8].map(|i: usize| all[i]);
                for x in &all {
                    for y in carriers.iter().chain([x]) {
                        for (a, b) in [(x, y), (y, x)] {
                            check_ring_ops(f, a, b).unwrap();
                            check_ring_ops(other_method(), a, b).unwrap();
                        }
                    }
                }
                // Every (spread) edge value against every other, in every
                // lane, and every shift of each.
                for (e, x) in edges.iter().enumerate() {
                    let rotated: Vec<_> = edges.iter().cycle().skip(e).take(LANES).copied().collect();
                    check_lanes(f, &[*x], &rotated, 0..2 * $k).unwrap();
                    check_lanes(f, &rotated, &[*x], 0..2 * $k).unwrap();
                }
            }
        }
    )*};
}

oracle_suite! {
    t2: 2 = T2, cases = 256;
    t4: 4 = T4, cases = 256;
    t8: 8 = T8, cases = 256;
    t16: 16 = T16, cases = 192;
    t32: 32 = T32, cases = 96;
    t64: 64 = T64, cases = 48;
    t128: 128 = T128, cases = 24;
    p4: 4 = P4, cases = 256;
    p8: 8 = P8, cases = 256;
    p16: 16 = P16, cases = 192;
    p32: 32 = P32, cases = 96;
    p64: 64 = P64, cases = 48;
    p128: 128 = P128, cases = 24;
}

/// A custom field at the edge of the products in SIMD lanes: r = 2^56 + 2^32
/// (`LANE_MUL_MIN_R` is 2^56; no preset has r below 2^57), k = 8. Its
/// products' quotients by r are the largest the lanes' f64 estimates meet.
mod custom_r_at_lane_bound {
    use super::*;
    use gfpf_field::{LANE_MUL_MAX_K, LANE_MUL_MIN_R, SparseRadix};

    fn field() -> &'static Field<8> {
        static FIELD: OnceLock<Field<8>> = OnceLock::new();
        FIELD.get_or_init(|| {
            let sparse: SparseRadix = "2^56+2^32".parse().expect("sparse form");
            Field::from_sparse(sparse).expect("(2^56 + 2^32)^8 + 1 is prime")
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn lanes_match_gmp(
            xs in proptest::collection::vec(arb_element(field()), LANES),
            ys in proptest::collection::vec(arb_element(field()), LANES),
            shift in 0usize..16,
        ) {
            for (x, y) in xs.iter().zip(&ys) {
                check_ring_ops(field(), x, y)?;
            }
            check_lanes(field(), &xs, &ys, shift..shift + 1)?;
        }
    }

    #[test]
    fn edge_values_in_every_lane() {
        let f = field();
        let edges = common::edge_elements(f);
        for (e, x) in edges.iter().enumerate() {
            let rotated: Vec<_> = edges.iter().cycle().skip(e).take(LANES).copied().collect();
            check_lanes(f, &[*x], &rotated, 0..16).unwrap();
        }
    }

    /// Which fields multiply in lanes: AVX-512 with IFMA, k ≤ 128, r ≥ 2^56.
    #[test]
    fn products_run_in_lanes_exactly_where_they_should() {
        assert_eq!(field().r() >> 56, 1, "r sits just above the bound");
        assert!(field().r() >= LANE_MUL_MIN_R && 8 <= LANE_MUL_MAX_K);
        #[cfg(target_arch = "x86_64")]
        let ifma = LaneIsa::Avx512.is_available() && std::arch::is_x86_feature_detected!("avx512ifma");
        #[cfg(not(target_arch = "x86_64"))]
        let ifma = false;
        for isa in LaneIsa::available() {
            let in_lanes = ifma && isa == LaneIsa::Avx512;
            assert_eq!(
                LaneArith::new(field(), isa).unwrap().mul_in_lanes(),
                in_lanes,
                "{isa:?}"
            );
            let t64 = Field::<64>::preset(Preset::T64).unwrap();
            assert_eq!(
                LaneArith::new(&t64, isa).unwrap().mul_in_lanes(),
                in_lanes,
                "k = 64, {isa:?}"
            );
            let t128 = Field::<128>::preset(Preset::T128).unwrap();
            assert_eq!(
                LaneArith::new(&t128, isa).unwrap().mul_in_lanes(),
                in_lanes,
                "k = 128, {isa:?}"
            );
        }
    }
}
