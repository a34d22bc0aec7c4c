//! The checks of the shared executor suite, generic over the executor and the
//! field; [`crate::executor_suite!`] instantiates them per preset.

use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order, Plan};
use rand::{SeedableRng, rngs::StdRng};

use crate::Executor;
use crate::oracle::{self, sample};

/// Largest N checked against the naive O(N²) DFT.
pub const NAIVE_MAX_LOG2: u32 = 9;
/// Largest N checked against the rug radix-2 FFT.
pub const RUG_FFT_MAX_LOG2: u32 = 14;
/// Largest N of the round-trip checks.
pub const ROUND_TRIP_MAX_LOG2: u32 = 12;

fn skip<E: Executor>() -> bool {
    match E::unavailable() {
        Some(why) => {
            eprintln!("SKIPPED ({}): {why}", E::NAME);
            true
        }
        None => false,
    }
}

fn run<E: Executor, const K: usize>(
    field: &Field<K>,
    direction: Direction,
    order: Order,
    x: &[Element<K>],
    n: usize,
) -> Vec<Element<K>> {
    let mut data = x.to_vec();
    E::transform(field, n, direction, order, &mut data, None)
        .unwrap_or_else(|e| panic!("{}: N = {n}, {direction:?} {order:?}: {e}", E::NAME));
    data
}

/// v[P(ℓ)] at position ℓ: natural order → the plans' digit-reversed order.
fn digit_reversed<const K: usize>(v: &[Element<K>]) -> Vec<Element<K>> {
    let plan = Plan::try_new(v.len(), K, Direction::Forward, Order::DigitReversed).unwrap();
    (0..v.len()).map(|l| v[plan.digit_reverse(l)]).collect()
}

fn max_log2<const K: usize>(field: &Field<K>, want: u32) -> u32 {
    want.min(field.two_adicity())
}

/// Every known-answer file of the preset, in all four (direction, order)s.
pub fn known_answers<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    for ka in crate::known::known_answers(field).unwrap_or_else(|e| panic!("{e}")) {
        let n = ka.n;
        let what = format!("{} on {}", E::NAME, ka.name);
        assert_eq!(
            run::<E, K>(field, Direction::Forward, Order::Natural, &ka.input, n),
            ka.output,
            "{what}"
        );
        let reversed = digit_reversed(&ka.output);
        assert_eq!(
            run::<E, K>(field, Direction::Forward, Order::DigitReversed, &ka.input, n),
            reversed,
            "{what}, digit-reversed"
        );
        assert_eq!(
            run::<E, K>(field, Direction::Inverse, Order::Natural, &ka.output, n),
            ka.input,
            "{what}, inverse"
        );
        assert_eq!(
            run::<E, K>(field, Direction::Inverse, Order::DigitReversed, &reversed, n),
            ka.input,
            "{what}, inverse from digit-reversed"
        );
    }
}

/// Forward and inverse against the O(N²) definition, N = 1 … 2^9.
pub fn naive_dft<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    for log2 in 0..=max_log2(field, NAIVE_MAX_LOG2) {
        let n = 1 << log2;
        let x = sample(field, n, 100 + log2 as u64);
        assert_eq!(
            run::<E, K>(field, Direction::Forward, Order::Natural, &x, n),
            oracle::naive_dft(field, &x, false),
            "{}: forward N = {n}",
            E::NAME
        );
        assert_eq!(
            run::<E, K>(field, Direction::Inverse, Order::Natural, &x, n),
            oracle::naive_dft(field, &x, true),
            "{}: inverse N = {n}",
            E::NAME
        );
    }
}

/// Forward against a radix-2 FFT on rug integers, N up to 2^14.
pub fn rug_radix2_fft<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    let top = max_log2(field, RUG_FFT_MAX_LOG2);
    // Every size up to 2^8 (each stage structure of the small plans), then
    // the mixed-radix and the largest sizes.
    let sizes: Vec<u32> = (0..=top.min(8))
        .chain([11, top].into_iter().filter(|&s| s > 8 && s <= top))
        .collect();
    for log2 in sizes {
        let n = 1 << log2;
        let x = sample(field, n, 200 + log2 as u64);
        let want = oracle::rug_radix2_fft(field, &x);
        assert_eq!(
            run::<E, K>(field, Direction::Forward, Order::Natural, &x, n),
            want,
            "{}: N = {n}",
            E::NAME
        );
        if log2 == top {
            assert_eq!(
                run::<E, K>(field, Direction::Forward, Order::DigitReversed, &x, n),
                digit_reversed(&want),
                "{}: digit-reversed N = {n}",
                E::NAME
            );
        }
    }
}

/// inverse(forward(x)) = x in both orders.
pub fn inverse_undoes_forward<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    for log2 in 0..=max_log2(field, ROUND_TRIP_MAX_LOG2) {
        let n = 1 << log2;
        let x = sample(field, n, 300 + log2 as u64);
        for order in [Order::Natural, Order::DigitReversed] {
            let y = run::<E, K>(field, Direction::Forward, order, &x, n);
            assert_eq!(
                run::<E, K>(field, Direction::Inverse, order, &y, n),
                x,
                "{}: N = {n}, {order:?}",
                E::NAME
            );
        }
    }
}

/// inverse(forward(a) · forward(b)) is the cyclic convolution of a and b,
/// through digit-reversed order (what polynomial products use) and natural.
pub fn convolution_theorem<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    for log2 in [0, 3, 6] {
        let n = 1 << log2;
        let a = sample(field, n, 400);
        let b = sample(field, n, 401);
        let want = oracle::cyclic_convolution(field, &a, &b);
        for order in [Order::Natural, Order::DigitReversed] {
            let fa = run::<E, K>(field, Direction::Forward, order, &a, n);
            let fb = run::<E, K>(field, Direction::Forward, order, &b, n);
            let prod: Vec<Element<K>> = fa.iter().zip(&fb).map(|(u, v)| field.mul(u, v)).collect();
            assert_eq!(
                run::<E, K>(field, Direction::Inverse, order, &prod, n),
                want,
                "{}: N = {n}, {order:?}",
                E::NAME
            );
        }
    }
}

/// F(αx + y) = αF(x) + F(y).
pub fn linearity<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    let n = 1 << max_log2(field, 8);
    let x = sample(field, n, 500);
    let y = sample(field, n, 501);
    let alpha = field.random(&mut StdRng::seed_from_u64(502));
    let combo: Vec<Element<K>> = x
        .iter()
        .zip(&y)
        .map(|(u, v)| field.add(&field.mul(&alpha, u), v))
        .collect();
    for direction in [Direction::Forward, Direction::Inverse] {
        let fx = run::<E, K>(field, direction, Order::Natural, &x, n);
        let fy = run::<E, K>(field, direction, Order::Natural, &y, n);
        let want: Vec<Element<K>> = fx
            .iter()
            .zip(&fy)
            .map(|(u, v)| field.add(&field.mul(&alpha, u), v))
            .collect();
        assert_eq!(
            run::<E, K>(field, direction, Order::Natural, &combo, n),
            want,
            "{}: {direction:?}",
            E::NAME
        );
    }
}

/// A batch of three equals three single transforms, with a scratch buffer
/// full of garbage (exact and longer than needed).
pub fn batches_and_dirty_scratch<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(600);
    for log2 in [0, 1, 5, max_log2(field, 10)] {
        let n = 1 << log2;
        for (direction, order) in [
            (Direction::Forward, Order::Natural),
            (Direction::Forward, Order::DigitReversed),
            (Direction::Inverse, Order::Natural),
            (Direction::Inverse, Order::DigitReversed),
        ] {
            let items: Vec<Vec<Element<K>>> = (0..3).map(|i| sample(field, n, 610 + i)).collect();
            let want: Vec<Element<K>> = items
                .iter()
                .flat_map(|x| run::<E, K>(field, direction, order, x, n))
                .collect();
            let need = E::scratch_len(field, n, direction, order);
            for extra in [0, 5] {
                let mut data: Vec<Element<K>> = items.concat();
                let mut scratch: Vec<Element<K>> = (0..need + extra).map(|_| field.random(&mut rng)).collect();
                E::transform(field, n, direction, order, &mut data, Some(&mut scratch))
                    .unwrap_or_else(|e| panic!("{}: batch N = {n}: {e}", E::NAME));
                assert_eq!(data, want, "{}: batch N = {n}, {direction:?} {order:?}", E::NAME);
            }
        }
    }
}

/// Lengths that are not a multiple of N, N not a power of two, N above the
/// 2-adicity or beyond memory, short scratch: errors, data untouched.
pub fn bad_lengths_are_errors<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    let f = Direction::Forward;
    let nat = Order::Natural;
    let x = sample(field, 24, 700);
    let mut data = x.clone();
    assert!(
        E::transform(field, 16, f, nat, &mut data, None).is_err(),
        "24 elements, N = 16"
    );
    assert_eq!(data, x, "data changed by a failed call");
    assert!(E::transform(field, 12, f, nat, &mut data, None).is_err(), "N = 12");
    assert!(E::transform(field, 0, f, nat, &mut data, None).is_err(), "N = 0");
    let v = field.two_adicity();
    if v < 62 {
        assert!(
            E::transform(field, 1 << (v + 1), f, nat, &mut [], None).is_err(),
            "N above the 2-adicity"
        );
    }
    assert!(
        E::transform(field, 1 << 62, f, nat, &mut [], None).is_err(),
        "N = 2^62 cannot fit in memory"
    );
    // An empty batch is zero transforms.
    assert!(E::transform(field, 16, f, nat, &mut [], None).is_ok());
    let need = E::scratch_len(field, 16, f, nat);
    if need > 0 {
        let mut data = x[..16].to_vec();
        let mut scratch = vec![field.zero(); need - 1];
        assert!(
            E::transform(field, 16, f, nat, &mut data, Some(&mut scratch)).is_err(),
            "scratch too short"
        );
        assert_eq!(data, x[..16].to_vec());
    }
}
